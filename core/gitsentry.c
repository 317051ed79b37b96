/*
 * gitsentry.c: planning the Git Sentry mounts of gitsentry.h. Reads the
 * repositories' layout with lstat (never following a symlink), the
 * configuration files with host git (gitconfig.h), each repository's
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

#include "core/domain.h"
#include "core/gitconfig.h"
#include "core/gitsentry.h"
#include "core/pathcheck.h"
#include "core/protect.h"

#define GS_WHY "Git Sentry (SR-4): "
#define GS_DEPTH_MAX 16

struct gs {
	struct lz_mountplan tmp;	/* sorted by depth into the plan */
	const char *ws;
	size_t wslen;
	int wsfd;
	const struct lz_profile *p;
	const struct lz_tokens *isolated;
	struct lz_buf *warnings;
	struct lz_tokens configs;	/* repositories' config files */
};

static const char *gs_rel(struct gs *g, const char *path);
static int gs_has(struct gs *g, const char *rel);
static int gs_hidden(struct gs *g, const char *rel);
static void gs_bind(struct gs *g, const char *path, int ro, const char *why);
static void gs_tmpfs(struct gs *g, const char *path, const char *why);
static int gs_kind(const char *path, struct lz_err *err);
static int gs_ensure_dir(const char *path, struct lz_err *err);
static int gs_ensure_file(struct gs *g, const char *path, struct lz_err *err);
static void gd_add(struct lz_gitdirs *out, const char *path,
    enum lz_gitdir_kind kind, int census);
static int gd_repo(struct lz_gitdirs *out, const char *dir, int census,
    int depth, struct lz_err *err);
static int gd_modules(struct lz_gitdirs *out, const char *dir, int census,
    int depth, struct lz_err *err);
static int gd_worktrees(struct lz_gitdirs *out, const char *dir, int census,
    struct lz_err *err);
static int gs_repo(struct gs *g, const char *dir, int main,
    struct lz_err *err);
static int gs_admin(struct gs *g, const char *dir, struct lz_err *err);
static int gs_hookspath(struct gs *g, const char *dir, int main,
    struct lz_err *err);
static int gs_file(struct gs *g, const char *rel, int ro, const char *why,
    struct lz_err *err);
static int gs_configs(struct gs *g, struct lz_err *err);
static int gs_protect(struct gs *g, const struct lz_tokens *patterns,
    const char *why, const char *fix, struct lz_err *err);
static int gs_host_tools(struct gs *g, struct lz_err *err);
static int hooks_path(const char *open_path, const char *dir, char **value,
    char **abs, struct lz_err *err);
static void hook_dir(const char *dir, struct lz_tokens *patterns);
static int gs_main(const char *git, struct lz_err *err);
static size_t depth(const char *s);
static void gs_sort(struct gs *g, struct lz_mountplan *mp);

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

/* 1 when the plan already mounts something at rel. */
static int
gs_has(struct gs *g, const char *rel)
{
	size_t i;

	for (i = 0; i < g->tmp.n; i++) {
		if (strcmp(g->tmp.v[i].target + strlen("/workspace/"),
		    rel) == 0)
			return 1;
	}
	return 0;
}

/* 1 when the sandbox cannot see the host's rel: a tmpfs or isolated. */
static int
gs_hidden(struct gs *g, const char *rel)
{
	const char *t;
	size_t i;

	for (i = 0; i < g->tmp.n; i++) {
		t = g->tmp.v[i].target + strlen("/workspace/");
		if (g->tmp.v[i].kind == LZ_MOUNT_TMPFS &&
		    strncmp(rel, t, strlen(t)) == 0 &&
		    (rel[strlen(t)] == '\0' || rel[strlen(t)] == '/'))
			return 1;
	}
	return lz_path_listed(g->isolated, rel);
}

static void
gs_bind(struct gs *g, const char *path, int ro, const char *why)
{
	char *target = lz_xasprintf("/workspace/%s", gs_rel(g, path));

	lz_mountplan_add(&g->tmp, LZ_MOUNT_BIND, path, target, ro, why);
	free(target);
}

