/*
 * gitlinks.c: the nested repositories under the index's gitlinks, and
 * moving the ones the sandbox made out of host git's way (gitlinks.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "core/domain.h"
#include "core/gitlinks.h"
#include "core/pathcheck.h"
#include "core/quarantine.h"
#include "core/spawn.h"

#define GITFILE_MAX 4096
/* Output of "git ls-files --stage" kept at most. */
#define LS_FILES_MAX (64 * 1024 * 1024)

extern char **environ;

static void	 add(struct lz_gitlinks *g, const char *path);
static int	 scan_with_git(const char *workspace, struct lz_gitlinks *out,
		     struct lz_err *err);
static int	 trusted(const struct lz_gitlinks *launch,
		     const struct lz_gitlink *e);
static int	 clean_components(const char *p);
static int	 in_modules(int wsfd, const char *path, int dfd);

static void
add(struct lz_gitlinks *g, const char *path)
{
	struct lz_gitlink *e;

	g->v = lz_xreallocarray(g->v, g->n + 1, sizeof *g->v);
	e = &g->v[g->n++];
	memset(e, 0, sizeof *e);
	e->path = lz_xstrdup(path);
}

/*
 * The gitlinks as git itself reads the index, for the formats libgit2
 * 1.5 refuses (a split index, "link"; a sparse index, "sdir"): "git
 * --git-dir W/.git --work-tree W ls-files --stage -z", without the
 * caller's GIT_* variables (GIT_INDEX_FILE would read another index).
 */
static int
scan_with_git(const char *workspace, struct lz_gitlinks *out,
    struct lz_err *err)
{
	struct lz_tokens env = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	char *gd = lz_xasprintf("--git-dir=%s/.git", workspace);
	char *wt = lz_xasprintf("--work-tree=%s", workspace);
	const char *argv[] = { "git", gd, wt, "ls-files", "--stage", "-z",
	    NULL };
	const char *p, *end, *tab;
	char **e;
	int rc;

	/* Never empty: an empty (NULL) list would pass environ. */
	lz_tokens_push(&env, "LC_ALL=C");
	for (e = environ; *e != NULL; e++) {
		if (strncmp(*e, "GIT_", 4) != 0 &&
		    strncmp(*e, "LC_ALL=", 7) != 0)
			lz_tokens_push(&env, *e);
	}
	memset(&o, 0, sizeof o);
	o.envp = (const char *const *)env.v;
	o.cwd = "/";
	o.max_output = LS_FILES_MAX;
	o.timeout_ms = 30000;
	lz_spawn_result_init(&res);
	rc = lz_spawn_capture(argv, &o, &res, err);
	if (rc == 0 && (res.status != 0 || res.truncated))
		rc = lz_err_set(err, LZ_EINVAL, "cannot list the gitlinks of "
		    "'%s/.git/index' (git ls-files: %s)", workspace,
		    res.truncated ? "more than 64 MiB of output" :
		    res.err.len ? res.err.buf : "failed");
	/* "MODE OBJECT STAGE\tPATH\0" per entry. */
	for (p = res.out.buf, end = p + res.out.len; rc == 0 && p < end;
	    p += strlen(p) + 1) {
		tab = strchr(p, '\t');
		if (tab != NULL && strncmp(p, "160000 ", 7) == 0)
			add(out, tab + 1);
	}
	lz_spawn_result_release(&res);
	lz_tokens_release(&env);
	free(gd);
	free(wt);
	return rc;
}

int
lz_gitlinks_scan(const char *workspace, struct lz_gitlinks *out,
    struct lz_err *err)
{
	const git_index_entry *ie;
	git_index *idx = NULL;
	char *path = lz_xasprintf("%s/.git/index", workspace);
	size_t i, n;
	int rc = 0;

	lz_git_init();
	if (git_index_open(&idx, path) < 0)
		rc = scan_with_git(workspace, out, err);
	else {
		n = git_index_entrycount(idx);
		for (i = 0; i < n; i++) {
			ie = git_index_get_byindex(idx, i);
			if (ie != NULL && ie->mode == GIT_FILEMODE_COMMIT)
				add(out, ie->path);
		}
	}
	if (rc == 0)
		rc = lz_gitlinks_restat(workspace, out, err);
	git_index_free(idx);
	free(path);
	return rc;
}

int
lz_gitlinks_restat(const char *workspace, struct lz_gitlinks *g,
    struct lz_err *err)
{
	struct lz_gitlink *e;
	struct stat st;
	size_t i;
	int wsfd, dfd;

