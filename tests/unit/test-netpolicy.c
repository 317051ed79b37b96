/*
 * test-netpolicy.c: the sidecar's policy text: the default profile
 * compiles to the documented text and digest, the parser takes back
 * exactly the canonical form and nothing else, lookup is longest-prefix
 * with "deny" when nothing matches, and every rule gets a probe address
 * that the rule itself decides.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/netpolicy.h"
#include "core/profile.h"

#define DEFAULT_TEXT \
	"lazaret-netpolicy 1\n" \
	"allow 0.0.0.0/0\n" \
	"deny 10.0.0.0/8\n" \
	"deny 10.0.2.0/24\n" \
	"allow 10.0.2.3/32\n" \
	"deny 169.254.0.0/16\n" \
	"deny 172.16.0.0/12\n" \
	"deny 192.168.0.0/16\n" \
	"resolver 10.0.2.3\n"

static uint32_t
ip(const char *s)
{
	struct in_addr a;

	assert_int_equal(inet_pton(AF_INET, s, &a), 1);
	return ntohl(a.s_addr);
}

/* The default profile's table and resolvers, compiled. */
static void
compile_default(struct lz_netpolicy *np)
{
	struct lz_profile p;
	struct lz_policy eff = LZ_POLICY_INIT;
	struct lz_cidr r[LZ_NETPOLICY_MAX_RESOLVERS];
	size_t i;

	lz_profile_init(&p, "default", "built-in");
	assert_int_equal(lz_profile_policy(&p, &eff, NULL), 0);
	for (i = 0; i < p.nresolvers; i++)
		r[i] = p.resolvers[i].addr;
	assert_int_equal(lz_netpolicy_compile(np, &eff, r, p.nresolvers,
	    NULL), 0);
	lz_policy_release(&eff);
	lz_profile_release(&p);
}

static void
test_default_text(void **state)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_buf b = LZ_BUF_INIT;

	(void)state;
	compile_default(&np);
	lz_netpolicy_format(&np, &b);
	assert_string_equal(b.buf, DEFAULT_TEXT);
	lz_buf_release(&b);
	lz_netpolicy_release(&np);
}

static void
test_digest(void **state)
{
	char d[LZ_NETPOLICY_DIGEST_LEN + 1];

	(void)state;
	assert_int_equal(lz_netpolicy_digest("abc", 3, d, NULL), 0);
	assert_string_equal(d, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
}

static void
test_roundtrip(void **state)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_netpolicy_parse(DEFAULT_TEXT, strlen(DEFAULT_TEXT),
	    &np, &err), 0);
	assert_int_equal(np.nrules, 7);
	assert_int_equal(np.nresolvers, 1);
	assert_int_equal(np.resolvers[0], ip("10.0.2.3"));
	lz_netpolicy_format(&np, &b);
	assert_string_equal(b.buf, DEFAULT_TEXT);
	lz_buf_release(&b);
	lz_netpolicy_release(&np);
}

