/*
 * pane-snapshot.c: a pane as an ANSI stream (lz_pane_render_ansi, see
 * pane.h): what a client needs to take up a session's screen where the
 * coordinator's pane is, after an attach or a gap in its output. Read
 * only: it looks at the state pane.c keeps (pane-int.h) and writes what
 * makes a new pane of the same size reach the same state.
 *
 * Order matters, because each step leaves something behind that a later
 * one must not disturb: cells first (written as text in the default
 * modes), then line sizes, tab stops, title and the save slot, then the
 * margins (which move the cursor home), then the last glyph and the
 * pending wrap (text again, hidden from the grid), origin mode, the modes
 * and pen and the cursor, in an order that keeps a pending wrap and lets
 * no later CSI clamp the cursor (libvterm clamps it at the end of each);
 * then the character sets, and last the sequence the parser was in the
 * middle of.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "core/util.h"
#include "ui/pane-int.h"
#include "ui/pane.h"
#include "ui/vtlimits.h"

/*
 * An SGR being written: parameters go into the open CSI while it holds at
 * most LZ_VT_CSI_ARGS_MAX of them (libvterm's parser keeps no more and
 * wrote past its array: vtlimits.h), then into another CSI. A group (a
 * colour's 38;2;R;G;B, an underline's 4:3) is never split; each is read
 * alike in one CSI or two.
 */
struct sgr {
	struct lz_buf *out;
	int n;			/* parameters in the open CSI */
};

static void
sgr_param(struct sgr *s, int k, const char *text)
{
	if (s->n + k > LZ_VT_CSI_ARGS_MAX) {
		lz_buf_adds(s->out, "m\033[");
		s->n = 0;
	}
	if (s->n > 0)
		lz_buf_addch(s->out, ';');
	lz_buf_adds(s->out, text);
	s->n += k;
}

static void
sgr_color(struct sgr *s, uint32_t c, int bg)
{
	uint32_t v = c & 0xffffff;
	char t[32];

	switch (LZ_COLOR_KIND(c)) {
	case LZ_COLOR_KIND_INDEXED:
		if (v < 16) {
			snprintf(t, sizeof t, "%u", (v < 8 ? (bg ? 40 : 30) :
			    (bg ? 100 : 90) - 8) + v);
			sgr_param(s, 1, t);
		} else {
			snprintf(t, sizeof t, "%d;5;%u", bg ? 48 : 38, v);
			sgr_param(s, 3, t);
		}
		break;
	case LZ_COLOR_KIND_RGB:
		snprintf(t, sizeof t, "%d;2;%u;%u;%u", bg ? 48 : 38, v >> 16,
		    v >> 8 & 0xff, v & 0xff);
		sgr_param(s, 5, t);
		break;
	default:
		break;
	}
}

void
lz_pane_sgr(struct lz_buf *out, uint32_t fg, uint32_t bg, uint16_t attr,
    int font)
{
	static const char *const ul[] = { "", "4", "4:2", "4:3" };
	struct sgr s = { out, 0 };
	unsigned u = LZ_ATTR_UNDERLINE(attr);
	char t[4];

	lz_buf_adds(out, "\033[");
	sgr_param(&s, 1, "0");
	if (attr & LZ_ATTR_BOLD)
		sgr_param(&s, 1, "1");
	if (attr & LZ_ATTR_ITALIC)
		sgr_param(&s, 1, "3");
	if (u != 0)
		sgr_param(&s, u == 1 ? 1 : 2, ul[u]);
	if (attr & LZ_ATTR_BLINK)
		sgr_param(&s, 1, "5");
	if (attr & LZ_ATTR_REVERSE)
		sgr_param(&s, 1, "7");
	if (attr & LZ_ATTR_STRIKE)
		sgr_param(&s, 1, "9");
	if (font > 0 && font < 10) {
		snprintf(t, sizeof t, "%d", 10 + font);
		sgr_param(&s, 1, t);
	}
	sgr_color(&s, fg, 0);
	sgr_color(&s, bg, 1);
	lz_buf_addch(out, 'm');
}

/* The pen the cells are written with: SGR and DECSCA. */
struct rpen {
	uint32_t fg, bg;
	uint16_t attr;
};

