/*
 * ws-view.c: the workspace view of ws-view.h: its annotation, its list of
 * paths, and the binds the runtime shim makes inside podman's namespace.
 * With anchor-mount.c, the only place where Lazaret calls mount(2).
 */
#include <sys/mount.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/anchor-annot.h"
#include "core/anchor-mount.h"
#include "core/pathcheck.h"
#include "core/ws-view.h"

#define LIST_MAX (64 * 1024 * 1024)
#define UMOUNT_ROUNDS 64

static int	 rel_ok(const char *rel);
static int	 bind_one(int sfd, int vfd, const char *rel,
		     struct lz_err *err);
static int	 at_or_beneath(const char *path, const char *dir);

void
lz_view_storage_name(struct lz_buf *b, const char *rel)
{
	size_t n = strlen(rel);

	if (n > 0 && rel[n - 1] == '/')
		n--;
	for (; n > 0; n--, rel++) {
		if (*rel == '/')
			lz_buf_adds(b, "%2F");
		else if (*rel == '%')
			lz_buf_adds(b, "%25");
		else
			lz_buf_addch(b, *rel);
	}
}

char *
lz_view_annot_encode(const struct lz_view *v)
{
	json_t *j = json_pack("[s,s,s,s]", v->workspace, v->view, v->storage,
	    v->list);
	char *out;

	if (j == NULL)
		LZ_BUG("cannot encode the view annotation");
	out = lz_annot_encode(j);
	json_decref(j);
	return out;
}

int
lz_view_annot_decode(const char *value, struct lz_view *v,
    struct lz_err *err)
{
	char *f[4] = { NULL, NULL, NULL, NULL };
	json_t *j;
	size_t i;

	memset(v, 0, sizeof *v);
	if ((j = lz_annot_decode(value, LZ_VIEW_ANNOTATION, err)) == NULL)
		return LZ_EINVAL;
	if (!json_is_array(j) || json_array_size(j) != 4) {
		json_decref(j);
		return lz_err_set(err, LZ_EINVAL, "annotation '"
		    LZ_VIEW_ANNOTATION "' is not an array of four paths");
	}
	for (i = 0; i < 4; i++) {
		const char *s = json_string_value(json_array_get(j, i));

		if (s == NULL || s[0] != '/') {
			json_decref(j);
			return lz_err_set(err, LZ_EINVAL, "annotation '"
			    LZ_VIEW_ANNOTATION "': field %zu is not an "
			    "absolute path", i);
		}
		f[i] = lz_xstrdup(s);
	}
	json_decref(j);
	v->workspace = f[0];
	v->view = f[1];
	v->storage = f[2];
	v->list = f[3];
	return 0;
}

void
lz_view_release(struct lz_view *v)
{
	free(v->workspace);
	free(v->view);
	free(v->storage);
	free(v->list);
	memset(v, 0, sizeof *v);
}

/* A clean relative path: no empty, "." or ".." component, not .git. */
static int
rel_ok(const char *rel)
{
	const char *p = rel, *e;
	size_t n;

	if (*rel == '\0' || *rel == '/')
		return 0;
	for (; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, '/');
		if (e == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 && *e == '\0')
			break;		/* the trailing '/' of a directory */
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 &&
		    strncmp(p, "..", 2) == 0) || (n == 4 &&
		    strncmp(p, ".git", 4) == 0))
			return 0;
	}
	return 1;
}

int
lz_view_list_read(const struct lz_view *v, struct lz_tokens *rels,
    struct lz_err *err)
{
	json_error_t je;
	json_t *a, *e;
	size_t i;
	int rc = 0;

	a = json_load_file(v->list, JSON_REJECT_DUPLICATES, &je);
	if (a == NULL)
		return lz_err_set(err, LZ_EINVAL, "cannot read '%s': %s",
		    v->list, je.text);
	if (!json_is_array(a)) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is not an array of paths",
		    v->list);
		goto out;
	}
	json_array_foreach(a, i, e) {
		if (!json_is_string(e) || !rel_ok(json_string_value(e))) {
			rc = lz_err_set(err, LZ_EINVAL, "'%s': entry %zu is "
			    "not a clean relative path", v->list, i);
			goto out;
		}
		lz_tokens_push(rels, json_string_value(e));
	}
out:
	if (rc != 0)
		lz_tokens_release(rels);
	json_decref(a);
	return rc;
}

