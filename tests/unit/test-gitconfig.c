/*
 * test-gitconfig.c: the Git configuration files of a workspace, listed
 * with the host's git (gitconfig.h), on real repositories with a private
 * HOME: every include directive counts whatever its condition (gitdir:,
 * onbranch:) says now, relative and "~/" paths as git resolves them,
 * nested includes, a missing target, a global file symlinked into the
 * workspace, and FIFOs refused without blocking.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/gitconfig.h"
#include "tests/unit/testlib.h"

static char base[] = "/tmp/lz-test-gitconfig-XXXXXX";
static char ws[256], home[256];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(ws, sizeof ws, "%s/ws", base);
	snprintf(home, sizeof home, "%s/home", base);
	return lz_test_git_home(base);
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static int
fresh(void **state)
{
	char *init[] = { "git", "init", "-q", ws, NULL };
	char gc[512];

	(void)state;
	lz_test_rmrf(ws);
	snprintf(gc, sizeof gc, "%s/.gitconfig", home);
	unlink(gc);
	lz_test_run(init);
	return 0;
}

static void
git_config(const char *file, const char *key, const char *value)
{
	char *argv[] = { "git", "config", "--file", (char *)file, "--add",
	    (char *)key, (char *)value, NULL };

	lz_test_run(argv);
}

static const struct lz_gitconfig_file *
find(const struct lz_gitconfig_files *f, const char *rel)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].rel != NULL && strcmp(f->v[i].rel, rel) == 0)
			return &f->v[i];
	return NULL;
}

static void
test_includes(void **state)
{
	struct lz_gitconfig_files f = LZ_GITCONFIG_FILES_INIT;
	struct lz_err e = LZ_ERR_INIT;
	const struct lz_gitconfig_file *x;
	char gc[512], local[512], key[512], v[512], other[512];
	size_t i;

	(void)state;
	snprintf(gc, sizeof gc, "%s/.gitconfig", home);
	snprintf(local, sizeof local, "%s/.git/config", ws);
	snprintf(other, sizeof other, "%s/other.cfg", home);
	/* The red team's case: the global file includes a tracked file. */
	snprintf(key, sizeof key, "includeIf.gitdir:%s/.path", ws);
	snprintf(v, sizeof v, "%s/team.cfg", ws);
	git_config(gc, key, v);
	git_config(gc, "include.path", "~/other.cfg");
	lz_test_put(ws, "team.cfg", "[core]\n");
	snprintf(v, sizeof v, "%s/deep.cfg", ws);
	git_config(other, "include.path", v);
	git_config(local, "include.path", "../local.cfg");
	git_config(local, "includeIf.onbranch:zzz.path", "../branch.cfg");
	lz_test_put(ws, "local.cfg", "");
	git_config(v, "x.y", "1");	/* deep.cfg, then removed: missing */
	unlink(v);
	snprintf(v, sizeof v, "%s/local.cfg", ws);
	git_config(v, "include.path", "sub/x.cfg");
	lz_test_put(ws, "sub/x.cfg", "");
	assert_int_equal(lz_gitconfig_list(ws, NULL, &f, &e), 0);
	assert_non_null(x = find(&f, "team.cfg"));
	assert_true(x->exists);
	assert_non_null(strstr(x->why, "includeif.gitdir:"));
	assert_non_null(strstr(x->why, "/home/.gitconfig"));
	assert_non_null(find(&f, "local.cfg"));
	assert_non_null(find(&f, "sub/x.cfg"));
	/* Its condition is false now; it counts anyway. */
	assert_non_null(x = find(&f, "branch.cfg"));
	assert_false(x->exists);
	assert_non_null(x = find(&f, "deep.cfg"));
	assert_false(x->exists);
	assert_non_null(strstr(x->why, "include.path in "));
	assert_non_null(find(&f, ".git/config"));
	assert_non_null(find(&f, ".git/config.worktree"));
	for (i = 0; i < f.n; i++)
		if (strcmp(f.v[i].path, other) == 0)
			break;
	assert_true(i < f.n);
	assert_null(f.v[i].rel);
	lz_gitconfig_release(&f);
	assert_int_equal(lz_gitconfig_check(ws, &e), 0);
}

