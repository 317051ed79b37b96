/*
 * registry.c: the session registry (registry.h). The binding rules of
 * protocol/Lazaret.tla's Join, Detach, CliCrash, Reattach and SessionEnd
 * live here, as plain code returning actions; src/coordinator-*.c carries
 * them out. Nothing here does I/O or knows libuv.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "core/ids.h"
#include "core/registry.h"

static struct lz_act *act(struct lz_acts *a, enum lz_act_kind kind,
    struct lz_reg_conn *c, struct lz_reg_session *s);
static void send_error(struct lz_acts *a, struct lz_reg_conn *c,
    const char *code, const char *msg);
static void close_conn(struct lz_acts *a, struct lz_reg_conn *c);

void
lz_acts_release(struct lz_acts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		lz_buf_release(&a->v[i].frames);
	free(a->v);
	a->v = NULL;
	a->n = a->alloc = 0;
}

static struct lz_act *
act(struct lz_acts *a, enum lz_act_kind kind, struct lz_reg_conn *c,
    struct lz_reg_session *s)
{
	struct lz_act *x;

	a->v = lz_xgrow(a->v, a->n + 1, &a->alloc, sizeof *a->v);
	x = &a->v[a->n++];
	memset(x, 0, sizeof *x);
	lz_buf_init(&x->frames);
	x->kind = kind;
	x->conn = c;
	x->session = s;
	return x;
}

static void
send_error(struct lz_acts *a, struct lz_reg_conn *c, const char *code,
    const char *msg)
{
	lz_msg_error_add(&act(a, LZ_DO_SEND, c, NULL)->frames, code, msg);
}

static void
close_conn(struct lz_acts *a, struct lz_reg_conn *c)
{
	if (c->closing)
		return;
	c->closing = 1;
	act(a, LZ_DO_CLOSE, c, NULL);
}

void
lz_registry_init(struct lz_registry *r, const char *domain,
    const char *coordinator, const char *fingerprint)
{
	memset(r, 0, sizeof *r);
	snprintf(r->domain, sizeof r->domain, "%s", domain);
	snprintf(r->coordinator, sizeof r->coordinator, "%s", coordinator);
	snprintf(r->fingerprint, sizeof r->fingerprint, "%s", fingerprint);
}

void
lz_reg_adopt(struct lz_registry *r, const char *fingerprint)
{
	if (strcmp(fingerprint, r->fingerprint) == 0)
		return;
	if (r->nearlier == LZ_REG_EARLIER_MAX) {
		memmove(r->earlier[0], r->earlier[1], (LZ_REG_EARLIER_MAX - 1) *
		    sizeof r->earlier[0]);
		r->nearlier--;
	}
	memcpy(r->earlier[r->nearlier++], r->fingerprint,
	    sizeof r->earlier[0]);
	snprintf(r->fingerprint, sizeof r->fingerprint, "%s", fingerprint);
}

/* The running configuration's fingerprint, or one it grew from. */
static int
known_fingerprint(const struct lz_registry *r, const char *fp)
{
	unsigned i;

	if (strcmp(fp, r->fingerprint) == 0)
		return 1;
	for (i = 0; i < r->nearlier; i++)
		if (strcmp(fp, r->earlier[i]) == 0)
			return 1;
	return 0;
}

void
lz_reg_session_free(struct lz_reg_session *s)
{
	OPENSSL_cleanse(s->anchor, sizeof s->anchor);
	free(s->reason);
	free(s->command);
	free(s->cwd);
	free(s);
}

void
lz_registry_release(struct lz_registry *r)
{
	struct lz_reg_conn *c, *cn;
	struct lz_reg_session *s, *sn;

	for (c = r->conns; c != NULL; c = cn) {
		cn = c->next;
		EVP_PKEY_free(c->key);
		free(c);
	}
	for (s = r->sessions; s != NULL; s = sn) {
		sn = s->next;
		lz_reg_session_free(s);
	}
	memset(r, 0, sizeof *r);
}

