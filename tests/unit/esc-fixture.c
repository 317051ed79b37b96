/*
 * esc-fixture.c: both ends of the Escalation Mailbox for the unit tests
 * (esc-fixture.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tests/unit/esc-fixture.h"
#include "tests/unit/testlib.h"

void
lz_fix_setup(struct lz_fix *f)
{
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c;
	int i;

	memset(f, 0, sizeof *f);
	lz_buf_init(&f->cert);
	f->trust = lz_trust_new(LZ_FIX_DOMAIN, LZ_FIX_PROFILE, LZ_FIX_COORD,
	    NULL);
	assert_non_null(f->trust);
	lz_registry_init(&f->reg, LZ_FIX_DOMAIN, LZ_FIX_COORD, LZ_FIX_FP);
	f->reg.trust = f->trust;
	for (i = 0; i < 2; i++) {
		c = lz_reg_conn_new(&f->reg, NULL);
		f->s[i] = lz_reg_session_new(c, 1, "sh", "/workspace", 0,
		    NULL);
		lz_reg_session_start(&f->reg, f->s[i], &a);
		lz_acts_release(&a);
	}
	assert_non_null(f->key = lz_key_new(NULL));
	assert_int_equal(lz_trust_issue(f->trust, LZ_ROLE_SANDBOX,
	    LZ_FIX_SANDBOX, f->key, &f->cert, NULL), 0);
	f->x.trust = f->trust;
	f->x.reg = &f->reg;
	f->x.sandbox_id = LZ_FIX_SANDBOX;
	f->x.seen = &f->seen;
	f->x.now_ms = lz_esc_now_ms();
}

void
lz_fix_release(struct lz_fix *f)
{
	lz_esc_seen_release(&f->seen);
	lz_registry_release(&f->reg);
	lz_trust_free(f->trust);
	EVP_PKEY_free(f->key);
	lz_buf_release(&f->cert);
	memset(f, 0, sizeof *f);
}

void
lz_fix_identity(const struct lz_fix *f, int i, struct lz_esc_identity *id)
{
	memset(id, 0, sizeof *id);
	assert_int_equal(EVP_PKEY_up_ref(f->key), 1);
	id->key = f->key;
	id->cert = lz_xstrdup(f->cert.buf);
	strcpy(id->domain, LZ_FIX_DOMAIN);
	strcpy(id->session, f->s[i]->id);
	memcpy(id->anchor, f->s[i]->anchor, sizeof id->anchor);
}

void
lz_fix_identity_dir(const struct lz_fix *f, int i, const char *dir)
{
	struct lz_buf pem = LZ_BUF_INIT;
	char hex[2 * LZ_TRUST_ANCHOR_BYTES + 1];

	assert_true(mkdir(dir, 0700) == 0 || errno == EEXIST);
	assert_int_equal(lz_key_private_pem(f->key, &pem, NULL), 0);
	lz_test_put(dir, "sandbox.key", pem.buf);
	lz_test_put(dir, "sandbox.crt", f->cert.buf);
	lz_test_put(dir, "domain", LZ_FIX_DOMAIN);
	lz_buf_wipe(&pem);
	lz_buf_release(&pem);
	lz_reg_anchor_hex(f->s[i], hex);
	assert_int_equal(setenv("LAZARET_SESSION", f->s[i]->id, 1), 0);
	assert_int_equal(setenv("LAZARET_SESSION_ANCHOR", hex, 1), 0);
}

void
lz_fix_record(const struct lz_esc_identity *id, enum lz_record_kind kind,
    const char *request_id, struct lz_request *r)
{
	lz_esc_record(id, kind, request_id, r);
	if (kind != LZ_RECORD_REQUEST)
		return;
	lz_tokens_push(&r->argv, "git");
	lz_tokens_push(&r->argv, "push");
	r->cwd = lz_xstrdup("/workspace");
	r->why = lz_xstrdup("publish the branch");
}

void
lz_fix_seal(const struct lz_esc_identity *id, struct lz_request *r,
    struct lz_buf *rec)
{
	struct lz_err err = LZ_ERR_INIT;

	lz_buf_reset(rec);
	if (lz_esc_seal(id, r, rec, &err) != 0)
		fail_msg("cannot seal a record: %s", err.msg);
}

int
lz_fix_verify(struct lz_fix *f, enum lz_record_kind kind,
    const struct lz_buf *rec, struct lz_reg_session **session,
    struct lz_err *err)
{
	struct lz_request d;
	struct lz_err e = LZ_ERR_INIT;
	int rc;

	if (lz_request_decode(kind, rec->buf, rec->len, &d, &e) != 0)
		fail_msg("a sealed record does not decode: %s", e.msg);
	rc = lz_esc_verify(&f->x, &d, session, err);
	if (rc == 0) {
		assert_non_null(*session);
		assert_string_equal((*session)->id, d.session);
	} else {
		assert_null(*session);
		assert_non_null(err->msg);
	}
	lz_request_release(&d);
	return rc;
}
