/*
 * test-escalate.c: lz_esc_verify (core/escalate.h), the coordinator's
 * checks of a mailbox record, against a real Trust Anchor and registry
 * (esc-fixture.h) with records made by the Escalation Client's own code
 * (core/esc-client.h): a valid request, cancel and acknowledgement pass;
 * each check of protocol/wire.md section 2.1 refuses, and in that order
 * (Domain, certificate, signature, session, MAC, time, single use); the
 * seen set's bound and expiry; a refused record takes no slot.
 *
 * With LZ_MAILBOX_SEEDS naming a directory, test_valid_records also
 * writes there one valid record of each kind in fuzz-mailbox's input
 * form (a kind digit, then the record): tests/fuzz/corpus/mailbox/.
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
#include "tests/unit/esc-fixture.h"

#define OTHER_SANDBOX "6b6b6b6b6b6b6b6b"

static int
setup(void **state)
{
	struct lz_fix *f = malloc(sizeof *f);

	lz_fix_setup(f);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	lz_fix_release(*state);
	free(*state);
	return 0;
}

/* rec is accepted as kind, for session s. */
static void
accepted(struct lz_fix *f, enum lz_record_kind kind, const struct lz_buf *rec,
    const struct lz_reg_session *s)
{
	struct lz_reg_session *got;
	struct lz_err err = LZ_ERR_INIT;

	if (lz_fix_verify(f, kind, rec, &got, &err) != 0)
		fail_msg("refused: %s", err.msg);
	assert_ptr_equal(got, s);
}

/* rec is refused as kind, with needle in the reason, and takes no slot
 * in the seen set. */
static void
refused(struct lz_fix *f, enum lz_record_kind kind, const struct lz_buf *rec,
    const char *needle)
{
	struct lz_reg_session *got;
	struct lz_err err = LZ_ERR_INIT;
	size_t n = f->seen.n;

	if (lz_fix_verify(f, kind, rec, &got, &err) != LZ_EINVAL)
		fail_msg("accepted (wanted '%s')", needle);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", err.msg, needle);
	assert_int_equal(f->seen.n, n);
	lz_err_release(&err);
}

/* A new record of kind by id, sealed into rec (r released). */
static void
made(const struct lz_esc_identity *id, enum lz_record_kind kind,
    const char *request_id, struct lz_buf *rec)
{
	struct lz_request r;

	lz_fix_record(id, kind, request_id, &r);
	lz_fix_seal(id, &r, rec);
	lz_request_release(&r);
}

/* Writes rec as fuzz-mailbox's input (the kind's digit first). */
static void
seed(enum lz_record_kind kind, const struct lz_buf *rec)
{
	const char *dir = getenv("LZ_MAILBOX_SEEDS");
	char *path;
	FILE *fp;

	if (dir == NULL)
		return;
	path = lz_xasprintf("%s/valid-%d", dir, (int)kind);
	assert_non_null(fp = fopen(path, "w"));
	fputc('0' + (int)kind, fp);
	fwrite(rec->buf, 1, rec->len, fp);
	assert_int_equal(fclose(fp), 0);
	free(path);
}

/* A result of request rid MACed with s's anchor. */
static void
result_of(const struct lz_reg_session *s, const char *rid, struct lz_buf *rec)
{
	struct lz_buf sb = LZ_BUF_INIT;
	struct lz_result r;

	lz_result_init(&r);
	strcpy(r.id, rid);
	r.outcome = LZ_OUTCOME_COMPLETED;
	lz_tokens_push(&r.argv, "git");
	lz_tokens_push(&r.argv, "push");
	r.ran = 1;
	lz_buf_adds(&r.out, "Everything up-to-date\n");
	assert_int_equal(lz_result_encode(&r, &sb, NULL, NULL), 0);
	lz_esc_mac(s, &sb, r.mac);
	assert_int_equal(lz_result_encode(&r, &sb, rec, NULL), 0);
	lz_result_release(&r);
	lz_buf_release(&sb);
}