struct lz_reg_conn *
lz_reg_conn_new(struct lz_registry *r, void *glue)
{
	struct lz_reg_conn *c = lz_xcalloc(1, sizeof *c);

	lz_id_random(c->client_id, LZ_ID_CLIENT_BYTES);
	c->glue = glue;
	c->next = r->conns;
	r->conns = c;
	return c;
}

void
lz_reg_conn_gone(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a)
{
	struct lz_reg_conn **pp;

	/* CliCrash: a connection that ends without DETACH detaches. */
	lz_reg_detach(r, c, a);
	for (pp = &r->conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	EVP_PKEY_free(c->key);
	free(c);
}

int
lz_reg_order(struct lz_registry *r, struct lz_reg_conn *c, unsigned t,
    struct lz_acts *a)
{
	(void)r;
	if (c->hello == (t == LZ_FRAME_HELLO)) {
		send_error(a, c, "order", c->hello ? "HELLO sent twice" :
		    "the first frame must be HELLO");
		close_conn(a, c);
		return LZ_EINVAL;
	}
	return 0;
}

void
lz_reg_hello(struct lz_registry *r, struct lz_reg_conn *c,
    const struct lz_msg_hello *m, struct lz_acts *a)
{
	struct lz_msg_welcome w;
	struct lz_buf msg = LZ_BUF_INIT, cert = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;

	if (strcmp(m->domain, r->domain) != 0) {
		send_error(a, c, "domain", "this coordinator serves another "
		    "Domain");
	} else if (!known_fingerprint(r, m->fingerprint)) {
		lz_buf_addf(&msg, "the running Domain %s was started with "
		    "another configuration (fingerprint %.12s, yours %.12s); "
		    "end its sessions ('lazaret ls' lists them) and run again "
		    "to restart it with the new one", r->domain,
		    r->fingerprint, m->fingerprint);
		send_error(a, c, "fingerprint", msg.buf);
	} else if (r->stopping) {
		/* The client waits for the teardown and starts anew. */
		send_error(a, c, "stopping", "the Domain is stopping");
	} else if ((c->key = lz_key_from_b64(m->key, &e)) == NULL ||
	    (r->trust != NULL && lz_trust_issue(r->trust, LZ_ROLE_CLIENT,
	    c->client_id, c->key, &cert, &e) != 0)) {
		lz_buf_addf(&msg, "the client's identity: %s", e.msg);
		send_error(a, c, "identity", msg.buf);
	} else {
		c->hello = 1;
		memset(&w, 0, sizeof w);
		w.version = LZ_FRAME_VERSION;
		memcpy(w.coordinator, r->coordinator, sizeof w.coordinator);
		memcpy(w.client, c->client_id, sizeof w.client);
		w.cert = cert.buf;
		lz_msg_welcome_add(&act(a, LZ_DO_SEND, c, NULL)->frames, &w);
	}
	if (!c->hello)
		close_conn(a, c);
	lz_err_release(&e);
	lz_buf_release(&cert);
	lz_buf_release(&msg);
}

int
lz_reg_may_open(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a)
{
	if (r->stopping) {
		send_error(a, c, "stopping", "the Domain is stopping");
		return LZ_EBUSY;
	}
	if (c->session != NULL) {
		send_error(a, c, "order", "this connection already has a "
		    "session");
		return LZ_EINVAL;
	}
	return 0;
}

struct lz_reg_session *
lz_reg_session_new(struct lz_reg_conn *c, int tty, const char *command,
    const char *cwd, long long now, void *glue)
{
	struct lz_reg_session *s = lz_xcalloc(1, sizeof *s);

	lz_id_random(s->id, LZ_ID_SESSION_BYTES);
	if (RAND_bytes(s->anchor, sizeof s->anchor) != 1)
		LZ_BUG("no random bytes for a Session Anchor");
	s->tty = tty;
	s->state = LZ_REG_RUNNING;
	s->command = lz_xstrdup(command);
	s->cwd = lz_xstrdup(cwd);
	s->started = now;
	s->glue = glue;
	s->conn = c;
	return s;
}

void
lz_reg_session_start(struct lz_registry *r, struct lz_reg_session *s,
    struct lz_acts *a)
{
	struct lz_reg_conn *c = s->conn;
	struct lz_msg_opened o;

	c->session = s;
	c->in_flight = c->ack_pending = 0;
	s->next = r->sessions;
	r->sessions = s;
	r->nsessions++;
	memcpy(o.session, s->id, sizeof o.session);
	lz_msg_opened_add(&act(a, LZ_DO_SEND, c, s)->frames, &o);
}

void
lz_reg_anchor_hex(const struct lz_reg_session *s,
    char out[2 * LZ_TRUST_ANCHOR_BYTES + 1])
{
	lz_hex(s->anchor, sizeof s->anchor, out);
}

int
lz_reg_authorize(const struct lz_registry *r, const struct lz_reg_conn *c,
    const char *domain, const char *coordinator, const char *client,
    const char *session, struct lz_err *err)
{
	const char *what = NULL;

	if (strcmp(domain, r->domain) != 0)
		what = "another Domain";
	else if (strcmp(coordinator, r->coordinator) != 0)
		what = "another coordinator instance";
	else if (!c->hello || c->closing || strcmp(client, c->client_id) != 0)
		what = "another Client CLI";
	else if (c->session == NULL || strcmp(session, c->session->id) != 0 ||
	    c->session->conn != c)
		what = "a session this client is not bound to";
	if (what == NULL)
		return 0;
	return lz_err_set(err, LZ_EINVAL, "refused: it names %s (session "
	    "control needs the current Domain, coordinator, Client CLI and "
	    "Session ID together)", what);
}

struct lz_reg_session *
lz_reg_find(struct lz_registry *r, const char *id)
{
	struct lz_reg_session *s;

	for (s = r->sessions; s != NULL; s = s->next)
		if (strcmp(s->id, id) == 0)
			return s;
	return NULL;
}

int
lz_reg_attach(struct lz_registry *r, struct lz_reg_conn *c,
    const struct lz_msg_attach *m, struct lz_acts *a)
{
	struct lz_reg_session *s;
	struct lz_reg_conn *old;
	struct lz_buf msg = LZ_BUF_INIT;
	struct lz_act *x;
	int rc = 0;

	if ((rc = lz_reg_may_open(r, c, a)) != 0)
		return rc;
	s = lz_reg_find(r, m->session);
	if (s == NULL || s->state != LZ_REG_RUNNING) {
		lz_buf_addf(&msg, "no running session '%s' ('lazaret ls' "
		    "lists them)", m->session);
		rc = LZ_ENOTFOUND;
	} else if (!s->tty) {
		lz_buf_addf(&msg, "session %.12s runs a command without a "
		    "terminal; there is no screen to attach to", s->id);
		rc = LZ_EINVAL;
	} else if (s->conn != NULL && !m->takeover) {
		lz_buf_addf(&msg, "session %.12s is attached to another "
		    "client (one client per session, FR-10)", s->id);
		rc = LZ_EBUSY;
	}
	if (rc != 0) {
		send_error(a, c, "open", msg.buf);
		lz_buf_release(&msg);
		return rc;
	}
	if ((old = s->conn) != NULL) {
		/* Takeover = Detach of the old client, then Reattach. */
		send_error(a, old, "taken", "another lazaret client took this "
		    "session over");
		old->session = NULL;
		s->conn = NULL;
		close_conn(a, old);
	}
	s->conn = c;
	c->session = s;
	c->in_flight = c->ack_pending = 0;
	if (m->rows > 0 && m->cols > 0) {
		x = act(a, LZ_DO_RESIZE, c, s);
		x->rows = m->rows;
		x->cols = m->cols;
	}
	act(a, LZ_DO_SCREEN, c, s)->history = m->history;
	return 0;
}

void
lz_reg_detach(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a)
{
	struct lz_reg_session *s = c->session;

	(void)r;
	if (s == NULL)
		return;
	c->session = NULL;
	s->conn = NULL;
	/* A command's streams have no screen to come back to. */
	if (!s->tty && s->state == LZ_REG_RUNNING)
		act(a, LZ_DO_HANGUP, NULL, s);
}

void
lz_reg_hangup(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a)
{
	(void)r;
	if (c->session != NULL && c->session->state == LZ_REG_RUNNING)
		act(a, LZ_DO_HANGUP, c, c->session);
}

int
lz_reg_input(struct lz_registry *r, struct lz_reg_conn *c, size_t len,
    struct lz_acts *a)
{
	(void)r;
	if (c->session == NULL || c->session->state != LZ_REG_RUNNING)
		return 0;
	if (len > LZ_REG_INPUT_WINDOW - c->in_flight) {
		send_error(a, c, "window", "INPUT past the input window "
		    "(wire.md 1.4)");
		close_conn(a, c);
		return LZ_EINVAL;
	}
	c->in_flight += len;
	return 1;
}

void
lz_reg_input_written(struct lz_registry *r, struct lz_reg_session *s,
    size_t n, int empty, struct lz_acts *a)
{
	struct lz_reg_conn *c = s->conn;
	size_t k;

	(void)r;
	if (c == NULL || c->closing)
		return;
	/* Bytes of an earlier client (before a takeover) are not c's. */
	k = n < c->in_flight - c->ack_pending ? n :
	    c->in_flight - c->ack_pending;
	c->ack_pending += k;
	/*
	 * A key at a time does not need one ACK each (a frame and a wake-up
	 * per key, measured): credit matters only to a client that used much
	 * of its window.
	 */
	if (c->ack_pending == 0 || (c->ack_pending < LZ_REG_ACK_STEP &&
	    (!empty || c->in_flight < LZ_REG_INPUT_WINDOW / 2)))
		return;
	lz_msg_ack_add(&act(a, LZ_DO_SEND, c, s)->frames,
	    (uint32_t)c->ack_pending);
	c->in_flight -= c->ack_pending;
	c->ack_pending = 0;
}

void
lz_reg_exited(struct lz_registry *r, struct lz_reg_session *s,
    unsigned status, unsigned signal, const char *reason)
{
	(void)r;
	s->state = LZ_REG_EXITED;
	s->status = status;
	s->signal = signal;
	free(s->reason);
	s->reason = reason ? lz_xstrdup(reason) : NULL;
}

void
lz_reg_finished(struct lz_registry *r, struct lz_reg_session *s,
    struct lz_acts *a)
{
	struct lz_reg_session **pp;
	struct lz_msg_exit e;
	struct lz_reg_conn *c = s->conn;

	if (c != NULL) {
		e.status = s->status;
		e.signal = s->signal;
		e.reason = s->reason;
		lz_msg_exit_add(&act(a, LZ_DO_SEND, c, s)->frames, &e);
		c->session = NULL;
		s->conn = NULL;
		close_conn(a, c);
	}
	for (pp = &r->sessions; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	r->nsessions--;
	act(a, LZ_DO_FREE, NULL, s)->session = s;
	if (r->nsessions == 0)
		act(a, LZ_DO_STOP, NULL, NULL);
}

void
lz_reg_stop(struct lz_registry *r, struct lz_acts *a)
{
	struct lz_reg_session *s;

	if (!r->stopping) {
		r->stopping = 1;
		for (s = r->sessions; s != NULL; s = s->next)
			if (s->state == LZ_REG_RUNNING)
				act(a, LZ_DO_HANGUP, NULL, s);
	}
	if (r->nsessions == 0)
		act(a, LZ_DO_STOP, NULL, NULL);
}

void
lz_reg_list(struct lz_registry *r, struct lz_msg_sessions *out)
{
	struct lz_reg_session *s;
	struct lz_msg_session e;

	memset(out, 0, sizeof *out);
	for (s = r->sessions; s != NULL; s = s->next) {
		memset(&e, 0, sizeof e);
		memcpy(e.session, s->id, sizeof e.session);
		e.command = s->command;
		e.cwd = s->cwd;
		e.tty = s->tty;
		e.running = s->state == LZ_REG_RUNNING;
		e.started = s->started;
		if (s->conn != NULL)
			memcpy(e.client, s->conn->client_id, sizeof e.client);
		lz_msg_sessions_push(out, &e);
	}
}
