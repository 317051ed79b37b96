/*
 * test-history.c: the Git history guard's passes (history.h) and restore
 * (histview.h, histrestore.h) on a real repository, in process (no
 * sandbox: git run here plays it): the launch pass records the refs and
 * snapshots uncommitted work; a reset with gc --prune=now is a loss and
 * its pruned objects are said; a deleted branch and a deleted tag are
 * said; a .git emptied is said once; restore puts everything back (git
 * fsck passes) and records it; the walker's request and answers
 * (histgit.h).
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

#include "core/histgit.h"
#include "core/history.h"
#include "core/histrestore.h"
#include "core/histview.h"
#include "core/spawn.h"
#include "tests/unit/testlib.h"

static char base[] = "/tmp/lz-test-history-XXXXXX";
static char ws[256], root[256];

static void
git(const char *a, const char *b, const char *c, const char *d)
{
	char *argv[] = { "git", "-C", ws, "-c", "user.name=t", "-c",
	    "user.email=t@e.invalid", (char *)a, (char *)b, (char *)c,
	    (char *)d, NULL };

	lz_test_run(argv);
}

static int
setup(void **state)
{
	char *init[] = { "git", "init", "-q", "-b", "main", ws, NULL };
	int i;

	(void)state;
	if (mkdtemp(base) == NULL || lz_test_git_home(base) != 0)
		return -1;
	snprintf(ws, sizeof ws, "%s/ws", base);
	snprintf(root, sizeof root, "%s/root", base);
	if (mkdir(root, 0700) != 0)
		return -1;
	lz_test_run(init);
	for (i = 0; i < 4; i++) {
		lz_test_put(ws, "f", i % 2 ? "odd\n" : "even\n");
		git("add", "f", NULL, NULL);
		git("commit", "-qm", i % 2 ? "odd" : "even", NULL);
	}
	git("branch", "topic", "HEAD~3", NULL);
	git("tag", "v1", "HEAD~3", NULL);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

/* git rev-parse WHAT, through the project's spawn path: "" when none. */
static char *
rev(const char *what)
{
	const char *argv[] = { "git", "-C", ws, "rev-parse", "-q", "--verify",
	    what, NULL };
	struct lz_spawn_result r;
	char *out;

	lz_spawn_result_init(&r);
	assert_int_equal(lz_spawn_capture(argv, NULL, &r, NULL), 0);
	r.out.buf[strcspn(r.out.buf, "\n")] = '\0';
	out = strdup(r.out.buf);
	lz_spawn_result_release(&r);
	return out;
}

