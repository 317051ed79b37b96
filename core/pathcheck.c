/*
 * pathcheck.c: string checks for configured paths, and owner/mode checks
 * for trusted files and host-private directories (SR-2, SR-10).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "core/pathcheck.h"

static const char *const reserved[] = {
	"/workspace", "/run/lazaret", "/proc", "/sys", "/dev",
};

int
lz_path_listed(const struct lz_tokens *paths, const char *path)
{
	const char *s;
	size_t i, n;

	for (i = 0; paths != NULL && i < paths->n; i++) {
		s = paths->v[i];
		n = strlen(s);
		if (n > 0 && s[n - 1] == '/') {
			/* A directory: itself, or anything beneath it. */
			if (strncmp(path, s, n - 1) == 0 &&
			    (path[n - 1] == '\0' || path[n - 1] == '/'))
				return 1;
		} else if (strcmp(path, s) == 0)
			return 1;
	}
	return 0;
}

char *
lz_path_in(const char *ws, const char *path)
{
	size_t n = strlen(ws);
	char *real = NULL, *dir, *slash, *rel = NULL, *full;

	if (lz_path_beneath(path, ws) && path[n] == '/')
		return lz_xstrdup(path + n + 1);
	if ((real = realpath(path, NULL)) != NULL) {
		if (lz_path_beneath(real, ws) && real[n] == '/')
			rel = lz_xstrdup(real + n + 1);
		free(real);
		return rel;
	}
	dir = lz_xstrdup(path);
	while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if ((real = realpath(dir, NULL)) != NULL)
			break;
	}
	if (real != NULL) {
		full = lz_xasprintf("%s%s", real, path + strlen(dir));
		if (lz_path_beneath(full, ws) && full[n] == '/')
			rel = lz_xstrdup(full + n + 1);
		free(full);
		free(real);
	}
	free(dir);
	return rel;
}

char *
lz_path_env_scrub(const char *path_env, const char *workspace,
    struct lz_tokens *dropped)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *copy = lz_xstrdup(path_env != NULL ? path_env : "");
	char *dir, *save = NULL, *rel, *norm, *real;
	int keep;

	lz_buf_adds(&b, "");
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		keep = dir[0] == '/';
		if (keep) {
			norm = lz_path_normalise(dir);
			real = realpath(norm, NULL);
			rel = lz_path_in(workspace, norm);
			keep = rel == NULL && strcmp(norm, workspace) != 0 &&
			    (real == NULL || strcmp(real, workspace) != 0);
			free(rel);
			free(real);
			free(norm);
		}
		if (keep)
			lz_buf_addf(&b, "%s%s", b.len ? ":" : "", dir);
		else if (dropped != NULL)
			lz_tokens_push(dropped, dir);
	}
	free(copy);
	return lz_buf_detach(&b);
}

int
lz_lstat_kind(const char *path, struct lz_err *err)
{
	struct stat st;

	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		return lz_err_set(err, LZ_ESYS, "cannot inspect '%s': %s",
		    path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return 'd';
	if (S_ISREG(st.st_mode))
		return 'f';
	return 'l';
}

int
lz_path_beneath(const char *path, const char *parent)
{
	size_t n = strlen(parent);

	if (strcmp(parent, "/") == 0)
		return path[0] == '/';
	return strncmp(path, parent, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

char *
lz_path_normalise(const char *path)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *p = path, *e;
	size_t n;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 1 && p[0] == '.')
			;
		else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (b.len > 0 && b.buf[b.len - 1] != '/')
				b.len--;
			if (b.len > 0)
				b.len--;
			b.buf[b.len] = '\0';
		} else {
			lz_buf_addch(&b, '/');
			lz_buf_add(&b, p, n);
		}
		p += n;
	}
	if (b.len == 0)
		lz_buf_addch(&b, '/');
	return lz_buf_detach(&b);
}

