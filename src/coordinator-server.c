/*
 * coordinator-server.c: the Domain's control socket. Accepts connections
 * from the user's own lazaret processes only (SO_PEERCRED), decodes their
 * frames into typed messages (protocol/msg.h) and hands them to the
 * session registry (core/registry.h), whose actions it carries out
 * (lz_coord_act). Every write to a client is a queued libuv write whose
 * size is counted, so the session code can hold output back from a
 * client that reads slowly (backpressure) without ever blocking the loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/msg.h"
#include "src/coordinator.h"

struct write_req {
	uv_write_t req;
	struct lz_conn *conn;
	char *data;
	size_t len;
};

static void on_connection(uv_stream_t *server, int status);
static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);
static void on_write(uv_write_t *req, int status);
static void on_close(uv_handle_t *h);
static void on_shutdown(uv_shutdown_t *req, int status);
static void dispatch(struct lz_conn *c, const struct lz_frame *f);
static void refuse(struct lz_conn *c, const char *code, const char *msg);

int
lz_coord_listen(struct lz_err *err)
{
	mode_t old;
	int rc;

	unlink(lz_coord.sock_path);	/* stale: we hold the lifecycle lock */
	if ((rc = uv_pipe_init(lz_coord.loop, &lz_coord.server, 0)) != 0)
		return lz_err_set(err, LZ_ESYS, "uv_pipe_init: %s",
		    uv_strerror(rc));
	old = umask(077);
	rc = uv_pipe_bind(&lz_coord.server, lz_coord.sock_path);
	umask(old);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&lz_coord.server, 64,
		    on_connection);
	if (rc != 0)
		return lz_err_set(err, LZ_ESYS, "cannot listen on '%s': %s",
		    lz_coord.sock_path, uv_strerror(rc));
	return 0;
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct lz_conn *c;
	struct ucred cred;
	socklen_t len = sizeof cred;
	uv_os_fd_t fd;

	if (status < 0)
		return;
	c = lz_xcalloc(1, sizeof *c);
	lz_buf_init(&c->in);
	uv_pipe_init(lz_coord.loop, &c->pipe, 0);
	c->pipe.data = c;
	if (uv_accept(server, (uv_stream_t *)&c->pipe) != 0) {
		/* EMFILE and the like: this one is dropped, others go on. */
		c->closing = 1;
		uv_close((uv_handle_t *)&c->pipe, on_close);
		return;
	}
	c->reg = lz_reg_conn_new(&lz_coord.reg, c);
	/* Only the Domain's own user may talk to its coordinator (SR-10). */
	if (uv_fileno((uv_handle_t *)&c->pipe, &fd) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    cred.uid != geteuid()) {
		refuse(c, "peer", "connection refused: not the Domain's user");
		return;
	}
	uv_read_start((uv_stream_t *)&c->pipe, lz_coord_alloc, on_read);
}

/*
 * The read buffer of every coordinator stream: one, reused. Each read
 * callback consumes its bytes before it returns (libuv runs them one at a
 * time on this thread), so nothing is freed, and a flood of output does
 * not churn the heap with a 64 KiB block a read.
 */
void
lz_coord_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	static char block[65536];

	(void)h;
	(void)hint;
	buf->base = block;
	buf->len = sizeof block;
}

/* ERROR code: msg, then the connection closes. */
static void
refuse(struct lz_conn *c, const char *code, const char *msg)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_msg_error_add(&b, code, msg);
	lz_coord_send(c, &b);
	lz_coord_conn_close(c);
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct lz_conn *c = s->data;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_frame f;
	size_t off = 0, used;
	int rc = 0;

	if (n < 0) {
		lz_coord_conn_close(c);
		return;
	}
	lz_buf_add(&c->in, buf->base, (size_t)n);
	while (!c->closing && (rc = lz_frame_decode((unsigned char *)
	    c->in.buf + off, c->in.len - off, &f, &used, &err)) == 1) {
		dispatch(c, &f);
		off += used;
	}
	if (!c->closing && rc < 0) {
		refuse(c, "frame", err.msg);
		lz_err_release(&err);
		return;
	}
	if (!c->closing)
		lz_buf_drop(&c->in, off);
}