/* OSC 8 for the pane's link k (0: none). */
static void
link_set(const struct lz_pane *p, struct lz_buf *out, int k)
{
	const char *url = lz_pane_link(p, k);

	lz_buf_adds(out, "\033]8;");
	if (k > 0 && url != NULL) {
		if (p->links.id[k - 1][0] != '\0')
			lz_buf_addf(out, "id=%s", p->links.id[k - 1]);
		lz_buf_addf(out, ";%s", url);
	} else
		lz_buf_addch(out, ';');
	lz_buf_adds(out, "\033\\");
}

static void
rpen_set(const struct lz_pane *p, struct lz_buf *out, struct rpen *cur,
    uint32_t fg, uint32_t bg, uint16_t attr)
{
	if (cur->fg == fg && cur->bg == bg && cur->attr == attr)
		return;
	if ((cur->attr ^ attr) & LZ_ATTR_PROTECTED)
		lz_buf_adds(out, attr & LZ_ATTR_PROTECTED ? "\033[1\"q" :
		    "\033[0\"q");
	if ((cur->attr ^ attr) & LZ_ATTR_LINK_MASK)
		link_set(p, out, LZ_ATTR_LINK(attr));
	if (cur->fg != fg || cur->bg != bg || ((cur->attr ^ attr) &
	    ~(LZ_ATTR_PROTECTED | LZ_ATTR_LINK_MASK)))
		lz_pane_sgr(out, fg, bg, attr, 0);
	cur->fg = fg;
	cur->bg = bg;
	cur->attr = attr;
}

static int
plain_blank(const struct lz_cell *c)
{
	return c->ch[0] == 0 && c->bg == 0;
}

/* Cells r[0..end) from the cursor on, blanks skipped or erased. */
static void
render_cells(const struct lz_pane *p, const struct lz_cell *r, int end,
    struct rpen *pen, struct lz_buf *out)
{
	const struct lz_cell *c;
	int x, n, k;

	for (x = 0; x < end; x++) {
		c = &r[x];
		if (c->ch[0] == 0) {
			/* A run of blanks: skip it, or erase it. */
			for (n = 1; x + n < end && r[x + n].ch[0] == 0 &&
			    r[x + n].bg == c->bg; n++)
				;
			if (c->bg != 0) {
				rpen_set(p, out, pen, 0, c->bg,
				    pen->attr & (LZ_ATTR_PROTECTED |
				    LZ_ATTR_LINK_MASK));
				lz_buf_addf(out, "\033[%dX", n);
			}
			lz_buf_addf(out, "\033[%dC", n);
			x += n - 1;
			continue;
		}
		if (c->ch[0] == LZ_CELL_CONT)
			continue;
		rpen_set(p, out, pen, c->fg, c->bg, c->attr);
		for (k = 0; k < LZ_CELL_CHARS && c->ch[k] != 0; k++)
			lz_buf_add_utf8(out, c->ch[k]);
	}
}

/* Back to no pen: DECSCA and the link off, then SGR 0. */
static void
pen_off(const struct lz_pane *p, const struct rpen *pen, struct lz_buf *out)
{
	if (pen->attr & LZ_ATTR_PROTECTED)
		lz_buf_adds(out, "\033[0\"q");
	if (pen->attr & LZ_ATTR_LINK_MASK)
		link_set(p, out, 0);
}

static int
end_of(const struct lz_cell *r, int cols)
{
	while (cols > 0 && plain_blank(&r[cols - 1]))
		cols--;
	return cols;
}

void
lz_pane_render_line(const struct lz_pane *p, const struct lz_cell *r,
    int cols, struct lz_buf *out)
{
	struct rpen pen = { 0, 0, 0 };

	render_cells(p, r, end_of(r, cols), &pen, out);
	pen_off(p, &pen, out);
	lz_buf_adds(out, "\033[0m");
}

static void
render_grid(const struct lz_pane *p, const struct lz_grid *g,
    struct lz_buf *out)
{
	struct rpen pen = { 0, 0, 0 };
	int y, end;

