/*
 * test-ignored.c: Ignored Workspace State (SR-13, FR-9) on real Git
 * repositories in a temporary directory: ignored directories collapsed,
 * concrete .gitignore entries covered even when absent, globs uncovered,
 * nested .gitignore, the union that never shrinks, a symlinked path
 * refused, the workspace view and its list, the mount cap and its advice,
 * collapsing under untracked directories, the record (version 1 read,
 * version 2 written), the reset of the state with its recovery, and the
 * scan's index that trusts tracked files' stat (ignored-index.c).
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
#include <git2.h>

#include "core/ignored.h"
#include "tests/unit/testlib.h"

#define put_ws(rel, text) lz_test_put(ws, rel, text)

static char base[] = "/tmp/lz-test-ignored-XXXXXX";
static char ws[256], root[256];

static int
has(const struct lz_tokens *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i], s) == 0)
			return 1;
	}
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(base) == NULL)
		return -1;
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
	char *rm[] = { "rm", "-rf", ws, root, NULL };
	char *init[] = { "git", "init", "-q", ws, NULL };

	(void)state;
	snprintf(ws, sizeof ws, "%s/ws", base);
	snprintf(root, sizeof root, "%s/domain", base);
	lz_test_run(rm);
	lz_test_run(init);
	mkdir(root, 0700);
	return 0;
}

static void
scan(struct lz_ignored *ig)
{
	struct lz_err e = LZ_ERR_INIT;

	if (lz_ignored_scan(ws, ig, &e) != 0)
		fail_msg("scan: %s", e.msg);
}

static void
test_scan(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;

	(void)state;
	put_ws(".gitignore", "node_modules/\n/build/\n.env\n*.o\n!keep.o\n"
	    "# comment\n../escape\n.git/\n");
	put_ws("build/secret", "s");
	put_ws("a.o", "");
	put_ws("src/main.c", "int x;\n");
	put_ws("sub/.gitignore", "cache/\n");
	put_ws(".git/info/exclude", "/local-only/\n");
	scan(&ig);
	assert_true(has(&ig.paths, "node_modules/"));	/* absent */
	assert_true(has(&ig.paths, "build/"));		/* collapsed */
	assert_false(has(&ig.paths, "build/secret"));
	assert_true(has(&ig.paths, ".env"));		/* a file */
	assert_true(has(&ig.paths, "a.o"));		/* exists: reported */
	assert_true(has(&ig.paths, "sub/cache/"));	/* nested rules */
	assert_true(has(&ig.paths, "local-only/"));
	assert_false(has(&ig.paths, "src/main.c"));
	assert_true(has(&ig.uncovered, ".gitignore: *.o"));
	assert_true(has(&ig.uncovered, ".gitignore: !keep.o"));
	assert_int_equal(ig.paths.n, 6);
	lz_ignored_release(&ig);
}

/* The plan's /workspace, as lz_mountplan_build makes it. */
static void
plan_ws(struct lz_mountplan *mp)
{
	lz_mountplan_add(mp, LZ_MOUNT_BIND, ws, "/workspace", 0, "workspace");
}

