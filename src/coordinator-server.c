/*
 * coordinator-server.c: the Domain's control socket. Accepts connections
 * from the user's own lazaret processes only (SO_PEERCRED), gives each a
 * random Client CLI ID, checks the HELLO (protocol version, Domain,
 * Configuration Fingerprint) and dispatches frames. Connection set-up is
 * in one place (conn_hello) so certificate-based identities can go there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/frame.h"
#include "src/coordinator.h"

struct write_req {
	uv_write_t req;
	char *data;
};

static void on_connection(uv_stream_t *server, int status);
static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);
static void on_write(uv_write_t *req, int status);
static void on_close(uv_handle_t *h);
static void on_shutdown(uv_shutdown_t *req, int status);
static void dispatch(struct lz_conn *c, const struct lz_frame *f);
static void conn_hello(struct lz_conn *c, const struct lz_frame *f);
static void send_error(struct lz_conn *c, const char *code,
    const char *msg);

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
		rc = uv_listen((uv_stream_t *)&lz_coord.server, 16,
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
		uv_close((uv_handle_t *)&c->pipe, on_close);
		return;
	}
	c->next = lz_coord.conns;
	lz_coord.conns = c;
	lz_id_random(c->client_id, LZ_ID_CLIENT_BYTES);
	/* Only the Domain's own user may talk to its coordinator (SR-10). */
	if (uv_fileno((uv_handle_t *)&c->pipe, &fd) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    cred.uid != geteuid()) {
		send_error(c, "peer", "connection refused: not the Domain's "
		    "user");
		lz_coord_conn_close(c);
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

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct lz_conn *c = s->data;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_frame f;
	size_t off = 0, used;
	int rc;

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
		send_error(c, "frame", err.msg);
		lz_err_release(&err);
		lz_coord_conn_close(c);
		return;
	}
	if (off > 0) {
		memmove(c->in.buf, c->in.buf + off, c->in.len - off);
		c->in.len -= off;
		c->in.buf[c->in.len] = '\0';
	}
}

void
lz_coord_send(struct lz_conn *c, struct lz_buf *frames)
{
	struct write_req *w;
	uv_buf_t b;

	if (frames->len == 0 || uv_is_closing((uv_handle_t *)&c->pipe)) {
		lz_buf_release(frames);
		return;
	}
	w = lz_xcalloc(1, sizeof *w);
	b.len = frames->len;
	w->data = lz_buf_detach(frames);
	b.base = w->data;
	w->req.data = w;
	if (uv_write(&w->req, (uv_stream_t *)&c->pipe, &b, 1, on_write) != 0) {
		free(w->data);
		free(w);
	}
}

static void
on_write(uv_write_t *req, int status)
{
	struct write_req *w = req->data;

	(void)status;
	free(w->data);
	free(w);
}

static void
send_error(struct lz_conn *c, const char *code, const char *msg)
{
	struct lz_buf b = LZ_BUF_INIT;
	json_t *j = json_pack("{s:s,s:s}", "code", code, "message", msg);

	lz_frame_add_json(&b, LZ_FRAME_ERROR, j);
	json_decref(j);
	lz_coord_send(c, &b);
}

/*
 * HELLO: {"version", "domain", "fingerprint"}. The one place a peer's
 * identity is established; certificates (SR-9) will be checked here.
 */
static void
conn_hello(struct lz_conn *c, const struct lz_frame *f)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT, msg = LZ_BUF_INIT;
	const char *dom, *fp;
	json_t *j, *w;

	if ((j = lz_frame_json(f, &err)) == NULL) {
		send_error(c, "frame", err.msg);
		lz_err_release(&err);
		lz_coord_conn_close(c);
		return;
	}
	dom = json_string_value(json_object_get(j, "domain"));
	fp = json_string_value(json_object_get(j, "fingerprint"));
	if (dom == NULL || strcmp(dom, lz_coord.cfg.domain.id) != 0) {
		send_error(c, "domain", "this coordinator serves another "
		    "Domain");
		lz_coord_conn_close(c);
	} else if (fp == NULL || strcmp(fp, lz_coord.cfg.fingerprint) != 0) {
		lz_buf_addf(&msg, "the running Domain %s was started with "
		    "another configuration (fingerprint %.12s, yours %.12s); "
		    "end its sessions ('lazaret ls' lists them) and run again "
		    "to restart it with the new one", lz_coord.cfg.domain.id,
		    lz_coord.cfg.fingerprint, fp ? fp : "none");
		send_error(c, "fingerprint", msg.buf);
		lz_coord_conn_close(c);
	} else {
		c->hello = 1;
		w = json_pack("{s:s,s:s,s:i}", "coordinator", lz_coord.id,
		    "client", c->client_id, "version", LZ_FRAME_VERSION);
		lz_frame_add_json(&b, LZ_FRAME_WELCOME, w);
		json_decref(w);
		lz_coord_send(c, &b);
	}
	lz_buf_release(&msg);
	json_decref(j);
}

