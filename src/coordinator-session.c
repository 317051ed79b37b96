/*
 * coordinator-session.c: Client Session processes. Each session is one
 * process in the Domain's sandbox ("runsc exec" under the relay of
 * coordinator-relay.c, or "podman exec" as the fallback), on a pty the
 * coordinator owns (interactive) or on three pipes (a command: stdout and
 * stderr stay apart). Output goes to the attached client as frames; the
 * exit status is sent once the process has ended and its output is
 * drained. A pty session whose client goes away (or detaches) keeps
 * running with its pane; a pipe session is hung up. ATTACH binds another
 * connection to a pty session, after up to "history" lines of scrollback
 * and the screen; a takeover first lets the other client go.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/sandbox-argv.h"
#include "core/spawn.h"
#include "protocol/frame.h"
#include "src/coordinator.h"
#include "src/coordinator-relay.h"
#include "termdb/termdb.h"
#include "ui/pane-history.h"

static int spawn_child(struct lz_session *s, char *const *argv, int tty,
    struct winsize *ws, int fds[3], struct lz_err *err);
static void start_reading(struct lz_session *s, uv_pipe_t *h, int fd,
    int is_err);
static void on_out(uv_stream_t *st, ssize_t n, const uv_buf_t *buf);
static void on_stream_closed(uv_handle_t *h);
static void maybe_finish(struct lz_session *s);
static void pane_reply(const char *buf, size_t len, void *user);


static const struct lz_pane_cb pane_cb = { pane_reply, NULL };

/* A query the program sent (DA, DSR) is answered by its pane. */
static void
pane_reply(const char *buf, size_t len, void *user)
{
	lz_session_input(user, (const unsigned char *)buf, len);
}
static void session_free(struct lz_session *s);
static int build_argv(struct lz_session *s, json_t *req, struct lz_tokens *av,
    struct lz_err *err);