static void
test_prepare_and_union(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_tokens rels = LZ_TOKENS_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_view v;
	char p[512], *annot;
	struct stat st;
	struct lz_view back;

	(void)state;
	put_ws(".gitignore", "node_modules/\n.env\n/build/\n");
	put_ws("build/secret", "s");
	scan(&ig);
	assert_int_equal(lz_ignored_merge(root, &ig, &e), 0);
	plan_ws(&mp);
	if (lz_ignored_prepare(ws, root, &ig, &mp, &v, &e) != 0)
		fail_msg("prepare: %s", e.msg);
	/* One mount: /workspace is the view the shim composes. */
	assert_int_equal(mp.n, 1);
	snprintf(p, sizeof p, "%s/view", root);
	assert_string_equal(mp.v[0].source, p);
	assert_string_equal(v.view, p);
	assert_string_equal(v.workspace, ws);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(lz_view_list_read(&v, &rels, &e), 0);
	assert_int_equal(rels.n, 3);
	assert_string_equal(rels.v[0], ".env");
	assert_string_equal(rels.v[1], "build/");
	assert_string_equal(rels.v[2], "node_modules/");
	lz_tokens_release(&rels);
	annot = lz_view_annot_encode(&v);
	assert_int_equal(lz_view_annot_decode(annot, &back, &e), 0);
	assert_string_equal(back.list, v.list);
	assert_string_equal(back.storage, v.storage);
	lz_view_release(&back);
	free(annot);
	lz_view_release(&v);
	snprintf(p, sizeof p, "%s/ignored/node_modules", root);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(p, sizeof p, "%s/ignored/.env", root);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* Host mount points made: a directory and an empty file. */
	snprintf(p, sizeof p, "%s/node_modules", ws);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(p, sizeof p, "%s/.env", ws);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	lz_mountplan_release(&mp);
	lz_ignored_release(&ig);

	/* The sandbox empties .gitignore: the union keeps all three. */
	put_ws(".gitignore", "other/\n");
	scan(&ig);
	assert_false(has(&ig.paths, "node_modules/"));
	assert_int_equal(lz_ignored_merge(root, &ig, &e), 0);
	assert_true(has(&ig.paths, "node_modules/"));
	assert_true(has(&ig.paths, ".env"));
	assert_true(has(&ig.paths, "build/"));
	assert_true(has(&ig.paths, "other/"));
	lz_ignored_release(&ig);
	/* And the record grew. */
	memset(&ig, 0, sizeof ig);
	assert_int_equal(lz_ignored_merge(root, &ig, &e), 0);
	assert_int_equal(ig.paths.n, 4);
	lz_ignored_release(&ig);
}

static void
test_symlink_refused(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_view v;
	char link[512];

	(void)state;
	put_ws(".gitignore", "node_modules/\n");
	snprintf(link, sizeof link, "%s/node_modules", ws);
	assert_int_equal(symlink("/tmp", link), 0);
	scan(&ig);
	lz_tokens_push(&ig.paths, "node_modules/");
	plan_ws(&mp);
	assert_int_equal(lz_ignored_prepare(ws, root, &ig, &mp, &v, &e),
	    LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "symlink"));
	assert_int_equal(mp.n, 1);
	assert_string_equal(mp.v[0].source, ws);
	lz_mountplan_release(&mp);
	lz_err_release(&e);
	lz_ignored_release(&ig);
}

/* Past the cap with nothing to collapse: the error names the way out. */
static void
test_cap(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_view v;
	char name[32], want[64];
	int i;

	(void)state;
	ig.added = calloc(LZ_IGNORED_MAX_MOUNTS + 2, sizeof *ig.added);
	for (i = 0; i < LZ_IGNORED_MAX_MOUNTS + 1; i++) {
		snprintf(name, sizeof name, "d%04d/", i);
		lz_tokens_push(&ig.paths, name);
		/* d0000/ was isolated last: it pushed the count over. */
		ig.added[i] = i == 0 ? 2000 : 1000;
	}
	lz_tokens_push(&ig.stale, "d0001/");
	assert_int_equal(lz_ignored_prepare(ws, root, &ig, &mp, &v, &e),
	    LZ_EINVAL);
	snprintf(want, sizeof want, "%d ignored paths",
	    LZ_IGNORED_MAX_MOUNTS + 1);
	assert_non_null(strstr(e.msg, want));
	assert_non_null(strstr(e.msg, "pushed it over: 'd0000/'."));
	assert_non_null(strstr(e.msg, "1 of the"));
	assert_non_null(strstr(e.msg, "state reset --ignored --forget-paths"));
	assert_non_null(strstr(e.msg, "ignored-isolation = off"));
	assert_int_equal(mp.n, 0);
	lz_err_release(&e);
	lz_ignored_release(&ig);
}

/*
 * Past the cap, paths under a directory that holds nothing tracked
 * become that directory; one that holds a tracked file stays split.
 */
