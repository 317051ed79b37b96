/*
 * test-trust.c: the Trust Anchor (core/trust.h): a certificate it issued
 * verifies for exactly its role, Domain, profile and component, within its
 * validity; one wrong in any bound field, expired, not yet valid, issued
 * by another CA or by this Domain's CA of an earlier coordinator, altered
 * after signing, or not a certificate at all is refused. Keys, signatures
 * and HMACs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/hmac.h"
#include "core/trust.h"

#define DOM "0123456789abcdef"
#define COORD "fedcba9876543210"

static void
refused(const struct lz_trust *t, const struct lz_buf *pem, enum lz_role r,
    const char *comp, time_t now, const char *needle)
{
	struct lz_err e = LZ_ERR_INIT;

	assert_int_equal(lz_trust_verify(t, pem->buf, pem->len, r, comp, now,
	    NULL, &e), LZ_EINVAL);
	if (e.msg == NULL || strstr(e.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", e.msg != NULL ? e.msg :
		    "(no message)", needle);
	lz_err_release(&e);
}

static void
test_issue_and_bound_fields(void **state)
{
	struct lz_trust *t = lz_trust_new(DOM, "default", COORD, NULL);
	struct lz_buf pem = LZ_BUF_INIT, bad = LZ_BUF_INIT;
	EVP_PKEY *k = lz_key_new(NULL), *pub = NULL;
	const struct lz_trust_issued *l;
	time_t now = time(NULL);
	size_t n;

	(void)state;
	assert_non_null(t);
	assert_int_equal(strlen(lz_trust_fingerprint(t)), 64);
	assert_int_equal(lz_trust_issue(t, LZ_ROLE_SANDBOX, "a1b2c3", k, &pem,
	    NULL), 0);
	assert_int_equal(lz_trust_verify(t, pem.buf, pem.len, LZ_ROLE_SANDBOX,
	    "a1b2c3", 0, &pub, NULL), 0);
	assert_int_equal(EVP_PKEY_eq(pub, k), 1);
	EVP_PKEY_free(pub);
	l = lz_trust_list(t, &n, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(l[0].role, LZ_ROLE_SANDBOX);
	assert_string_equal(l[0].component, "a1b2c3");
	assert_int_equal(strlen(l[0].fingerprint), 64);
	assert_true(l[0].not_after > now + 6 * 24 * 3600);
	/* Wrong role, wrong component: the verifier's expectations. */
	refused(t, &pem, LZ_ROLE_CLIENT, "a1b2c3", 0, "this peer must be");
	refused(t, &pem, LZ_ROLE_SANDBOX, "a1b2c4", 0, "this peer must be");
	/* This CA made to sign another Domain's or profile's name. */
	assert_int_equal(lz_trust_issue_fields(t, LZ_ROLE_SANDBOX,
	    "1111111111111111", "default", "a1b2c3", k, now - 60, now + 3600,
	    &bad, NULL), 0);
	refused(t, &bad, LZ_ROLE_SANDBOX, "a1b2c3", 0, "lazaret://1111");
	lz_buf_reset(&bad);
	assert_int_equal(lz_trust_issue_fields(t, LZ_ROLE_SANDBOX, DOM,
	    "other", "a1b2c3", k, now - 60, now + 3600, &bad, NULL), 0);
	refused(t, &bad, LZ_ROLE_SANDBOX, "a1b2c3", 0, "profile=other");
	/* Expired, not yet valid. */
	lz_buf_reset(&bad);
	assert_int_equal(lz_trust_issue_fields(t, LZ_ROLE_SANDBOX, DOM,
	    "default", "a1b2c3", k, now - 7200, now - 3600, &bad, NULL), 0);
	refused(t, &bad, LZ_ROLE_SANDBOX, "a1b2c3", 0, "expired");
	lz_buf_reset(&bad);
	assert_int_equal(lz_trust_issue_fields(t, LZ_ROLE_SANDBOX, DOM,
	    "default", "a1b2c3", k, now + 3600, now + 7200, &bad, NULL), 0);
	refused(t, &bad, LZ_ROLE_SANDBOX, "a1b2c3", 0, "not yet valid");
	/* The good one at a time past its notAfter. */
	refused(t, &pem, LZ_ROLE_SANDBOX, "a1b2c3", now + 8 * 24 * 3600,
	    "expired");
	/* A bad component ID is not issued. */
	assert_int_equal(lz_trust_issue(t, LZ_ROLE_CLIENT, "../x", k, &bad,
	    NULL), LZ_EINVAL);
	EVP_PKEY_free(k);
	lz_buf_release(&pem);
	lz_buf_release(&bad);
	lz_trust_free(t);
}