static void
test_valid_records(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id, id1;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;

	lz_fix_identity(f, 0, &id);
	lz_fix_identity(f, 1, &id1);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	seed(LZ_RECORD_REQUEST, &rec);
	/* Its ID and nonce are remembered. */
	assert_int_equal(f->seen.n, 2);
	/* A cancel and an acknowledgement of it. */
	made(&id, LZ_RECORD_CANCEL, r.id, &rec);
	accepted(f, LZ_RECORD_CANCEL, &rec, f->s[0]);
	seed(LZ_RECORD_CANCEL, &rec);
	assert_int_equal(f->seen.n, 4);
	made(&id, LZ_RECORD_ACK, r.id, &rec);
	accepted(f, LZ_RECORD_ACK, &rec, f->s[0]);
	seed(LZ_RECORD_ACK, &rec);
	assert_int_equal(f->seen.n, 4);
	lz_buf_reset(&rec);
	result_of(f->s[0], r.id, &rec);
	seed(LZ_RECORD_RESULT, &rec);
	/* The other session's records are its own. */
	made(&id1, LZ_RECORD_REQUEST, NULL, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[1]);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_esc_identity_release(&id1);
	lz_buf_release(&rec);
}

/* The Domain first: a record for another Domain goes no further. */
static void
test_domain(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;

	lz_fix_identity(f, 0, &id);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	strcpy(r.domain, "1111111111111111");
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "record for Domain "
	    "1111111111111111, this is " LZ_FIX_DOMAIN);
	lz_request_release(&r);
	lz_fix_record(&id, LZ_RECORD_CANCEL, NULL, &r);
	strcpy(r.domain, "0123456789abcdee");
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_CANCEL, &rec, "record for Domain");
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* A request and a cancel carrying pem, signed with the sandbox's key (so
 * only the certificate can be wrong): refused with needle, or accepted
 * when needle is NULL. */
