/*
 * coordinator-session.c: Client Session processes. Each session is one
 * process in the Domain's sandbox ("runsc exec" under the relay of
 * coordinator-relay.c, or "podman exec" as the fallback), started by
 * core/spawn.c on a pty the coordinator owns (interactive) or on three
 * pipes (a command: stdout and stderr stay apart). Who is bound to whom is
 * the registry's (core/registry.h); this file moves the bytes, and never
 * blocks the loop:
 *
 * - input (INPUT frames, the pane's answers to queries) is a libuv write:
 *   try first, queue the rest; the client's window bounds the queue, and
 *   answers past LZ_SESSION_REPLY_MAX are dropped and counted;
 * - output goes to the pane (pty) and to the bound client; above the
 *   client's high-water mark a pipe session is no longer read (its command
 *   blocks) and a pty session's OUTPUT stops while its pane keeps
 *   emulating; under the low mark the pipe is read again, and a pty client
 *   gets one SNAPSHOT of the screen before OUTPUT resumes.
 */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "core/sandbox-argv.h"
#include "core/spawn.h"
#include "protocol/msg.h"
#include "src/coordinator.h"
#include "src/coordinator-relay.h"
#include "termdb/termdb.h"
#include "ui/pane-history.h"

struct in_req {
	uv_write_t req;
	struct lz_session *s;
	char *data;
	size_t len, client;		/* bytes, of which the client's */
};

static int build_argv(const struct lz_msg_open *m,
    const struct lz_reg_session *rs, struct lz_tokens *cmd, char **cwd,
    struct lz_tokens *av, struct lz_err *err);
static int spawn_session(struct lz_session *s, char *const *argv,
    const struct winsize *ws, int fds[3], struct lz_err *err);
static void start_reading(struct lz_session *s, uv_pipe_t *h, int fd);
static void on_out(uv_stream_t *st, ssize_t n, const uv_buf_t *buf);
static void on_in_written(uv_write_t *req, int status);
static void on_stream_closed(uv_handle_t *h);
static void on_in_closed(uv_handle_t *h);
static void maybe_finish(struct lz_session *s);
static void pane_reply(const char *buf, size_t len, void *user);
static void set_reading(struct lz_session *s, int on);
static void on_hold(uv_timer_t *t);
static void on_kill(uv_timer_t *t);

/* How long a session that ended with status 128 waits for the sandbox's
 * pidfd to tell whether the sandbox died under it. */
#define SESSION_HOLD_MS 200
/* How long a hung-up session has to end before it is killed. */
#define SESSION_KILL_MS 500

static const struct lz_pane_cb pane_cb = { pane_reply, NULL };

/* A query the program sent (DA, DSR) is answered by its pane. */
static void
pane_reply(const char *buf, size_t len, void *user)
{
	struct lz_session *s = user;

	if (s->in_queued + len > LZ_REG_INPUT_WINDOW * 2 +
	    LZ_SESSION_REPLY_MAX) {
		/* A program that asks and never reads: it costs only itself. */
		s->replies_dropped++;
		return;
	}
	lz_session_input(s, (const unsigned char *)buf, len, 0);
}

/* What the relay in a session's child runs (core/spawn.h "run"). */
struct relay_args {
	char *const *argv;
	int tty;
};

static void
relay_main(void *arg, int report)
{
	struct relay_args *r = arg;

	lz_relay_run(r->argv, r->tty, report);
}

static int
spawn_session(struct lz_session *s, char *const *argv,
    const struct winsize *ws, int fds[3], struct lz_err *err)
{
	struct relay_args r = { argv, s->tty };
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	int rc;

	memset(&sp, 0, sizeof sp);
	sp.argv = (const char *const *)argv;
	sp.stdio = s->tty ? LZ_SPAWN_PTY : LZ_SPAWN_PIPES;
	sp.ws = ws;
	sp.new_session = 1;
	/* Not podman: a direct runsc exec, under the relay. */
	if (strcmp(argv[0], lz_coord.podman) != 0) {
		sp.run = relay_main;
		sp.run_arg = &r;
	}
	if ((rc = lz_spawn_child(&sp, &c, err)) != 0)
		return rc;
	s->pid = c.pid;
	fds[0] = c.in;
	fds[1] = c.out;
	fds[2] = c.err;
	return 0;
}

