/*
 * benchtime.h: the clock and the median the C benches share
 * (census.c, git-guard.c); header-only, as each bench is built from its
 * own sources by its script.
 */
#ifndef LZ_BENCHTIME_H
#define LZ_BENCHTIME_H

#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in milliseconds. */
static inline double
bench_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static inline double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp);
	return v[n / 2];
}

#endif