static void
test_collapse(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char *add[] = { "git", "-C", ws, "add", "pkg/a/package.json", NULL };
	char name[64];
	int i;

	(void)state;
	put_ws("pkg/a/package.json", "{}\n");
	lz_test_run(add);
	ig.added = calloc(LZ_IGNORED_MAX_MOUNTS + 8, sizeof *ig.added);
	for (i = 0; i < LZ_IGNORED_MAX_MOUNTS; i++) {
		snprintf(name, sizeof name, "out/x%04d/", i);
		lz_tokens_push(&ig.paths, name);
	}
	lz_tokens_push(&ig.paths, "pkg/a/dist/");
	lz_tokens_push(&ig.paths, "pkg/a/node_modules/");
	assert_int_equal(lz_ignored_fit(ws, &ig, &e), 0);
	assert_int_equal(ig.paths.n, 3);
	assert_true(has(&ig.paths, "out/"));
	assert_true(has(&ig.paths, "pkg/a/dist/"));
	assert_true(has(&ig.paths, "pkg/a/node_modules/"));
	lz_ignored_release(&ig);
}

/* Version 1 records are read; the rewrite is version 2 with times. */
static void
test_record(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct lz_tokens rec = LZ_TOKENS_INIT;
	long long *added = NULL;
	char p[512];

	(void)state;
	lz_test_put(root, "ignored.json", "[\"old/\", \".env\"]\n");
	put_ws(".gitignore", "node_modules/\n");
	scan(&ig);
	assert_int_equal(lz_ignored_merge(root, &ig, NULL), 0);
	assert_int_equal(ig.paths.n, 3);
	assert_int_equal(ig.stale.n, 2);
	assert_true(has(&ig.stale, ".env"));
	lz_ignored_release(&ig);
	assert_int_equal(lz_ignored_record_read(root, &rec, &added, NULL), 0);
	assert_int_equal(rec.n, 3);
	assert_string_equal(rec.v[0], ".env");
	assert_int_equal(added[0], 0);		/* from version 1: unknown */
	assert_true(added[1] > 1000000000);	/* node_modules/: now */
	lz_tokens_release(&rec);
	free(added);
	snprintf(p, sizeof p, "%s/ignored.json", root);
	lz_test_put(root, "ignored.json", "{\"version\": 3, \"paths\": []}");
	assert_int_equal(lz_ignored_record_read(root, &rec, &added, NULL),
	    LZ_EINVAL);
	unlink(p);
	assert_int_equal(lz_ignored_record_read(root, &rec, &added, NULL), 0);
	assert_int_equal(rec.n, 0);
	free(added);
}

/* reset --ignored: content gone, record kept or forgotten; recovery. */
static void
test_state_reset(void **state)
{
	struct lz_tokens removed = LZ_TOKENS_INIT;
	char p[512];
	int fd;

	(void)state;
	lz_test_put(root, "ignored/node_modules/x/f", "f\n");
	lz_test_put(root, "ignored.json", "[\"node_modules/\"]\n");
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_ignored_state_reset(fd, 0, NULL), 0);
	snprintf(p, sizeof p, "%s/ignored", root);
	assert_int_not_equal(access(p, F_OK), 0);
	snprintf(p, sizeof p, "%s/ignored.json", root);
	assert_int_equal(access(p, F_OK), 0);
	lz_test_put(root, "ignored/y", "y\n");
	assert_int_equal(lz_ignored_state_reset(fd, 1, NULL), 0);
	assert_int_not_equal(access(p, F_OK), 0);
	lz_test_put(root, "ignored.old-12/z/z", "z\n");
	assert_int_equal(lz_ignored_state_recover(fd, &removed, NULL), 0);
	assert_int_equal(removed.n, 1);
	snprintf(p, sizeof p, "%s/ignored.old-12", root);
	assert_int_not_equal(access(p, F_OK), 0);
	lz_tokens_release(&removed);
	close(fd);
}

/* A file's stat, and its whole text (at most 64 KiB). */
struct snap {
	struct stat st;
	char text[65536];
	ssize_t len;
};