/*
 * The sandbox command of an OPEN: argv (or the profile's command), the
 * sandbox directory, the session's ID and Session Anchor, TERM and its
 * entry, the profile's passed variables.
 */
static int
build_argv(const struct lz_msg_open *m, const struct lz_reg_session *rs,
    struct lz_tokens *cmd, char **cwd, struct lz_tokens *av,
    struct lz_err *err)
{
	char anchor[2 * LZ_TRUST_ANCHOR_BYTES + 1];
	const struct lz_profile *p = lz_coord.cfg.profile;
	struct lz_tokens env = LZ_TOKENS_INIT;
	struct lz_sandbox_exec x;
	const char *rel = m->cwd, *eq;
	size_t i;
	int rc = 0;

	lz_tokens_copy(cmd, m->argv.n > 0 ? &m->argv : &p->command);
	/* Absolute paths and ".." are replaced by the top level. */
	if (strstr(rel, "..") != NULL || rel[0] == '/')
		rel = "";
	*cwd = lz_xasprintf("/workspace%s%s", *rel ? "/" : "", rel);
	/*
	 * What lazaret-escalate binds its requests with (FR-10). The
	 * environment, not a descriptor: agents' runtimes (Node's
	 * child_process) close descriptors. Every process of the sandbox can
	 * read every other's environment: the anchor protects against other
	 * Domains, stale material and misrouting, not a hostile neighbour
	 * session (docs/threat-model.md).
	 */
	lz_reg_anchor_hex(rs, anchor);
	lz_tokens_pushf(&env, "LAZARET_SESSION=%s", rs->id);
	lz_tokens_pushf(&env, "LAZARET_SESSION_ANCHOR=%s", anchor);
	OPENSSL_cleanse(anchor, sizeof anchor);
	if (m->term[0] != '\0') {
		lz_tokens_pushf(&env, "TERM=%s", m->term);
		if (m->terminfo != NULL && lz_coord.terminfo != NULL &&
		    lz_termdb_install(m->terminfo, lz_coord.terminfo, m->term,
		    NULL) == 0)
			lz_tokens_push(&env, "TERMINFO=/run/lazaret/terminfo");
		/*
		 * A multiplexer pane draws 24-bit colour and UTF-8 whatever the
		 * host terminal is; programs that read COLORTERM or the locale
		 * rather than terminfo learn it here, unless the profile passes
		 * the host's LANG.
		 */
		if (strcmp(m->term, LZ_TERMDB_LAZARET) == 0) {
			lz_tokens_push(&env, "COLORTERM=truecolor");
			if (!lz_tokens_has(&p->env, "LANG"))
				lz_tokens_push(&env, "LANG=C.UTF-8");
		}
	}
	/* Only the names the trusted profile lists pass through. */
	for (i = 0; i < m->env.n; i++) {
		eq = strchr(m->env.v[i], '=');
		for (size_t k = 0; eq != NULL && k < p->env.n; k++)
			if (strlen(p->env.v[k]) == (size_t)(eq - m->env.v[i]) &&
			    strncmp(p->env.v[k], m->env.v[i],
			    (size_t)(eq - m->env.v[i])) == 0)
				lz_tokens_push(&env, m->env.v[i]);
	}
	memset(&x, 0, sizeof x);
	x.domain_id = lz_coord.cfg.domain.id;
	x.tty = m->tty;
	x.cwd = *cwd;
	x.env = &env;
	x.argv = cmd->v;
	/* runsc exec directly when it can, else podman exec. */
	if (lz_relay_argv(&x, av) != 0)
		rc = lz_sandbox_argv_exec(lz_coord.podman, &x, av, err);
	lz_tokens_release(&env);
	return rc;
}

