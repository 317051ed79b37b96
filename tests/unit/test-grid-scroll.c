/*
 * test-grid-scroll.c: the scroll of a whole grid moves a window over its
 * row arrays instead of copying them (ui/grid.h, row_store; issue 19).
 * It must leave every row as the copying scroll of a region does: grid
 * a (R rows) and grid b (R + 1 rows, its last one never used) get the
 * same random writes, wraps, erases and scrolls on rows 0 to R - 1, so a
 * scroll of those rows is a whole-grid scroll in a (the window) and a
 * region's in b (the copy); after every step their rows, lengths, wrap
 * flags and kept encodings are the same, and so is every row either
 * hands out to its scrollback. Thousands of steps take a's window back
 * to the start of its arrays many times. A resize after that keeps the
 * rows, and freeing the grid frees each row once (ASan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "tests/unit/testlib.h"
#include "ui/grid.h"
#include "ui/grid-int.h"

#define R 6
#define C 20

/* The rows a grid handed out, each as a record of bytes. */
struct handed {
	struct lz_buf b;
	int n;
};

static void
add_row(struct lz_buf *b, const struct lz_cell *cells, int len, int wrap,
    const struct lz_rowenc *enc)
{
	lz_buf_add(b, &len, sizeof len);
	lz_buf_add(b, &wrap, sizeof wrap);
	lz_buf_add(b, cells, (size_t)C * sizeof *cells);
	lz_buf_add(b, &enc->valid, sizeof enc->valid);
	if (enc->valid) {
		lz_buf_add(b, &enc->ncells, sizeof enc->ncells);
		lz_buf_add(b, enc->buf, enc->len);
	}
}

static void
out_rec(const struct lz_cell *cells, int len, int wrapped,
    const struct lz_rowenc *enc, void *user)
{
	struct handed *h = user;

	add_row(&h->b, cells, len, wrapped, enc);
	h->n++;
}

static void
same_rows(const struct lz_grid *a, const struct lz_grid *b, int step)
{
	struct lz_buf x = LZ_BUF_INIT, y = LZ_BUF_INIT;
	int i;

	for (i = 0; i < R; i++) {
		add_row(&x, a->row[i], a->len[i], a->wrap[i], a->enc[i]);
		add_row(&y, b->row[i], b->len[i], b->wrap[i], b->enc[i]);
	}
	if (x.len != y.len || memcmp(x.buf, y.buf, x.len) != 0)
		fail_msg("the grids differ after step %d", step);
	lz_buf_release(&x);
	lz_buf_release(&y);
}

static unsigned long seed = 12345;

static int
rnd(int n)
{
	return lz_test_rnd(&seed, n);
}

/* One random step on g, rows 0 to R - 1 only; the same on both grids. */
static void
step(struct lz_grid *g, unsigned long s, struct handed *h)
{
	static const struct lz_pen pens[] = {
		{ 0, 0, 0 },
		{ LZ_COLOR_INDEXED(1), 0, 0 },
		{ LZ_COLOR_RGB(1, 2, 3), LZ_COLOR_INDEXED(4), LZ_ATTR_BOLD },
	};
	unsigned char text[C];
	int op, row, col, n, top, bottom, i;

	seed = s;
	op = rnd(10);
	row = rnd(R);
	col = rnd(C);
	switch (op) {
	case 0: case 1: case 2:
		n = 1 + rnd(C);
		for (i = 0; i < n; i++)
			text[i] = (unsigned char)('a' + rnd(26));
		lz_grid_put_ascii(g, row, col, text, n, &pens[rnd(3)]);
		break;
	case 3:
		g->wrap[row] = row + 1 < R;
		break;
	case 4: case 5:
		/* The whole of rows 0 to R - 1, up: what the window is for. */
		lz_grid_scroll(g, 0, R, 1 + rnd(op == 4 ? 2 : R),
		    rnd(2) ? LZ_COLOR_DEFAULT : LZ_COLOR_INDEXED(2), out_rec,
		    h);
		break;
	case 6:
		lz_grid_scroll(g, 0, R, -(1 + rnd(R)), LZ_COLOR_DEFAULT, NULL,
		    NULL);
		break;
	case 7:
		/* A smaller region, up or down (the copy, in both). */
		top = rnd(R - 1);
		bottom = top + 1 + rnd(R - top - 1);
		n = 1 + rnd(bottom - top);
		lz_grid_scroll(g, top, bottom, rnd(2) ? n : -n,
		    LZ_COLOR_DEFAULT, top == 0 ? out_rec : NULL, h);
		break;
	case 8:
		lz_grid_erase(g, row, row + 1 + rnd(R - row), rnd(2) ? 0 : col,
		    C, LZ_COLOR_DEFAULT, 0);
		break;
	default:
		/* Scrolls with no scrollback: the encodings are dropped. */
		lz_grid_scroll(g, 0, R, 1, LZ_COLOR_DEFAULT, NULL, NULL);
		break;
	}
}