static void
test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		"lazaret-netpolicy 2\n",
		"lazaret-netpolicy 1\nallow 0.0.0.0/0",		/* no \n */
		"lazaret-netpolicy 1\nallow 0.0.0.0/0 \n",
		"lazaret-netpolicy 1\nallow  0.0.0.0/0\n",
		"lazaret-netpolicy 1\nallow 10.0.0.1/8\n",	/* host bits */
		"lazaret-netpolicy 1\nallow 010.0.0.0/8\n",
		"lazaret-netpolicy 1\nallow 10.0.0.0/08\n",
		"lazaret-netpolicy 1\nallow 10.0.0.0\n",
		"lazaret-netpolicy 1\ndeny 10.0.0.0/8\nallow 0.0.0.0/0\n",
		"lazaret-netpolicy 1\nallow 0.0.0.0/0\nallow 0.0.0.0/0\n",
		"lazaret-netpolicy 1\nallow 0.0.0.0/0\ndeny 0.0.0.0/0\n",
		"lazaret-netpolicy 1\nallow 0.0.0.0/0\nresolver 1.1.1.1\n"
		    "deny 10.0.0.0/8\n",
		"lazaret-netpolicy 1\ndeny 10.0.0.0/8\nresolver 10.0.2.3\n",
		"lazaret-netpolicy 1\nresolver 1.1.1.1\n",	/* no rule */
		"lazaret-netpolicy 1\nallow 0.0.0.0/0\nresolver 1.1.1.1/32\n",
		"lazaret-netpolicy 1\nallow 0.0.0.0/0\nresolver 1.1.1.1\n"
		    "resolver 1.1.1.1\n",
		"lazaret-netpolicy 1\nallow ::/0\n",
		"lazaret-netpolicy 1\nAllow 0.0.0.0/0\n",
		"lazaret-netpolicy 1\r\nallow 0.0.0.0/0\n",
	};
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_err err = LZ_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (lz_netpolicy_parse(bad[i], strlen(bad[i]), &np, &err) !=
		    LZ_EINVAL)
			fail_msg("accepted case %zu: '%s'", i, bad[i]);
		assert_non_null(err.msg);
		assert_null(np.rules);
		lz_err_release(&err);
	}
	/* A NUL inside the given length. */
	assert_int_equal(lz_netpolicy_parse("lazaret-netpolicy 1\n\0", 21,
	    &np, &err), LZ_EINVAL);
	lz_err_release(&err);
}

static void
test_lookup(void **state)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	size_t r;

	(void)state;
	compile_default(&np);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("198.18.0.1"), &r), 1);
	assert_int_equal(r, 0);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("10.1.2.3"), NULL), 0);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("10.0.2.2"), NULL), 0);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("10.0.2.3"), NULL), 1);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("169.254.169.254"),
	    NULL), 0);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("172.31.254.2"), NULL),
	    0);
	lz_netpolicy_release(&np);
	/* Nothing covers it: denied. */
	assert_int_equal(lz_netpolicy_parse("lazaret-netpolicy 1\n"
	    "allow 198.18.0.0/15\n", 40, &np, NULL), 0);
	assert_int_equal(lz_netpolicy_lookup(&np, ip("1.2.3.4"), &r), 0);
	assert_int_equal(r, np.nrules);
	lz_netpolicy_release(&np);
}

static void
test_probes(void **state)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_netpolicy_probe *v;
	size_t n, i, r;
	int seen[8] = { 0 }, gw = 0, meta = 0, res = 0;

	(void)state;
	compile_default(&np);
	lz_netpolicy_probes(&np, &v, &n);
	for (i = 0; i < n; i++) {
		assert_int_equal(v[i].allow, lz_netpolicy_lookup(&np, v[i].addr,
		    &r));
		assert_int_equal(v[i].rule, r);
		assert_true((v[i].addr >> 24) != 0 && (v[i].addr >> 24) != 127);
		if (strcmp(v[i].why, "rule") == 0)
			seen[r] = 1;
		if (v[i].addr == ip("10.0.2.2")) {
			gw = 1;
			assert_int_equal(v[i].allow, 0);
		}
		if (v[i].addr == ip("169.254.169.254")) {
			meta = 1;
			assert_int_equal(v[i].allow, 0);
		}
		if (v[i].addr == ip("10.0.2.3")) {
			res = 1;
			assert_int_equal(v[i].allow, 1);
			assert_int_equal(v[i].via_gateway, 0);
		}
		if (v[i].rule == 0)
			assert_int_equal(v[i].via_gateway, 1);
	}
	for (i = 0; i < np.nrules; i++)
		assert_true(seen[i]);
	assert_true(gw && meta && res);
	free(v);
	lz_netpolicy_release(&np);
}

