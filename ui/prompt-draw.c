/*
 * prompt-draw.c: the escalation prompt drawn into a frame (prompt.h): a
 * box over the pane that asked (or a raw session's screen), the body
 * scrolled so that nothing is cut without the footer saying so.
 */
#include <string.h>

#include "ui/prompt.h"

static void	frame(struct lz_render *r, struct lz_rect b, const char *title,
		    const struct lz_pen *pen);
static void	line(struct lz_render *r, int row, int col, int cols,
		    const char *text, int style,
		    const struct lz_prompt_pens *pens);

static void
frame(struct lz_render *r, struct lz_rect b, const char *title,
    const struct lz_pen *pen)
{
	const int u = r->t->utf8;
	struct lz_pen bold = *pen;
	int i;

	lz_render_clear(r, b, pen->bg);
	for (i = 1; i < b.cols - 1; i++) {
		lz_render_text(r, b.row, b.col + i, 1, u ? "\u2500" : "-", pen);
		lz_render_text(r, b.row + b.rows - 1, b.col + i, 1,
		    u ? "\u2500" : "-", pen);
	}
	for (i = 1; i < b.rows - 1; i++) {
		lz_render_text(r, b.row + i, b.col, 1, u ? "\u2502" : "|", pen);
		lz_render_text(r, b.row + i, b.col + b.cols - 1, 1,
		    u ? "\u2502" : "|", pen);
	}
	lz_render_text(r, b.row, b.col, 1, u ? "\u250c" : "+", pen);
	lz_render_text(r, b.row, b.col + b.cols - 1, 1, u ? "\u2510" : "+",
	    pen);
	lz_render_text(r, b.row + b.rows - 1, b.col, 1, u ? "\u2514" : "+",
	    pen);
	lz_render_text(r, b.row + b.rows - 1, b.col + b.cols - 1, 1,
	    u ? "\u2518" : "+", pen);
	bold.attr |= LZ_ATTR_BOLD;
	lz_render_text(r, b.row, b.col + 2, b.cols - 4, title, &bold);
}

static void
line(struct lz_render *r, int row, int col, int cols, const char *text,
    int style, const struct lz_prompt_pens *pens)
{
	struct lz_pen pen = style == LZ_PROMPT_WARN ? pens->warn : pens->text;

	if (style == LZ_PROMPT_LABEL || style == LZ_PROMPT_WARN)
		pen.attr |= LZ_ATTR_BOLD;
	if (style == LZ_PROMPT_SELECTED) {
		char blank[LZ_PROMPT_MAX_COLS + 1];

		/* The whole row reversed, so the element's end shows. */
		pen.attr |= LZ_ATTR_REVERSE;
		memset(blank, ' ', sizeof blank - 1);
		blank[cols < LZ_PROMPT_MAX_COLS ? (cols > 0 ? cols : 0) :
		    LZ_PROMPT_MAX_COLS] = '\0';
		lz_render_text(r, row, col, cols, blank, &pen);
	}
	lz_render_text(r, row, col, cols, text, &pen);
}

void
lz_prompt_draw(struct lz_prompt *p, struct lz_render *r, struct lz_rect area,
    const struct lz_prompt_pens *pens, int64_t now, int *cursor_row,
    int *cursor_col)
{
	struct lz_prompt_text t;
	struct lz_rect b, in;
	int cols, body_rows = 0, rows, i, pass, max, fit, scroll;

	*cursor_row = *cursor_col = -1;
	if (area.rows < 3 || area.cols < 6)
		return;
	cols = area.cols < LZ_PROMPT_MAX_COLS ? area.cols : LZ_PROMPT_MAX_COLS;
	/*
	 * The footer says which body lines are shown, which can make it a
	 * line longer: lay out again until the rows and the scroll (kept in
	 * range, the editor's cursor in sight) agree with what it says.
	 */
	memset(&t, 0, sizeof t);
	for (pass = 0; pass < 4; pass++) {
		lz_prompt_text_release(&t);
		lz_prompt_text(p, cols - 4, body_rows, now, &t);
		max = area.rows - 2 - (int)t.foot.n;
		if (max < 1)
			max = 1;
		fit = (int)t.body.n < max ? (int)t.body.n : max;
		scroll = p->scroll;
		if (t.cursor_line >= 0 && t.cursor_line < scroll)
			scroll = t.cursor_line;
		if (t.cursor_line >= scroll + fit)
			scroll = t.cursor_line - fit + 1;
		if (scroll > (int)t.body.n - fit)
			scroll = (int)t.body.n - fit;
		if (scroll < 0)
			scroll = 0;
		if (fit == body_rows && scroll == p->scroll)
			break;
		body_rows = fit;
		p->scroll = scroll;
	}
	body_rows = fit;
	rows = 2 + body_rows + (int)t.foot.n;
	if (rows > area.rows)
		rows = area.rows;
	b = (struct lz_rect){ area.row + (area.rows - rows) / 2,
	    area.col + (area.cols - cols) / 2, rows, cols };
	in = (struct lz_rect){ b.row + 1, b.col + 2, b.rows - 2, b.cols - 4 };
	p->page = body_rows;
	frame(r, b, t.title, &pens->frame);
	for (i = 0; i < body_rows && p->scroll + i < (int)t.body.n; i++)
		line(r, in.row + i, in.col, in.cols, t.body.v[p->scroll + i],
		    t.body_style[p->scroll + i], pens);
	for (i = 0; i < (int)t.foot.n && body_rows + i < in.rows; i++)
		line(r, in.row + body_rows + i, in.col, in.cols, t.foot.v[i],
		    t.foot_style[i], pens);
	if (t.cursor_line >= p->scroll && t.cursor_line < p->scroll +
	    body_rows && t.cursor_col < in.cols) {
		*cursor_row = in.row + t.cursor_line - p->scroll;
		*cursor_col = in.col + t.cursor_col;
	}
	lz_prompt_text_release(&t);
}
