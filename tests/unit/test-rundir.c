/*
 * test-rundir.c: host-private directories (SR-10): created 0700, and a
 * symlinked, foreign or loose-mode directory refused; the lifecycle lock
 * is exclusive (OR-1).
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

#include "core/rundir.h"
#include "tests/unit/testlib.h"

static char base[] = "/tmp/lz-test-rundir-XXXXXX";

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(base) == NULL)
		return -1;
	return chmod(base, 0700);
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static void
refused(const char *sub, const char *needle)
{
	struct lz_err e = LZ_ERR_INIT;
	int fd = lz_rundir_ensure(base, 0, sub, &e);

	assert_int_equal(fd, LZ_EUNSAFE);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", e.msg, needle);
	lz_err_release(&e);
}

static void
test_create(void **state)
{
	char path[128];
	struct stat st;
	int fd;

	(void)state;
	fd = lz_rundir_ensure(base, 0, "lazaret/0123456789abcdef", NULL);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof path, "%s/lazaret/0123456789abcdef", base);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	/* Idempotent. */
	fd = lz_rundir_ensure(base, 0, "lazaret/0123456789abcdef", NULL);
	assert_true(fd >= 0);
	close(fd);
}

static void
test_create_base(void **state)
{
	char root[128];
	int fd;

	(void)state;
	snprintf(root, sizeof root, "%s/home/.local/share/lazaret", base);
	assert_int_equal(lz_rundir_ensure(root, 0, "domains", NULL),
	    LZ_ENOTFOUND);
	fd = lz_rundir_ensure(root, 1, "domains/x", NULL);
	assert_true(fd >= 0);
	close(fd);
}

static void
test_refusals(void **state)
{
	char path[128], target[128];

	(void)state;
	snprintf(target, sizeof target, "%s/elsewhere", base);
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(path, sizeof path, "%s/linked", base);
	assert_int_equal(symlink(target, path), 0);
	refused("linked/x", "symbolic link");

	snprintf(path, sizeof path, "%s/loose", base);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chmod(path, 0755), 0);
	refused("loose", "mode 0755");

	snprintf(path, sizeof path, "%s/file", base);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	refused("file", "not a directory");

	if (geteuid() == 0) {
		snprintf(path, sizeof path, "%s/foreign", base);
		assert_int_equal(mkdir(path, 0700), 0);
		assert_int_equal(chown(path, 65534, 65534), 0);
		refused("foreign", "belongs to uid 65534");
	}
	{
		struct lz_err e = LZ_ERR_INIT;

		assert_int_equal(lz_rundir_ensure(base, 0, "a/../b", &e),
		    LZ_EINVAL);
		lz_err_release(&e);
	}
}

static void
test_lock_exclusive(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	int dir, lock, status;
	pid_t pid;

	(void)state;
	dir = lz_rundir_ensure(base, 0, "locked", NULL);
	assert_true(dir >= 0);
	lock = lz_rundir_lock(dir, "locked", 1, NULL);
	assert_true(lock >= 0);
	/* Another process cannot take it (flock is per open file). */
	pid = fork();
	if (pid == 0) {
		int l = lz_rundir_lock(dir, "locked", 1, &e);

		_exit(l == LZ_EBUSY && strstr(e.msg, "another lazaret") ?
		    0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(lock);
	lock = lz_rundir_lock(dir, "locked", 1, NULL);
	assert_true(lock >= 0);
	close(lock);
	close(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_create_base),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_lock_exclusive),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
