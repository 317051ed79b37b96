/*
 * coordinator-mailbox.c: the Escalation Mailbox's files, on the host side.
 * The request directory is a small tmpfs of its own (core/mailbox-mount.h)
 * in podman's rootless mount namespace; the coordinator reads it through
 * that namespace's root (/proc/<podman's pause process>/root), opened once.
 * It scans it at the next turn of the loop after any change (a libuv fs
 * event) and every LZ_MAILBOX_SCAN_MS as well, in case an event was
 * lost. Every entry is opened beneath that directory only (openat2 with
 * no symlinks and no magic links), non-blocking (a FIFO cannot hold the
 * loop), checked to be a regular file of at most the record limit, read,
 * and removed; the sandbox wrote it, so nothing is trusted until
 * coordinator-escalate.c has verified it. Junk is removed with a log line
 * and never shown to anyone. Results are written into the result
 * directory (host side; read-only inside) by tmp, fsync, rename.
 */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/mailbox-mount.h"
#include "protocol/mailbox.h"
#include "src/coordinator.h"
#include "src/domain-sandbox.h"

#define LZ_MAILBOX_SCAN_MS 500
#define LZ_MAILBOX_BATCH 256		/* entries a turn of the loop */
#define LZ_MAILBOX_TMP_AGE 60		/* seconds a .tmp may stay */

static struct {
	int dirfd;			/* the request tmpfs, O_PATH */
	int results;			/* the result directory, O_PATH */
	char *watch_path;		/* /proc/PID/root/... for the event */
	uv_fs_event_t event;
	uv_timer_t scan;
	int started, more;
	unsigned long dropped;		/* records refused or junk */
} mb = { -1, -1, NULL, { 0 }, { 0 }, 0, 0, 0 };

static void scan(void);
static void on_scan(uv_timer_t *t);

/* name beneath dirfd, through no symbolic link; xdev: across mounts. */
static int
open_beneath(int dirfd, const char *name, int flags, int xdev)
{
	struct open_how how;

	memset(&how, 0, sizeof how);
	how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
	    RESOLVE_NO_MAGICLINKS | (xdev ? 0 : RESOLVE_NO_XDEV);
	return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof how);
}

/* The pid of podman's pause process, which holds its mount namespace. */
static long
pause_pid(struct lz_err *err)
{
	char *path = lz_xasprintf("%s/libpod/tmp/pause.pid",
	    lz_coord.cfg.paths.xdg_runtime);
	char buf[32] = "";
	long pid = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && (n = read(fd, buf, sizeof buf - 1)) > 0)
		pid = strtol(buf, NULL, 10);
	if (fd >= 0)
		close(fd);
	if (pid <= 0)
		lz_err_set(err, LZ_ESYS, "cannot find podman's pause process "
		    "('%s'); the mailbox cannot be read", path);
	free(path);
	return pid;
}

void
lz_coord_mailbox_write(const char *name, const struct lz_buf *data)
{
	char *tmp = lz_xasprintf("%s.tmp", name);
	int fd;

	if (mb.results < 0)
		goto out;
	(void)unlinkat(mb.results, tmp, 0);
	fd = openat(mb.results, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	if (fd < 0 || lz_write_all(fd, data->buf, data->len) != 0 ||
	    fsync(fd) != 0 || close(fd) != 0 ||
	    renameat(mb.results, tmp, mb.results, name) != 0) {
		fprintf(stderr, "coordinator %s: cannot write result '%s': "
		    "%s\n", lz_coord.id, name, strerror(errno));
		(void)unlinkat(mb.results, tmp, 0);
	}
out:
	free(tmp);
}

void
lz_coord_mailbox_remove(const char *name)
{
	if (mb.results >= 0)
		(void)unlinkat(mb.results, name, 0);
}

/* One directory entry: read and removed, or removed as junk. */
static void
take(const char *name)
{
	enum lz_record_kind kind;
	char id[LZ_MAILBOX_ID_HEX + 1];
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	char chunk[16384];
	ssize_t n;
	int fd = -1;
	const char *why = NULL;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return;
	if (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".tmp") == 0) {
		/* Being written; an old one was left: it goes. */
		if (fstatat(mb.dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    time(NULL) - st.st_mtime > LZ_MAILBOX_TMP_AGE)
			(void)unlinkat(mb.dirfd, name, 0);
		return;
	}
	if (lz_record_name_parse(name, &kind, id) != 0 ||
	    kind == LZ_RECORD_RESULT)
		why = "not a record's name";
	else if ((fd = open_beneath(mb.dirfd, name, O_RDONLY | O_NONBLOCK,
	    0)) < 0)
		why = errno == ELOOP ? "a symbolic link" : "cannot be opened";
	else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_size > LZ_MAILBOX_REQUEST_MAX)
		why = "over the size limit";
	while (why == NULL && (n = read(fd, chunk, sizeof chunk)) > 0) {
		lz_buf_add(&b, chunk, (size_t)n);
		if (b.len > LZ_MAILBOX_REQUEST_MAX)
			why = "over the size limit";
	}
	if (fd >= 0)
		close(fd);
	/* A directory needs AT_REMOVEDIR; either way it goes. */
	if (unlinkat(mb.dirfd, name, 0) != 0 && errno == EISDIR)
		(void)unlinkat(mb.dirfd, name, AT_REMOVEDIR);
	if (why != NULL) {
		mb.dropped++;
		fprintf(stderr, "coordinator %s: mailbox: '%.80s' dropped: "
		    "%s\n", lz_coord.id, name, why);
	} else
		lz_coord_record(kind, id, b.buf, b.len);
	lz_buf_release(&b);
}

