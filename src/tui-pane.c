/*
 * tui-pane.c: where a pane's bytes come from. Normally a connection to the
 * coordinator bound to one Client Session (OPEN or ATTACH); in bench mode
 * (lazaret __mux-bench) a host pty running a host command, so the
 * multiplexer's own cost can be measured against tmux without a sandbox.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/spawn.h"
#include "src/client-session.h"
#include "src/tui.h"
#include "termdb/termdb.h"

/*
 * A bench pane's answers to its program: the pane is the terminal there
 * (a session's are the coordinator's). Dropped when the pty is full.
 */
static void
pty_reply(const char *buf, size_t len, void *user)
{
	struct tui_pane *p = user;
	ssize_t n;

	while (len > 0 && (n = write(p->fd, buf, len)) > 0) {
		buf += n;
		len -= (size_t)n;
	}
}

static struct tui_pane *
pane_new(struct tui *t, unsigned rows, unsigned cols, int pty)
{
	static const struct lz_pane_cb answers = { pty_reply, NULL };
	struct tui_pane *p = lz_xcalloc(1, sizeof *p);

	p->id = t->next_id++;
	p->fd = -1;
	p->cc.fd = -1;
	lz_buf_init(&p->inq);
	lz_buf_init(&p->sendq);
	p->pane = lz_pane_new(rows, cols, t->conf->history, pty ? &answers :
	    NULL, p);
	lz_pane_set_host(p->pane, &t->host);
	p->rect = (struct lz_rect){ 0, 0, (int)rows, (int)cols };
	return p;
}

/* The command line shown for the pane: argv joined, or the profile's. */
static char *
command_of(struct tui *t, char **argv, int argc)
{
	struct lz_buf b = LZ_BUF_INIT;
	int i;

	for (i = 0; i < argc; i++)
		lz_buf_addf(&b, "%s%s", i ? " " : "", argv[i]);
	if (argc == 0 && t->c != NULL)
		for (i = 0; i < (int)t->c->profile->command.n; i++)
			lz_buf_addf(&b, "%s%s", i ? " " : "",
			    t->c->profile->command.v[i]);
	return lz_buf_detach(&b);
}

struct tui_pane *
tui_pane_open(struct tui *t, char **argv, int argc, const char *attach,
    int take, unsigned rows, unsigned cols, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct tui_pane *p = pane_new(t, rows, cols, 0);
	struct lz_msg_attach at;
	struct lz_msg_open m;
	struct lz_frame f;
	int rc;

	/* Once the full screen is up, nothing may print. */
	if (lz_conn_open(&p->cc, t->c, t->self, LZ_CONN_START |
	    (t->npanes > 0 ? LZ_CONN_QUIET : 0), err) != 0)
		goto fail;
	p->fd = p->cc.fd;
	if (attach != NULL) {
		memset(&at, 0, sizeof at);
		snprintf(at.session, sizeof at.session, "%s", attach);
		at.rows = rows;
		at.cols = cols;
		at.takeover = take;
		at.history = t->conf->history;
		tui_host_msg(t, &at.host);
		lz_msg_attach_add(&b, &at);
	} else {
		lz_client_open_request(t->c, argv, argc, 1, rows, cols,
		    LZ_TERMDB_LAZARET, &m);
		tui_host_msg(t, &m.host);
		rc = lz_msg_open_add(&b, &m, err);
		lz_msg_open_release(&m);
		if (rc != 0)
			goto fail;
	}
	if (lz_conn_send(&p->cc, &b, err) != 0 ||
	    lz_conn_wait(&p->cc, &f, &payload, err) != 0 ||
	    lz_client_opened(&p->cc, &f, attach != NULL, p->session,
	    sizeof p->session, err) != 0)
		goto fail;
	if (attach != NULL) {
		snprintf(p->session, sizeof p->session, "%s", attach);
		tui_pane_snapshot(p, f.payload, f.len);
	} else
		p->command = command_of(t, argv, argc);
	fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
	lz_buf_release(&b);
	lz_buf_release(&payload);
	return p;
fail:
	lz_buf_release(&b);
	lz_buf_release(&payload);
	tui_pane_free(p);
	return NULL;
}

/*
 * A host pane's environment: the caller's, with TERM and TERMINFO naming
 * Lazaret's entry when it is installed.
 */
