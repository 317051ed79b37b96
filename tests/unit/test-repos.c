/*
 * test-repos.c: the census of repositories in a workspace (repos.h) and
 * the guard that moves new ones out of host git's way, on real
 * directories: every kind of marker, what is skipped, what a launch knows
 * (a renamed directory stays known, a .git file must keep its path), the
 * stopper left in place of a moved .git, a submodule checkout's .git file
 * accepted, a commondir added to a known repository.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/repos.h"
#include "tests/unit/testlib.h"

#define put(rel, text) lz_test_put(ws, rel, text)

static char base[] = "/tmp/lz-test-repos-XXXXXX";
static char ws[256];

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

static int
fresh(void **state)
{
	char *init[] = { "git", "init", "-q", ws, NULL };

	(void)state;
	lz_test_rmrf(ws);
	lz_test_run(init);
	return 0;
}

static void
path(char *out, size_t n, const char *rel)
{
	snprintf(out, n, "%s/%s", ws, rel);
}

/* A minimal git directory at rel: HEAD, objects/, refs/. */
static void
gitdir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof p, "%s/HEAD", rel);
	put(p, "ref: refs/heads/main\n");
	snprintf(p, sizeof p, "%s/objects/x", rel);
	put(p, "");
	snprintf(p, sizeof p, "%s/refs/x", rel);
	put(p, "");
}

static const struct lz_repo *
find(const struct lz_repos *r, const char *p)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].path, p) == 0)
			return &r->v[i];
	return NULL;
}

static void
scan(struct lz_repos *r, const struct lz_tokens *skip)
{
	struct lz_err e = LZ_ERR_INIT;

	lz_repos_release(r);
	if (lz_repos_scan(ws, skip, r, &e) != 0)
		fail_msg("scan: %s", e.msg);
}

static void
test_census(void **state)
{
	struct lz_repos r = LZ_REPOS_INIT;
	struct lz_tokens skip = LZ_TOKENS_INIT;
	char p[512];
	int fd;

	(void)state;
	gitdir("a/.git");
	put("b/.git", "gitdir: ../x\n");
	path(p, sizeof p, "c");
	mkdir(p, 0755);
	path(p, sizeof p, "c/.git");
	assert_int_equal(symlink("/tmp", p), 0);
	gitdir("bare.git");
	put("wt/HEAD", "0123456789012345678901234567890123456789\n");
	put("wt/commondir", "../.git\n");
	put("d/.git/x", "");		/* a .git that is no git dir */
	gitdir("skipped/deep/.git");
	gitdir("bare.git/inner/.git");	/* in a git directory: unread */
	gitdir("a/.git/modules/m/.git");	/* in a .git: unread */
	put("notrepo/HEAD", "garbage\n");
	put("notrepo/objects/x", "");
	put("notrepo/refs/x", "");
	lz_tokens_push(&skip, "skipped/");
	scan(&r, &skip);
	assert_int_equal(find(&r, "a/.git")->kind, LZ_REPO_DOTGIT_DIR);
	assert_true(find(&r, "a/.git")->valid);
	assert_int_equal(find(&r, "b/.git")->kind, LZ_REPO_DOTGIT_FILE);
	assert_int_equal(find(&r, "c/.git")->kind, LZ_REPO_DOTGIT_OTHER);
	assert_int_equal(find(&r, "bare.git")->kind, LZ_REPO_GITDIR);
	assert_false(find(&r, "bare.git")->commondir);
	assert_int_equal(find(&r, "wt")->kind, LZ_REPO_GITDIR);
	assert_true(find(&r, "wt")->commondir);
	assert_int_equal(find(&r, "d/.git")->kind, LZ_REPO_DOTGIT_DIR);
	assert_false(find(&r, "d/.git")->valid);
	assert_null(find(&r, "skipped/deep/.git"));
	assert_null(find(&r, "bare.git/inner/.git"));
	assert_null(find(&r, "notrepo"));
	assert_null(find(&r, ".git"));		/* the workspace's own */
	assert_int_equal(r.n, 6);
	/* The real is_git_directory agrees on the bare one. */
	fd = open(ws, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_repos_is_gitdir(fd, "bare.git"), 1);
	assert_int_equal(lz_repos_is_gitdir(fd, "notrepo"), 0);
	close(fd);
	lz_repos_release(&r);
	lz_tokens_release(&skip);
}

