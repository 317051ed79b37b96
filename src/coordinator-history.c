/*
 * coordinator-history.c: the Git history guard's glue (core/history.h,
 * issue 20). This file only decides when: the launch pass on a thread of
 * its own while the sandbox starts (joined before the starting client
 * hears that the Domain is ready, so no session runs before it is done),
 * a pass in libuv's thread pool whenever Git Sentry's watch on the
 * shared .git sees a change (coordinator-gitwatch.c pokes it: 20 ms
 * later, so a burst of git's writes is one pass) or its one-second timer
 * runs, one pass at a time and at most 5% of a CPU (lz_history_due), and
 * the teardown pass once the sandbox is gone. The latest detection is
 * what SESSIONS carries to clients (the TUI's status line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/ignored.h"
#include "src/coordinator.h"

static struct lz_history hist;
static int hist_on, launching, running, poked;
static uv_thread_t launch_thread;
static uv_timer_t soon;
static int soon_init;
static uv_work_t pass_req;
static uint64_t pass_at;
static int64_t pass_now;
static int pass_rc;
static struct lz_buf pass_log, launch_log;
static struct lz_err pass_err, launch_err;
static int launch_rc;
static char *note;		/* the loop's copy of hist.note */

static void say(struct lz_buf *log, struct lz_err *err, int rc);
static void on_launch(void *arg);
static void on_pass(uv_work_t *req);
static void on_pass_done(uv_work_t *req, int status);
static void on_soon(uv_timer_t *t);
static void maybe_pass(void);

/* The coordinator's log: each line, and an error if there was one. */
static void
say(struct lz_buf *log, struct lz_err *err, int rc)
{
	char *line, *save = NULL;

	for (line = log->len ? strtok_r(log->buf, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "coordinator %s: %s\n", lz_coord.id, line);
	if (rc < 0 && err->msg != NULL)
		fprintf(stderr, "coordinator %s: Git history guard: %s\n",
		    lz_coord.id, err->msg);
	lz_buf_release(log);
	lz_err_release(err);
}

static void
on_launch(void *arg)
{
	(void)arg;
	launch_rc = lz_history_launch(&hist, lz_history_now_ms(), &launch_log,
	    &launch_err);
}

int
lz_coord_history_start(struct lz_err *err)
{
	const struct lz_client *c = &lz_coord.cfg;
	struct lz_ignored ig;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err none = LZ_ERR_INIT;
	const char *cap = getenv("LAZARET_TEST_HISTORY_COPY_MAX");
	int rc;

	memset(&ig, 0, sizeof ig);
	if (c->profile->ignored_isolation &&
	    (rc = lz_ignored_load(c->domain.root, &ig, err)) != 0)
		goto out;
	/* Test hook: a small cap on copies (the copy fallback's tests). */
	rc = lz_history_init(&hist, c->domain.workspace, c->domain.root,
	    &ig.paths, (int64_t)c->profile->history_keep * 1000,
	    cap != NULL ? strtoull(cap, NULL, 10) : 0, lz_coord.self, &log,
	    err);
	say(&log, &none, 0);
	if (rc != 0) {
		lz_history_release(&hist);
		goto out;
	}
	if (uv_thread_create(&launch_thread, on_launch, NULL) != 0) {
		lz_history_release(&hist);
		rc = lz_err_set(err, LZ_ESYS, "cannot start the Git history "
		    "guard's launch pass");
		goto out;
	}
	launching = 1;
out:
	lz_ignored_release(&ig);
	return rc;
}

void
lz_coord_history_ready(int ready_fd, int ok)
{
	if (!launching)
		return;
	uv_thread_join(&launch_thread);
	launching = 0;
	say(&launch_log, &launch_err, launch_rc);
	if (!ok) {
		lz_history_release(&hist);
		return;
	}
	if (launch_rc != 0) {
		/* The Domain runs unguarded rather than not at all: said. */
		if (ready_fd >= 0)
			dprintf(ready_fd, "warning: the Git history guard did "
			    "not start, so this Domain's Git history is not "
			    "kept (see coordinator.log)\n");
		lz_history_release(&hist);
		return;
	}
	hist_on = 1;
	uv_timer_init(lz_coord.loop, &soon);
	soon_init = 1;
}

static void
on_pass(uv_work_t *req)
{
	(void)req;
	pass_rc = lz_history_pass(&hist, 0, pass_at, pass_now, &pass_log,
	    &pass_err);
}

static void
on_pass_done(uv_work_t *req, int status)
{
	(void)req;
	(void)status;
	running = 0;
	say(&pass_log, &pass_err, pass_rc);
	if (pass_rc > 0) {
		free(note);
		note = lz_xstrdup(hist.note.buf);
	}
	/* Changes that came during the pass get one of their own. */
	if (poked && hist_on && !uv_is_closing((uv_handle_t *)&soon))
		uv_timer_start(&soon, on_soon, LZ_HISTORY_SOON_MS, 0);
}

static void
on_soon(uv_timer_t *t)
{
	(void)t;
	maybe_pass();
}

static void
maybe_pass(void)
{
	uint64_t now;

	if (!hist_on || running || lz_coord.closed)
		return;
	now = uv_now(lz_coord.loop);
	if (!lz_history_due(&hist, now, poked)) {
		if (poked && !uv_is_active((uv_handle_t *)&soon))
			uv_timer_start(&soon, on_soon, LZ_HISTORY_SOON_MS, 0);
		return;
	}
	poked = 0;
	pass_at = now;
	pass_now = lz_history_now_ms();
	if (uv_queue_work(lz_coord.loop, &pass_req, on_pass,
	    on_pass_done) == 0)
		running = 1;
}

void
lz_coord_history_poke(void)
{
	if (!hist_on)
		return;
	poked = 1;
	if (!running && !uv_is_active((uv_handle_t *)&soon))
		uv_timer_start(&soon, on_soon, LZ_HISTORY_SOON_MS, 0);
}

void
lz_coord_history_tick(void)
{
	maybe_pass();
}

const char *
lz_coord_history_note(void)
{
	return note;
}

void
lz_coord_history_stop(void)
{
	if (soon_init && !uv_is_closing((uv_handle_t *)&soon))
		uv_close((uv_handle_t *)&soon, NULL);
}

void
lz_coord_history_final(void)
{
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	int rc;

	if (hist_on) {
		rc = lz_history_pass(&hist, 1, 0, lz_history_now_ms(), &log,
		    &err);
		say(&log, &err, rc);
		lz_history_release(&hist);
	}
	hist_on = 0;
	free(note);
	note = NULL;
}