static void
test_other_cas_and_garbage(void **state)
{
	struct lz_trust *t = lz_trust_new(DOM, "default", COORD, NULL);
	struct lz_trust *earlier = lz_trust_new(DOM, "default",
	    "0000000000000001", NULL);
	struct lz_trust *other = lz_trust_new("2222222222222222", "default",
	    COORD, NULL);
	struct lz_buf pem = LZ_BUF_INIT, x = LZ_BUF_INIT;
	EVP_PKEY *k = lz_key_new(NULL);
	char *p;

	(void)state;
	/* Same Domain, profile, role and component: an earlier instance's
	 * CA, or another Domain's, is not this one. */
	assert_int_equal(lz_trust_issue(earlier, LZ_ROLE_SANDBOX, "abc", k,
	    &pem, NULL), 0);
	refused(t, &pem, LZ_ROLE_SANDBOX, "abc", 0, "certificate refused");
	lz_buf_reset(&pem);
	assert_int_equal(lz_trust_issue(other, LZ_ROLE_SANDBOX, "abc", k,
	    &pem, NULL), 0);
	refused(t, &pem, LZ_ROLE_SANDBOX, "abc", 0, "certificate refused");
	/* Its own CA certificate is not a leaf. */
	lz_buf_reset(&x);
	lz_buf_adds(&x, lz_trust_ca_pem(t));
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "refused");
	/* Altered after signing: a byte of the body flipped. */
	lz_buf_reset(&pem);
	assert_int_equal(lz_trust_issue(t, LZ_ROLE_SANDBOX, "abc", k, &pem,
	    NULL), 0);
	lz_buf_reset(&x);
	lz_buf_add(&x, pem.buf, pem.len);
	p = x.buf + 120;
	*p = *p == 'A' ? 'B' : 'A';
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "");
	/* Garbage, truncated, oversized, empty. */
	lz_buf_reset(&x);
	lz_buf_adds(&x, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END "
	    "CERTIFICATE-----\n");
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "not a certificate");
	lz_buf_reset(&x);
	lz_buf_add(&x, pem.buf, pem.len / 2);
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "not a certificate");
	lz_buf_reset(&x);
	while (x.len <= LZ_TRUST_PEM_MAX)
		lz_buf_adds(&x, "garbage ");
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "at most");
	lz_buf_reset(&x);
	refused(t, &x, LZ_ROLE_SANDBOX, "abc", 0, "0 bytes");
	EVP_PKEY_free(k);
	lz_buf_release(&pem);
	lz_buf_release(&x);
	lz_trust_free(t);
	lz_trust_free(earlier);
	lz_trust_free(other);
}

static void
test_keys_and_macs(void **state)
{
	struct lz_buf pub = LZ_BUF_INIT, sig = LZ_BUF_INIT, pem = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	EVP_PKEY *k = lz_key_new(NULL), *k2 = lz_key_new(NULL), *p;
	unsigned char key[32] = { 1, 2, 3 };
	char mac[65], mac2[65];

	(void)state;
	assert_int_equal(lz_key_public_b64(k, &pub), 0);
	assert_int_equal(pub.len, 44);
	p = lz_key_from_b64(pub.buf, NULL);
	assert_non_null(p);
	assert_int_equal(EVP_PKEY_eq(p, k), 1);
	assert_null(lz_key_from_b64("not base64", &e));
	lz_err_release(&e);
	assert_null(lz_key_from_b64("QUFB", &e));
	lz_err_release(&e);
	assert_int_equal(lz_key_sign(k, "record", 6, &sig, NULL), 0);
	assert_int_equal(lz_key_verify(p, "record", 6, sig.buf, NULL), 0);
	assert_int_equal(lz_key_verify(p, "recorD", 6, sig.buf, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_key_verify(k2, "record", 6, sig.buf, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_key_verify(p, "record", 6, "short", &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_key_private_pem(k, &pem, NULL), 0);
	assert_non_null(strstr(pem.buf, "BEGIN PRIVATE KEY"));
	/* RFC 4231 test case 2. */
	lz_hmac_hex((const unsigned char *)"Jefe", 4,
	    "what do ya want for nothing?", 28, mac);
	assert_string_equal(mac, "5bdcc146bf60754e6a042426089575c75a003f08"
	    "9d2739839dec58b964ec3843");
	lz_hmac_hex(key, sizeof key, "x", 1, mac2);
	assert_true(lz_hmac_equal(mac2, mac2));
	assert_false(lz_hmac_equal(mac, mac2));
	assert_false(lz_hmac_equal(mac, "5b"));
	EVP_PKEY_free(p);
	EVP_PKEY_free(k);
	EVP_PKEY_free(k2);
	lz_buf_release(&pub);
	lz_buf_release(&sig);
	lz_buf_release(&pem);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_issue_and_bound_fields),
		cmocka_unit_test(test_other_cas_and_garbage),
		cmocka_unit_test(test_keys_and_macs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
