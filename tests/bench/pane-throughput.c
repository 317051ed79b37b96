/*
 * pane-throughput.c: ingest throughput of the pane emulator (ui/pane.c)
 * against libvterm 0.1.4's stock screen layer, on the same deterministic
 * 50 MB ANSI-heavy stream (ansi-stream.h), fed from memory in 4 KiB chunks
 * into a 200x50 screen with 10,000 lines of scrollback: the emulator alone,
 * no pty (pane-pty.c is the figure against tmux). Prints MB/s (1 MB = 10^6
 * bytes), best and median of the runs. Built and run by pane-throughput.sh;
 * not a ctest test.
 *
 * Usage: pane-throughput [MB [runs [rows cols]]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vterm.h>

#include "core/util.h"
#include "ui/pane.h"
#include "tests/bench/ansi-stream.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t damages, cells_pushed;

static void
on_damage(void *user)
{
	(void)user;
	damages++;
}

static double
run_pane(const struct lz_buf *s, int rows, int cols)
{
	struct lz_pane_cb cb = { NULL, on_damage };
	struct lz_pane *p = lz_pane_new((unsigned)rows, (unsigned)cols, 10000,
	    &cb, NULL);
	size_t i, n, frame = 0;
	double t0 = now(), t;

	for (i = 0; i < s->len; i += n) {
		n = s->len - i < 4096 ? s->len - i : 4096;
		lz_pane_feed(p, s->buf + i, n);
		/* A renderer taking a frame every 64 KiB. */
		if (++frame % 16 == 0)
			lz_pane_clear_dirty(p);
	}
	t = now() - t0;
	lz_pane_free(p);
	return (double)s->len / 1e6 / t;
}

/* The stock screen layer, with the callbacks a multiplexer would need. */
static int
scr_damage(VTermRect rect, void *user)
{
	(void)rect;
	(void)user;
	damages++;
	return 1;
}

static int
scr_moverect(VTermRect dest, VTermRect src, void *user)
{
	(void)dest;
	(void)src;
	(void)user;
	return 0;
}

static int
scr_pushline(int cols, const VTermScreenCell *cells, void *user)
{
	VTermScreenCell *copy = user;

	/* A scrollback would copy the line out. */
	memcpy(copy, cells, (size_t)cols * sizeof *cells);
	cells_pushed += (size_t)cols;
	return 1;
}

static const VTermScreenCallbacks scr_cb = {
	.damage = scr_damage,
	.moverect = scr_moverect,
	.sb_pushline = scr_pushline,
};

static double
run_screen(const struct lz_buf *s, int rows, int cols)
{
	VTerm *vt = vterm_new(rows, cols);
	VTermScreen *scr;
	VTermScreenCell *line = calloc((size_t)cols, sizeof *line);
	size_t i, n;
	double t0, t;

	vterm_set_utf8(vt, 1);
	scr = vterm_obtain_screen(vt);
	vterm_screen_set_callbacks(scr, &scr_cb, line);
	vterm_screen_set_damage_merge(scr, VTERM_DAMAGE_SCROLL);
	vterm_screen_enable_altscreen(scr, 1);
	vterm_screen_reset(scr, 1);
	t0 = now();
	for (i = 0; i < s->len; i += n) {
		n = s->len - i < 4096 ? s->len - i : 4096;
		vterm_input_write(vt, s->buf + i, n);
	}
	vterm_screen_flush_damage(scr);
	t = now() - t0;
	vterm_free(vt);
	free(line);
	return (double)s->len / 1e6 / t;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
report(const char *what, double *v, int runs)
{
	qsort(v, (size_t)runs, sizeof *v, cmp);
	printf("%-34s best %6.1f MB/s  median %6.1f MB/s\n", what,
	    v[runs - 1], v[runs / 2]);
}

int
main(int argc, char **argv)
{
	struct lz_buf s = LZ_BUF_INIT;
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;
	int runs = argc > 2 ? atoi(argv[2]) : 3;
	int rows = argc > 4 ? atoi(argv[3]) : 50;
	int cols = argc > 4 ? atoi(argv[4]) : 200;
	double a[32], b[32];
	int i;
	char what[64];

	if (runs < 1 || runs > 32 || rows < 1 || cols < 1) {
		fprintf(stderr, "usage: pane-throughput [MB [runs [rows cols]]]\n");
		return 2;
	}
	ansi_stream(&s, mb * 1000000);
	printf("stream: %zu bytes, 4 KiB chunks, %dx%d, %d runs\n", s.len,
	    cols, rows, runs);
	for (i = 0; i < runs; i++) {
		a[i] = run_pane(&s, rows, cols);
		b[i] = run_screen(&s, rows, cols);
	}
	snprintf(what, sizeof what, "lazaret pane (state layer + grid)");
	report(what, a, runs);
	snprintf(what, sizeof what, "libvterm screen layer");
	report(what, b, runs);
	lz_buf_release(&s);
	return 0;
}
