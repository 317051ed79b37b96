/*
 * pane-history.c: scrollback lines as ANSI (see pane-history.h). Each line
 * is printed with CR LF from the top of a cleared screen; rows - 1 more
 * line feeds then push the last of them above the screen, into the
 * receiving pane's scrollback, in order. Hyperlinks go with their text.
 */
#include "core/utf8.h"
#include "ui/pane-history.h"

static int
blank_default(const struct lz_cell *c)
{
	return c->ch[0] == 0 && c->bg == LZ_COLOR_DEFAULT &&
	    !(c->attr & LZ_ATTR_REVERSE);
}

/* One scrollback line: cells up to the last non-blank one. */
static void
line(const struct lz_pane *p, size_t n, int cols, struct lz_buf *out)
{
	struct lz_cell cells[LZ_PANE_MAX_COLS];
	const struct lz_cell *c;
	const char *url;
	int end = 0, col, i, link = 0;

	for (col = 0; col < cols; col++) {
		c = lz_pane_scrollback_cell(p, n, col);
		if (c == NULL)
			break;
		cells[col] = *c;
		if (!blank_default(c))
			end = col + 1;
	}
	for (col = 0; col < end; col++) {
		c = &cells[col];
		if (LZ_ATTR_LINK(c->attr) != link) {
			link = LZ_ATTR_LINK(c->attr);
			url = lz_pane_link(p, link);
			lz_buf_addf(out, "\033]8;;%s\033\\", url ? url : "");
		}
		if (col == 0 || c->fg != cells[col - 1].fg ||
		    c->bg != cells[col - 1].bg ||
		    c->attr != cells[col - 1].attr)
			lz_pane_sgr(out, c->fg, c->bg, c->attr);
		if (c->ch[0] == LZ_CELL_CONT)
			continue;
		if (c->ch[0] == 0) {
			lz_buf_addch(out, ' ');
			continue;
		}
		for (i = 0; i < LZ_CELL_CHARS && c->ch[i] != 0; i++)
			lz_buf_add_utf8(out, c->ch[i]);
	}
	if (link != 0)
		lz_buf_adds(out, "\033]8;;\033\\");
	lz_buf_adds(out, "\033[0m\r\n");
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
}