int
lz_pathcheck_host(const char *path, struct lz_err *err)
{
	const char *p;
	size_t n = strlen(path);

	if (path[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "path '%s' is not absolute",
		    path);
	if (n > 1 && path[n - 1] == '/')
		return lz_err_set(err, LZ_EINVAL, "path '%s' ends with '/'; "
		    "write it without", path);
	for (p = path; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		if (p[1] == '/' || (p[1] == '.' && (p[2] == '/' ||
		    p[2] == '\0')) || (p[1] == '.' && p[2] == '.' &&
		    (p[3] == '/' || p[3] == '\0')))
			return lz_err_set(err, LZ_EINVAL, "path '%s' is not "
			    "normalised ('//', '.' or '..'); write the plain "
			    "absolute path", path);
	}
	return 0;
}

int
lz_pathcheck_sandbox(const char *path, const char *what, struct lz_err *err)
{
	size_t i;
	int rc;

	rc = lz_pathcheck_host(path, err);
	if (rc != 0)
		return lz_err_prefix(err, rc, "%s", what);
	if (strcmp(path, "/") == 0)
		return lz_err_set(err, LZ_EINVAL, "%s '/' is the whole "
		    "sandbox; name a directory such as /usr/local", what);
	for (i = 0; i < sizeof reserved / sizeof *reserved; i++) {
		if (lz_path_beneath(path, reserved[i]))
			return lz_err_set(err, LZ_EINVAL, "%s '%s' lies in "
			    "'%s', which Lazaret manages; choose another "
			    "path", what, path, reserved[i]);
	}
	return 0;
}

int
lz_pathcheck_nested(const struct lz_tokens *paths, struct lz_err *err)
{
	size_t i, j;

	for (i = 0; i < paths->n; i++) {
		for (j = 0; j < paths->n; j++) {
			if (i == j || !lz_path_beneath(paths->v[i],
			    paths->v[j]))
				continue;
			if (strcmp(paths->v[i], paths->v[j]) == 0)
				return lz_err_set(err, LZ_EINVAL, "persist "
				    "'%s' is listed twice", paths->v[i]);
			return lz_err_set(err, LZ_EINVAL, "persist '%s' lies "
			    "inside persist '%s'; State Anchors cannot nest, "
			    "keep the outer one", paths->v[i], paths->v[j]);
		}
	}
	return 0;
}

int
lz_pathcheck_private_file(const struct stat *st, const char *path,
    struct lz_err *err)
{
	if (!S_ISREG(st->st_mode))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a regular "
		    "file", path);
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return lz_err_set(err, LZ_EUNSAFE, "'%s' belongs to uid %u, "
		    "not to you (uid %u); only your own files are trusted "
		    "(chown it or copy it)", path, (unsigned)st->st_uid,
		    (unsigned)geteuid());
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is writable by "
		    "group or others, so another user could change it "
		    "(run: chmod go-w '%s')", path, path);
	return 0;
}

int
lz_pathcheck_private_dir(const struct stat *st, const char *path,
    struct lz_err *err)
{
	if (S_ISLNK(st->st_mode))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is a symbolic link; "
		    "a host-private directory must be a real directory "
		    "(remove the link)", path);
	if (!S_ISDIR(st->st_mode))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory "
		    "(remove it)", path);
	if (st->st_uid != geteuid())
		return lz_err_set(err, LZ_EUNSAFE, "'%s' belongs to uid %u, "
		    "not to you (uid %u); remove it so Lazaret can create "
		    "its own", path, (unsigned)st->st_uid,
		    (unsigned)geteuid());
	if (st->st_mode & 077)
		return lz_err_set(err, LZ_EUNSAFE, "'%s' has mode %04o; a "
		    "host-private directory must be 0700 (run: chmod 700 "
		    "'%s')", path, (unsigned)(st->st_mode & 07777), path);
	return 0;
}

int
lz_open_beneath(int dirfd, const char *name, int flags, mode_t mode)
{
	struct open_how how;

	memset(&how, 0, sizeof how);
	how.flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW);
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
	return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof how);
}

int
lz_path_gone(const char *path)
{
	struct stat st;

	return lstat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}
