/*
 * client-session.c: the relay of a raw Client Session. Sandbox output that
 * reaches a terminal always goes through the VT filter (ui/vtfilter.h):
 * no OSC 52, title change or query answered by the host terminal. The
 * host terminal is restored on every path (client-tty.c).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/client-prompt.h"
#include "src/client-session.h"
#include "src/client-tty.h"
#include "src/cmd.h"
#include "termdb/termdb.h"
#include "ui/escape.h"
#include "ui/vtfilter.h"

struct sink {
	int fd;
	int broken;
};

static void write_all(const char *buf, size_t len, void *user);
static void after_prompt(struct lz_conn_client *cc, struct lz_vtfilter **f,
    struct sink *s);
static void emit(struct lz_vtfilter *f, struct sink *s, const void *buf,
    size_t len);

/* Sandbox bytes to a sink: through the filter when it is a terminal. */
static void
emit(struct lz_vtfilter *f, struct sink *s, const void *buf, size_t len)
{
	if (f != NULL)
		lz_vtfilter_feed(f, buf, len);
	else
		write_all(buf, len, s);
}

static void
write_all(const char *buf, size_t len, void *user)
{
	struct sink *s = user;

	if (!s->broken && lz_write_all(s->fd, buf, len) != 0)
		s->broken = 1;
}

/*
 * After a prompt: the session's screen is asked for (REDRAW), and output
 * starts again on a filter of its own, so no sequence cut when the prompt
 * came up joins the SNAPSHOT that answers.
 */
static void
after_prompt(struct lz_conn_client *cc, struct lz_vtfilter **f,
    struct sink *s)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_frame_add(&b, LZ_FRAME_REDRAW, NULL, 0);
	(void)lz_conn_send(cc, &b, NULL);
	if (*f == NULL)
		return;
	lz_vtfilter_free(*f);
	*f = lz_vtfilter_new(write_all, s);
}

void
lz_client_open_request(const struct lz_client *c, char **argv, int argc,
    int tty, unsigned rows, unsigned cols, const char *term,
    struct lz_msg_open *m)
{
	char cwd[PATH_MAX], *ti = NULL;
	size_t wl = strlen(c->domain.workspace), i;
	const char *v;

	lz_msg_open_init(m);
	/* The sandbox directory that matches the current one, if inside. */
	if (getcwd(cwd, sizeof cwd) != NULL &&
	    strncmp(cwd, c->domain.workspace, wl) == 0 && cwd[wl] == '/')
		m->cwd = lz_xstrdup(cwd + wl + 1);
	else
		m->cwd = lz_xstrdup("");
	m->tty = tty;
	for (i = 0; i < (size_t)argc; i++)
		lz_tokens_push(&m->argv, argv[i]);
	if (tty) {
		m->rows = rows;
		m->cols = cols;
		if (term != NULL && strlen(term) < sizeof m->term) {
			snprintf(m->term, sizeof m->term, "%s", term);
			if ((strcmp(term, LZ_TERMDB_LAZARET) == 0 ?
			    lz_termdb_lazaret_entry(NULL, lz_termdb_getenv, &ti,
			    NULL) : lz_termdb_find(term, lz_termdb_getenv, &ti,
			    NULL)) == 0)
				m->terminfo = ti;
		}
	}
	for (i = 0; i < c->profile->env.n; i++) {
		if ((v = getenv(c->profile->env.v[i])) != NULL)
			lz_tokens_pushf(&m->env, "%s=%s", c->profile->env.v[i],
			    v);
	}
}

/*
 * The first answer to OPEN or ATTACH: OPENED (the Session ID into id) or
 * ATTACHED. Sets the connection's input window.
 */
int
lz_client_opened(struct lz_conn_client *cc, const struct lz_frame *f,
    int attach, char *id, size_t idlen, struct lz_err *err)
{
	struct lz_msg_opened o;

	if (!attach && f->type == LZ_FRAME_OPENED) {
		if (lz_msg_opened_decode(f, &o, err) != 0)
			return LZ_EINVAL;
		snprintf(id, idlen, "%s", o.session);
	} else if (!(attach && f->type == LZ_FRAME_ATTACHED))
		return lz_err_set(err, LZ_EINVAL, "unexpected %s frame",
		    lz_frame_type_name(f->type));
	cc->credit = LZ_REG_INPUT_WINDOW;
	return 0;
}

/*
 * Appends INPUT frames for up to len bytes of buf, as far as the window
 * allows; returns how many bytes were framed.
 */
size_t
lz_client_input(struct lz_conn_client *cc, struct lz_buf *frames,
    const void *buf, size_t len)
{
	size_t n = len < cc->credit ? len : cc->credit, off, k;

	for (off = 0; off < n; off += k) {
		k = n - off < LZ_FRAME_MAX ? n - off : LZ_FRAME_MAX;
		lz_frame_add(frames, LZ_FRAME_INPUT, (const char *)buf + off,
		    k);
	}
	cc->credit -= n;
	return n;
}