static void
test_compile_refuses_denied_resolver(void **state)
{
	struct lz_policy p = LZ_POLICY_INIT;
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_cidr c, r;

	(void)state;
	assert_int_equal(lz_cidr_parse("0.0.0.0/0", 0, &c, NULL), 0);
	lz_policy_add(&p, &c, LZ_POLICY_ALLOW, "t");
	assert_int_equal(lz_cidr_parse("10.0.0.0/8", 0, &c, NULL), 0);
	lz_policy_add(&p, &c, LZ_POLICY_DENY, "t");
	assert_int_equal(lz_cidr_parse("10.9.9.9", 1, &r, NULL), 0);
	assert_int_equal(lz_netpolicy_compile(&np, &p, &r, 1, &err),
	    LZ_EINVAL);
	assert_non_null(strstr(err.msg, "10.9.9.9"));
	assert_null(np.rules);
	lz_err_release(&err);
	lz_policy_release(&p);
}

/*
 * The attachment file: the key and this start's component IDs, written
 * by the coordinator when the sidecar starts; exactly that form is read
 * back, anything else refused.
 */
static void
test_attach_file(void **state)
{
#define KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	static const char key[] = KEY;
	unsigned char k[LZ_NETPOLICY_KEY_BYTES];
	char side[LZ_NETPOLICY_ID_LEN + 1], box[LZ_NETPOLICY_ID_LEN + 1];
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *bad;
	size_t i;

	(void)state;
	assert_int_equal(lz_netpolicy_attach_format(key, "0123456789abcdef",
	    "fedcba9876543210", &b, NULL), 0);
	assert_string_equal(b.buf, KEY "\n0123456789abcdef fedcba9876543210\n");
	assert_int_equal(lz_netpolicy_attach_parse(b.buf, b.len, k, side, box,
	    NULL), 0);
	assert_int_equal(k[0], 0x00);
	assert_int_equal(k[1], 0x11);
	assert_int_equal(k[31], 0xff);
	assert_string_equal(side, "0123456789abcdef");
	assert_string_equal(box, "fedcba9876543210");
	/* The key alone (an older lazaret's file), one byte short or more,
	 * a byte changed at each separator and in each ID. */
	assert_int_equal(lz_netpolicy_attach_parse(key, 64, k, side, box,
	    &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "scripts/setup.sh"));
	lz_err_release(&err);
	assert_int_equal(lz_netpolicy_attach_parse(b.buf, b.len - 1, k, side,
	    box, NULL), LZ_EINVAL);
	lz_buf_addch(&b, '\n');
	assert_int_equal(lz_netpolicy_attach_parse(b.buf, b.len, k, side, box,
	    NULL), LZ_EINVAL);
	b.buf[--b.len] = '\0';
	{
		static const size_t at[] = { 64, 65, 80, 81, 96 };

		for (i = 0; i < sizeof at / sizeof at[0]; i++) {
			bad = lz_xstrdup(b.buf);
			bad[at[i]] = bad[at[i]] == 'x' ? 'y' : 'x';
			assert_int_equal(lz_netpolicy_attach_parse(bad,
			    b.len, k, side, box, NULL), LZ_EINVAL);
			bad[at[i]] = '\0';
			assert_int_equal(lz_netpolicy_attach_parse(bad,
			    b.len, k, side, box, NULL), LZ_EINVAL);
			free(bad);
		}
	}
	lz_buf_release(&b);
	/* Nothing but lower-case hex of the right lengths is written. */
	assert_int_equal(lz_netpolicy_attach_format(key, "0123456789ABCDEF",
	    "fedcba9876543210", &b, NULL), LZ_EINVAL);
	assert_int_equal(lz_netpolicy_attach_format(key, "0123",
	    "fedcba9876543210", &b, NULL), LZ_EINVAL);
	assert_int_equal(lz_netpolicy_attach_format("00", "0123456789abcdef",
	    "fedcba9876543210", &b, NULL), LZ_EINVAL);
	assert_int_equal(b.len, 0);
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_text),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_compile_refuses_denied_resolver),
		cmocka_unit_test(test_attach_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