static void
test_guard(void **state)
{
	struct lz_repos launch = LZ_REPOS_INIT, now = LZ_REPOS_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	const char *stop = "lazaret: Git Sentry (SR-4) moved .git here to "
	    LZ_REPOS_Q_DOTGIT;
	char p[512], q[512], buf[512];
	struct stat st;
	FILE *f;

	(void)state;
	gitdir("own/.git");
	put("own/.git/config", "");
	put("link/.git", "gitdir: ../.git/modules/m\n");
	gitdir(".git/modules/m");
	put("ownfile/.git", "gitdir: ../elsewhere\n");
	scan(&launch, NULL);
	/* Nothing new: nothing moved. */
	scan(&now, NULL);
	assert_int_equal(lz_repos_guard(ws, &launch, &now, &log, &e), 0);
	assert_int_equal(log.len, 0);

	/* The sandbox renames a known repository's directory: still known. */
	path(p, sizeof p, "own");
	path(q, sizeof q, "own2");
	assert_int_equal(rename(p, q), 0);
	/* New: a .git directory, a bare git directory, a .git file at a
	 * new path with a known file's inode, a commondir in a known one. */
	gitdir("evil/.git");
	gitdir("evil.git");
	path(p, sizeof p, "ownfile/.git");
	path(q, sizeof q, "moved");
	mkdir(q, 0755);
	path(q, sizeof q, "moved/.git");
	assert_int_equal(link(p, q), 0);
	put("own2/.git/commondir", "/tmp/x\n");
	/* Not moved: a submodule checkout's .git file, an inert one. */
	put("sub/.git", "gitdir: ../.git/modules/m\n");
	put("inert/.git", "lazaret: moved\n");
	scan(&now, NULL);
	assert_int_equal(lz_repos_guard(ws, &launch, &now, &log, &e), 4);
	path(p, sizeof p, "own2/.git/HEAD");
	assert_int_equal(stat(p, &st), 0);
	path(p, sizeof p, "own2/.git/commondir");
	assert_int_not_equal(lstat(p, &st), 0);
	assert_non_null(strstr(log.buf, "own2/.git/commondir to "));
	/* evil/.git: moved, HEAD and all, a stopper in its place. */
	path(p, sizeof p, "evil/.git");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	f = fopen(p, "r");
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_int_equal(strncmp(buf, stop, strlen(stop)), 0);
	assert_non_null(strstr(log.buf, "evil/.git to "));
	assert_non_null(strstr(log.buf, "(and its HEAD to "
	    LZ_REPOS_Q_HEAD));
	path(p, sizeof p, "evil.git/HEAD");
	assert_int_not_equal(lstat(p, &st), 0);
	path(p, sizeof p, "evil.git/.git");
	assert_int_equal(lstat(p, &st), 0);
	path(p, sizeof p, "moved/.git");
	assert_true(lstat(p, &st) == 0 && S_ISREG(st.st_mode));
	assert_non_null(strstr(log.buf, "moved/.git to "));
	path(p, sizeof p, "sub/.git");
	f = fopen(p, "r");
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "gitdir: ../.git/modules/m\n");
	/* Once inert, nothing more moves: the stoppers are not repositories. */
	lz_buf_reset(&log);
	scan(&now, NULL);
	assert_int_equal(lz_repos_guard(ws, &launch, &now, &log, &e), 0);
	lz_repos_release(&launch);
	lz_repos_release(&now);
	lz_buf_release(&log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_census, fresh),
		cmocka_unit_test_setup(test_guard, fresh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
