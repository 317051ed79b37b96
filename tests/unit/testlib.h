/*
 * testlib.h: helpers the unit tests share: running a program (argv only,
 * output discarded), writing a file with its parent directories, and
 * removing a test's own temporary tree.
 */
#ifndef LZ_TESTLIB_H
#define LZ_TESTLIB_H

/* Runs argv (PATH lookup) and fails the test unless it exits 0. */
void lz_test_run(char *const argv[]);
/* Writes text to base/rel, creating rel's parent directories (0755). */
void lz_test_put(const char *base, const char *rel, const char *text);
/* Removes dir and everything below it (for teardown: never fails). */
void lz_test_rmrf(const char *dir);

#endif
