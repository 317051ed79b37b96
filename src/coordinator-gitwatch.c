/*
 * coordinator-gitwatch.c: Git Sentry's watch while the Domain runs
 * (SR-4). The checks are core/gitguard.h's: a commondir (or a worktree's
 * gitdir) written where none was, a repository made anywhere in the
 * workspace, a protected editor or tool file that appeared. This file
 * only decides when: on an inotify event for commondir or index in the
 * shared .git (libuv fs event, 20 ms later so a burst of writes is one
 * check), on a timer every second in case events were lost, and once
 * more after the sandbox is gone. The census (a walk of the workspace)
 * runs in libuv's thread pool when it is due, one at a time, so a large
 * workspace never holds up the sessions' I/O; the last one runs here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitguard.h"
#include "core/ignored.h"
#include "src/coordinator.h"

#define RECHECK_MS 1000
#define SOON_MS 20	/* after an event: the rest of a burst comes */

static uv_fs_event_t git_event;
static uv_timer_t git_timer, git_soon;
static uv_work_t census_req;
static struct lz_gitguard guard;
static int guarding, census_running;
static char *git_path;
static struct lz_buf census_log;
static struct lz_err census_err;
static int census_rc;
static uint64_t census_at;	/* uv_now() when it was queued */

static void check(int force);
static void say(int rc, struct lz_buf *log, struct lz_err *err);
static void on_census(uv_work_t *req);
static void on_census_done(uv_work_t *req, int status);
static void on_git_event(uv_fs_event_t *h, const char *name, int events,
    int status);
static void on_git_timer(uv_timer_t *h);

/* The coordinator's log: one line per action, or the error. */
static void
say(int rc, struct lz_buf *log, struct lz_err *err)
{
	char *line, *save = NULL;

	if (rc < 0)
		fprintf(stderr, "coordinator %s: Git Sentry (SR-4): %s\n",
		    lz_coord.id, err->msg);
	for (line = log->len ? strtok_r(log->buf, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "coordinator %s: %s\n", lz_coord.id, line);
	lz_buf_release(log);
	lz_err_release(err);
}

/* In the thread pool: touches only the guard and the workspace. */
static void
on_census(uv_work_t *req)
{
	(void)req;
	census_rc = lz_gitguard_census(&guard, census_at, &census_log,
	    &census_err);
}

static void
on_census_done(uv_work_t *req, int status)
{
	(void)req;
	(void)status;
	census_running = 0;
	say(census_rc, &census_log, &census_err);
}

/*
 * The cheap checks now; the census when due, in the thread pool, or here
 * when force (the sandbox is gone: nothing else is going on).
 */
static void
check(int force)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	int rc;

	lz_coord_history_tick();
	if (!guarding)
		return;
	rc = lz_gitguard_check(&guard, &log, &err);
	say(rc, &log, &err);
	if (census_running)
		return;
	if (force) {
		rc = lz_gitguard_census(&guard, uv_now(lz_coord.loop), &log,
		    &err);
		say(rc, &log, &err);
	} else if (lz_gitguard_census_due(&guard, uv_now(lz_coord.loop))) {
		census_at = uv_now(lz_coord.loop);
		if (uv_queue_work(lz_coord.loop, &census_req, on_census,
		    on_census_done) == 0)
			census_running = 1;
	}
}

static void
on_git_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)h;
	(void)events;
	/* Any change in .git: the history guard looks (it waits 20 ms). */
	lz_coord_history_poke();
	/*
	 * No name (or an error such as a queue overflow): check anyway. A
	 * burst of index writes (git status refreshing it) is one check.
	 */
	if (uv_is_active((uv_handle_t *)&git_soon))
		return;
	if (status != 0 || name == NULL || strcmp(name, "commondir") == 0 ||
	    strcmp(name, "index") == 0)
		uv_timer_start(&git_soon, on_git_timer, SOON_MS, 0);
}

static void
on_git_timer(uv_timer_t *h)
{
	(void)h;
	check(0);
}

int
lz_coord_watch_git(const char *workspace, struct lz_err *err)
{
	const struct lz_client *c = &lz_coord.cfg;
	struct lz_ignored ig;
	int rc;

	memset(&ig, 0, sizeof ig);
	/* The isolated paths the launch mounted: the sandbox's own copies. */
	if (c->profile->ignored_isolation &&
	    (rc = lz_ignored_load(c->domain.root, &ig, err)) != 0)
		goto out;
	rc = lz_gitguard_init(&guard, workspace, c->domain.root, &ig.paths,
	    &c->profile->protect, uv_now(lz_coord.loop), err);
	if (rc != 0) {
		lz_gitguard_release(&guard);
		goto out;
	}
	guarding = 1;
	git_path = lz_xasprintf("%s/.git", workspace);
	/* Every handle exists once guarding is set: unwatch closes them. */
	uv_fs_event_init(lz_coord.loop, &git_event);
	uv_timer_init(lz_coord.loop, &git_soon);
	uv_timer_init(lz_coord.loop, &git_timer);
	rc = uv_fs_event_start(&git_event, on_git_event, git_path, 0);
	if (rc != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot watch '%s': %s",
		    git_path, uv_strerror(rc));
		goto out;
	}
	uv_timer_start(&git_timer, on_git_timer, RECHECK_MS, RECHECK_MS);
	check(0);
out:
	lz_ignored_release(&ig);
	return rc;
}

void
lz_coord_unwatch_git(void)
{
	if (!guarding)
		return;
	if (!uv_is_closing((uv_handle_t *)&git_event))
		uv_close((uv_handle_t *)&git_event, NULL);
	if (!uv_is_closing((uv_handle_t *)&git_timer))
		uv_close((uv_handle_t *)&git_timer, NULL);
	if (!uv_is_closing((uv_handle_t *)&git_soon))
		uv_close((uv_handle_t *)&git_soon, NULL);
}

void
lz_coord_git_final(void)
{
	check(1);
	if (guarding)
		lz_gitguard_release(&guard);
	guarding = 0;
	free(git_path);
	git_path = NULL;
}