static void
pane_env(struct lz_tokens *env)
{
	extern char **environ;
	char *path = NULL, *slash;
	char **e;
	int i;

	if (lz_termdb_lazaret_entry(NULL, lz_termdb_getenv, &path, NULL) == 0) {
		/* .../terminfo/l/lazaret: TERMINFO is the directory above. */
		for (i = 0; i < 2 && (slash = strrchr(path, '/')) != NULL; i++)
			*slash = '\0';
		lz_tokens_pushf(env, "TERMINFO=%s", path);
		lz_tokens_pushf(env, "TERM=%s", LZ_TERMDB_LAZARET);
		free(path);
	}
	for (e = environ; *e != NULL; e++)
		if (env->n == 0 || (strncmp(*e, "TERM=", 5) != 0 &&
		    strncmp(*e, "TERMINFO=", 9) != 0))
			lz_tokens_push(env, *e);
}

struct tui_pane *
tui_pane_spawn(struct tui *t, char **argv, unsigned rows, unsigned cols,
    struct lz_err *err)
{
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols,
	    0, 0 };
	struct tui_pane *p = pane_new(t, rows, cols, 1);
	struct lz_tokens env = LZ_TOKENS_INIT;
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	int rc;

	pane_env(&env);
	memset(&sp, 0, sizeof sp);
	sp.argv = (const char *const *)argv;
	sp.envp = (const char *const *)env.v;
	sp.stdio = LZ_SPAWN_PTY;
	sp.ws = &ws;
	sp.new_session = 1;
	rc = lz_spawn_child(&sp, &c, err);
	lz_tokens_release(&env);
	if (rc != 0) {
		tui_pane_free(p);
		return NULL;
	}
	close(c.out);
	fcntl(c.in, F_SETFL, fcntl(c.in, F_GETFL) | O_NONBLOCK);
	p->is_pty = 1;
	p->fd = c.in;
	p->pid = c.pid;
	p->command = command_of(t, argv, 1);
	snprintf(p->session, sizeof p->session, "pty-%ld", (long)c.pid);
	return p;
}

/* Full reads of a pty before the loop polls again (64 KiB, as one read was). */
#define PTY_READS 16

static int
read_pty(struct tui_pane *p, size_t *bytes)
{
	char buf[LZ_PTY_READ];
	ssize_t n = 0;
	int st, i;

	/* Read on while reads come back full (LZ_PTY_READ). */
	for (i = 0; i < PTY_READS; i++) {
		n = read(p->fd, buf, sizeof buf);
		if (n <= 0)
			break;
		lz_pane_feed(p->pane, buf, (size_t)n);
		*bytes += (size_t)n;
		if (n < LZ_PTY_READ)
			return 0;
	}
	if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
		return 0;
	/* EIO: the child and everything on the pty are gone. */
	if (waitpid(p->pid, &st, 0) == p->pid)
		p->status = WIFEXITED(st) ? WEXITSTATUS(st) :
		    128 + WTERMSIG(st);
	p->pid = 0;
	p->ended = 1;
	return -1;
}

/*
 * A snapshot of the coordinator's pane (ui/pane.h, lz_pane_render_ansi),
 * in one frame or several: the mirror is reset by the first and takes
 * the snapshot's private strings until output follows.
 */
void
tui_pane_snapshot(struct tui_pane *p, const void *buf, size_t len)
{
	if (!p->restoring) {
		lz_pane_restore_begin(p->pane);
		p->restoring = 1;
	}
	lz_pane_feed(p->pane, buf, len);
}

/* The session's output, after a snapshot or not. */
void
tui_pane_output(struct tui_pane *p, const void *buf, size_t len)
{
	if (p->restoring) {
		lz_pane_restore_end(p->pane);
		p->restoring = 0;
	}
	lz_pane_feed(p->pane, buf, len);
}

