/*
 * gitsentry.c: planning the Git Sentry mounts of gitsentry.h, for the git
 * directories gitdirs.h lists, the configuration files gitconfig.h lists,
 * the hooks hooks.h finds and the files protect.h names. The mounts
 * themselves are the runtime's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gitconfig.h"
#include "core/gitdirs.h"
#include "core/gitsentry.h"
#include "core/hooks.h"
#include "core/pathcheck.h"
#include "core/protect.h"

#define GS_WHY "Git Sentry (SR-4): "

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
static int gs_ensure_dir(const char *path, struct lz_err *err);
static int gs_ensure_file(struct gs *g, const char *path, struct lz_err *err);
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
static int gs_main(const char *git, struct lz_err *err);
static size_t depth(const char *s);
static void gs_sort(struct gs *g, struct lz_mountplan *mp);

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
	int k = lz_lstat_kind(path, err);

	if (k < 0)
		return k;
	if (k == 0) {
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return lz_err_set(err, LZ_ESYS, "cannot create '%s': "
			    "%s", path, strerror(errno));
		k = lz_lstat_kind(path, err);
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

/* The effective core.hooksPath of the repository at dir; hidden in W. */
static int
gs_hookspath(struct gs *g, const char *dir, int main, struct lz_err *err)
{
	struct lz_err sub = LZ_ERR_INIT;
	char *value = NULL, *abs = NULL, *real = NULL, *path;
	int rc;

	rc = lz_hooks_path(main ? g->ws : dir, dir, &value, &abs, &sub);
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
	lz_hooks_frameworks(g->ws, &hooks);
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

	if ((k = lz_lstat_kind(git, err)) < 0)
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
	if ((rc = gs_main(git, err)) != 0)
		goto out;
	if ((g.wsfd = open(workspace, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
		goto out;
	}
	if ((rc = lz_repos_scan(workspace, isolated, &census, err)) != 0 ||
	    (rc = lz_gitdirs_list(workspace, &census, &dirs, err)) != 0)
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
	lz_gitdirs_release(&dirs);
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
