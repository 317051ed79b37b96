/*
 * test-gitguard.c: Git Sentry's checks while a Domain runs (gitguard.h)
 * and its record (gsreport.h), on a real repository: a commondir in the
 * workspace's .git and in a submodule gitdir, a gitdir in a worktree
 * directory that had none, a new repository (only when the census is
 * due), a protected file that appears (reported once), the record
 * cleared at start, appended to, read back with its prefix.
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

#include "core/gitguard.h"
#include "core/gsreport.h"
#include "tests/unit/testlib.h"

#define put(rel, text) lz_test_put(ws, rel, text)

static char base[] = "/tmp/lz-test-gitguard-XXXXXX";
static char ws[256], root[256];

static int
setup(void **state)
{
	char *init[] = { "git", "init", "-q", ws, NULL };

	(void)state;
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(ws, sizeof ws, "%s/ws", base);
	snprintf(root, sizeof root, "%s/root", base);
	if (lz_test_git_home(base) != 0 || mkdir(root, 0700) != 0)
		return -1;
	lz_test_run(init);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static int
exists(const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof p, "%s/%s", ws, rel);
	return lstat(p, &st) == 0;
}

static void
test_checks(void **state)
{
	struct lz_gitguard g;
	struct lz_tokens protect = LZ_TOKENS_INIT;
	struct lz_buf log = LZ_BUF_INIT, rec = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	put(".git/worktrees/wt/commondir", "../..\n");
	put(".git/worktrees/wt/HEAD", "ref: refs/heads/main\n");
	put(".git/modules/m/HEAD", "ref: refs/heads/main\n");
	put(".git/modules/m/config", "");
	lz_tokens_push(&protect, ".vscode/settings.json");
	lz_gsreport_add(root, "old line\n");
	assert_int_equal(lz_gitguard_init(&g, ws, root, NULL, &protect, 0,
	    &e), 0);
	lz_gsreport_read(root, &rec);
	assert_int_equal(rec.len, 0);	/* a new record per run */

	/* Files that must stay absent: moved at every check. */
	put(".git/commondir", "/tmp/evil\n");
	put(".git/modules/m/commondir", "/tmp/evil\n");
	put(".git/worktrees/wt/gitdir", "/home/x/.git\n");
	assert_int_equal(lz_gitguard_check(&g, &log, &e), 3);
	assert_false(exists(".git/commondir"));
	assert_false(exists(".git/modules/m/commondir"));
	assert_false(exists(".git/worktrees/wt/gitdir"));
	assert_non_null(strstr(log.buf, "Git Sentry (SR-4): moved "));
	assert_non_null(strstr(log.buf, "/.git/commondir to "));
	assert_non_null(strstr(log.buf, "lazaret-quarantine-gitdir."));

	/* A new repository: only once the census is due (or forced). */
	put("evil/.git/HEAD", "ref: refs/heads/main\n");
	put("evil/.git/objects/x", "");
	put("evil/.git/refs/x", "");
	lz_buf_reset(&log);
	assert_int_equal(lz_gitguard_check(&g, &log, &e), 0);
	assert_false(lz_gitguard_census_due(&g, LZ_GITGUARD_WALK_MS - 1));
	assert_true(lz_gitguard_census_due(&g, LZ_GITGUARD_WALK_MS));
	assert_int_equal(lz_gitguard_census(&g, LZ_GITGUARD_WALK_MS, &log,
	    &e), 1);
	assert_non_null(strstr(log.buf, "evil/.git to "));
	/* Not due again until a walk time later. */
	assert_false(lz_gitguard_census_due(&g, LZ_GITGUARD_WALK_MS + 1));

	/* A protected file that appears: reported once, left in place. */
	put(".vscode/settings.json", "{}");
	lz_buf_reset(&log);
	assert_int_equal(lz_gitguard_check(&g, &log, &e), 1);
	assert_non_null(strstr(log.buf, ".vscode/settings.json appeared "
	    "while the Domain ran"));
	assert_true(exists(".vscode/settings.json"));
	assert_int_equal(lz_gitguard_check(&g, &log, &e), 0);
	assert_int_equal(lz_gitguard_census(&g, 5000, &log, &e), 0);

	/* Everything is in the record, for the next launch. */
	lz_gsreport_read(root, &rec);
	assert_non_null(strstr(rec.buf, "since the last launch: Git Sentry "
	    "(SR-4): moved "));
	assert_non_null(strstr(rec.buf, "evil/.git to "));
	assert_non_null(strstr(rec.buf, "settings.json appeared"));
	assert_null(strstr(rec.buf, "old line"));
	lz_gitguard_release(&g);
	lz_tokens_release(&protect);
	lz_buf_release(&log);
	lz_buf_release(&rec);
}

/* The record keeps LZ_GSREPORT_MAX bytes, then one line says so. */
static void
test_record_bound(void **state)
{
	struct lz_buf rec = LZ_BUF_INIT;
	char line[1024];
	int i;

	(void)state;
	lz_gsreport_clear(root);
	memset(line, 'x', sizeof line - 2);
	line[sizeof line - 2] = '\n';
	line[sizeof line - 1] = '\0';
	for (i = 0; i < 200; i++)
		lz_gsreport_add(root, line);
	lz_gsreport_read(root, &rec);
	assert_true(rec.len < LZ_GSREPORT_MAX + 64 * 30);
	assert_non_null(strstr(rec.buf, "more moves and reports than this "
	    "record keeps"));
	lz_buf_release(&rec);
	lz_gsreport_clear(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_record_bound),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