/* One frame of the pane's connection. */
static void
pane_frame(struct tui *t, struct tui_pane *p, const struct lz_frame *f)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_frame_size sz;

	switch (f->type) {
	case LZ_FRAME_SNAPSHOT:
		/* The mirror starts again from the coordinator's screen,
		 * unless this frame goes on with the last one's. */
		if (!p->more) {
			p->restoring = 0;
			p->back = 0;
		}
		/* FALLTHROUGH */
	case LZ_FRAME_ATTACHED:
		tui_pane_snapshot(p, f->payload, f->len);
		p->more = (f->flags & LZ_FRAME_FLAG_MORE) != 0;
		t->output += f->len;
		break;
	case LZ_FRAME_OUTPUT:
		p->more = 0;
		tui_pane_output(p, f->payload, f->len);
		t->output += f->len;
		break;
	case LZ_FRAME_RESIZED:
		if (lz_frame_size(f, &sz, &err) == 0)
			tui_pane_resized(p, sz.rows, sz.cols);
		break;
	case LZ_FRAME_ACK:
		if (lz_client_ack(&p->cc, f, &err) != 0) {
			tui_message(t, "pane %d: %s", tui_pane_number(t, p), err.msg);
			p->ended = 1;
		}
		tui_pane_flush(t, p);
		break;
	case LZ_FRAME_EXIT:
		p->status = lz_client_exit(f, &err);
		if (p->status < 0)
			p->status = 1;
		p->ended = 1;
		break;
	case LZ_FRAME_ERROR:
		if (lz_conn_error(f, &err) == LZ_EFAILED)
			t->failed = 1;
		tui_message(t, "pane %d: %s", tui_pane_number(t, p), err.msg);
		p->ended = 1;
		break;
	/* Escalation prompts over this pane (tui-prompt.c). */
	case LZ_FRAME_PROMPT:
		tui_prompt_add(t, p, f);
		break;
	case LZ_FRAME_WITHDRAWN:
		tui_prompt_withdrawn(t, p, f);
		break;
	default:
		break;
	}
	lz_err_release(&err);
}

/* The whole frames read so far; lz_conn_next's last result. */
static int
frames(struct tui *t, struct tui_pane *p, struct lz_err *err)
{
	struct lz_buf payload = LZ_BUF_INIT;
	struct lz_frame f;
	int rc = 0;

	while (!p->ended && (rc = lz_conn_next(&p->cc, &f, &payload,
	    err)) == 1)
		pane_frame(t, p, &f);
	lz_buf_release(&payload);
	return rc;
}

void
tui_pane_buffered(struct tui *t, struct tui_pane *p)
{
	struct lz_err err = LZ_ERR_INIT;

	if (!p->is_pty && frames(t, p, &err) < 0) {
		tui_message(t, "pane %d: %s", tui_pane_number(t, p), err.msg);
		p->ended = 1;
	}
	lz_err_release(&err);
	t->dirty = 1;
}

int
tui_pane_read(struct tui *t, struct tui_pane *p)
{
	struct lz_err err = LZ_ERR_INIT;
	int rc, eof;

	if (p->is_pty)
		return read_pty(p, &t->output);
	rc = lz_conn_fill(&p->cc, &err);
	if (rc < 0 && errno == EAGAIN)
		rc = 1;
	eof = rc == 0;
	if (rc >= 0)
		rc = frames(t, p, &err);
	if (rc < 0 || eof) {
		if (!p->ended)
			tui_message(t, "pane %d: %s", tui_pane_number(t, p), rc < 0 && err.msg ?
			    err.msg : "the coordinator went away (see "
			    "coordinator.log in the Domain's runtime "
			    "directory)");
		p->ended = 1;
	}
	lz_err_release(&err);
	return p->ended ? -1 : 0;
}

/*
 * Sends what the pane's queues hold without blocking: input as far as the
 * session's window allows, then whatever the socket (or the bench pty)
 * takes now; the loop waits for POLLOUT for the rest.
 */
void
tui_pane_flush(struct tui *t, struct tui_pane *p)
{
	size_t k;
	ssize_t n;

	(void)t;
	if (p->inq.len > 0) {
		if (p->is_pty) {
			lz_buf_add(&p->sendq, p->inq.buf, p->inq.len);
			k = p->inq.len;
		} else
			k = lz_client_input(&p->cc, &p->sendq, p->inq.buf,
			    p->inq.len);
		lz_buf_drop(&p->inq, k);
	}
	while (p->sendq.len > 0 && p->fd >= 0) {
		n = write(p->fd, p->sendq.buf, p->sendq.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* EAGAIN: later. Else the pane ends on its read. */
			if (n < 0 && errno != EAGAIN)
				lz_buf_reset(&p->sendq);
			break;
		}
		lz_buf_drop(&p->sendq, (size_t)n);
	}
}

