/*
 * test-registry.c: the session registry (core/registry.h) without libuv:
 * HELLO checks, frame order, one client per session (FR-10), takeover,
 * detach of pty and pipe sessions, the input window and its ACKs, the end
 * of a session and of the last one (FR-6), teardown.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/registry.h"

#define DOMAIN "0123456789abcdef"
#define COORD "fedcba9876543210"
#define FP "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static int glue_a, glue_b, glue_s, glue_t;

/* The type of the first frame of action i (a SEND). */
static unsigned
sent_type(const struct lz_acts *a, size_t i)
{
	assert_true(i < a->n);
	assert_int_equal(a->v[i].kind, LZ_DO_SEND);
	assert_true(a->v[i].frames.len >= LZ_FRAME_HEADER);
	return (unsigned char)a->v[i].frames.buf[3];
}

/* The ERROR code in action i. */
static void
error_is(const struct lz_acts *a, size_t i, const char *code)
{
	struct lz_msg_error e;
	struct lz_frame f;
	size_t used;

	assert_int_equal(sent_type(a, i), LZ_FRAME_ERROR);
	assert_int_equal(lz_frame_decode((unsigned char *)a->v[i].frames.buf,
	    a->v[i].frames.len, &f, &used, NULL), 1);
	assert_int_equal(lz_msg_error_decode(&f, &e, NULL), 0);
	assert_string_equal(e.code, code);
	lz_msg_error_release(&e);
}

/* A session registered and started for c (new, then start). */
static struct lz_reg_session *
added(struct lz_registry *r, struct lz_reg_conn *c, int tty, const char *cmd,
    const char *cwd, long long now, void *glue, struct lz_acts *a)
{
	struct lz_reg_session *s = lz_reg_session_new(c, tty, cmd, cwd, now,
	    glue);

	lz_reg_session_start(r, s, a);
	return s;
}

/* A client's public key in HELLO's form. */
static void
hello_key(char key[LZ_MSG_KEY_B64 + 1])
{
	struct lz_buf b = LZ_BUF_INIT;
	EVP_PKEY *k = lz_key_new(NULL);

	assert_int_equal(lz_key_public_b64(k, &b), 0);
	memcpy(key, b.buf, LZ_MSG_KEY_B64 + 1);
	lz_buf_release(&b);
	EVP_PKEY_free(k);
}

static struct lz_reg_conn *
welcomed(struct lz_registry *r, void *glue)
{
	struct lz_reg_conn *c = lz_reg_conn_new(r, glue);
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_msg_hello h;

	memset(&h, 0, sizeof h);
	h.version = LZ_FRAME_VERSION;
	strcpy(h.domain, DOMAIN);
	strcpy(h.profile, "default");
	strcpy(h.fingerprint, FP);
	hello_key(h.key);
	assert_int_equal(lz_reg_order(r, c, LZ_FRAME_HELLO, &a), 0);
	lz_reg_hello(r, c, &h, &a);
	assert_int_equal(a.n, 1);
	assert_int_equal(sent_type(&a, 0), LZ_FRAME_WELCOME);
	assert_true(c->hello);
	lz_acts_release(&a);
	return c;
}

static void
test_hello_and_order(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c;
	struct lz_msg_hello h;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	c = lz_reg_conn_new(&r, &glue_a);
	assert_true(lz_msg_hex_ok(c->client_id, LZ_MSG_CLIENT_HEX));
	/* Anything before HELLO: refused and closed. */
	assert_int_equal(lz_reg_order(&r, c, LZ_FRAME_OPEN, &a), LZ_EINVAL);
	error_is(&a, 0, "order");
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	lz_acts_release(&a);
	memset(&h, 0, sizeof h);
	strcpy(h.domain, "1111111111111111");
	strcpy(h.fingerprint, FP);
	hello_key(h.key);
	lz_reg_hello(&r, c, &h, &a);
	error_is(&a, 0, "domain");
	lz_acts_release(&a);
	c = lz_reg_conn_new(&r, &glue_b);
	strcpy(h.domain, DOMAIN);
	h.fingerprint[0] = 'f';
	lz_reg_hello(&r, c, &h, &a);
	error_is(&a, 0, "fingerprint");
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	lz_acts_release(&a);
	c = welcomed(&r, &glue_a);
	/* HELLO twice: refused. */
	assert_int_equal(lz_reg_order(&r, c, LZ_FRAME_HELLO, &a), LZ_EINVAL);
	error_is(&a, 0, "order");
	lz_acts_release(&a);
	/* While stopping, a HELLO is told to wait for the next start. */
	r.stopping = 1;
	c = lz_reg_conn_new(&r, &glue_b);
	strcpy(h.fingerprint, FP);
	lz_reg_hello(&r, c, &h, &a);
	error_is(&a, 0, "stopping");
	lz_acts_release(&a);
	lz_registry_release(&r);
}

