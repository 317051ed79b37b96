/*
 * anchor-mount.c: State Anchor overlays inside podman's rootless namespace
 * and the mountinfo parser (anchor-mount.h). The only mount(2) and
 * umount2(2) calls of Lazaret are here and in ws-view.c; the caller (the
 * "__anchor" helper, or the runtime shim) runs in podman's user namespace.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/anchor-mount.h"

static int	 parse_line(char *line, struct lz_mountinfo_entry *e);
static int	 ns_root(const char *s);
static void	 entry_release(struct lz_mountinfo_entry *e);
static int	 read_file(const char *path, struct lz_buf *b);
static int	 opt_safe(const char *path);
static int	 is_ours(const struct lz_mountinfo_entry *e);
static int	 under(const char *path, const char *dir);

char *
lz_mountinfo_unescape(const char *s)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			lz_buf_addch(&b, (char)((p[1] - '0') << 6 |
			    (p[2] - '0') << 3 | (p[3] - '0')));
			p += 3;
		} else
			lz_buf_addch(&b, *p);
	}
	if (b.len == 0)
		return lz_xstrdup("");
	return lz_buf_detach(&b);
}

static void
entry_release(struct lz_mountinfo_entry *e)
{
	free(e->dev);
	free(e->root);
	free(e->mountpoint);
	free(e->fstype);
	free(e->source);
	free(e->superopts);
	memset(e, 0, sizeof *e);
}

/* 1 for "TYPE:[NUMBER]", the root of an nsfs mount. */
static int
ns_root(const char *s)
{
	const char *p = s;

	while (*p >= 'a' && *p <= 'z')
		p++;
	if (p == s || p[0] != ':' || p[1] != '[' || p[2] < '0' || p[2] > '9')
		return 0;
	for (p += 2; *p >= '0' && *p <= '9'; p++)
		;
	return p[0] == ']' && p[1] == '\0';
}

/*
 * "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=x"
 * Fields are separated by single spaces (spaces in paths are \040). Returns
 * 0 or -1 for a malformed line.
 */
static int
parse_line(char *line, struct lz_mountinfo_entry *e)
{
	char *f[64], *p, *end;
	size_t n = 0, i, dash;
	unsigned long v;

	memset(e, 0, sizeof *e);
	for (p = line; n < sizeof f / sizeof *f; ) {
		f[n++] = p;
		if ((p = strchr(p, ' ')) == NULL)
			break;
		*p++ = '\0';
	}
	if (p != NULL || n < 10)
		return -1;
	for (dash = 6; dash < n && strcmp(f[dash], "-") != 0; dash++)
		;
	if (dash + 4 != n)
		return -1;
	for (i = 0; i < 2; i++) {
		errno = 0;
		v = strtoul(f[i], &end, 10);
		if (errno != 0 || *end != '\0' || end == f[i] || v > UINT_MAX)
			return -1;
		if (i == 0)
			e->id = (unsigned)v;
		else
			e->parent = (unsigned)v;
	}
	/* A bound namespace file (nsfs) has a root like "net:[4026532288]":
	 * every rootless podman with a running slirp4netns container has
	 * one in its mount namespace. */
	if ((f[3][0] != '/' && !ns_root(f[3])) || f[4][0] != '/')
		return -1;
	e->dev = lz_xstrdup(f[2]);
	e->root = lz_mountinfo_unescape(f[3]);
	e->mountpoint = lz_mountinfo_unescape(f[4]);
	e->fstype = lz_mountinfo_unescape(f[dash + 1]);
	e->source = lz_mountinfo_unescape(f[dash + 2]);
	e->superopts = lz_xstrdup(f[dash + 3]);
	return 0;
}

int
lz_mountinfo_parse(const char *text, struct lz_mountinfo *mi,
    struct lz_err *err)
{
	struct lz_mountinfo_entry e;
	char *copy = lz_xstrdup(text), *line, *nl;
	size_t lineno = 0;
	int rc = 0;