static void
gs_tmpfs(struct gs *g, const char *path, const char *why)
{
	char *target = lz_xasprintf("/workspace/%s", gs_rel(g, path));

	lz_mountplan_add(&g->tmp, LZ_MOUNT_TMPFS, NULL, target, 0, why);
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

/*
 * A regular file at path that host git may read as configuration, made
 * empty (0644) if absent; one that is not a readable regular file of
 * sane size is refused (lz_protect_inspect).
 */
static int
gs_ensure_file(struct gs *g, const char *path, struct lz_err *err)
{
	int fd, k;

	k = lz_protect_inspect(g->wsfd, g->ws, gs_rel(g, path), 1, "check "
	    "it (a sandbox may have made it), replace it with a regular file "
	    "or remove it, and run again", g->warnings, err);
	if (k != 0)
		return k < 0 ? k : 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0644);
	if (fd < 0 && errno != EEXIST)
		return lz_err_set(err, LZ_ESYS, "cannot create '%s': %s", path,
		    strerror(errno));
	if (fd >= 0)
		close(fd);
	k = lz_protect_inspect(g->wsfd, g->ws, gs_rel(g, path), 1, "check "
	    "it and run again", g->warnings, err);
	return k < 0 ? k : 0;
}

static void
gd_add(struct lz_gitdirs *out, const char *path, enum lz_gitdir_kind kind,
    int census)
{
	out->v = lz_xreallocarray(out->v, out->n + 1, sizeof *out->v);
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

	if ((k = gs_kind(dir, err)) <= 0)
		return k;
	if (k != 'd')
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory "
		    "(a symlink?); Git Sentry refuses to mount over it", dir);
	if (depth > GS_DEPTH_MAX)
		return lz_err_set(err, LZ_EINVAL, "submodules nested deeper "
		    "than %d levels under '%s'", GS_DEPTH_MAX, dir);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", dir,
		    strerror(errno));
	for (i = 0; i < n; i++) {
		if (rc != 0 || strcmp(names[i]->d_name, ".") == 0 ||
		    strcmp(names[i]->d_name, "..") == 0)
			continue;
		sub = lz_xasprintf("%s/%s", dir, names[i]->d_name);
		if ((k = gs_kind(sub, err)) == 'd') {
			head = lz_xasprintf("%s/HEAD", sub);
			config = lz_xasprintf("%s/config", sub);
			kh = gs_kind(head, err);
			kc = gs_kind(config, err);
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

	if ((k = gs_kind(wt, err)) <= 0) {
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
		if ((k = gs_kind(sub, err)) == 'd' &&
		    (k = gs_kind(cd, err)) == 0)
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
lz_gitsentry_gitdirs(const char *workspace, const struct lz_repos *census,
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
lz_gitsentry_gitdirs_release(struct lz_gitdirs *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].path);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

/* The mounts of one repository's git directory (see gitsentry.h). */
static int
gs_repo(struct gs *g, const char *dir, int main, struct lz_err *err)
{
	char *p = lz_xasprintf("%s/commondir", dir);
	int rc = 0;

	/*
	 * A repository has no "commondir": one there sends host Git to
	 * another directory's config and hooks (a sandbox can create it).
	 * Refuse to start over it rather than guess.
	 */
	if (access(p, F_OK) == 0 || errno != ENOENT) {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' exists: it would send "
		    "host Git to another directory's config and hooks (a "
		    "sandbox may have written it); check it, remove it, and "
		    "run again", p);
		goto out;
	}
	gs_bind(g, dir, 0, main ? GS_WHY ".git bound over itself so it "
	    "cannot be renamed away" : GS_WHY "git directory bound over "
	    "itself");
	free(p);
	p = lz_xasprintf("%s/config", dir);
	if ((rc = gs_ensure_file(g, p, err)) != 0)
		goto out;
	gs_bind(g, p, 1, GS_WHY "repository config read-only");
	lz_tokens_push(&g->configs, p);
	free(p);
	p = lz_xasprintf("%s/config.worktree", dir);
	if ((rc = gs_ensure_file(g, p, err)) != 0)
		goto out;
	gs_bind(g, p, 1, GS_WHY "worktree config read-only (read once "
	    "extensions.worktreeConfig is on)");
	lz_tokens_push(&g->configs, p);
	free(p);
	p = lz_xasprintf("%s/hooks", dir);
	if ((rc = gs_ensure_dir(p, err)) != 0)
		goto out;
	gs_tmpfs(g, p, GS_WHY "hooks hidden");
	free(p);
	p = lz_xasprintf("%s/modules", dir);
	if ((rc = gs_ensure_dir(p, err)) != 0)
		goto out;
	gs_bind(g, p, 1, GS_WHY "no new submodule gitdirs");
	free(p);
	p = lz_xasprintf("%s/worktrees", dir);
	if ((rc = gs_ensure_dir(p, err)) != 0)
		goto out;
	gs_bind(g, p, 1, GS_WHY "no new worktrees");
	rc = gs_hookspath(g, dir, main, err);
out:
	free(p);
	return rc;
}

/* The mounts of one worktree's administrative directory. */
static int
gs_admin(struct gs *g, const char *dir, struct lz_err *err)
{
	static const char *const names[] = { "commondir", "gitdir" };
	char *p = NULL;
	size_t i;
	int rc = 0, k;

	gs_bind(g, dir, 0, GS_WHY "worktree directory bound over itself");
	for (i = 0; i < 2 && rc == 0; i++) {
		free(p);
		p = lz_xasprintf("%s/%s", dir, names[i]);
		k = lz_protect_inspect(g->wsfd, g->ws, gs_rel(g, p), 1, "check "
		    "it (a sandbox may have made it); 'git worktree repair' "
		    "rewrites it", g->warnings, err);
		if (k < 0)
			rc = k;
		else if (k > 0)
			gs_bind(g, p, 1, i == 0 ? GS_WHY "worktree commondir "
			    "read-only" : GS_WHY "worktree gitdir read-only");
	}
	free(p);
	p = lz_xasprintf("%s/config.worktree", dir);
	if (rc == 0 && (rc = gs_ensure_file(g, p, err)) == 0) {
		gs_bind(g, p, 1, GS_WHY "worktree config read-only");
		lz_tokens_push(&g->configs, p);
	}
	free(p);
	return rc;
}

/*
 * The effective core.hooksPath of the repository libgit2 opens at
 * open_path (dir: its git directory, the base of a relative value when it
 * has no work tree): *value as set and *abs absolute and normalised (both
 * allocated), or both NULL when unset. LZ_ENOTFOUND when libgit2 cannot
 * open it, with its message.
 */
static int
hooks_path(const char *open_path, const char *dir, char **value, char **abs,
    struct lz_err *err)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf v = { NULL, 0, 0 };
	const git_error *ge;
	const char *base;
	char *a;
	int rc = 0, grc;

	*value = *abs = NULL;
	lz_git_init();
	if (git_repository_open(&repo, open_path) != 0 ||
	    git_repository_config_snapshot(&cfg, repo) != 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_ENOTFOUND, "cannot read the Git config "
		    "of '%s': %s", open_path, ge != NULL ? ge->message :
		    "unknown libgit2 error");
		goto out;
	}
	/* get_path expands a leading "~/" as git does. */
	grc = git_config_get_path(&v, cfg, "core.hooksPath");
	if (grc != 0 && grc != GIT_ENOTFOUND) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot read core.hooksPath "
		    "of '%s': %s", dir, ge != NULL ? ge->message : "?");
		goto out;
	}
	if (grc != 0 || v.ptr == NULL || v.ptr[0] == '\0')
		goto out;
	/* Relative to where hooks run: the work tree, else the gitdir. */
	base = git_repository_workdir(repo);
	a = v.ptr[0] == '/' ? lz_xstrdup(v.ptr) : lz_xasprintf("%s/%s",
	    base != NULL ? base : dir, v.ptr);
	*abs = lz_path_normalise(a);
	*value = lz_xstrdup(v.ptr);
	free(a);