/* The first frame the registry answers a HELLO with fingerprint fp. */
static unsigned
hello_answer(struct lz_registry *r, const char *fp)
{
	struct lz_reg_conn *c = lz_reg_conn_new(r, &glue_b);
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_msg_hello h;
	unsigned t;

	memset(&h, 0, sizeof h);
	h.version = LZ_FRAME_VERSION;
	strcpy(h.domain, DOMAIN);
	strcpy(h.profile, "default");
	strcpy(h.fingerprint, fp);
	hello_key(h.key);
	lz_reg_hello(r, c, &h, &a);
	t = sent_type(&a, 0);
	lz_acts_release(&a);
	return t;
}

/* A rule saved from a prompt: the new fingerprint and the ones it grew
 * from are let in, nothing else; the oldest is forgotten past the bound. */
static void
test_adopt(void **state)
{
	struct lz_registry r;
	char fp[LZ_MSG_FINGERPRINT_HEX + 1];
	unsigned i;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	strcpy(fp, FP);
	fp[0] = fp[0] == 'a' ? 'b' : 'a';
	lz_reg_adopt(&r, fp);
	assert_string_equal(r.fingerprint, fp);
	assert_int_equal(hello_answer(&r, fp), LZ_FRAME_WELCOME);
	assert_int_equal(hello_answer(&r, FP), LZ_FRAME_WELCOME);
	fp[0] = 'f';
	fp[1] = 'f';
	assert_int_equal(hello_answer(&r, fp), LZ_FRAME_ERROR);
	/* Adopting the running one again changes nothing. */
	lz_reg_adopt(&r, r.fingerprint);
	assert_int_equal(r.nearlier, 1);
	for (i = 0; i < LZ_REG_EARLIER_MAX; i++) {
		snprintf(fp, sizeof fp, "%064x", i + 1);
		lz_reg_adopt(&r, fp);
	}
	assert_int_equal(r.nearlier, LZ_REG_EARLIER_MAX);
	assert_int_equal(hello_answer(&r, FP), LZ_FRAME_ERROR);
	snprintf(fp, sizeof fp, "%064x", 1);
	assert_int_equal(hello_answer(&r, fp), LZ_FRAME_WELCOME);
	lz_registry_release(&r);
}

