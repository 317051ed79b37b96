/*
 * esc-fixture.h: both ends of the Escalation Mailbox for the unit tests
 * (test-escalate.c, test-esc-client.c), made of the real parts: a Trust
 * Anchor (core/trust.h), a registry (core/registry.h) with two running
 * sessions and their Session Anchors, the Agent Sandbox's key and the
 * certificate the Trust Anchor issued for it, and the verifier's context
 * (core/escalate.h). No mocks: a record that passes here passes the
 * coordinator's checks.
 */
#ifndef LZ_ESC_FIXTURE_H
#define LZ_ESC_FIXTURE_H

#include "core/esc-client.h"
#include "core/escalate.h"

#define LZ_FIX_DOMAIN "0123456789abcdef"
#define LZ_FIX_COORD "fedcba9876543210"
#define LZ_FIX_PROFILE "default"
#define LZ_FIX_SANDBOX "5a5a5a5a5a5a5a5a"
#define LZ_FIX_FP \
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

struct lz_fix {
	struct lz_trust *trust;
	struct lz_registry reg;
	struct lz_reg_session *s[2];	/* running, each on its connection */
	EVP_PKEY *key;			/* the Agent Sandbox's */
	struct lz_buf cert;		/* its certificate (PEM) */
	struct lz_esc_seen seen;
	struct lz_esc_ctx x;		/* now_ms: the time of setup */
};

void lz_fix_setup(struct lz_fix *f);
void lz_fix_release(struct lz_fix *f);
/* The sandbox identity of session i (its own reference to the key). */
void lz_fix_identity(const struct lz_fix *f, int i,
    struct lz_esc_identity *id);
/* That identity as /run/lazaret/identity holds it, in dir, and session
 * i's LAZARET_SESSION and LAZARET_SESSION_ANCHOR in the environment. */
void lz_fix_identity_dir(const struct lz_fix *f, int i, const char *dir);
/* A new record of kind by id (lz_esc_record; a request asks for
 * "git push" in /workspace). */
void lz_fix_record(const struct lz_esc_identity *id, enum lz_record_kind kind,
    const char *request_id, struct lz_request *r);
/* r sealed by id (lz_esc_seal) into rec; fails the test if it cannot. */
void lz_fix_seal(const struct lz_esc_identity *id, struct lz_request *r,
    struct lz_buf *rec);
/*
 * rec decoded as the coordinator does (lz_request_decode, which must
 * succeed) and verified with f->x: lz_esc_verify's code, err set and
 * *session NULL when it refused, *session the record's when it passed.
 */
int lz_fix_verify(struct lz_fix *f, enum lz_record_kind kind,
    const struct lz_buf *rec, struct lz_reg_session **session,
    struct lz_err *err);

#endif
