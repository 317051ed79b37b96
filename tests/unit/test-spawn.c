/*
 * test-spawn.c: unit tests of core/spawn.c: exit statuses, a missing
 * program, output capture and its cap, PATH lookup, the environment, the
 * working directory, a timeout, and a grandchild that keeps the pipes open.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/spawn.h"

static struct lz_spawn_result res;

/*
 * The child programs these tests need are this test binary itself, run
 * again with LZ_SPAWN_HELPER set (no shell snippets, STYLE.md).
 */
static const char *helper_env_capture[] = { "LZ_SPAWN_HELPER=capture", NULL };
static const char *helper_env_sleep[] = { "LZ_SPAWN_HELPER=sleep", NULL };
static const char *helper_env_bg[] = { "LZ_SPAWN_HELPER=grandchild", NULL };
static const char *helper_argv[] = { "/proc/self/exe", NULL };

static int
helper_main(const char *mode)
{
	if (strcmp(mode, "capture") == 0) {
		fputs("out line\n", stdout);
		fputs("err line\n", stderr);
		return 3;
	}
	if (strcmp(mode, "sleep") == 0) {
		fputs("started\n", stdout);
		fflush(stdout);
		sleep(10);
		return 0;
	}
	if (strcmp(mode, "grandchild") == 0) {
		if (fork() == 0) {
			sleep(5);	/* keeps stdout open */
			_exit(0);
		}
		fputs("parent done\n", stdout);
		return 0;
	}
	return 99;
}

static int
setup(void **state)
{
	(void)state;
	lz_spawn_result_init(&res);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_spawn_result_release(&res);
	return 0;
}

static void
test_true_false(void **state)
{
	const char *t[] = { "/bin/true", NULL };
	const char *f[] = { "false", NULL };	/* found through PATH */

	(void)state;
	assert_int_equal(lz_spawn_capture(t, NULL, &res, NULL), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.signal, 0);
	assert_int_equal(lz_spawn_capture(f, NULL, &res, NULL), 0);
	assert_int_equal(res.status, 1);
}

static void
test_missing_program(void **state)
{
	struct lz_err err = LZ_ERR_INIT;
	const char *abs[] = { "/nonexistent/lz-no-such-program", NULL };
	const char *rel[] = { "lz-no-such-program", NULL };
	const char *empty[] = { NULL };

	(void)state;
	assert_int_equal(lz_spawn_capture(abs, NULL, &res, &err),
	    LZ_ENOTFOUND);
	assert_non_null(strstr(err.msg, "/nonexistent/lz-no-such-program"));
	assert_non_null(strstr(err.msg, "No such file"));
	lz_err_release(&err);
	assert_int_equal(lz_spawn_capture(rel, NULL, &res, &err),
	    LZ_ENOTFOUND);
	assert_non_null(strstr(err.msg, "not found in PATH"));
	lz_err_release(&err);
	assert_int_equal(lz_spawn_capture(empty, NULL, &res, &err), LZ_EINVAL);
	lz_err_release(&err);
}

static void
test_not_executable(void **state)
{
	struct lz_err err = LZ_ERR_INIT;
	const char *argv[] = { "/etc/passwd", NULL };

	(void)state;
	assert_int_equal(lz_spawn_capture(argv, NULL, &res, &err), -EACCES);
	assert_non_null(strstr(err.msg, "Permission denied"));
	lz_err_release(&err);
}

static void
test_capture(void **state)
{
	struct lz_spawn_opts opts = { .envp = helper_env_capture };

	(void)state;
	assert_int_equal(lz_spawn_capture(helper_argv, &opts, &res, NULL), 0);
	assert_int_equal(res.status, 3);
	assert_string_equal(res.out.buf, "out line\n");
	assert_string_equal(res.err.buf, "err line\n");
	assert_int_equal(res.truncated, 0);
}

static void
test_cap(void **state)
{
	struct lz_spawn_opts opts = { .max_output = 1000 };
	const char *argv[] = { "/usr/bin/head", "-c", "300000", "/dev/zero",
	    NULL };

	(void)state;
	assert_int_equal(lz_spawn_capture(argv, &opts, &res, NULL), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out.len, 1000);
	assert_int_equal(res.truncated, 1);
}

static void
test_env_cwd_path(void **state)
{
	const char *env[] = { "LZ_SPAWN_TEST=hello", NULL };
	struct lz_spawn_opts opts = { .envp = env, .cwd = "/tmp",
	    .path = "/nonexistent::/usr/bin:/bin" };
	const char *argv[] = { "env", NULL };
	const char *pwd[] = { "pwd", NULL };
	struct lz_err err = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_spawn_capture(argv, &opts, &res, NULL), 0);
	assert_string_equal(res.out.buf, "LZ_SPAWN_TEST=hello\n");
	assert_int_equal(lz_spawn_capture(pwd, &opts, &res, NULL), 0);
	assert_string_equal(res.out.buf, "/tmp\n");
	opts.cwd = "/nonexistent-dir";
	assert_int_equal(lz_spawn_capture(pwd, &opts, &res, &err),
	    LZ_ENOTFOUND);
	assert_non_null(strstr(err.msg, "change to directory"));
	lz_err_release(&err);
}