static void
test_one_client_and_takeover(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c1, *c2, *c3;
	struct lz_reg_session *s, *p;
	struct lz_msg_attach at;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	c1 = welcomed(&r, &glue_a);
	c2 = welcomed(&r, &glue_b);
	c3 = welcomed(&r, &glue_b);
	assert_int_equal(lz_reg_may_open(&r, c1, &a), 0);
	s = added(&r, c1, 1, "bash -l", "/workspace", 1, &glue_s, &a);
	assert_int_equal(sent_type(&a, 0), LZ_FRAME_OPENED);
	assert_ptr_equal(s->conn, c1);
	lz_acts_release(&a);
	/* A second session on the same connection: refused. */
	assert_int_equal(lz_reg_may_open(&r, c1, &a), LZ_EINVAL);
	error_is(&a, 0, "order");
	lz_acts_release(&a);
	/* Attached elsewhere, no takeover: refused (FR-10). */
	memset(&at, 0, sizeof at);
	strcpy(at.session, s->id);
	assert_int_equal(lz_reg_attach(&r, c2, &at, &a), LZ_EBUSY);
	error_is(&a, 0, "open");
	assert_ptr_equal(s->conn, c1);
	assert_null(c2->session);
	lz_acts_release(&a);
	/* Takeover: the old client is told and closed, then c2 binds. */
	at.takeover = 1;
	at.rows = 30;
	at.cols = 100;
	at.history = 500;
	assert_int_equal(lz_reg_attach(&r, c2, &at, &a), 0);
	error_is(&a, 0, "taken");
	assert_ptr_equal(a.v[0].conn, c1);
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	assert_ptr_equal(a.v[1].conn, c1);
	assert_int_equal(a.v[2].kind, LZ_DO_RESIZE);
	assert_int_equal(a.v[2].rows, 30);
	assert_int_equal(a.v[3].kind, LZ_DO_SCREEN);
	assert_int_equal(a.v[3].history, 500);
	assert_ptr_equal(s->conn, c2);
	assert_null(c1->session);
	/* No moment with two clients: every conn bound to s is c2. */
	assert_ptr_equal(c2->session, s);
	lz_acts_release(&a);
	lz_reg_conn_gone(&r, c1, &a);
	assert_int_equal(a.n, 0);
	/* A pipe session has no screen to attach to. */
	p = added(&r, c3, 0, "make", "/workspace", 2, &glue_t, &a);
	lz_acts_release(&a);
	strcpy(at.session, p->id);
	c1 = welcomed(&r, &glue_a);
	assert_int_equal(lz_reg_attach(&r, c1, &at, &a), LZ_EINVAL);
	error_is(&a, 0, "open");
	lz_acts_release(&a);
	strcpy(at.session, "00000000000000000000000000000000");
	assert_int_equal(lz_reg_attach(&r, c1, &at, &a), LZ_ENOTFOUND);
	lz_acts_release(&a);
	lz_registry_release(&r);
}

static void
test_detach_and_end(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c1, *c2;
	struct lz_reg_session *s, *p;
	struct lz_msg_sessions l;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	c1 = welcomed(&r, &glue_a);
	c2 = welcomed(&r, &glue_b);
	s = added(&r, c1, 1, "bash", "/workspace", 1, &glue_s, &a);
	p = added(&r, c2, 0, "make", "/workspace", 1, &glue_t, &a);
	lz_acts_release(&a);
	/* A pty session keeps running without its client. */
	lz_reg_detach(&r, c1, &a);
	assert_int_equal(a.n, 0);
	assert_null(s->conn);
	lz_reg_list(&r, &l);
	assert_int_equal(l.n, 2);
	lz_msg_sessions_release(&l);
	/* A pipe session is hung up when its client goes. */
	lz_reg_conn_gone(&r, c2, &a);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.v[0].kind, LZ_DO_HANGUP);
	assert_ptr_equal(a.v[0].session, p);
	lz_acts_release(&a);
	lz_reg_exited(&r, p, 129, 1, NULL);
	lz_reg_finished(&r, p, &a);
	/* No client: just FREE; another session is left: no STOP. */
	assert_int_equal(a.n, 1);
	assert_int_equal(a.v[0].kind, LZ_DO_FREE);
	lz_reg_session_free(a.v[0].session);
	lz_acts_release(&a);
	/* The last session ends with its client: EXIT, CLOSE, FREE, STOP. */
	c2 = welcomed(&r, &glue_b);
	s->conn = c2;
	c2->session = s;
	lz_reg_exited(&r, s, 0, 0, "reason");
	lz_reg_finished(&r, s, &a);
	assert_int_equal(sent_type(&a, 0), LZ_FRAME_EXIT);
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	assert_int_equal(a.v[2].kind, LZ_DO_FREE);
	assert_int_equal(a.v[3].kind, LZ_DO_STOP);
	assert_int_equal(r.nsessions, 0);
	lz_reg_session_free(a.v[2].session);
	lz_acts_release(&a);
	lz_reg_conn_gone(&r, c1, &a);
	lz_reg_conn_gone(&r, c2, &a);
	lz_acts_release(&a);
	lz_registry_release(&r);
}