	lz_buf_adds(out, "\033[0m\033[H\033[2J");
	for (y = 0; y < g->rows; y++) {
		end = end_of(g->row[y], g->cols);
		if (end > 0) {
			lz_buf_addf(out, "\033[%d;1H", y + 1);
			render_cells(p, g->row[y], end, &pen, out);
		}
	}
	pen_off(p, &pen, out);
	/* After the rows: erasing a whole row ends the one above. */
	for (y = 0; y < g->rows; y++)
		if (g->wrap[y])
			lz_buf_addf(out, "\033_%s;%d\033\\",
			    LZ_PANE_PRIVATE_WRAP, y);
}

static void
cup(struct lz_buf *out, int row, int col)
{
	lz_buf_addf(out, "\033[%d;%dH", row + 1, col + 1);
}

static void
dec(struct lz_buf *out, int mode, int on)
{
	lz_buf_addf(out, "\033[?%d%c", mode, on ? 'h' : 'l');
}

static void
private(struct lz_buf *out, const char *what)
{
	lz_buf_addf(out, "\033_%s\033\\", what);
}

/* ESC # 3, 4, 5 or 6: the size libvterm gives row. */
static char
line_size(const struct lz_pane *p, int row)
{
	const VTermLineInfo *li = vterm_state_get_lineinfo(p->vts, row);

	if (li->doubleheight)
		return li->doubleheight == 1 ? '3' : '4';
	return li->doublewidth ? '6' : '5';
}

static void
line_sizes(const struct lz_pane *p, struct lz_buf *out)
{
	int row;
	char c;

	for (row = 0; row < p->rows; row++) {
		if ((c = line_size(p, row)) == '5')
			continue;
		lz_buf_addf(out, "\033[%d;1H\033#%c", row + 1, c);
	}
}

static void
tab_stops(const struct lz_pane *p, struct lz_buf *out)
{
	int col, deflt = 1;

	for (col = 0; col < p->cols; col++) {
		if (lz_pane_tab_at(p, col) != (col % 8 == 0))
			deflt = 0;
	}
	if (deflt)
		return;
	lz_buf_adds(out, "\033[3g");
	for (col = 0; col < p->cols; col++) {
		if (lz_pane_tab_at(p, col))
			lz_buf_addf(out, "\033[1;%dH\033H", col + 1);
	}
}

/* The colours the program set (OSC 4, 10, 11, 12). */
static void
colors(const struct lz_pane *p, struct lz_buf *out)
{
	const struct g_colors *c = &p->colors;
	int i;

	for (i = 0; i < 256; i++) {
		if (c->set[i >> 3] & (1u << (i & 7)))
			lz_buf_addf(out, "\033]4;%d;#%06x\033\\", i, c->pal[i]);
	}
	for (i = 0; i < 3; i++) {
		if (c->dynset & (1 << i))
			lz_buf_addf(out, "\033]%d;#%06x\033\\", 10 + i,
			    c->dyn[i]);
	}
}

static void
cursor_look(struct lz_buf *out, int shape, int blink, int visible)
{
	lz_buf_addf(out, "\033[%d q", (shape == LZ_CURSOR_UNDERLINE ? 3 :
	    shape == LZ_CURSOR_BAR ? 5 : 1) + !blink);
	dec(out, 25, visible);
}

/* libvterm's save slot, written by DECSC at its place with its pen. */
static void
save_slot(const struct lz_pane *p, struct lz_buf *out)
{
	const struct g_saved *s = &p->t.saved;

	int row = s->row < p->rows ? s->row : p->rows - 1;
	int col = s->col < p->cols ? s->col : p->cols - 1;
	char real = line_size(p, row);

	if (!s->valid)
		return;
	/*
	 * CUP stops at the middle of a double-width line: a slot past it
	 * (the line made double after DECSC, or a reflow) is saved on the
	 * line made single for a moment, as place_cursor does.
	 */
	if (real != '5' && col >= p->cols / 2) {
		cup(out, row, 0);
		lz_buf_adds(out, "\033#5");
	}
	cup(out, row, col);
	lz_pane_sgr(out, s->pen.fg, s->pen.bg, s->pen.attr, 0);
	cursor_look(out, s->shape, s->blink, s->visible);
	lz_buf_adds(out, "\0337");
	if (real != '5' && col >= p->cols / 2)
		lz_buf_addf(out, "\033#%c", real);
}

