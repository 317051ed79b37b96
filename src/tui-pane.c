/*
 * tui-pane.c: where a pane's bytes come from. Normally a connection to the
 * coordinator bound to one Client Session (OPEN or ATTACH); in bench mode
 * (lazaret __mux-bench) a host pty running a host command, so the
 * multiplexer's own cost can be measured against tmux without a sandbox.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

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
	struct lz_frame f;
	const char *id;
	json_t *j;

	if (lz_conn_open(&p->cc, t->c, t->self, 1, err) != 0)
		goto fail;
	p->fd = p->cc.fd;
	if (attach != NULL) {
		j = json_pack("{s:s,s:i,s:i,s:b,s:i}", "session", attach,
		    "rows", rows, "cols", cols, "takeover", take, "history",
		    (int)t->conf->history);
		lz_frame_add_json(&b, LZ_FRAME_ATTACH, j);
	} else {
		j = lz_client_open_request(t->c, argv, argc, 1, rows, cols,
		    LZ_TERMDB_LAZARET);
		lz_frame_add_json(&b, LZ_FRAME_OPEN, j);
	}
	json_decref(j);
	if (lz_conn_send(&p->cc, &b, err) != 0 ||
	    lz_conn_wait(&p->cc, &f, &payload, err) != 0)
		goto fail;
	if (attach != NULL && f.type == LZ_FRAME_ATTACHED) {
		snprintf(p->session, sizeof p->session, "%s", attach);
		tui_pane_snapshot(p, f.payload, f.len);
	} else if (attach == NULL && f.type == LZ_FRAME_OPENED) {
		j = lz_frame_json(&f, NULL);
		id = json_string_value(json_object_get(j, "session"));
		snprintf(p->session, sizeof p->session, "%s", id ? id : "?");
		json_decref(j);
		p->command = command_of(t, argv, argc);
	} else {
		lz_err_set(err, LZ_EINVAL, "unexpected %s frame",
		    lz_frame_type_name(f.type));
		goto fail;
	}
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

/* A host pane's program sees Lazaret's entry too, when it is installed. */
static void
pane_env(void)
{
	char *path = NULL, *slash;
	int i;

	if (lz_termdb_lazaret_entry(NULL, lz_termdb_getenv, &path, NULL) != 0)
		return;
	/* .../terminfo/l/lazaret: TERMINFO is the directory above l/. */
	for (i = 0; i < 2 && (slash = strrchr(path, '/')) != NULL; i++)
		*slash = '\0';
	setenv("TERMINFO", path, 1);
	setenv("TERM", LZ_TERMDB_LAZARET, 1);
	free(path);
}

struct tui_pane *
tui_pane_spawn(struct tui *t, char **argv, unsigned rows, unsigned cols,
    struct lz_err *err)
{
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols,
	    0, 0 };
	struct tui_pane *p = pane_new(t, rows, cols, 1);
	int master;
	pid_t pid;

	pid = forkpty(&master, NULL, NULL, &ws);
	if (pid < 0) {
		lz_err_set(err, LZ_ESYS, "forkpty: %s", strerror(errno));
		tui_pane_free(p);
		return NULL;
	}
	if (pid == 0) {
		pane_env();
		execvp(argv[0], argv);
		_exit(127);
	}
	fcntl(master, F_SETFD, FD_CLOEXEC);
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	p->is_pty = 1;
	p->fd = master;
	p->pid = pid;
	p->command = command_of(t, argv, 1);
	snprintf(p->session, sizeof p->session, "pty-%ld", (long)pid);
	return p;
}

