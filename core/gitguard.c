/*
 * gitguard.c: Git Sentry's checks while a Domain runs (gitguard.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/gitguard.h"
#include "core/gitdirs.h"
#include "core/hooks.h"
#include "core/pathcheck.h"
#include "core/gsreport.h"
#include "core/quarantine.h"

#define Q_GITDIR "lazaret-quarantine-gitdir."

static uint64_t mono_ms(void);
static int sentinel(struct lz_gitguard *g, const char *rel,
    struct lz_buf *log, struct lz_err *err);
static int census(struct lz_gitguard *g, struct lz_buf *log,
    struct lz_err *err);
static int files(struct lz_gitguard *g, struct lz_buf *log);

static uint64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int
lz_gitguard_init(struct lz_gitguard *g, const char *workspace,
    const char *domain_root, const struct lz_tokens *isolated,
    const struct lz_tokens *protect, uint64_t now_ms, struct lz_err *err)
{
	struct lz_gitdirs dirs = LZ_GITDIRS_INIT;
	struct stat st;
	const char *rel;
	char *p;
	size_t i;
	int rc, fd;

	memset(g, 0, sizeof *g);
	g->ws = lz_xstrdup(workspace);
	g->root = lz_xstrdup(domain_root);
	if (isolated != NULL)
		lz_tokens_copy(&g->isolated, isolated);
	lz_tokens_copy(&g->protect, protect);
	lz_hooks_frameworks(workspace, &g->protect);
	g->last_walk = now_ms;
	/* What a launch found is the developer's (Git Sentry mounted it). */
	if ((rc = lz_repos_scan(workspace, &g->isolated, &g->launch,
	    err)) != 0 || (rc = lz_gitdirs_list(workspace, &g->launch,
	    &dirs, err)) != 0)
		goto out;
	/* Relative to the workspace: opened beneath it, no symlink. */
	for (i = 0; i < dirs.n; i++) {
		rel = dirs.v[i].path + strlen(workspace) + 1;
		if (dirs.v[i].kind == LZ_GITDIR_REPO && !dirs.v[i].census)
			lz_tokens_pushf(&g->sentinels, "%s/commondir", rel);
		p = lz_xasprintf("%s/gitdir", dirs.v[i].path);
		if (dirs.v[i].kind == LZ_GITDIR_ADMIN &&
		    lstat(p, &st) != 0 && errno == ENOENT)
			lz_tokens_pushf(&g->sentinels, "%s/gitdir", rel);
		free(p);
	}
	if ((fd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
		goto out;
	}
	lz_protect_expand(fd, &g->protect, &g->isolated, &g->files);
	close(fd);
	lz_gsreport_clear(domain_root);
out:
	lz_gitdirs_release(&dirs);
	return rc;
}

/*
 * Moves the file at rel (relative to the workspace; one that must stay
 * absent) out of git's way. No symlink is followed on the way to it.
 */
static int
sentinel(struct lz_gitguard *g, const char *rel, struct lz_buf *log,
    struct lz_err *err)
{
	const char *name = strrchr(rel, '/') + 1;
	char *dir = lz_xstrndup(rel, (size_t)(name - rel - 1)), *to = NULL;
	struct stat st;
	int wsfd, fd = -1, rc = 0;

