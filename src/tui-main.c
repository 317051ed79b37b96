/*
 * tui-main.c: the TUI's start, loop and exit (see tui.h). The host
 * terminal is put back on every path: a normal quit, a detach, an error,
 * SIGTERM or SIGHUP (client-tty.c writes the way out of the TUI's screen
 * from the signal handler too) and the coordinator going away (every pane
 * ends, the loop returns).
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sandbox-argv.h"
#include "src/client-tty.h"
#include "src/cmd.h"
#include "src/tui.h"

/* A frame to the host terminal (blocking: it is the one screen). */
static void
write_out(struct tui *t)
{
	(void)lz_write_all(1, t->out.buf, t->out.len);
	lz_buf_reset(&t->out);
}

void
tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_until = time(NULL) + 4;
	t->dirty = 1;
}

/* Lays the panes out in the terminal minus the status line. */
void
tui_layout(struct tui *t)
{
	struct lz_rect area = { 0, 0, t->rows > 1 ? t->rows - 1 : 1, t->cols };
	struct lz_rect r;
	int i;

	lz_layout_arrange(&t->layout, area);
	for (i = 0; i < t->npanes; i++) {
		if (lz_layout_rect(&t->layout, t->panes[i]->id, &r) == 1)
			tui_pane_resize(t, t->panes[i], r);
		else
			t->panes[i]->rect = (struct lz_rect){ 0, 0, 0, 0 };
	}
	t->dirty = 1;
}

static void
tui_init(struct tui *t, struct lz_client *c, const char *self,
    const struct lz_tui_conf *conf)
{
	/* Character widths and the UTF-8 test follow the user's locale. */
	setlocale(LC_CTYPE, "");
	memset(t, 0, sizeof *t);
	t->c = c;
	t->self = self;
	t->conf = conf;
	t->active = -1;
	t->last_id = -1;
	t->sigfd = -1;
	t->ctl.fd = -1;
	t->prompt_zoom = -1;
	lz_pane_host_default(&t->host);
	lz_layout_init(&t->layout);
}

long
tui_ms_since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - a->tv_sec) * 1000L +
	    (now.tv_nsec - a->tv_nsec) / 1000000L;
}

/* Keys typed in normal mode: to the active pane, up to an action. */
static size_t
input_normal(struct tui *t, const unsigned char *buf, size_t n)
{
	struct lz_buf keys = LZ_BUF_INIT, tr = LZ_BUF_INIT;
	struct tui_pane *p;
	enum lz_action a;
	size_t used;

	used = lz_keyin_feed(&t->keyin, t->conf, buf, n, &keys, &a);
	/* A pane showing an escalation prompt: its keys go to the prompt. */
	if (keys.len > 0 && (p = tui_active(t)) != NULL && tui_prompt_up(p))
		tui_prompt_keys(t, p, (const unsigned char *)keys.buf,
		    keys.len);
	else if (keys.len > 0 && (p = tui_active(t)) != NULL) {
		lz_keys_translate((unsigned char *)keys.buf, keys.len,
		    lz_pane_props(p->pane)->app_cursor, &tr);
		tui_pane_input(t, p, tr.buf, tr.len);
		if (p->back > 0) {
			p->back = 0;	/* typing shows the live screen */
			t->dirty = 1;
		}
	}
	if (a != LZ_ACT_NONE)
		tui_action(t, a);
	lz_buf_release(&keys);
	lz_buf_release(&tr);
	return used > 0 ? used : n;
}

/* One key in copy mode, a search, an overlay or a question. */
static size_t
input_mode(struct tui *t, const unsigned char *buf, size_t n)
{
	struct lz_key k;
	/* A lone Escape (or a cut sequence) at the end of a read: a key. */
	size_t used = lz_key_take(buf, n, &k);

	if (t->mode == TUI_COPY)
		tui_copy_key(t, &k);
	else if (t->mode == TUI_SEARCH)
		tui_search_key(t, &k);
	else
		tui_overlay_key(t, &k);
	t->dirty = 1;
	return used;
}

/* Whether s[0..n) may start a mouse report (ESC [ < or ESC [ M). */
static int
report_start(const unsigned char *s, size_t n)
{
	return s[0] == 0x1b && n >= 2 && s[1] == '[' && (n == 2 ||
	    s[2] == '<' || s[2] == 'M');
}

