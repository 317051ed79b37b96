/*
 * test-grid-move.c: a rectangle's move (lz_grid_moverect: ICH, DCH,
 * DECIC, DECDC, scrolls inside left and right margins) copies only the
 * source's cells before its row's len, and blanks what a full copy would
 * have left blank (ui/grid.c move_cells; issue 19). Grid a does that;
 * grid b gets the same random writes (narrow and wide, several pens),
 * erases (default and coloured backgrounds) and moves, its moves made
 * here the way grid.c made them before: every cell of the rectangle
 * copied, the row's len taken to the rectangle's end. After every step
 * both hold the same cells, a's len is at most b's, and every cell of a
 * past its len is a plain blank (what len promises).
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

#define R 5
#define C 24

static unsigned long seed = 777;

static int
rnd(int n)
{
	return lz_test_rnd(&seed, n);
}

/* A wide character's half cut off at column x - 1 | x becomes a blank. */
static void
ref_cut(struct lz_cell *r, int x)
{
	if (x > 0 && x - 1 < C && r[x - 1].width == 2)
		lz_cell_blank(&r[x - 1], r[x - 1].bg);
	if (x >= 0 && x < C && r[x].ch[0] == LZ_CELL_CONT)
		lz_cell_blank(&r[x], r[x].bg);
}

/* The move as a full copy (the rectangle already clipped to the grid). */
static void
ref_move(struct lz_grid *g, int dr0, int dc0, int sr0, int sc0, int nrows,
    int ncols)
{
	int i, y;

	for (i = 0; i < nrows; i++) {
		y = dr0 <= sr0 ? i : nrows - 1 - i;
		memmove(&g->row[dr0 + y][dc0], &g->row[sr0 + y][sc0],
		    (size_t)ncols * sizeof(struct lz_cell));
	}
	for (i = 0; i < nrows; i++) {
		lz_grid_touch(g, dr0 + i, dc0 + ncols);
		ref_cut(g->row[dr0 + i], dc0);
		ref_cut(g->row[dr0 + i], dc0 + ncols);
	}
}

/* One random step on g (b: the reference move). */
static void
step(struct lz_grid *g, unsigned long s, int b)
{
	static const struct lz_pen pens[] = {
		{ 0, 0, 0 },
		{ LZ_COLOR_INDEXED(1), 0, 0 },
		{ 0, LZ_COLOR_INDEXED(4), LZ_ATTR_BOLD },
	};
	static const uint32_t wide[] = { 0x4e00, 0 };
	unsigned char text[C];
	int op, row, col, n, i, sr, sc, dr, dc, nrows, ncols;

	seed = s;
	op = rnd(8);
	row = rnd(R);
	col = rnd(C);
	switch (op) {
	case 0: case 1:
		n = 1 + rnd(C);
		for (i = 0; i < n; i++)
			text[i] = (unsigned char)('a' + rnd(26));
		lz_grid_put_ascii(g, row, col, text, n, &pens[rnd(3)]);
		break;
	case 2:
		lz_grid_put(g, row, col, wide, 1, 2, &pens[rnd(3)]);
		break;
	case 3:
		lz_grid_erase(g, row, row + 1 + rnd(R - row), rnd(C), C,
		    rnd(3) ? LZ_COLOR_DEFAULT : LZ_COLOR_INDEXED(2), 0);
		break;
	default:
		/* A move: along a row (ICH, DCH) or across rows. */
		ncols = 1 + rnd(C);
		sc = rnd(C - ncols + 1);
		dc = rnd(C - ncols + 1);
		nrows = 1 + rnd(R);
		sr = rnd(R - nrows + 1);
		dr = op == 4 ? sr : rnd(R - nrows + 1);
		if (b)
			ref_move(g, dr, dc, sr, sc, nrows, ncols);
		else
			lz_grid_moverect(g, dr, dc, sr, sc, nrows, ncols);
		break;
	}
}

static void
test_move_as_copy(void **state)
{
	static const struct lz_cell blank = { .width = 1 };
	struct lz_grid a, b;
	unsigned long s = 1;
	int i, y, x, shorter = 0;

	(void)state;
	lz_grid_init(&a, R, C);
	lz_grid_init(&b, R, C);
	for (i = 0; i < 50000; i++) {
		s = s * 2862933555777941757ul + 3037000493ul;
		step(&a, s, 0);
		step(&b, s, 1);
		for (y = 0; y < R; y++) {
			if (memcmp(a.row[y], b.row[y], C * sizeof *a.row[y]))
				fail_msg("row %d differs after step %d", y, i);
			if (a.len[y] > b.len[y])
				fail_msg("row %d: len %d above the copy's %d "
				    "after step %d", y, a.len[y], b.len[y], i);
			shorter += a.len[y] < b.len[y];
			for (x = a.len[y]; x < C; x++) {
				if (memcmp(&a.row[y][x], &blank, sizeof blank))
					fail_msg("row %d: cell %d past len %d "
					    "not blank after step %d", y, x,
					    a.len[y], i);
			}
		}
	}
	/* The lens did come out shorter than the copy's, often. */
	assert_true(shorter > 1000);
	lz_grid_free(&a);
	lz_grid_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_as_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
