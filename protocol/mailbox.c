/*
 * mailbox.c: the Escalation Mailbox records (mailbox.h, protocol/wire.md
 * section 2). Canonical JSON in and out; every field checked by the
 * shared field helpers (jfield.c); the exact key set of each kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "protocol/jfield.h"
#include "protocol/mailbox.h"
#include "protocol/msg.h"

#define CANON (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII)

static const char *const kinds[] = {
	[LZ_RECORD_REQUEST] = "request",
	[LZ_RECORD_CANCEL] = "cancel",
	[LZ_RECORD_ACK] = "ack",
	[LZ_RECORD_RESULT] = "result",
};

/* The keys of each record kind, in canonical (sorted) order. */
static const char *const request_keys[] = { "argv", "cert", "cwd", "domain",
    "id", "mac", "nonce", "session", "sig", "t", "timeout", "v", "why",
    NULL };
static const char *const cancel_keys[] = { "cert", "domain", "id", "mac",
    "nonce", "session", "sig", "t", "v", NULL };
static const char *const ack_keys[] = { "id", "mac", "session", "v", NULL };
/* A result's keys, of which v, id, outcome and mac are required. */
static const char *const result_keys[] = { "argv", "edited", "id", "mac",
    "message", "outcome", "reason", "status", "stderr", "stdout",
    "truncated", "v", NULL };

static const char *const outcomes[] = {
	[LZ_OUTCOME_COMPLETED] = "completed",
	[LZ_OUTCOME_DENIED] = "denied",
	[LZ_OUTCOME_TIMED_OUT] = "timed-out",
	[LZ_OUTCOME_CANCELLED] = "cancelled",
	[LZ_OUTCOME_FAILED] = "failed",
};

const char *
lz_outcome_name(enum lz_outcome o)
{
	return (unsigned)o < sizeof outcomes / sizeof outcomes[0] ?
	    outcomes[o] : "?";
}

int
lz_record_name_parse(const char *name, enum lz_record_kind *kind,
    char id[LZ_MAILBOX_ID_HEX + 1])
{
	size_t i, k;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		k = strlen(kinds[i]);
		if (strncmp(name, kinds[i], k) != 0 || name[k] != '-')
			continue;
		if (strlen(name + k + 1) != LZ_MAILBOX_ID_HEX + 5 ||
		    strcmp(name + k + 1 + LZ_MAILBOX_ID_HEX, ".json") != 0 ||
		    strspn(name + k + 1, lz_jf_hex_chars) != LZ_MAILBOX_ID_HEX)
			return LZ_EINVAL;
		*kind = (enum lz_record_kind)i;
		memcpy(id, name + k + 1, LZ_MAILBOX_ID_HEX);
		id[LZ_MAILBOX_ID_HEX] = '\0';
		return 0;
	}
	return LZ_EINVAL;
}

char *
lz_record_name(enum lz_record_kind kind, const char *id)
{
	return lz_xasprintf("%s-%s.json", kinds[kind], id);
}

void
lz_request_init(struct lz_request *r)
{
	memset(r, 0, sizeof *r);
	lz_buf_init(&r->signed_bytes);
}

void
lz_request_release(struct lz_request *r)
{
	lz_tokens_release(&r->argv);
	free(r->cwd);
	free(r->why);
	free(r->cert);
	free(r->sig);
	lz_buf_release(&r->signed_bytes);
	lz_request_init(r);
}

/* No key but keys (a result's optional ones may be absent). */
static int
known_keys(json_t *o, const char *what, const char *const *keys,
    struct lz_err *err)
{
	const char *k;
	json_t *v;
	size_t i;

	json_object_foreach(o, k, v) {
		(void)v;
		for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++)
			;
		if (keys[i] == NULL)
			return lz_err_set(err, LZ_EINVAL, "bad %s: unknown key "
			    "'%.64s'", what, k);
	}
	return 0;
}

