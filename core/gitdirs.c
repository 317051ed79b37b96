/*
 * gitdirs.c: the git directories Git Sentry looks after (gitdirs.h), read
 * with lstat, never following a symlink.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/gitdirs.h"
#include "core/pathcheck.h"

#define DEPTH_MAX 16

static void gd_add(struct lz_gitdirs *out, const char *path,
    enum lz_gitdir_kind kind, int census);
static int gd_repo(struct lz_gitdirs *out, const char *dir, int census,
    int depth, struct lz_err *err);
static int gd_modules(struct lz_gitdirs *out, const char *dir, int census,
    int depth, struct lz_err *err);
static int gd_worktrees(struct lz_gitdirs *out, const char *dir, int census,
    struct lz_err *err);

static void
gd_add(struct lz_gitdirs *out, const char *path, enum lz_gitdir_kind kind,
    int census)
{
	out->v = lz_xgrow(out->v, out->n + 1, &out->alloc, sizeof *out->v);
	out->v[out->n].path = lz_xstrdup(path);
	out->v[out->n].kind = kind;
	out->v[out->n++].census = census;
}

/* A repository's git directory, then its submodules and worktrees. */
static int
gd_repo(struct lz_gitdirs *out, const char *dir, int census, int depth,
    struct lz_err *err)
{
	char *p = lz_xasprintf("%s/modules", dir);
	int rc;

	gd_add(out, dir, LZ_GITDIR_REPO, census);
	rc = gd_modules(out, p, census, depth, err);
	if (rc == 0)
		rc = gd_worktrees(out, dir, census, err);
	free(p);
	return rc;
}

/*
 * The gitdirs in dir (a modules/ directory or one inside it, for names
 * with '/'): a directory with HEAD and config is one.
 */
static int
gd_modules(struct lz_gitdirs *out, const char *dir, int census, int depth,
    struct lz_err *err)
{
	struct dirent **names = NULL;
	char *sub, *head, *config;
	int i, n, rc = 0, k, kh, kc;

	if ((k = lz_lstat_kind(dir, err)) <= 0)
		return k;
	if (k != 'd')
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory "
		    "(a symlink?); Git Sentry refuses to mount over it", dir);
	if (depth > DEPTH_MAX)
		return lz_err_set(err, LZ_EINVAL, "submodules nested deeper "
		    "than %d levels under '%s'", DEPTH_MAX, dir);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", dir,
		    strerror(errno));
	for (i = 0; i < n; i++) {
		if (rc != 0 || strcmp(names[i]->d_name, ".") == 0 ||
		    strcmp(names[i]->d_name, "..") == 0)
			continue;
		sub = lz_xasprintf("%s/%s", dir, names[i]->d_name);
		if ((k = lz_lstat_kind(sub, err)) == 'd') {
			head = lz_xasprintf("%s/HEAD", sub);
			config = lz_xasprintf("%s/config", sub);
			kh = lz_lstat_kind(head, err);
			kc = lz_lstat_kind(config, err);
			if (kh < 0 || kc < 0)
				rc = kh < 0 ? kh : kc;
			else if (kh == 'f' && kc == 'f')
				rc = gd_repo(out, sub, census, depth + 1, err);
			else
				rc = gd_modules(out, sub, census, depth + 1,
				    err);
			free(head);
			free(config);
		} else if (k < 0)
			rc = k;
		free(sub);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The administrative directories of dir/worktrees. */
static int
gd_worktrees(struct lz_gitdirs *out, const char *dir, int census,
    struct lz_err *err)
{
	struct dirent **names = NULL;
	char *wt = lz_xasprintf("%s/worktrees", dir), *sub, *cd;
	int i, n = 0, rc = 0, k;

	if ((k = lz_lstat_kind(wt, err)) <= 0) {
		rc = k;
		goto out;
	}
	if (k != 'd') {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory (a "
		    "symlink?); Git Sentry refuses to mount over it", wt);
		goto out;
	}
	if ((n = scandir(wt, &names, NULL, alphasort)) < 0) {
		n = 0;
		rc = lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", wt,
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (names[i]->d_name[0] == '.')
			continue;
		sub = lz_xasprintf("%s/%s", wt, names[i]->d_name);
		cd = lz_xasprintf("%s/commondir", sub);
		if ((k = lz_lstat_kind(sub, err)) == 'd' &&
		    (k = lz_lstat_kind(cd, err)) == 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "'%s' has no "
			    "commondir: host git would read it as a "
			    "repository of its own, which the sandbox could "
			    "fill; run 'git worktree prune' or remove it (or "
			    "write '../..' into '%s')", sub, cd);
		else if (k > 0)
			gd_add(out, sub, LZ_GITDIR_ADMIN, census);
		else
			rc = k;
		free(cd);
		free(sub);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(wt);
	return rc;
}

int
lz_gitdirs_list(const char *workspace, const struct lz_repos *census,
    struct lz_gitdirs *out, struct lz_err *err)
{
	const struct lz_repo *e;
	char *p = lz_xasprintf("%s/.git", workspace);
	size_t i;
	int rc;

	rc = gd_repo(out, p, 0, 0, err);
	for (i = 0; rc == 0 && census != NULL && i < census->n; i++) {
		e = &census->v[i];
		free(p);
		p = lz_xasprintf("%s/%s", workspace, e->path);
		if (e->kind == LZ_REPO_DOTGIT_FILE)
			gd_add(out, p, LZ_GITDIR_FILE, 1);
		else if (e->kind == LZ_REPO_DOTGIT_DIR && !e->valid)
			gd_add(out, p, LZ_GITDIR_OPAQUE, 1);
		else if (e->kind == LZ_REPO_DOTGIT_OTHER)
			;	/* followed by git; a new one is moved */
		else if (e->commondir)
			gd_add(out, p, LZ_GITDIR_ADMIN, 1);
		else
			rc = gd_repo(out, p, 1, 0, err);
	}
	free(p);
	return rc;
}

void
lz_gitdirs_release(struct lz_gitdirs *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].path);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}