void
lz_session_open(struct lz_conn *c, const struct lz_frame *f)
{
	struct lz_tokens av = LZ_TOKENS_INIT, cmd = LZ_TOKENS_INIT;
	struct lz_acts a = LZ_ACTS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf line = LZ_BUF_INIT, b = LZ_BUF_INIT;
	struct lz_msg_open m;
	struct lz_session *s = NULL;
	struct winsize ws;
	char *cwd = NULL;
	int fds[3] = { -1, -1, -1 };

	if (lz_msg_open_decode(f, &m, &err) != 0) {
		lz_msg_error_add(&b, "frame", err.msg);
		lz_coord_send(c, &b);
		lz_coord_conn_close(c);
		goto out;
	}
	if (lz_reg_may_open(&lz_coord.reg, c->reg, &a) != 0)
		goto out;
	s = lz_xcalloc(1, sizeof *s);
	s->tty = m.tty;
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)(m.rows ? m.rows : 24);
	ws.ws_col = (unsigned short)(m.cols ? m.cols : 80);
	lz_tokens_copy(&cmd, m.argv.n > 0 ? &m.argv :
	    &lz_coord.cfg.profile->command);
	lz_tokens_join(&line, &cmd);
	lz_tokens_release(&cmd);
	s->reg = lz_reg_session_new(c->reg, s->tty, line.buf, "",
	    (long long)time(NULL), s);
	if (build_argv(&m, s->reg, &cmd, &cwd, &av, &err) != 0 ||
	    spawn_session(s, av.v, &ws, fds, &err) != 0) {
		lz_msg_error_add(&b, "open", err.msg);
		lz_coord_send(c, &b);
		lz_reg_session_free(s->reg);
		free(s);
		s = NULL;
		goto out;
	}
	free(s->reg->cwd);
	s->reg->cwd = lz_xstrdup(cwd);
	lz_tokens_copy(&s->argv, &cmd);
	/* The pane keeps the screen for reattaching and answers queries. */
	if (s->tty) {
		s->pane = lz_pane_new(ws.ws_row, ws.ws_col,
		    lz_coord.cfg.cfg.tui.history, &pane_cb, s);
		lz_session_host(s, &m.host);
	}
	lz_reg_session_start(&lz_coord.reg, s->reg, &a);
	uv_timer_stop(&lz_coord.idle);
	uv_pipe_init(lz_coord.loop, &s->in, 0);
	s->in.data = s;
	s->in_open = 1;
	s->open_streams++;
	if (uv_pipe_open(&s->in, fds[0]) != 0) {
		close(fds[0]);
		s->in_open = 0;
		uv_close((uv_handle_t *)&s->in, on_in_closed);
	}
	start_reading(s, &s->out, fds[1]);
	if (fds[2] >= 0)
		start_reading(s, &s->err, fds[2]);
out:
	lz_coord_act(&a);
	lz_tokens_release(&cmd);
	lz_tokens_release(&av);
	lz_buf_release(&line);
	lz_msg_open_release(&m);
	lz_err_release(&err);
	free(cwd);
}

/*
 * A pty session's reads are LZ_PTY_READ long, what a pty gives at most:
 * libuv reads again while a read fills its buffer (32 times at most, as
 * for a pipe's 64 KiB), so a flood costs a poll per 32 reads, not one a
 * read.
 */
static void
session_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	const struct lz_session *s = h->data;

	lz_coord_alloc(h, hint, buf);
	if (s->tty && buf->len > LZ_PTY_READ)
		buf->len = LZ_PTY_READ;
}

static void
start_reading(struct lz_session *s, uv_pipe_t *h, int fd)
{
	uv_pipe_init(lz_coord.loop, h, 0);
	h->data = s;
	if (uv_pipe_open(h, fd) != 0) {
		close(fd);
		uv_close((uv_handle_t *)h, NULL);
		return;
	}
	s->open_streams++;
	uv_read_start((uv_stream_t *)h, session_alloc, on_out);
}