/* Exactly the keys of the kind: none missing, none more. */
static int
key_set(json_t *o, const char *what, const char *const *keys,
    struct lz_err *err)
{
	size_t i;

	for (i = 0; keys[i] != NULL; i++)
		if (json_object_get(o, keys[i]) == NULL)
			return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is "
			    "missing", what, keys[i]);
	return known_keys(o, what, keys, err);
}

/* The canonical encoding of o without sig and mac. */
static void
signed_of(json_t *o, struct lz_buf *out)
{
	json_t *c = json_deep_copy(o);
	char *s;

	json_object_del(c, "sig");
	json_object_del(c, "mac");
	if ((s = json_dumps(c, CANON)) == NULL)
		LZ_BUG("cannot encode a record");
	lz_buf_reset(out);
	lz_buf_adds(out, s);
	free(s);
	json_decref(c);
}

int
lz_request_decode(enum lz_record_kind kind, const char *buf, size_t len,
    struct lz_request *r, struct lz_err *err)
{
	const char *const *keys = kind == LZ_RECORD_REQUEST ? request_keys :
	    kind == LZ_RECORD_CANCEL ? cancel_keys : ack_keys;
	const char *what = kinds[kind], *cwd = NULL, *why = NULL, *cert = NULL;
	const char *sig = NULL;
	struct lz_buf raw = LZ_BUF_INIT;
	long long v = 0, t = 0, to = 0;
	json_error_t je;
	json_t *o = NULL;
	int rc;

	lz_request_init(r);
	r->kind = kind;
	if (kind == LZ_RECORD_RESULT)
		return lz_err_set(err, LZ_EINVAL, "a result in requests/");
	if (len > LZ_MAILBOX_REQUEST_MAX)
		return lz_err_set(err, LZ_EINVAL, "%s record of %zu bytes, over "
		    "the limit of %d", what, len, LZ_MAILBOX_REQUEST_MAX);
	o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (o == NULL || !json_is_object(o)) {
		rc = lz_err_set(err, LZ_EINVAL, "bad %s record: %s", what,
		    o == NULL ? je.text : "not a JSON object");
		goto out;
	}
	rc = key_set(o, what, keys, err);
	if (rc == 0)
		rc = lz_jf_int(o, what, "v", 1, LZ_MAILBOX_VERSION,
		    LZ_MAILBOX_VERSION, &v, err);
	if (rc == 0)
		rc = lz_jf_hex(o, what, "id", 1, LZ_MAILBOX_ID_HEX, r->id, err);
	if (rc == 0)
		rc = lz_jf_hex(o, what, "session", 1, 32, r->session, err);
	if (rc == 0)
		rc = lz_jf_hex(o, what, "mac", 1, 64, r->mac, err);
	if (rc == 0 && kind != LZ_RECORD_ACK) {
		rc = lz_jf_hex(o, what, "domain", 1, 16, r->domain, err);
		if (rc == 0)
			rc = lz_jf_int(o, what, "t", 1, 0, 1LL << 50, &t, err);
		if (rc == 0)
			rc = lz_jf_hex(o, what, "nonce", 1, LZ_MAILBOX_ID_HEX,
			    r->nonce, err);
		if (rc == 0)
			rc = lz_jf_str(o, what, "cert", 1, LZ_MAILBOX_CERT_MAX,
			    &cert, err);
		if (rc == 0)
			rc = lz_jf_b64(o, what, "sig", 64, 64, &raw, err);
		sig = rc == 0 ? json_string_value(json_object_get(o, "sig")) :
		    NULL;
	}
	if (rc == 0 && kind == LZ_RECORD_REQUEST) {
		rc = lz_jf_argv(o, what, "argv", 1, &r->argv, err);
		if (rc == 0 && r->argv.n == 0)
			rc = lz_err_set(err, LZ_EINVAL, "bad request: 'argv' "
			    "is empty");
		if (rc == 0)
			rc = lz_jf_str(o, what, "cwd", 1, LZ_MSG_PATH_MAX, &cwd,
			    err);
		if (rc == 0)
			rc = lz_jf_str(o, what, "why", 1, LZ_MAILBOX_WHY_MAX,
			    &why, err);
		if (rc == 0)
			rc = lz_jf_int(o, what, "timeout", 1, 0,
			    LZ_MAILBOX_TIMEOUT_MAX, &to, err);
	}
	if (rc != 0)
		goto out;
	r->t = t;
	r->timeout = (unsigned)to;
	r->cwd = cwd ? lz_xstrdup(cwd) : NULL;
	r->why = why ? lz_xstrdup(why) : NULL;
	r->cert = cert ? lz_xstrdup(cert) : NULL;
	r->sig = sig ? lz_xstrdup(sig) : NULL;
	signed_of(o, &r->signed_bytes);
out:
	json_decref(o);
	lz_buf_release(&raw);
	if (rc != 0)
		lz_request_release(r);
	return rc;
}