/* A batch of entries; the rest at the next turn of the loop. */
static void
scan(void)
{
	struct dirent *e;
	DIR *d;
	int fd, n = 0;

	if (mb.dirfd < 0)
		return;
	if ((fd = openat(mb.dirfd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	mb.more = 0;
	while ((e = readdir(d)) != NULL) {
		if (n++ >= LZ_MAILBOX_BATCH) {
			mb.more = 1;
			break;
		}
		take(e->d_name);
	}
	closedir(d);
	if (mb.more)
		uv_timer_start(&mb.scan, on_scan, 0, 0);
}

/*
 * One record makes several events (create, write, close, rename): each
 * only asks for a scan at the next turn of the loop, so the events read
 * together cost one scan of the directory, not one each.
 */
static void
on_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	(void)h;
	(void)name;
	(void)events;
	(void)status;
	uv_timer_start(&mb.scan, on_scan, 0, 0);
}

static void
on_scan(uv_timer_t *t)
{
	(void)t;
	scan();
	uv_timer_start(&mb.scan, on_scan, mb.more ? 0 : LZ_MAILBOX_SCAN_MS,
	    0);
}

int
lz_coord_mailbox_start(struct lz_err *err)
{
	char *req = lz_domain_mailbox(&lz_coord.cfg), *proc = NULL, *res;
	struct statfs sf;
	long pid;
	int root = -1, rc = 0;

	res = lz_xasprintf("%s/mailbox/results", lz_coord.cfg.domain.runtime);
	mb.results = open(res, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if ((pid = pause_pid(err)) <= 0) {
		rc = LZ_ESYS;
		goto out;
	}
	proc = lz_xasprintf("/proc/%ld/root", pid);
	root = open(proc, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root >= 0)
		mb.dirfd = open_beneath(root, req + 1, O_PATH | O_DIRECTORY, 1);
	/* Only the mailbox's own tmpfs: never the user's runtime tmpfs. */
	if (mb.dirfd < 0 || fstatfs(mb.dirfd, &sf) != 0 ||
	    sf.f_type != TMPFS_MAGIC || (unsigned long)sf.f_blocks *
	    (unsigned long)sf.f_bsize > 64ul * 1024 * 1024) {
		rc = lz_err_set(err, LZ_ESYS, "the mailbox '%s' is not its own "
		    "small tmpfs in podman's namespace (%s)", req,
		    strerror(errno));
		goto out;
	}
	mb.watch_path = lz_xasprintf("%s%s", proc, req);
	uv_fs_event_init(lz_coord.loop, &mb.event);
	uv_timer_init(lz_coord.loop, &mb.scan);
	mb.started = 1;
	if (uv_fs_event_start(&mb.event, on_event, mb.watch_path, 0) != 0)
		fprintf(stderr, "coordinator %s: mailbox: no event watch; "
		    "scanning every %d ms\n", lz_coord.id, LZ_MAILBOX_SCAN_MS);
	uv_timer_start(&mb.scan, on_scan, LZ_MAILBOX_SCAN_MS, 0);
out:
	if (root >= 0)
		close(root);
	free(proc);
	free(req);
	free(res);
	return rc;
}

void
lz_coord_mailbox_stop(void)
{
	if (!mb.started)
		return;
	mb.started = 0;
	uv_close((uv_handle_t *)&mb.event, NULL);
	uv_close((uv_handle_t *)&mb.scan, NULL);
	if (mb.dirfd >= 0)
		close(mb.dirfd);
	if (mb.results >= 0)
		close(mb.results);
	mb.dirfd = mb.results = -1;
	free(mb.watch_path);
	mb.watch_path = NULL;
}