static void
snap(const char *rel, struct snap *sn)
{
	char p[512];
	int fd;

	snprintf(p, sizeof p, "%s/%s", ws, rel);
	assert_int_equal(lstat(p, &sn->st), 0);
	assert_true((fd = open(p, O_RDONLY)) >= 0);
	sn->len = read(fd, sn->text, sizeof sn->text);
	close(fd);
}

/*
 * The scan's index trusts each tracked file's stat as it is now
 * (ignored-index.c): the index on disk made stale (every tracked file
 * touched, one rewritten at the same size) changes nothing of what is
 * ignored, a tracked file matching a rule stays tracked, and the index on
 * disk is not written. The copy carries the files' stat, except for a
 * file whose size changed.
 */
static void
test_tracked_stat(void **state)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct snap before, after, cur;
	struct timespec later[2] = { { 2000000000, 0 }, { 2000000000, 0 } };
	char *add[] = { "git", "-C", ws, "add", "-f", ".gitignore", "keep.log",
	    "a.c", "grow.c", NULL };
	const char *tracked[] = { ".gitignore", "keep.log", "a.c", "grow.c" };
	const git_index_entry *ie;
	git_repository *repo;
	git_index *disk, *mem;
	char p[512];
	size_t i;
	int fd;

	(void)state;
	put_ws(".gitignore", "*.log\n");
	put_ws("keep.log", "tracked\n");
	put_ws("a.c", "int a;\n");
	put_ws("grow.c", "int g;\n");
	lz_test_run(add);
	put_ws("x.log", "ignored\n");
	put_ws("a.c", "int b;\n");		/* same size, other text */
	put_ws("grow.c", "int grown;\n");	/* another size */
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/%s", ws, tracked[i]);
		assert_int_equal(utimensat(AT_FDCWD, p, later, 0), 0);
	}
	snap(".git/index", &before);
	scan(&ig);
	assert_int_equal(ig.paths.n, 1);
	assert_true(has(&ig.paths, "x.log"));
	lz_ignored_release(&ig);
	snap(".git/index", &after);
	assert_int_equal(after.st.st_mtim.tv_sec, before.st.st_mtim.tv_sec);
	assert_int_equal(after.st.st_mtim.tv_nsec, before.st.st_mtim.tv_nsec);
	assert_int_equal(after.len, before.len);
	assert_memory_equal(after.text, before.text, (size_t)before.len);

	/* The copy: the file's stat where the size is the index's. */
	assert_int_equal(git_repository_open(&repo, ws), 0);
	assert_int_equal(git_repository_index(&disk, repo), 0);
	assert_true((fd = open(ws, O_PATH | O_DIRECTORY)) >= 0);
	assert_int_equal(lz_ignored_index_trusted(repo, disk, fd), 0);
	close(fd);
	assert_int_equal(git_repository_index(&mem, repo), 0);
	assert_ptr_not_equal(mem, disk);
	assert_int_equal(git_index_entrycount(mem), 4);
	for (i = 0; i < 4; i++) {
		ie = git_index_get_bypath(mem, tracked[i], 0);
		assert_non_null(ie);
		snap(tracked[i], &cur);
		if (strcmp(tracked[i], "grow.c") == 0)
			assert_int_not_equal(ie->mtime.seconds,
			    (int32_t)cur.st.st_mtim.tv_sec);
		else {
			assert_int_equal(ie->mtime.seconds,
			    (int32_t)cur.st.st_mtim.tv_sec);
			assert_int_equal(ie->ino, (uint32_t)cur.st.st_ino);
		}
	}
	git_index_free(mem);
	git_index_free(disk);
	git_repository_free(repo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_scan, fresh),
		cmocka_unit_test_setup(test_prepare_and_union, fresh),
		cmocka_unit_test_setup(test_symlink_refused, fresh),
		cmocka_unit_test_setup(test_cap, fresh),
		cmocka_unit_test_setup(test_collapse, fresh),
		cmocka_unit_test_setup(test_record, fresh),
		cmocka_unit_test_setup(test_state_reset, fresh),
		cmocka_unit_test_setup(test_tracked_stat, fresh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
