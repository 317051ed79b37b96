/*
 * test-gitlinks.c: unit tests of core/gitlinks.c on real repositories made
 * with git: the index's gitlinks and what their .git is, the launch
 * snapshot trusted, a .git added or replaced under a gitlink moved away
 * (content kept), a .git file naming .git/modules accepted and one naming
 * anything else moved, a symlinked gitlink path left alone, a split index
 * (which libgit2 cannot read) listed through git.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/gitlinks.h"
#include "testlib.h"

static char base[] = "/tmp/lz-gitlinks-XXXXXX";
static char *ws;

/* git -C dir ARGS... */
static void
git(const char *dir, ...)
{
	char *argv[16] = { "git", "-C", (char *)dir };
	va_list ap;
	int n = 3;

	va_start(ap, dir);
	while (n < 15 && (argv[n] = va_arg(ap, char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	lz_test_run(argv);
}

/*
 * A repository at ws/rel (ws itself for "") with one commit; its HEAD's ID
 * in id.
 */
static void
repo(const char *rel, char id[41])
{
	char *d = rel[0] ? lz_xasprintf("%s/%s", ws, rel) : lz_xstrdup(ws);
	char *f0 = rel[0] ? lz_xasprintf("%s/f", rel) : lz_xstrdup("f"), *p;
	FILE *f;

	lz_test_put(ws, f0, "x\n");
	free(f0);
	git(d, "init", "-q", NULL);
	git(d, "add", "f", NULL);
	git(d, "-c", "user.name=t", "-c", "user.email=t@e.invalid", "commit",
	    "-qm", "i", NULL);
	p = lz_xasprintf("%s/.git/refs/heads/master", d);
	f = fopen(p, "r");
	if (f == NULL) {
		free(p);
		p = lz_xasprintf("%s/.git/refs/heads/main", d);
		f = fopen(p, "r");
	}
	assert_non_null(f);
	assert_non_null(fgets(id, 41, f));
	fclose(f);
	free(p);
	free(d);
}

/* A gitlink at rel to id in ws's index. */
static void
gitlink(const char *rel, const char *id)
{
	char *info = lz_xasprintf("160000,%s,%s", id, rel);

	git(ws, "update-index", "--add", "--cacheinfo", info, NULL);
	free(info);
}

static const struct lz_gitlink *
find(const struct lz_gitlinks *g, const char *path)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (strcmp(g->v[i].path, path) == 0)
			return &g->v[i];
	}
	return NULL;
}

static int
setup(void **state)
{
	char id[41];

	(void)state;
	assert_non_null(mkdtemp(base));
	assert_int_equal(lz_test_git_home(base), 0);
	ws = lz_xasprintf("%s/ws", base);
	assert_int_equal(mkdir(ws, 0755), 0);
	repo("", id);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	free(ws);
	return 0;
}

static void
test_scan_and_guard(void **state)
{
	struct lz_gitlinks launch = LZ_GITLINKS_INIT, now = LZ_GITLINKS_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	const struct lz_gitlink *e;
	char id[41], *p, *q;
	struct stat st;

	(void)state;
	/* The developer's: an embedded repository and a modules gitdir. */
	repo("vendor/own", id);
	gitlink("vendor/own", id);
	lz_test_put(ws, ".git/modules/sub/HEAD", "ref: refs/heads/master\n");
	lz_test_put(ws, "sub/.git", "gitdir: ../.git/modules/sub\n");
	gitlink("sub", id);
	gitlink("unpopulated", id);
	assert_int_equal(lz_gitlinks_scan(ws, &launch, &err), 0);
	assert_int_equal(launch.n, 3);
	assert_non_null(e = find(&launch, "vendor/own"));
	assert_int_equal(e->kind, 'd');
	assert_non_null(e = find(&launch, "sub"));
	assert_int_equal(e->kind, 'f');
	assert_non_null(e = find(&launch, "unpopulated"));
	assert_int_equal(e->kind, 0);
	/* Nothing new: nothing moved (a copy is the same list). */
	lz_gitlinks_copy(&now, &launch);
	assert_int_equal(now.n, launch.n);
	assert_int_equal(find(&now, "vendor/own")->ino,
	    find(&launch, "vendor/own")->ino);
	assert_int_equal(lz_gitlinks_guard(ws, &launch, &now, &log, &err), 0);
	assert_int_equal(log.len, 0);
	lz_gitlinks_release(&now);

	/* The sandbox's: a new gitlink over its own repository, a .git put
	 * under the unpopulated one, and a .git file naming elsewhere. */
	repo("evil", id);
	gitlink("evil", id);
	lz_test_put(ws, "unpopulated/.git", "gitdir: /tmp/elsewhere\n");
	repo("dots", id);
	gitlink("dots", id);
	p = lz_xasprintf("%s/dots/.git", ws);
	lz_test_rmrf(p);
	free(p);
	lz_test_put(ws, "dots/.git", "gitdir: ../x/../.git/modules/sub\n");
	assert_int_equal(lz_gitlinks_scan(ws, &now, &err), 0);
	assert_int_equal(lz_gitlinks_guard(ws, &launch, &now, &log, &err), 3);
	assert_non_null(strstr(log.buf, "/evil/.git"));
	assert_non_null(strstr(log.buf, "/unpopulated/.git"));
	assert_non_null(strstr(log.buf, "/dots/.git"));
	assert_null(strstr(log.buf, "vendor/own"));
	assert_null(strstr(log.buf, "/sub/.git"));
	p = lz_xasprintf("%s/evil/.git", ws);
	assert_int_not_equal(lstat(p, &st), 0);
	free(p);
	/* Kept: the quarantined repository is still a repository. */
	lz_gitlinks_release(&now);
	assert_int_equal(lz_gitlinks_scan(ws, &now, &err), 0);
	assert_int_equal(find(&now, "evil")->kind, 0);
	lz_buf_release(&log);

	/*
	 * The developer's repository renamed away (its .git is bound over
	 * itself in the sandbox, so only a parent can move) and another put
	 * in its place: moved too.
	 */
	p = lz_xasprintf("%s/vendor/own", ws);
	q = lz_xasprintf("%s/vendor/own2", ws);
	assert_int_equal(rename(p, q), 0);
	free(p);
	free(q);
	repo("vendor/own", id);
	assert_int_equal(lz_gitlinks_restat(ws, &now, &err), 0);
	assert_int_equal(lz_gitlinks_guard(ws, &launch, &now, &log, &err), 1);
	assert_non_null(strstr(log.buf, "vendor/own/.git"));
	lz_buf_release(&log);
	lz_gitlinks_release(&now);
	lz_gitlinks_release(&launch);
}

static void
test_symlink_path(void **state)
{
	struct lz_gitlinks now = LZ_GITLINKS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char id[41], *target, *link;

	(void)state;
	repo("real", id);
	target = lz_xasprintf("%s/real", ws);
	link = lz_xasprintf("%s/linked", ws);
	assert_int_equal(symlink(target, link), 0);
	gitlink("linked", id);
	assert_int_equal(lz_gitlinks_scan(ws, &now, &err), 0);
	assert_non_null(find(&now, "linked"));
	assert_int_equal(find(&now, "linked")->kind, 0);
	lz_gitlinks_release(&now);
	free(target);
	free(link);
}

/* A split index (libgit2 1.5 refuses its "link" extension): git lists it. */
static void
test_split_index(void **state)
{
	struct lz_gitlinks now = LZ_GITLINKS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char id[41];

	(void)state;
	repo("split", id);
	git(ws, "update-index", "--split-index", NULL);
	gitlink("split", id);
	setenv("GIT_INDEX_FILE", "/nonexistent/index", 1);
	assert_int_equal(lz_gitlinks_scan(ws, &now, &err), 0);
	unsetenv("GIT_INDEX_FILE");
	assert_non_null(find(&now, "split"));
	assert_int_equal(find(&now, "split")->kind, 'd');
	assert_non_null(find(&now, "evil"));
	lz_gitlinks_release(&now);
	git(ws, "update-index", "--no-split-index", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_and_guard),
		cmocka_unit_test(test_symlink_path),
		cmocka_unit_test(test_split_index),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
