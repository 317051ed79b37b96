/*
 * test-hostcas.c: the host's local CAs as set-up copies them into the
 * image (core/hostcas.c): *.crt files found below the directory, nested
 * and through symlinks, each with the SHA-256 of its bytes (the same as
 * sha256sum's, which set-up puts in the image label) and its subject;
 * other files ignored; a missing directory is no CA; a symlink loop and an
 * oversized file are errors naming the path; names and subjects shown
 * with control bytes made visible; and the label's comma-separated list.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/hostcas.h"
#include "tests/unit/testlib.h"

/* sha256sum of "hello\n". */
#define HELLO_SHA256 \
	"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

static void
test_read(void **state)
{
	char base[] = "/tmp/lz-test-hostcas.XXXXXX", path[256], key[256];
	struct lz_hostcas c;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(path, sizeof path, "%s/cas/corp/proxy.crt", base);
	snprintf(key, sizeof key, "%s/key.pem", base);
	lz_test_put(base, "cas/corp/.keep", "");
	{
		char *const argv[] = { "openssl", "req", "-x509", "-newkey",
		    "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
		    "-subj", "/O=Test Org/CN=Lazaret Test Proxy CA", "-days",
		    "1", "-keyout", key, "-out", path, NULL };
		lz_test_run(argv);
	}
	lz_test_put(base, "cas/plain.crt", "hello\n");
	lz_test_put(base, "cas/notes.txt", "not a CA\n");
	lz_test_put(base, "cas/odd\x01name.crt", "hello\n");
	lz_test_put(base, "elsewhere/linked.crt", "hello\n");
	snprintf(path, sizeof path, "%s/cas/link.crt", base);
	snprintf(key, sizeof key, "%s/elsewhere/linked.crt", base);
	assert_int_equal(symlink(key, path), 0);
	snprintf(path, sizeof path, "%s/cas/dangling.crt", base);
	assert_int_equal(symlink("/nonexistent/x.crt", path), 0);

	snprintf(path, sizeof path, "%s/cas", base);
	assert_int_equal(lz_hostcas_read(path, &c, &e), 0);
	assert_int_equal(c.n, 4);
	/* Sorted by name; nested names keep their directory. */
	assert_string_equal(c.v[0].name, "corp/proxy.crt");
	assert_string_equal(c.v[0].subject, "CN=Lazaret Test Proxy CA");
	assert_int_equal(strlen(c.v[0].sha256), 64);
	assert_string_equal(c.v[1].name, "link.crt");
	assert_string_equal(c.v[1].sha256, HELLO_SHA256);
	assert_string_equal(c.v[2].name, "odd?name.crt");
	assert_string_equal(c.v[3].name, "plain.crt");
	assert_string_equal(c.v[3].sha256, HELLO_SHA256);
	assert_string_equal(c.v[3].subject, "not a PEM certificate");
	lz_hostcas_release(&c);

	/* No directory: no local CA. */
	snprintf(path, sizeof path, "%s/none", base);
	assert_int_equal(lz_hostcas_read(path, &c, &e), 0);
	assert_int_equal(c.n, 0);

	/* A loop of directory symlinks ends with an error naming it. */
	snprintf(path, sizeof path, "%s/cas/corp/loop", base);
	snprintf(key, sizeof key, "%s/cas", base);
	assert_int_equal(symlink(key, path), 0);
	assert_int_equal(lz_hostcas_read(key, &c, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "directories deep"));
	assert_int_equal(c.n, 0);
	lz_err_release(&e);
	assert_int_equal(unlink(path), 0);

	/* An oversized file is not taken for a CA. */
	{
		char *big = lz_xcalloc(LZ_HOSTCAS_MAX_BYTES + 2, 1);

		memset(big, 'A', LZ_HOSTCAS_MAX_BYTES + 1);
		lz_test_put(base, "cas/big.crt", big);
		free(big);
	}
	assert_int_equal(lz_hostcas_read(key, &c, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "big.crt"));
	lz_err_release(&e);
	lz_test_rmrf(base);
}

static void
test_label(void **state)
{
	const char *label = "aaaa," HELLO_SHA256 ",bbbb";

	(void)state;
	assert_true(lz_hostcas_label_has(label, HELLO_SHA256));
	assert_true(lz_hostcas_label_has(HELLO_SHA256, HELLO_SHA256));
	assert_true(lz_hostcas_label_has("aaaa", "aaaa"));
	assert_false(lz_hostcas_label_has(label, "aaa"));
	assert_false(lz_hostcas_label_has(label, "aaaa,"));
	assert_false(lz_hostcas_label_has(label, "bbb"));
	assert_false(lz_hostcas_label_has("", HELLO_SHA256));
	assert_false(lz_hostcas_label_has(NULL, HELLO_SHA256));
	assert_false(lz_hostcas_label_has(label, ""));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_label),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