/* Binds the storage of rel (beneath sfd) over rel (beneath vfd). */
static int
bind_one(int sfd, int vfd, const char *rel, struct lz_err *err)
{
	struct lz_buf name = LZ_BUF_INIT;
	char *target = NULL, from[64], to[64];
	struct stat ss, ts;
	size_t n = strlen(rel);
	int isdir = rel[n - 1] == '/', src = -1, dst = -1, rc = 0;
	int flags = O_PATH | (isdir ? O_DIRECTORY : 0);

	lz_view_storage_name(&name, rel);
	target = lz_xstrndup(rel, n - (size_t)isdir);
	src = lz_open_beneath(sfd, name.buf, flags, 0);
	dst = lz_open_beneath(vfd, target, flags, 0);
	if (src < 0 || dst < 0 || fstat(src, &ss) != 0 || fstat(dst, &ts) !=
	    0 || (ss.st_mode & S_IFMT) != (ts.st_mode & S_IFMT)) {
		rc = lz_err_set(err, LZ_EUNSAFE, "cannot isolate '%s': %s "
		    "(a symlink on the way, or not the same kind of file in "
		    "the workspace and in the Domain's storage)", target,
		    src < 0 || dst < 0 ? strerror(errno) : "kinds differ");
		goto out;
	}
	snprintf(from, sizeof from, "/proc/self/fd/%d", src);
	snprintf(to, sizeof to, "/proc/self/fd/%d", dst);
	if (mount(from, to, NULL, MS_BIND, NULL) != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot bind the Ignored "
		    "Workspace State of '%s': %s", target, strerror(errno));
out:
	if (src >= 0)
		close(src);
	if (dst >= 0)
		close(dst);
	free(target);
	lz_buf_release(&name);
	return rc;
}

int
lz_view_mount(const struct lz_view *v, const struct lz_tokens *rels,
    size_t *n, struct lz_err *err)
{
	struct lz_err undo = LZ_ERR_INIT;
	size_t i, k;
	int vfd = -1, sfd = -1, rc;

	*n = 0;
	if ((rc = lz_view_umount(v->view, &k, err)) != 0)
		return rc;
	if (mount(v->workspace, v->view, NULL, MS_BIND | MS_REC, NULL) != 0)
		return lz_err_set(err, LZ_ESYS, "cannot bind the workspace "
		    "'%s' on '%s': %s", v->workspace, v->view,
		    strerror(errno));
	vfd = open(v->view, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	sfd = open(v->storage, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (vfd < 0 || sfd < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s", vfd < 0 ?
		    v->view : v->storage, strerror(errno));
		goto out;
	}
	for (i = 0; i < rels->n; i++) {
		if ((rc = bind_one(sfd, vfd, rels->v[i], err)) != 0)
			goto out;
		(*n)++;
	}
out:
	if (vfd >= 0)
		close(vfd);
	if (sfd >= 0)
		close(sfd);
	if (rc != 0)
		(void)lz_view_umount(v->view, &k, &undo);
	lz_err_release(&undo);
	return rc;
}

static int
at_or_beneath(const char *path, const char *dir)
{
	return lz_path_beneath(path, dir);
}

int
lz_view_umount(const char *view, size_t *n, struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	const struct lz_mountinfo_entry *top;
	char real[PATH_MAX];
	size_t i;
	int rc = 0, round;

	*n = 0;
	if (realpath(view, real) == NULL)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS, "cannot "
		    "resolve '%s': %s", view, strerror(errno));
	/* Detaching the view's top mount takes its binds along; a mount
	 * beneath it with none at the view itself goes on its own. */
	for (round = 0; round < UMOUNT_ROUNDS; round++) {
		lz_mountinfo_release(&mi);
		if ((rc = lz_mountinfo_read(&mi, err)) != 0)
			goto out;
		if ((top = lz_mountinfo_top(&mi, real)) == NULL) {
			for (i = mi.n; i > 0 && top == NULL; i--) {
				if (at_or_beneath(mi.v[i - 1].mountpoint, real))
					top = &mi.v[i - 1];
			}
		}
		if (top == NULL)
			goto out;
		if (umount2(top->mountpoint, MNT_DETACH | UMOUNT_NOFOLLOW) !=
		    0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot unmount '%s': %s",
			    top->mountpoint, strerror(errno));
			goto out;
		}
		(*n)++;
	}
	rc = lz_err_set(err, LZ_ESYS, "'%s' is still mounted after %d "
	    "unmounts", real, UMOUNT_ROUNDS);
out:
	lz_mountinfo_release(&mi);
	return rc;
}
