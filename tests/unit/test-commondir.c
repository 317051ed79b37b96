/*
 * test-commondir.c: unit tests of core/commondir.c: a sandbox-written
 * .git/commondir moved to a fresh quarantine name (content kept, never
 * onto an existing name, a directory too), nothing when absent, and the
 * launch warnings that list what was moved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/commondir.h"
#include "testlib.h"

static void
test_quarantine(void **state)
{
	char dir[] = "/tmp/lz-commondir-XXXXXX", *moved = NULL, *taken, *p;
	struct lz_buf w = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct stat st;
	FILE *f;
	char line[64];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	/* Nothing there: nothing done. */
	assert_int_equal(lz_commondir_quarantine(fd, &moved, &err), 0);
	assert_null(moved);
	/* A name the clock would give first is taken: the next one. */
	taken = lz_xasprintf(LZ_COMMONDIR_QUARANTINE "%lld.0",
	    (long long)time(NULL));
	lz_test_put(dir, taken, "older\n");
	lz_test_put(dir, "commondir", "/tmp/evil\n");
	assert_int_equal(lz_commondir_quarantine(fd, &moved, &err), 1);
	assert_non_null(moved);
	assert_int_equal(strncmp(moved, LZ_COMMONDIR_QUARANTINE,
	    strlen(LZ_COMMONDIR_QUARANTINE)), 0);
	assert_string_not_equal(moved, taken);
	assert_int_not_equal(fstatat(fd, "commondir", &st, 0), 0);
	p = lz_xasprintf("%s/%s", dir, moved);
	assert_non_null(f = fopen(p, "r"));
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "/tmp/evil\n");
	fclose(f);
	free(p);
	p = lz_xasprintf("%s/%s", dir, taken);
	assert_non_null(f = fopen(p, "r"));
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "older\n");	/* not overwritten */
	fclose(f);
	free(p);
	free(moved);
	/* A directory named commondir is moved too. */
	assert_int_equal(mkdirat(fd, "commondir", 0700), 0);
	assert_int_equal(lz_commondir_quarantine(fd, &moved, &err), 1);
	assert_int_not_equal(fstatat(fd, "commondir", &st, 0), 0);
	free(moved);
	/* The launch lists every quarantined one. */
	lz_commondir_warn(dir, &w);
	assert_non_null(strstr(w.buf, taken));
	assert_int_equal(w.len > 0 && w.buf[w.len - 1] == '\n', 1);
	assert_non_null(strstr(w.buf, "Git Sentry (SR-4)"));
	lz_buf_release(&w);
	lz_commondir_warn("/nonexistent/.git", &w);
	assert_int_equal(w.len, 0);
	lz_buf_release(&w);
	free(taken);
	close(fd);
	lz_test_rmrf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quarantine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
