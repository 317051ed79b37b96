/*
 * gitsentry.c: planning the Git Sentry mounts of gitsentry.h. Reads the
 * repository's layout with lstat (never following a symlink) and its
 * effective core.hooksPath with libgit2. The mounts themselves are the
 * runtime's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "core/commondir.h"
#include "core/domain.h"
#include "core/gitlinks.h"
#include "core/gitsentry.h"
#include "core/pathcheck.h"

#define GS_WHY "Git Sentry (SR-4): "
#define GS_DEPTH_MAX 16

struct gs {
	struct lz_mountplan *mp;
	const char *ws;
	size_t wslen;
};

static const char *gs_rel(struct gs *g, const char *path);
static void gs_bind(struct gs *g, const char *path, int ro, const char *why);
static void gs_tmpfs(struct gs *g, const char *path, const char *why);
static int gs_kind(const char *path, struct lz_err *err);
static int gs_ensure_dir(const char *path, struct lz_err *err);
static int gs_ensure_file(const char *path, struct lz_err *err);
static int gs_gitdir(struct gs *g, const char *dir, int depth,
    struct lz_err *err);
static int gs_modules(struct gs *g, const char *dir, int depth,
    struct lz_err *err);
static int gs_scan(struct gs *g, const char *dir, int depth,
    struct lz_err *err);
static int gs_worktrees(struct gs *g, const char *git, struct lz_err *err);
static int gs_gitlinks(struct gs *g, struct lz_err *err);
static int gs_hookspath(struct gs *g, int trust, struct lz_buf *warnings,
    struct lz_err *err);
static char *gs_normalise(const char *path);

/* What lstat says: 'd' directory, 'f' regular file, 'l' other, 0 absent. */
static int
gs_kind(const char *path, struct lz_err *err)
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

static const char *
gs_rel(struct gs *g, const char *path)
{
	if (strncmp(path, g->ws, g->wslen) != 0 || path[g->wslen] != '/')
		LZ_BUG("'%s' is not beneath '%s'", path, g->ws);
	return path + g->wslen + 1;
}

static void
gs_bind(struct gs *g, const char *path, int ro, const char *why)
{
	char *target = lz_xasprintf("/workspace/%s", gs_rel(g, path));

	lz_mountplan_add(g->mp, LZ_MOUNT_BIND, path, target, ro, why);
	free(target);
}

static void
gs_tmpfs(struct gs *g, const char *path, const char *why)
{
	char *target = lz_xasprintf("/workspace/%s", gs_rel(g, path));

	lz_mountplan_add(g->mp, LZ_MOUNT_TMPFS, NULL, target, 0, why);
	free(target);
}

/* A directory at path, made 0755 if absent; anything else is refused. */
static int
gs_ensure_dir(const char *path, struct lz_err *err)
{
	int k = gs_kind(path, err);

	if (k < 0)
		return k;
	if (k == 0) {
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return lz_err_set(err, LZ_ESYS, "cannot create '%s': "
			    "%s", path, strerror(errno));
		k = gs_kind(path, err);
		if (k < 0)
			return k;
	}
	if (k != 'd')
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory "
		    "(a symlink?); Git Sentry refuses to mount over it", path);
	return 0;
}

/* A regular file at path, made empty (0644) if absent. */
static int
gs_ensure_file(const char *path, struct lz_err *err)
{
	int fd, k = gs_kind(path, err);

	if (k < 0)
		return k;
	if (k == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return lz_err_set(err, LZ_ESYS, "cannot create '%s': "
			    "%s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		k = gs_kind(path, err);
		if (k < 0)
			return k;
	}
	if (k != 'f')
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a regular "
		    "file (a symlink?); Git Sentry refuses to mount over it",
		    path);
	return 0;
}

/* The mounts of one submodule gitdir, then of its own modules/. */
static int
gs_gitdir(struct gs *g, const char *dir, int depth, struct lz_err *err)
{
	char *config = lz_xasprintf("%s/config", dir);
	char *hooks = lz_xasprintf("%s/hooks", dir);
	char *modules = lz_xasprintf("%s/modules", dir);
	int rc;

	gs_bind(g, dir, 0, GS_WHY "submodule gitdir bound over itself");
	if ((rc = gs_ensure_file(config, err)) != 0)
		goto out;
	gs_bind(g, config, 1, GS_WHY "submodule config read-only");
	if ((rc = gs_ensure_dir(hooks, err)) != 0)
		goto out;
	gs_tmpfs(g, hooks, GS_WHY "submodule hooks hidden");
	rc = gs_modules(g, modules, depth + 1, err);
out:
	free(config);
	free(hooks);
	free(modules);
	return rc;
}

/*
 * dir is a modules/ directory (or a directory inside one, for submodule
 * names with '/'): bound read-only so no gitdir can be created in it, then
 * every gitdir below it bound writable on top.
 */
static int
gs_modules(struct gs *g, const char *dir, int depth, struct lz_err *err)
{
	int rc;

	if ((rc = gs_ensure_dir(dir, err)) != 0)
		return rc;
	gs_bind(g, dir, 1, GS_WHY "no new submodule gitdirs");
	return gs_scan(g, dir, depth, err);
}

