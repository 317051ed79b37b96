/*
 * rundir.c: creating and verifying host-private directories by descriptor,
 * and the lifecycle lock. Used for $XDG_RUNTIME_DIR/lazaret/<id> and the
 * Domain Root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <unistd.h>

#include "core/pathcheck.h"
#include "core/rundir.h"

static int open_private(int at, const char *name, const char *shown,
    int create, struct lz_err *err);
static int make_parents(const char *base, struct lz_err *err);
static int walk(const char *base, int create_base, int create,
    const char *sub, struct lz_err *err);

/* Opens name under at (or an absolute name) and checks it is private. */
static int
open_private(int at, const char *name, const char *shown, int create,
    struct lz_err *err)
{
	struct stat st;
	int fd, rc;

	if (create && mkdirat(at, name, 0700) != 0 && errno != EEXIST)
		return lz_err_set(err, LZ_ESYS, "cannot create '%s': %s",
		    shown, strerror(errno));
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return lz_err_set(err, errno == ENOENT ? LZ_ENOTFOUND :
		    LZ_ESYS, "cannot use '%s': %s", shown, strerror(errno));
	rc = lz_pathcheck_private_dir(&st, shown, err);
	if (rc != 0)
		return rc;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return lz_err_set(err, errno == ELOOP ? LZ_EUNSAFE : LZ_ESYS,
		    "cannot open '%s': %s", shown, strerror(errno));
	/* Re-check through the descriptor: the name may have been swapped. */
	if (fstat(fd, &st) != 0 ||
	    (rc = lz_pathcheck_private_dir(&st, shown, err)) != 0) {
		if (rc == 0)
			rc = lz_err_set(err, LZ_ESYS, "cannot stat '%s': %s",
			    shown, strerror(errno));
		close(fd);
		return rc;
	}
	return fd;
}

/* mkdir -p of base's parents; each one made here is 0700. */
static int
make_parents(const char *base, struct lz_err *err)
{
	char *copy = lz_xstrdup(base), *p;
	int rc = 0;

	for (p = copy + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(copy, 0700) != 0 && errno != EEXIST) {
			rc = lz_err_set(err, LZ_ESYS, "cannot create '%s': %s",
			    copy, strerror(errno));
			break;
		}
		*p = '/';
	}
	free(copy);
	return rc;
}

int
lz_rundir_ensure(const char *base, int create_base, const char *sub,
    struct lz_err *err)
{
	return walk(base, create_base, 1, sub, err);
}

int
lz_rundir_open(const char *base, const char *sub, struct lz_err *err)
{
	return walk(base, 0, 0, sub, err);
}

/* lz_rundir_ensure, creating the components of sub only with create. */
static int
walk(const char *base, int create_base, int create, const char *sub,
    struct lz_err *err)
{
	struct lz_buf shown = LZ_BUF_INIT;
	char *copy = lz_xstrdup(sub), *tok, *save = NULL;
	int fd, next;

	if (create_base && (fd = make_parents(base, err)) != 0)
		goto out;
	fd = open_private(AT_FDCWD, base, base, create_base, err);
	if (fd < 0)
		goto out;
	lz_buf_adds(&shown, base);
	for (tok = strtok_r(copy, "/", &save); tok != NULL;
	    tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0 || strcmp(tok, "..") == 0) {
			close(fd);
			fd = lz_err_set(err, LZ_EINVAL, "bad path component "
			    "'%s' in '%s'", tok, sub);
			goto out;
		}
		lz_buf_addf(&shown, "/%s", tok);
		next = open_private(fd, tok, shown.buf, create, err);
		close(fd);
		fd = next;
		if (fd < 0)
			goto out;
	}
out:
	free(copy);
	lz_buf_release(&shown);
	return fd;
}

int
lz_rundir_lock(int dirfd, const char *path, int nonblock, struct lz_err *err)
{
	struct stat st;
	int fd, rc;

	fd = openat(dirfd, "lifecycle.lock", O_RDWR | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open lifecycle lock in "
		    "'%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		return lz_err_set(err, LZ_EUNSAFE, "lifecycle lock in '%s' is "
		    "not a regular file of yours; remove it", path);
	}
	while ((rc = flock(fd, LOCK_EX | (nonblock ? LOCK_NB : 0))) != 0 &&
	    errno == EINTR)
		;
	if (rc != 0) {
		rc = errno;
		close(fd);
		if (rc == EWOULDBLOCK)
			return lz_err_set(err, LZ_EBUSY, "the Domain in '%s' is "
			    "being started or stopped by another lazaret "
			    "process; try again in a moment", path);
		return lz_err_set(err, LZ_ESYS, "cannot lock '%s': %s", path,
		    strerror(rc));
	}
	return fd;
}

long
lz_rundir_lock_holder(int dirfd)
{
	struct stat st;
	char *line = NULL, kind[16], id[64], want[64];
	size_t cap = 0;
	long pid, found = 0;
	FILE *fp;

	if (fstatat(dirfd, "lifecycle.lock", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    (fp = fopen("/proc/locks", "re")) == NULL)
		return 0;
	/* "1: FLOCK  ADVISORY  WRITE 4242 fe:01:1234567 0 EOF" */
	snprintf(want, sizeof want, "%02x:%02x:%lu", major(st.st_dev),
	    minor(st.st_dev), (unsigned long)st.st_ino);
	while (found == 0 && getline(&line, &cap, fp) > 0) {
		if (sscanf(line, "%*d: %15s %*s %*s %ld %63s", kind, &pid,
		    id) == 3 && strcmp(kind, "FLOCK") == 0 &&
		    strcmp(id, want) == 0 && pid > 0)
			found = pid;
	}
	free(line);
	fclose(fp);
	return found;
}