	for (line = copy; *line != '\0'; line = nl) {
		lineno++;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		else
			nl = line + strlen(line);
		if (*line == '\0')
			continue;
		if (parse_line(line, &e) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "cannot parse "
			    "mountinfo line %zu", lineno);
			lz_mountinfo_release(mi);
			goto out;
		}
		mi->v = lz_xgrow(mi->v, mi->n + 1, &mi->alloc, sizeof *mi->v);
		mi->v[mi->n++] = e;
	}
out:
	free(copy);
	return rc;
}

/* Reads a whole file (procfs files report size 0: read until EOF). */
static int
read_file(const char *path, struct lz_buf *b)
{
	char chunk[8192];
	ssize_t r;
	int fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		lz_buf_add(b, chunk, (size_t)r);
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r < 0 ? -1 : 0;
}

int
lz_mountinfo_read(struct lz_mountinfo *mi, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	int rc;

	if (read_file("/proc/self/mountinfo", &b) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot read "
		    "'/proc/self/mountinfo': %s", strerror(errno));
		goto out;
	}
	rc = lz_mountinfo_parse(b.buf, mi, err);
out:
	lz_buf_release(&b);
	return rc;
}

void
lz_mountinfo_release(struct lz_mountinfo *mi)
{
	size_t i;

	for (i = 0; i < mi->n; i++)
		entry_release(&mi->v[i]);
	free(mi->v);
	mi->v = NULL;
	mi->n = 0;
}

const struct lz_mountinfo_entry *
lz_mountinfo_top(const struct lz_mountinfo *mi, const char *mountpoint)
{
	size_t i;

	for (i = mi->n; i > 0; i--) {
		if (strcmp(mi->v[i - 1].mountpoint, mountpoint) == 0)
			return &mi->v[i - 1];
	}
	return NULL;
}

char *
lz_mountinfo_option(const char *opts, const char *key)
{
	size_t klen = strlen(key);
	const char *p = opts, *end;
	char *raw, *v;

	while (*p != '\0') {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			raw = lz_xstrndup(p + klen + 1, end - p - klen - 1);
			v = lz_mountinfo_unescape(raw);
			free(raw);
			return v;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return NULL;
}

int
lz_anchor_lower(const char *rootfs, const char *path, const char *lower_empty,
    char **out, struct lz_err *err)
{
	struct open_how how;
	struct stat st;
	char link[64], real[PATH_MAX], root[PATH_MAX];
	const char *rel = path;
	ssize_t len;
	int rootfd = -1, fd = -1, rc = 0;
	size_t rlen;

	*out = NULL;
	while (*rel == '/')
		rel++;
	if (realpath(rootfs, root) == NULL) {
		rc = lz_err_set(err, LZ_ESYS, "cannot resolve image root '%s': "
		    "%s", rootfs, strerror(errno));
		goto out;
	}
	if ((rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open image root '%s': %s",
		    root, strerror(errno));
		goto out;
	}
	if (*rel == '\0') {
		rc = lz_err_set(err, LZ_EINVAL, "'/' cannot be a State Anchor");
		goto out;
	}
	memset(&how, 0, sizeof how);
	how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof how);
	if (fd < 0 && errno == ENOENT) {
		*out = lz_xstrdup(lower_empty);
		goto out;
	}
	if (fd < 0 && errno == ENOSYS) {
		rc = lz_err_set(err, LZ_EUNSAFE, "cannot open '%s' in the image "
		    "safely: openat2 is not available (Linux 5.6 or later is "
		    "needed)", path);
		goto out;
	}
	if (fd < 0 && errno == ENOTDIR) {
		rc = lz_err_set(err, LZ_EINVAL, "the image's '%s' is not a "
		    "directory, so it cannot be a State Anchor (remove it from "
		    "persist)", path);
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s' in image root "
		    "'%s': %s", path, root, strerror(errno));
		goto out;
	}
	if (snprintf(link, sizeof link, "/proc/self/fd/%d", fd) >=
	    (int)sizeof link || (len = readlink(link, real, sizeof real - 1))
	    < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot resolve '%s' in the "
		    "image: %s", path, strerror(errno));
		goto out;
	}
	real[len] = '\0';
	rlen = strlen(root);
	if (strncmp(real, root, rlen) != 0 || real[rlen] != '/') {
		rc = lz_err_set(err, LZ_EUNSAFE, "the image's '%s' resolves to "
		    "'%s', outside the image root '%s'", path, real, root);
		goto out;
	}
	*out = lz_xstrdup(real);