	if ((wsfd = open(g->ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fd = lz_open_beneath(wsfd, dir, O_RDONLY | O_DIRECTORY, 0);
		close(wsfd);
	}
	if (fd < 0 || fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		goto out;
	if (lz_quarantine(fd, name, strcmp(name, "commondir") == 0 ?
	    LZ_REPOS_Q_COMMONDIR : Q_GITDIR, &to) == 0) {
		lz_buf_addf(log, "Git Sentry (SR-4): moved %s/%s to %s/%s/%s: "
		    "a sandbox wrote it, and %s; check it, then delete it\n",
		    g->ws, rel, g->ws, dir, to, strcmp(name, "commondir") == 0 ?
		    "it would send host Git to another directory's config and "
		    "hooks" : "git worktree commands on the host would act on "
		    "the directory it names");
		rc = 1;
	} else if (errno != ENOENT)
		rc = lz_err_set(err, LZ_ESYS, "cannot move '%s/%s' out of host "
		    "Git's way: %s; remove it before running git on the host",
		    g->ws, rel, strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	free(to);
	free(dir);
	return rc;
}

/* The repositories of the workspace against the launch census. */
static int
census(struct lz_gitguard *g, struct lz_buf *log, struct lz_err *err)
{
	struct lz_repos now = LZ_REPOS_INIT;
	int rc;

	rc = lz_repos_scan(g->ws, &g->isolated, &now, err);
	if (rc == 0)
		rc = lz_repos_guard(g->ws, &g->launch, &now, log, err);
	lz_repos_release(&now);
	return rc;
}

/* Protected paths that are regular files now and were not at launch. */
static int
files(struct lz_gitguard *g, struct lz_buf *log)
{
	struct lz_protect_set now = LZ_PROTECT_SET_INIT;
	const struct lz_protected *was;
	size_t i;
	int fd, n = 0;

	if (g->protect.n == 0 ||
	    (fd = open(g->ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return 0;
	lz_protect_expand(fd, &g->protect, &g->isolated, &now);
	close(fd);
	for (i = 0; i < now.n; i++) {
		was = lz_protect_find(&g->files, now.v[i].path);
		if (now.v[i].kind != 'f' || (was != NULL && was->kind == 'f') ||
		    lz_tokens_has(&g->reported, now.v[i].path))
			continue;
		lz_tokens_push(&g->reported, now.v[i].path);
		lz_buf_addf(log, "Git Sentry (SR-4): %s/%s appeared while the "
		    "Domain ran (a file the profile's 'protect' lists, or one "
		    "a hook the host runs reads): the sandbox may have written "
		    "it, and your editor or tool may run what it says; check "
		    "it before opening the project or committing on the "
		    "host\n", g->ws, now.v[i].path);
		n++;
	}
	lz_protect_release(&now);
	return n;
}

int
lz_gitguard_check(struct lz_gitguard *g, struct lz_buf *log,
    struct lz_err *err)
{
	struct lz_err sub = LZ_ERR_INIT;
	size_t i, start = log->len;
	int r, n = 0, rc = 0;

	for (i = 0; i < g->sentinels.n; i++) {
		r = sentinel(g, g->sentinels.v[i], log, &sub);
		if (r > 0)
			n++;
		else if (r < 0 && rc == 0)
			rc = lz_err_set(err, r, "%s", sub.msg);
		lz_err_release(&sub);
	}
	n += files(g, log);
	if (log->len > start)
		lz_gsreport_add(g->root, log->buf + start);
	return rc != 0 ? rc : n;
}

int
lz_gitguard_census_due(const struct lz_gitguard *g, uint64_t now_ms)
{
	uint64_t due = g->walk_ms * 20 > LZ_GITGUARD_WALK_MS ?
	    g->walk_ms * 20 : LZ_GITGUARD_WALK_MS;

	return now_ms - g->last_walk >= due;
}

int
lz_gitguard_census(struct lz_gitguard *g, uint64_t now_ms,
    struct lz_buf *log, struct lz_err *err)
{
	size_t start = log->len;
	uint64_t t0 = mono_ms();
	int r;

	r = census(g, log, err);
	g->walk_ms = mono_ms() - t0;
	g->last_walk = now_ms;
	if (log->len > start)
		lz_gsreport_add(g->root, log->buf + start);
	return r;
}

void
lz_gitguard_release(struct lz_gitguard *g)
{
	free(g->ws);
	free(g->root);
	lz_tokens_release(&g->isolated);
	lz_tokens_release(&g->protect);
	lz_repos_release(&g->launch);
	lz_tokens_release(&g->sentinels);
	lz_protect_release(&g->files);
	lz_tokens_release(&g->reported);
	memset(g, 0, sizeof *g);
}