/* Keep bytes cut at the end of a read for the next one. */
static size_t
hold_back(struct tui *t, const unsigned char *buf, size_t n)
{
	memcpy(t->host_pend, buf, n);
	t->host_npend = n;
	return n;
}

/*
 * Keys and mouse reports at buf[0..n): a report, or the keys up to the
 * next report. Returns the bytes used.
 */
static size_t
input_some(struct tui *t, const unsigned char *buf, size_t n)
{
	size_t k, end;

	k = tui_mouse_input(t, buf, n);
	if (k > n)
		return hold_back(t, buf, n);
	if (k > 0)
		return k;
	if (t->mouse_on && n == 2 && buf[0] == 0x1b && buf[1] == '[')
		return hold_back(t, buf, n);	/* a report's start, maybe */
	for (end = 1; end < n && !(t->mouse_on && report_start(buf + end,
	    n - end)); end++)
		;
	if (t->mode == TUI_NORMAL)
		return input_normal(t, buf, end);
	return input_mode(t, buf, end);
}

static void
input(struct tui *t)
{
	unsigned char buf[4096 + TUI_HOST_ANSWER_MAX];
	size_t off = 0, held = t->host_npend;
	ssize_t n;

	/* An answer of the host's cut by the last read comes first. */
	memcpy(buf, t->host_pend, held);
	t->host_npend = 0;
	n = read(0, buf + held, sizeof buf - held);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		/* The terminal is gone: like a detach. */
		t->quit = 1;
		t->detached = 1;
		return;
	}
	if (n < 0)
		n = 0;
	n += (ssize_t)held;
	off = tui_host_input(t, buf, (size_t)n);
	while (n > 0 && off < (size_t)n && !t->quit)
		off += input_some(t, buf + off, (size_t)n - off);
}

static void
on_signals(struct tui *t)
{
	unsigned char sig;
	unsigned rows, cols;

	while (read(t->sigfd, &sig, 1) == 1) {
		if (sig == SIGWINCH) {
			lz_tty_size(0, &rows, &cols);
			t->rows = (int)rows;
			t->cols = (int)cols;
			lz_render_resize(&t->r, t->rows, t->cols);
			tui_layout(t);
			continue;
		}
		/* SIGTERM, SIGHUP...: leave; the sessions keep running. */
		t->quit = 1;
		t->detached = 1;
		snprintf(t->why, sizeof t->why, "stopped by %s",
		    strsignal(sig));
	}
}

/* Milliseconds poll may sleep. */
static int
timeout(struct tui *t)
{
	long left;
	int wake = tui_prompt_wake(t);

	if (lz_keyin_pending(&t->keyin))
		return 50;
	/* A prompt's guard ends, or its notify command's time is up. */
	if (wake >= 0 && wake < 1000 && !t->dirty)
		return wake;
	if (t->bench_quiet)
		return -1;	/* nothing is drawn: wait for bytes */
	if (t->dirty && !t->flooding)
		return 0;
	if (t->dirty) {
		left = TUI_FRAME_MS - tui_ms_since(&t->last_frame);
		return left > 0 ? (int)left : 0;
	}
	if ((left = tui_sync_wait(t)) >= 0)
		return (int)left;	/* a held update times out */
	return t->bench ? -1 : 1000;
}

/*
 * Whether a frame may be drawn now. A flood is coalesced: after a frame
 * that carried at least TUI_FLOOD_BYTES of pane output, the next one
 * waits TUI_FRAME_MS, so a flood costs at most one frame per period
 * whatever its size. Less output than that (an echo, a prompt, a status
 * line, a key) is drawn at once, as tmux does.
 */
static int
frame_due(struct tui *t)
{
	if (!t->dirty || t->bench_quiet)
		return 0;
	return !t->flooding || tui_ms_since(&t->last_frame) >= TUI_FRAME_MS;
}

