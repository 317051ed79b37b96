/*
 * escalate.h: verifying Escalation Mailbox records (protocol/wire.md
 * section 2.1) before anything reaches a human. The mailbox is an
 * untrusted channel: a record is accepted only when, in this order, its
 * size and JSON are right (protocol/mailbox.c), its Domain is this one,
 * its certificate chains to this coordinator's Trust Anchor for the
 * sandbox role, this Domain and profile and the current Agent Sandbox ID,
 * its Ed25519 signature is that certificate's over the signed bytes, the
 * session it claims is registered here, its MAC is that session's Session
 * Anchor's, its time is within LZ_ESC_FRESH_MS of the coordinator's clock,
 * and its ID and nonce were never seen before (SR-9, FR-10). No I/O.
 */
#ifndef LZ_ESCALATE_H
#define LZ_ESCALATE_H

#include <stdint.h>

#include "core/registry.h"
#include "core/trust.h"
#include "protocol/mailbox.h"

#define LZ_ESC_FRESH_MS 60000		/* |t - now| allowed */
#define LZ_ESC_SEEN_MAX 65536		/* IDs and nonces remembered */
#define LZ_ESC_SEEN_SESSION_MAX 8192	/* of them, one session's */

/*
 * The IDs and nonces seen (single use). Entries older than twice the
 * freshness window are forgotten: a record that old is refused as stale
 * anyway. Bounded: a session with LZ_ESC_SEEN_SESSION_MAX entries has
 * its new records refused until its old ones expire (a flood costs its
 * own session, not the others); LZ_ESC_SEEN_MAX bounds the whole.
 */
struct lz_esc_seen {
	struct lz_esc_seen_entry {
		char key[LZ_MAILBOX_ID_HEX + 2];
		char session[LZ_MAILBOX_ID_HEX + 1];
		int64_t at;
	} *v;
	size_t n, alloc;
};

void lz_esc_seen_release(struct lz_esc_seen *s);

/*
 * What the checks need: this coordinator's Trust Anchor and registry, the
 * current Agent Sandbox ID, the seen set, the time (Unix ms).
 */
struct lz_esc_ctx {
	const struct lz_trust *trust;
	struct lz_registry *reg;
	const char *sandbox_id;
	struct lz_esc_seen *seen;
	int64_t now_ms;
};

/*
 * Verifies r (decoded by lz_request_decode: a request, cancel or
 * acknowledgement record) in wire.md's order. On success *session is the
 * registered session it is bound to. LZ_EINVAL with the first check that
 * failed (for the coordinator's log; never shown to a human).
 * Acknowledgements carry no certificate: their MAC alone binds them.
 * A request or cancel that passes is remembered (ID and nonce): the same
 * one again is refused.
 */
int lz_esc_verify(const struct lz_esc_ctx *x, const struct lz_request *r,
    struct lz_reg_session **session, struct lz_err *err);

/* The MAC of bytes with a session's anchor (what records carry). */
void lz_esc_mac(const struct lz_reg_session *s, const struct lz_buf *bytes,
    char out[65]);

#endif