static void
test_window_as_copy(void **state)
{
	struct lz_grid a, b;
	struct handed ha = { LZ_BUF_INIT, 0 }, hb = { LZ_BUF_INIT, 0 };
	unsigned long s = 1;
	int i, moved = 0, off = 0;

	(void)state;
	lz_grid_init(&a, R, C);
	lz_grid_init(&b, R + 1, C);
	for (i = 0; i < 20000; i++) {
		s = s * 2862933555777941757ul + 3037000493ul;
		step(&a, s, &ha);
		step(&b, s, &hb);
		same_rows(&a, &b, i);
		if (a.off < off)
			moved++;
		off = a.off;
	}
	/* The window went back to the start, many times. */
	assert_true(moved > 100);
	assert_true(ha.n > 1000);
	assert_int_equal(ha.n, hb.n);
	assert_int_equal(ha.b.len, hb.b.len);
	assert_memory_equal(ha.b.buf, hb.b.buf, ha.b.len);
	lz_buf_release(&ha.b);
	lz_buf_release(&hb.b);
	lz_grid_free(&a);
	lz_grid_free(&b);
}

/* A resize of a grid whose window moved keeps its rows. */
static void
test_resize_moved(void **state)
{
	static const int to[][3] = {	/* rows, cols, drop_top */
		{ R + 3, C, 0 }, { R - 2, C, 2 }, { R - 2, C, 0 }, { R, C + 7, 0 },
		{ R, C - 5, 0 },
	};
	struct lz_grid g;
	struct lz_cell saved[R][C];
	int len[R];
	unsigned char text[C];
	size_t k;
	int i, y, x, cols;

	(void)state;
	for (k = 0; k < sizeof to / sizeof to[0]; k++) {
		lz_grid_init(&g, R, C);
		for (i = 0; i < 3 * R + 2; i++) {
			memset(text, 'a' + i % 26, sizeof text);
			lz_grid_put_ascii(&g, R - 1, 0, text, 1 + i % C,
			    &(struct lz_pen){ 0, 0, 0 });
			lz_grid_scroll(&g, 0, R, 1, LZ_COLOR_DEFAULT, NULL,
			    NULL);
		}
		assert_true(g.off > 0);
		memcpy(text, "resized", 7);
		for (y = 0; y < R; y++) {
			lz_grid_put_ascii(&g, y, y, text, 7,
			    &(struct lz_pen){ 0, 0, 0 });
			memcpy(saved[y], g.row[y], sizeof saved[y]);
			len[y] = g.len[y];
		}
		lz_grid_resize(&g, to[k][0], to[k][1], to[k][2], NULL, NULL);
		assert_int_equal(g.off, 0);
		cols = to[k][1] < C ? to[k][1] : C;
		for (y = 0; y < g.rows && y + to[k][2] < R; y++) {
			for (x = 0; x < cols; x++)
				assert_int_equal(g.row[y][x].ch[0],
				    saved[y + to[k][2]][x].ch[0]);
			assert_int_equal(g.len[y], len[y + to[k][2]] < cols ?
			    len[y + to[k][2]] : cols);
		}
		/* Scrolling goes on in the new stores. */
		for (i = 0; i < 4 * g.rows; i++)
			lz_grid_scroll(&g, 0, g.rows, 1, LZ_COLOR_DEFAULT,
			    NULL, NULL);
		lz_grid_free(&g);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_as_copy),
		cmocka_unit_test(test_resize_moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
