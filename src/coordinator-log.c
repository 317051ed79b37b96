/*
 * coordinator-log.c: the coordinator's log stays bounded. The coordinator's
 * stdout and stderr are coordinator.log in the Domain's runtime directory
 * (the starting client opened it for appending). Its lines come from
 * everywhere: the coordinator's own, podman's children, and some are made
 * by what the sandbox does (a dropped mailbox record, a moved repository,
 * a ref the history guard saw move). A flood of those must not fill the
 * user's runtime directory (a tmpfs, shared by every Domain and by
 * podman's and runsc's state). So every LOG_CHECK_MS the file behind
 * descriptor 2 is measured: past LZ_COORD_LOG_MAX it becomes
 * coordinator.log.1 (replacing the one before) and a new coordinator.log
 * takes descriptors 1 and 2, its first line saying so. Whatever writes,
 * at most two files of LZ_COORD_LOG_MAX, plus what one interval adds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/coordinator.h"

#define LOG_CHECK_MS 500

static void on_check(uv_timer_t *t);
static void bound(void);

/*
 * Starts the checks of runtime/coordinator.log; the first one at once
 * (lines of earlier starts are in the same file).
 */
void
lz_coord_log_start(const char *runtime)
{
	lz_coord.log_path = lz_xasprintf("%s/coordinator.log", runtime);
	uv_timer_init(lz_coord.loop, &lz_coord.log_check);
	uv_timer_start(&lz_coord.log_check, on_check, 0, LOG_CHECK_MS);
}

static void
on_check(uv_timer_t *t)
{
	(void)t;
	bound();
}

/*
 * When the file behind descriptor 2 is over LZ_COORD_LOG_MAX: moves it to
 * coordinator.log.1 if it is still the one at log_path, and puts a new
 * log_path on descriptors 1 (when it shared the file) and 2. When no new
 * file can be had (the rename or the open failed), the file is emptied
 * instead: the bound holds either way.
 */
static void
bound(void)
{
	const long long max = LZ_COORD_LOG_MAX;
	struct stat fd2, fd1, at;
	char *old;
	int fd, e, same1;

	if (lz_coord.log_path == NULL || fstat(2, &fd2) != 0 ||
	    !S_ISREG(fd2.st_mode) || (long long)fd2.st_size <= max)
		return;
	same1 = fstat(1, &fd1) == 0 && fd1.st_dev == fd2.st_dev &&
	    fd1.st_ino == fd2.st_ino;
	old = lz_xasprintf("%s.1", lz_coord.log_path);
	fd = -1;
	errno = 0;
	if (lstat(lz_coord.log_path, &at) != 0 || at.st_dev != fd2.st_dev ||
	    at.st_ino != fd2.st_ino || rename(lz_coord.log_path, old) == 0)
		fd = open(lz_coord.log_path, O_WRONLY | O_CREAT | O_APPEND |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && (fstat(fd, &at) != 0 || (at.st_dev == fd2.st_dev &&
	    at.st_ino == fd2.st_ino))) {
		close(fd);
		fd = -1;
		errno = 0;	/* no error: the file at the path is the same */
	}
	if (fd < 0) {
		e = errno;
		if (ftruncate(2, 0) == 0)
			fprintf(stderr, "coordinator %s: the log passed %lld "
			    "MiB and could not be moved aside (%s): emptied\n",
			    lz_coord.id, max >> 20, e ? strerror(e) :
			    "it is not the file at its path");
		free(old);
		return;
	}
	if (same1)
		dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	fprintf(stderr, "coordinator %s: the log passed %lld MiB; its earlier "
	    "lines are in '%s'\n", lz_coord.id, max >> 20, old);
	free(old);
}
