/*
 * query-latency.c: how long a program waits for its terminal's answer
 * (issue 17's figure). Run in a pane: asks CSI 18 t (window size) N times,
 * 20 ms apart, on /dev/tty in raw mode, and times each answer (read up to
 * its final 't'; 1 s at most). Appends "median p99 max lost" in
 * microseconds to FILE. Built and run by query-latency.sh; not a test.
 *
 * Usage: query-latency N FILE
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static long
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static int
cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* Reads until an answer's final 't', or the deadline: 1 or 0. */
static int
answer(int fd, long deadline)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char c;
	long left;

	while ((left = deadline - now_us()) > 0) {
		if (poll(&p, 1, (int)(left / 1000) + 1) <= 0)
			continue;
		if (read(fd, &c, 1) == 1 && c == 't')
			return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct termios raw, saved;
	long *lat, t0;
	int n, fd, k, got = 0, lost = 0;
	FILE *f;

	if (argc != 3 || (n = atoi(argv[1])) < 1)
		return 2;
	if ((fd = open("/dev/tty", O_RDWR)) < 0)
		return 1;
	tcgetattr(fd, &saved);
	raw = saved;
	cfmakeraw(&raw);
	tcsetattr(fd, TCSANOW, &raw);
	lat = calloc((size_t)n, sizeof *lat);
	for (k = 0; k < n; k++) {
		t0 = now_us();
		if (write(fd, "\033[18t", 5) != 5)
			break;
		if (answer(fd, t0 + 1000000))
			lat[got++] = now_us() - t0;
		else
			lost++;
		usleep(20000);
	}
	tcsetattr(fd, TCSANOW, &saved);
	qsort(lat, (size_t)got, sizeof *lat, cmp);
	if ((f = fopen(argv[2], "a")) == NULL)
		return 1;
	if (got > 0)
		fprintf(f, "median %ld p99 %ld max %ld lost %d\n",
		    lat[(got - 1) / 2], lat[(got * 99 + 99) / 100 - 1],
		    lat[got - 1], lost);
	else
		fprintf(f, "no answer (lost %d)\n", lost);
	fclose(f);
	free(lat);
	return 0;
}