static void
margins(const struct lz_pane *p, struct lz_buf *out)
{
	if (p->t.top != 0 || p->t.bottom != -1) {
		lz_buf_addf(out, "\033[%d", p->t.top + 1);
		if (p->t.bottom != -1)
			lz_buf_addf(out, ";%d", p->t.bottom);
		lz_buf_addch(out, 'r');
	}
	if (p->t.left != 0 || p->t.right != -1) {
		lz_buf_addf(out, "\033[%d", p->t.left + 1);
		if (p->t.right != -1)
			lz_buf_addf(out, ";%d", p->t.right);
		lz_buf_addch(out, 's');
	}
}

/* The last glyph's code points as text. */
static void
glyph_text(const struct g_glyph *g, struct lz_buf *out)
{
	int k;

	for (k = 0; k < g->nch; k++)
		lz_buf_add_utf8(out, g->ch[k]);
}

/*
 * The cursor position as CUP: origin mode counts from the margins (the
 * left one only under ?69, which is not on yet when this is written).
 */
static void
cup_origin(const struct lz_pane *p, struct lz_buf *out, int row, int col,
    int lr)
{
	if (p->t.origin) {
		row -= p->t.top;
		if (lr)
			col -= p->t.left;
	}
	cup(out, row, col);
}

/*
 * The cursor, outside origin mode with left and right margins. CUP stops
 * at the middle of a double-width line (libvterm wraps there) unless
 * origin mode is on: such a cursor is placed on a single-width line.
 */
static void
place_cursor(const struct lz_pane *p, struct lz_buf *out, int row, int col)
{
	char real = line_size(p, row);

	if (!p->t.origin && real != '5' && col >= p->cols / 2) {
		cup(out, row, 0);
		lz_buf_adds(out, "\033#5");
		cup(out, row, col);
		lz_buf_addf(out, "\033#%c", real);
		return;
	}
	cup_origin(p, out, row, col, p->t.lrmm);
}

/*
 * The last glyph with the pending wrap (the glyph set it and the cursor
 * stands on it): written hidden at its place, with origin mode already
 * on. CUP is made on a single-width line (it stops in the middle of a
 * double-width one), and the glyph written on a double-width one if only
 * that made it reach the end; then the line gets its real size.
 */
static void
glyph_wrap(const struct lz_pane *p, struct lz_buf *out)
{
	const struct g_glyph *g = &p->t.lg;
	int half = g->col + g->width < p->cols;
	int right = p->t.right > -1 ? p->t.right : p->cols, n;
	char real = line_size(p, g->row);

	if (p->t.origin)
		dec(out, 6, 1);
	if (p->t.origin && p->t.lrmm && g->col >= right) {
		/*
		 * Text went past the right margin in origin mode, where CUP
		 * cannot: the margins first, then hidden text up to it.
		 */
		dec(out, 69, 1);
		cup_origin(p, out, g->row, right - 1, 1);
		private(out, LZ_PANE_PRIVATE_HIDE);
		for (n = g->col - (right - 1); n > 0; n--)
			lz_buf_addch(out, 'x');
		glyph_text(g, out);
		private(out, LZ_PANE_PRIVATE_SHOW);
		if (!p->t.autowrap)
			dec(out, 7, 0);
		return;
	}
	if (real != '5') {
		cup_origin(p, out, g->row, 0, 0);
		lz_buf_adds(out, "\033#5");
	}
	cup_origin(p, out, g->row, g->col, 0);
	if (half)
		lz_buf_adds(out, "\033#6");
	private(out, LZ_PANE_PRIVATE_HIDE);
	glyph_text(g, out);
	private(out, LZ_PANE_PRIVATE_SHOW);
	/* ?7l clamps the cursor into its line: a single-width one. */
	if (half)
		lz_buf_adds(out, "\033#5");
	if (!p->t.autowrap)
		dec(out, 7, 0);
	if (real != '5')
		lz_buf_addf(out, "\033#%c", real);
	if (p->t.lrmm)
		dec(out, 69, 1);
}

