/*
 * test-cidr.c: strict IPv4 prefix parsing, formatting and containment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/cidr.h"

static void
parse_ok(const char *in, int host, const char *want)
{
	struct lz_cidr c;
	char out[32];

	assert_int_equal(lz_cidr_parse(in, host, &c, NULL), 0);
	lz_cidr_format(&c, out, sizeof out);
	assert_string_equal(out, want);
}

static void
parse_bad(const char *in, int host, const char *needle)
{
	struct lz_err e = LZ_ERR_INIT;
	struct lz_cidr c;

	assert_int_equal(lz_cidr_parse(in, host, &c, &e), LZ_EINVAL);
	assert_non_null(e.msg);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("'%s': message '%s' lacks '%s'", in, e.msg, needle);
	lz_err_release(&e);
}

static void
test_parse(void **state)
{
	(void)state;
	parse_ok("10.0.0.0/8", 0, "10.0.0.0/8");
	parse_ok("0.0.0.0/0", 0, "0.0.0.0/0");
	parse_ok("198.18.0.1/32", 0, "198.18.0.1/32");
	parse_ok("10.0.2.3", 1, "10.0.2.3/32");
	parse_bad("10.0.0.1/8", 0, "did you mean 10.0.0.0/8");
	parse_bad("10.0.0.0/33", 0, "prefix length");
	parse_bad("10.0.0.0/08", 0, "prefix length");
	parse_bad("10.0.0.0/", 0, "prefix length");
	parse_bad("10.0.0.0/8x", 0, "prefix length");
	parse_bad("010.0.0.0/8", 0, "leading zeros");
	parse_bad("256.0.0.0/8", 0, "not an IPv4 address");
	parse_bad("10.0.0/8", 0, "not an IPv4 address");
	parse_bad("fd00::/8", 0, "IPv6");
	parse_bad("10.0.0.1", 0, "no prefix length");
	parse_bad("/8", 0, "not an IPv4");
	parse_bad("", 0, "no prefix length");
}

static void
test_contains(void **state)
{
	struct lz_cidr a, b, c;

	(void)state;
	assert_int_equal(lz_cidr_parse("10.0.0.0/8", 0, &a, NULL), 0);
	assert_int_equal(lz_cidr_parse("10.1.0.0/16", 0, &b, NULL), 0);
	assert_int_equal(lz_cidr_parse("11.0.0.0/8", 0, &c, NULL), 0);
	assert_true(lz_cidr_contains(&a, &b));
	assert_false(lz_cidr_contains(&b, &a));
	assert_false(lz_cidr_contains(&a, &c));
	assert_true(lz_cidr_contains(&a, &a));
	assert_true(lz_cidr_compare(&a, &b) < 0);
	assert_true(lz_cidr_equal(&a, &a));
	assert_false(lz_cidr_equal(&a, &b));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_contains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