/* Finds the gitdirs in dir: a directory with HEAD and config is one. */
static int
gs_scan(struct gs *g, const char *dir, int depth, struct lz_err *err)
{
	struct dirent **names = NULL;
	char *sub = NULL, *head = NULL, *config = NULL;
	int i, n = 0, rc = 0, kh, kc;

	if (depth > GS_DEPTH_MAX)
		return lz_err_set(err, LZ_EINVAL, "submodules nested deeper "
		    "than %d levels under '%s'", GS_DEPTH_MAX, dir);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", dir,
		    strerror(errno));
	for (i = 0; i < n && rc == 0; i++) {
		if (strcmp(names[i]->d_name, ".") == 0 ||
		    strcmp(names[i]->d_name, "..") == 0)
			continue;
		sub = lz_xasprintf("%s/%s", dir, names[i]->d_name);
		if ((rc = gs_kind(sub, err)) < 0)
			break;
		if (rc != 'd') {
			rc = 0;
			free(sub);
			sub = NULL;
			continue;
		}
		head = lz_xasprintf("%s/HEAD", sub);
		config = lz_xasprintf("%s/config", sub);
		kh = gs_kind(head, err);
		kc = gs_kind(config, err);
		if (kh < 0 || kc < 0)
			rc = kh < 0 ? kh : kc;
		else if (kh == 'f' && kc == 'f')
			rc = gs_gitdir(g, sub, depth, err);
		else
			rc = gs_scan(g, sub, depth + 1, err);
		free(head);
		free(config);
		free(sub);
		head = config = sub = NULL;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* W/.git/worktrees read-only, each worktree's gitdir writable on top. */
static int
gs_worktrees(struct gs *g, const char *git, struct lz_err *err)
{
	struct dirent **names = NULL;
	char *dir = lz_xasprintf("%s/worktrees", git), *sub = NULL, *f = NULL;
	int i, n = 0, rc, k;

	if ((rc = gs_kind(dir, err)) <= 0)
		goto out;
	if (rc != 'd') {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory (a "
		    "symlink?); Git Sentry refuses to mount over it", dir);
		goto out;
	}
	rc = 0;
	gs_bind(g, dir, 1, GS_WHY "no new worktree gitdirs");
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", dir,
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (names[i]->d_name[0] == '.')
			continue;
		sub = lz_xasprintf("%s/%s", dir, names[i]->d_name);
		if ((k = gs_kind(sub, err)) == 'd') {
			gs_bind(g, sub, 0, GS_WHY "worktree gitdir bound over "
			    "itself");
			f = lz_xasprintf("%s/commondir", sub);
			if ((k = gs_kind(f, err)) == 'f')
				gs_bind(g, f, 1, GS_WHY "worktree commondir "
				    "read-only");
			free(f);
			f = lz_xasprintf("%s/config.worktree", sub);
			if (k >= 0 && (k = gs_kind(f, err)) == 'f')
				gs_bind(g, f, 1, GS_WHY "worktree config "
				    "read-only");
			free(f);
			f = NULL;
		}
		if (k < 0)
			rc = k;
		free(sub);
		sub = NULL;
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return rc;
}

/* Lexical normalisation of an absolute path: no "//", "." or "..". */
static char *
gs_normalise(const char *path)
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

/*
 * The repositories under the index's gitlinks (gitlinks.h): an embedded
 * .git directory like the main one (bound over itself, config read-only,
 * hooks hidden), a .git file bound read-only over itself (its gitdir in
 * .git/modules is covered above).
 */
static int
gs_gitlinks(struct gs *g, struct lz_err *err)
{
	struct lz_gitlinks gl = LZ_GITLINKS_INIT;
	char *dotgit, *p;
	size_t i;
	int rc;

	if ((rc = lz_gitlinks_scan(g->ws, &gl, err)) != 0)
		return rc;
	for (i = 0; rc == 0 && i < gl.n; i++) {
		dotgit = lz_xasprintf("%s/%s/.git", g->ws, gl.v[i].path);
		if (gl.v[i].kind == 'f')
			gs_bind(g, dotgit, 1, GS_WHY "gitlink's .git file "
			    "read-only");
		else if (gl.v[i].kind == 'd') {
			gs_bind(g, dotgit, 0, GS_WHY "gitlink's .git bound over "
			    "itself");
			p = lz_xasprintf("%s/config", dotgit);
			if ((rc = gs_ensure_file(p, err)) == 0)
				gs_bind(g, p, 1, GS_WHY "gitlink's repository "
				    "config read-only");
			free(p);
			p = lz_xasprintf("%s/hooks", dotgit);
			if (rc == 0 && (rc = gs_ensure_dir(p, err)) == 0)
				gs_tmpfs(g, p, GS_WHY "gitlink's hooks hidden");
			free(p);
		}
		free(dotgit);
	}
	lz_gitlinks_release(&gl);
	return rc;
}

/* The effective core.hooksPath; hidden when it lies inside W. */
static int
gs_hookspath(struct gs *g, int trust, struct lz_buf *warnings,
    struct lz_err *err)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf value = { NULL, 0, 0 };
	char *abs = NULL, *norm = NULL, *real = NULL, *path;
	const git_error *ge;
	int rc = 0, grc;

	if (git_repository_open(&repo, g->ws) != 0 ||
	    git_repository_config_snapshot(&cfg, repo) != 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot read the Git config "
		    "of '%s': %s", g->ws, ge != NULL ? ge->message :
		    "unknown libgit2 error");
		goto out;
	}
	/* get_path expands a leading "~/" as git does. */
	grc = git_config_get_path(&value, cfg, "core.hooksPath");
	if (grc == GIT_ENOTFOUND)
		goto out;
	if (grc != 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot read core.hooksPath "
		    "of '%s': %s", g->ws, ge != NULL ? ge->message : "?");
		goto out;
	}
	if (value.ptr == NULL || value.ptr[0] == '\0')
		goto out;
	if (value.ptr[0] == '/')
		abs = lz_xstrdup(value.ptr);
	else
		abs = lz_xasprintf("%s/%s", g->ws, value.ptr);
	norm = gs_normalise(abs);
	/* Resolve symlinks when it exists: a link out of W hides nothing. */
	real = realpath(norm, NULL);
	path = real != NULL ? real : norm;
	if (!lz_path_beneath(path, g->ws))
		goto out;
	if (strcmp(path, g->ws) == 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "core.hooksPath '%s' is the "
		    "workspace itself; point it at a directory of hooks",
		    value.ptr);
		goto out;
	}
	lz_buf_addf(warnings, "core.hooksPath '%s' lies inside the "
	    "workspace; its hooks are workspace content the sandbox can "
	    "change: %s\n", value.ptr, trust ? "kept visible because the "
	    "profile sets trust-hooks-path = yes" : "hidden from the sandbox "
	    "(set trust-hooks-path = yes in the profile to keep them)");
	if (!trust) {
		if ((rc = gs_ensure_dir(path, err)) != 0)
			goto out;
		gs_tmpfs(g, path, GS_WHY "core.hooksPath inside the workspace "
		    "hidden");
	}