/* One decoded frame of c, in order. */
static void
dispatch(struct lz_conn *c, const struct lz_frame *f)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_msg_hello hello;
	struct lz_msg_attach at;
	struct lz_msg_sessions list;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_session *s = c->reg->session ? c->reg->session->glue : NULL;
	struct lz_frame_size size;
	struct lz_msg_host host;
	size_t i;

	if (lz_reg_order(&lz_coord.reg, c->reg, f->type, &a) != 0) {
		lz_coord_act(&a);
		return;
	}
	switch (f->type) {
	case LZ_FRAME_HELLO:
		if (lz_msg_hello_decode(f, &hello, &err) != 0)
			break;
		lz_reg_hello(&lz_coord.reg, c->reg, &hello, &a);
		break;
	case LZ_FRAME_OPEN:
		lz_session_open(c, f);
		break;
	case LZ_FRAME_ATTACH:
		if (lz_msg_attach_decode(f, &at, &err) != 0)
			break;
		if (lz_reg_attach(&lz_coord.reg, c->reg, &at, &a) == 0) {
			c->history = at.history;
			/* Its host terminal replaces the last client's. */
			lz_session_host(c->reg->session->glue, &at.host);
		}
		break;
	case LZ_FRAME_DETACH:
		lz_coord_conn_close(c);
		break;
	case LZ_FRAME_HANGUP:
		lz_reg_hangup(&lz_coord.reg, c->reg, &a);
		break;
	case LZ_FRAME_INPUT:
		if (lz_reg_input(&lz_coord.reg, c->reg, f->len, &a) == 1)
			lz_session_input(s, f->payload, f->len, f->len);
		break;
	case LZ_FRAME_RESIZE:
		if (lz_frame_size(f, &size, &err) == 0 && s != NULL) {
			lz_session_cell(s, size.cell_w, size.cell_h);
			lz_session_resize(s, size.rows, size.cols, 1);
		}
		break;
	case LZ_FRAME_TRUST:
		lz_coord_trusted(&b);
		lz_coord_send(c, &b);
		break;
	case LZ_FRAME_REDRAW:
		/* A raw session's prompt drew over the client's screen. */
		if (s != NULL) {
			lz_session_screen(s, c->history, LZ_FRAME_SNAPSHOT,
			    &b);
			lz_coord_send(c, &b);
		}
		break;
	case LZ_FRAME_DECISION:
		lz_coord_decision(c, f);
		break;
	case LZ_FRAME_HOST:
		if (lz_msg_host_decode(f, &host, &err) == 0)
			lz_session_host(s, &host);
		break;
	case LZ_FRAME_LIST:
		lz_reg_list(&lz_coord.reg, &list);
		for (i = 0; i < list.n; i++)
			list.v[i].pending = lz_coord_esc_pending(
			    list.v[i].session);
		if (lz_coord_history_note() != NULL)
			list.history = lz_xstrdup(lz_coord_history_note());
		lz_msg_sessions_add(&b, &list);
		lz_msg_sessions_release(&list);
		lz_coord_send(c, &b);
		break;
	default:
		lz_err_set(&err, LZ_EINVAL, "frame type %s not accepted from a "
		    "client", lz_frame_type_name(f->type));
		break;
	}
	lz_coord_act(&a);
	/* A frame that does not decode: ERROR with the word, then close. */
	if (err.msg != NULL && !c->closing)
		refuse(c, "frame", err.msg);
	lz_err_release(&err);
}

