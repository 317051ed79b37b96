/*
 * reflow.c: the reflow figure of issue 18. A 50x200 pane with a
 * scrollback of 100,000 lines is fed 100,000 deterministic lines (40 to
 * 200 columns of text in coloured runs, some CJK, one line in ten of 250
 * to 400 columns, which wraps), then resized to 80 columns and back to
 * 200; each resize is timed (the rewrap of the screen and the whole
 * scrollback). Prints, per run, both times, the scrollback before and
 * after, and the process's peak RSS (wall and CPU time: on a loaded
 * machine the CPU time is the figure). Built and run by reflow.sh, which
 * times tmux on the same lines; not a ctest test.
 *
 * Usage: reflow [runs]        the figure
 *        reflow -w FILE       writes the lines (for tmux)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "ui/pane.h"

#define LINES 100000

static double
now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t
rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* The lines, CR LF after each. */
static void
stream(struct lz_buf *b)
{
	static const char *const words[] = {
		"build", "warning:", "src/tui-draw.c:120:", "error", "ok",
		"\xe6\x96\x87\xe6\xa1\xa3", "the", "pane", "0x7ffd", "[PASS]",
		"\xe6\xb5\x8b\xe8\xaf\x95", "reflow", "libvterm", "=>",
	};
	static const int colour[] = { 31, 32, 33, 34, 35, 36, 0 };
	uint32_t s = 12345;
	int i, len, want;
	const char *w;

	for (i = 0; i < LINES; i++) {
		want = rnd(&s) % 10 == 0 ? 250 + (int)(rnd(&s) % 151) :
		    40 + (int)(rnd(&s) % 161);
		lz_buf_addf(b, "%06d ", i);
		len = 7;
		while (len < want) {
			w = words[rnd(&s) % (sizeof words / sizeof *words)];
			if (rnd(&s) % 3 == 0)
				lz_buf_addf(b, "\033[%dm",
				    colour[rnd(&s) % 7]);
			lz_buf_adds(b, w);
			lz_buf_addch(b, ' ');
			len += (int)strlen(w) + 1;	/* CJK: a bit less */
		}
		lz_buf_adds(b, "\033[m\r\n");
	}
}

/* Resizes p to cols columns: the wall and CPU seconds it took. */
static void
resize(struct lz_pane *p, unsigned cols, double *wall, double *cpu)
{
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);

	lz_pane_resize(p, 50, cols);
	*wall = now(CLOCK_MONOTONIC) - t0;
	*cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
}

static long
peak_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

int
main(int argc, char **argv)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_pane *p;
	double t80, t200, c80, c200;
	size_t i, n, before, mid, after;
	long hwm;
	int runs = argc > 1 ? atoi(argv[1]) : 3, r;
	FILE *f;

	stream(&b);
	if (argc > 2 && strcmp(argv[1], "-w") == 0) {
		f = fopen(argv[2], "w");
		if (f == NULL || fwrite(b.buf, 1, b.len, f) != b.len ||
		    fclose(f) != 0)
			return 1;
		return 0;
	}
	for (r = 0; r < runs; r++) {
		p = lz_pane_new(50, 200, LINES, NULL, NULL);
		for (i = 0; i < b.len; i += n) {
			n = b.len - i < 65536 ? b.len - i : 65536;
			lz_pane_feed(p, b.buf + i, n);
		}
		before = lz_pane_scrollback_lines(p);
		hwm = peak_kb();
		resize(p, 80, &t80, &c80);
		mid = lz_pane_scrollback_lines(p);
		resize(p, 200, &t200, &c200);
		after = lz_pane_scrollback_lines(p);
		printf("run %d  200->80 %.1f ms (CPU %.1f)  80->200 %.1f ms "
		    "(CPU %.1f)  scrollback %zu -> %zu -> %zu lines (%zu KiB "
		    "encoded)  peak RSS %ld KiB, %ld before the resizes\n",
		    r + 1, t80 * 1e3, c80 * 1e3, t200 * 1e3, c200 * 1e3, before,
		    mid, after, lz_pane_scrollback_bytes(p) / 1024, peak_kb(),
		    hwm);
		lz_pane_free(p);
	}
	lz_buf_release(&b);
	return 0;
}