static void
test_input_window(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c, *c2;
	struct lz_reg_session *s;
	struct lz_msg_attach at;
	struct lz_frame f;
	uint32_t n;
	size_t used;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	c = welcomed(&r, &glue_a);
	s = added(&r, c, 1, "cat", "/workspace", 1, &glue_s, &a);
	lz_acts_release(&a);
	/* A key, written at once: no ACK for it (one a key costs a frame
	 * and a wake-up each). */
	assert_int_equal(lz_reg_input(&r, c, 1, &a), 1);
	lz_reg_input_written(&r, s, 1, 1, &a);
	assert_int_equal(a.n, 0);
	assert_int_equal(lz_reg_input(&r, c, LZ_REG_INPUT_WINDOW - 11, &a), 1);
	/* 1000 written: under the step, queue not empty: no ACK yet. */
	lz_reg_input_written(&r, s, 1000, 0, &a);
	assert_int_equal(a.n, 0);
	/* Past the window: refused and closed. */
	assert_int_equal(lz_reg_input(&r, c, 11, &a), LZ_EINVAL);
	error_is(&a, 0, "window");
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	lz_acts_release(&a);
	c->closing = 0;
	assert_int_equal(lz_reg_input(&r, c, 10, &a), 1);
	/* The queue ran dry: everything written so far is acknowledged. */
	lz_reg_input_written(&r, s, 5000, 1, &a);
	assert_int_equal(sent_type(&a, 0), LZ_FRAME_ACK);
	assert_int_equal(lz_frame_decode((unsigned char *)a.v[0].frames.buf,
	    a.v[0].frames.len, &f, &used, NULL), 1);
	assert_int_equal(lz_msg_ack_decode(&f, &n, NULL), 0);
	assert_int_equal(n, 6001);
	assert_int_equal(c->in_flight, LZ_REG_INPUT_WINDOW - 6001);
	lz_acts_release(&a);
	/* Never more than was sent, whatever the session wrote. */
	lz_reg_input_written(&r, s, LZ_REG_INPUT_WINDOW * 3, 1, &a);
	assert_int_equal(c->in_flight, 0);
	lz_acts_release(&a);
	/* After a takeover, the old client's bytes are not the new one's. */
	assert_int_equal(lz_reg_input(&r, c, 100, &a), 1);
	c2 = welcomed(&r, &glue_b);
	memset(&at, 0, sizeof at);
	strcpy(at.session, s->id);
	at.takeover = 1;
	assert_int_equal(lz_reg_attach(&r, c2, &at, &a), 0);
	lz_acts_release(&a);
	lz_reg_input_written(&r, s, 100, 1, &a);
	assert_int_equal(a.n, 0);
	assert_int_equal(c2->in_flight, 0);
	/* Input for a connection without a running session is dropped. */
	assert_int_equal(lz_reg_input(&r, c, 5, &a), 0);
	lz_registry_release(&r);
}

static void
test_stop(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_reg_conn *c;
	struct lz_reg_session *s;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	c = welcomed(&r, &glue_a);
	s = added(&r, c, 1, "sh", "/workspace", 1, &glue_s, &a);
	lz_acts_release(&a);
	lz_reg_stop(&r, &a);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.v[0].kind, LZ_DO_HANGUP);
	assert_ptr_equal(a.v[0].session, s);
	lz_acts_release(&a);
	assert_int_equal(lz_reg_may_open(&r, c, &a), LZ_EBUSY);
	error_is(&a, 0, "stopping");
	lz_acts_release(&a);
	/* A second stop hangs up nobody again. */
	lz_reg_stop(&r, &a);
	assert_int_equal(a.n, 0);
	lz_registry_release(&r);
	lz_registry_init(&r, DOMAIN, COORD, FP);
	lz_reg_stop(&r, &a);
	assert_int_equal(a.v[0].kind, LZ_DO_STOP);
	lz_acts_release(&a);
	lz_registry_release(&r);
}