/* A control frame for the pane's session, behind the queued input. */
void
tui_pane_control(struct tui *t, struct tui_pane *p, struct lz_buf *frame)
{
	lz_buf_add(&p->sendq, frame->buf, frame->len);
	lz_buf_release(frame);
	tui_pane_flush(t, p);
}

void
tui_pane_input(struct tui *t, struct tui_pane *p, const void *buf,
    size_t len)
{
	size_t room;

	if (len == 0 || p->ended)
		return;
	/*
	 * Bounded: a program that does not read its input gets at most
	 * TUI_PANE_INPUT_MAX queued here (beyond its window); more is
	 * dropped with a message, and the other panes never wait for it.
	 */
	room = p->inq.len < TUI_PANE_INPUT_MAX ? TUI_PANE_INPUT_MAX -
	    p->inq.len : 0;
	if (len > room) {
		p->dropped += len - room;
		tui_message(t, "pane %d does not read its input: %zu bytes "
		    "dropped (C-] x closes it)", tui_pane_number(t, p),
		    p->dropped);
		len = room;
	}
	lz_buf_add(&p->inq, buf, len);
	tui_pane_flush(t, p);
}

void
tui_pane_resized(struct tui_pane *p, unsigned rows, unsigned cols)
{
	lz_pane_resize(p->pane, rows, cols);
}

void
tui_pane_resize(struct tui *t, struct tui_pane *p, struct lz_rect r)
{
	struct winsize ws = { (unsigned short)r.rows, (unsigned short)r.cols,
	    0, 0 };
	struct lz_frame_size sz = { (unsigned)r.rows, (unsigned)r.cols,
	    t->host.cell_w, t->host.cell_h };
	struct lz_buf b = LZ_BUF_INIT;

	if (r.rows < 1 || r.cols < 1)
		return;
	if (p->rect.rows != r.rows || p->rect.cols != r.cols) {
		if (p->is_pty) {
			/* A bench pane: its own pty, resized here. */
			lz_pane_resize(p->pane, (unsigned)r.rows,
			    (unsigned)r.cols);
			ioctl(p->fd, TIOCSWINSZ, &ws);
		} else if (!p->ended) {
			/* The mirror waits for RESIZED, where the
			 * coordinator's pane took the size. */
			lz_frame_add_size(&b, LZ_FRAME_RESIZE, &sz);
			tui_pane_control(t, p, &b);
		}
	}
	p->rect = r;
	lz_buf_release(&b);
}

void
tui_pane_detach(struct tui *t, struct tui_pane *p)
{
	struct lz_buf b = LZ_BUF_INIT;

	if (p->is_pty || p->ended)
		return;
	/* The TUI is leaving: what is queued goes out first, blocking. */
	lz_frame_add(&b, LZ_FRAME_DETACH, NULL, 0);
	lz_buf_add(&p->sendq, b.buf, b.len);
	lz_buf_release(&b);
	(void)t;
	lz_write_all(p->fd, p->sendq.buf, p->sendq.len);
	lz_buf_reset(&p->sendq);
}

void
tui_pane_hangup(struct tui *t, struct tui_pane *p)
{
	struct lz_buf b = LZ_BUF_INIT;

	if (p->is_pty) {
		if (p->pid > 0)
			kill(p->pid, SIGHUP);
		return;
	}
	/* Input it never read is dropped: the session is ending. */
	lz_buf_reset(&p->inq);
	lz_frame_add(&b, LZ_FRAME_HANGUP, NULL, 0);
	tui_pane_control(t, p, &b);
}

void
tui_pane_free(struct tui_pane *p)
{
	if (p == NULL)
		return;
	if (p->is_pty) {
		if (p->pid > 0) {
			kill(p->pid, SIGHUP);
			waitpid(p->pid, NULL, 0);
		}
		if (p->fd >= 0)
			close(p->fd);
	} else if (p->cc.fd >= 0)
		lz_conn_close(&p->cc);
	tui_prompt_free(p);
	lz_pane_free(p->pane);
	lz_buf_release(&p->inq);
	lz_buf_release(&p->sendq);
	tui_sync_release(p);
	free(p->command);
	free(p);
}

int
tui_pane_number(const struct tui *t, const struct tui_pane *p)
{
	int i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i] == p)
			return i + 1;
	return 0;
}

struct tui_pane *
tui_active(struct tui *t)
{
	return t->active >= 0 && t->active < t->npanes ?
	    t->panes[t->active] : NULL;
}