out:
	if (fd >= 0)
		close(fd);
	if (rootfd >= 0)
		close(rootfd);
	return rc;
}

/* 1 when path can be written into an overlay option string as is. */
static int
opt_safe(const char *path)
{
	return path[0] == '/' && strpbrk(path, ",:\\\n") == NULL;
}

/* An anchor overlay: what Lazaret mounts (any overlay is taken as one). */
static int
is_ours(const struct lz_mountinfo_entry *e)
{
	return strcmp(e->fstype, "overlay") == 0;
}

int
lz_anchor_mount(const struct lz_anchor_layers *l, int *result,
    struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	const struct lz_mountinfo_entry *top;
	struct lz_buf opts = LZ_BUF_INIT;
	char merged[PATH_MAX], upper[PATH_MAX], work[PATH_MAX], *have = NULL;
	const char *paths[] = { l->lower, l->upper, l->work, l->merged };
	size_t i;
	int rc = 0;

	*result = 0;
	if (realpath(l->merged, merged) == NULL ||
	    realpath(l->upper, upper) == NULL ||
	    realpath(l->work, work) == NULL) {
		rc = lz_err_set(err, LZ_ESYS, "cannot resolve the directories "
		    "of State Anchor '%s': %s", l->merged, strerror(errno));
		goto out;
	}
	paths[1] = upper;
	paths[2] = work;
	paths[3] = merged;
	for (i = 0; i < sizeof paths / sizeof *paths; i++) {
		if (!opt_safe(paths[i])) {
			rc = lz_err_set(err, LZ_EINVAL, "cannot mount State "
			    "Anchor: '%s' contains ',', ':', '\\' or a newline, "
			    "which an overlay option cannot carry (move the "
			    "Storage Root with XDG_DATA_HOME)", paths[i]);
			goto out;
		}
	}
	if ((rc = lz_mountinfo_read(&mi, err)) != 0)
		goto out;
	if ((top = lz_mountinfo_top(&mi, merged)) != NULL) {
		have = lz_mountinfo_option(top->superopts, "upperdir");
		if (is_ours(top) && have != NULL && strcmp(have, upper) == 0) {
			*result = LZ_ANCHOR_ALREADY;
			goto out;
		}
		rc = lz_err_set(err, LZ_EBUSY, "cannot mount State Anchor on "
		    "'%s': a %s mount from '%s'%s%s is there already (stop the "
		    "Domain, or unmount it with 'podman unshare umount %s')",
		    merged, top->fstype, top->source, have ? " with upper " :
		    "", have ? have : "", merged);
		goto out;
	}
	lz_buf_addf(&opts, "lowerdir=%s,upperdir=%s,workdir=%s,userxattr",
	    l->lower, upper, work);
	if (mount(LZ_ANCHOR_FSNAME, merged, "overlay", 0, opts.buf) != 0) {
		rc = lz_err_set(err, errno == ENOSPC ? -ENOSPC : LZ_ESYS,
		    "cannot mount State Anchor overlay on '%s' (%s): %s%s",
		    merged, opts.buf, strerror(errno), errno == EINVAL ?
		    " (the upper directory's file system must support user "
		    "extended attributes; see dmesg)" : "");
		goto out;
	}
	*result = LZ_ANCHOR_MOUNTED;
out:
	free(have);
	lz_buf_release(&opts);
	lz_mountinfo_release(&mi);
	return rc;
}

