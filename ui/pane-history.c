/*
 * pane-history.c: scrollback lines as ANSI (see pane-history.h). Each line
 * is printed with CR LF from the top of a cleared screen; rows - 1 more
 * line feeds then push the last of them above the screen, into the
 * receiving pane's scrollback, in order. Hyperlinks go with their text;
 * then the soft wraps, a private string for each (what a restoring pane
 * takes, lz_pane_restore_begin).
 */
#include "ui/pane-history.h"
#include "ui/pane-int.h"

/* One scrollback line. */
static void
line(const struct lz_pane *p, size_t n, int cols, struct lz_buf *out)
{
	struct lz_cell cells[LZ_PANE_MAX_COLS];
	const struct lz_cell *c;
	int col;

	for (col = 0; col < cols; col++) {
		c = lz_pane_scrollback_cell(p, n, col);
		if (c == NULL)
			break;
		cells[col] = *c;
	}
	lz_pane_render_line(p, cells, col, out);
	/*
	 * CHA, not CR: libvterm keeps a pending wrap across a CR that does
	 * not move the cursor (a full row of one column, or of one wide
	 * character), and the next line would wrap after a blank one.
	 */
	lz_buf_adds(out, "\033[G\n");
}

void
lz_pane_render_history(const struct lz_pane *p, size_t max,
    struct lz_buf *out)
{
	size_t have = lz_pane_scrollback_lines(p), n, i;
	unsigned rows = lz_pane_rows(p);

	n = have < max ? have : max;
	if (n == 0)
		return;
	lz_buf_adds(out, "\033[0m\033[H\033[2J");
	for (i = n; i-- > 0;)
		line(p, i, (int)lz_pane_cols(p), out);
	for (i = 1; i < rows; i++)
		lz_buf_adds(out, "\r\n");
	/*
	 * The soft wraps, once the lines are all in the scrollback (erasing
	 * a whole row, as a line of coloured blanks does, ends the one
	 * above it).
	 */
	for (i = 0; i < n; i++)
		if (lz_pane_scrollback_wrapped(p, i))
			lz_buf_addf(out, "\033_%s;-%zu\033\\",
			    LZ_PANE_PRIVATE_WRAP, i + 1);
}