static void
dispatch(struct lz_conn *c, const struct lz_frame *f)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	unsigned rows, cols;
	json_t *j;

	if (!c->hello && f->type != LZ_FRAME_HELLO) {
		send_error(c, "order", "the first frame must be HELLO");
		lz_coord_conn_close(c);
		return;
	}
	switch (f->type) {
	case LZ_FRAME_HELLO:
		if (c->hello) {
			send_error(c, "order", "HELLO sent twice");
			lz_coord_conn_close(c);
			return;
		}
		conn_hello(c, f);
		return;
	case LZ_FRAME_OPEN:
		if (c->session != NULL || lz_coord.stopping) {
			send_error(c, "order", c->session ? "this connection "
			    "already has a session" : "the Domain is stopping");
			return;
		}
		if ((j = lz_frame_json(f, &err)) == NULL ||
		    lz_session_open(c, j, &err) != 0) {
			send_error(c, "open", err.msg);
			lz_err_release(&err);
		}
		json_decref(j);
		return;
	case LZ_FRAME_ATTACH:
		if (c->session != NULL || lz_coord.stopping) {
			send_error(c, "order", c->session ? "this connection "
			    "already has a session" : "the Domain is stopping");
			return;
		}
		if ((j = lz_frame_json(f, &err)) == NULL ||
		    lz_session_attach(c, j, &err) != 0) {
			send_error(c, "open", err.msg);
			lz_err_release(&err);
		}
		json_decref(j);
		return;
	case LZ_FRAME_DETACH:
		lz_coord_conn_close(c);
		return;
	case LZ_FRAME_HANGUP:
		if (c->session != NULL)
			lz_session_hangup(c->session);
		return;
	case LZ_FRAME_INPUT:
		if (c->session != NULL)
			lz_session_input(c->session, f->payload, f->len);
		return;
	case LZ_FRAME_RESIZE:
		if (lz_frame_resize(f, &rows, &cols, &err) != 0) {
			send_error(c, "frame", err.msg);
			lz_err_release(&err);
		} else if (c->session != NULL)
			lz_session_resize(c->session, rows, cols);
		return;
	case LZ_FRAME_LIST:
		j = json_pack("{s:o}", "sessions", lz_session_list());
		lz_frame_add_json(&b, LZ_FRAME_SESSIONS, j);
		json_decref(j);
		lz_coord_send(c, &b);
		return;
	default:
		send_error(c, "frame", "frame type not accepted from a client");
		lz_coord_conn_close(c);
		return;
	}
}

static void
on_close(uv_handle_t *h)
{
	struct lz_conn *c = h->data;

	if (c == NULL)
		return;
	lz_buf_release(&c->in);
	free(c);
}

/* Ends a connection; its pty session, if any, is detached (keeps running). */
void
lz_coord_conn_close(struct lz_conn *c)
{
	struct lz_conn **pp;
	uv_shutdown_t *req;

	if (c->closing)
		return;
	c->closing = 1;
	for (pp = &lz_coord.conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	if (c->session != NULL) {
		lz_session_detach(c->session);
		c->session = NULL;
	}
	/* Let queued frames (an ERROR, an EXIT) reach the peer first. */
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

void
lz_coord_close_all_conns(void)
{
	while (lz_coord.conns != NULL)
		lz_coord_conn_close(lz_coord.conns);
}