int
lz_request_encode(const struct lz_request *r, struct lz_buf *signed_bytes,
    struct lz_buf *out, struct lz_err *err)
{
	json_t *o = json_pack("{s:i,s:s,s:s}", "v", LZ_MAILBOX_VERSION, "id",
	    r->id, "session", r->session), *v;
	char *s = NULL;
	int rc = LZ_EINVAL;

	/* What the decoder would refuse is not written: the coordinator
	 * would drop it and its sender wait for an answer in vain. */
	if (r->kind != LZ_RECORD_ACK && r->cert != NULL &&
	    strlen(r->cert) > LZ_MAILBOX_CERT_MAX) {
		lz_err_set(err, LZ_EINVAL, "the certificate is %zu bytes, over "
		    "the limit of %d", strlen(r->cert), LZ_MAILBOX_CERT_MAX);
		goto out;
	}
	if (r->kind == LZ_RECORD_REQUEST && r->argv.n == 0) {
		lz_err_set(err, LZ_EINVAL, "the command is empty");
		goto out;
	}
	if (r->kind == LZ_RECORD_REQUEST && r->timeout >
	    LZ_MAILBOX_TIMEOUT_MAX) {
		lz_err_set(err, LZ_EINVAL, "a timeout of %u s is over the "
		    "limit of %d s", r->timeout, LZ_MAILBOX_TIMEOUT_MAX);
		goto out;
	}
	if (r->kind != LZ_RECORD_ACK) {
		json_object_set_new(o, "domain", json_string(r->domain));
		json_object_set_new(o, "t", json_integer(r->t));
		json_object_set_new(o, "nonce", json_string(r->nonce));
		json_object_set_new(o, "cert", json_string(r->cert ? r->cert :
		    ""));
	}
	if (r->kind == LZ_RECORD_REQUEST) {
		if (lz_jf_put_argv(o, "argv", &r->argv, err) != 0)
			goto out;
		if ((v = lz_jf_user(r->cwd ? r->cwd : "/", LZ_MSG_PATH_MAX,
		    "the working directory", err)) == NULL)
			goto out;
		json_object_set_new(o, "cwd", v);
		if ((v = lz_jf_user(r->why ? r->why : "", LZ_MAILBOX_WHY_MAX,
		    "the justification", err)) == NULL)
			goto out;
		json_object_set_new(o, "why", v);
		json_object_set_new(o, "timeout", json_integer(r->timeout));
	}
	signed_of(o, signed_bytes);
	if (out != NULL) {
		if (r->kind != LZ_RECORD_ACK)
			json_object_set_new(o, "sig", json_string(r->sig ?
			    r->sig : ""));
		json_object_set_new(o, "mac", json_string(r->mac));
		if ((s = json_dumps(o, CANON)) == NULL)
			LZ_BUG("cannot encode a record");
		if (strlen(s) > LZ_MAILBOX_REQUEST_MAX) {
			lz_err_set(err, LZ_EINVAL, "the %s record is %zu bytes, "
			    "over the mailbox's limit of %d (a shorter command "
			    "or justification fits)", kinds[r->kind], strlen(s),
			    LZ_MAILBOX_REQUEST_MAX);
			goto out;
		}
		lz_buf_adds(out, s);
	}
	rc = 0;
out:
	free(s);
	json_decref(o);
	return rc;
}