static void
with_cert(struct lz_fix *f, const char *pem, const char *needle)
{
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;
	char rid[LZ_MAILBOX_ID_HEX + 1];

	lz_fix_identity(f, 0, &id);
	free(id.cert);
	id.cert = lz_xstrdup(pem);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	if (needle == NULL)
		accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	else
		refused(f, LZ_RECORD_REQUEST, &rec, needle);
	/* A cancel of it is checked the same way. */
	strcpy(rid, r.id);
	lz_request_release(&r);
	lz_fix_record(&id, LZ_RECORD_CANCEL, rid, &r);
	lz_fix_seal(&id, &r, &rec);
	if (needle == NULL)
		accepted(f, LZ_RECORD_CANCEL, &rec, f->s[0]);
	else
		refused(f, LZ_RECORD_CANCEL, &rec, needle);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* A certificate for the sandbox's key with the given fields. */
static void
issued(struct lz_fix *f, enum lz_role role, const char *domain,
    const char *profile, const char *component, time_t nb, time_t na,
    struct lz_buf *pem)
{
	lz_buf_reset(pem);
	assert_int_equal(lz_trust_issue_fields(f->trust, role, domain, profile,
	    component, f->key, nb, na, pem, NULL), 0);
}

static void
test_certificate(void **state)
{
	struct lz_fix *f = *state;
	struct lz_trust *other;
	struct lz_buf pem = LZ_BUF_INIT;
	time_t now = (time_t)(f->x.now_ms / 1000);
	static const char *const cert = "sandbox certificate: certificate "
	    "refused";

	/* Of another Trust Anchor, even of this Domain, profile and
	 * coordinator (an earlier start's). */
	other = lz_trust_new(LZ_FIX_DOMAIN, LZ_FIX_PROFILE, LZ_FIX_COORD,
	    NULL);
	assert_int_equal(lz_trust_issue(other, LZ_ROLE_SANDBOX,
	    LZ_FIX_SANDBOX, f->key, &pem, NULL), 0);
	with_cert(f, pem.buf, "not issued by this coordinator's Trust Anchor");
	lz_trust_free(other);
	/* Of this one, for another role, Domain, profile or sandbox. */
	issued(f, LZ_ROLE_CLIENT, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, "it names 'lazaret://" LZ_FIX_DOMAIN "/client/"
	    LZ_FIX_SANDBOX);
	issued(f, LZ_ROLE_SIDECAR, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, cert);
	issued(f, LZ_ROLE_SANDBOX, "1111111111111111", LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, "it names 'lazaret://1111111111111111/");
	issued(f, LZ_ROLE_SANDBOX, LZ_FIX_DOMAIN, "other", LZ_FIX_SANDBOX,
	    now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, "?profile=other'");
	issued(f, LZ_ROLE_SANDBOX, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    OTHER_SANDBOX, now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, "/sandbox/" OTHER_SANDBOX "?");
	/* Expired, or not valid yet. */
	issued(f, LZ_ROLE_SANDBOX, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now - 7200, now - 60, &pem);
	with_cert(f, pem.buf, "expired");
	issued(f, LZ_ROLE_SANDBOX, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now + 3600, now + 7200, &pem);
	with_cert(f, pem.buf, "not yet valid");
	/* The Trust Anchor's own certificate is no leaf. */
	with_cert(f, lz_trust_ca_pem(f->trust), "not a leaf");
	/* No certificate, or not one. */
	with_cert(f, "", "certificate of 0 bytes");
	with_cert(f, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END "
	    "CERTIFICATE-----\n", "not a certificate");
	/* All fields right: it passes, until the sandbox is another
	 * start's (a new Agent Sandbox ID). */
	issued(f, LZ_ROLE_SANDBOX, LZ_FIX_DOMAIN, LZ_FIX_PROFILE,
	    LZ_FIX_SANDBOX, now - 60, now + 3600, &pem);
	with_cert(f, pem.buf, NULL);
	f->x.sandbox_id = OTHER_SANDBOX;
	with_cert(f, pem.buf, "this peer must be 'lazaret://" LZ_FIX_DOMAIN
	    "/sandbox/" OTHER_SANDBOX "?");
	f->x.sandbox_id = LZ_FIX_SANDBOX;
	lz_buf_release(&pem);
}

/* The signature is the certificate's key's over the signed bytes. */
static void
test_signature(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT, rec2 = LZ_BUF_INIT;
	struct lz_request r;
	EVP_PKEY *k = lz_key_new(NULL);
	char *p, *q;

	/* Signed by another key than the certificate's. */
	lz_fix_identity(f, 0, &id);
	EVP_PKEY_free(id.key);
	id.key = k;
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "signature: signature does not "
	    "match");
	made(&id, LZ_RECORD_CANCEL, NULL, &rec);
	refused(f, LZ_RECORD_CANCEL, &rec, "signature: signature does not "
	    "match");
	lz_esc_identity_release(&id);

	/* Another record's signature (the MAC is this record's). */
	lz_fix_identity(f, 0, &id);
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec2);
	p = strstr(rec.buf, "\"sig\":\"");
	q = strstr(rec2.buf, "\"sig\":\"");
	memcpy(q, p, 7 + 88);
	refused(f, LZ_RECORD_REQUEST, &rec2, "signature does not match");
	lz_request_release(&r);

	/* A byte of the command changed after sealing (the signature is
	 * checked before the MAC, which would not match either). */
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	p = strstr(rec.buf, "\"git\"");
	p[1] = 'G';
	refused(f, LZ_RECORD_REQUEST, &rec, "signature does not match");
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
	lz_buf_release(&rec2);
}

