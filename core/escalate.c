/*
 * escalate.c: the checks every mailbox record passes before it counts
 * (escalate.h). The order is wire.md's: the cheap and the identity checks
 * first, the single-use bookkeeping last, so a forgery never takes a slot
 * in the seen set.
 */
#include <stdlib.h>
#include <string.h>

#include "core/escalate.h"
#include "core/hmac.h"

static int seen_check(struct lz_esc_seen *s, const char *session,
    const char *id_key, const char *nonce_key, int64_t now, size_t *mine);
static void seen_add(struct lz_esc_seen *s, const char *session,
    const char *key, int64_t now);

void
lz_esc_seen_release(struct lz_esc_seen *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

/*
 * Forgets entries past twice the freshness window; 1 when either key is
 * there. *mine counts the entries of session.
 */
static int
seen_check(struct lz_esc_seen *s, const char *session, const char *id_key,
    const char *nonce_key, int64_t now, size_t *mine)
{
	size_t i, k = 0;
	int found = 0;

	*mine = 0;
	for (i = 0; i < s->n; i++) {
		if (now - s->v[i].at > 2 * LZ_ESC_FRESH_MS)
			continue;
		if (strcmp(s->v[i].key, id_key) == 0 ||
		    strcmp(s->v[i].key, nonce_key) == 0)
			found = 1;
		if (strcmp(s->v[i].session, session) == 0)
			(*mine)++;
		s->v[k++] = s->v[i];
	}
	s->n = k;
	return found;
}

static void
seen_add(struct lz_esc_seen *s, const char *session, const char *key,
    int64_t now)
{
	s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
	snprintf(s->v[s->n].key, sizeof s->v[s->n].key, "%s", key);
	snprintf(s->v[s->n].session, sizeof s->v[s->n].session, "%s",
	    session);
	s->v[s->n++].at = now;
}

void
lz_esc_mac(const struct lz_reg_session *s, const struct lz_buf *bytes,
    char out[65])
{
	lz_hmac_hex(s->anchor, sizeof s->anchor, bytes->buf, bytes->len, out);
}

int
lz_esc_verify(const struct lz_esc_ctx *x, const struct lz_request *r,
    struct lz_reg_session **session, struct lz_err *err)
{
	struct lz_reg_session *s;
	EVP_PKEY *pub = NULL;
	char mac[65], id_key[LZ_MAILBOX_ID_HEX + 2];
	char nonce_key[LZ_MAILBOX_ID_HEX + 2];
	size_t mine;
	int rc;

	*session = NULL;
	if (r->kind != LZ_RECORD_ACK) {
		if (strcmp(r->domain, x->reg->domain) != 0)
			return lz_err_set(err, LZ_EINVAL, "record for Domain "
			    "%s, this is %s", r->domain, x->reg->domain);
		if ((rc = lz_trust_verify(x->trust, r->cert, strlen(r->cert),
		    LZ_ROLE_SANDBOX, x->sandbox_id, (time_t)(x->now_ms / 1000),
		    &pub, err)) != 0)
			return lz_err_prefix(err, rc, "sandbox certificate");
		rc = lz_key_verify(pub, r->signed_bytes.buf,
		    r->signed_bytes.len, r->sig, err);
		EVP_PKEY_free(pub);
		if (rc != 0)
			return lz_err_prefix(err, rc, "signature");
	}
	if ((s = lz_reg_find(x->reg, r->session)) == NULL ||
	    s->state != LZ_REG_RUNNING)
		return lz_err_set(err, LZ_EINVAL, "session %.12s is not "
		    "registered (or has ended)", r->session);
	lz_esc_mac(s, &r->signed_bytes, mac);
	if (!lz_hmac_equal(mac, r->mac))
		return lz_err_set(err, LZ_EINVAL, "MAC is not session %.12s's "
		    "Session Anchor's", r->session);
	if (r->kind != LZ_RECORD_ACK) {
		if (r->t < x->now_ms - LZ_ESC_FRESH_MS ||
		    r->t > x->now_ms + LZ_ESC_FRESH_MS)
			return lz_err_set(err, LZ_EINVAL, "record time %lld ms "
			    "is more than %d s from the coordinator's clock",
			    r->t, LZ_ESC_FRESH_MS / 1000);
		snprintf(id_key, sizeof id_key, "%c%s", r->kind ==
		    LZ_RECORD_CANCEL ? 'c' : 'i', r->id);
		snprintf(nonce_key, sizeof nonce_key, "n%s", r->nonce);
		if (seen_check(x->seen, r->session, id_key, nonce_key,
		    x->now_ms, &mine))
			return lz_err_set(err, LZ_EINVAL, "request ID or nonce "
			    "seen before (a replay)");
		if (mine + 2 > LZ_ESC_SEEN_SESSION_MAX ||
		    x->seen->n + 2 > LZ_ESC_SEEN_MAX)
			return lz_err_set(err, LZ_EINVAL, "too many records in "
			    "the last %d s (%s)", 2 * LZ_ESC_FRESH_MS / 1000,
			    mine + 2 > LZ_ESC_SEEN_SESSION_MAX ? "this session" :
			    "the Domain");
		seen_add(x->seen, r->session, id_key, x->now_ms);
		seen_add(x->seen, r->session, nonce_key, x->now_ms);
	}
	*session = s;
	return 0;
}