int
lz_anchor_umount(const char *merged, int *result, struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	const struct lz_mountinfo_entry *top;
	char real[PATH_MAX];
	int rc = 0, round;

	*result = LZ_ANCHOR_NOT_MOUNTED;
	if (realpath(merged, real) == NULL) {
		if (errno == ENOENT)
			return 0;
		return lz_err_set(err, LZ_ESYS, "cannot resolve '%s': %s",
		    merged, strerror(errno));
	}
	/* Stacked overlays (a start racing another) are all taken off. */
	for (round = 0; round < 16; round++) {
		lz_mountinfo_release(&mi);
		if ((rc = lz_mountinfo_read(&mi, err)) != 0)
			goto out;
		if ((top = lz_mountinfo_top(&mi, real)) == NULL)
			goto out;
		if (!is_ours(top)) {
			rc = lz_err_set(err, LZ_EBUSY, "will not unmount '%s': "
			    "it is a %s mount from '%s', not a State Anchor "
			    "overlay", real, top->fstype, top->source);
			goto out;
		}
		if (umount2(real, UMOUNT_NOFOLLOW) == 0) {
			if (*result != LZ_ANCHOR_DETACHED)
				*result = LZ_ANCHOR_UNMOUNTED;
			continue;
		}
		if (errno == EBUSY && umount2(real, MNT_DETACH |
		    UMOUNT_NOFOLLOW) == 0) {
			*result = LZ_ANCHOR_DETACHED;
			continue;
		}
		rc = lz_err_set(err, LZ_ESYS, "cannot unmount State Anchor "
		    "'%s': %s", real, strerror(errno));
		goto out;
	}
	rc = lz_err_set(err, LZ_ESYS, "cannot unmount State Anchor '%s': still "
	    "mounted after %d attempts", real, round);
out:
	lz_mountinfo_release(&mi);
	return rc;
}

/* 1 when path lies strictly beneath dir. */
static int
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return strncmp(path, dir, n) == 0 && path[n] == '/' && path[n + 1] !=
	    '\0';
}

int
lz_anchor_umount_under(const char *dir, size_t *count, struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	char real[PATH_MAX];
	size_t i;
	int rc = 0, r, how;

	*count = 0;
	if (realpath(dir, real) == NULL) {
		if (errno == ENOENT)
			return 0;
		return lz_err_set(err, LZ_ESYS, "cannot resolve '%s': %s", dir,
		    strerror(errno));
	}
	if ((rc = lz_mountinfo_read(&mi, err)) != 0)
		goto out;
	/* Newest first: a mount listed later may lie on an earlier one. */
	for (i = mi.n; i > 0; i--) {
		if (!is_ours(&mi.v[i - 1]) || !under(mi.v[i - 1].mountpoint,
		    real))
			continue;
		r = lz_anchor_umount(mi.v[i - 1].mountpoint, &how, &sub);
		if (r != 0 && rc == 0) {
			rc = r;
			lz_err_set(err, r, "%s", sub.msg);
		}
		if (r == 0 && how != LZ_ANCHOR_NOT_MOUNTED)
			(*count)++;
		lz_err_release(&sub);
	}
out:
	lz_mountinfo_release(&mi);
	return rc;
}

int
lz_anchor_in_userns(struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	unsigned long inside, outside, count;
	int rc;

	if (read_file("/proc/self/uid_map", &b) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot read '/proc/self/uid_map': "
		    "%s", strerror(errno));
		goto out;
	}
	/* The initial namespace maps the whole range onto itself. */
	rc = !(sscanf(b.buf, "%lu %lu %lu", &inside, &outside, &count) == 3 &&
	    inside == 0 && outside == 0 && count == 4294967295UL &&
	    strchr(b.buf, '\n') == b.buf + b.len - 1);
out:
	lz_buf_release(&b);
	return rc;
}
