/*
 * test-rules.c: auto-approval rules match complete argument vectors, and
 * trailing arguments only with the explicit "..." marker (SR-8).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/rules.h"

static void
test_exact(void **state)
{
	struct lz_rule r;
	char *ok[] = { "git", "fetch" };
	char *more[] = { "git", "fetch", "--all" };
	char *less[] = { "git" };
	char *other[] = { "/usr/bin/git", "fetch" };

	(void)state;
	assert_int_equal(lz_rule_parse("git fetch", "t:1", &r, NULL), 0);
	assert_false(r.trailing);
	assert_true(lz_rule_match(&r, ok, 2));
	assert_false(lz_rule_match(&r, more, 3));
	assert_false(lz_rule_match(&r, less, 1));
	assert_false(lz_rule_match(&r, other, 2));
	lz_rule_release(&r);
}

static void
test_trailing(void **state)
{
	struct lz_rule r;
	char *ok[] = { "git", "log" };
	char *more[] = { "git", "log", "-n", "3" };
	char *wrong[] = { "git", "push" };

	(void)state;
	assert_int_equal(lz_rule_parse("git log ...", "t:2", &r, NULL), 0);
	assert_true(r.trailing);
	assert_int_equal(r.argv.n, 2);
	assert_true(lz_rule_match(&r, ok, 2));
	assert_true(lz_rule_match(&r, more, 4));
	assert_false(lz_rule_match(&r, wrong, 2));
	lz_rule_release(&r);
}

static void
test_literal_dots_and_spaces(void **state)
{
	struct lz_rule r, back;
	struct lz_buf b = LZ_BUF_INIT;
	char *dots[] = { "ls", "..." };
	char *dots_more[] = { "ls", "...", "x" };
	char *spaced[] = { "make", "test all; rm" };

	(void)state;
	assert_int_equal(lz_rule_parse("ls %2E..", "t:3", &r, NULL), 0);
	assert_false(r.trailing);
	assert_true(lz_rule_match(&r, dots, 2));
	assert_false(lz_rule_match(&r, dots_more, 3));
	lz_rule_format(&r, &b);
	assert_string_equal(b.buf, "ls %2E..");
	lz_rule_release(&r);

	assert_int_equal(lz_rule_parse("make test%20all%3B%20rm", "t:4", &r,
	    NULL), 0);
	assert_true(lz_rule_match(&r, spaced, 2));
	lz_buf_reset(&b);
	lz_rule_format(&r, &b);
	assert_int_equal(lz_rule_parse(b.buf, "t:5", &back, NULL), 0);
	assert_true(lz_rule_match(&back, spaced, 2));
	lz_rule_release(&back);
	lz_rule_release(&r);
	lz_buf_release(&b);
}

static void
test_bad(void **state)
{
	struct lz_rule r;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_rule_parse("...", "t:6", &r, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "program"));
	lz_err_release(&e);
	assert_int_equal(lz_rule_parse("", "t:7", &r, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_rule_parse("git %zz", "t:8", &r, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "hex"));
	lz_err_release(&e);
	/* "a..." is an argument, not the marker. */
	assert_int_equal(lz_rule_parse("echo a...", "t:9", &r, NULL), 0);
	assert_false(r.trailing);
	assert_string_equal(r.argv.v[1], "a...");
	lz_rule_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_literal_dots_and_spaces),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