out:
	git_buf_dispose(&v);
	git_config_free(cfg);
	git_repository_free(repo);
	return rc;
}

/* The effective core.hooksPath of the repository at dir; hidden in W. */
static int
gs_hookspath(struct gs *g, const char *dir, int main, struct lz_err *err)
{
	struct lz_err sub = LZ_ERR_INIT;
	char *value = NULL, *abs = NULL, *real = NULL, *path;
	int rc;

	rc = hooks_path(main ? g->ws : dir, dir, &value, &abs, &sub);
	if (rc == LZ_ENOTFOUND && !main) {
		/* Another repository's: its config is read-only anyway. */
		lz_buf_addf(g->warnings, "%s: its core.hooksPath is not "
		    "checked (SR-4)\n", sub.msg);
		rc = 0;
		goto out;
	}
	if (rc != 0) {
		rc = lz_err_set(err, rc == LZ_ENOTFOUND ? LZ_EINVAL : rc, "%s",
		    sub.msg);
		goto out;
	}
	if (abs == NULL)
		goto out;
	/* Resolve symlinks when it exists: a link out of W hides nothing. */
	real = realpath(abs, NULL);
	path = real != NULL ? real : abs;
	if (!lz_path_beneath(path, g->ws))
		goto out;
	if (strcmp(path, g->ws) == 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "core.hooksPath '%s' is the "
		    "workspace itself; point it at a directory of hooks",
		    value);
		goto out;
	}
	if (gs_has(g, gs_rel(g, path)))
		goto out;	/* another repository's, already hidden */
	lz_buf_addf(g->warnings, "core.hooksPath '%s' lies inside the "
	    "workspace; its hooks are workspace content the sandbox can "
	    "change: %s\n", value, g->p->trust_hooks_path ? "kept "
	    "visible because the profile sets trust-hooks-path = yes" :
	    "hidden from the sandbox (set trust-hooks-path = yes in the "
	    "profile to keep them)");
	if (!g->p->trust_hooks_path) {
		if ((rc = gs_ensure_dir(path, err)) != 0)
			goto out;
		gs_tmpfs(g, path, GS_WHY "core.hooksPath inside the workspace "
		    "hidden");
	}