static void
test_identities_and_tuple(void **state)
{
	struct lz_registry r;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_trust *t = lz_trust_new(DOMAIN, "default", COORD, NULL);
	struct lz_msg_welcome w;
	struct lz_msg_hello h;
	struct lz_msg_attach at;
	struct lz_reg_conn *c, *c2;
	struct lz_reg_session *s, *s2;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;
	unsigned char anchor[LZ_TRUST_ANCHOR_BYTES];
	char hex[65];
	size_t used;

	(void)state;
	lz_registry_init(&r, DOMAIN, COORD, FP);
	r.trust = t;
	/* WELCOME carries a client certificate for this Client CLI ID. */
	c = lz_reg_conn_new(&r, &glue_a);
	memset(&h, 0, sizeof h);
	strcpy(h.domain, DOMAIN);
	strcpy(h.profile, "default");
	strcpy(h.fingerprint, FP);
	hello_key(h.key);
	lz_reg_hello(&r, c, &h, &a);
	assert_int_equal(sent_type(&a, 0), LZ_FRAME_WELCOME);
	assert_int_equal(lz_frame_decode((unsigned char *)a.v[0].frames.buf,
	    a.v[0].frames.len, &f, &used, NULL), 1);
	assert_int_equal(lz_msg_welcome_decode(&f, &w, NULL), 0);
	assert_string_equal(w.client, c->client_id);
	assert_int_equal(lz_trust_verify(t, w.cert, strlen(w.cert),
	    LZ_ROLE_CLIENT, c->client_id, 0, NULL, NULL), 0);
	assert_int_equal(lz_trust_verify(t, w.cert, strlen(w.cert),
	    LZ_ROLE_SANDBOX, c->client_id, 0, NULL, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_msg_welcome_release(&w);
	lz_acts_release(&a);
	/* A key that is not an Ed25519 key: ERROR identity, closed. */
	c2 = lz_reg_conn_new(&r, &glue_b);
	strcpy(h.key, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
	h.key[0] = '*';
	lz_reg_hello(&r, c2, &h, &a);
	error_is(&a, 0, "identity");
	assert_int_equal(a.v[1].kind, LZ_DO_CLOSE);
	lz_acts_release(&a);
	/* Session Anchors: random, one per session. */
	s = added(&r, c, 1, "sh", "/workspace", 1, &glue_s, &a);
	lz_acts_release(&a);
	c2 = welcomed(&r, &glue_b);
	s2 = added(&r, c2, 1, "sh", "/workspace", 1, &glue_t, &a);
	lz_acts_release(&a);
	assert_memory_not_equal(s->anchor, s2->anchor, sizeof s->anchor);
	lz_reg_anchor_hex(s, hex);
	assert_int_equal(strlen(hex), 64);
	/* The tuple: every part must be the current one. */
	assert_int_equal(lz_reg_authorize(&r, c, DOMAIN, COORD, c->client_id,
	    s->id, NULL), 0);
	assert_int_equal(lz_reg_authorize(&r, c, "1111111111111111", COORD,
	    c->client_id, s->id, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "another Domain"));
	lz_err_release(&e);
	assert_int_equal(lz_reg_authorize(&r, c, DOMAIN, "0000000000000001",
	    c->client_id, s->id, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "another coordinator"));
	lz_err_release(&e);
	assert_int_equal(lz_reg_authorize(&r, c, DOMAIN, COORD, c2->client_id,
	    s->id, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_reg_authorize(&r, c, DOMAIN, COORD, c->client_id,
	    s2->id, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not bound to"));
	lz_err_release(&e);
	/* A takeover keeps the session's anchor and binds the new client. */
	memcpy(anchor, s->anchor, sizeof anchor);
	memset(&at, 0, sizeof at);
	strcpy(at.session, s->id);
	at.takeover = 1;
	c2 = welcomed(&r, &glue_b);
	assert_int_equal(lz_reg_attach(&r, c2, &at, &a), 0);
	lz_acts_release(&a);
	assert_memory_equal(s->anchor, anchor, sizeof anchor);
	assert_int_equal(lz_reg_authorize(&r, c2, DOMAIN, COORD, c2->client_id,
	    s->id, NULL), 0);
	assert_int_equal(lz_reg_authorize(&r, c, DOMAIN, COORD, c->client_id,
	    s->id, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_registry_release(&r);
	lz_trust_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_and_order),
		cmocka_unit_test(test_adopt),
		cmocka_unit_test(test_one_client_and_takeover),
		cmocka_unit_test(test_detach_and_end),
		cmocka_unit_test(test_input_window),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_identities_and_tuple),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
