/*
 * test-gitsentry.c: the Git Sentry mount plan (SR-4) on real repositories
 * made with git in a temporary directory: order and modes of the .git
 * mounts, submodule gitdirs (nested, and names with '/') under a
 * read-only modules/, worktrees, core.hooksPath inside the workspace, and
 * a .git file refused.
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