out:
	lz_err_release(&sub);
	free(value);
	free(abs);
	free(real);
	return rc;
}

/*
 * Hook frameworks: a hook the host runs (in .git/hooks or the effective
 * core.hooksPath, read on the host) that hands over to a tool which runs
 * commands from a workspace file. The marker is what the framework's own
 * hook says; the files are where the tool reads its commands.
 */
static const struct {
	const char *marker;
	const char *files;
} frameworks[] = {
	{ "pre-commit.com", ".pre-commit-config.yaml" },
	{ "lefthook", "lefthook.yml lefthook.yaml lefthook.toml lefthook.json "
	    ".lefthook.yml .lefthook.yaml .lefthook.toml .lefthook.json "
	    "lefthook-local.yml lefthook-local.yaml .lefthook-local.yml "
	    ".lefthook-local.yaml .lefthook/*/* .lefthook-local/*/*" },
	{ "overcommit", ".overcommit.yml .git-hooks/*/*" },
	{ "lint-staged", ".lintstagedrc .lintstagedrc.json .lintstagedrc.yaml "
	    ".lintstagedrc.yml .lintstagedrc.js .lintstagedrc.cjs "
	    ".lintstagedrc.mjs lint-staged.config.js lint-staged.config.cjs "
	    "lint-staged.config.mjs" },
};
#define HOOK_READ_MAX (256 * 1024)

/* The frameworks the regular files in dir name, their files added. */
static void
hook_dir(const char *dir, struct lz_tokens *patterns)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct dirent *de;
	struct stat st;
	char buf[HOOK_READ_MAX + 1];
	ssize_t n;
	size_t i, j, len;
	DIR *d;
	int fd;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || (len > 7 &&
		    strcmp(de->d_name + len - 7, ".sample") == 0) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, HOOK_READ_MAX);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		for (i = 0; n > 0 && i < sizeof frameworks /
		    sizeof *frameworks; i++) {
			if (memmem(buf, (size_t)n, frameworks[i].marker,
			    strlen(frameworks[i].marker)) == NULL)
				continue;
			lz_tokens_release(&t);
			if (lz_tokens_split(frameworks[i].files, &t, NULL) != 0)
				LZ_BUG("bad framework file list");
			for (j = 0; j < t.n; j++)
				if (!lz_tokens_has(patterns, t.v[j]))
					lz_tokens_push(patterns, t.v[j]);
		}
	}
	closedir(d);
	lz_tokens_release(&t);
}