static void
test_stdin_null(void **state)
{
	const char *argv[] = { "/bin/cat", NULL };

	(void)state;
	assert_int_equal(lz_spawn_capture(argv, NULL, &res, NULL), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out.len, 0);
}

/* Two children at once: both run, each result is its own. */
static void
test_start_wait_overlap(void **state)
{
	const char *slow[] = { "/bin/sleep", "0.4", NULL };
	const char *echo[] = { "/bin/echo", "second", NULL };
	const char *missing[] = { "/nonexistent/prog", NULL };
	struct lz_spawn_result r2;
	struct lz_spawn_proc a, b;
	struct lz_err err = LZ_ERR_INIT;
	struct timespec t0, t1;
	long ms;

	(void)state;
	lz_spawn_result_init(&r2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(lz_spawn_start(slow, NULL, &a, NULL), 0);
	assert_int_equal(lz_spawn_start(slow, NULL, &b, NULL), 0);
	assert_true(a.pid > 0 && b.pid > 0 && a.pid != b.pid);
	/* A blocking capture in between does not disturb them. */
	assert_int_equal(lz_spawn_capture(echo, NULL, &r2, NULL), 0);
	assert_string_equal(r2.out.buf, "second\n");
	assert_int_equal(lz_spawn_wait(&b, &r2, NULL), 0);
	assert_int_equal(lz_spawn_wait(&a, &res, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) /
	    1000000;
	assert_true(ms >= 380 && ms < 780);	/* overlapped, not 800 */
	assert_int_equal(res.status, 0);
	assert_int_equal(r2.status, 0);
	assert_int_equal(a.pid, -1);
	assert_int_equal(a.out, -1);
	/* A failed start leaves nothing to wait for. */
	assert_int_equal(lz_spawn_start(missing, NULL, &a, &err),
	    LZ_ENOTFOUND);
	assert_int_equal(a.pid, -1);
	lz_err_release(&err);
	lz_spawn_result_release(&r2);
}

/* The timeout counts from the start, even while nobody waits. */
static void
test_start_wait_timeout(void **state)
{
	struct lz_spawn_opts opts = { .timeout_ms = 150,
	    .envp = helper_env_sleep };
	struct lz_spawn_proc p;
	struct lz_err err = LZ_ERR_INIT;
	struct timespec pause = { 0, 300 * 1000 * 1000 };

	(void)state;
	assert_int_equal(lz_spawn_start(helper_argv, &opts, &p, NULL), 0);
	nanosleep(&pause, NULL);
	assert_int_equal(lz_spawn_wait(&p, &res, &err), -ETIMEDOUT);
	assert_int_equal(res.timed_out, 1);
	assert_int_equal(res.signal, 9);
	lz_err_release(&err);
}

static void
test_timeout(void **state)
{
	struct lz_spawn_opts opts = { .timeout_ms = 200,
	    .envp = helper_env_sleep };
	struct lz_err err = LZ_ERR_INIT;
	struct timespec a, b;
	long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(lz_spawn_capture(helper_argv, &opts, &res, &err),
	    -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	assert_true(ms >= 150 && ms < 3000);
	assert_int_equal(res.timed_out, 1);
	assert_int_equal(res.signal, 9);
	assert_string_equal(res.out.buf, "started\n");
	assert_non_null(strstr(err.msg, "timed out"));
	lz_err_release(&err);
}

/* A background grandchild holding stdout must not make us wait for it. */
static void
test_grandchild_holds_pipe(void **state)
{
	struct lz_spawn_opts opts = { .envp = helper_env_bg };
	struct timespec a, b;
	long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(lz_spawn_capture(helper_argv, &opts, &res, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	assert_true(ms < 2000);
	assert_string_equal(res.out.buf, "parent done\n");
}

static void
test_find(void **state)
{
	struct lz_err err = LZ_ERR_INIT;
	char *p = NULL;

	(void)state;
	assert_int_equal(lz_spawn_find("sh", "/nonexistent:/bin", &p, &err),
	    0);
	assert_string_equal(p, "/bin/sh");
	free(p);
	/* A directory of that name is not a program. */
	assert_int_equal(lz_spawn_find("tmp", "/", &p, &err), LZ_ENOTFOUND);
	assert_null(p);
	/* Relative elements name the working directory's files: skipped. */
	assert_int_equal(chdir("/bin"), 0);
	assert_int_equal(lz_spawn_find("sh", ".", &p, &err), LZ_ENOTFOUND);
	assert_int_equal(lz_spawn_find("sh", "bin::.", &p, &err),
	    LZ_ENOTFOUND);
	assert_int_equal(chdir("/"), 0);
	assert_int_equal(lz_spawn_find("sh", "bin:/bin", &p, &err), 0);
	assert_string_equal(p, "/bin/sh");
	free(p);
	lz_err_release(&err);
}

int
main(void)
{
	const char *mode = getenv("LZ_SPAWN_HELPER");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_true_false, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_missing_program, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_not_executable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_cwd_path, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_stdin_null, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_grandchild_holds_pipe,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_wait_overlap, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_start_wait_timeout, setup,
		    teardown),
	};

	if (mode != NULL)
		return helper_main(mode);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
