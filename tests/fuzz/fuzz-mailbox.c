/*
 * fuzz-mailbox.c: libFuzzer target for the Escalation Mailbox records
 * (protocol/mailbox.h) and the coordinator's checks of them
 * (core/escalate.h). The first input byte picks the kind (its value
 * modulo 4: request, cancel, ack, result; the seeds in
 * tests/fuzz/corpus/mailbox/ start with '0' to '3'), the rest is the
 * record. Decoding fails with a message or succeeds; a decoded record
 * encodes again to exactly its signed bytes, and its whole encoding
 * decodes to the same signed bytes and encodes to the same text. A
 * request, cancel or ack is then verified against a Trust Anchor and a
 * registry made once, with one running session whose ID is known (so the
 * fuzzer can reach the MAC check) and an anchor it cannot know: no input
 * can carry a valid signature or MAC, so each must be refused with a
 * message, and none may take a slot in the seen set. Short inputs are
 * also taken as a file name: lz_record_name_parse takes only the names
 * lz_record_name makes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/esc-client.h"
#include "core/escalate.h"

/* The seeds' Domain and sandbox (tests/unit/esc-fixture.h), so that a
 * seed gets past the Domain to the certificate check. */
#define DOMAIN "0123456789abcdef"
#define SANDBOX "5a5a5a5a5a5a5a5a"
#define SESSION "00000000000000000000000000000001"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lz_trust *trust;
static struct lz_registry reg;
static struct lz_esc_seen seen;
static struct lz_esc_ctx ctx;

static void
init(void)
{
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_session *s;

	if ((trust = lz_trust_new(DOMAIN, "default", "fedcba9876543210",
	    NULL)) == NULL)
		abort();
	lz_registry_init(&reg, DOMAIN, "fedcba9876543210", "");
	s = lz_reg_session_new(lz_reg_conn_new(&reg, NULL), 1, "sh", "/", 0,
	    NULL);
	memcpy(s->id, SESSION, sizeof s->id);
	lz_reg_session_start(&reg, s, &a);
	lz_acts_release(&a);
	ctx.trust = trust;
	ctx.reg = &reg;
	ctx.sandbox_id = SANDBOX;
	ctx.seen = &seen;
	ctx.now_ms = lz_esc_now_ms();
}

/* An encoder may refuse a decoded record only for its size: a
 * non-canonical input can grow when encoded (\uXXXX for each non-ASCII
 * character). */
static int
too_big(int rc, struct lz_err *err)
{
	if (rc == 0)
		return 0;
	if (err->msg == NULL || (strstr(err->msg, "over the mailbox's "
	    "limit") == NULL && strstr(err->msg, "the result record is") ==
	    NULL))
		abort();
	lz_err_release(err);
	return 1;
}

static int
same(const struct lz_buf *a, const struct lz_buf *b)
{
	return a->len == b->len && memcmp(a->buf, b->buf, a->len) == 0;
}

static void
request(enum lz_record_kind kind, const char *buf, size_t len)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT, out2 = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_request r, d;
	struct lz_reg_session *s = NULL;
	int rc;

	if (lz_request_decode(kind, buf, len, &r, &err) != 0) {
		if (err.msg == NULL)
			abort();
		lz_err_release(&err);
		return;
	}
	if (r.kind != kind)
		abort();
	rc = lz_request_encode(&r, &sb, &out, &err);
	if (!same(&sb, &r.signed_bytes))
		abort();
	if (!too_big(rc, &err)) {
		if (lz_request_decode(kind, out.buf, out.len, &d, NULL) != 0 ||
		    !same(&d.signed_bytes, &r.signed_bytes) ||
		    lz_request_encode(&d, &sb, &out2, NULL) != 0 ||
		    !same(&out, &out2))
			abort();
		lz_request_release(&d);
	}
	if (lz_esc_verify(&ctx, &r, &s, &err) == 0 || s != NULL ||
	    err.msg == NULL || seen.n != 0)
		abort();
	lz_err_release(&err);
	lz_request_release(&r);
	lz_buf_release(&sb);
	lz_buf_release(&out);
	lz_buf_release(&out2);
}

static void
result(const char *buf, size_t len)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT, out2 = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_result r, d;
	int rc;

	if (lz_result_decode(buf, len, &r, &err) != 0) {
		if (err.msg == NULL)
			abort();
		lz_err_release(&err);
		return;
	}
	rc = lz_result_encode(&r, &sb, &out, &err);
	if (!same(&sb, &r.signed_bytes))
		abort();
	if (!too_big(rc, &err)) {
		if (lz_result_decode(out.buf, out.len, &d, NULL) != 0 ||
		    !same(&d.signed_bytes, &r.signed_bytes) ||
		    d.out.len != r.out.len || d.err.len != r.err.len ||
		    lz_result_encode(&d, &sb, &out2, NULL) != 0 ||
		    !same(&out, &out2))
			abort();
		lz_result_release(&d);
	}
	lz_result_release(&r);
	lz_buf_release(&sb);
	lz_buf_release(&out);
	lz_buf_release(&out2);
}

/* The input as a file name: one the parser takes is a record's own. */
static void
name(const uint8_t *data, size_t size)
{
	enum lz_record_kind kind;
	char id[LZ_MAILBOX_ID_HEX + 1], *s, *again;

	s = lz_xstrndup((const char *)data, size);
	if (lz_record_name_parse(s, &kind, id) == 0) {
		again = lz_record_name(kind, id);
		if (strcmp(again, s) != 0)
			abort();
		free(again);
	}
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum lz_record_kind kind;

	if (trust == NULL)
		init();
	if (size == 0)
		return 0;
	if (size < 64)
		name(data, size);
	kind = (enum lz_record_kind)(data[0] % 4);
	if (kind == LZ_RECORD_RESULT)
		result((const char *)data + 1, size - 1);
	else
		request(kind, (const char *)data + 1, size - 1);
	return 0;
}