/* Pipe sessions: reading stops while the client is behind. */
static void
set_reading(struct lz_session *s, int on)
{
	uv_stream_t *hs[2] = { (uv_stream_t *)&s->out, (uv_stream_t *)&s->err };
	int i;

	if (s->paused == !on)
		return;
	s->paused = !on;
	for (i = 0; i < 2; i++) {
		if (uv_is_closing((uv_handle_t *)hs[i]) ||
		    hs[i]->type != UV_NAMED_PIPE || !uv_is_readable(hs[i]))
			continue;
		if (on)
			uv_read_start(hs[i], session_alloc, on_out);
		else
			uv_read_stop(hs[i]);
	}
}

static void
on_out(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
	struct lz_session *s = st->data;
	struct lz_conn *c = s->reg && s->reg->conn ? s->reg->conn->glue :
	    NULL;
	struct lz_buf b = LZ_BUF_INIT;

	if (n < 0) {	/* EOF, or EIO from a pty whose slave is gone */
		uv_close((uv_handle_t *)st, on_stream_closed);
		return;
	}
	if (n == 0)
		return;
	if (s->pane != NULL)
		lz_pane_feed(s->pane, buf->base, (size_t)n);
	lz_coord.trim_wanted = 1;
	lz_coord.last_output = uv_now(lz_coord.loop);
	if (c == NULL || c->closing || c->lagging)
		return;
	lz_frame_add(&b, (uv_pipe_t *)st == &s->err ? LZ_FRAME_STDERR :
	    LZ_FRAME_OUTPUT, buf->base, (size_t)n);
	lz_coord_send(c, &b);
	if (c->queued <= LZ_CONN_HIGH_WATER)
		return;
	/* The client is behind: hold output back (backpressure). */
	if (s->tty)
		c->lagging = 1;
	else
		set_reading(s, 0);
}

void
lz_session_drained(struct lz_conn *c)
{
	struct lz_session *s;
	struct lz_buf b = LZ_BUF_INIT;

	if (c->reg == NULL || c->reg->session == NULL)
		return;
	s = c->reg->session->glue;
	if (s->paused)
		set_reading(s, 1);
	if (c->lagging) {
		/* The bytes it missed are one screen now. */
		c->lagging = 0;
		lz_session_screen(s, c->history, LZ_FRAME_SNAPSHOT, &b);
		lz_coord_send(c, &b);
	}
}

void
lz_session_screen(struct lz_session *s, unsigned long history,
    enum lz_frame_type type, struct lz_buf *frames)
{
	struct lz_buf screen = LZ_BUF_INIT;

	if (s->pane == NULL)
		return;
	if (history > 0)
		lz_pane_render_history(s->pane, (size_t)history, &screen);
	lz_buf_adds(&screen, "\033[H\033[2J");
	lz_pane_render_ansi(s->pane, &screen);
	/* Over a frame's limit, the next frames are flagged MORE. */
	lz_frame_add_screen(frames, type, screen.buf, screen.len);
	lz_buf_release(&screen);
}

static void
on_stream_closed(uv_handle_t *h)
{
	struct lz_session *s = h->data;

	s->open_streams--;
	maybe_finish(s);
}