void
lz_gitsentry_hook_files(const char *workspace, struct lz_tokens *patterns)
{
	char *git = lz_xasprintf("%s/.git", workspace), *hooks, *value, *abs;

	hooks = lz_xasprintf("%s/hooks", git);
	hook_dir(hooks, patterns);
	if (hooks_path(workspace, git, &value, &abs, NULL) == 0 &&
	    abs != NULL)
		hook_dir(abs, patterns);
	free(value);
	free(abs);
	free(hooks);
	free(git);
}

/*
 * rel bound over itself (ro, or rw for a directory), after each directory
 * on its way is bound over itself rw: renaming one would carry the mount
 * away and leave the path to the sandbox. Each is checked to be a real
 * directory reached with no symlink.
 */
static int
gs_file(struct gs *g, const char *rel, int ro, const char *why,
    struct lz_err *err)
{
	char *dir = lz_xstrdup(rel), *slash, *path;
	int fd, rc = 0;

	for (slash = dir; rc == 0 && (slash = strchr(slash, '/')) != NULL;
	    *slash++ = '/') {
		*slash = '\0';
		if (gs_has(g, dir))
			continue;
		fd = lz_open_beneath(g->wsfd, dir, O_RDONLY | O_DIRECTORY, 0);
		if (fd < 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "'%s/%s' (on the way "
			    "to '%s') is not a directory reached without a "
			    "symbolic link: Git Sentry cannot pin it (SR-4)",
			    g->ws, dir, rel);
		else {
			close(fd);
			path = lz_xasprintf("%s/%s", g->ws, dir);
			gs_bind(g, path, 0, GS_WHY "directory of a protected "
			    "file bound over itself so it cannot be renamed "
			    "away");
			free(path);
		}
	}
	if (rc == 0 && !gs_has(g, rel)) {
		path = lz_xasprintf("%s/%s", g->ws, rel);
		gs_bind(g, path, ro, why);
		free(path);
	}
	free(dir);
	return rc;
}

/* Every configuration file in the workspace read-only (gitconfig.h). */
static int
gs_configs(struct gs *g, struct lz_err *err)
{
	struct lz_gitconfig_files files = LZ_GITCONFIG_FILES_INIT;
	const struct lz_gitconfig_file *f;
	char *fix = NULL;
	size_t i;
	int rc, k;

	rc = lz_gitconfig_list(g->ws, &g->configs, &files, err);
	for (i = 0; rc == 0 && i < files.n; i++) {
		f = &files.v[i];
		if (f->rel == NULL || gs_has(g, f->rel) ||
		    gs_hidden(g, f->rel))
			continue;
		if (lz_tokens_has(&g->p->trust_git_config, f->rel)) {
			lz_buf_addf(g->warnings, "'%s/%s' is %s (%s) that the "
			    "sandbox can change: left writable "
			    "because profile '%s' sets trust-git-config = "
			    "%s\n", g->ws, f->rel, f->program ? "a program "
			    "host git runs" : "Git configuration", f->why,
			    g->p->name, f->rel);
			continue;
		}
		free(fix);
		fix = lz_xasprintf("%s (%s); %s, or set 'trust-git-config = "
		    "%s' in profile '%s' to let the sandbox change it",
		    f->program ? "host git runs it" : "it is Git configuration",
		    f->why, f->exists ? "replace it with a regular file, or "
		    "change the Git configuration that names it" : "create it "
		    "(it may be empty) so Lazaret mounts it read-only, or "
		    "change the Git configuration that names it", f->rel,
		    g->p->name);
		k = lz_protect_inspect(g->wsfd, g->ws, f->rel, 1, fix,
		    g->warnings, err);
		if (k == 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "'%s/%s' does not "
			    "exist: the sandbox could create it and host git "
			    "would %s it (SR-4); %s", g->ws, f->rel,
			    f->program ? "run" : "read", fix);
		else if (k < 0)
			rc = k;
		else
			rc = gs_file(g, f->rel, 1, f->program ? GS_WHY "a "
			    "program Git configuration runs, read-only" :
			    GS_WHY "Git configuration file in the workspace "
			    "read-only", err);
	}
	free(fix);
	lz_gitconfig_release(&files);
	return rc;
}

