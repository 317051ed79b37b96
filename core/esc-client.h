/*
 * esc-client.h: the sandbox's side of the Escalation Mailbox (protocol/
 * wire.md section 2): the session's identity (certificate, key, Session
 * Anchor), a new request, cancel or acknowledgement record sealed with it
 * (signed and MACed), posted into the request directory (tmp, fsync,
 * rename), and a result read back and checked against the anchor. Used by
 * the Escalation Client (src/lazaret-escalate.c) and by the tests' record
 * forger (tests/helpers/esc-forge.c), so both make records one way. No
 * printing, no exit; linked static (any image can run them).
 */
#ifndef LZ_ESC_CLIENT_H
#define LZ_ESC_CLIENT_H

#include <openssl/evp.h>

#include "core/util.h"
#include "protocol/mailbox.h"

#define LZ_ESC_DIR_IDENTITY "/run/lazaret/identity"
#define LZ_ESC_DIR_REQUESTS "/run/lazaret/requests"
#define LZ_ESC_DIR_RESULTS "/run/lazaret/results"

struct lz_esc_identity {
	EVP_PKEY *key;			/* the Agent Sandbox's Ed25519 key */
	char *cert;			/* its certificate (PEM) */
	char domain[17];
	char session[LZ_MAILBOX_ID_HEX + 1];
	unsigned char anchor[32];	/* the Session Anchor */
};

/*
 * The identity in dir (LZ_ESC_DIR_IDENTITY: sandbox.crt, sandbox.key,
 * domain) and this session's environment (LAZARET_SESSION,
 * LAZARET_SESSION_ANCHOR). LZ_ENOTFOUND outside a Lazaret session.
 */
int lz_esc_identity_load(struct lz_esc_identity *id, const char *dir,
    struct lz_err *err);
void lz_esc_identity_release(struct lz_esc_identity *id);

/* A record of kind with a fresh ID (or the given one), a fresh nonce,
 * this identity's Domain, session and certificate, and the time now. */
void lz_esc_record(const struct lz_esc_identity *id, enum lz_record_kind kind,
    const char *request_id, struct lz_request *r);
/* Signs (not acknowledgements) and MACs r; its whole record into out. */
int lz_esc_seal(const struct lz_esc_identity *id, struct lz_request *r,
    struct lz_buf *out, struct lz_err *err);
/* Writes a sealed record as name into dir: name.tmp, fsync, rename. */
int lz_esc_post(const char *dir, const char *name, const struct lz_buf *rec,
    struct lz_err *err);
/*
 * Reads the result of request id from dir: 1 with r filled when it is
 * there and carries this session's MAC, 0 when not there (yet), or an
 * error (LZ_EINVAL: a result that is not this session's; LZ_ESYS: one
 * that cannot be read, such as one over LZ_MAILBOX_RESULT_MAX).
 */
int lz_esc_result(const struct lz_esc_identity *id, const char *dir,
    const char *request_id, struct lz_result *r, struct lz_err *err);

/* A whole small file (at most max bytes) into b; negated errno. */
int lz_esc_slurp(const char *path, size_t max, struct lz_buf *b);
/* Unix time in ms. */
int64_t lz_esc_now_ms(void);

#endif