void
lz_session_input(struct lz_session *s, const unsigned char *buf, size_t len,
    size_t client)
{
	struct lz_acts a = LZ_ACTS_INIT;
	struct in_req *w;
	uv_buf_t b;
	int n = 0;

	if (s == NULL || !s->in_open)
		return;
	if (len == 0) {
		/* End of input: a pipe is closed; a pty ignores it. */
		if (!s->tty) {
			s->in_open = 0;
			uv_close((uv_handle_t *)&s->in, on_in_closed);
		}
		return;
	}
	b = uv_buf_init((char *)buf, (unsigned int)len);
	/* Straight through when the queue is empty and the pipe takes it. */
	if (s->in_queued == 0 && (n = uv_try_write((uv_stream_t *)&s->in, &b,
	    1)) < 0 && n != UV_EAGAIN) {
		s->in_open = 0;
		uv_close((uv_handle_t *)&s->in, on_in_closed);
		return;
	}
	if (n < 0)
		n = 0;
	if (n > 0 && s->reg != NULL) {
		lz_reg_input_written(&lz_coord.reg, s->reg,
		    (size_t)n < client ? (size_t)n : client,
		    (size_t)n == len, &a);
		lz_coord_act(&a);
	}
	if ((size_t)n == len)
		return;
	w = lz_xcalloc(1, sizeof *w);
	w->s = s;
	w->len = len - (size_t)n;
	w->client = client > (size_t)n ? client - (size_t)n : 0;
	w->data = lz_xmalloc(w->len);
	memcpy(w->data, buf + n, w->len);
	w->req.data = w;
	b = uv_buf_init(w->data, (unsigned int)w->len);
	if (uv_write(&w->req, (uv_stream_t *)&s->in, &b, 1,
	    on_in_written) != 0) {
		free(w->data);
		free(w);
		return;
	}
	s->in_queued += w->len;
}

static void
on_in_written(uv_write_t *req, int status)
{
	struct in_req *w = req->data;
	struct lz_session *s = w->s;
	struct lz_acts a = LZ_ACTS_INIT;

	s->in_queued -= w->len;
	if (status == 0 && s->reg != NULL) {
		lz_reg_input_written(&lz_coord.reg, s->reg, w->client,
		    s->in_queued == 0, &a);
		lz_coord_act(&a);
	}
	free(w->data);
	free(w);
}

/* The input handle (or the hold timer) closed: one stream less. */
static void
on_in_closed(uv_handle_t *h)
{
	struct lz_session *s = h->data;

	s->open_streams--;
	maybe_finish(s);
}

void
lz_session_resize(struct lz_session *s, unsigned rows, unsigned cols,
    int mark)
{
	struct lz_frame_size sz = { rows, cols, 0, 0 };
	struct lz_buf b = LZ_BUF_INIT;
	struct winsize ws;
	uv_os_fd_t fd;

	if (s == NULL || !s->tty || !s->in_open ||
	    uv_fileno((uv_handle_t *)&s->in, &fd) != 0)
		return;
	if (s->pane != NULL) {
		sz.cell_w = lz_pane_host(s->pane)->cell_w;
		sz.cell_h = lz_pane_host(s->pane)->cell_h;
	}
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)rows;
	ws.ws_col = (unsigned short)cols;
	ws.ws_xpixel = (unsigned short)(cols * sz.cell_w);
	ws.ws_ypixel = (unsigned short)(rows * sz.cell_h);
	ioctl(fd, TIOCSWINSZ, &ws);
	if (s->pane == NULL)
		return;
	lz_pane_resize(s->pane, rows, cols);
	/* The mark: the client's mirror resizes where the pane did, so no
	 * byte is emulated at two sizes (wire.md, RESIZED). */
	if (mark && s->reg->conn != NULL && !s->reg->conn->closing) {
		lz_frame_add_size(&b, LZ_FRAME_RESIZED, &sz);
		lz_coord_send(s->reg->conn->glue, &b);
	}
}

void
lz_session_host(struct lz_session *s, const struct lz_msg_host *m)
{
	struct lz_pane_host h;

	if (s == NULL || s->pane == NULL || !m->have)
		return;
	h.fg = m->fg;
	h.bg = m->bg;
	h.cursor = m->cursor;
	memcpy(h.palette, m->palette, sizeof h.palette);
	h.cell_w = m->cell_w;
	h.cell_h = m->cell_h;
	lz_pane_set_host(s->pane, &h);
}

void
lz_session_cell(struct lz_session *s, unsigned w, unsigned h)
{
	struct lz_pane_host host;

	if (s == NULL || s->pane == NULL || w == 0 || h == 0)
		return;
	host = *lz_pane_host(s->pane);
	host.cell_w = w;
	host.cell_h = h;
	lz_pane_set_host(s->pane, &host);
}

