/*
 * test-gitsentry.c: the Git Sentry mount plan (SR-4) on real repositories
 * made with git in a temporary directory: order and modes of the .git
 * mounts (config.worktree made and read-only, modules/ and worktrees/
 * made and read-only), submodule gitdirs (nested, and names with '/'),
 * worktree directories (commondir, gitdir, config.worktree; none without
 * commondir), core.hooksPath inside the workspace, a .git file refused,
 * bad files at config.worktree, repositories elsewhere in the workspace
 * (and isolated ones left alone), Git configuration files in the
 * workspace (pinned, read-only, missing ones refused unless trusted),
 * protected editor files, the depth order and the sandbox's notice.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/gitsentry.h"
#include "core/pathcheck.h"
#include "tests/unit/testlib.h"

#define put_ws(rel, text) lz_test_put(ws, rel, text)

static char base[] = "/tmp/lz-test-gitsentry-XXXXXX";
static char ws[256];

static void
mkdirs(const char *rel)
{
	char path[512];
	char *argv[] = { "mkdir", "-p", path, NULL };

	snprintf(path, sizeof path, "%s/%s", ws, rel);
	lz_test_run(argv);
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(ws, sizeof ws, "%s/ws", base);
	return lz_test_git_home(base);
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

/* A fresh repository at ws for each test. */
static int
fresh(void **state)
{
	char *rm[] = { "rm", "-rf", ws, NULL };
	char *init[] = { "git", "init", "-q", ws, NULL };

	(void)state;
	lz_test_run(rm);
	lz_test_run(init);
	return 0;
}

/* Index of the mount with target t (and kind, ro), or -1. */
static int
find(const struct lz_mountplan *mp, const char *t, enum lz_mount_kind kind,
    int ro)
{
	size_t i;

	for (i = 0; i < mp->n; i++) {
		if (strcmp(mp->v[i].target, t) == 0 && mp->v[i].kind == kind &&
		    mp->v[i].readonly == ro)
			return (int)i;
	}
	return -1;
}

/* The plan with the built-in profile, trust-hooks-path = trust. */
static int
plan_rc(struct lz_mountplan *mp, int trust, struct lz_buf *warn,
    struct lz_err *e)
{
	struct lz_profile p;
	int rc;

	lz_profile_init(&p, "default", "built-in");
	p.trust_hooks_path = trust;
	rc = lz_gitsentry_plan(mp, ws, &p, NULL, warn, e);
	lz_profile_release(&p);
	return rc;
}

/* The plan with profile p. */
static int
plan_p(struct lz_mountplan *mp, struct lz_profile *p, struct lz_buf *warn,
    struct lz_err *e)
{
	return lz_gitsentry_plan(mp, ws, p, NULL, warn, e);
}

static void
plan(struct lz_mountplan *mp, int trust, struct lz_buf *warn)
{
	struct lz_err e = LZ_ERR_INIT;

	if (plan_rc(mp, trust, warn, &e) != 0)
		fail_msg("plan failed: %s", e.msg);
}