	if ((wsfd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
	for (i = 0; i < g->n; i++) {
		e = &g->v[i];
		e->kind = 0;
		if ((dfd = lz_open_beneath(wsfd, e->path, O_RDONLY |
		    O_DIRECTORY, 0)) < 0)
			continue;
		if (fstatat(dfd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0) {
			e->kind = S_ISDIR(st.st_mode) ? 'd' :
			    S_ISREG(st.st_mode) ? 'f' : 'o';
			e->dev = st.st_dev;
			e->ino = st.st_ino;
		}
		close(dfd);
	}
	close(wsfd);
	return 0;
}

static int
trusted(const struct lz_gitlinks *launch, const struct lz_gitlink *e)
{
	size_t i;

	for (i = 0; launch != NULL && i < launch->n; i++) {
		if (strcmp(launch->v[i].path, e->path) == 0 &&
		    launch->v[i].kind == e->kind &&
		    launch->v[i].dev == e->dev && launch->v[i].ino == e->ino)
			return 1;
	}
	return 0;
}

/* 1 when p (relative) has no empty, "." or ".." component. */
static int
clean_components(const char *p)
{
	const char *c = p, *slash;
	size_t len;

	for (;;) {
		slash = strchr(c, '/');
		len = slash ? (size_t)(slash - c) : strlen(c);
		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		if (slash == NULL)
			return 1;
		c = slash + 1;
	}
}

/*
 * 1 when the ".git" file in dfd (the gitlink's directory, path relative to
 * the workspace wsfd) says "gitdir: X" with X inside .git/modules, as git
 * writes it ("../" only at its start, then plain names; absolute paths
 * refused), reached with no symlink on the way.
 */
static int
in_modules(int wsfd, const char *path, int dfd)
{
	char buf[GITFILE_MAX + 1], *x, *rel = NULL, *base, *p;
	const char *slash;
	ssize_t len;
	int fd, k, up = 0, depth = 1, ok = 0;

	if ((fd = openat(dfd, ".git", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	len = read(fd, buf, GITFILE_MAX);
	close(fd);
	if (len <= 8 || strncmp(buf, "gitdir: ", 8) != 0)
		return 0;
	buf[len] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	for (x = buf + 8; strncmp(x, "../", 3) == 0; x += 3)
		up++;
	for (slash = path; (slash = strchr(slash, '/')) != NULL; slash++)
		depth++;
	if (x[0] == '/' || up > depth || !clean_components(x))
		return 0;
	/* The first depth - up components of path, then x. */
	base = lz_xstrdup(path);
	if (up == depth)
		base[0] = '\0';
	else {
		for (p = base, k = 1; k < depth - up; k++)
			p = strchr(p, '/') + 1;
		if ((p = strchr(p, '/')) != NULL)
			*p = '\0';
	}
	rel = base[0] ? lz_xasprintf("%s/%s", base, x) : lz_xstrdup(x);
	free(base);
	if (strncmp(rel, ".git/modules/", 13) == 0 &&
	    (fd = lz_open_beneath(wsfd, rel, O_RDONLY | O_DIRECTORY, 0)) >= 0) {
		close(fd);
		ok = 1;
	}
	free(rel);
	return ok;
}

int
lz_gitlinks_guard(const char *workspace, const struct lz_gitlinks *launch,
    const struct lz_gitlinks *now, struct lz_buf *log, struct lz_err *err)
{
	const struct lz_gitlink *e;
	char *to;
	size_t i;
	int wsfd, dfd, moved = 0, rc = 0;

	if ((wsfd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
	for (i = 0; i < now->n; i++) {
		e = &now->v[i];
		if (e->kind == 0 || trusted(launch, e))
			continue;
		if ((dfd = lz_open_beneath(wsfd, e->path, O_RDONLY |
		    O_DIRECTORY, 0)) < 0)
			continue;	/* gone or changed since the scan */
		if (e->kind == 'f' && in_modules(wsfd, e->path, dfd)) {
			close(dfd);
			continue;
		}
		if (lz_quarantine(dfd, ".git", LZ_GITLINKS_QUARANTINE,
		    &to) == 0) {
			lz_buf_addf(log, "Git Sentry (SR-4): moved %s/%s/.git "
			    "to %s/%s/%s: a repository under a gitlink that "
			    "was not there at launch (host git status would "
			    "read its config)\n", workspace, e->path,
			    workspace, e->path, to);
			free(to);
			moved++;
		} else if (errno != ENOENT && rc == 0)
			rc = lz_err_set(err, LZ_ESYS, "cannot move %s/%s/.git "
			    "out of host Git's way: %s; remove it before "
			    "running git on the host", workspace, e->path,
			    strerror(errno));
		close(dfd);
	}
	close(wsfd);
	return rc != 0 ? rc : moved;
}

void
lz_gitlinks_copy(struct lz_gitlinks *dst, const struct lz_gitlinks *src)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		add(dst, src->v[i].path);
		dst->v[dst->n - 1].kind = src->v[i].kind;
		dst->v[dst->n - 1].dev = src->v[i].dev;
		dst->v[dst->n - 1].ino = src->v[i].ino;
	}
}

void
lz_gitlinks_release(struct lz_gitlinks *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].path);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}