/*
 * A hangup: SIGHUP to the session's process group (the relay passes it
 * to runsc exec, which passes it to the terminal's foreground process
 * group in the sandbox). A session still there SESSION_KILL_MS later
 * (its shell kept running under a foreground job that died, or a program
 * that ignores SIGHUP) is killed: the relay goes with SIGKILL, runsc exec
 * with it (PR_SET_PDEATHSIG), and the sandbox process loses its terminal.
 */
void
lz_session_hangup(struct lz_session *s)
{
	if (s == NULL || s->reg == NULL || s->reg->state != LZ_REG_RUNNING)
		return;
	/* Its last output must be read for it to end. */
	set_reading(s, 1);
	if (s->pid > 0)
		kill(-s->pid, SIGHUP);
	if (s->killing)
		return;
	s->killing = 1;
	s->open_streams++;
	uv_timer_init(lz_coord.loop, &s->kill);
	s->kill.data = s;
	uv_timer_start(&s->kill, on_kill, SESSION_KILL_MS, 0);
}

static void
on_kill(uv_timer_t *t)
{
	struct lz_session *s = t->data;

	if (s->reg->state == LZ_REG_RUNNING && s->pid > 0)
		kill(-s->pid, SIGKILL);
	uv_close((uv_handle_t *)t, on_in_closed);
}

/* SIGCHLD: collect the sessions whose process ended. */
void
lz_session_reap(void)
{
	struct lz_reg_session *r, *next;
	struct lz_session *s;
	int st;

	for (r = lz_coord.reg.sessions; r != NULL; r = next) {
		next = r->next;
		s = r->glue;
		if (r->state != LZ_REG_RUNNING ||
		    waitpid(s->pid, &st, WNOHANG) != s->pid)
			continue;
		if (WIFSIGNALED(st))
			lz_reg_exited(&lz_coord.reg, r, 128 + WTERMSIG(st),
			    WTERMSIG(st), NULL);
		else
			lz_reg_exited(&lz_coord.reg, r, WEXITSTATUS(st), 0,
			    NULL);
		/* Its hangup was heard: no kill to come. */
		if (s->killing && uv_is_active((uv_handle_t *)&s->kill)) {
			uv_timer_stop(&s->kill);
			uv_close((uv_handle_t *)&s->kill, on_in_closed);
		}
		/* Nothing more will be written: let the input go. */
		if (s->in_open) {
			s->in_open = 0;
			uv_close((uv_handle_t *)&s->in, on_in_closed);
		}
		/*
		 * 128 is runsc exec's own failure: when the sandbox died, its
		 * pidfd may say so a moment later. The session's end waits
		 * for that look, so its client hears why (a Domain failure),
		 * not runsc's status.
		 */
		if (r->status == 128 && !lz_coord.reg.stopping) {
			s->open_streams++;
			uv_timer_init(lz_coord.loop, &s->hold);
			s->hold.data = s;
			uv_timer_start(&s->hold, on_hold, SESSION_HOLD_MS, 0);
		}
		maybe_finish(s);
	}
}

static void
on_hold(uv_timer_t *t)
{
	lz_coord_watch_check();
	uv_close((uv_handle_t *)t, on_in_closed);
}

static void
maybe_finish(struct lz_session *s)
{
	struct lz_acts a = LZ_ACTS_INIT;

	if (s->reg == NULL || s->reg->state != LZ_REG_EXITED ||
	    s->open_streams > 0)
		return;
	lz_reg_finished(&lz_coord.reg, s->reg, &a);
	lz_coord_act(&a);
}

void
lz_session_free(struct lz_session *s)
{
	if (s->replies_dropped > 0)
		fprintf(stderr, "coordinator %s: session %.12s: %lu answers "
		    "to queries dropped (the program did not read them)\n",
		    lz_coord.id, s->reg->id, s->replies_dropped);
	lz_tokens_release(&s->argv);
	if (s->pane != NULL)
		lz_pane_free(s->pane);
	free(s);
}
