/*
 * test-termdb.c: terminfo lookup in ncurses' order with a controlled
 * environment (fake TERMINFO, HOME and TERMINFO_DIRS trees, both
 * layouts), the real /usr/share/terminfo/x/xterm, unsafe names refused,
 * installation into a fresh directory, and where Lazaret's own entry is
 * looked for (beside an installed binary, in a build tree, the override).
 * What that entry claims is tested in test-termdb-lazaret.c.
 */
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

#include "termdb/termdb.h"
#include "tests/unit/testlib.h"

#define put_base(rel, text) lz_test_put(base, rel, text)

static char base[] = "/tmp/lz-test-termdb-XXXXXX";
static const char *env_terminfo, *env_home, *env_dirs, *env_lzdir;

static const char *
fake_get(const char *name)
{
	if (strcmp(name, "TERMINFO") == 0)
		return env_terminfo;
	if (strcmp(name, "HOME") == 0)
		return env_home;
	if (strcmp(name, "TERMINFO_DIRS") == 0)
		return env_dirs;
	if (strcmp(name, "LZ_TERMINFO_DIR") == 0)
		return env_lzdir;
	return NULL;
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(base) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static void
expect(const char *term, const char *suffix)
{
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL, want[512];

	if (lz_termdb_find(term, fake_get, &path, &e) != 0)
		fail_msg("find '%s': %s", term, e.msg);
	snprintf(want, sizeof want, "%s/%s", base, suffix);
	assert_string_equal(path, want);
	free(path);
}

static void
test_order(void **state)
{
	char ti[512], home[512], dirs[1024];
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL;

	(void)state;
	put_base("ti/f/fake-term", "A");
	put_base("home/.terminfo/66/fake-term", "B");
	put_base("d1/f/fake-term", "C");
	put_base("d2/6f/only-d2", "D");
	put_base("home/.terminfo/o/only-home", "E");
	snprintf(ti, sizeof ti, "%s/ti", base);
	snprintf(home, sizeof home, "%s/home", base);
	snprintf(dirs, sizeof dirs, "%s/d1::%s/d2", base, base);
	env_terminfo = ti;
	env_home = home;
	env_dirs = dirs;
	expect("fake-term", "ti/f/fake-term");
	env_terminfo = NULL;
	expect("fake-term", "home/.terminfo/66/fake-term");
	env_home = NULL;
	expect("fake-term", "d1/f/fake-term");
	/* The empty element stands for the system directories. */
	expect("only-d2", "d2/6f/only-d2");
	env_home = home;
	expect("only-home", "home/.terminfo/o/only-home");
	assert_int_equal(lz_termdb_find("no-such-term-xyz", fake_get, &path,
	    &e), LZ_ENOTFOUND);
	assert_non_null(strstr(e.msg, "d1"));
	assert_null(path);
	lz_err_release(&e);
	env_terminfo = env_home = env_dirs = NULL;
}

static void
test_system(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL;
	char dirs[600];

	(void)state;
	env_terminfo = env_home = env_dirs = NULL;
	if (access("/usr/share/terminfo/x/xterm", R_OK) != 0 &&
	    access("/lib/terminfo/x/xterm", R_OK) != 0)
		skip();
	assert_int_equal(lz_termdb_find("xterm", fake_get, &path, &e), 0);
	assert_non_null(strstr(path, "/x/xterm"));
	free(path);
	/* An empty TERMINFO_DIRS element reaches them too. */
	snprintf(dirs, sizeof dirs, "%s/nothing:", base);
	env_dirs = dirs;
	assert_int_equal(lz_termdb_find("xterm", fake_get, &path, &e), 0);
	free(path);
	env_dirs = NULL;
}

static void
test_bad_names(void **state)
{
	static const char *const bad[] = {
		"", ".", "..", "../../etc/passwd", "x/../y", ".hidden",
		"a\nb",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_termdb_find(bad[i], fake_get, &path, &e),
		    LZ_EINVAL);
		assert_null(path);
		assert_int_equal(lz_termdb_install("/dev/null", base, bad[i],
		    &e), LZ_EINVAL);
	}
	assert_int_equal(lz_termdb_find(NULL, fake_get, &path, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
}

static void
test_install(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	char src[512], dest[256], got[512];
	struct stat st;
	FILE *fp;
	size_t n;

	(void)state;
	put_base("src/entry", "compiled bytes\001\002");
	snprintf(src, sizeof src, "%s/src/entry", base);
	snprintf(dest, sizeof dest, "%s/terminfo", base);
	if (lz_termdb_install(src, dest, "xterm-256color", &e) != 0)
		fail_msg("install: %s", e.msg);
	snprintf(got, sizeof got, "%s/x/xterm-256color", dest);
	assert_int_equal(stat(got, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(stat(dest, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	fp = fopen(got, "r");
	n = fread(src, 1, sizeof src, fp);
	fclose(fp);
	assert_int_equal(n, 16);
	assert_memory_equal(src, "compiled bytes\001\002", 16);
	/* Again over the existing one; and a missing source fails. */
	snprintf(src, sizeof src, "%s/src/entry", base);
	assert_int_equal(lz_termdb_install(src, dest, "xterm-256color", &e),
	    0);
	assert_int_equal(lz_termdb_install("/nonexistent/x", dest, "x", &e),
	    LZ_ESYS);
	assert_non_null(strstr(e.msg, "/nonexistent/x"));
	lz_err_release(&e);
}

static void
expect_lazaret(const char *exe, const char *suffix)
{
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL, want[512];

	if (lz_termdb_lazaret_entry(exe, fake_get, &path, &e) != 0)
		fail_msg("lazaret entry for '%s': %s", exe, e.msg);
	snprintf(want, sizeof want, "%s/%s", base, suffix);
	assert_string_equal(path, want);
	free(path);
}

static void
test_lazaret_entry(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	char exe[512], dir[512];
	char *path = NULL;

	(void)state;
	env_terminfo = env_home = env_dirs = env_lzdir = NULL;
	/* Installed: <prefix>/bin/lazaret and <prefix>/share/lazaret. */
	put_base("inst/share/lazaret/terminfo/l/lazaret", "I");
	snprintf(exe, sizeof exe, "%s/inst/bin/lazaret", base);
	expect_lazaret(exe, "inst/share/lazaret/terminfo/l/lazaret");
	/* A build tree: <build>/lazaret and <build>/terminfo (hex layout). */
	put_base("bt/terminfo/6c/lazaret", "B");
	snprintf(exe, sizeof exe, "%s/bt/lazaret", base);
	expect_lazaret(exe, "bt/terminfo/6c/lazaret");
	/* Installed wins over a build tree beside it. */
	put_base("inst/bin/terminfo/l/lazaret", "X");
	snprintf(exe, sizeof exe, "%s/inst/bin/lazaret", base);
	expect_lazaret(exe, "inst/share/lazaret/terminfo/l/lazaret");
	/* The override is the only place looked at when set. */
	snprintf(dir, sizeof dir, "%s/bt/terminfo", base);
	env_lzdir = dir;
	expect_lazaret(exe, "bt/terminfo/6c/lazaret");
	snprintf(dir, sizeof dir, "%s/empty", base);
	assert_int_equal(lz_termdb_lazaret_entry(exe, fake_get, &path, &e),
	    LZ_ENOTFOUND);
	assert_null(path);
	assert_non_null(strstr(e.msg, dir));
	env_lzdir = NULL;
	/* Nothing there: the message names both places. */
	assert_int_equal(lz_termdb_lazaret_entry("/lazaret", fake_get, &path,
	    &e), LZ_ENOTFOUND);
	assert_non_null(strstr(e.msg, "/share/lazaret/terminfo, /terminfo"));
	snprintf(exe, sizeof exe, "%s/nowhere/bin/lazaret", base);
	assert_int_equal(lz_termdb_lazaret_entry(exe, fake_get, &path, &e),
	    LZ_ENOTFOUND);
	assert_non_null(strstr(e.msg, "nowhere/share/lazaret/terminfo"));
	assert_null(path);
	lz_err_release(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_install),
		cmocka_unit_test(test_lazaret_entry),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