static int
read_pty(struct tui_pane *p, size_t *bytes)
{
	char buf[65536];
	ssize_t n;
	int st;

	n = read(p->fd, buf, sizeof buf);
	if (n > 0) {
		lz_pane_feed(p->pane, buf, (size_t)n);
		*bytes += (size_t)n;
		return 0;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
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

int
tui_pane_read(struct tui *t, struct tui_pane *p)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf payload = LZ_BUF_INIT;
	struct lz_frame f;
	int rc, eof;
	json_t *j;

	if (p->is_pty)
		return read_pty(p, &t->output);
	rc = lz_conn_fill(&p->cc, &err);
	if (rc < 0 && errno == EAGAIN)
		rc = 1;
	eof = rc == 0;
	while (rc >= 0 && (rc = lz_conn_next(&p->cc, &f, &payload,
	    &err)) == 1) {
		switch (f.type) {
		case LZ_FRAME_OUTPUT:
			tui_pane_output(p, f.payload, f.len);
			t->output += f.len;
			break;
		case LZ_FRAME_ATTACHED:
			tui_pane_snapshot(p, f.payload, f.len);
			t->output += f.len;
			break;
		case LZ_FRAME_EXIT:
			j = lz_frame_json(&f, NULL);
			p->status = (int)json_integer_value(json_object_get(j,
			    "status"));
			json_decref(j);
			p->ended = 1;
			break;
		case LZ_FRAME_ERROR:
			j = lz_frame_json(&f, NULL);
			tui_message(t, "pane %d: %s", p->id, json_string_value(
			    json_object_get(j, "message")) ?: "error");
			if (strcmp(json_string_value(json_object_get(j,
			    "code")) ?: "", "domain") == 0)
				t->failed = 1;
			json_decref(j);
			p->ended = 1;
			break;
		default:
			break;
		}
	}
	if (rc < 0 || eof) {
		if (!p->ended)
			tui_message(t, "pane %d: %s", p->id, rc < 0 && err.msg ?
			    err.msg : "the coordinator went away (see "
			    "coordinator.log in the Domain's runtime "
			    "directory)");
		p->ended = 1;
	}
	lz_buf_release(&payload);
	lz_err_release(&err);
	return p->ended ? -1 : 0;
}

void
tui_pane_input(struct tui *t, struct tui_pane *p, const void *buf,
    size_t len)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *s = buf;
	ssize_t n;

	(void)t;
	if (len == 0 || p->ended)
		return;
	if (p->is_pty) {
		while (len > 0) {
			n = write(p->fd, s, len);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0)
				return;
			s += n;
			len -= (size_t)n;
		}
		return;
	}
	while (len > 0) {
		size_t chunk = len < LZ_FRAME_MAX ? len : LZ_FRAME_MAX;

		lz_frame_add(&b, LZ_FRAME_INPUT, s, chunk);
		s += chunk;
		len -= chunk;
	}
	lz_conn_send(&p->cc, &b, NULL);
	lz_buf_release(&b);
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
	struct lz_buf b = LZ_BUF_INIT;

	(void)t;
	if (r.rows < 1 || r.cols < 1)
		return;
	if ((int)lz_pane_rows(p->pane) != r.rows ||
	    (int)lz_pane_cols(p->pane) != r.cols) {
		lz_pane_resize(p->pane, (unsigned)r.rows, (unsigned)r.cols);
		if (p->is_pty)
			ioctl(p->fd, TIOCSWINSZ, &ws);
		else if (!p->ended) {
			lz_frame_add_resize(&b, (unsigned)r.rows,
			    (unsigned)r.cols);
			lz_conn_send(&p->cc, &b, NULL);
		}
	}
	p->rect = r;
	lz_buf_release(&b);
}

void
tui_pane_detach(struct tui *t, struct tui_pane *p)
{
	struct lz_buf b = LZ_BUF_INIT;

	(void)t;
	if (p->is_pty || p->ended)
		return;
	lz_frame_add(&b, LZ_FRAME_DETACH, NULL, 0);
	lz_conn_send(&p->cc, &b, NULL);
	lz_buf_release(&b);
}

void
tui_pane_hangup(struct tui *t, struct tui_pane *p)
{
	struct lz_buf b = LZ_BUF_INIT;

	(void)t;
	if (p->is_pty) {
		if (p->pid > 0)
			kill(p->pid, SIGHUP);
		return;
	}
	lz_frame_add(&b, LZ_FRAME_HANGUP, NULL, 0);
	lz_conn_send(&p->cc, &b, NULL);
	lz_buf_release(&b);
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
	lz_pane_free(p->pane);
	tui_sync_release(p);
	free(p->command);
	free(p);
}

struct tui_pane *
tui_active(struct tui *t)
{
	return t->active >= 0 && t->active < t->npanes ?
	    t->panes[t->active] : NULL;
}