static void
test_basic(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	char src[512];
	struct stat st;

	(void)state;
	plan(&mp, 0, &warn);
	assert_true(mp.n >= 4);
	snprintf(src, sizeof src, "%s/.git", ws);
	assert_string_equal(mp.v[0].target, "/workspace/.git");
	assert_string_equal(mp.v[0].source, src);
	assert_int_equal(mp.v[0].readonly, 0);
	assert_int_equal(find(&mp, "/workspace/.git/config", LZ_MOUNT_BIND,
	    1), 1);
	/* Read as config once extensions.worktreeConfig is on: made. */
	assert_int_equal(find(&mp, "/workspace/.git/config.worktree",
	    LZ_MOUNT_BIND, 1), 2);
	snprintf(src, sizeof src, "%s/.git/config.worktree", ws);
	assert_int_equal(lstat(src, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 0);
	assert_int_equal(find(&mp, "/workspace/.git/hooks", LZ_MOUNT_TMPFS,
	    0), 3);
	/* modules/ and worktrees/ are created and blocked even when empty. */
	assert_int_equal(find(&mp, "/workspace/.git/modules", LZ_MOUNT_BIND,
	    1), 4);
	assert_int_equal(find(&mp, "/workspace/.git/worktrees", LZ_MOUNT_BIND,
	    1), 5);
	snprintf(src, sizeof src, "%s/.git/modules", ws);
	assert_int_equal(lstat(src, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(src, sizeof src, "%s/.git/worktrees", ws);
	assert_int_equal(lstat(src, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(mp.n, 6);
	assert_int_equal(warn.len, 0);
	lz_mountplan_release(&mp);
}

static void
test_submodules(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	int dir, cfg, hooks, mods, inner, slash;

	(void)state;
	mkdirs(".git/modules/sub/modules/inner");
	mkdirs(".git/modules/libs/foo");
	put_ws(".git/modules/sub/HEAD", "ref: refs/heads/main\n");
	put_ws(".git/modules/sub/config", "[core]\n");
	put_ws(".git/modules/sub/modules/inner/HEAD", "ref: refs/heads/main\n");
	put_ws(".git/modules/sub/modules/inner/config", "[core]\n");
	put_ws(".git/modules/libs/foo/HEAD", "ref: refs/heads/main\n");
	put_ws(".git/modules/libs/foo/config", "[core]\n");
	plan(&mp, 0, &warn);
	mods = find(&mp, "/workspace/.git/modules", LZ_MOUNT_BIND, 1);
	dir = find(&mp, "/workspace/.git/modules/sub", LZ_MOUNT_BIND, 0);
	cfg = find(&mp, "/workspace/.git/modules/sub/config", LZ_MOUNT_BIND,
	    1);
	hooks = find(&mp, "/workspace/.git/modules/sub/hooks",
	    LZ_MOUNT_TMPFS, 0);
	assert_true(mods >= 0 && mods < dir && dir < cfg && cfg < hooks);
	/* Nested: its modules/ blocked after the outer gitdir, then rw. */
	inner = find(&mp, "/workspace/.git/modules/sub/modules/inner",
	    LZ_MOUNT_BIND, 0);
	assert_true(find(&mp, "/workspace/.git/modules/sub/modules",
	    LZ_MOUNT_BIND, 1) > dir);
	assert_true(inner > find(&mp, "/workspace/.git/modules/sub/modules",
	    LZ_MOUNT_BIND, 1));
	assert_true(find(&mp, "/workspace/.git/modules/sub/modules/inner/"
	    "config", LZ_MOUNT_BIND, 1) > inner);
	/* A name with '/': libs is no gitdir and gets no mount of its own. */
	slash = find(&mp, "/workspace/.git/modules/libs/foo", LZ_MOUNT_BIND,
	    0);
	assert_true(slash > mods);
	assert_int_equal(find(&mp, "/workspace/.git/modules/libs",
	    LZ_MOUNT_BIND, 0), -1);
	assert_true(find(&mp, "/workspace/.git/modules/libs/foo/hooks",
	    LZ_MOUNT_TMPFS, 0) > slash);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

static void
test_worktrees(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	char wt[512];
	char *commit[] = { "git", "-C", ws, "-c", "user.name=t", "-c",
	    "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x",
	    NULL };
	char *add[] = { "git", "-C", ws, "worktree", "add", "-q", wt, NULL };
	int d;

	(void)state;
	snprintf(wt, sizeof wt, "%s/wt1", base);
	lz_test_run(commit);
	lz_test_run(add);
	put_ws(".git/worktrees/wt1/config.worktree", "[core]\n");
	plan(&mp, 0, &warn);
	assert_true(find(&mp, "/workspace/.git/worktrees", LZ_MOUNT_BIND, 1)
	    > 0);
	d = find(&mp, "/workspace/.git/worktrees/wt1", LZ_MOUNT_BIND, 0);
	assert_true(d > find(&mp, "/workspace/.git/worktrees", LZ_MOUNT_BIND,
	    1));
	assert_true(find(&mp, "/workspace/.git/worktrees/wt1/commondir",
	    LZ_MOUNT_BIND, 1) > d);
	assert_true(find(&mp, "/workspace/.git/worktrees/wt1/config.worktree",
	    LZ_MOUNT_BIND, 1) > d);
	lz_mountplan_release(&mp);
	{
		char *rm[] = { "rm", "-rf", wt, NULL };
		lz_test_run(rm);
	}
}

static void
test_hookspath(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	char *set[] = { "git", "-C", ws, "config", "core.hooksPath",
	    ".husky", NULL };
	char *out[] = { "git", "-C", ws, "config", "core.hooksPath",
	    "/usr/share/git-core/templates/hooks", NULL };
	char *self[] = { "git", "-C", ws, "config", "core.hooksPath", ".",
	    NULL };
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	lz_test_run(set);
	mkdirs(".husky");
	plan(&mp, 0, &warn);
	assert_true(find(&mp, "/workspace/.husky", LZ_MOUNT_TMPFS, 0) > 0);
	assert_non_null(strstr(warn.buf, "core.hooksPath '.husky' lies "
	    "inside the workspace"));
	assert_non_null(strstr(warn.buf, "hidden from the sandbox (set "
	    "trust-hooks-path = yes in the profile to keep them)"));
	lz_mountplan_release(&mp);
	lz_buf_reset(&warn);

	/* Trusted: warned, not hidden. */
	plan(&mp, 1, &warn);
	assert_int_equal(find(&mp, "/workspace/.husky", LZ_MOUNT_TMPFS, 0),
	    -1);
	assert_non_null(strstr(warn.buf, ".husky"));
	lz_mountplan_release(&mp);
	lz_buf_reset(&warn);

	/* Outside the workspace: nothing to do. */
	lz_test_run(out);
	plan(&mp, 0, &warn);
	assert_int_equal(warn.len, 0);
	assert_int_equal(mp.n, 6);
	lz_mountplan_release(&mp);

	lz_test_run(self);
	assert_int_equal(plan_rc(&mp, 0, &warn, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "workspace itself"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

static void
test_git_file_refused(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char *rm[] = { "rm", "-rf", ws, NULL };

	(void)state;
	lz_test_run(rm);
	mkdirs("");
	put_ws(".git", "gitdir: /elsewhere/.git/worktrees/x\n");
	assert_int_equal(plan_rc(&mp, 0, &warn, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not support"));
	assert_non_null(strstr(e.msg, "main work tree"));
	assert_int_equal(mp.n, 0);
	lz_err_release(&e);
}

/* A commondir in the main .git (written by a sandbox) stops the launch. */
static void
test_commondir_refused(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	put_ws(".git/commondir", "/tmp/evil\n");
	assert_int_equal(plan_rc(&mp, 0, &warn, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, ".git/commondir' exists"));
	assert_int_equal(mp.n, 0);
	lz_err_release(&e);
	lz_buf_release(&warn);
}

/* Bad kinds at .git/config.worktree: refused, with the path. */
static void
test_config_worktree_bad(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char p[512];

	(void)state;
	snprintf(p, sizeof p, "%s/.git/config.worktree", ws);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(plan_rc(&mp, 0, NULL, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, ".git/config.worktree' is a FIFO"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	unlink(p);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	assert_int_equal(plan_rc(&mp, 0, NULL, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "is a symbolic link"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	unlink(p);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(plan_rc(&mp, 0, NULL, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "is a directory"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
}

/* A worktree's administrative files; one without commondir refused. */
static void
test_worktree_admin(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char p[512];
	struct stat st;

	(void)state;
	put_ws(".git/worktrees/w/commondir", "../..\n");
	put_ws(".git/worktrees/w/gitdir", "/elsewhere/.git\n");
	put_ws(".git/worktrees/w/HEAD", "ref: refs/heads/main\n");
	plan(&mp, 0, &warn);
	assert_true(find(&mp, "/workspace/.git/worktrees/w/gitdir",
	    LZ_MOUNT_BIND, 1) > 0);
	assert_true(find(&mp, "/workspace/.git/worktrees/w/config.worktree",
	    LZ_MOUNT_BIND, 1) > 0);
	snprintf(p, sizeof p, "%s/.git/worktrees/w/config.worktree", ws);
	assert_int_equal(lstat(p, &st), 0);
	lz_mountplan_release(&mp);
	snprintf(p, sizeof p, "%s/.git/worktrees/w/commondir", ws);
	unlink(p);
	assert_int_equal(plan_rc(&mp, 0, &warn, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "/.git/worktrees/w' has no commondir"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

/* Repositories anywhere in the workspace get the same mounts. */
static void
test_nested(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_tokens iso = LZ_TOKENS_INIT;
	struct lz_profile p;
	struct lz_err e = LZ_ERR_INIT;
	char dir[512];
	char *init[] = { "git", "init", "-q", dir, NULL };
	int d;

	(void)state;
	snprintf(dir, sizeof dir, "%s/vendor/x", ws);
	lz_test_run(init);
	put_ws("f/.git", "gitdir: ../elsewhere\n");
	put_ws("odd/.git/junk", "");
	plan(&mp, 0, &warn);
	d = find(&mp, "/workspace/vendor/x/.git", LZ_MOUNT_BIND, 0);
	assert_true(d > 0);
	assert_true(find(&mp, "/workspace/vendor/x/.git/config",
	    LZ_MOUNT_BIND, 1) > d);
	assert_true(find(&mp, "/workspace/vendor/x/.git/config.worktree",
	    LZ_MOUNT_BIND, 1) > d);
	assert_true(find(&mp, "/workspace/vendor/x/.git/hooks",
	    LZ_MOUNT_TMPFS, 0) > d);
	assert_true(find(&mp, "/workspace/vendor/x/.git/worktrees",
	    LZ_MOUNT_BIND, 1) > d);
	assert_true(find(&mp, "/workspace/f/.git", LZ_MOUNT_BIND, 1) > 0);
	assert_true(find(&mp, "/workspace/odd/.git", LZ_MOUNT_BIND, 1) > 0);
	lz_mountplan_release(&mp);
	/* Isolated (the sandbox sees its own copy): left alone. */
	lz_tokens_push(&iso, "vendor/");
	lz_profile_init(&p, "default", "built-in");
	assert_int_equal(lz_gitsentry_plan(&mp, ws, &p, &iso, &warn, &e), 0);
	assert_int_equal(find(&mp, "/workspace/vendor/x/.git", LZ_MOUNT_BIND,
	    0), -1);
	lz_profile_release(&p);
	lz_tokens_release(&iso);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

/*
 * A Git configuration file in the workspace: read-only, its directory
 * pinned first; a missing one refused unless trusted.
 */
static void
test_config_files(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_profile p;
	struct lz_err e = LZ_ERR_INIT;
	char *inc[] = { "git", "-C", ws, "config", "include.path",
	    "../cfg/local.cfg", NULL };
	char *miss[] = { "git", "-C", ws, "config", "--add", "include.path",
	    "../missing.cfg", NULL };
	int dir, file;

	(void)state;
	lz_test_run(inc);
	put_ws("cfg/local.cfg", "");
	plan(&mp, 0, &warn);
	dir = find(&mp, "/workspace/cfg", LZ_MOUNT_BIND, 0);
	file = find(&mp, "/workspace/cfg/local.cfg", LZ_MOUNT_BIND, 1);
	assert_true(dir > 0 && file > dir);
	lz_mountplan_release(&mp);
	lz_test_run(miss);
	lz_profile_init(&p, "default", "built-in");
	assert_int_equal(plan_p(&mp, &p, &warn, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "missing.cfg' does not exist"));
	assert_non_null(strstr(e.msg, "trust-git-config = missing.cfg"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	lz_tokens_push(&p.trust_git_config, "missing.cfg");
	assert_int_equal(plan_p(&mp, &p, &warn, &e), 0);
	assert_non_null(strstr(warn.buf, "missing.cfg' is Git configuration"));
	assert_non_null(strstr(warn.buf, "left writable"));
	lz_profile_release(&p);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

/* Protected editor files: pinned, read-only, in depth order; a notice. */
static void
test_protect_files(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT, notice = LZ_BUF_INIT;
	struct lz_profile p;
	char path[512];
	struct stat st;
	size_t i, j;

	(void)state;
	put_ws(".vscode/tasks.json", "{}");
	put_ws(".vscode/launch.json", "{}");
	put_ws(".idea/runConfigurations/a.xml", "");
	plan(&mp, 0, &warn);
	assert_true(find(&mp, "/workspace/.vscode/tasks.json", LZ_MOUNT_BIND,
	    1) > find(&mp, "/workspace/.vscode", LZ_MOUNT_BIND, 0));
	assert_true(find(&mp, "/workspace/.idea/runConfigurations/a.xml",
	    LZ_MOUNT_BIND, 1) > find(&mp, "/workspace/.idea/runConfigurations",
	    LZ_MOUNT_BIND, 0));
	assert_int_equal(find(&mp, "/workspace/.vscode/launch.json",
	    LZ_MOUNT_BIND, 1), -1);
	/* Nothing is created for a missing one. */
	snprintf(path, sizeof path, "%s/.vscode/settings.json", ws);
	assert_int_not_equal(lstat(path, &st), 0);
	/* No mount lies beneath a later one. */
	for (i = 0; i < mp.n; i++)
		for (j = i + 1; j < mp.n; j++)
			assert_false(strncmp(mp.v[i].target, mp.v[j].target,
			    strlen(mp.v[j].target)) == 0 &&
			    mp.v[i].target[strlen(mp.v[j].target)] == '/');
	lz_profile_init(&p, "default", "built-in");
	lz_gitsentry_notice(&mp, &p, &notice);
	assert_non_null(strstr(notice.buf, "protect = .vscode/tasks.json"));
	assert_non_null(strstr(notice.buf, "read-only /workspace/.vscode/"
	    "tasks.json"));
	assert_non_null(strstr(notice.buf, "hidden    /workspace/.git/hooks"));
	lz_profile_release(&p);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
	lz_buf_release(&notice);
}

/* A hook framework's file; PATH entries in the workspace dropped. */
static void
test_hooks_and_path(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_tokens dropped = LZ_TOKENS_INIT;
	char path[2048], link[256], *scrubbed;

	(void)state;
	put_ws(".git/hooks/pre-commit", "#!/bin/sh\n# File generated by "
	    "pre-commit: https://pre-commit.com\n");
	put_ws(".git/hooks/pre-push.sample", "lefthook\n");
	put_ws(".pre-commit-config.yaml", "repos: []\n");
	put_ws("lefthook.yml", "x\n");
	put_ws("bin/tool", "");
	plan(&mp, 0, &warn);
	assert_true(find(&mp, "/workspace/.pre-commit-config.yaml",
	    LZ_MOUNT_BIND, 1) > 0);
	/* A .sample hook is not installed. */
	assert_int_equal(find(&mp, "/workspace/lefthook.yml", LZ_MOUNT_BIND,
	    1), -1);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
	/* A PATH for the host's programs never reaches into the workspace. */
	/* Also through a symlink, to a directory that is not there yet. */
	snprintf(link, sizeof link, "%s/link", base);
	unlink(link);
	assert_int_equal(symlink(ws, link), 0);
	snprintf(path, sizeof path, "%s/bin:/usr/bin::.:bin:%s/x/../bin/:%s:"
	    "%s/later/bin:%s", ws, ws, ws, link, link);
	scrubbed = lz_path_env_scrub(path, ws, &dropped);
	assert_string_equal(scrubbed, "/usr/bin");
	assert_int_equal(dropped.n, 7);
	unlink(link);
	free(scrubbed);
	lz_tokens_release(&dropped);
}

/* Past LZ_GITSENTRY_MAX_MOUNTS: refused, saying how to get under it. */
static void
test_mount_cap(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char rel[64];
	int i;

	(void)state;
	for (i = 0; i < LZ_GITSENTRY_MAX_MOUNTS / 6 + 1; i++) {
		snprintf(rel, sizeof rel, "r%d/.git/HEAD", i);
		put_ws(rel, "ref: refs/heads/main\n");
		snprintf(rel, sizeof rel, "r%d/.git/objects/x", i);
		put_ws(rel, "");
		snprintf(rel, sizeof rel, "r%d/.git/refs/x", i);
		put_ws(rel, "");
	}
	assert_int_equal(plan_rc(&mp, 0, &warn, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "over its limit of 512"));
	assert_non_null(strstr(e.msg, "Git-ignored"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_basic, fresh),
		cmocka_unit_test_setup(test_submodules, fresh),
		cmocka_unit_test_setup(test_worktrees, fresh),
		cmocka_unit_test_setup(test_hookspath, fresh),
		cmocka_unit_test_setup(test_git_file_refused, fresh),
		cmocka_unit_test_setup(test_commondir_refused, fresh),
		cmocka_unit_test_setup(test_config_worktree_bad, fresh),
		cmocka_unit_test_setup(test_worktree_admin, fresh),
		cmocka_unit_test_setup(test_nested, fresh),
		cmocka_unit_test_setup(test_config_files, fresh),
		cmocka_unit_test_setup(test_protect_files, fresh),
		cmocka_unit_test_setup(test_hooks_and_path, fresh),
		cmocka_unit_test_setup(test_mount_cap, fresh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