void
lz_result_init(struct lz_result *r)
{
	memset(r, 0, sizeof *r);
	lz_buf_init(&r->out);
	lz_buf_init(&r->err);
	lz_buf_init(&r->signed_bytes);
}

void
lz_result_release(struct lz_result *r)
{
	lz_tokens_release(&r->argv);
	lz_buf_release(&r->out);
	lz_buf_release(&r->err);
	lz_buf_release(&r->signed_bytes);
	free(r->reason);
	free(r->message);
	lz_result_init(r);
}

/* Base64 of b as a JSON string. */
static json_t *
b64(const struct lz_buf *b)
{
	char *enc = lz_xmalloc(4 * ((b->len + 2) / 3) + 1);
	json_t *j;

	EVP_EncodeBlock((unsigned char *)enc, (const unsigned char *)b->buf,
	    (int)b->len);
	j = json_string(enc);
	free(enc);
	return j;
}

int
lz_result_encode(const struct lz_result *r, struct lz_buf *signed_bytes,
    struct lz_buf *out, struct lz_err *err)
{
	json_t *o = json_pack("{s:i,s:s,s:s}", "v", LZ_MAILBOX_VERSION, "id",
	    r->id, "outcome", lz_outcome_name(r->outcome));
	char *s = NULL;
	int rc = LZ_EINVAL;

	if (r->out.len > LZ_MAILBOX_OUTPUT_MAX ||
	    r->err.len > LZ_MAILBOX_OUTPUT_MAX) {
		lz_err_set(err, LZ_EINVAL, "result output over %d bytes",
		    LZ_MAILBOX_OUTPUT_MAX);
		goto out;
	}
	if (r->argv.n > 0 && lz_jf_put_argv(o, "argv", &r->argv, err) != 0)
		goto out;
	if (r->edited)
		json_object_set_new(o, "edited", json_true());
	if (r->ran) {
		json_object_set_new(o, "status", json_integer(r->status));
		json_object_set_new(o, "stdout", b64(&r->out));
		json_object_set_new(o, "stderr", b64(&r->err));
		if (r->truncated)
			json_object_set_new(o, "truncated", json_true());
	}
	if (r->reason != NULL)
		json_object_set_new(o, "reason", lz_jf_text(r->reason,
		    LZ_MAILBOX_REASON_MAX));
	if (r->message != NULL)
		json_object_set_new(o, "message", lz_jf_text(r->message,
		    LZ_MAILBOX_MESSAGE_MAX));
	signed_of(o, signed_bytes);
	if (out != NULL) {
		json_object_set_new(o, "mac", json_string(r->mac));
		if ((s = json_dumps(o, CANON)) == NULL)
			LZ_BUG("cannot encode a result");
		if (strlen(s) > LZ_MAILBOX_RESULT_MAX) {
			lz_err_set(err, LZ_EINVAL, "the result record is %zu "
			    "bytes, over the limit of %d", strlen(s),
			    LZ_MAILBOX_RESULT_MAX);
			goto out;
		}
		lz_buf_adds(out, s);
	}
	rc = 0;
out:
	free(s);
	json_decref(o);
	return rc;
}

/* A flag the encoder writes only when set: true when present. */
static int
flag(json_t *o, const char *key, int *out, struct lz_err *err)
{
	if (lz_jf_bool(o, "result", key, out, err) != 0)
		return LZ_EINVAL;
	if (json_is_false(json_object_get(o, key)))
		return lz_err_set(err, LZ_EINVAL, "bad result: '%s' is true "
		    "when present", key);
	return 0;
}