/*
 * The files patterns names (protect.h): each existing one read-only;
 * why for its mount, fix for a refusal.
 */
static int
gs_protect(struct gs *g, const struct lz_tokens *patterns, const char *why,
    const char *fix, struct lz_err *err)
{
	struct lz_protect_set set = LZ_PROTECT_SET_INIT;
	size_t i;
	int rc = 0, k;

	lz_protect_expand(g->wsfd, patterns, g->isolated, &set);
	for (i = 0; rc == 0 && i < set.n; i++) {
		if (gs_hidden(g, set.v[i].path) || gs_has(g, set.v[i].path))
			continue;
		k = lz_protect_inspect(g->wsfd, g->ws, set.v[i].path, 0, fix,
		    g->warnings, err);
		if (k < 0)
			rc = k;
		else if (k > 0)
			rc = gs_file(g, set.v[i].path, 1, why, err);
	}
	lz_protect_release(&set);
	return rc;
}

/* The profile's protect list and the files the host's hooks read. */
static int
gs_host_tools(struct gs *g, struct lz_err *err)
{
	struct lz_tokens hooks = LZ_TOKENS_INIT;
	char *fix;
	int rc;

	fix = lz_xasprintf("replace it with a regular file or remove it, or "
	    "leave it out of 'protect' in profile '%s' (%s)", g->p->name,
	    g->p->protect_source);
	rc = gs_protect(g, &g->p->protect, GS_WHY "host tool file read-only "
	    "(protect)", fix, err);
	free(fix);
	lz_gitsentry_hook_files(g->ws, &hooks);
	if (rc == 0)
		rc = gs_protect(g, &hooks, GS_WHY "read by a hook the host "
		    "runs, read-only", "replace it with a regular file or "
		    "remove it (a hook the host runs reads it)", err);
	lz_tokens_release(&hooks);
	return rc;
}

/* The workspace's own .git: a directory, and no commondir. */
static int
gs_main(const char *git, struct lz_err *err)
{
	int k;

	if ((k = gs_kind(git, err)) < 0)
		return k;
	if (k == 'f')
		return lz_err_set(err, LZ_EINVAL, "'%s' is a file: a linked "
		    "worktree or a submodule checkout, which Lazaret does not "
		    "support as a workspace yet; run Lazaret in the main work "
		    "tree", git);
	if (k != 'd')
		return lz_err_set(err, k == 0 ? LZ_ENOTFOUND : LZ_EUNSAFE,
		    "'%s' is %s; Git Sentry needs the repository's own .git "
		    "directory", git, k == 0 ? "missing" : "not a directory");
	return 0;
}

/* Number of '/' in s: a mount's depth. */
static size_t
depth(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '/';
	return n;
}

/* g->tmp appended to mp, shallower targets first, in order otherwise. */
static void
gs_sort(struct gs *g, struct lz_mountplan *mp)
{
	struct lz_mount *m;
	size_t d, i, max = 0;

	for (i = 0; i < g->tmp.n; i++)
		if ((d = depth(g->tmp.v[i].target)) > max)
			max = d;
	for (d = 0; d <= max; d++) {
		for (i = 0; i < g->tmp.n; i++) {
			m = &g->tmp.v[i];
			if (depth(m->target) == d)
				lz_mountplan_add(mp, m->kind, m->source,
				    m->target, m->readonly, m->why);
		}
	}
}

int
lz_gitsentry_plan(struct lz_mountplan *mp, const char *workspace,
    const struct lz_profile *p, const struct lz_tokens *isolated,
    struct lz_buf *warnings, struct lz_err *err)
{
	struct lz_buf own = LZ_BUF_INIT;
	struct gs g;
	struct lz_repos census = LZ_REPOS_INIT;
	struct lz_gitdirs dirs = LZ_GITDIRS_INIT;
	char *git = lz_xasprintf("%s/.git", workspace);
	size_t i;
	int rc;

