/*
 * test-tokens.c: the config argument-vector syntax: splitting, escapes,
 * refusals, and quoting that reads back to the same bytes; and how a token
 * vector (and every array appended to, lz_xgrow) grows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/tokens.h"

static void
split_ok(const char *in, size_t n, const char *const *want)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	assert_int_equal(lz_tokens_split(in, &t, &e), 0);
	assert_null(e.msg);
	assert_int_equal(t.n, n);
	for (i = 0; i < n; i++)
		assert_string_equal(t.v[i], want[i]);
	if (n > 0)
		assert_null(t.v[n]);
	lz_tokens_release(&t);
}

static void
split_bad(const char *in, const char *needle)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_err e = LZ_ERR_INIT;

	assert_int_equal(lz_tokens_split(in, &t, &e), LZ_EINVAL);
	assert_non_null(e.msg);
	assert_non_null(strstr(e.msg, needle));
	assert_int_equal(t.n, 0);
	lz_err_release(&e);
}

static void
test_plain(void **state)
{
	const char *w[] = { "git", "log", "--oneline" };

	(void)state;
	split_ok("git log --oneline", 3, w);
	split_ok("  git \t log   --oneline  ", 3, w);
	split_ok("", 0, NULL);
	split_ok("   ", 0, NULL);
}

static void
test_escapes(void **state)
{
	const char *w[] = { "echo", "a b; c", "#x", "100%", "it's", "" };

	(void)state;
	split_ok("echo a%20b%3B%20c %23x 100%25 it%27s ''", 6, w);
}

static void
test_refusals(void **state)
{
	(void)state;
	split_bad("echo %zz", "two hex digits");
	split_bad("echo %2", "two hex digits");
	split_bad("echo %", "two hex digits");
	split_bad("echo %00", "NUL");
	split_bad("echo \x01", "control character");
	split_bad("echo it's", "quote");
	split_bad("echo 'a b'", "quote");
	split_bad("echo %ff%fe", "UTF-8");
	/* Raw invisible characters: bidi override, zero-width, C1, NBSP. */
	split_bad("git push \xe2\x80\xae", "U+202E");
	split_bad("git pu\xe2\x80\x8bsh", "U+200B");
	split_bad("echo \xc2\x9b", "U+009B");
	split_bad("echo a\xc2\xa0" "b", "U+00A0");
}

/* Invisible characters are written as escapes and read back as bytes. */
static void
test_invisible(void **state)
{
	const char *w[] = { "ls", "\xe2\x80\xaetxt", "a\xc2\xa0" "b" };
	struct lz_tokens in = LZ_TOKENS_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++)
		lz_tokens_push(&in, w[i]);
	lz_tokens_join(&b, &in);
	assert_string_equal(b.buf, "ls %E2%80%AEtxt a%C2%A0b");
	split_ok(b.buf, 3, w);
	lz_tokens_release(&in);
	lz_buf_release(&b);
}

static void
test_roundtrip(void **state)
{
	const char *tricky[] = { "a b", ";", " ;x", "#", "%", "'", "",
	    "...", "\xc3\xa9t\xc3\xa9", "tab\there", "\"q\"",
	    "\xe2\x81\xa6x\xf3\xa0\x81\x81" };
	struct lz_tokens in = LZ_TOKENS_INIT, out = LZ_TOKENS_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof tricky / sizeof *tricky; i++)
		lz_tokens_push(&in, tricky[i]);
	lz_tokens_join(&b, &in);
	/* The quoted form must survive inih: no " ;" and no raw ';'. */
	assert_null(strchr(b.buf, ';'));
	assert_int_equal(lz_tokens_split(b.buf, &out, NULL), 0);
	assert_int_equal(out.n, in.n);
	for (i = 0; i < in.n; i++)
		assert_string_equal(out.v[i], in.v[i]);
	lz_tokens_release(&in);
	lz_tokens_release(&out);
	lz_buf_release(&b);
}

static void
test_has(void **state)
{
	struct lz_tokens t = LZ_TOKENS_INIT;

	(void)state;
	assert_false(lz_tokens_has(&t, "LANG"));
	lz_tokens_push(&t, "TERM");
	lz_tokens_push(&t, "LANG");
	assert_true(lz_tokens_has(&t, "LANG"));
	assert_false(lz_tokens_has(&t, "LAN"));
	lz_tokens_release(&t);
}

/*
 * Appends grow an array by half again, never by one: 100,000 appends
 * reallocate it a few dozen times (each a copy under ASan, where growing
 * by one took 150 s for 60,000). A NULL array has no capacity.
 */
static void
test_grow(void **state)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	size_t alloc = 0, had = 0, changes = 0, i;
	int *v = NULL;

	(void)state;
	for (i = 0; i < 100000; i++) {
		v = lz_xgrow(v, i + 1, &alloc, sizeof *v);
		assert_true(alloc >= i + 1);
		v[i] = (int)i;
		if (alloc != had)
			changes++;
		had = alloc;
	}
	assert_true(changes <= 32);
	assert_true(alloc < 2 * 100000);
	for (i = 0; i < 100000; i += 9973)
		assert_int_equal(v[i], (int)i);
	free(v);
	/* Released (NULL) with a stale capacity: grown again. */
	v = lz_xgrow(NULL, 3, &alloc, sizeof *v);
	assert_true(alloc >= 3 && alloc < 100000);
	v[2] = 7;
	free(v);
	for (i = 0; i < 5000; i++)
		lz_tokens_pushf(&t, "%zu", i);
	assert_int_equal(t.n, 5000);
	assert_true(t.alloc >= t.n + 1);
	assert_null(t.v[t.n]);
	assert_string_equal(t.v[4999], "4999");
	lz_tokens_release(&t);
	assert_int_equal(t.alloc, 0);
	lz_tokens_push(&t, "again");
	assert_string_equal(t.v[0], "again");
	assert_null(t.v[1]);
	lz_tokens_release(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_invisible),
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