void
lz_coord_send(struct lz_conn *c, struct lz_buf *frames)
{
	struct write_req *w;
	uv_buf_t b;
	int rc;

	if (frames->len == 0 || uv_is_closing((uv_handle_t *)&c->pipe)) {
		lz_buf_release(frames);
		return;
	}
	w = lz_xcalloc(1, sizeof *w);
	w->conn = c;
	w->len = frames->len;
	w->data = lz_buf_detach(frames);
	b = uv_buf_init(w->data, (unsigned int)w->len);
	w->req.data = w;
	rc = uv_write(&w->req, (uv_stream_t *)&c->pipe, &b, 1, on_write);
	if (rc != 0) {
		free(w->data);
		free(w);
		return;
	}
	c->queued += w->len;
}

static void
on_write(uv_write_t *req, int status)
{
	struct write_req *w = req->data;
	struct lz_conn *c = w->conn;

	(void)status;
	c->queued -= w->len;
	free(w->data);
	free(w);
	if (!c->closing && c->queued <= LZ_CONN_LOW_WATER)
		lz_session_drained(c);
}

void
lz_coord_act(struct lz_acts *a)
{
	struct lz_act *x;
	struct lz_conn *c;
	struct lz_session *s;
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;

	for (i = 0; i < a->n; i++) {
		x = &a->v[i];
		c = x->conn != NULL ? x->conn->glue : NULL;
		s = x->session != NULL ? x->session->glue : NULL;
		switch (x->kind) {
		case LZ_DO_SEND:
			lz_coord_send(c, &x->frames);
			break;
		case LZ_DO_CLOSE:
			lz_coord_conn_close(c);
			break;
		case LZ_DO_HANGUP:
			lz_session_hangup(s);
			break;
		case LZ_DO_RESIZE:
			/* Of an attach: its screen follows at that size. */
			lz_session_resize(s, x->rows, x->cols, 0);
			break;
		case LZ_DO_SCREEN:
			c->lagging = 0;
			lz_session_screen(s, x->history, LZ_FRAME_ATTACHED, &b);
			lz_coord_send(c, &b);
			/* Its waiting escalation prompt, after the screen. */
			lz_coord_esc_attached(x->session->id);
			break;
		case LZ_DO_FREE:
			lz_coord_esc_session_gone(x->session->id);
			lz_session_free(s);
			lz_reg_session_free(x->session);
			break;
		case LZ_DO_STOP:
			lz_coord_close();
			break;
		}
	}
	lz_acts_release(a);
}

void
lz_coord_tell_all(const char *code, const char *message)
{
	struct lz_reg_conn *rc;
	struct lz_buf b = LZ_BUF_INIT;

	for (rc = lz_coord.reg.conns; rc != NULL; rc = rc->next) {
		if (rc->closing)
			continue;
		lz_msg_error_add(&b, code, message);
		lz_coord_send(rc->glue, &b);
	}
}

static void
on_close(uv_handle_t *h)
{
	struct lz_conn *c = h->data;
	struct lz_acts a = LZ_ACTS_INIT;

	if (c->reg != NULL)
		lz_reg_conn_gone(&lz_coord.reg, c->reg, &a);
	lz_coord_act(&a);
	lz_buf_release(&c->in);
	free(c);
}

/*
 * Ends a connection: it leaves the registry (its pty session, if any, is
 * detached and keeps running; a pipe session is hung up), then the queued
 * frames (an ERROR, an EXIT) reach the peer and the handle closes.
 */
void
lz_coord_conn_close(struct lz_conn *c)
{
	struct lz_acts a = LZ_ACTS_INIT;
	uv_shutdown_t *req;

	if (c->closing)
		return;
	c->closing = 1;
	if (c->reg != NULL) {
		c->reg->closing = 1;
		lz_reg_detach(&lz_coord.reg, c->reg, &a);
		lz_coord_act(&a);
	}
	uv_read_stop((uv_stream_t *)&c->pipe);
	req = lz_xcalloc(1, sizeof *req);
	if (uv_shutdown(req, (uv_stream_t *)&c->pipe, on_shutdown) != 0) {
		free(req);
		uv_close((uv_handle_t *)&c->pipe, on_close);
	}
}

static void
on_shutdown(uv_shutdown_t *req, int status)
{
	(void)status;
	uv_close((uv_handle_t *)req->handle, on_close);
	free(req);
}