void
lz_pane_park_seq(const struct lz_pane *p, struct lz_buf *out)
{
	int row = p->rows - 1;
	char real = line_size(p, row);

	if (real != '5') {
		cup(out, row, 0);
		lz_buf_adds(out, "\033#5");
	}
	cup(out, row, p->cols - 1);
	lz_buf_addch(out, 'x');
	if (real != '5')
		lz_buf_addf(out, "\033#%c", real);
}

/*
 * The last glyph without a pending wrap. libvterm's own (what it would
 * join a mark to, were the guard to let it) is parked hidden
 * (lz_pane_park_seq), as a resize parks the original's when its glyph
 * is gone; the pane's, which is what counts, is set by a private string.
 * Then origin mode.
 */
static void
glyph_hidden(const struct lz_pane *p, struct lz_buf *out)
{
	const struct g_glyph *g = &p->t.lg;
	int k;

	private(out, LZ_PANE_PRIVATE_HIDE);
	lz_pane_park_seq(p, out);
	private(out, LZ_PANE_PRIVATE_SHOW);
	lz_buf_addf(out, "\033_%s;%d;%d;%d", LZ_PANE_PRIVATE_GLYPH, g->row,
	    g->col, g->width);
	for (k = 0; k < g->nch; k++)
		lz_buf_addf(out, ";%x", g->ch[k]);
	lz_buf_adds(out, "\033\\");
	if (p->t.origin)
		dec(out, 6, 1);
	if (p->t.lrmm)
		dec(out, 69, 1);
}

/*
 * The cursor, last of all CSIs: libvterm clamps the cursor into its line
 * (and into the margins in origin mode) at the end of every CSI, so one
 * standing past the middle of a double-width line could not be reached
 * before another CSI.
 */
static void
cursor_last(const struct lz_pane *p, struct lz_buf *out)
{
	int cr = p->t.vrow, cc = p->t.vcol, left, right, n;

	if (!p->t.origin || !p->t.lrmm) {
		place_cursor(p, out, cr, cc);
		return;
	}
	/*
	 * Origin mode with left and right margins: CUP reaches the columns
	 * between them; CR, a text wrap or a tab can leave the cursor on
	 * either side, where backspaces and tabs reach it.
	 */
	left = p->t.left;
	right = p->t.right > -1 ? p->t.right : p->cols;
	if (cc >= left && cc < right) {
		cup_origin(p, out, cr, cc, 1);
		return;
	}
	if (cc < left) {
		/* libvterm takes a left margin of the width (xterm refuses). */
		if (left > p->cols - 1)
			left = p->cols - 1;
		cup_origin(p, out, cr, left, 1);
		for (n = left - cc; n > 0; n--)
			lz_buf_addch(out, '\b');
		return;
	}
	cup_origin(p, out, cr, right - 1, 1);
	for (n = p->cols; n > 0; n--)
		lz_buf_addch(out, '\t');
	for (n = p->cols - 1 - cc; n > 0; n--)
		lz_buf_addch(out, '\b');
}

/* Every mode but autowrap (glyph_wrap needs it on), and the pen. */
static void
modes(const struct lz_pane *p, struct lz_buf *out)
{
	const struct lz_pane_props *pr = &p->props;

	if (p->t.insert)
		lz_buf_adds(out, "\033[4h");
	if (p->t.newline)
		lz_buf_adds(out, "\033[20h");
	if (pr->app_cursor)
		dec(out, 1, 1);
	if (pr->app_keypad)
		lz_buf_adds(out, "\033=");
	if (pr->reverse)
		dec(out, 5, 1);
	if (pr->bracketed_paste)
		dec(out, 2004, 1);
	if (pr->mouse != LZ_MOUSE_NONE)
		dec(out, pr->mouse, 1);
	if (pr->mouse_enc != LZ_MOUSE_ENC_X10)
		dec(out, pr->mouse_enc, 1);
	if (pr->focus_events)
		dec(out, 1004, 1);
	if (pr->sync)
		dec(out, 2026, 1);
	cursor_look(out, pr->cursor_shape, pr->cursor_blink,
	    pr->cursor_visible);
	if (p->t.protect)
		lz_buf_adds(out, "\033[1\"q");
	if (p->t.s8c1t)
		lz_buf_adds(out, "\033 G");
	lz_pane_sgr(out, p->pen.fg, p->pen.bg, p->pen.attr, p->font);
	if (p->pen.attr & LZ_ATTR_LINK_MASK)
		link_set(p, out, LZ_ATTR_LINK(p->pen.attr));
}

