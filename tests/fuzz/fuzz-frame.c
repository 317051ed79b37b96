/*
 * fuzz-frame.c: libFuzzer target for the control-socket frame decoder and
 * every typed message decoder (protocol/msg.h): any bytes give frames or
 * an error, a decoded frame never reaches past the input, and each frame's
 * payload is given to every decoder; a message that decodes is encoded
 * again and must decode to the same values.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes b's first frame (the encoder's output) of type t. */
static const struct lz_frame *
again(struct lz_buf *b, struct lz_frame *f)
{
	size_t used;

	if (lz_frame_decode((unsigned char *)b->buf, b->len, f, &used,
	    NULL) != 1 || used != b->len)
		abort();
	return f;
}

static void
every_decoder(const struct lz_frame *in)
{
	struct lz_frame f = *in, g;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_msg_hello h, h2;
	struct lz_msg_welcome w, w2;
	struct lz_msg_error e;
	struct lz_msg_open o, o2;
	struct lz_msg_opened op;
	struct lz_msg_exit x, x2;
	struct lz_msg_attach a, a2;
	struct lz_msg_sessions s, s2;
	struct lz_msg_prompt pr, pr2;
	struct lz_msg_decision de, de2;
	struct lz_msg_withdrawn wd;
	uint32_t n;
	struct lz_frame_size sz;
	struct lz_msg_host host, host2;

	f.type = LZ_FRAME_HELLO;
	if (lz_msg_hello_decode(&f, &h, NULL) == 0) {
		lz_msg_hello_add(&b, &h);
		if (lz_msg_hello_decode(again(&b, &g), &h2, NULL) != 0 ||
		    memcmp(&h, &h2, sizeof h) != 0)
			abort();
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_WELCOME;
	if (lz_msg_welcome_decode(&f, &w, NULL) == 0) {
		lz_msg_welcome_add(&b, &w);
		if (lz_msg_welcome_decode(again(&b, &g), &w2, NULL) != 0 ||
		    memcmp(&w, &w2, sizeof w) != 0)
			abort();
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_ERROR;
	if (lz_msg_error_decode(&f, &e, NULL) == 0)
		lz_msg_error_release(&e);
	f.type = LZ_FRAME_OPEN;
	if (lz_msg_open_decode(&f, &o, NULL) == 0) {
		if (lz_msg_open_add(&b, &o, NULL) != 0 ||
		    lz_msg_open_decode(again(&b, &g), &o2, NULL) != 0 ||
		    o2.argv.n != o.argv.n || o2.env.n != o.env.n ||
		    o2.rows != o.rows || strcmp(o2.cwd, o.cwd) != 0)
			abort();
		lz_msg_open_release(&o2);
		lz_buf_reset(&b);
	}
	lz_msg_open_release(&o);
	f.type = LZ_FRAME_OPENED;
	(void)lz_msg_opened_decode(&f, &op, NULL);
	f.type = LZ_FRAME_EXIT;
	if (lz_msg_exit_decode(&f, &x, NULL) == 0) {
		lz_msg_exit_add(&b, &x);
		if (lz_msg_exit_decode(again(&b, &g), &x2, NULL) != 0 ||
		    x2.status != x.status || x2.signal != x.signal)
			abort();
		lz_msg_exit_release(&x2);
		lz_msg_exit_release(&x);
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_ATTACH;
	if (lz_msg_attach_decode(&f, &a, NULL) == 0) {
		lz_msg_attach_add(&b, &a);
		if (lz_msg_attach_decode(again(&b, &g), &a2, NULL) != 0 ||
		    memcmp(&a, &a2, sizeof a) != 0)
			abort();
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_SESSIONS;
	if (lz_msg_sessions_decode(&f, &s, NULL) == 0) {
		lz_msg_sessions_add(&b, &s);
		if (lz_msg_sessions_decode(again(&b, &g), &s2, NULL) != 0 ||
		    s2.n != s.n)
			abort();
		lz_msg_sessions_release(&s2);
		lz_msg_sessions_release(&s);
	}
	f.type = LZ_FRAME_PROMPT;
	if (lz_msg_prompt_decode(&f, &pr, NULL) == 0) {
		lz_msg_prompt_add(&b, &pr);
		if (lz_msg_prompt_decode(again(&b, &g), &pr2, NULL) != 0 ||
		    pr2.argv.n != pr.argv.n)
			abort();
		lz_msg_prompt_release(&pr2);
		lz_msg_prompt_release(&pr);
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_DECISION;
	if (lz_msg_decision_decode(&f, &de, NULL) == 0) {
		if (lz_msg_decision_add(&b, &de, NULL) != 0 ||
		    lz_msg_decision_decode(again(&b, &g), &de2, NULL) != 0 ||
		    de2.decision != de.decision)
			abort();
		lz_msg_decision_release(&de2);
		lz_msg_decision_release(&de);
		lz_buf_reset(&b);
	}
	f.type = LZ_FRAME_WITHDRAWN;
	(void)lz_msg_withdrawn_decode(&f, &wd, NULL);
	f.type = LZ_FRAME_ACK;
	(void)lz_msg_ack_decode(&f, &n, NULL);
	f.type = LZ_FRAME_RESIZE;
	(void)lz_frame_size(&f, &sz, NULL);
	f.type = LZ_FRAME_RESIZED;
	(void)lz_frame_size(&f, &sz, NULL);
	f.type = LZ_FRAME_HOST;
	if (lz_msg_host_decode(&f, &host, NULL) == 0) {
		lz_msg_host_add(&b, &host);
		if (lz_msg_host_decode(again(&b, &g), &host2, NULL) != 0 ||
		    memcmp(&host, &host2, sizeof host) != 0)
			abort();
		lz_buf_reset(&b);
	}
	lz_buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_frame f;
	size_t off = 0, used;
	int rc;

	while (off < size) {
		rc = lz_frame_decode(data + off, size - off, &f, &used, &err);
		if (rc < 0 && err.msg == NULL)
			abort();
		if (rc <= 0)
			break;
		if (used == 0 || used > size - off ||
		    f.payload + f.len > data + size)
			abort();
		every_decoder(&f);
		off += used;
	}
	lz_err_release(&err);
	return 0;
}
