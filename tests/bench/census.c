/*
 * census.c: times Git Sentry's census of a workspace (core/repos.h), the
 * walk the coordinator's watch repeats while a Domain runs. Prints the
 * median of runs in ms, the directories read and the markers found.
 *
 *   census WORKSPACE [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/repos.h"
#include "tests/bench/benchtime.h"

int
main(int argc, char **argv)
{
	struct lz_repos r = LZ_REPOS_INIT;
	struct lz_err e = LZ_ERR_INIT;
	int i, runs = argc > 2 ? atoi(argv[2]) : 11;
	double *t, t0;
	uint64_t dirs = 0;
	size_t found = 0;

	if (argc < 2 || runs < 1)
		return 2;
	t = calloc((size_t)runs, sizeof *t);
	for (i = 0; i < runs; i++) {
		t0 = bench_now_ms();
		if (lz_repos_scan(argv[1], NULL, &r, &e) != 0) {
			fprintf(stderr, "census: %s\n", e.msg);
			return 1;
		}
		t[i] = bench_now_ms() - t0;
		dirs = r.dirs;
		found = r.n;
		lz_repos_release(&r);
	}
	printf("census_ms %.2f dirs %llu markers %zu\n", bench_median(t, runs),
	    (unsigned long long)dirs, found);
	free(t);
	return 0;
}