/* Values that name a program in the workspace: that program is listed. */
static void
test_programs(void **state)
{
	struct lz_gitconfig_files f = LZ_GITCONFIG_FILES_INIT;
	struct lz_err e = LZ_ERR_INIT;
	const struct lz_gitconfig_file *x;
	char local[512], inc[512];

	(void)state;
	snprintf(local, sizeof local, "%s/.git/config", ws);
	snprintf(inc, sizeof inc, "%s/inc.cfg", ws);
	git_config(local, "filter.lz.clean", "./tools/clean.sh --x");
	git_config(local, "alias.y", "!tools/y.sh arg");
	git_config(local, "core.pager", "less -R");
	git_config(local, "diff.z.textconv", "/usr/bin/od -c");
	git_config(local, "credential.https://h.example.helper",
	    "\"tools/cred helper\" get");
	/* In a file whose include is false now: counted too. */
	git_config(local, "includeIf.onbranch:no.path", "../inc.cfg");
	git_config(inc, "core.fsmonitor", "tools/fsmon.sh");
	assert_int_equal(lz_gitconfig_list(ws, NULL, &f, &e), 0);
	assert_non_null(x = find(&f, "tools/clean.sh"));
	assert_true(x->program);
	assert_false(x->exists);
	assert_non_null(strstr(x->why, "filter.lz.clean in "));
	assert_non_null(x = find(&f, "tools/y.sh"));
	assert_true(x->program);
	assert_non_null(find(&f, "tools/cred helper"));
	assert_non_null(x = find(&f, "tools/fsmon.sh"));
	assert_true(x->program);
	assert_non_null(x = find(&f, "inc.cfg"));
	assert_false(x->program);
	assert_null(find(&f, "less"));
	lz_gitconfig_release(&f);
}

/* A global file that is a symlink into the workspace (dotfiles). */
static void
test_dotfiles(void **state)
{
	struct lz_gitconfig_files f = LZ_GITCONFIG_FILES_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char gc[512], target[512];

	(void)state;
	snprintf(gc, sizeof gc, "%s/.gitconfig", home);
	snprintf(target, sizeof target, "%s/dot/gitconfig", ws);
	lz_test_put(ws, "dot/gitconfig", "[user]\n\tname = x\n");
	assert_int_equal(symlink(target, gc), 0);
	assert_int_equal(lz_gitconfig_list(ws, NULL, &f, &e), 0);
	assert_non_null(find(&f, "dot/gitconfig"));
	lz_gitconfig_release(&f);
}

/* FIFOs: git and libgit2 would block on them; refused at once. */
static void
test_fifo(void **state)
{
	struct lz_gitconfig_files f = LZ_GITCONFIG_FILES_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char gc[512], fifo[512], local[512], sub[512];
	time_t t0 = time(NULL);

	(void)state;
	snprintf(gc, sizeof gc, "%s/.gitconfig", home);
	snprintf(fifo, sizeof fifo, "%s/f.fifo", home);
	snprintf(local, sizeof local, "%s/.git/config", ws);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	git_config(gc, "include.path", fifo);
	assert_int_equal(lz_gitconfig_list(ws, NULL, &f, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "f.fifo' is Git configuration"));
	assert_non_null(strstr(e.msg, "not a regular file"));
	lz_err_release(&e);
	lz_gitconfig_release(&f);
	unlink(gc);
	/* In the workspace, checked before libgit2 would open it. */
	snprintf(fifo, sizeof fifo, "%s/in.fifo", ws);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	git_config(local, "include.path", "../in.fifo");
	snprintf(sub, sizeof sub, "%s/sub", ws);
	mkdir(sub, 0755);
	assert_int_equal(lz_gitconfig_check(sub, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "in.fifo' is a FIFO"));
	lz_err_release(&e);
	assert_true(time(NULL) - t0 < 5);
	/* No repository above: nothing to check. */
	assert_int_equal(lz_gitconfig_check("/", &e), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_includes, fresh),
		cmocka_unit_test_setup(test_programs, fresh),
		cmocka_unit_test_setup(test_dotfiles, fresh),
		cmocka_unit_test_setup(test_fifo, fresh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