	memset(&g, 0, sizeof g);
	g.ws = workspace;
	g.wslen = strlen(workspace);
	g.p = p;
	g.isolated = isolated;
	g.warnings = warnings != NULL ? warnings : &own;
	lz_git_init();
	if ((rc = gs_main(git, err)) != 0)
		goto out;
	if ((g.wsfd = open(workspace, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
		goto out;
	}
	if ((rc = lz_repos_scan(workspace, isolated, &census, err)) != 0 ||
	    (rc = lz_gitsentry_gitdirs(workspace, &census, &dirs, err)) != 0)
		goto out;
	for (i = 0; rc == 0 && i < dirs.n; i++) {
		switch (dirs.v[i].kind) {
		case LZ_GITDIR_REPO:
			rc = gs_repo(&g, dirs.v[i].path, i == 0, err);
			break;
		case LZ_GITDIR_ADMIN:
			rc = gs_admin(&g, dirs.v[i].path, err);
			break;
		case LZ_GITDIR_OPAQUE:
			gs_bind(&g, dirs.v[i].path, 1, GS_WHY "a .git that is "
			    "no git directory, read-only whole");
			break;
		case LZ_GITDIR_FILE:
			gs_bind(&g, dirs.v[i].path, 1, GS_WHY ".git file "
			    "read-only");
			break;
		}
	}
	if (rc == 0)
		rc = gs_configs(&g, err);
	if (rc == 0)
		rc = gs_host_tools(&g, err);
	if (rc == 0 && g.tmp.n > LZ_GITSENTRY_MAX_MOUNTS)
		rc = lz_err_set(err, LZ_EINVAL, "Git Sentry needs %zu mounts "
		    "(%zu repositories in the workspace), over its limit of "
		    "%d; move repositories you do not need out of the "
		    "workspace, or make their directories Git-ignored",
		    g.tmp.n, census.n + 1, LZ_GITSENTRY_MAX_MOUNTS);
	if (rc == 0)
		gs_sort(&g, mp);
out:
	if (g.wsfd > 0)
		close(g.wsfd);
	lz_mountplan_release(&g.tmp);
	lz_tokens_release(&g.configs);
	lz_gitsentry_gitdirs_release(&dirs);
	lz_repos_release(&census);
	lz_buf_release(&own);
	free(git);
	return rc;
}

void
lz_gitsentry_notice(const struct lz_mountplan *mp, const struct lz_profile *p,
    struct lz_buf *out)
{
	struct lz_buf list = LZ_BUF_INIT;
	size_t i;

	lz_tokens_join(&list, &p->protect);
	lz_buf_addf(out, "Lazaret Git Sentry (SR-4): files in /workspace that "
	    "the host runs or trusts on its own are read-only here (a write "
	    "fails with \"Read-only file system\" or \"Device or resource "
	    "busy\"), or hidden. The developer decides on the host, in "
	    "Lazaret's config.ini, profile '%s':\n"
	    "  protect = %s   (%s)\n"
	    "      editor and tool files kept read-only (protect = none: "
	    "none)\n"
	    "  trust-git-config = PATH\n"
	    "      a Git configuration file in the workspace left writable\n"
	    "  trust-hooks-path = yes\n"
	    "      a core.hooksPath inside the workspace left visible\n"
	    "Git's own files (config, config.worktree, hooks, new submodules "
	    "and worktrees) are always protected. A repository made in "
	    "/workspace (git init, git clone, a .git of any kind) is moved "
	    "out of host git's way: make repositories in /tmp or in a "
	    "Git-ignored directory.\n\n", p->name, list.len ? list.buf :
	    "none", p->protect_source);
	for (i = 0; i < mp->n; i++) {
		if (strncmp(mp->v[i].why, GS_WHY, strlen(GS_WHY)) != 0 ||
		    (mp->v[i].kind == LZ_MOUNT_BIND && !mp->v[i].readonly))
			continue;
		lz_buf_addf(out, "%-9s %s  (%s)\n", mp->v[i].kind ==
		    LZ_MOUNT_TMPFS ? "hidden" : "read-only", mp->v[i].target,
		    mp->v[i].why + strlen(GS_WHY));
	}
	lz_buf_release(&list);
}
