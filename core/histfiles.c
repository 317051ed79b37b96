/*
 * histfiles.c: a git directory's small files kept and written back
 * (histfiles.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/histfiles.h"
#include "core/readat.h"

static const char *const files[] = { "config", "config.worktree",
    "shallow", "info/exclude", "info/attributes", "info/sparse-checkout" };
#define NFILES (sizeof files / sizeof files[0])

static int put(int dfd, const char *name, const struct lz_buf *b,
    mode_t mode);
static int dir_of(int gitfd, const char *path, const char **base,
    int create);

/* The store's name of a file: '/' becomes '-' ("info-exclude"). */
static void
store_name(const char *path, char out[64])
{
	char *p;

	snprintf(out, 64, "%s", path);
	for (p = out; (p = strchr(p, '/')) != NULL; p++)
		*p = '-';
}

/* Writes b as dfd/name through a temporary name, then renamed. */
static int
put(int dfd, const char *name, const struct lz_buf *b, mode_t mode)
{
	char tmp[96];
	int fd, rc;

	snprintf(tmp, sizeof tmp, ".lazaret-tmp.%s", name);
	(void)unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	rc = lz_write_all(fd, b->buf, b->len);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dfd, tmp, dfd, name) != 0)
		rc = -errno;
	if (rc != 0)
		(void)unlinkat(dfd, tmp, 0);
	return rc;
}

/* The directory of path in gitfd ("info/x": info/), no symlink. */
static int
dir_of(int gitfd, const char *path, const char **base, int create)
{
	const char *slash = strchr(path, '/');
	char dir[32];

	*base = slash != NULL ? slash + 1 : path;
	if (slash == NULL)
		return dup(gitfd);
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (create && mkdirat(gitfd, dir, 0755) != 0 && errno != EEXIST)
		return -1;
	return openat(gitfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
}

void
lz_histfiles_keep(int gitfd, int storefd, struct lz_buf *notes)
{
	struct lz_buf b = LZ_BUF_INIT, had = LZ_BUF_INIT;
	struct stat st;
	const char *base;
	char name[64];
	size_t i;
	int fd, dfd, rc;

	if (mkdirat(storefd, "files", 0700) != 0 && errno != EEXIST)
		return;
	if ((fd = openat(storefd, "files", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	for (i = 0; i < NFILES; i++) {
		if ((dfd = dir_of(gitfd, files[i], &base, 0)) < 0)
			continue;
		rc = lz_readat(dfd, base, LZ_HISTFILES_MAX, &b, &st);
		close(dfd);
		if (rc == LZ_READAT_NOTFILE || rc == LZ_READAT_TOOBIG)
			lz_buf_addf(notes, "%s is %s: not kept\n", files[i],
			    rc == LZ_READAT_TOOBIG ? "too large" :
			    lz_readat_kind(st.st_mode));
		if (rc != LZ_READAT_OK)
			continue;
		store_name(files[i], name);
		if (lz_readat(fd, name, LZ_HISTFILES_MAX, &had, NULL) ==
		    LZ_READAT_OK && had.len == b.len &&
		    memcmp(had.buf, b.buf, b.len) == 0)
			continue;
		(void)put(fd, name, &b, 0600);
	}
	close(fd);
	lz_buf_release(&b);
	lz_buf_release(&had);
}

int
lz_histfiles_restore(int gitfd, int storefd, struct lz_buf *done)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	const char *base;
	char name[64];
	size_t i;
	int fd, dfd, n = 0;

	if ((fd = openat(storefd, "files", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	for (i = 0; i < NFILES; i++) {
		store_name(files[i], name);
		if (lz_readat(fd, name, LZ_HISTFILES_MAX, &b, NULL) !=
		    LZ_READAT_OK)
			continue;
		if ((dfd = dir_of(gitfd, files[i], &base, 1)) < 0)
			continue;
		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0 &&
		    errno == ENOENT && put(dfd, base, &b, 0644) == 0) {
			lz_buf_addf(done, "%s written back (as kept at the "
			    "last launch or teardown)\n", files[i]);
			n++;
		}
		close(dfd);
	}
	close(fd);
	lz_buf_release(&b);
	return n;
}
