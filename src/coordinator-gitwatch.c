/*
 * coordinator-gitwatch.c: Git Sentry's watch on the shared .git (SR-4).
 * A ".git/commondir" written from inside the sandbox would send host git
 * to config and hooks the sandbox chose; no mount can block it
 * (core/commondir.h), so the coordinator moves it away as soon as it
 * appears: on an inotify event for that name (libuv fs event on the .git
 * directory), on a timer every second in case events were lost, and once
 * more after the sandbox is gone. The same checks look at the
 * repositories under the index's gitlinks (core/gitlinks.h): the index is
 * read again when it changed, each gitlink's .git looked at every time,
 * and a .git that was not there at launch is moved away.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "core/commondir.h"
#include "core/gitlinks.h"
#include "src/coordinator.h"

#define RECHECK_MS 1000
#define SOON_MS 20	/* after an event: the rest of a burst comes */

static uv_fs_event_t git_event;
static uv_timer_t git_timer, git_soon;
static int git_fd = -1;
static char *git_path, *ws_path;
static struct lz_gitlinks launch = LZ_GITLINKS_INIT, now = LZ_GITLINKS_INIT;
static struct stat index_st;
static uint64_t last_scan;	/* uv_now() of the last index read */

static void check(int force);
static void check_gitlinks(int force);
static int index_changed(void);
static void on_git_event(uv_fs_event_t *h, const char *name, int events,
    int status);
static void on_git_timer(uv_timer_t *h);
static void on_git_soon(uv_timer_t *h);

/* 1 when .git/index is not the one last read (and remembers it). */
static int
index_changed(void)
{
	struct stat st;

	if (fstatat(git_fd, "index", &st, 0) != 0)
		memset(&st, 0, sizeof st);
	if (st.st_ino == index_st.st_ino && st.st_size == index_st.st_size &&
	    st.st_mtim.tv_sec == index_st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == index_st.st_mtim.tv_nsec)
		return 0;
	index_st = st;
	return 1;
}

/*
 * Moves any .git under a gitlink that was not there at launch. The index
 * is read again at most once a second unless force (a large index read on
 * every write of a busy git would hold up the loop); the gitlinks' .git
 * entries are looked at every time.
 */
static void
check_gitlinks(int force)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	uint64_t t = uv_now(lz_coord.loop);
	int r;

	if ((force || t - last_scan >= RECHECK_MS) && index_changed()) {
		last_scan = t;
		lz_gitlinks_release(&now);
		r = lz_gitlinks_scan(ws_path, &now, &err);
	} else
		r = lz_gitlinks_restat(ws_path, &now, &err);
	if (r == 0)
		r = lz_gitlinks_guard(ws_path, &launch, &now, &log, &err);
	if (log.len > 0)
		fprintf(stderr, "coordinator %s: %s", lz_coord.id, log.buf);
	if (r < 0)
		fprintf(stderr, "coordinator %s: Git Sentry (SR-4): %s\n",
		    lz_coord.id, err.msg);
	lz_buf_release(&log);
	lz_err_release(&err);
}

/* Moves a commondir away, saying so in the coordinator's log. */
static void
check(int force)
{
	struct lz_err err = LZ_ERR_INIT;
	char *moved = NULL;
	int r;

	if (git_fd < 0)
		return;
	r = lz_commondir_quarantine(git_fd, &moved, &err);
	if (r > 0)
		fprintf(stderr, "coordinator %s: Git Sentry (SR-4): the "
		    "sandbox wrote %s/commondir, which would send host Git to "
		    "another directory's config and hooks; moved to %s/%s\n",
		    lz_coord.id, git_path, git_path, moved);
	else if (r < 0)
		fprintf(stderr, "coordinator %s: Git Sentry (SR-4): %s\n",
		    lz_coord.id, err.msg);
	free(moved);
	lz_err_release(&err);
	check_gitlinks(force);
}

static void
on_git_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)h;
	(void)events;
	/*
	 * No name (or an error such as a queue overflow): check anyway. A
	 * burst of index writes (git status refreshing it) is one check.
	 */
	if (uv_is_active((uv_handle_t *)&git_soon))
		return;
	if (status != 0 || name == NULL || strcmp(name, "commondir") == 0 ||
	    strcmp(name, "index") == 0)
		uv_timer_start(&git_soon, on_git_soon, SOON_MS, 0);
}

static void
on_git_soon(uv_timer_t *h)
{
	(void)h;
	check(0);
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
	int rc;

	ws_path = lz_xstrdup(workspace);
	git_path = lz_xasprintf("%s/.git", workspace);
	git_fd = open(git_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (git_fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot watch '%s': %s",
		    git_path, strerror(errno));
	/* Every handle exists once git_fd does: unwatch closes them. */
	uv_fs_event_init(lz_coord.loop, &git_event);
	uv_timer_init(lz_coord.loop, &git_soon);
	uv_timer_init(lz_coord.loop, &git_timer);
	/* What a launch found is the developer's (Git Sentry mounted it). */
	(void)index_changed();
	if ((rc = lz_gitlinks_scan(workspace, &launch, err)) != 0)
		return rc;
	lz_gitlinks_copy(&now, &launch);
	rc = uv_fs_event_start(&git_event, on_git_event, git_path, 0);
	if (rc != 0)
		return lz_err_set(err, LZ_ESYS, "cannot watch '%s': %s",
		    git_path, uv_strerror(rc));
	uv_timer_start(&git_timer, on_git_timer, RECHECK_MS, RECHECK_MS);
	check(1);
	return 0;
}

void
lz_coord_unwatch_git(void)
{
	if (git_fd < 0)
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
	if (git_fd >= 0)
		close(git_fd);
	git_fd = -1;
	free(git_path);
	git_path = NULL;
	free(ws_path);
	ws_path = NULL;
	lz_gitlinks_release(&launch);
	lz_gitlinks_release(&now);
}
