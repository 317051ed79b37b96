/*
 * test-anchor-annot.c: unit tests of core/anchor-annot.c, the State
 * Anchors annotation the runtime shim reads: the codec round trip (paths
 * with spaces, commas, quotes and newlines), every malformed value, and
 * the bundle reading up to the point where mounting would start.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <openssl/evp.h>

#include "core/anchor-annot.h"
#include "testlib.h"

/* base64 of text (allocated). */
static char *
b64(const char *text)
{
	size_t len = strlen(text);
	unsigned char *out = lz_xmalloc(4 * ((len + 2) / 3) + 1);

	EVP_EncodeBlock(out, (const unsigned char *)text, (int)len);
	return (char *)out;
}

static void
test_round_trip(void **state)
{
	static const char *const f[] = {
		"/usr", "/d/a b/gen-1/upper", "/d/a,b/gen-1/work",
		"/d/\"q\"/merged", "/d/new\nline/lower-empty",
		"/etc", "/u2", "/w2", "/m2", "/l2",
	};
	struct lz_tokens in = LZ_TOKENS_INIT, out = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof f / sizeof *f; i++)
		lz_tokens_push(&in, f[i]);
	v = lz_anchor_annot_encode(&in);
	/* Nothing podman's CSV parsing of --annotation would split at. */
	assert_null(strpbrk(v, ",\"\n "));
	assert_int_equal(lz_anchor_annot_decode(v, &out, &err), 0);
	assert_int_equal(out.n, in.n);
	for (i = 0; i < in.n; i++)
		assert_string_equal(out.v[i], in.v[i]);
	free(v);
	lz_tokens_release(&in);
	lz_tokens_release(&out);
}

/* Decodes text's base64 and expects LZ_EINVAL naming want. */
static void
bad(const char *value, int encode, const char *want)
{
	struct lz_tokens out = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *v = encode ? b64(value) : lz_xstrdup(value);

	assert_int_equal(lz_anchor_annot_decode(v, &out, &err), LZ_EINVAL);
	assert_non_null(err.msg);
	if (strstr(err.msg, want) == NULL)
		fail_msg("'%s': got '%s', want '%s'", value, err.msg, want);
	assert_int_equal(out.n, 0);
	lz_err_release(&err);
	free(v);
}

static void
test_bad(void **state)
{
	struct lz_buf many = LZ_BUF_INIT;
	int i;

	(void)state;
	bad("", 0, "not base64");
	bad("abc", 0, "not base64");
	bad("a,bc", 0, "not base64");
	bad("{}", 1, "array of at most");
	bad("not json", 1, "not JSON");
	bad("[[\"/a\",\"/b\"]]", 1, "does not have 5 fields");
	bad("[\"/a\"]", 1, "does not have 5 fields");
	bad("[[\"/a\",\"/b\",\"/c\",\"/d\",\"e\"]]", 1, "not an absolute");
	bad("[[\"/a\",\"/b\",\"/c\",\"/d\",1]]", 1, "not an absolute");
	bad("[[\"/a\",\"/b\",\"/c\",\"/d\\u0000x\",\"/e\"]]", 1,
	    "not JSON");
	lz_buf_adds(&many, "[");
	for (i = 0; i <= LZ_ANCHOR_MAX; i++)
		lz_buf_addf(&many, "%s[\"/a\",\"/b\",\"/c\",\"/d\",\"/e\"]",
		    i ? "," : "");
	lz_buf_adds(&many, "]");
	bad(many.buf, 1, "array of at most");
	lz_buf_release(&many);
}

/* Writes dir/config.json with text. */
static void
put_config(const char *dir, const char *text)
{
	lz_test_put(dir, "config.json", text);
}

static void
test_bundle(void **state)
{
	char dir[] = "/tmp/lz-annot-XXXXXX", *v, *text;
	struct lz_err err = LZ_ERR_INIT;
	size_t n = 7;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* No config.json: an error naming the file. */
	assert_int_not_equal(lz_anchor_annot_mount(dir, &n, &err), 0);
	assert_non_null(strstr(err.msg, "config.json"));
	lz_err_release(&err);
	/* No annotation (a plain podman run with the shim): nothing. */
	put_config(dir, "{\"root\":{\"path\":\"/r\"},\"annotations\":{}}");
	assert_int_equal(lz_anchor_annot_mount(dir, &n, &err), 0);
	assert_int_equal(n, 0);
	/* The annotation without an absolute root. */
	v = b64("[[\"/usr\",\"/u\",\"/w\",\"/m\",\"/l\"]]");
	text = lz_xasprintf("{\"root\":{\"path\":\"r\"},\"annotations\":"
	    "{\"" LZ_ANCHOR_ANNOTATION "\":\"%s\"}}", v);
	put_config(dir, text);
	assert_int_equal(lz_anchor_annot_mount(dir, &n, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "root.path"));
	lz_err_release(&err);
	free(text);
	/* A malformed annotation is refused before anything is mounted. */
	put_config(dir, "{\"root\":{\"path\":\"/r\"},\"annotations\":"
	    "{\"" LZ_ANCHOR_ANNOTATION "\":\"!!\"}}");
	assert_int_equal(lz_anchor_annot_mount(dir, &n, &err), LZ_EINVAL);
	assert_int_equal(n, 0);
	lz_err_release(&err);
	free(v);
	lz_test_rmrf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bundle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
