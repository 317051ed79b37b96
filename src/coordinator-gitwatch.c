/*
 * coordinator-gitwatch.c: Git Sentry's watch on the shared .git (SR-4).
 * A ".git/commondir" written from inside the sandbox would send host git
 * to config and hooks the sandbox chose; no mount can block it
 * (core/commondir.h), so the coordinator moves it away as soon as it
 * appears: on an inotify event for that name (libuv fs event on the .git
 * directory), on a timer every second in case events were lost, and once
 * more after the sandbox is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/commondir.h"
#include "src/coordinator.h"

#define RECHECK_MS 1000

static uv_fs_event_t git_event;
static uv_timer_t git_timer;
static int git_fd = -1;
static char *git_path;

static void check(void);
static void on_git_event(uv_fs_event_t *h, const char *name, int events,
    int status);
static void on_git_timer(uv_timer_t *h);

/* Moves a commondir away, saying so in the coordinator's log. */
static void
check(void)
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
}

static void
on_git_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)h;
	(void)events;
	/* No name (or an error such as a queue overflow): check anyway. */
	if (status != 0 || name == NULL || strcmp(name, "commondir") == 0)
		check();
}

static void
on_git_timer(uv_timer_t *h)
{
	(void)h;
	check();
}

int
lz_coord_watch_git(const char *workspace, struct lz_err *err)
{
	int rc;

	git_path = lz_xasprintf("%s/.git", workspace);
	git_fd = open(git_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (git_fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot watch '%s': %s",
		    git_path, strerror(errno));
	uv_fs_event_init(lz_coord.loop, &git_event);
	rc = uv_fs_event_start(&git_event, on_git_event, git_path, 0);
	if (rc != 0)
		return lz_err_set(err, LZ_ESYS, "cannot watch '%s': %s",
		    git_path, uv_strerror(rc));
	uv_timer_init(lz_coord.loop, &git_timer);
	uv_timer_start(&git_timer, on_git_timer, RECHECK_MS, RECHECK_MS);
	check();
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
}

void
lz_coord_git_final(void)
{
	check();
	if (git_fd >= 0)
		close(git_fd);
	git_fd = -1;
	free(git_path);
	git_path = NULL;
}
