/*
 * test-policy.c: the egress table: built-in defaults are consistent,
 * equal-prefix conflicts are found across built-ins, resolvers and rules
 * and name both sources (SR-6), and lookup is longest-prefix.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/policy.h"
#include "core/profile.h"

static uint32_t
ip(const char *s)
{
	struct in_addr a;

	assert_int_equal(inet_pton(AF_INET, s, &a), 1);
	return ntohl(a.s_addr);
}

static void
add(struct lz_policy *p, const char *pfx, enum lz_policy_action a,
    const char *src)
{
	struct lz_cidr c;

	assert_int_equal(lz_cidr_parse(pfx, 0, &c, NULL), 0);
	lz_policy_add(p, &c, a, src);
}

static void
test_builtin_consistent(void **state)
{
	struct lz_policy p = LZ_POLICY_INIT;

	(void)state;
	lz_policy_add_builtin(&p);
	assert_int_equal(lz_policy_check(&p, NULL), 0);
	assert_int_equal(lz_policy_lookup(&p, ip("1.1.1.1"), NULL),
	    LZ_POLICY_ALLOW);
	assert_int_equal(lz_policy_lookup(&p, ip("198.18.0.5"), NULL),
	    LZ_POLICY_ALLOW);
	assert_int_equal(lz_policy_lookup(&p, ip("10.1.2.3"), NULL),
	    LZ_POLICY_DENY);
	assert_int_equal(lz_policy_lookup(&p, ip("172.31.255.255"), NULL),
	    LZ_POLICY_DENY);
	assert_int_equal(lz_policy_lookup(&p, ip("172.32.0.1"), NULL),
	    LZ_POLICY_ALLOW);
	assert_int_equal(lz_policy_lookup(&p, ip("192.168.1.1"), NULL),
	    LZ_POLICY_DENY);
	assert_int_equal(lz_policy_lookup(&p, ip("169.254.169.254"), NULL),
	    LZ_POLICY_DENY);
	assert_int_equal(lz_policy_lookup(&p, ip("10.0.2.2"), NULL),
	    LZ_POLICY_DENY);
	lz_policy_release(&p);
}

static void
test_conflicts_name_both(void **state)
{
	struct lz_policy p = LZ_POLICY_INIT;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	lz_policy_add_builtin(&p);
	add(&p, "10.1.0.0/16", LZ_POLICY_ALLOW, "cfg:3");
	add(&p, "10.0.0.0/8", LZ_POLICY_ALLOW, "cfg:4");
	add(&p, "0.0.0.0/0", LZ_POLICY_DENY, "cfg:5");
	assert_int_equal(lz_policy_check(&p, &e), LZ_ECONFLICT);
	assert_non_null(strstr(e.msg, "cfg:4: allow 10.0.0.0/8 conflicts "
	    "with deny 10.0.0.0/8 (built-in: RFC 1918 private range)"));
	assert_non_null(strstr(e.msg, "cfg:5: deny 0.0.0.0/0 conflicts "
	    "with allow 0.0.0.0/0 (built-in: default route)"));
	assert_null(strstr(e.msg, "10.1.0.0"));
	lz_err_release(&e);
	lz_policy_release(&p);
}

static void
test_more_specific_grant(void **state)
{
	struct lz_policy p = LZ_POLICY_INIT;
	const struct lz_policy_rule *r;

	(void)state;
	lz_policy_add_builtin(&p);
	add(&p, "10.1.0.0/16", LZ_POLICY_ALLOW, "cfg:3");
	add(&p, "10.1.2.0/24", LZ_POLICY_DENY, "cfg:4");
	add(&p, "10.1.0.0/16", LZ_POLICY_ALLOW, "cfg:5");
	assert_int_equal(lz_policy_check(&p, NULL), 0);
	lz_policy_normalize(&p);
	assert_int_equal(p.n, 8);	/* 6 built-in + 2, duplicate dropped */
	assert_int_equal(lz_policy_lookup(&p, ip("10.1.9.9"), &r),
	    LZ_POLICY_ALLOW);
	assert_int_equal(r->prefix.len, 16);
	assert_int_equal(lz_policy_lookup(&p, ip("10.1.2.9"), &r),
	    LZ_POLICY_DENY);
	assert_string_equal(r->source, "cfg:4");
	assert_int_equal(lz_policy_lookup(&p, ip("10.2.0.1"), NULL),
	    LZ_POLICY_DENY);
	lz_policy_release(&p);
}

static void
test_profile_policy_includes_resolvers(void **state)
{
	struct lz_profile prof;
	struct lz_policy p = LZ_POLICY_INIT;

	(void)state;
	lz_profile_init(&prof, "t", "test");
	assert_int_equal(lz_profile_policy(&prof, &p, NULL), 0);
	/* 10.0.2.3 is inside the denied 10.0.2.0/24 but reachable. */
	assert_int_equal(lz_policy_lookup(&p, ip("10.0.2.3"), NULL),
	    LZ_POLICY_ALLOW);
	assert_int_equal(lz_policy_lookup(&p, ip("10.0.2.4"), NULL),
	    LZ_POLICY_DENY);
	lz_policy_release(&p);
	lz_profile_release(&prof);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_consistent),
		cmocka_unit_test(test_conflicts_name_both),
		cmocka_unit_test(test_more_specific_grant),
		cmocka_unit_test(test_profile_policy_includes_resolvers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
