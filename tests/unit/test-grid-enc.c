/*
 * test-grid-enc.c: the scrollback encoding a grid keeps of each row as it
 * is written (ui/grid.h, enc; issue 19): for every row that leaves the
 * grid it is either dropped or exactly what lz_sbi_encode gives for the
 * row's cells, and it is kept in the cases it is there for (plain ASCII
 * written left to right, pen changes, gaps left by tabs, erases past the
 * text). Each case writes the bottom row of a grid, scrolls it out and
 * says whether the encoding must have been kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/grid.h"
#include "ui/grid-int.h"

struct seen {
	int rows, kept;
};

/* lz_grid_out: compares what was kept with a pass over the cells. */
static void
out_check(const struct lz_cell *cells, int ncols, int wrapped,
    const struct lz_rowenc *enc, void *user)
{
	struct seen *s = user;
	unsigned char *buf = NULL;
	size_t alloc = 0, n;
	int ncells;

	(void)wrapped;
	n = lz_sbi_encode(cells, ncols, &buf, &alloc, &ncells);
	s->rows++;
	if (enc->valid) {
		s->kept++;
		assert_int_equal(enc->ncells, ncells);
		assert_int_equal(enc->len, n);
		if (n > 0)
			assert_memory_equal(enc->buf, buf, n);
	}
	free(buf);
}

/* Scrolls the bottom row of g out; asserts whether its encoding was kept. */
static void
leave(struct lz_grid *g, int kept)
{
	struct seen s = { 0, 0 };
	int y;

	/* The rows above are erased whole: only the bottom one is checked. */
	for (y = 0; y < g->rows - 1; y++) {
		lz_grid_scroll(g, 0, g->rows, 1, LZ_COLOR_DEFAULT, out_check,
		    &s);
	}
	s.kept = 0;
	s.rows = 0;
	lz_grid_scroll(g, 0, g->rows, 1, LZ_COLOR_DEFAULT, out_check, &s);
	assert_int_equal(s.rows, 1);
	assert_int_equal(s.kept, kept);
}

static void
text(struct lz_grid *g, int col, const char *s, const struct lz_pen *pen)
{
	int row = g->rows - 1, k;

	k = lz_grid_put_ascii(g, row, col, (const unsigned char *)s,
	    (int)strlen(s), pen);
	assert_int_equal(k, (int)strlen(s));
}

static void
one(struct lz_grid *g, int col, uint32_t ch, const struct lz_pen *pen)
{
	assert_int_equal(lz_grid_put1(g, g->rows - 1, col, ch, pen), 1);
}

