/*
 * anchor.c: the on-disk layout of State Anchors and their generations.
 * Mounting is the coordinator's (src/anchor-mount.c); reset (FR-11) will
 * add a generation and switch "current".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/rundir.h"

static int read_current(int dirfd, const char *shown, unsigned *gen,
    struct lz_err *err);
static int ensure(const char *root, const char *sub, struct lz_err *err);

char *
lz_anchor_name(const char *path)
{
	char *s = lz_xstrdup(path[0] == '/' ? path + 1 : path), *p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '/')
			*p = '-';
	}
	return s;
}

/* Reads "current" -> "gen-N"; 0 with *gen = 0 when there is none. */
static int
read_current(int dirfd, const char *shown, unsigned *gen,
    struct lz_err *err)
{
	char target[32], *end;
	unsigned long n;
	ssize_t len;

	*gen = 0;
	len = readlinkat(dirfd, "current", target, sizeof target - 1);
	if (len < 0 && errno == ENOENT)
		return 0;
	if (len < 0)
		return lz_err_set(err, errno == EINVAL ? LZ_EUNSAFE : LZ_ESYS,
		    "cannot read '%s/current': %s (it must be a symbolic "
		    "link to gen-N)", shown, strerror(errno));
	target[len] = '\0';
	if (strncmp(target, "gen-", 4) != 0 || target[4] < '1' ||
	    target[4] > '9')
		goto bad;
	n = strtoul(target + 4, &end, 10);
	if (*end != '\0' || n > 1000000)
		goto bad;
	*gen = (unsigned)n;
	return 0;
bad:
	return lz_err_set(err, LZ_EUNSAFE, "'%s/current' points to '%s', not "
	    "to a generation (gen-N); Lazaret will not follow it", shown,
	    target);
}

static int
ensure(const char *root, const char *sub, struct lz_err *err)
{
	int fd = lz_rundir_ensure(root, 0, sub, err);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int
lz_anchor_prepare(const char *domain_root, const char *path,
    struct lz_anchor *a, struct lz_err *err)
{
	struct lz_buf sub = LZ_BUF_INIT, shown = LZ_BUF_INIT;
	char link[32];
	int fd = -1, rc;

	memset(a, 0, sizeof *a);
	a->path = lz_xstrdup(path);
	a->name = lz_anchor_name(path);
	lz_buf_addf(&sub, "anchors/%s", a->name);
	lz_buf_addf(&shown, "%s/%s", domain_root, sub.buf);
	fd = lz_rundir_ensure(domain_root, 0, sub.buf, err);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	rc = read_current(fd, shown.buf, &a->gen, err);
	if (rc != 0)
		goto out;
	if (a->gen == 0) {
		a->gen = 1;
		if (snprintf(link, sizeof link, "gen-%u", a->gen) >=
		    (int)sizeof link)
			LZ_BUG("generation name");
		lz_buf_reset(&sub);
		lz_buf_addf(&sub, "anchors/%s/%s/upper", a->name, link);
		if ((rc = ensure(domain_root, sub.buf, err)) != 0)
			goto out;
		if (symlinkat(link, fd, "current.tmp") != 0 ||
		    renameat(fd, "current.tmp", fd, "current") != 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot create '%s/"
			    "current': %s", shown.buf, strerror(errno));
			unlinkat(fd, "current.tmp", 0);
			goto out;
		}
	}
	lz_buf_reset(&sub);
	lz_buf_addf(&sub, "anchors/%s/gen-%u/upper", a->name, a->gen);
	if ((rc = ensure(domain_root, sub.buf, err)) != 0)
		goto out;
	a->upper = lz_xasprintf("%s/%s", domain_root, sub.buf);
	lz_buf_reset(&sub);
	lz_buf_addf(&sub, "anchors/%s/gen-%u/work", a->name, a->gen);
	if ((rc = ensure(domain_root, sub.buf, err)) != 0)
		goto out;
	a->work = lz_xasprintf("%s/%s", domain_root, sub.buf);
	lz_buf_reset(&sub);
	lz_buf_addf(&sub, "anchors/%s/merged", a->name);
	if ((rc = ensure(domain_root, sub.buf, err)) != 0)
		goto out;
	a->merged = lz_xasprintf("%s/%s", domain_root, sub.buf);
	lz_buf_reset(&sub);
	lz_buf_addf(&sub, "anchors/%s/lower-empty", a->name);
	if ((rc = ensure(domain_root, sub.buf, err)) != 0)
		goto out;
	a->lower_empty = lz_xasprintf("%s/%s", domain_root, sub.buf);
out:
	if (fd >= 0)
		close(fd);
	lz_buf_release(&sub);
	lz_buf_release(&shown);
	if (rc != 0)
		lz_anchor_release(a);
	return rc;
}

void
lz_anchor_release(struct lz_anchor *a)
{
	free(a->path);
	free(a->name);
	free(a->upper);
	free(a->work);
	free(a->merged);
	free(a->lower_empty);
	memset(a, 0, sizeof *a);
}