static void
loop(struct tui *t)
{
	struct pollfd pfd[3 + TUI_MAX_PANES];
	time_t last_tick = 0, now;
	int i, n, base;

	while (!t->quit) {
		pfd[0] = (struct pollfd){ t->bench_quiet ? -1 : 0, POLLIN, 0 };
		pfd[1] = (struct pollfd){ t->sigfd, POLLIN, 0 };
		pfd[2] = (struct pollfd){ t->have_ctl ? t->ctl.fd : -1, POLLIN,
		    0 };
		base = 3;
		for (i = 0; i < t->npanes; i++)
			pfd[base + i] = (struct pollfd){ t->panes[i]->fd,
			    POLLIN | (t->panes[i]->sendq.len > 0 ? POLLOUT :
			    0), 0 };
		n = poll(pfd, (nfds_t)(base + t->npanes), timeout(t));
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pfd[1].revents & POLLIN))
			on_signals(t);
		if (n > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			input(t);
		if (n > 0 && (pfd[2].revents & (POLLIN | POLLHUP | POLLERR)))
			tui_ctl_read(t);
		for (i = 0; n > 0 && i < t->npanes; i++) {
			if (pfd[base + i].revents & POLLOUT)
				tui_pane_flush(t, t->panes[i]);
			if (pfd[base + i].revents & (POLLIN | POLLHUP |
			    POLLERR)) {
				tui_pane_read(t, t->panes[i]);
				t->dirty = 1;
			}
		}
		if (lz_keyin_pending(&t->keyin) && n == 0)
			tui_action(t, lz_keyin_timeout(&t->keyin, t->conf));
		if (n == 0 && tui_sync_wait(t) == 0)
			t->dirty = 1;
		tui_remove_ended(t);
		if (t->npanes == 0)
			t->quit = 1;
		tui_prompt_fit(t);
		now = time(NULL);
		if (now != last_tick && !t->bench) {
			last_tick = now;
			t->dirty = 1;		/* the clock */
			if (now % 2 == 0)
				tui_list_refresh(t);
		}
		if (frame_due(t)) {
			tui_mouse_mode(t, &t->out);
			tui_draw(t);
			lz_render_flush(&t->r, &t->out);
			write_out(t);
			t->flooding = t->output >= TUI_FLOOD_BYTES;
			if (t->flooding)
				clock_gettime(CLOCK_MONOTONIC, &t->last_frame);
			t->output = 0;
			t->dirty = 0;
		} else if (!t->dirty &&
		    tui_ms_since(&t->last_frame) >= TUI_FRAME_MS)
			t->flooding = 0;
	}
}

/* What a pane's hyperlink shows on the host (ui/hyperlink.h). */
static int
link_policy(const char *uri, struct lz_buf *out, void *user)
{
	struct tui *t = user;

	return lz_hyperlink_host(uri, &t->links, out);
}

/*
 * File links: a session's program sees the workspace at
 * LZ_SANDBOX_WORKDIR, the host at the Domain's workspace; a bench pane's
 * is a host program in the current directory.
 */
static void
links_init(struct tui *t)
{
	if (gethostname(t->hostname, sizeof t->hostname) != 0)
		t->hostname[0] = '\0';
	t->hostname[sizeof t->hostname - 1] = '\0';
	t->links.hostname = t->hostname;
	if (t->c != NULL) {
		t->links.sandbox = LZ_SANDBOX_WORKDIR;
		t->links.host = t->c->domain.workspace;
	} else {
		t->cwd = getcwd(NULL, 0);
		t->links.sandbox = t->links.host =
		    t->cwd ? t->cwd : "/nonexistent";
	}
	lz_render_links(&t->r, link_policy, t);
}

/* Full screen on, with the way out registered for every exit path. */
static int
screen_enter(struct tui *t, struct lz_err *err)
{
	struct lz_buf leave = LZ_BUF_INIT;
	unsigned rows, cols;

	lz_tty_size(0, &rows, &cols);
	t->rows = (int)rows;
	t->cols = (int)cols;
	if (lz_tty_raw(0) != 0)
		return lz_err_set(err, LZ_ESYS, "cannot put the terminal in "
		    "raw mode: %s", strerror(errno));
	t->sigfd = lz_tty_signal_pipe();
	if (t->conf->mouse)
		tui_mouse_off(&leave);
	lz_render_leave(&t->term, &leave);
	lz_tty_on_restore(leave.buf, leave.len);
	lz_buf_release(&leave);
	lz_render_init(&t->r, &t->term, t->rows, t->cols);
	links_init(t);
	lz_render_enter(&t->term, &t->out);
	tui_host_ask(t);
	write_out(t);
	return 0;
}

static void
tui_free(struct tui *t)
{
	int i;

	for (i = 0; i < t->npanes; i++)
		tui_pane_free(t->panes[i]);
	t->npanes = 0;
	lz_attention_release(&t->attention);
	for (i = 0; i < (int)t->nlist; i++)
		free(t->list[i].command);
	free(t->list);
	if (t->have_ctl)
		lz_conn_close(&t->ctl);
	lz_layout_free(&t->layout);
	lz_render_free(&t->r);
	lz_term_release(&t->term);
	lz_buf_release(&t->out);
	lz_buf_release(&t->paste);
	free(t->cwd);
}