static void
test_kept(void **state)
{
	const struct lz_pen plain = { 0, 0, 0 };
	const struct lz_pen red = { LZ_COLOR_INDEXED(1), 0, 0 };
	const struct lz_pen green = { LZ_COLOR_INDEXED(2), 0, 0 };
	const struct lz_pen bold = { LZ_COLOR_INDEXED(1), 0, LZ_ATTR_BOLD };
	const struct lz_pen onblue = { LZ_COLOR_INDEXED(1),
	    LZ_COLOR_INDEXED(4), 0 };
	const struct lz_pen rgb1 = { LZ_COLOR_RGB(1, 2, 3), 0, 0 };
	const struct lz_pen rgb2 = { LZ_COLOR_RGB(4, 5, 6), 0, 0 };
	const uint32_t wide[] = { 0x4e2d };
	struct lz_grid g;
	struct seen s = { 0, 0 };
	int row;

	(void)state;
	lz_grid_init(&g, 3, 600);
	row = g.rows - 1;
	/* A new grid's rows are not kept: nothing was erased yet. */
	text(&g, 0, "first", &plain);
	leave(&g, 0);

	one(&g, 0, 'h', &plain);
	text(&g, 1, "ello world", &plain);
	leave(&g, 1);
	/* Pen changes; a cell alone in its pen between others. */
	text(&g, 0, "ab", &red);
	text(&g, 2, "cd", &plain);
	one(&g, 4, 'e', &bold);
	text(&g, 5, "fg", &green);
	one(&g, 7, 'h', &onblue);
	one(&g, 8, 'i', &onblue);
	leave(&g, 1);
	/* Gaps (tabs): from the plain pen, from a colour, over 255 cells. */
	text(&g, 0, "ab", &plain);
	text(&g, 8, "cd", &red);
	text(&g, 10, "x", &red);
	text(&g, 400, "far", &green);
	one(&g, 599, 'z', &plain);
	leave(&g, 1);
	/* Erases past the text keep it, into it or in a colour drop it. */
	text(&g, 0, "abcdef", &red);
	lz_grid_erase(&g, row, row + 1, 6, 600, LZ_COLOR_DEFAULT, 0);
	text(&g, 6, "gh", &plain);
	leave(&g, 1);
	text(&g, 0, "abcdef", &red);
	lz_grid_erase(&g, row, row + 1, 3, 600, LZ_COLOR_DEFAULT, 0);
	leave(&g, 0);
	text(&g, 0, "abcdef", &red);
	lz_grid_erase(&g, row, row + 1, 10, 20, LZ_COLOR_INDEXED(4), 0);
	leave(&g, 0);
	/* A write before the end (a carriage return), anything not ASCII. */
	text(&g, 0, "abcdef", &plain);
	text(&g, 0, "xy", &plain);
	leave(&g, 0);
	text(&g, 0, "ab", &plain);
	lz_grid_put(&g, row, 2, wide, 1, 2, &plain);
	leave(&g, 0);
	text(&g, 0, "ab", &plain);
	one(&g, 2, 0xe9, &plain);
	leave(&g, 0);
	/*
	 * Where the encoder makes a run (a colour a character: two cells in
	 * a row each changing the foreground alone) it is dropped; where a
	 * single cell is followed by anything else it is kept.
	 */
	one(&g, 0, 'a', &red);
	one(&g, 1, 'b', &green);
	leave(&g, 0);
	one(&g, 0, 'a', &rgb1);
	one(&g, 1, 'b', &rgb2);
	leave(&g, 0);
	one(&g, 0, 'a', &red);
	one(&g, 1, 'b', &rgb1);
	leave(&g, 1);
	one(&g, 0, 'a', &red);
	one(&g, 1, 'b', &red);
	one(&g, 2, 'c', &bold);
	one(&g, 3, 'd', &onblue);
	one(&g, 4, 'e', &plain);
	text(&g, 5, "fg", &green);
	leave(&g, 1);
	/* Copied over, or the grid resized: dropped. */
	text(&g, 0, "abcdef", &plain);
	lz_grid_moverect(&g, row, 2, row, 0, 1, 4);
	leave(&g, 0);
	text(&g, 0, "abcdef", &plain);
	lz_grid_resize(&g, 3, 500, 0, NULL, NULL);
	lz_grid_scroll(&g, 0, g.rows, 1, LZ_COLOR_DEFAULT, out_check, &s);
	assert_int_equal(s.kept, 0);
	assert_int_equal(s.rows, 1);
	/* A scroll region (nothing handed out) keeps none, till rows leave. */
	lz_grid_scroll(&g, 0, 2, 1, LZ_COLOR_DEFAULT, NULL, NULL);
	lz_grid_scroll(&g, 0, g.rows, 1, LZ_COLOR_DEFAULT, NULL, NULL);
	text(&g, 0, "abc", &plain);
	s.kept = 0;
	s.rows = 0;
	lz_grid_scroll(&g, 0, g.rows, 2, LZ_COLOR_DEFAULT, out_check, &s);
	assert_int_equal(s.rows, 2);
	assert_int_equal(s.kept, 0);
	text(&g, 0, "abc", &plain);
	leave(&g, 1);
	lz_grid_free(&g);
}

/* The scrollback stores what lz_sb_push would, kept or not. */
static void
test_push_row(void **state)
{
	const struct lz_pen red = { LZ_COLOR_INDEXED(1), 0, 0 };
	struct lz_grid g;
	struct lz_sb a, b;
	struct lz_cell out[40];
	struct seen s = { 0, 0 };
	int row, i;

	(void)state;
	lz_grid_init(&g, 2, 40);
	lz_sb_init(&a, 100, 1 << 20);
	lz_sb_init(&b, 100, 1 << 20);
	row = g.rows - 1;
	/* A row handed out: the grid keeps the encodings from now on. */
	lz_grid_scroll(&g, 0, g.rows, 1, LZ_COLOR_DEFAULT, out_check, &s);
	assert_int_equal(lz_grid_put_ascii(&g, row, 3,
	    (const unsigned char *)"kept", 4, &red), 4);
	assert_true(g.enc[row]->valid);
	lz_sb_push_row(&a, g.row[row], g.len[row], 1, g.enc[row]);
	lz_sb_push(&b, g.row[row], g.len[row], 1);
	assert_int_equal(lz_sb_bytes(&a), lz_sb_bytes(&b));
	assert_int_equal(lz_sb_wrapped(&a, 0), 1);
	assert_int_equal(lz_sb_pop(&a, out, 40), 1);
	for (i = 0; i < 40; i++)
		assert_memory_equal(&out[i], lz_sb_cell(&b, 0, i),
		    sizeof out[i]);
	lz_sb_free(&a);
	lz_sb_free(&b);
	lz_grid_free(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_push_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