int
lz_result_decode(const char *buf, size_t len, struct lz_result *r,
    struct lz_err *err)
{
	static const char *const ran_keys[] = { "stdout", "stderr",
	    "truncated" };
	const char *oc = NULL, *reason = NULL, *msg = NULL;
	long long v = 0, st = 0;
	json_error_t je;
	json_t *o;
	size_t i;
	int rc;

	lz_result_init(r);
	if (len > LZ_MAILBOX_RESULT_MAX)
		return lz_err_set(err, LZ_EINVAL, "result of %zu bytes, over "
		    "the limit", len);
	if ((o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je)) == NULL)
		return lz_err_set(err, LZ_EINVAL, "bad result: %s", je.text);
	rc = json_is_object(o) ? known_keys(o, "result", result_keys, err) :
	    lz_err_set(err, LZ_EINVAL, "bad result: not a JSON object");
	if (rc == 0)
		rc = lz_jf_int(o, "result", "v", 1, 1, 1, &v, err);
	if (rc == 0)
		rc = lz_jf_hex(o, "result", "id", 1, LZ_MAILBOX_ID_HEX, r->id,
		    err);
	if (rc == 0)
		rc = lz_jf_hex(o, "result", "mac", 1, 64, r->mac, err);
	if (rc == 0)
		rc = lz_jf_str(o, "result", "outcome", 1, 16, &oc, err);
	for (i = 0; rc == 0 && i < sizeof outcomes / sizeof outcomes[0]; i++)
		if (strcmp(oc, outcomes[i]) == 0)
			break;
	if (rc == 0 && i == sizeof outcomes / sizeof outcomes[0])
		rc = lz_err_set(err, LZ_EINVAL, "bad result: 'outcome'");
	r->outcome = (enum lz_outcome)i;
	if (rc == 0)
		rc = lz_jf_argv(o, "result", "argv", 0, &r->argv, err);
	if (rc == 0 && json_object_get(o, "argv") != NULL && r->argv.n == 0)
		rc = lz_err_set(err, LZ_EINVAL, "bad result: 'argv' is empty");
	if (rc == 0)
		rc = flag(o, "edited", &r->edited, err);
	if (rc == 0)
		rc = flag(o, "truncated", &r->truncated, err);
	if (rc == 0 && json_object_get(o, "status") != NULL) {
		r->ran = 1;
		rc = lz_jf_int(o, "result", "status", 1, 0, 255, &st, err);
		if (rc == 0)
			rc = lz_jf_b64(o, "result", "stdout", 0,
			    LZ_MAILBOX_OUTPUT_MAX, &r->out, err);
		if (rc == 0)
			rc = lz_jf_b64(o, "result", "stderr", 0,
			    LZ_MAILBOX_OUTPUT_MAX, &r->err, err);
	}
	/* Output only comes with the status of a command that ran. */
	for (i = 0; rc == 0 && !r->ran && i < 3; i++)
		if (json_object_get(o, ran_keys[i]) != NULL)
			rc = lz_err_set(err, LZ_EINVAL, "bad result: '%s' "
			    "without 'status'", ran_keys[i]);
	if (rc == 0)
		rc = lz_jf_str(o, "result", "reason", 0, LZ_MAILBOX_REASON_MAX,
		    &reason, err);
	if (rc == 0)
		rc = lz_jf_str(o, "result", "message", 0,
		    LZ_MAILBOX_MESSAGE_MAX, &msg, err);
	if (rc == 0) {
		r->status = (int)st;
		r->reason = reason ? lz_xstrdup(reason) : NULL;
		r->message = msg ? lz_xstrdup(msg) : NULL;
		signed_of(o, &r->signed_bytes);
	} else
		lz_result_release(r);
	json_decref(o);
	return rc;
}
