/*
 * mailbox.h: the Escalation Mailbox records (protocol/wire.md section 2):
 * request, cancel and acknowledgement records the Escalation Client writes
 * into requests/, result records the coordinator writes into results/.
 * Encoding and decoding only; no I/O, no keys: the signatures and MACs
 * are made and checked by their callers (core/trust.h, core/hmac.h) over
 * the signed bytes this module gives.
 *
 * Every record is canonical JSON (jansson JSON_COMPACT | JSON_SORT_KEYS |
 * JSON_ENSURE_ASCII). The signed bytes of a record are the canonical
 * encoding of its object without its "sig" and "mac" members. Decoders
 * check the exact key set (a record with an unknown or a missing key is
 * refused), every type and limit, and refuse duplicate keys, NUL and
 * invalid UTF-8; each failure names the record kind and the field.
 */
#ifndef LZ_MAILBOX_H
#define LZ_MAILBOX_H

#include <stdint.h>

#include "core/util.h"

#define LZ_MAILBOX_VERSION 1
#define LZ_MAILBOX_REQUEST_MAX (64 * 1024)	/* request, cancel, ack */
#define LZ_MAILBOX_RESULT_MAX (3 * 1024 * 1024)	/* two full streams fit */
#define LZ_MAILBOX_OUTPUT_MAX (1024 * 1024)	/* each of stdout, stderr */
#define LZ_MAILBOX_ID_HEX 32			/* request IDs, nonces */
#define LZ_MAILBOX_CERT_MAX 8192
#define LZ_MAILBOX_WHY_MAX 2048
#define LZ_MAILBOX_MESSAGE_MAX 1024
#define LZ_MAILBOX_REASON_MAX 4096
#define LZ_MAILBOX_TIMEOUT_MAX 86400		/* seconds */

/* The file names: request-<id>.json and so on; NULL for another name. */
enum lz_record_kind {
	LZ_RECORD_REQUEST,
	LZ_RECORD_CANCEL,
	LZ_RECORD_ACK,
	LZ_RECORD_RESULT,
};
/*
 * The kind and request ID a file name says ("request-<32 hex>.json"), or
 * LZ_EINVAL for any other name (a ".tmp", junk, a path).
 */
int lz_record_name_parse(const char *name, enum lz_record_kind *kind,
    char id[LZ_MAILBOX_ID_HEX + 1]);
/* The file name of a record (allocated). */
char *lz_record_name(enum lz_record_kind kind, const char *id);

/* A request record (cancel records have the same fields but argv, cwd,
 * why and timeout; acknowledgements only v, id, session and mac). */
struct lz_request {
	enum lz_record_kind kind;
	char id[LZ_MAILBOX_ID_HEX + 1];
	char domain[17];
	char session[33];
	struct lz_tokens argv;		/* request only */
	char *cwd;			/* request only: the sandbox's cwd */
	char *why;			/* request only */
	unsigned timeout;		/* request only: seconds, 0 for none */
	long long t;			/* Unix ms (not in acks) */
	char nonce[LZ_MAILBOX_ID_HEX + 1];	/* not in acks */
	char *cert;			/* PEM (not in acks) */
	char *sig;			/* base64 (not in acks) */
	char mac[65];
	/* The signed bytes: canonical JSON without sig and mac. */
	struct lz_buf signed_bytes;
};

void lz_request_init(struct lz_request *r);
void lz_request_release(struct lz_request *r);
/*
 * Decodes a record of kind (from its file name) from buf (len bytes, at
 * most LZ_MAILBOX_REQUEST_MAX). LZ_EINVAL with the reason otherwise.
 */
int lz_request_decode(enum lz_record_kind kind, const char *buf, size_t len,
    struct lz_request *r, struct lz_err *err);
/*
 * Encodes r's fields as its kind needs them: signed gets the signed bytes
 * (for the caller to sign and MAC); with sig and mac set, out gets the
 * whole record. Fails with LZ_EINVAL when a field breaks a limit or the
 * whole record would pass LZ_MAILBOX_REQUEST_MAX: what the decoder would
 * refuse is never written.
 */
int lz_request_encode(const struct lz_request *r, struct lz_buf *signed_bytes,
    struct lz_buf *out, struct lz_err *err);

/* Outcomes of a result (OR-2). */
enum lz_outcome {
	LZ_OUTCOME_COMPLETED,
	LZ_OUTCOME_DENIED,
	LZ_OUTCOME_TIMED_OUT,
	LZ_OUTCOME_CANCELLED,
	LZ_OUTCOME_FAILED,
};
const char *lz_outcome_name(enum lz_outcome o);

struct lz_result {
	char id[LZ_MAILBOX_ID_HEX + 1];
	enum lz_outcome outcome;
	struct lz_tokens argv;		/* as run; empty unless it ran */
	int edited;			/* argv is the developer's edit */
	int ran;			/* status, stdout, stderr are set */
	int status;			/* 0..255 */
	struct lz_buf out, err;		/* the command's output */
	int truncated;			/* one of them was cut */
	char *reason;			/* why (denied, failed, timed out) */
	char *message;			/* the developer's words (denied) */
	char mac[65];
	struct lz_buf signed_bytes;	/* canonical JSON without mac */
};

void lz_result_init(struct lz_result *r);
void lz_result_release(struct lz_result *r);
/* The canonical JSON without mac into signed_bytes; then, with mac set,
 * the whole record into out (NULL: only the signed bytes). LZ_EINVAL
 * when an output is over LZ_MAILBOX_OUTPUT_MAX or the record over
 * LZ_MAILBOX_RESULT_MAX. */
int lz_result_encode(const struct lz_result *r, struct lz_buf *signed_bytes,
    struct lz_buf *out, struct lz_err *err);
int lz_result_decode(const char *buf, size_t len, struct lz_result *r,
    struct lz_err *err);

#endif