/* Leaves the full screen and says what happened. */
static int
finish(struct tui *t)
{
	int i, status, left = t->npanes;

	lz_tty_restore();
	if (t->detached) {
		for (i = 0; i < t->npanes; i++)
			tui_pane_detach(t, t->panes[i]);
		fprintf(stderr, "[detached%s%s: %d session%s keep%s running; "
		    "'lazaret attach' returns to %s]\n", t->why[0] ?
		    ", " : "", t->why, left, left == 1 ? "" : "s",
		    left == 1 ? "s" : "", left == 1 ? "it" : "them");
	} else if (t->message[0] != '\0' && (t->failed ||
	    t->message_until >= time(NULL)))
		fprintf(stderr, "lazaret: %s\n", t->message);
	status = t->failed ? LZ_EXIT_DOMAIN : t->detached ? LZ_EXIT_OK :
	    t->last_status;
	tui_free(t);
	return status;
}

int
lz_tui_run(struct lz_client *c, const char *self, char **argv, int argc,
    char **attach, int take)
{
	struct lz_err err = LZ_ERR_INIT;
	struct tui t;
	unsigned rows, cols;
	int i;

	tui_init(&t, c, self, &c->cfg.tui);
	if (lz_term_load(&t.term, NULL, 1, &err) != 0)
		goto fail;
	/* Panes are opened before the full screen, so errors print plainly. */
	lz_tty_size(0, &rows, &cols);
	t.rows = (int)rows;
	t.cols = (int)cols;
	tui_layout(&t);
	if (attach != NULL) {
		for (i = 0; attach[i] != NULL; i++)
			tui_new_pane(&t, LZ_DIR_RIGHT, attach[i], take);
	} else
		tui_new_pane_argv(&t, argv, argc, &err);
	if (t.npanes == 0) {
		if (err.msg == NULL)
			lz_err_set(&err, LZ_EINVAL, "%s", t.message[0] ?
			    t.message : "no pane could be opened");
		goto fail;
	}
	t.have_ctl = lz_conn_open(&t.ctl, c, self, 0, NULL) == 0;
	if (screen_enter(&t, &err) != 0)
		goto fail;
	tui_layout(&t);
	tui_list_refresh(&t);
	t.message[0] = '\0';
	loop(&t);
	lz_err_release(&err);
	return finish(&t);
fail:
	lz_tty_restore();
	lz_cmd_error("%s", err.msg ? err.msg : "the TUI cannot start");
	lz_err_release(&err);
	tui_free(&t);
	return LZ_EXIT_FAILURE;
}

int
lz_tui_bench(char **argv, int argc, int quiet, unsigned rows, unsigned cols)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_tui_conf conf;
	struct tui_pane *p;
	struct tui t;
	int rc;

	lz_tui_conf_default(&conf);
	tui_init(&t, NULL, NULL, &conf);
	t.bench = 1;
	t.bench_argv = argv;
	t.bench_quiet = quiet;
	(void)argc;
	if (!quiet && (lz_term_load(&t.term, NULL, 1, &err) != 0 ||
	    screen_enter(&t, &err) != 0))
		goto fail;
	if (quiet) {
		t.rows = (int)rows + 1;
		t.cols = (int)cols;
		t.sigfd = lz_tty_signal_pipe();
	}
	tui_layout(&t);
	p = tui_pane_spawn(&t, argv, (unsigned)(t.rows - 1),
	    (unsigned)t.cols, &err);
	if (p == NULL)
		goto fail;
	lz_layout_split(&t.layout, -1, p->id, LZ_DIR_RIGHT);
	t.panes[t.npanes++] = p;
	t.active = 0;
	tui_layout(&t);
	loop(&t);
	lz_tty_restore();
	rc = t.last_status;
	tui_free(&t);
	lz_tui_conf_release(&conf);
	return rc;
fail:
	lz_tty_restore();
	lz_cmd_error("%s", err.msg ? err.msg : "bench mode cannot start");
	lz_err_release(&err);
	tui_free(&t);
	lz_tui_conf_release(&conf);
	return LZ_EXIT_FAILURE;
}