/* An ACK frame: the window grows again (never past its size). */
int
lz_client_ack(struct lz_conn_client *cc, const struct lz_frame *f,
    struct lz_err *err)
{
	uint32_t n;

	if (lz_msg_ack_decode(f, &n, err) != 0)
		return LZ_EINVAL;
	if (n > LZ_REG_INPUT_WINDOW - cc->credit)
		return lz_err_set(err, LZ_EINVAL, "the coordinator "
		    "acknowledged more input than was sent");
	cc->credit += n;
	return 0;
}

/* The exit status an EXIT frame reports; its reason, if any, printed. */
int
lz_client_exit(const struct lz_frame *f, struct lz_err *err)
{
	struct lz_msg_exit e;
	int status;

	if (lz_msg_exit_decode(f, &e, err) != 0)
		return -1;
	if (e.reason != NULL)
		lz_cmd_error("%s", e.reason);
	status = (int)e.status;
	lz_msg_exit_release(&e);
	return status;
}

int
lz_client_session(struct lz_conn_client *cc, const struct lz_client *c,
    char **argv, int argc, int tty, const char *attach)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct lz_buf pending = LZ_BUF_INIT, keys = LZ_BUF_INIT;
	struct sink out = { 1, 0 }, errs = { 2, 0 };
	struct lz_vtfilter *fout = NULL, *ferr = NULL;
	struct lz_msg_attach at;
	struct lz_msg_open m;
	struct pollfd pfd[3];
	struct lz_frame f;
	unsigned rows, cols;
	unsigned char sig;
	char buf[65536], session[LZ_MSG_SESSION_HEX + 1] = "";
	int status = -1, rc, sigfd, stdin_open = 1, eof, eof_sent = 0;
	int peer_gone = 0, domain_failed = 0, buffered;
	struct lz_escape esc = { 0 };
	struct lz_raw_prompt rp;	/* escalation prompts (client-prompt.h) */
	struct lz_frame_size sz;
	size_t k;
	ssize_t n;

	sigfd = lz_tty_signal_pipe();
	lz_tty_size(0, &rows, &cols);
	lz_raw_prompt_init(&rp, cc, c, 1, rows, cols);
	if (attach != NULL) {
		memset(&at, 0, sizeof at);
		snprintf(at.session, sizeof at.session, "%s", attach);
		at.rows = rows;
		at.cols = cols;
		lz_msg_attach_add(&b, &at);
		snprintf(session, sizeof session, "%s", attach);
	} else {
		lz_client_open_request(c, argv, argc, tty, rows, cols,
		    getenv("TERM"), &m);
		rc = lz_msg_open_add(&b, &m, &err);
		lz_msg_open_release(&m);
		if (rc != 0)
			goto fail;
	}
	if (lz_conn_send(cc, &b, &err) != 0 ||
	    lz_conn_wait(cc, &f, &payload, &err) != 0 ||
	    lz_client_opened(cc, &f, attach != NULL, session, sizeof session,
	    &err) != 0)
		goto fail;
	if (tty && lz_tty_raw(0) != 0)
		tty = 0;
	/* Anything that reaches a terminal is filtered (DESIGN "Terminals"). */
	if (isatty(1))
		fout = lz_vtfilter_new(write_all, &out);
	if (isatty(2))
		ferr = lz_vtfilter_new(write_all, &errs);
	/* The screen of a session attached to comes first. */
	if (f.type == LZ_FRAME_ATTACHED)
		emit(fout, &out, f.payload, f.len);
	/* The same read may have brought more (the rest of the screen, a
	 * waiting PROMPT): the socket will not wake poll for it. */
	buffered = lz_conn_buffered(cc);
	for (;;) {
		/*
		 * stdin is read only while the input window has room: a
		 * command that does not read its input makes this client
		 * wait, as a pipe would, and never swells the coordinator.
		 */
		pfd[0].fd = cc->fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = stdin_open && !peer_gone && ((pending.len == 0 &&
		    cc->credit > 0) || lz_raw_prompt_up(&rp)) ? 0 : -1;
		pfd[1].events = POLLIN;
		pfd[2].fd = sigfd;
		pfd[2].events = POLLIN;
		if (poll(pfd, 3, buffered ? 0 : lz_raw_prompt_timeout(&rp)) <
		    0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[2].revents & POLLIN) {
			while (read(sigfd, &sig, 1) == 1) {
				if (sig == SIGWINCH && tty) {
					lz_tty_size(0, &rows, &cols);
					sz.rows = rows;
					sz.cols = cols;
					lz_tty_cell(0, &sz.cell_w, &sz.cell_h);
					lz_frame_add_size(&b, LZ_FRAME_RESIZE,
					    &sz);
					lz_raw_prompt_resize(&rp, rows, cols);
				} else if (sig != SIGWINCH) {
					lz_tty_restore();
					lz_err_set(&err, LZ_ESYS, "stopped by "
					    "%s; %s", strsignal(sig), tty ?
					    "the session keeps running "
					    "('lazaret attach' returns to it)" :
					    "the command is hung up");
					goto fail;
				}
			}
		}
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(0, buf, sizeof buf);
			if (n > 0 && tty) {
				lz_buf_reset(&keys);
				if (lz_escape_filter(&esc, buf, (size_t)n,
				    &keys)) {
					lz_frame_add(&b, LZ_FRAME_DETACH, NULL,
					    0);
					lz_conn_send(cc, &b, NULL);
					lz_tty_restore();
					fprintf(stderr, "\r\n[detached from "
					    "session %.12s: 'lazaret attach' "
					    "returns to it]\r\n", session);
					status = 0;
					goto done;
				}
				/* A prompt up takes the keys (client-prompt.h). */
				if (lz_raw_prompt_up(&rp))
					lz_raw_prompt_keys(&rp, (const unsigned
					    char *)keys.buf, keys.len, &b);
				else
					lz_buf_add(&pending, keys.buf,
					    keys.len);
			} else if (n > 0)
				lz_buf_add(&pending, buf, (size_t)n);
			else if (n == 0 || (errno != EINTR && errno != EAGAIN))
				stdin_open = 0;
		}
		/* What the window takes now; the rest waits for an ACK. */
		if (pending.len > 0) {
			k = lz_client_input(cc, &b, pending.buf, pending.len);
			lz_buf_drop(&pending, k);
		}
		if (!stdin_open && pending.len == 0 && !eof_sent) {
			lz_frame_add(&b, LZ_FRAME_INPUT, NULL, 0);
			eof_sent = 1;
		}
		/*
		 * A coordinator that closed after EXIT refuses more input:
		 * stop sending and read what it said before it left.
		 */
		if (b.len > 0 && !peer_gone && lz_conn_send(cc, &b, NULL) != 0)
			peer_gone = 1;
		lz_buf_reset(&b);
		eof = 0;
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if ((rc = lz_conn_fill(cc, &err)) < 0)
				goto fail;
			eof = rc == 0;
		} else if (!buffered) {
			if (lz_raw_prompt_draw(&rp) == 1)
				after_prompt(cc, &fout, &out);
			continue;
		}
		buffered = 0;
		while ((rc = lz_conn_next(cc, &f, &payload, &err)) == 1) {
			switch (f.type) {
			case LZ_FRAME_OUTPUT:
			case LZ_FRAME_ATTACHED:
			case LZ_FRAME_SNAPSHOT:
				/* Under a prompt the coordinator's pane keeps
				 * it; a SNAPSHOT brings it back after. */
				if (!lz_raw_prompt_up(&rp))
					emit(fout, &out, f.payload, f.len);
				break;
			case LZ_FRAME_PROMPT:
			case LZ_FRAME_WITHDRAWN:
				if (tty)
					lz_raw_prompt_frame(&rp, &f);
				break;
			case LZ_FRAME_STDERR:
				emit(ferr, &errs, f.payload, f.len);
				break;
			case LZ_FRAME_ACK:
				if (lz_client_ack(cc, &f, &err) != 0)
					goto fail;
				break;
			case LZ_FRAME_EXIT:
				lz_tty_restore();
				if ((status = lz_client_exit(&f, &err)) < 0)
					goto fail;
				goto done;
			case LZ_FRAME_ERROR:
				domain_failed = lz_conn_error(&f, &err) ==
				    LZ_EFAILED;
				goto fail;
			default:
				break;
			}
		}
		if (rc < 0)
			goto fail;
		if (lz_raw_prompt_draw(&rp) == 1)
			after_prompt(cc, &fout, &out);
		if (eof) {
			lz_err_set(&err, LZ_ESYS, "the coordinator went away "
			    "(its log is coordinator.log in the Domain's "
			    "runtime directory)");
			goto fail;
		}
	}
fail:
	lz_tty_restore();
	lz_cmd_error("%s", err.msg ? err.msg : "the session failed");
	status = domain_failed ? -2 : -1;
done:
	lz_tty_restore();
	lz_raw_prompt_release(&rp);
	lz_buf_release(&keys);
	lz_buf_release(&pending);
	lz_vtfilter_free(fout);
	lz_vtfilter_free(ferr);
	lz_buf_release(&b);
	lz_buf_release(&payload);
	lz_err_release(&err);
	return status;
}