out:
	git_buf_dispose(&value);
	git_config_free(cfg);
	git_repository_free(repo);
	free(abs);
	free(norm);
	free(real);
	return rc;
}

int
lz_gitsentry_plan(struct lz_mountplan *mp, const char *workspace,
    int trust_hooks_path, struct lz_buf *warnings, struct lz_err *err)
{
	struct gs g = { mp, workspace, strlen(workspace) };
	char *git = lz_xasprintf("%s/.git", workspace), *p = NULL;
	int rc, k;

	lz_git_init();
	if ((k = gs_kind(git, err)) < 0) {
		rc = k;
		goto out;
	}
	if (k == 'f') {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is a file: a linked "
		    "worktree or a submodule checkout, which Lazaret does not "
		    "support as a workspace yet; run Lazaret in the main work "
		    "tree", git);
		goto out;
	}
	if (k != 'd') {
		rc = lz_err_set(err, k == 0 ? LZ_ENOTFOUND : LZ_EUNSAFE,
		    "'%s' is %s; Git Sentry needs the repository's own .git "
		    "directory", git, k == 0 ? "missing" : "not a directory");
		goto out;
	}
	/*
	 * A main repository has no "commondir": one there sends host Git to
	 * another directory's config and hooks (a sandbox can create it in
	 * the shared .git). Refuse to start over it rather than guess.
	 */
	p = lz_xasprintf("%s/commondir", git);
	if (access(p, F_OK) == 0 || errno != ENOENT) {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' exists: it would send "
		    "host Git to another directory's config and hooks (a "
		    "sandbox may have written it); check it, remove it, and "
		    "run again", p);
		goto out;
	}
	free(p);
	p = NULL;
	lz_commondir_warn(git, warnings);
	gs_bind(&g, git, 0, GS_WHY ".git bound over itself so it cannot be "
	    "renamed away");
	p = lz_xasprintf("%s/config", git);
	if ((rc = gs_ensure_file(p, err)) != 0)
		goto out;
	gs_bind(&g, p, 1, GS_WHY "repository config read-only");
	free(p);
	p = lz_xasprintf("%s/hooks", git);
	if ((rc = gs_ensure_dir(p, err)) != 0)
		goto out;
	gs_tmpfs(&g, p, GS_WHY "host hooks hidden");
	free(p);
	p = lz_xasprintf("%s/modules", git);
	if ((rc = gs_modules(&g, p, 0, err)) != 0)
		goto out;
	if ((rc = gs_worktrees(&g, git, err)) != 0)
		goto out;
	if ((rc = gs_gitlinks(&g, err)) != 0)
		goto out;
	rc = gs_hookspath(&g, trust_hooks_path, warnings, err);
out:
	free(p);
	free(git);
	return rc;
}