/* Runs argv on a pty or pipes; exec failure comes back through a pipe. */
static int
spawn_child(struct lz_session *s, char *const *argv, int tty,
    struct winsize *ws, int fds[3], struct lz_err *err)
{
	int p_in[2] = { -1, -1 }, p_out[2] = { -1, -1 }, p_err[2] = { -1, -1 };
	int report[2] = { -1, -1 }, master = -1, slave = -1, e = 0, rc = 0;
	sigset_t all;
	ssize_t n;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) != 0)
		return lz_err_set(err, LZ_ESYS, "pipe: %s", strerror(errno));
	if (tty) {
		if (openpty(&master, &slave, NULL, NULL, ws) != 0) {
			rc = lz_err_set(err, LZ_ESYS, "openpty: %s",
			    strerror(errno));
			goto out;
		}
		fcntl(master, F_SETFD, FD_CLOEXEC);
	} else if (pipe2(p_in, O_CLOEXEC) != 0 || pipe2(p_out, O_CLOEXEC) != 0 ||
	    pipe2(p_err, O_CLOEXEC) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = lz_err_set(err, LZ_ESYS, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		signal(SIGPIPE, SIG_DFL);
		setsid();
		if (tty) {
			ioctl(slave, TIOCSCTTY, 0);
			dup2(slave, 0);
			dup2(slave, 1);
			dup2(slave, 2);
		} else {
			dup2(p_in[0], 0);
			dup2(p_out[1], 1);
			dup2(p_err[1], 2);
		}
		/* Every other descriptor is close-on-exec or closed here. */
		for (int fd = 3; fd < 1024; fd++) {
			if (fd != report[1])
				close(fd);
		}
		/* Not podman: a direct runsc exec, under the relay. */
		if (strcmp(argv[0], lz_coord.podman) != 0)
			lz_relay_run(argv, tty, report[1]);
		lz_relay_exec(argv, report[1]);
	}
	close(report[1]);
	report[1] = -1;
	while ((n = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	if (n == sizeof e) {
		waitpid(pid, NULL, 0);
		rc = lz_err_set(err, -e, "cannot run '%s': %s", argv[0],
		    strerror(e));
		goto out;
	}
	s->pid = pid;
	if (tty) {
		fds[0] = dup(master);
		fds[1] = master;
		fds[2] = -1;
		master = -1;
	} else {
		fds[0] = p_in[1];
		fds[1] = p_out[0];
		fds[2] = p_err[0];
		p_in[1] = p_out[0] = p_err[0] = -1;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (report[i] >= 0)
			close(report[i]);
		if (p_in[i] >= 0)
			close(p_in[i]);
		if (p_out[i] >= 0)
			close(p_out[i]);
		if (p_err[i] >= 0)
			close(p_err[i]);
	}
	if (slave >= 0)
		close(slave);
	if (master >= 0)
		close(master);
	return rc;
}

/*
 * OPEN: {"argv": [..] or absent (the profile's command), "cwd": path
 * relative to the workspace, "tty": bool, "rows", "cols", "term",
 * "terminfo": host path of the TERM entry, "env": {NAME: value} for
 * names the profile passes through}.
 */
static int
build_argv(struct lz_session *s, json_t *req, struct lz_tokens *av,
    struct lz_err *err)
{
	const struct lz_profile *p = lz_coord.cfg.profile;
	struct lz_tokens env = LZ_TOKENS_INIT, cmd = LZ_TOKENS_INIT;
	struct lz_sandbox_exec x;
	const char *term, *ti, *k, *cwd;
	json_t *a, *v, *e;
	size_t i;
	int rc = 0;

	a = json_object_get(req, "argv");
	if (json_is_array(a) && json_array_size(a) > 0) {
		json_array_foreach(a, i, v) {
			if (!json_is_string(v)) {
				rc = lz_err_set(err, LZ_EINVAL, "argv must "
				    "be strings");
				goto out;
			}
			lz_tokens_push(&cmd, json_string_value(v));
		}
	} else
		lz_tokens_copy(&cmd, &p->command);
	cwd = json_string_value(json_object_get(req, "cwd"));
	if (cwd == NULL || strstr(cwd, "..") != NULL || cwd[0] == '/')
		cwd = "";
	s->cwd = lz_xasprintf("/workspace%s%s", *cwd ? "/" : "", cwd);
	term = json_string_value(json_object_get(req, "term"));
	ti = json_string_value(json_object_get(req, "terminfo"));
	if (term != NULL && *term != '\0' && strchr(term, '/') == NULL) {
		lz_tokens_pushf(&env, "TERM=%s", term);
		if (ti != NULL && lz_coord.terminfo != NULL &&
		    lz_termdb_install(ti, lz_coord.terminfo, term, NULL) == 0)
			lz_tokens_push(&env, "TERMINFO=/run/lazaret/terminfo");
		/*
		 * A multiplexer pane draws 24-bit colour and UTF-8 whatever the
		 * host terminal is; programs that read COLORTERM or the locale
		 * rather than terminfo learn it here, unless the profile passes
		 * the host's LANG.
		 */
		if (strcmp(term, LZ_TERMDB_LAZARET) == 0) {
			lz_tokens_push(&env, "COLORTERM=truecolor");
			if (!lz_tokens_has(&p->env, "LANG"))
				lz_tokens_push(&env, "LANG=C.UTF-8");
		}
	}
	/* Only the names the trusted profile lists pass through. */
	e = json_object_get(req, "env");
	for (i = 0; i < p->env.n; i++) {
		v = json_object_get(e, p->env.v[i]);
		if (!json_is_string(v))
			continue;
		k = p->env.v[i];
		lz_tokens_pushf(&env, "%s=%s", k, json_string_value(v));
	}
	memset(&x, 0, sizeof x);
	x.domain_id = lz_coord.cfg.domain.id;
	x.tty = s->tty;
	x.cwd = s->cwd;
	x.env = &env;
	x.argv = cmd.v;
	/* runsc exec directly when it can, else podman exec. */
	if (lz_relay_argv(&x, av) != 0)
		rc = lz_sandbox_argv_exec(lz_coord.podman, &x, av, err);
	lz_tokens_copy(&s->argv, &cmd);
out:
	lz_tokens_release(&env);
	lz_tokens_release(&cmd);
	return rc;
}

int
lz_session_open(struct lz_conn *c, json_t *req, struct lz_err *err)
{
	struct lz_tokens av = LZ_TOKENS_INIT;
	struct lz_session *s;
	struct lz_buf b = LZ_BUF_INIT;
	struct winsize ws;
	json_t *j;
	int fds[3] = { -1, -1, -1 }, rc;

	s = lz_xcalloc(1, sizeof *s);
	s->tty = json_is_true(json_object_get(req, "tty"));
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)json_integer_value(json_object_get(req,
	    "rows"));
	ws.ws_col = (unsigned short)json_integer_value(json_object_get(req,
	    "cols"));
	if (ws.ws_row == 0 || ws.ws_col == 0) {
		ws.ws_row = 24;
		ws.ws_col = 80;
	}
	rc = build_argv(s, req, &av, err);
	if (rc == 0)
		rc = spawn_child(s, av.v, s->tty, &ws, fds, err);
	lz_tokens_release(&av);
	if (rc != 0) {
		session_free(s);
		return rc;
	}
	lz_id_random(s->id, LZ_ID_SESSION_BYTES);
	s->started = time(NULL);
	/* The pane keeps the screen for reattaching and answers queries. */
	if (s->tty)
		s->pane = lz_pane_new(ws.ws_row, ws.ws_col,
		    lz_coord.cfg.cfg.tui.history,
		    &pane_cb, s);
	s->in_fd = fds[0];
	s->conn = c;
	c->session = s;
	s->next = lz_coord.sessions;
	lz_coord.sessions = s;
	lz_coord.nsessions++;
	uv_timer_stop(&lz_coord.idle);
	start_reading(s, &s->out, fds[1], 0);
	if (fds[2] >= 0)
		start_reading(s, &s->err, fds[2], 1);
	j = json_pack("{s:s}", "session", s->id);
	lz_frame_add_json(&b, LZ_FRAME_OPENED, j);
	json_decref(j);
	lz_coord_send(c, &b);
	return 0;
}

static void
start_reading(struct lz_session *s, uv_pipe_t *h, int fd, int is_err)
{
	uv_pipe_init(lz_coord.loop, h, 0);
	h->data = s;
	if (uv_pipe_open(h, fd) != 0) {
		close(fd);
		uv_close((uv_handle_t *)h, NULL);
		return;
	}
	s->open_streams++;
	(void)is_err;	/* the handle itself tells stdout from stderr */
	uv_read_start((uv_stream_t *)h, lz_coord_alloc, on_out);
}

static void
on_out(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
	struct lz_session *s = st->data;
	struct lz_buf b = LZ_BUF_INIT;

	if (n > 0 && s->pane != NULL)
		lz_pane_feed(s->pane, buf->base, (size_t)n);
	if (n > 0) {
		lz_coord.trim_wanted = 1;
		lz_coord.last_output = uv_now(lz_coord.loop);
	}
	if (n > 0 && s->conn != NULL) {
		lz_frame_add(&b, (uv_pipe_t *)st == &s->err ? LZ_FRAME_STDERR :
		    LZ_FRAME_OUTPUT, buf->base, (size_t)n);
		lz_coord_send(s->conn, &b);
	}
	if (n < 0)	/* EOF, or EIO from a pty whose slave is gone */
		uv_close((uv_handle_t *)st, on_stream_closed);
}

static void
on_stream_closed(uv_handle_t *h)
{
	struct lz_session *s = h->data;

	s->open_streams--;
	maybe_finish(s);
}

void
lz_session_input(struct lz_session *s, const unsigned char *buf, size_t len)
{
	ssize_t n;

	if (s->in_fd < 0)
		return;
	if (len == 0) {
		/* End of input: a pipe is closed; a pty gets its EOF char. */
		if (!s->tty) {
			close(s->in_fd);
			s->in_fd = -1;
		}
		return;
	}
	/* Blocking writes keep order; a full pty stalls only this client. */
	while (len > 0) {
		n = write(s->in_fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { s->in_fd, POLLOUT, 0 };

			if (poll(&pfd, 1, 1000) > 0)
				continue;
		}
		if (n < 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

void
lz_session_resize(struct lz_session *s, unsigned rows, unsigned cols)
{
	struct winsize ws;

	if (!s->tty || s->in_fd < 0)
		return;
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)rows;
	ws.ws_col = (unsigned short)cols;
	ioctl(s->in_fd, TIOCSWINSZ, &ws);
	if (s->pane != NULL)
		lz_pane_resize(s->pane, rows, cols);
}

void
lz_session_detach(struct lz_session *s)
{
	s->conn = NULL;
	/* A command's streams have no screen to come back to. */
	if (!s->tty)
		lz_session_hangup(s);
}

/*
 * The session's client is told and let go before another one binds it:
 * one Client CLI ID per session (FR-10), so there is never a moment with
 * two. The old connection closes, as after a detach.
 */
static void
take_over(struct lz_session *s)
{
	struct lz_conn *old = s->conn;
	struct lz_buf b = LZ_BUF_INIT;
	json_t *j;

	j = json_pack("{s:s,s:s}", "code", "taken", "message",
	    "another lazaret client took this session over");
	lz_frame_add_json(&b, LZ_FRAME_ERROR, j);
	json_decref(j);
	lz_coord_send(old, &b);
	old->session = NULL;
	s->conn = NULL;
	lz_coord_conn_close(old);
}

/*
 * ATTACH: {"session", "rows", "cols", "takeover"?, "history"?}; the
 * screen goes first, after up to "history" lines of scrollback.
 */
int
lz_session_attach(struct lz_conn *c, json_t *req, struct lz_err *err)
{
	const char *id = json_string_value(json_object_get(req, "session"));
	unsigned rows = (unsigned)json_integer_value(json_object_get(req,
	    "rows"));
	unsigned cols = (unsigned)json_integer_value(json_object_get(req,
	    "cols"));
	struct lz_buf screen = LZ_BUF_INIT, b = LZ_BUF_INIT;
	struct lz_session *s;
	json_int_t history;

	for (s = lz_coord.sessions; s != NULL; s = s->next) {
		if (id != NULL && strcmp(s->id, id) == 0)
			break;
	}
	if (s == NULL || s->state != LZ_SESSION_RUNNING)
		return lz_err_set(err, LZ_ENOTFOUND, "no running session '%s' "
		    "('lazaret ls' lists them)", id ? id : "");
	if (!s->tty || s->pane == NULL)
		return lz_err_set(err, LZ_EINVAL, "session %.12s runs a "
		    "command without a terminal; there is no screen to "
		    "attach to", s->id);
	if (s->conn != NULL && !json_is_true(json_object_get(req,
	    "takeover")))
		return lz_err_set(err, LZ_EBUSY, "session %.12s is attached "
		    "to another client (one client per session, FR-10)",
		    s->id);
	if (s->conn != NULL)
		take_over(s);
	s->conn = c;
	c->session = s;
	if (rows > 0 && cols > 0 && rows < 10000 && cols < 10000)
		lz_session_resize(s, rows, cols);
	history = json_integer_value(json_object_get(req, "history"));
	if (history > 0)
		lz_pane_render_history(s->pane, (size_t)history, &screen);
	lz_buf_adds(&screen, "\033[H\033[2J");
	lz_pane_render_ansi(s->pane, &screen);
	for (size_t off = 0; off < screen.len; off += LZ_FRAME_MAX)
		lz_frame_add(&b, LZ_FRAME_ATTACHED, screen.buf + off,
		    screen.len - off < LZ_FRAME_MAX ? screen.len - off :
		    LZ_FRAME_MAX);
	lz_coord_send(c, &b);
	lz_buf_release(&screen);
	return 0;
}

void
lz_session_hangup(struct lz_session *s)
{
	if (s->state == LZ_SESSION_RUNNING && s->pid > 0)
		kill(-s->pid, SIGHUP);
}

/* SIGCHLD: collect the sessions whose process ended. */
void
lz_session_reap(void)
{
	struct lz_session *s, *next;
	int st;

	for (s = lz_coord.sessions; s != NULL; s = next) {
		next = s->next;
		if (s->state != LZ_SESSION_RUNNING ||
		    waitpid(s->pid, &st, WNOHANG) != s->pid)
			continue;
		s->state = LZ_SESSION_EXITED;
		if (WIFSIGNALED(st)) {
			s->signal = WTERMSIG(st);
			s->status = 128 + s->signal;
		} else
			s->status = WEXITSTATUS(st);
		maybe_finish(s);
	}
}

static void
maybe_finish(struct lz_session *s)
{
	struct lz_session **pp;
	struct lz_buf b = LZ_BUF_INIT;
	json_t *j;

	if (s->state != LZ_SESSION_EXITED || s->open_streams > 0)
		return;
	if (s->conn != NULL) {
		j = json_pack("{s:i,s:i}", "status", s->status, "signal",
		    s->signal);
		lz_frame_add_json(&b, LZ_FRAME_EXIT, j);
		json_decref(j);
		lz_coord_send(s->conn, &b);
		s->conn->session = NULL;
		lz_coord_conn_close(s->conn);
	}
	for (pp = &lz_coord.sessions; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	lz_coord.nsessions--;
	session_free(s);
	lz_coord_session_gone();
}

static void
session_free(struct lz_session *s)
{
	if (s->in_fd >= 0 && s->pid > 0)
		close(s->in_fd);
	lz_tokens_release(&s->argv);
	if (s->pane != NULL)
		lz_pane_free(s->pane);
	free(s->cwd);
	free(s);
}

json_t *
lz_session_list(void)
{
	struct lz_session *s;
	struct lz_buf cmd = LZ_BUF_INIT;
	json_t *a = json_array();

	for (s = lz_coord.sessions; s != NULL; s = s->next) {
		lz_buf_reset(&cmd);
		lz_tokens_join(&cmd, &s->argv);
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:b,s:s,s:I,"
		    "s:s?,s:b}", "session", s->id, "command", cmd.buf, "cwd",
		    s->cwd, "tty", s->tty, "state", s->state ==
		    LZ_SESSION_RUNNING ? "running" : "exited", "started",
		    (json_int_t)s->started, "client", s->conn ?
		    s->conn->client_id : NULL, "attached", s->conn != NULL));
	}
	lz_buf_release(&cmd);
	return a;
}
