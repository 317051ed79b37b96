/*
 * test-rmtree.c: removing a tree by descriptor (core/rmtree.h): symlinks
 * are removed, never followed (their targets outside stay), a tree deeper
 * than the descriptor bound goes, a file and an absent name are handled,
 * and a fault point stops a removal half-way in a child.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/rmtree.h"
#include "tests/unit/testlib.h"

static char base[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(base, sizeof base, "/tmp/lz-rmtree.XXXXXX");
	return mkdtemp(base) == NULL ? -1 : 0;
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

	snprintf(p, sizeof p, "%s/%s", base, rel);
	return lstat(p, &st) == 0;
}

static void
test_symlinks_not_followed(void **state)
{
	char p[512], q[512];
	int fd;

	(void)state;
	lz_test_put(base, "outside/keep", "host file\n");
	lz_test_put(base, "tree/a/b/file", "x\n");
	snprintf(p, sizeof p, "%s/outside", base);
	snprintf(q, sizeof q, "%s/tree/a/link-dir", base);
	assert_int_equal(symlink(p, q), 0);
	snprintf(p, sizeof p, "%s/outside/keep", base);
	snprintf(q, sizeof q, "%s/tree/link-file", base);
	assert_int_equal(symlink(p, q), 0);
	snprintf(q, sizeof q, "%s/tree/a/b/noperm", base);
	assert_int_equal(mkdir(q, 0), 0);
	fd = open(base, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_rmtree_at(fd, "tree", "tree", NULL, NULL), 0);
	assert_false(exists("tree"));
	assert_true(exists("outside/keep"));
	/* Absent: not an error; a plain file: unlinked. */
	assert_int_equal(lz_rmtree_at(fd, "tree", "tree", NULL, NULL), 0);
	lz_test_put(base, "plain", "y\n");
	assert_int_equal(lz_rmtree_at(fd, "plain", "plain", NULL, NULL), 0);
	assert_false(exists("plain"));
	close(fd);
}

static void
test_deep(void **state)
{
	char p[8192];
	size_t len;
	int fd, i;

	(void)state;
	len = (size_t)snprintf(p, sizeof p, "%s/deep", base);
	assert_int_equal(mkdir(p, 0700), 0);
	fd = open(p, O_RDONLY | O_DIRECTORY);
	/* 3 * LZ_RMTREE_DEPTH levels, made by descriptor. */
	for (i = 0; i < 3 * LZ_RMTREE_DEPTH; i++) {
		int next;

		assert_int_equal(mkdirat(fd, "d", 0700), 0);
		next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	close(openat(fd, "leaf", O_WRONLY | O_CREAT, 0600));
	close(fd);
	(void)len;
	fd = open(base, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_rmtree_at(fd, "deep", "deep", NULL, NULL), 0);
	assert_false(exists("deep"));
	close(fd);
}

#ifdef LZ_FAULTS
/* A fault point kills the child after the first removal: a part stays. */
static void
test_fault(void **state)
{
	int fd, status;
	pid_t pid;

	(void)state;
	lz_test_put(base, "f/a", "1\n");
	lz_test_put(base, "f/b", "2\n");
	lz_test_put(base, "f/c", "3\n");
	pid = fork();
	if (pid == 0) {
		setenv("LAZARET_TEST_FAULT", "reset-removing", 1);
		fd = open(base, O_RDONLY | O_DIRECTORY);
		lz_rmtree_at(fd, "f", "f", "reset-removing", NULL);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_true(exists("f"));
	assert_int_equal(exists("f/a") + exists("f/b") + exists("f/c"), 2);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_symlinks_not_followed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep, setup, teardown),
#ifdef LZ_FAULTS
		cmocka_unit_test_setup_teardown(test_fault, setup, teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