/* The session claimed is registered here and still running. */
static void
test_session(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	enum lz_record_kind k;

	for (k = LZ_RECORD_REQUEST; k <= LZ_RECORD_ACK; k++) {
		/* Never registered (MACed with a registered anchor). */
		lz_fix_identity(f, 0, &id);
		strcpy(id.session, "99999999999999999999999999999999");
		made(&id, k, NULL, &rec);
		refused(f, k, &rec, "session 999999999999 is not registered");
		lz_esc_identity_release(&id);
	}
	/* Exited: its records are refused (with its own anchor). */
	lz_fix_identity(f, 1, &id);
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[1]);
	lz_reg_exited(&f->reg, f->s[1], 0, 1, NULL);
	for (k = LZ_RECORD_REQUEST; k <= LZ_RECORD_ACK; k++) {
		made(&id, k, NULL, &rec);
		refused(f, k, &rec, "(or has ended)");
	}
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* The MAC is the claimed session's Session Anchor's. */
static void
test_mac(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	enum lz_record_kind k;
	char *p;

	for (k = LZ_RECORD_REQUEST; k <= LZ_RECORD_ACK; k++) {
		/* Session 0 claimed, session 1's anchor: one sandbox's
		 * session cannot speak for another. */
		lz_fix_identity(f, 0, &id);
		memcpy(id.anchor, f->s[1]->anchor, sizeof id.anchor);
		made(&id, k, NULL, &rec);
		refused(f, k, &rec, "MAC is not session");
		/* Session 1 claimed with session 0's anchor. */
		memcpy(id.anchor, f->s[0]->anchor, sizeof id.anchor);
		strcpy(id.session, f->s[1]->id);
		made(&id, k, NULL, &rec);
		refused(f, k, &rec, "MAC is not session");
		/* No anchor at all. */
		memset(id.anchor, 0, sizeof id.anchor);
		made(&id, k, NULL, &rec);
		refused(f, k, &rec, "MAC is not session");
		lz_esc_identity_release(&id);
		/* The right MAC with one digit changed. */
		lz_fix_identity(f, 0, &id);
		made(&id, k, NULL, &rec);
		p = strstr(rec.buf, "\"mac\":\"") + 7;
		p[63] = p[63] == '0' ? '1' : '0';
		refused(f, k, &rec, "MAC is not session");
		lz_esc_identity_release(&id);
	}
	lz_buf_release(&rec);
}

