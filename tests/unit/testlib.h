/*
 * testlib.h: helpers the unit tests share: running a program (argv only,
 * output discarded), writing a file with its parent directories,
 * removing a test's own temporary tree, and a seeded random number.
 */
#ifndef LZ_TESTLIB_H
#define LZ_TESTLIB_H

/* Runs argv (PATH lookup) and fails the test unless it exits 0. */
void lz_test_run(char *const argv[]);
/* Writes text to base/rel, creating rel's parent directories (0755). */
void lz_test_put(const char *base, const char *rel, const char *text);
/*
 * Makes base/home and points HOME and XDG_CONFIG_HOME at it, with
 * GIT_CONFIG_NOSYSTEM set, so no user or system Git config leaks into a
 * test. Returns 0, or -1 when the directory cannot be made.
 */
int lz_test_git_home(const char *base);
/* Removes dir and everything below it (for teardown: never fails). */
void lz_test_rmrf(const char *dir);
/*
 * A number in [0, n) from the generator state *seed (64-bit LCG): a test
 * that replays the same steps on two objects sets *seed again.
 */
int lz_test_rnd(unsigned long *seed, int n);

#endif
