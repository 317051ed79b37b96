/*
 * git-guard.c: times the Git history guard's passes (core/history.h) on a
 * repository, in process, the way the coordinator runs them: the launch
 * pass with an empty store (every object linked), the launch pass again
 * (a store that has them all: what every later launch costs), a pass
 * while the Domain runs with nothing changed (what the one-second tick
 * costs) and the teardown pass. Prints one line of figures (ms, and the
 * process's peak resident size in KiB after each step).
 *
 *   git-guard WORKSPACE DOMAIN-ROOT [RUNS]
 *
 * DOMAIN-ROOT must be an empty directory of mode 0700.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/history.h"
#include "tests/bench/benchtime.h"

static long
rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* One launch: init and the launch pass; the guard is kept in h. */
static double
launch(struct lz_history *h, const char *ws, const char *root)
{
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	double t0 = bench_now_ms();

	if (lz_history_init(h, ws, root, NULL, 7 * 86400000ll, 0, NULL, &log,
	    &e) != 0 || lz_history_launch(h, lz_history_now_ms(), &log,
	    &e) != 0) {
		fprintf(stderr, "git-guard: %s\n", e.msg);
		exit(1);
	}
	lz_buf_release(&log);
	return bench_now_ms() - t0;
}

int
main(int argc, char **argv)
{
	struct lz_history h;
	struct lz_buf log = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	int i, runs = argc > 3 ? atoi(argv[3]) : 5;
	double first, *again, *pass, fin, t0;
	long rss0 = rss_kb(), rss_first, rss_pass;
	size_t refs, files = 0;

	if (argc < 3 || runs < 1) {
		fprintf(stderr, "usage: git-guard WORKSPACE DOMAIN-ROOT "
		    "[RUNS]\n");
		return 2;
	}
	again = calloc((size_t)runs, sizeof *again);
	pass = calloc((size_t)runs, sizeof *pass);
	first = launch(&h, argv[1], argv[2]);
	rss_first = rss_kb();
	refs = h.repos[0].known.n;
	lz_history_release(&h);
	for (i = 0; i < runs; i++) {
		again[i] = launch(&h, argv[1], argv[2]);
		if (i < runs - 1)
			lz_history_release(&h);
	}
	for (i = 0; i < runs; i++) {
		t0 = bench_now_ms();
		if (lz_history_pass(&h, 0, (uint64_t)(i + 1) * 1000,
		    lz_history_now_ms(), &log, &e) < 0)
			return 1;
		pass[i] = bench_now_ms() - t0;
	}
	rss_pass = rss_kb();
	t0 = bench_now_ms();
	if (lz_history_pass(&h, 1, 0, lz_history_now_ms(), &log, &e) < 0)
		return 1;
	fin = bench_now_ms() - t0;
	{
		struct lz_histspace sp;

		(void)lz_histstore_space(h.repos[0].storefd, -1, &sp, NULL);
		files = sp.files;
	}
	lz_history_release(&h);
	printf("launch_first_ms %.1f launch_again_ms %.1f pass_ms %.2f "
	    "final_ms %.1f rss_start_kb %ld rss_launch_kb %ld rss_pass_kb %ld "
	    "refs %zu kept_files %zu\n", first, bench_median(again, runs),
	    bench_median(pass, runs), fin, rss0, rss_first, rss_pass, refs, files);
	free(again);
	free(pass);
	lz_buf_release(&log);
	return 0;
}
