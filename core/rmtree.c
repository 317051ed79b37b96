/*
 * rmtree.c: removal of a tree by descriptor (rmtree.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "core/fault.h"
#include "core/rmtree.h"

struct rm_ctx {
	int topfd;		/* the tree's top directory */
	unsigned long moved;	/* deep subtrees renamed to the top */
	const char *fault;
	int removed;		/* something was removed (for the fault) */
	const char *shown;
	struct lz_err *err;
};

static int	 open_dir(int dirfd, const char *name);
static int	 empty_dir(struct rm_ctx *c, int fd, int depth);
static int	 remove_entry(struct rm_ctx *c, int dirfd, const char *name,
		     int isdir, int depth);
static int	 fail(struct rm_ctx *c, const char *name, int e);

/* openat2 of a directory beneath dirfd: no symlink, no mount crossing. */
static int
open_dir(int dirfd, const char *name)
{
	struct open_how how;

	memset(&how, 0, sizeof how);
	how.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV;
	return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof how);
}

static int
fail(struct rm_ctx *c, const char *name, int e)
{
	if (e == EXDEV)
		return lz_err_set(c->err, LZ_EUNSAFE, "will not remove '%s': "
		    "'%s' in it is a mount point (unmount it first)", c->shown,
		    name);
	if (e == ENOSYS)
		return lz_err_set(c->err, LZ_EUNSAFE, "cannot remove '%s' "
		    "safely: this kernel has no openat2(2) (Linux 5.6 or later "
		    "needed)", c->shown);
	return lz_err_set(c->err, LZ_ESYS, "cannot remove '%s' in '%s': %s",
	    name, c->shown, strerror(e));
}

/* Removes one entry of the directory dirfd (depth: dirfd's, top = 0). */
static int
remove_entry(struct rm_ctx *c, int dirfd, const char *name, int isdir,
    int depth)
{
	char deep[64];
	int fd, rc;

	if (isdir && depth + 1 >= LZ_RMTREE_DEPTH && dirfd != c->topfd) {
		/* Too deep: move it to the top, where a later pass finds it. */
		snprintf(deep, sizeof deep, ".lz-deep.%lu", c->moved++);
		if (renameat(dirfd, name, c->topfd, deep) != 0)
			return fail(c, name, errno);
		return 0;
	}
	if (isdir) {
		if ((fd = open_dir(dirfd, name)) < 0)
			return fail(c, name, errno);
		rc = empty_dir(c, fd, depth + 1);
		close(fd);
		if (rc != 0)
			return rc;
	}
	if (unlinkat(dirfd, name, isdir ? AT_REMOVEDIR : 0) != 0 &&
	    errno != ENOENT)
		return fail(c, name, errno);
	if (!c->removed && c->fault != NULL)
		lz_fault(c->fault);
	c->removed = 1;
	return 0;
}

/* Removes everything in the directory fd (left open for the caller). */
static int
empty_dir(struct rm_ctx *c, int fd, int depth)
{
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int dup_fd, rc = 0, again = 1, isdir;

	/* The top is read again until a pass finds nothing: subtrees moved
	 * up from the deep end land there after its listing was read. */
	while (again && rc == 0) {
		again = 0;
		if ((dup_fd = dup(fd)) < 0)
			return fail(c, ".", errno);
		if ((dir = fdopendir(dup_fd)) == NULL) {
			close(dup_fd);
			return fail(c, ".", errno);
		}
		rewinddir(dir);
		while (rc == 0 && (errno = 0, d = readdir(dir)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			if (d->d_type != DT_UNKNOWN)
				isdir = d->d_type == DT_DIR;
			else if (fstatat(fd, d->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0)
				isdir = S_ISDIR(st.st_mode);
			else {
				rc = fail(c, d->d_name, errno);
				break;
			}
			rc = remove_entry(c, fd, d->d_name, isdir, depth);
			again = depth == 0;
		}
		if (rc == 0 && errno != 0)
			rc = fail(c, ".", errno);
		closedir(dir);
	}
	return rc;
}

int
lz_rmtree_at(int dirfd, const char *name, const char *shown,
    const char *fault, struct lz_err *err)
{
	struct rm_ctx c;
	struct stat st;
	int rc;

	memset(&c, 0, sizeof c);
	c.fault = fault;
	c.shown = shown;
	c.err = err;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : fail(&c, name, errno);
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
			return fail(&c, name, errno);
		return 0;
	}
	if ((c.topfd = open_dir(dirfd, name)) < 0)
		return fail(&c, name, errno);
	rc = empty_dir(&c, c.topfd, 0);
	close(c.topfd);
	if (rc == 0 && unlinkat(dirfd, name, AT_REMOVEDIR) != 0 &&
	    errno != ENOENT)
		rc = fail(&c, name, errno);
	if (rc == 0 && fault != NULL && !c.removed)
		lz_fault(fault);
	return rc;
}
