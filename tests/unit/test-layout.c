/*
 * test-layout.c: pane geometry: splits, borders, removal, neighbours,
 * resize and zoom.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ui/layout.h"

static void
assert_rect(const struct lz_layout *l, int id, int row, int col, int rows,
    int cols)
{
	struct lz_rect r;

	assert_int_equal(lz_layout_rect(l, id, &r), 1);
	assert_int_equal(r.row, row);
	assert_int_equal(r.col, col);
	assert_int_equal(r.rows, rows);
	assert_int_equal(r.cols, cols);
}

static void
test_split_and_remove(void **state)
{
	struct lz_layout l;
	int ids[8];

	(void)state;
	lz_layout_init(&l);
	lz_layout_arrange(&l, (struct lz_rect){ 0, 0, 23, 80 });
	assert_int_equal(lz_layout_split(&l, -1, 1, LZ_DIR_RIGHT), 0);
	assert_rect(&l, 1, 0, 0, 23, 80);
	/* Side by side: 39 + border + 40 columns. */
	assert_int_equal(lz_layout_split(&l, 1, 2, LZ_DIR_RIGHT), 0);
	assert_rect(&l, 1, 0, 0, 23, 39);
	assert_rect(&l, 2, 0, 40, 23, 40);
	/* Pane 2 split top/bottom: 11 + border + 11 rows. */
	assert_int_equal(lz_layout_split(&l, 2, 3, LZ_DIR_DOWN), 0);
	assert_rect(&l, 2, 0, 40, 11, 40);
	assert_rect(&l, 3, 12, 40, 11, 40);
	assert_int_equal(lz_layout_leaves(&l, ids, 8), 3);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ids[2], 3);
	/* Duplicate ids and unknown leaves are refused. */
	assert_int_equal(lz_layout_split(&l, 2, 3, LZ_DIR_DOWN), -1);
	assert_int_equal(lz_layout_split(&l, 9, 4, LZ_DIR_DOWN), -1);
	/* Removing 2 gives its half back to 3. */
	assert_int_equal(lz_layout_remove(&l, 2), 0);
	assert_rect(&l, 3, 0, 40, 23, 40);
	assert_int_equal(lz_layout_remove(&l, 2), -1);
	assert_int_equal(lz_layout_remove(&l, 1), 0);
	assert_rect(&l, 3, 0, 0, 23, 80);
	assert_int_equal(lz_layout_remove(&l, 3), 0);
	assert_int_equal(lz_layout_count(&l), 0);
	lz_layout_free(&l);
}

static void
test_too_small(void **state)
{
	struct lz_layout l;
	int i;

	(void)state;
	lz_layout_init(&l);
	lz_layout_arrange(&l, (struct lz_rect){ 0, 0, 10, 20 });
	assert_int_equal(lz_layout_split(&l, -1, 0, LZ_DIR_DOWN), 0);
	/* Halving 10 rows again and again stops before a half under 2. */
	for (i = 1; i < 10; i++) {
		if (lz_layout_split(&l, i - 1, i, LZ_DIR_DOWN) != 0)
			break;
	}
	assert_true(i < 10);
	lz_layout_free(&l);
}

static void
test_neighbours(void **state)
{
	struct lz_layout l;

	(void)state;
	lz_layout_init(&l);
	lz_layout_arrange(&l, (struct lz_rect){ 0, 0, 23, 80 });
	lz_layout_split(&l, -1, 1, LZ_DIR_RIGHT);
	lz_layout_split(&l, 1, 2, LZ_DIR_RIGHT);
	lz_layout_split(&l, 2, 3, LZ_DIR_DOWN);
	assert_int_equal(lz_layout_neighbour(&l, 1, LZ_DIR_RIGHT), 2);
	assert_int_equal(lz_layout_neighbour(&l, 3, LZ_DIR_LEFT), 1);
	assert_int_equal(lz_layout_neighbour(&l, 2, LZ_DIR_DOWN), 3);
	assert_int_equal(lz_layout_neighbour(&l, 3, LZ_DIR_UP), 2);
	assert_int_equal(lz_layout_neighbour(&l, 1, LZ_DIR_LEFT), -1);
	assert_int_equal(lz_layout_neighbour(&l, 1, LZ_DIR_UP), -1);
	lz_layout_free(&l);
}

static int borders_seen;

static void
count_border(int vertical, int row, int col, int len, void *user)
{
	(void)user;
	/* The only border here: column 39, all 23 rows. */
	assert_int_equal(vertical, 1);
	assert_int_equal(row, 0);
	assert_int_equal(col, 39);
	assert_int_equal(len, 23);
	borders_seen++;
}

static void
test_resize_zoom_borders(void **state)
{
	struct lz_layout l;
	struct lz_rect r;

	(void)state;
	lz_layout_init(&l);
	lz_layout_arrange(&l, (struct lz_rect){ 0, 0, 23, 80 });
	lz_layout_split(&l, -1, 1, LZ_DIR_RIGHT);
	lz_layout_split(&l, 1, 2, LZ_DIR_RIGHT);
	lz_layout_borders(&l, count_border, NULL);
	assert_int_equal(borders_seen, 1);
	/* The border moves right by 5: pane 1 grows, pane 2 shrinks. */
	assert_int_equal(lz_layout_resize(&l, 1, LZ_DIR_RIGHT, 5), 0);
	assert_rect(&l, 1, 0, 0, 23, 44);
	assert_rect(&l, 2, 0, 45, 23, 35);
	/* From pane 2 the same border moves left. */
	assert_int_equal(lz_layout_resize(&l, 2, LZ_DIR_LEFT, 10), 0);
	assert_rect(&l, 1, 0, 0, 23, 34);
	/* No vertical split: nothing to move up or down. */
	assert_int_equal(lz_layout_resize(&l, 1, LZ_DIR_UP, 1), -1);
	/* Never below 2 columns. */
	lz_layout_resize(&l, 1, LZ_DIR_LEFT, 500);
	assert_rect(&l, 1, 0, 0, 23, 2);
	/* Proportions survive a bigger terminal. */
	lz_layout_resize(&l, 1, LZ_DIR_RIGHT, 38);
	lz_layout_arrange(&l, (struct lz_rect){ 0, 0, 47, 160 });
	assert_int_equal(lz_layout_rect(&l, 1, &r), 1);
	assert_true(r.cols >= 78 && r.cols <= 80);
	/* Zoom: pane 2 gets everything, pane 1 is hidden; again: back. */
	lz_layout_zoom(&l, 2);
	assert_int_equal(lz_layout_rect(&l, 1, &r), 0);
	assert_rect(&l, 2, 0, 0, 47, 160);
	borders_seen = 0;
	lz_layout_borders(&l, count_border, NULL);
	assert_int_equal(borders_seen, 0);
	lz_layout_zoom(&l, 2);
	assert_int_equal(lz_layout_rect(&l, 1, &r), 1);
	lz_layout_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_and_remove),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_neighbours),
		cmocka_unit_test(test_resize_zoom_borders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