/* Records within LZ_ESC_FRESH_MS of the coordinator's clock only. */
static void
test_freshness(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;
	const long long offs[] = { -LZ_ESC_FRESH_MS - 1,
	    LZ_ESC_FRESH_MS + 1, -3600000, 3600000, -f->x.now_ms };
	size_t i;

	lz_fix_identity(f, 0, &id);
	for (i = 0; i < sizeof offs / sizeof offs[0]; i++) {
		lz_fix_record(&id, i % 2 ? LZ_RECORD_CANCEL : LZ_RECORD_REQUEST,
		    NULL, &r);
		r.t = f->x.now_ms + offs[i];
		lz_fix_seal(&id, &r, &rec);
		refused(f, r.kind, &rec, "is more than 60 s from the "
		    "coordinator's clock");
		lz_request_release(&r);
	}
	/* The edges are in. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = f->x.now_ms - LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	lz_request_release(&r);
	lz_fix_record(&id, LZ_RECORD_CANCEL, NULL, &r);
	r.t = f->x.now_ms + LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_CANCEL, &rec, f->s[0]);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* Each request ID (and cancel's) and each nonce is accepted once. */
static void
test_replay(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id, id1;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r, r2;
	char rid[LZ_MAILBOX_ID_HEX + 1];

	lz_fix_identity(f, 0, &id);
	lz_fix_identity(f, 1, &id1);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	/* The same bytes again. */
	refused(f, LZ_RECORD_REQUEST, &rec, "seen before (a replay)");
	strcpy(rid, r.id);
	/* The same ID, a new nonce; from another session too. */
	made(&id, LZ_RECORD_REQUEST, rid, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "a replay");
	made(&id1, LZ_RECORD_REQUEST, rid, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "a replay");
	/* A new ID, the same nonce. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r2);
	memcpy(r2.nonce, r.nonce, sizeof r2.nonce);
	lz_fix_seal(&id, &r2, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "a replay");
	lz_request_release(&r2);
	/* A cancel's nonce is single-use too. */
	lz_fix_record(&id, LZ_RECORD_CANCEL, rid, &r2);
	memcpy(r2.nonce, r.nonce, sizeof r2.nonce);
	lz_fix_seal(&id, &r2, &rec);
	refused(f, LZ_RECORD_CANCEL, &rec, "a replay");
	lz_request_release(&r2);
	/* The request's cancel is not a replay of it; a second one is. */
	made(&id, LZ_RECORD_CANCEL, rid, &rec);
	accepted(f, LZ_RECORD_CANCEL, &rec, f->s[0]);
	refused(f, LZ_RECORD_CANCEL, &rec, "a replay");
	made(&id, LZ_RECORD_CANCEL, rid, &rec);
	refused(f, LZ_RECORD_CANCEL, &rec, "a replay");
	/* Acknowledgements may come again (they delete a result). */
	made(&id, LZ_RECORD_ACK, rid, &rec);
	accepted(f, LZ_RECORD_ACK, &rec, f->s[0]);
	accepted(f, LZ_RECORD_ACK, &rec, f->s[0]);
	lz_request_release(&r);

	/* A forgery takes no slot: the genuine record with its ID and
	 * nonce still passes. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	memset(id.anchor, 0, sizeof id.anchor);
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "MAC");
	memcpy(id.anchor, f->s[0]->anchor, sizeof id.anchor);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_esc_identity_release(&id1);
	lz_buf_release(&rec);
}

/* The seen set forgets what is past twice the window, and only that: at
 * every time the record is fresh, its replay is caught. */
static void
test_seen_expiry(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT, other = LZ_BUF_INIT;
	struct lz_request r;
	int64_t t0 = f->x.now_ms;

	lz_fix_identity(f, 0, &id);
	/* Dated a window ahead, accepted now. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = t0 + LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	lz_request_release(&r);
	f->x.now_ms = t0 + 2 * LZ_ESC_FRESH_MS;
	refused(f, LZ_RECORD_REQUEST, &rec, "a replay");
	f->x.now_ms = t0 + 2 * LZ_ESC_FRESH_MS + 1;
	refused(f, LZ_RECORD_REQUEST, &rec, "more than 60 s");
	/* A fresh record then finds only itself remembered. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = f->x.now_ms;
	lz_fix_seal(&id, &r, &other);
	accepted(f, LZ_RECORD_REQUEST, &other, f->s[0]);
	assert_int_equal(f->seen.n, 2);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
	lz_buf_release(&other);
}

/* A flood costs its own session: past LZ_ESC_SEEN_SESSION_MAX entries
 * of one session, its records are refused; the other session's pass. */
static void
test_seen_session_bound(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;
	size_t i;

	f->seen.alloc = LZ_ESC_SEEN_SESSION_MAX;
	f->seen.v = lz_xreallocarray(f->seen.v, f->seen.alloc,
	    sizeof *f->seen.v);
	for (i = 0; i < LZ_ESC_SEEN_SESSION_MAX - 1; i++) {
		snprintf(f->seen.v[i].key, sizeof f->seen.v[i].key,
		    "%c%032zx", i % 2 ? 'n' : 'i', i);
		snprintf(f->seen.v[i].session, sizeof f->seen.v[i].session,
		    "%s", f->s[0]->id);
		f->seen.v[i].at = f->x.now_ms;
	}
	f->seen.n = LZ_ESC_SEEN_SESSION_MAX - 1;
	lz_fix_identity(f, 0, &id);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "(this session)");
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_fix_identity(f, 1, &id);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[1]);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* Past LZ_ESC_SEEN_MAX entries, new records are refused (taking no
 * slot) until old entries expire. */
static void
test_seen_bound(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;
	int64_t t0 = f->x.now_ms;
	size_t i;

	/* The set as a flood of accepted records leaves it: all but one
	 * slot taken, at t0. */
	f->seen.alloc = LZ_ESC_SEEN_MAX;
	f->seen.v = lz_xreallocarray(f->seen.v, f->seen.alloc,
	    sizeof *f->seen.v);
	for (i = 0; i < LZ_ESC_SEEN_MAX - 1; i++) {
		snprintf(f->seen.v[i].key, sizeof f->seen.v[i].key,
		    "%c%032zx", i % 2 ? 'n' : 'i', i);
		f->seen.v[i].at = t0;
	}
	f->seen.n = LZ_ESC_SEEN_MAX - 1;
	lz_fix_identity(f, 0, &id);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = t0 + 2 * LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	f->x.now_ms = t0 + LZ_ESC_FRESH_MS + 1;
	refused(f, LZ_RECORD_REQUEST, &rec, "too many records in the last "
	    "120 s");
	/* Acknowledgements take no slot and still pass. */
	lz_request_release(&r);
	lz_fix_record(&id, LZ_RECORD_ACK, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_ACK, &rec, f->s[0]);
	lz_request_release(&r);
	/* With two slots left (a record takes two), one passes. */
	f->seen.n = LZ_ESC_SEEN_MAX - 2;
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = t0 + 2 * LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	assert_int_equal(f->seen.n, LZ_ESC_SEEN_MAX);
	lz_request_release(&r);
	/* Full now; once the flood's entries are past 120 s, the refused
	 * record passes and the set holds only what is recent. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = t0 + 2 * LZ_ESC_FRESH_MS;
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "too many records");
	f->x.now_ms = t0 + 2 * LZ_ESC_FRESH_MS + 1;
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	assert_int_equal(f->seen.n, 4);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* Acknowledgements carry no certificate, Domain or time: their MAC alone
 * binds them, so the certificate and sandbox do not matter. */
static void
test_acks(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;

	lz_fix_identity(f, 0, &id);
	made(&id, LZ_RECORD_ACK, NULL, &rec);
	assert_null(strstr(rec.buf, "\"cert\""));
	assert_null(strstr(rec.buf, "\"t\""));
	f->x.sandbox_id = OTHER_SANDBOX;
	f->x.now_ms += 24 * 3600 * 1000LL;
	accepted(f, LZ_RECORD_ACK, &rec, f->s[0]);
	assert_int_equal(f->seen.n, 0);
	EVP_PKEY_free(id.key);
	id.key = NULL;
	memcpy(id.anchor, f->s[1]->anchor, sizeof id.anchor);
	made(&id, LZ_RECORD_ACK, NULL, &rec);
	refused(f, LZ_RECORD_ACK, &rec, "MAC is not session");
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* With two faults, the first check of wire.md's order names the record
 * (each check is also refused alone above). */
static void
test_order(void **state)
{
	struct lz_fix *f = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT;
	struct lz_request r;
	EVP_PKEY *k = lz_key_new(NULL);

	lz_fix_identity(f, 0, &id);
	/* Domain before certificate. */
	free(id.cert);
	id.cert = lz_xstrdup(lz_trust_ca_pem(f->trust));
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	strcpy(r.domain, "1111111111111111");
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "record for Domain");
	lz_request_release(&r);
	/* Certificate before signature. */
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	EVP_PKEY_free(id.key);
	id.key = k;
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "sandbox certificate");
	lz_request_release(&r);
	/* Signature before session. */
	free(id.cert);
	id.cert = lz_xstrdup(f->cert.buf);
	strcpy(id.session, "99999999999999999999999999999999");
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "signature");
	lz_esc_identity_release(&id);
	/* Session before MAC. */
	lz_fix_identity(f, 0, &id);
	strcpy(id.session, "99999999999999999999999999999999");
	memset(id.anchor, 0, sizeof id.anchor);
	made(&id, LZ_RECORD_REQUEST, NULL, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "not registered");
	/* MAC before time. */
	strcpy(id.session, f->s[0]->id);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	r.t = 1;
	lz_fix_seal(&id, &r, &rec);
	refused(f, LZ_RECORD_REQUEST, &rec, "MAC");
	lz_request_release(&r);
	/* Time before single use. */
	memcpy(id.anchor, f->s[0]->anchor, sizeof id.anchor);
	lz_fix_record(&id, LZ_RECORD_REQUEST, NULL, &r);
	lz_fix_seal(&id, &r, &rec);
	accepted(f, LZ_RECORD_REQUEST, &rec, f->s[0]);
	f->x.now_ms = r.t + LZ_ESC_FRESH_MS + 1;
	refused(f, LZ_RECORD_REQUEST, &rec, "more than 60 s");
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
}

/* The MAC helper is HMAC-SHA256 of the bytes with the session's anchor. */
static void
test_mac_helper(void **state)
{
	struct lz_fix *f = *state;
	struct lz_buf b = LZ_BUF_INIT;
	char a[65], want[65];

	lz_buf_adds(&b, "{\"v\":1}");
	lz_esc_mac(f->s[0], &b, a);
	lz_hmac_hex(f->s[0]->anchor, sizeof f->s[0]->anchor, b.buf, b.len,
	    want);
	assert_string_equal(a, want);
	assert_int_equal(strlen(a), 64);
	lz_esc_mac(f->s[1], &b, want);
	assert_string_not_equal(a, want);
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_valid_records, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_domain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_certificate, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_signature, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freshness, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seen_expiry, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_seen_session_bound, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_seen_bound, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_acks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mac_helper, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