static void
charsets(const struct lz_pane *p, struct lz_buf *out)
{
	static const char gl[] = { '\017', '\016', 'n', 'o' };
	int k;

	for (k = 0; k < 4; k++) {
		if (p->t.gset[k] != 'u')
			lz_buf_addf(out, "\033%c%c", "()*+"[k], p->t.gset[k]);
	}
	if (p->t.gr != 1)
		lz_buf_addf(out, "\033%c", p->t.gr == 2 ? '}' : '|');
	if (p->t.gl == 1)
		lz_buf_addch(out, gl[1]);
	else if (p->t.gl > 1)
		lz_buf_addf(out, "\033%c", gl[p->t.gl]);
	if (p->t.ss != 0)
		lz_buf_addf(out, "\033%c", p->t.ss == 2 ? 'N' : 'O');
}

/* The sequence or character the guard is in the middle of. */
static void
tail(const struct lz_pane *p, struct lz_buf *out)
{
	static const char intro[] = { ']', 'P', '_' };

	switch (p->gs) {
	case G_GROUND:
		if (p->u8need > 0)
			lz_buf_add(out, p->u8held, (size_t)p->u8nheld);
		break;
	case G_ESC:
		lz_buf_addch(out, '\033');
		lz_buf_add(out, p->esc_inter, (size_t)(p->esc_ninter <
		    G_CSI_BYTES_MAX ? p->esc_ninter : G_CSI_BYTES_MAX));
		break;
	case G_CSI_LEADER:
	case G_CSI_ARGS:
	case G_CSI_INTERMED:
		lz_buf_adds(out, "\033[");
		lz_buf_add(out, p->csi_raw, (size_t)p->csi_rawlen);
		break;
	case G_CSI_DISCARD:
		lz_buf_adds(out, "\033[1234567890");
		break;
	case G_STRING:
	case G_STRING_ESC:
		lz_buf_addch(out, '\033');
		lz_buf_addch(out, intro[p->str_kind]);
		lz_buf_add(out, p->str, p->str_len);
		if (p->str_long)
			lz_buf_addch(out, 'x');
		if (p->gs == G_STRING_ESC)
			lz_buf_addch(out, '\033');
		break;
	}
}

void
lz_pane_render_ansi(const struct lz_pane *p, struct lz_buf *out)
{
	render_grid(p, &p->scr[0], out);
	if (p->alt) {
		/* 1047, not 1049: the save slot comes later, or never. */
		cup(out, p->saved_row, p->saved_col);
		dec(out, 1047, 1);
		render_grid(p, &p->scr[1], out);
	}
	/* Before the line sizes: CUP stops at the middle of a wide line. */
	tab_stops(p, out);
	if (!p->t.lrmm)
		line_sizes(p, out);
	lz_buf_adds(out, "\033]2;");
	lz_buf_adds(out, p->title);
	lz_buf_adds(out, "\033\\");
	colors(p, out);
	save_slot(p, out);
	margins(p, out);
	if (lz_pane_wrap(p)) {
		modes(p, out);
		glyph_wrap(p, out);
	} else {
		glyph_hidden(p, out);
		modes(p, out);
		if (!p->t.autowrap)
			dec(out, 7, 0);
		cursor_last(p, out);
	}
	/* What tells a wrap from a line feed next (pane.c soft_wrap). */
	lz_buf_addf(out, "\033_%s;%u\033\\", LZ_PANE_PRIVATE_SINCE,
	    (p->t.lg.since & G_SINCE_MOVED) |
	    ((p->t.lg.since & G_SINCE_SCROLLS) > 2 ? 2 :
	    (p->t.lg.since & G_SINCE_SCROLLS)));
	charsets(p, out);
	tail(p, out);
}