static void
test_guard(void **state)
{
	struct lz_history h;
	struct lz_histview v;
	struct lz_histdone d = LZ_HISTDONE_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_tokens keys = LZ_TOKENS_INIT, rels = LZ_TOKENS_INIT;
	const struct lz_histloss **done;
	static const char *const gone[] = { "objects", "refs", "HEAD",
	    "packed-refs", "index", "logs" };
	char *fsck[] = { "git", "-C", ws, "fsck", "--no-dangling", NULL };
	char *top = rev("main"), *two = rev("main~2"), *now, cmd[512];
	size_t i;
	int n;

	(void)state;
	lz_test_put(ws, "f", "uncommitted\n");
	assert_int_equal(lz_history_init(&h, ws, root, NULL, 7 * 86400000ll,
	    0, NULL, &log, &e), 0);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.repos[0].rel, ".git");
	assert_int_equal(lz_history_launch(&h, 1000, &log, &e), 0);
	assert_non_null(strstr(log.buf, "uncommitted work saved as "
	    "refs/lazaret/snapshots/"));
	assert_non_null(h.snapshot);
	assert_string_equal(lz_refset_get(&h.repos[0].known,
	    "refs/heads/main"), top);
	git("checkout", "-q", "--", "f");

	/* reset --hard HEAD~2, reflog expire, gc --prune=now. */
	git("reset", "-q", "--hard", "HEAD~2");
	git("reflog", "expire", "--expire=now", "--all");
	git("gc", "-q", "--prune=now", NULL);
	lz_buf_reset(&log);
	n = lz_history_pass(&h, 0, 2000, 2000, &log, &e);
	assert_true(n >= 1);
	assert_non_null(strstr(log.buf, "history changed: refs/heads/main "
	    "moved from"));
	assert_non_null(strstr(log.buf, "2 commits no ref reaches"));
	assert_non_null(strstr(h.note.buf, "refs/heads/main moved from"));

	/* The branch and the tag deleted. */
	git("branch", "-q", "-D", "topic");
	git("tag", "-d", "v1", NULL);
	lz_buf_reset(&log);
	n = lz_history_pass(&h, 0, 4000, 4000, &log, &e);
	assert_true(n >= 1);
	assert_non_null(strstr(log.buf, "tag refs/tags/v1"));

	/* .git emptied as rm -rf would (the mounts stay): said once. */
	for (i = 0; i < sizeof gone / sizeof *gone; i++) {
		snprintf(cmd, sizeof cmd, "%s/.git/%s", ws, gone[i]);
		lz_test_rmrf(cmd);
		(void)unlink(cmd);
	}
	lz_buf_reset(&log);
	assert_true(lz_history_pass(&h, 1, 6000, 6000, &log, &e) >= 1);
	assert_non_null(strstr(log.buf, ".git is gone"));
	lz_buf_reset(&log);
	assert_int_equal(lz_history_pass(&h, 0, 8000, 8000, &log, &e), 0);
	lz_history_release(&h);

	/* Restore: everything lost comes back. */
	assert_int_equal(lz_histview_stores(root, &keys, &rels, &e), 0);
	assert_int_equal(keys.n, 1);
	assert_int_equal(lz_histview_open(&v, ws, root, keys.v[0], NULL, -1,
	    &e), 0);
	assert_true(v.missing);
	assert_true(v.plan.n >= 3);
	/* main: two losses (the reset, then .git): the earlier counted. */
	for (i = 0; i < v.plan.n; i++)
		if (strcmp(v.plan.v[i].name, "refs/heads/main") == 0)
			assert_int_equal(v.plan.v[i].earlier, 1);
	assert_int_equal(lz_histrestore_objects(&v, &d, &e), 0);
	assert_true(d.objects > 0);
	assert_int_equal(d.damaged, 0);
	done = calloc(v.plan.n, sizeof *done);
	for (i = 0; i < v.plan.n; i++) {
		assert_int_equal(v.plan.v[i].ask, 0);
		assert_int_equal(lz_histrestore_ref(&v, &v.plan.v[i], &d, &e),
		    0);
		done[i] = &v.plan.v[i];
	}
	assert_int_equal(lz_histrestore_finish(&v, done, v.plan.n, &d, &e), 0);
	assert_int_equal(d.index, 1);
	free(done);
	lz_histview_release(&v);
	/* The last loss undone: main as it was before .git went. */
	now = rev("main");
	assert_string_equal(now, two);
	free(now);
	now = rev("v1");
	assert_true(now[0] != '\0');
	free(now);
	lz_test_run(fsck);
	/* The loss before it is next: a second restore undoes it too. */
	assert_int_equal(lz_histview_open(&v, ws, root, keys.v[0], NULL, -1,
	    &e), 0);
	assert_false(v.missing);
	assert_int_equal(v.log.v[v.log.n - 1].who, LZ_HIST_RESTORE);
	assert_int_equal(v.plan.n, 1);
	assert_string_equal(v.plan.v[0].target, top);
	assert_int_equal(v.plan.v[0].ask, 0);	/* forward from main~2 */
	lz_histview_release(&v);
	/* The same by time: --to before the reset, for main. */
	assert_int_equal(lz_histview_open(&v, ws, root, keys.v[0], "main",
	    1500, &e), 0);
	assert_int_equal(v.plan.n, 1);
	assert_string_equal(v.plan.v[0].target, top);
	assert_int_equal(lz_histrestore_ref(&v, &v.plan.v[0], &d, &e), 0);
	lz_histview_release(&v);
	now = rev("main");
	assert_string_equal(now, top);
	free(now);
	assert_int_equal(lz_histview_open(&v, ws, root, keys.v[0], NULL, -1,
	    &e), 0);
	assert_int_equal(v.plan.n, 0);
	lz_histview_release(&v);
	lz_tokens_release(&keys);
	lz_tokens_release(&rels);
	lz_buf_release(&d.lines);
	lz_buf_release(&log);
	free(top);
	free(two);
}

