/*
 * anchor.c: the on-disk layout of State Anchors and their generations
 * (anchor.h): names, the "path" record, the legacy migration and
 * lz_anchor_prepare. Mounting is the runtime shim's (anchor-annot.c);
 * reset is anchor-reset.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/fileio.h"
#include "core/pathcheck.h"
#include "core/rundir.h"

#define PATH_RECORD "path"
#define PATH_RECORD_MAX 4096

static int	 ensure(const char *root, const char *sub, struct lz_err *err);

char *
lz_anchor_name(const char *path)
{
	struct lz_buf b = LZ_BUF_INIT;
	const unsigned char *p;

	for (p = (const unsigned char *)(path[0] == '/' ? path + 1 : path);
	    *p != '\0'; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-')
			lz_buf_addch(&b, (char)*p);
		else
			lz_buf_addf(&b, "%%%02X", *p);
	}
	return b.len > 0 ? lz_buf_detach(&b) : lz_xstrdup("");
}

char *
lz_anchor_legacy_name(const char *path)
{
	char *s = lz_xstrdup(path[0] == '/' ? path + 1 : path), *p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '/')
			*p = '-';
	}
	return s;
}

unsigned
lz_anchor_gen_number(const char *name)
{
	unsigned long n;
	char *end;

	if (strncmp(name, "gen-", 4) != 0 || name[4] < '1' || name[4] > '9')
		return 0;
	errno = 0;
	n = strtoul(name + 4, &end, 10);
	if (errno != 0 || *end != '\0' || n > LZ_ANCHOR_GEN_MAX)
		return 0;
	return (unsigned)n;
}

int
lz_anchor_read_current(int dirfd, const char *shown, unsigned *gen,
    struct lz_err *err)
{
	char target[64];
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
	if ((*gen = lz_anchor_gen_number(target)) == 0 ||
	    (size_t)len == sizeof target - 1)
		return lz_err_set(err, LZ_EUNSAFE, "'%s/current' points to "
		    "'%.40s', not to a generation (gen-N); Lazaret will not "
		    "follow it", shown, target);
	return 0;
}

int
lz_anchor_read_path(int dirfd, const char *name, char **path,
    struct lz_err *err)
{
	char buf[PATH_RECORD_MAX + 2], *enc = NULL;
	ssize_t n;
	int fd, rc = 0;

	*path = NULL;
	fd = openat(dirfd, PATH_RECORD, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return lz_err_set(err, LZ_EINVAL, "cannot read the path record "
		    "of anchor '%s': %s", name, strerror(errno));
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 1 || buf[n - 1] != '\n' || memchr(buf, '\0', (size_t)n) !=
	    NULL) {
		rc = lz_err_set(err, LZ_EINVAL, "the path record of anchor "
		    "'%s' is not one line", name);
		goto out;
	}
	buf[n - 1] = '\0';
	enc = lz_anchor_name(buf);
	if (buf[0] != '/' || lz_pathcheck_host(buf, NULL) != 0 ||
	    strcmp(enc, name) != 0) {
		rc = lz_err_set(err, LZ_EINVAL, "the path record of anchor "
		    "'%s' does not name the path the directory is for", name);
		goto out;
	}
	*path = lz_xstrdup(buf);
out:
	free(enc);
	return rc;
}

int
lz_anchor_write_path(int dirfd, const char *path, struct lz_err *err)
{
	char *text = lz_xasprintf("%s\n", path);
	int rc;

	rc = lz_file_replace(dirfd, PATH_RECORD, text, strlen(text), 0600,
	    PATH_RECORD, err);
	if (rc != 0)
		lz_err_prefix(err, rc, "cannot record the path of State Anchor "
		    "'%s'", path);
	free(text);
	return rc;
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
lz_anchor_adopt(int anchorsfd, const char *shown, const char *path,
    struct lz_err *err)
{
	char *name = lz_anchor_name(path), *old = lz_anchor_legacy_name(path);
	char *have = NULL;
	struct stat st;
	int fd = -1, rc = 0;

	/* The old name's directory, unclaimed, becomes the new name's. */
	if (strcmp(old, name) != 0 && fstatat(anchorsfd, name, &st,
	    AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT &&
	    (fd = lz_open_beneath(anchorsfd, old, O_RDONLY | O_DIRECTORY,
	    0)) >= 0) {
		rc = lz_anchor_read_path(fd, old, &have, NULL);
		close(fd);
		fd = -1;
		if (rc == 0 && have == NULL && (renameat(anchorsfd, old,
		    anchorsfd, name) != 0 || fsync(anchorsfd) != 0)) {
			rc = lz_err_set(err, LZ_ESYS, "cannot move the State "
			    "Anchor of '%s' from '%s/%s' to '%s/%s': %s", path,
			    shown, old, shown, name, strerror(errno));
			goto out;
		}
		free(have);
		have = NULL;
		rc = 0;
	}
	if (mkdirat(anchorsfd, name, 0700) != 0 && errno != EEXIST) {
		rc = lz_err_set(err, LZ_ESYS, "cannot create '%s/%s': %s",
		    shown, name, strerror(errno));
		goto out;
	}
	if ((fd = lz_open_beneath(anchorsfd, name, O_RDONLY | O_DIRECTORY,
	    0)) < 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "cannot open '%s/%s': %s "
		    "(a symlink or not a directory: move it away)", shown, name,
		    strerror(errno));
		goto out;
	}
	if ((rc = lz_anchor_read_path(fd, name, &have, err)) != 0)
		goto out;
	if (have != NULL && strcmp(have, path) != 0)
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s/%s' belongs to State "
		    "Anchor '%s', not '%s'", shown, name, have, path);
	else if (have == NULL)
		rc = lz_anchor_write_path(fd, path, err);
out:
	if (fd >= 0)
		close(fd);
	free(have);
	free(old);
	free(name);
	return rc;
}

int
lz_anchor_prepare(const char *domain_root, const char *path,
    struct lz_anchor *a, struct lz_err *err)
{
	struct lz_buf sub = LZ_BUF_INIT, shown = LZ_BUF_INIT;
	char link[32];
	int fd = -1, anchors = -1, rc;

	memset(a, 0, sizeof *a);
	a->path = lz_xstrdup(path);
	a->name = lz_anchor_name(path);
	lz_buf_addf(&shown, "%s/anchors", domain_root);
	if ((anchors = lz_rundir_ensure(domain_root, 0, "anchors", err)) < 0) {
		rc = anchors;
		goto out;
	}
	if ((rc = lz_anchor_adopt(anchors, shown.buf, path, err)) != 0)
		goto out;
	lz_buf_addf(&sub, "anchors/%s", a->name);
	lz_buf_addf(&shown, "/%s", a->name);
	fd = lz_rundir_ensure(domain_root, 0, sub.buf, err);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	rc = lz_anchor_read_current(fd, shown.buf, &a->gen, err);
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
	if (anchors >= 0)
		close(anchors);
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