/* refs/ replaced by a symlink: moved aside, never followed, refs back. */
static void
test_planted_dir(void **state)
{
	struct lz_history h;
	struct lz_histview v;
	struct lz_histdone d = LZ_HISTDONE_INIT;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_tokens keys = LZ_TOKENS_INIT, rels = LZ_TOKENS_INIT;
	char p[512], *top = rev("main"), *now;
	struct stat st;
	size_t i;

	(void)state;
	assert_int_equal(lz_history_init(&h, ws, root, NULL, 86400000, 0,
	    NULL, &log, &e), 0);
	assert_int_equal(lz_history_launch(&h, 1000, &log, &e), 0);
	snprintf(p, sizeof p, "%s/.git/refs", ws);
	lz_test_rmrf(p);
	assert_int_equal(symlink(base, p), 0);
	assert_true(lz_history_pass(&h, 1, 2000, 2000, &log, &e) >= 0);
	lz_history_release(&h);
	assert_int_equal(lz_histview_stores(root, &keys, &rels, &e), 0);
	assert_int_equal(lz_histview_open(&v, ws, root, keys.v[0], NULL, -1,
	    &e), 0);
	assert_int_equal(lz_histrestore_objects(&v, &d, &e), 0);
	assert_non_null(strstr(d.lines.buf, "refs was not what git keeps "
	    "there"));
	for (i = 0; i < v.plan.n; i++)
		assert_int_equal(lz_histrestore_ref(&v, &v.plan.v[i], &d, &e),
		    0);
	lz_histview_release(&v);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	now = rev("main");
	assert_string_equal(now, top);
	free(now);
	free(top);
	lz_tokens_release(&keys);
	lz_tokens_release(&rels);
	lz_histdone_release(&d);
	lz_buf_release(&log);
}

/* The walker's questions, as the coordinator writes them. */
static void
test_walker(void **state)
{
	struct lz_buf req = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char *top = rev("main"), *old = rev("main~2"), *side = rev("topic");

	(void)state;
	lz_buf_addf(&req, "lazaret-history-walk 1\nobjects %s/.git/objects\n"
	    "hide %s\nhide %s\ncheck %s %s\ncheck %s %s\ncheck - %s\n", ws,
	    old, side, top, old, old, top, top);
	assert_int_equal(lz_histgit_answer(req.buf, req.len, &out, &e), 0);
	/* main~2..main lost after a reset to main~2; a forward move; a
	 * creation. */
	assert_string_equal(out.buf, "2 0\n0 1\n0 -1\n");
	lz_buf_reset(&out);
	assert_int_equal(lz_histgit_answer("nope\n", 5, &out, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_buf_release(&req);
	lz_buf_release(&out);
	free(top);
	free(old);
	free(side);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walker, setup, teardown),
	};
	const struct CMUnitTest guard[] = {
		cmocka_unit_test_setup_teardown(test_guard, setup, teardown),
	};
	const struct CMUnitTest planted[] = {
		cmocka_unit_test_setup_teardown(test_planted_dir, setup,
		    teardown),
	};
	int rc;

	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(base, sizeof base, "/tmp/lz-test-history-XXXXXX");
	rc += cmocka_run_group_tests(guard, NULL, NULL);
	snprintf(base, sizeof base, "/tmp/lz-test-history-XXXXXX");
	return rc + cmocka_run_group_tests(planted, NULL, NULL);
}
