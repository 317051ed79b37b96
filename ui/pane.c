/*
 * pane.c: the pane emulator of pane.h. libvterm's state layer parses and
 * keeps cursor, pen and modes; its callbacks below write the project's grid
 * (ui/grid.c). In front of libvterm runs a guard that mirrors its parser
 * (parser.c of 0.1.4) byte by byte, so it knows when libvterm is inside a
 * CSI or text, steps in where libvterm 0.1.4 would go wrong (pane.h), and
 * tracks the state libvterm keeps to itself (pane-int.h). The snapshot is
 * in pane-snapshot.c; this file never includes ncurses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vterm.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/utf8.h"
#include "core/util.h"
#include "ui/grid.h"
#include "ui/pane-int.h"
#include "ui/pane.h"
#include "ui/vtchar.h"

/* A freed pane whose scrollback held this much trims the heap. */
#define TRIM_BYTES (1u << 20)

static int cb_initpen(void *user);
static int cb_setpenattr(VTermAttr attr, VTermValue *val, void *user);
static int cb_resize(int rows, int cols, VTermPos *delta, void *user);
static int cb_setlineinfo(int row, const VTermLineInfo *newinfo,
    const VTermLineInfo *oldinfo, void *user);
static int hcb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user);
static void save_slot(struct lz_pane *p);
static void vt_write(struct lz_pane *p, const char *s, size_t n);
static void vt_cursor(struct lz_pane *p, VTermPos *pos);
static void set_hidden(struct lz_pane *p, int on);
static void move_to(struct lz_pane *p, int row, int col);
static int hcb_scrollrect(VTermRect rect, int downward, int rightward,
    void *user);
static int hcb_moverect(VTermRect dest, VTermRect src, void *user);
static int hcb_erase(VTermRect rect, int selective, void *user);
static int hcb_initpen(void *user);
static int hcb_bell(void *user);

static const VTermStateCallbacks pane_callbacks = {
	.putglyph = lz_pane_cb_putglyph,
	.movecursor = lz_pane_cb_movecursor,
	.scrollrect = lz_pane_cb_scrollrect,
	.moverect = lz_pane_cb_moverect,
	.erase = lz_pane_cb_erase,
	.initpen = cb_initpen,
	.setpenattr = cb_setpenattr,
	.settermprop = lz_pane_cb_settermprop,
	.bell = lz_pane_cb_bell,
	.resize = cb_resize,
	.setlineinfo = cb_setlineinfo,
};

/*
 * Hidden mode (lz_pane_restore's private strings): libvterm's own state
 * moves as usual, the grid does not. A snapshot uses it to put back the
 * pending wrap and the last glyph, which only text writes can set.
 */
static const VTermStateCallbacks hidden_callbacks = {
	.putglyph = hcb_putglyph,
	.movecursor = lz_pane_cb_movecursor,
	.scrollrect = hcb_scrollrect,
	.moverect = hcb_moverect,
	.erase = hcb_erase,
	.initpen = hcb_initpen,
	.setpenattr = cb_setpenattr,
	.settermprop = lz_pane_cb_settermprop,
	.bell = hcb_bell,
	.resize = cb_resize,
	.setlineinfo = cb_setlineinfo,
};

static struct lz_grid *
cur(struct lz_pane *p)
{
	return &p->scr[p->alt];
}

/* Marks rows [r0, r1) dirty, a word at a time. */
static void
mark_rows(struct lz_pane *p, int r0, int r1)
{
	uint64_t m;
	int w, lo, hi;

	if (r0 < 0)
		r0 = 0;
	if (r1 > p->rows)
		r1 = p->rows;
	if (r0 >= r1)
		return;
	p->dirty |= LZ_PANE_DIRTY_CELLS;
	for (w = r0 >> 6; w <= (r1 - 1) >> 6; w++) {
		lo = w == r0 >> 6 ? r0 & 63 : 0;
		hi = w == (r1 - 1) >> 6 ? ((r1 - 1) & 63) + 1 : 64;
		m = hi == 64 ? ~0ull : (1ull << hi) - 1;
		p->rowdirty[w] |= m & ~((1ull << lo) - 1);
	}
}

static void
output_cb(const char *s, size_t len, void *user)
{
	struct lz_pane *p = user;

	lz_buf_add(&p->reply, s, len);
}

static unsigned
clampu(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void
guard_reset_modes(struct lz_pane *p)
{
	p->props.app_cursor = 0;
	p->props.app_keypad = 0;
	p->props.bracketed_paste = 0;
	p->props.mouse = LZ_MOUSE_NONE;
	p->props.mouse_enc = LZ_MOUSE_ENC_X10;
	p->props.focus_events = 0;
	p->props.sync = 0;
	p->props.reverse = 0;
	p->t.lrmm = 0;
}

/* Tab stops every 8 columns from col on, as libvterm sets them. */
static void
tabs_default(struct lz_pane *p, int col)
{
	for (; col < LZ_PANE_MAX_COLS; col++) {
		if (col % 8 == 0)
			p->t.tabs[col >> 3] |= (uint8_t)(1u << (col & 7));
		else
			p->t.tabs[col >> 3] &= (uint8_t)~(1u << (col & 7));
	}
}

static const unsigned char g_plain[256], g_plain_lr[256];

/*
 * What the fast paths need of the modes, after they change: the glyph
 * path, which cursor moves libvterm gets wrong (margins), and whether CR
 * and line feeds need the guard (a left margin).
 */
static void
track_modes(struct lz_pane *p)
{
	p->t.lg.wrap = lz_pane_wrap(p) ? 2 : 0;
	p->t.wrapcol = p->t.autowrap ? p->cols - 1 : INT32_MAX;
	p->t.fastmax = p->decaln || p->t.dwl ? 0 : 0xd7ff;
	p->t.margined = p->t.top != 0 || p->t.bottom != -1 || p->t.lrmm;
	p->t.plain = p->t.lrmm && p->t.left > 0 ? g_plain_lr : g_plain;
}

/* What libvterm's hard reset (vterm_state_reset) resets. */
static void
track_reset(struct lz_pane *p)
{
	int k;

	p->t.insert = 0;
	p->t.newline = 0;
	p->t.origin = 0;
	p->t.autowrap = 1;
	p->t.lrmm = 0;
	p->t.s8c1t = 0;
	p->t.protect = 0;
	p->t.top = 0;
	p->t.bottom = -1;
	p->t.left = 0;
	p->t.right = -1;
	tabs_default(p, 0);
	for (k = 0; k < 4; k++)
		p->t.gset[k] = 'u';
	p->t.gl = 0;
	p->t.gr = 1;
	p->t.ss = 0;
	p->t.lg.wrap = 0;
	track_modes(p);
}

/* The state a new pane starts in (the scrollback is not touched). */
static void
state_init(struct lz_pane *p)
{
	/* The alternate screen is made when it is entered (switch_screen). */
	lz_grid_init(&p->scr[0], p->rows, p->cols);
	lz_buf_init(&p->reply);
	p->props.cursor_visible = 1;
	p->props.cursor_blink = 1;
	p->props.cursor_shape = LZ_CURSOR_BLOCK;
	guard_reset_modes(p);
	track_reset(p);

	p->vt = vterm_new(p->rows, p->cols);
	if (p->vt == NULL)
		LZ_BUG("vterm_new failed");
	vterm_set_utf8(p->vt, 1);
	vterm_output_set_callback(p->vt, output_cb, p);
	p->vts = vterm_obtain_state(p->vt);
	vterm_state_set_callbacks(p->vts, &pane_callbacks, p);
	vterm_state_reset(p->vts, 1);
	/*
	 * libvterm's save slot starts all zero: a restore before any save
	 * would hide the cursor, give it shape 0 and an RGB black pen. As in
	 * xterm, it starts as the cursor at home with the default pen.
	 */
	save_slot(p);
	vterm_input_write(p->vt, "\0337", 2);
	lz_pane_clear_dirty(p);
}

static void
state_free(struct lz_pane *p)
{
	vterm_free(p->vt);
	lz_grid_free(&p->scr[0]);
	lz_grid_free(&p->scr[1]);
	lz_buf_release(&p->reply);
}

struct lz_pane *
lz_pane_new(unsigned rows, unsigned cols, size_t scrollback_lines,
    const struct lz_pane_cb *cb, void *user)
{
	struct lz_pane *p = lz_xcalloc(1, sizeof *p);

	p->rows = (int)clampu(rows, 1, LZ_PANE_MAX_ROWS);
	p->cols = (int)clampu(cols, 1, LZ_PANE_MAX_COLS);
	if (scrollback_lines > LZ_PANE_SB_MAX_LINES)
		scrollback_lines = LZ_PANE_SB_MAX_LINES;
	if (cb != NULL)
		p->cb = *cb;
	p->user = user;
	lz_sb_init(&p->sb, scrollback_lines, LZ_PANE_SB_MAX_BYTES);
	lz_pane_host_default(&p->host);
	state_init(p);
	return p;
}

void
lz_pane_free(struct lz_pane *p)
{
	size_t held;

	if (p == NULL)
		return;
	held = lz_sb_bytes(&p->sb);
	state_free(p);
	lz_sb_free(&p->sb);
	lz_pane_links_free(p);
	free(p);
#ifdef __GLIBC__
	/*
	 * glibc gives back only the top of its heap: the scrollback's 64 KiB
	 * blocks, between other panes' memory, would stay in the process
	 * (pane-memory.sh frees 4 of its 8 panes: 20.3 MB stay 20.3
	 * without the trim, become 11.1 with it, in about 3 ms; journal.md,
	 * "compact scrollback").
	 */
	if (held >= TRIM_BYTES)
		malloc_trim(0);
#endif
}

/* libvterm callbacks. */

int
lz_pane_row_width(const struct lz_pane *p, int row)
{
	const VTermLineInfo *li;

	if (!p->t.dwl || row < 0 || row >= p->rows)
		return p->cols;
	li = vterm_state_get_lineinfo(p->vts, row);
	return li->doublewidth ? p->cols / 2 : p->cols;
}

/*
 * A glyph of width w at pos, column 0: if libvterm wrapped to put it
 * there (from a pending wrap, or a wide glyph that did not fit where the
 * cursor stood), the row above now goes on into this one. The line feed
 * of the wrap moved the cursor down, or scrolled the region it stood at
 * the bottom of: which one tells the line feeds and scrolls since from
 * the wrap's. Not under left and right margins (libvterm wraps to column
 * 0 and scrolls between them) nor for DECALN's glyphs.
 */
static void __attribute__((noinline))
soft_wrap(struct lz_pane *p, VTermPos pos, int w)
{
	const struct g_glyph *g = &p->t.lg;
	int prow, pcol, bottom, n = (int)(p->t.lg.since & G_SINCE_SCROLLS);

	if (p->decaln || (p->t.lrmm && (p->t.left > 0 || p->t.right != -1)))
		return;
	if (lz_pane_wrap(p))
		prow = g->row;
	else if (w == 2) {
		if (p->t.lg.since & G_SINCE_MOVED) {
			prow = p->t.vrow;
			pcol = p->t.vcol;
		} else {
			/* libvterm's cursor stays on a glyph at the end. */
			prow = g->row;
			pcol = g->col + g->width;
			if (prow >= 0 && prow < p->rows &&
			    pcol >= lz_pane_row_width(p, prow))
				pcol = g->col;
		}
		if (prow < 0 || prow >= p->rows ||
		    pcol + 2 <= lz_pane_row_width(p, prow))
			return;
	} else
		return;
	bottom = p->t.bottom > -1 ? p->t.bottom : p->rows;
	if (n == 0 && prow == pos.row - 1)
		cur(p)->wrap[prow] = 1;
	else if (n == 1 && prow == pos.row && pos.row == bottom - 1) {
		if (pos.row - 1 >= p->t.top)
			cur(p)->wrap[pos.row - 1] = 1;
		else if (p->rows == 1 && !p->alt)
			lz_sb_set_wrapped(&p->sb, 0);	/* it scrolled there */
	}
}

/*
 * libvterm put a glyph at pos: it is the last one now, and libvterm's
 * pending wrap is whether it reached the row's end (with autowrap on).
 * DECALN's glyphs are neither (libvterm keeps both as they were).
 */
static void
track_glyph(struct lz_pane *p, const VTermGlyphInfo *info, VTermPos pos)
{
	struct g_glyph *g = &p->t.lg;
	int k;

	if (p->decaln)
		return;
	p->t.lg.since = 0;
	g->row = pos.row;
	g->col = pos.col;
	g->width = (int16_t)info->width;
	for (k = 0; k < G_GLYPH_CHARS && info->chars[k] != 0; k++)
		g->ch[k] = info->chars[k];
	g->nch = (int16_t)k;
	g->wrap = p->t.autowrap &&
	    pos.col + info->width >= lz_pane_row_width(p, pos.row) ? 2 : 0;
}

/*
 * Puts a glyph as libvterm gives it (chars[0..n), base first) at (row,
 * col) with the current pen: a glyph of width 0 is combining marks with
 * no base (after a cursor move), and gets a space as base, as a terminal
 * shows it; more than LZ_CELL_CHARS code points are cut.
 */
void
lz_pane_put_chars(struct lz_pane *p, const uint32_t *chars, int n, int width,
    int row, int col, int protect)
{
	struct lz_pen pen = p->pen;
	uint32_t ch[LZ_CELL_CHARS];
	uint32_t c;
	int k, m = 0;

	if (width <= 0)
		ch[m++] = ' ';
	for (k = 0; k < n && m < LZ_CELL_CHARS; k++) {
		c = chars[k];
		if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			c = 0xfffd;
		ch[m++] = c;
	}
	if (n == 0)
		return;
	if (protect)
		pen.attr |= LZ_ATTR_PROTECTED;
	lz_grid_put(cur(p), row, col, ch, m, width, &pen);
	lz_pane_mark_row(p, row);
}

/* A glyph with marks, wide or protected: the rest of lz_pane_cb_putglyph. */
static int __attribute__((noinline))
putglyph_full(struct lz_pane *p, const VTermGlyphInfo *info, VTermPos pos)
{
	int n;

	for (n = 0; info->chars[n] != 0; n++)
		;
	lz_pane_put_chars(p, info->chars, n, info->width, pos.row, pos.col,
	    info->protected_cell);
	if (pos.col == 0)
		soft_wrap(p, pos, info->width);
	track_glyph(p, info, pos);
	return 1;
}

/* The glyph fast path at column 0, out of line: a wrap to put it there? */
static int __attribute__((noinline))
putglyph_col0(struct lz_pane *p, uint32_t c, VTermPos pos)
{
	soft_wrap(p, pos, 1);
	lz_pane_fast_glyph(p, c, pos);
	return 1;
}

/*
 * The glyph of a write of stand-ins (vwrite_glyph): the characters they
 * stand for are put, with libvterm's width, which is theirs in the pane.
 */
static int __attribute__((noinline))
putglyph_stand(struct lz_pane *p, VTermGlyphInfo *info, VTermPos pos)
{
	VTermGlyphInfo g = *info;
	uint32_t ch[G_GLYPH_CHARS + 1];
	int k;

	for (k = 0; k < p->nstand && info->chars[k] != 0; k++)
		ch[k] = p->stand[k];
	ch[k] = 0;
	p->nstand = 0;
	g.chars = ch;
	return p->hidden ? hcb_putglyph(&g, pos, p) :
	    lz_pane_cb_putglyph(&g, pos, p);
}

int
lz_pane_cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct lz_pane *p = user;
	const uint32_t *chars = info->chars;
	uint32_t c = chars[0];

	if (p->nstand > 0)
		return putglyph_stand(p, info, pos);
	/*
	 * One character below the surrogates, width 1, no marks, no wide
	 * neighbour, no double-width line, not DECALN's: most of any output,
	 * kept short (the last two make fastmax 0). putglyph_full does the
	 * rest.
	 */
	if (info->width != 1 || c - 1 >= p->t.fastmax || chars[1] != 0 ||
	    info->protected_cell ||
	    !lz_grid_put1(cur(p), pos.row, pos.col, c, &p->pen))
		return putglyph_full(p, info, pos);
	if (pos.col == 0)
		return putglyph_col0(p, c, pos);	/* a tail call */
	lz_pane_fast_glyph(p, c, pos);
	return 1;
}

static int
hcb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct lz_pane *p = user;

	if (p->nstand > 0)
		return putglyph_stand(p, info, pos);
	track_glyph(p, info, pos);
	return 1;
}

/* Whether pos is where libvterm's text left the cursor after the last glyph. */
static int
after_glyph(const struct lz_pane *p, VTermPos pos)
{
	const struct g_glyph *g = &p->t.lg;

	if (pos.row != g->row)
		return 0;
	return pos.col == (g->col + g->width < lz_pane_row_width(p, g->row) ?
	    g->col + g->width : g->col);
}

int
lz_pane_cb_movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user)
{
	struct lz_pane *p = user;

	(void)oldpos;
	(void)visible;
	/*
	 * libvterm cancels a pending wrap when the cursor moves, except at
	 * the end of the text that set it, where the cursor stands on the
	 * last glyph.
	 */
	if (p->t.lg.wrap && (pos.row != p->t.lg.row || pos.col != p->t.lg.col))
		p->t.lg.wrap = 0;
	/*
	 * libvterm reports the cursor at the end of each write, wherever its
	 * writes are cut (and the fast path where it stops): where the last
	 * glyph left it is no move.
	 */
	if (!after_glyph(p, pos))
		p->t.lg.since = G_SINCE_MOVED;
	p->t.vrow = pos.row;
	p->t.vcol = pos.col;
	if (pos.row < 0)
		pos.row = 0;
	if (pos.row >= p->rows)
		pos.row = p->rows - 1;
	if (pos.col < 0)
		pos.col = 0;
	if (pos.col >= p->cols)
		pos.col = p->cols - 1;
	if (pos.row != p->props.cursor_row || pos.col != p->props.cursor_col)
		lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR);
	p->props.cursor_row = pos.row;
	p->props.cursor_col = pos.col;
	return 1;
}

static void
sb_out(const struct lz_cell *row, int cols, int wrapped,
    const struct lz_rowenc *enc, void *user)
{
	struct lz_pane *p = user;

	lz_sb_push_row(&p->sb, row, cols, wrapped, enc);
}

int
lz_pane_cb_scrollrect(VTermRect rect, int downward, int rightward, void *user)
{
	struct lz_pane *p = user;
	int full;

	if (downward > 0 && rightward == 0 &&
	    (p->t.lg.since & G_SINCE_SCROLLS) != G_SINCE_SCROLLS)
		p->t.lg.since++;
	if (rightward != 0 || rect.start_col != 0 || rect.end_col != p->cols)
		return 0;	/* libvterm falls back to moverect + erase */
	full = rect.start_row == 0 && rect.end_row == p->rows;
	lz_grid_scroll(cur(p), rect.start_row, rect.end_row, downward,
	    p->pen.bg, full && downward > 0 && !p->alt ? sb_out : NULL, p);
	if (full && downward > 0)
		p->scrolled += (unsigned long)downward;
	mark_rows(p, rect.start_row, rect.end_row);
	return 1;
}

int
lz_pane_cb_moverect(VTermRect dest, VTermRect src, void *user)
{
	struct lz_pane *p = user;

	lz_grid_moverect(cur(p), dest.start_row, dest.start_col, src.start_row,
	    src.start_col, dest.end_row - dest.start_row,
	    dest.end_col - dest.start_col);
	mark_rows(p, dest.start_row, dest.end_row);
	return 1;
}

int
lz_pane_cb_erase(VTermRect rect, int selective, void *user)
{
	struct lz_pane *p = user;

	lz_grid_erase(cur(p), rect.start_row, rect.end_row, rect.start_col,
	    rect.end_col, p->pen.bg, selective);
	mark_rows(p, rect.start_row, rect.end_row);
	return 1;
}

static int
hcb_scrollrect(VTermRect rect, int downward, int rightward, void *user)
{
	(void)rect;
	(void)downward;
	(void)rightward;
	(void)user;
	return 1;
}

static int
hcb_moverect(VTermRect dest, VTermRect src, void *user)
{
	(void)dest;
	(void)src;
	(void)user;
	return 1;
}

static int
hcb_erase(VTermRect rect, int selective, void *user)
{
	(void)rect;
	(void)selective;
	(void)user;
	return 1;
}

static int
cb_initpen(void *user)
{
	struct lz_pane *p = user;

	memset(&p->pen, 0, sizeof p->pen);
	return 1;
}

static int
hcb_initpen(void *user)
{
	(void)user;
	return 1;
}

static uint32_t
conv_color(const VTermColor *c, int bg)
{
	if (bg ? VTERM_COLOR_IS_DEFAULT_BG(c) : VTERM_COLOR_IS_DEFAULT_FG(c))
		return LZ_COLOR_DEFAULT;
	if (VTERM_COLOR_IS_INDEXED(c))
		return LZ_COLOR_INDEXED(c->indexed.idx);
	return LZ_COLOR_RGB(c->rgb.red, c->rgb.green, c->rgb.blue);
}

static void
set_attr(struct lz_pane *p, uint16_t bit, int on)
{
	if (on)
		p->pen.attr |= bit;
	else
		p->pen.attr &= (uint16_t)~bit;
}

static int
cb_setpenattr(VTermAttr attr, VTermValue *val, void *user)
{
	struct lz_pane *p = user;

	switch (attr) {
	case VTERM_ATTR_BOLD:
		set_attr(p, LZ_ATTR_BOLD, val->boolean);
		break;
	case VTERM_ATTR_UNDERLINE:
		p->pen.attr = (uint16_t)((p->pen.attr & ~LZ_ATTR_UL_MASK) |
		    ((val->number & 3) << LZ_ATTR_UL_SHIFT));
		break;
	case VTERM_ATTR_ITALIC:
		set_attr(p, LZ_ATTR_ITALIC, val->boolean);
		break;
	case VTERM_ATTR_BLINK:
		set_attr(p, LZ_ATTR_BLINK, val->boolean);
		break;
	case VTERM_ATTR_REVERSE:
		set_attr(p, LZ_ATTR_REVERSE, val->boolean);
		break;
	case VTERM_ATTR_STRIKE:
		set_attr(p, LZ_ATTR_STRIKE, val->boolean);
		break;
	case VTERM_ATTR_FOREGROUND:
		p->pen.fg = conv_color(&val->color, 0);
		break;
	case VTERM_ATTR_BACKGROUND:
		p->pen.bg = conv_color(&val->color, 1);
		break;
	case VTERM_ATTR_FONT:
		p->font = val->number;
		break;
	default:
		break;
	}
	return 1;
}

static void
switch_screen(struct lz_pane *p, int alt)
{
	if (alt == p->alt)
		return;
	/*
	 * Entering clears the alternate screen, so nothing of it is kept
	 * while it is not shown: it is made blank on entry and freed on
	 * exit (a pane that never uses it holds one grid, not two).
	 */
	if (alt) {
		p->saved_row = p->props.cursor_row;
		p->saved_col = p->props.cursor_col;
		lz_grid_init(&p->scr[1], p->rows, p->cols);
	} else
		lz_grid_free(&p->scr[1]);
	p->alt = alt;
	p->props.altscreen = alt;
	mark_rows(p, 0, p->rows);
	lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
}

int
lz_pane_cb_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct lz_pane *p = user;

	switch (prop) {
	case VTERM_PROP_CURSORVISIBLE:
		p->props.cursor_visible = val->boolean;
		lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_CURSORBLINK:
		p->props.cursor_blink = val->boolean;
		lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_CURSORSHAPE:
		if (val->number >= LZ_CURSOR_BLOCK &&
		    val->number <= LZ_CURSOR_BAR)
			p->props.cursor_shape = val->number;
		lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_ALTSCREEN:
		if (p->hidden)
			return 0;
		switch_screen(p, val->boolean != 0);
		break;
	case VTERM_PROP_REVERSE:
		p->props.reverse = val->boolean;
		mark_rows(p, 0, p->rows);
		lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
		break;
	default:
		/* Title: the guard takes OSC. Mouse: the guard tracks it. */
		break;
	}
	return 1;
}

int
lz_pane_cb_bell(void *user)
{
	struct lz_pane *p = user;

	p->props.bells++;
	lz_pane_mark(p, LZ_PANE_DIRTY_BELL);
	return 1;
}

static int
hcb_bell(void *user)
{
	(void)user;
	return 1;
}

static int
cb_resize(int rows, int cols, VTermPos *delta, void *user)
{
	struct lz_pane *p = user;

	(void)rows;
	(void)cols;
	*delta = p->resize_delta;
	return 1;
}

static int
cb_setlineinfo(int row, const VTermLineInfo *newinfo,
    const VTermLineInfo *oldinfo, void *user)
{
	struct lz_pane *p = user;

	/*
	 * DECDWL/DECDHL lines are drawn at normal size, but libvterm wraps
	 * them at half the width: from the first one on, the glyph path
	 * asks libvterm for each row's width.
	 */
	(void)row;
	(void)oldinfo;
	if (newinfo->doublewidth && !p->t.dwl) {
		p->t.dwl = 1;
		track_modes(p);
	}
	return 1;
}

/* Writing to libvterm. */

/*
 * Puts the cursor back on the screen if a restore left it outside (and
 * inside the margins in origin mode: libvterm's save slot does not keep
 * DECOM, so a restore could leave the cursor where origin mode cannot
 * reach, which xterm's, keeping DECOM with the cursor, never does).
 */
static void
clamp_cursor(struct lz_pane *p)
{
	VTermPos pos;
	int top = 0, bot = p->rows - 1, left = 0, right = p->cols - 1, r, c;

	vt_cursor(p, &pos);
	/*
	 * libvterm 0.1.4 ends each CSI by stopping the cursor at the middle
	 * of a double-width line, after the restore of ?1048l / ?1049l told
	 * where the save slot was: back where the CSI started, it calls no
	 * movecursor. The pane follows libvterm's cursor, not the callback.
	 */
	if (pos.row != p->t.vrow || pos.col != p->t.vcol)
		lz_pane_cb_movecursor(pos, pos, 1, p);
	if (p->t.origin) {
		top = p->t.top;
		bot = (p->t.bottom > -1 ? p->t.bottom : p->rows) - 1;
		if (p->t.lrmm) {
			left = p->t.left;
			right = (p->t.right > -1 ? p->t.right : p->cols) - 1;
		}
	}
	r = pos.row < top ? top : pos.row > bot ? bot : pos.row;
	c = pos.col < left ? left : pos.col > right ? right : pos.col;
	if (r != pos.row || c != pos.col)
		move_to(p, r, c);
}

void
lz_pane_vwrite(struct lz_pane *p, const char *s, size_t n)
{
	size_t k;

	lz_pane_vt_sync(p);
	while (n > 0) {
		k = n < LZ_PANE_WRITE_MAX ? n : LZ_PANE_WRITE_MAX;
		vterm_input_write(p->vt, s, k);
		s += k;
		n -= k;
	}
}

static void
vwrites(struct lz_pane *p, const char *s)
{
	lz_pane_vwrite(p, s, strlen(s));
}

/*
 * What libvterm gets in place of a glyph of width w (0, 1, 2) whose
 * characters it must not see: U+0300 (a mark), U+00A1, U+4E00 (wide).
 * The hidden glyphs that set its last glyph and pending wrap (reput,
 * lz_pane_vt_sync) and the stand-ins of vwrite_glyph.
 */
static const char *const stand_in[3] = {
	"\xcc\x80", "\xc2\xa1", "\xe4\xb8\x80"
};

/*
 * Writes libvterm the glyph ch[0..n) (a character and its marks) as
 * text. A character libvterm 0.1.4 would give another width than the
 * pane's (lz_vtchar_differs) goes as the stand-in of the pane's width,
 * and the glyph libvterm puts carries the real characters
 * (putglyph_stand).
 */
static void
vwrite_glyph(struct lz_pane *p, const uint32_t *ch, int n)
{
	unsigned char u[4 * G_GLYPH_CHARS];
	const char *s;
	size_t len = 0;
	int k, any = 0;

	for (k = 0; k < n && k < G_GLYPH_CHARS; k++) {
		if (ch[k] >= 0xa0 && lz_vtchar_differs(ch[k])) {
			s = stand_in[lz_vtchar_width(ch[k])];
			memcpy(u + len, s, strlen(s));
			len += strlen(s);
			any = 1;
		} else
			len += lz_utf8_put(u + len, ch[k]);
	}
	lz_pane_vt_sync(p);
	if (any) {
		memcpy(p->stand, ch, (size_t)k * sizeof *ch);
		p->nstand = k;
	}
	vterm_input_write(p->vt, (const char *)u, len);
	p->nstand = 0;
}

/* Writes to libvterm, which first learns what the fast path did. */
static void
vt_write(struct lz_pane *p, const char *s, size_t n)
{
	lz_pane_vt_sync(p);
	vterm_input_write(p->vt, s, n);
}

/* libvterm's cursor, once it learnt what the fast path did. */
static void
vt_cursor(struct lz_pane *p, VTermPos *pos)
{
	lz_pane_vt_sync(p);
	vterm_state_get_cursorpos(p->vts, pos);
}

/*
 * Tells libvterm what the fast path (pane-fast.c) did without it, so
 * that it takes the next byte as if it had done it itself: the pen (an
 * SGR, the font too), the cursor's visibility, its last glyph (where it
 * joins marks: the glyph is put again in hidden mode, which also sets a
 * pending wrap) and the cursor (CUP, unless a pending wrap keeps it on
 * the glyph). The pane's own state is left as it was: only libvterm
 * moves.
 */
void
lz_pane_vt_sync(struct lz_pane *p)
{
	struct g_glyph g = p->t.lg;
	struct lz_buf b = LZ_BUF_INIT;
	unsigned st = p->vstale, dirty = p->dirty;
	int wrap = lz_pane_wrap(p), row = p->t.vrow, col = p->t.vcol;
	int crow = p->props.cursor_row, ccol = p->props.cursor_col;

	if (st == 0)
		return;
	p->vstale = 0;
	if (st & G_STALE_PEN)
		lz_pane_sgr(&b, p->pen.fg, p->pen.bg, p->pen.attr, p->font);
	if (st & G_STALE_VISIBLE)
		lz_buf_adds(&b, p->props.cursor_visible ? "\033[?25h" :
		    "\033[?25l");
	if (b.len > 0)
		vterm_input_write(p->vt, b.buf, b.len);
	if ((st & G_STALE_GLYPH) && g.width > 0) {
		lz_buf_reset(&b);
		lz_buf_addf(&b, "\033[%d;%dH%s", g.row + 1, g.col + 1,
		    stand_in[g.width == 2 ? 2 : 1]);
		set_hidden(p, 1);
		vterm_input_write(p->vt, b.buf, b.len);
		set_hidden(p, 0);
	}
	if ((st & (G_STALE_POS | G_STALE_GLYPH)) && !wrap) {
		lz_buf_reset(&b);
		lz_buf_addf(&b, "\033[%d;%dH", row + 1, col + 1);
		vterm_input_write(p->vt, b.buf, b.len);
	}
	lz_buf_release(&b);
	p->t.lg = g;
	p->props.cursor_row = crow;
	p->props.cursor_col = ccol;
	p->dirty = dirty;
}

/* Writes the pending segment up to (not including) end. */
static void
flush_to(struct lz_pane *p, size_t end)
{
	if (end > p->fseg) {
		lz_pane_vwrite(p, p->fbuf + p->fseg, end - p->fseg);
		p->fseg = end;
	}
	if (p->seg_move) {
		p->t.lg.wrap = 0;
		p->seg_move = 0;
	}
}

/* Writes up to byte i, then leaves byte i out. */
static void
skip_byte(struct lz_pane *p, size_t i)
{
	flush_to(p, i);
	p->fseg = i + 1;
}

/* Writes through byte i and checks the cursor (after a restore). */
static void
sync_after(struct lz_pane *p, size_t i)
{
	flush_to(p, i + 1);
	clamp_cursor(p);
}

/* Cancels the CSI or ESC libvterm is in, leaving byte i out. */
static void
cancel_at(struct lz_pane *p, size_t i)
{
	skip_byte(p, i);
	vt_write(p, "\030", 1);
}

/* The guard. */

/*
 * Bytes the guard passes untouched in the ground state with no partial
 * character: 1 for C0 controls libvterm executes (all but SO, SI, CAN,
 * SUB, ESC) and DEL, 2 for printable ASCII. g_plain_lr, under a left
 * margin, also leaves out LF, VT, FF and CR (the guard moves the cursor
 * to the margin, as xterm does).
 */
#define G_PLAIN_HIGH \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define G_PLAIN_TEXT \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, \
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1
static const unsigned char g_plain_lr[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1,
	G_PLAIN_TEXT, G_PLAIN_HIGH,
};
static const unsigned char g_plain[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1,
	G_PLAIN_TEXT, G_PLAIN_HIGH,
};

/*
 * What the guard does with a CSI without leader or intermediate, by its
 * final byte: K_PLAIN passes it in a run of text; K_GUARD always takes it
 * byte by byte (REP, modes, margins, tab clears, queries); K_MOVE is a cursor
 * movement that clears libvterm's pending wrap even where the cursor does
 * not move (seg_move); K_MARGIN is one too, which libvterm 0.1.4 gets
 * wrong under a scroll region or left/right margins (xterm_move).
 */
enum { K_PLAIN, K_GUARD, K_MOVE, K_MARGIN };
static const unsigned char csi_kind[128] = {
	['A'] = K_MARGIN, ['B'] = K_MARGIN, ['C'] = K_MARGIN,
	['D'] = K_MARGIN, ['E'] = K_MARGIN, ['F'] = K_MARGIN,
	['G'] = K_MARGIN, ['`'] = K_MARGIN,
	['H'] = K_MOVE, ['a'] = K_MOVE, ['d'] = K_MOVE, ['e'] = K_MOVE,
	['f'] = K_MOVE, ['j'] = K_MOVE, ['k'] = K_MOVE,
	['b'] = K_GUARD, ['g'] = K_GUARD, ['h'] = K_GUARD, ['l'] = K_GUARD,
	['n'] = K_GUARD, ['r'] = K_GUARD, ['s'] = K_GUARD, ['t'] = K_GUARD,
};

static void
title_set(struct lz_pane *p, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, n, k, need;
	uint32_t cp;
	unsigned char enc[4];

	while (i < len) {
		cp = u[i];
		n = 1;
		need = cp >= 0xc2 && cp < 0xe0 ? 1 : cp >= 0xe0 && cp < 0xf0 ?
		    2 : cp >= 0xf0 && cp < 0xf5 ? 3 : 0;
		if (cp >= 0x80 && need == 0)
			cp = 0xfffd;
		else if (need > 0) {
			cp &= need == 1 ? 0x1f : need == 2 ? 0x0f : 0x07;
			for (k = 1; k <= need && i + k < len &&
			    (u[i + k] & 0xc0) == 0x80; k++)
				cp = cp << 6 | (u[i + k] & 0x3f);
			if (k <= need || (need == 2 && cp < 0x800) ||
			    (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
			    (cp >= 0xd800 && cp <= 0xdfff))
				cp = 0xfffd;
			else
				n = need + 1;
		}
		i += n;
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			continue;
		k = lz_utf8_put(enc, cp);
		if (o + k > LZ_PANE_TITLE_MAX)
			break;
		memcpy(p->title + o, enc, k);
		o += k;
	}
	p->title[o] = '\0';
	lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
}

static int
dcs_known(const char *s, size_t len)
{
	static const char *const known[] = { "$qm", "$qr", "$qs", "$q q",
	    "$q\"q" };
	size_t k;

	for (k = 0; k < sizeof known / sizeof *known; k++) {
		if (len == strlen(known[k]) && memcmp(s, known[k], len) == 0)
			return 1;
	}
	return 0;
}

/* Hidden mode on or off (lz_pane_restore only). */
static void
set_hidden(struct lz_pane *p, int on)
{
	struct lz_pen pen = p->pen;

	if (on == p->hidden)
		return;
	p->hidden = on;
	/* Setting callbacks calls their initpen: keep the pen. */
	vterm_state_set_callbacks(p->vts, on ? &hidden_callbacks :
	    &pane_callbacks, p);
	p->pen = pen;
}

/* The last glyph as a snapshot gives it (LZ_PANE_PRIVATE_GLYPH). */
static int
private_glyph(struct lz_pane *p, const char *s, size_t len)
{
	struct g_glyph g;
	long v[3 + G_GLYPH_CHARS];
	size_t i = 0;
	int n = 0, neg, base;

	while (i < len && n < 3 + G_GLYPH_CHARS) {
		if (s[i++] != ';')
			return -1;
		neg = i < len && s[i] == '-' && n == 2;
		i += (size_t)neg;
		base = n < 3 ? 10 : 16;
		if (i >= len || !(base == 10 ? s[i] >= '0' && s[i] <= '9' :
		    (s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return -1;
		for (v[n] = 0; i < len && s[i] != ';' && v[n] < 0x110000; i++) {
			if (s[i] >= '0' && s[i] <= '9')
				v[n] = v[n] * base + (s[i] - '0');
			else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
				v[n] = v[n] * base + (s[i] - 'a' + 10);
			else
				return -1;
		}
		if (neg)
			v[n] = -v[n];
		n++;
	}
	if (i != len || n < 3 || v[0] >= LZ_PANE_MAX_ROWS ||
	    v[1] >= LZ_PANE_MAX_COLS || v[2] < -1 || v[2] > 2)
		return -1;
	memset(&g, 0, sizeof g);
	g.row = (int)v[0];
	g.col = (int)v[1];
	g.width = (int16_t)v[2];
	for (g.nch = 0; g.nch < n - 3; g.nch++) {
		if (v[3 + g.nch] == 0 || v[3 + g.nch] > 0x10ffff)
			return -1;
		g.ch[g.nch] = (uint32_t)v[3 + g.nch];
	}
	p->t.lg = g;
	return 0;
}

/* A soft-wrapped row as a snapshot gives it (LZ_PANE_PRIVATE_WRAP). */
static int
private_wrap(struct lz_pane *p, const char *s, size_t len)
{
	size_t i = 1;
	long v = 0;
	int neg;

	if (len < 2 || len > 10 || s[0] != ';')
		return -1;
	neg = s[1] == '-';
	for (i += (size_t)neg; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (i == 1 + (size_t)neg)
		return -1;
	if (neg) {
		if (v < 1 || (size_t)v > lz_sb_lines(&p->sb))
			return -1;
		lz_sb_set_wrapped(&p->sb, (size_t)v - 1);
		return 0;
	}
	if (v >= p->rows)
		return -1;
	cur(p)->wrap[v] = 1;
	return 0;
}

/* What tells a wrap from a line feed (LZ_PANE_PRIVATE_SINCE). */
static int
private_since(struct lz_pane *p, const char *s, size_t len)
{
	unsigned long v = 0;
	size_t i;

	if (len < 2 || len > 5 || s[0] != ';')
		return -1;
	for (i = 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if ((v & ~(G_SINCE_MOVED | G_SINCE_SCROLLS)) != 0)
		return -1;
	p->t.lg.since = (uint32_t)v;
	return 0;
}

static int
private_is(const struct lz_pane *p, const char *what)
{
	size_t n = strlen(what);

	return p->str_len >= n && memcmp(p->str, what, n) == 0 &&
	    (p->str_len == n || p->str[n] == ';');
}

/* An APC; in a restore, the snapshot's private strings. */
static void
private_string(struct lz_pane *p)
{
	if (p->restoring) {
		if (private_is(p, LZ_PANE_PRIVATE_HIDE) &&
		    p->str_len == strlen(LZ_PANE_PRIVATE_HIDE)) {
			set_hidden(p, 1);
			return;
		}
		if (private_is(p, LZ_PANE_PRIVATE_SHOW) &&
		    p->str_len == strlen(LZ_PANE_PRIVATE_SHOW)) {
			set_hidden(p, 0);
			return;
		}
		if (private_is(p, LZ_PANE_PRIVATE_GLYPH) &&
		    private_glyph(p, p->str + strlen(LZ_PANE_PRIVATE_GLYPH),
		    p->str_len - strlen(LZ_PANE_PRIVATE_GLYPH)) == 0)
			return;
		if (private_is(p, LZ_PANE_PRIVATE_WRAP) &&
		    private_wrap(p, p->str + strlen(LZ_PANE_PRIVATE_WRAP),
		    p->str_len - strlen(LZ_PANE_PRIVATE_WRAP)) == 0)
			return;
		if (private_is(p, LZ_PANE_PRIVATE_SINCE) &&
		    private_since(p, p->str + strlen(LZ_PANE_PRIVATE_SINCE),
		    p->str_len - strlen(LZ_PANE_PRIVATE_SINCE)) == 0)
			return;
	}
	p->props.dropped_strings++;
}

/* A string ended (ST, or BEL if bel) at byte i, which is left out. */
static void
string_done(struct lz_pane *p, size_t i, int bel)
{
	char dcs[LZ_PANE_STRING_MAX + 4];

	skip_byte(p, i);
	p->gs = G_GROUND;
	if (p->str_long) {
		p->props.dropped_strings++;
		return;
	}
	switch (p->str_kind) {
	case G_STR_OSC:
		if (p->str_len >= 2 && (p->str[0] == '0' || p->str[0] == '2') &&
		    p->str[1] == ';')
			title_set(p, p->str + 2, p->str_len - 2);
		else if (p->str_len >= 2 && p->str[0] == '8' &&
		    p->str[1] == ';')
			lz_pane_osc_link(p, p->str + 2, p->str_len - 2);
		else if (!lz_pane_osc_color(p, p->str, p->str_len, bel))
			p->props.dropped_osc++;
		break;
	case G_STR_DCS:
		/*
		 * Only the DECRQSS queries libvterm 0.1.4 answers correctly:
		 * its answer to any other ("0$r", format "%.s" given an int)
		 * reads a bad pointer. Whole, in one write: libvterm then never
		 * splits it.
		 */
		if (!dcs_known(p->str, p->str_len)) {
			p->props.dropped_strings++;
			break;
		}
		dcs[0] = '\033';
		dcs[1] = 'P';
		memcpy(dcs + 2, p->str, p->str_len);
		dcs[p->str_len + 2] = '\033';
		dcs[p->str_len + 3] = '\\';
		vt_write(p, dcs, p->str_len + 4);
		break;
	case G_STR_IGNORE:
		private_string(p);
		break;
	}
}

static void
string_drop(struct lz_pane *p)
{
	p->props.dropped_strings++;
	p->gs = G_GROUND;
}

/* Drops the partial UTF-8 character (never written to libvterm). */
static void
u8_drop_partial(struct lz_pane *p, size_t i)
{
	if (p->u8nheld == 0)
		flush_to(p, p->u8start);
	p->fseg = i;
	p->u8nheld = 0;
	p->u8need = 0;
}

/*
 * A combining mark cp ends at byte i. libvterm joins a mark to its last
 * glyph when the cursor stands right after it, and rescans and regrows
 * every mark of the run on each write: the guard does the joining
 * itself, with the same result, and libvterm never sees such a mark. The
 * glyph is put again with the current pen, as libvterm does. Returns 0
 * when the mark is not joined (libvterm makes it a glyph of its own).
 */
static int
u8_mark(struct lz_pane *p, size_t i, uint32_t cp)
{
	struct g_glyph *g = &p->t.lg;

	/* A single shift decodes through its set, not as UTF-8. */
	if (p->t.ss != 0 && p->t.gset[p->t.ss] != 'u')
		return 0;
	if (p->u8nheld == 0)
		flush_to(p, p->u8start);
	if (!lz_pane_joins(p))
		return 0;
	/* libvterm never sees it: a pending single shift stays pending. */
	p->fseg = i + 1;
	p->u8nheld = 0;
	if (g->nch < G_GLYPH_CHARS)
		g->ch[g->nch++] = cp;
	if (!p->hidden)
		lz_pane_put_chars(p, g->ch, g->nch, g->width, g->row, g->col,
		    p->t.protect);
	return 1;
}

int
lz_pane_joins(const struct lz_pane *p)
{
	const struct g_glyph *g = &p->t.lg;

	if (p->t.vrow != g->row)
		return 0;
	if (p->t.vcol == g->col + g->width)
		return 1;
	/*
	 * libvterm's own test misses a glyph with a pending wrap (the cursor
	 * stands on it, not after it): it would wrap and show the mark alone
	 * on the next line. The mark belongs to that glyph; so it does with
	 * autowrap off, where the cursor stays on the row's last column.
	 */
	if (lz_pane_wrap(p) && p->t.vcol == g->col)
		return 1;
	return !p->t.autowrap && g->width > 0 &&
	    p->t.vcol == g->col + g->width - 1 &&
	    g->col + g->width == lz_pane_row_width(p, g->row);
}

int
lz_pane_nowrap_edge(const struct lz_pane *p, int w)
{
	int width;

	/* A wrap pending from before autowrap went off wraps (libvterm). */
	if (p->t.autowrap || lz_pane_wrap(p))
		return 0;
	width = lz_pane_row_width(p, p->t.vrow);
	if (p->t.vcol + w > width)
		return 1;
	return w == 2 && p->t.vcol + w == width ? 2 : 0;
}

/*
 * Whether a wide character would land on a row narrower than itself (a
 * pane of one column, or a double-width line of one column): libvterm
 * would wrap, put it, and leave a pending wrap on a glyph no snapshot can
 * put back; tmux drops such a character, and so does the guard.
 */
static int
too_wide(struct lz_pane *p)
{
	int row = p->t.vrow, bottom = p->t.bottom > -1 ? p->t.bottom : p->rows;

	if (lz_pane_wrap(p) || p->t.vcol + 2 > lz_pane_row_width(p, row)) {
		if (row != bottom - 1 && row < p->rows - 1)
			row++;
	}
	return lz_pane_row_width(p, row) < 2;
}

/*
 * Insert mode, a wide character next that fits on the cursor's row:
 * libvterm 0.1.4 would shift the row by one column (on_text's scroll),
 * over a character; xterm and tmux shift it by two. Room for two is made
 * with ICH and insert mode is off in libvterm until the character is
 * written (the caller turns it on again). Where it wraps, libvterm's own
 * shift of the next row stays (tmux 3.3a overwrites two cells there
 * instead). Not under left and right margins.
 */
static int
room_for_wide(struct lz_pane *p)
{
	if (!p->t.insert || p->t.lrmm || lz_pane_wrap(p) ||
	    p->t.vcol + 2 > lz_pane_row_width(p, p->t.vrow))
		return 0;
	vwrites(p, "\033[4l\033[2@");
	return 1;
}

/*
 * Writes libvterm the glyph ch[0..n), w columns in the pane, libvterm up
 * to date: through vwrite_glyph (stand-ins), and where libvterm 0.1.4
 * differs from xterm and tmux for a wide glyph, as they have it: autowrap
 * off, dropped when it does not fit and the cursor on its second column
 * when it ends the row (lz_pane_nowrap_edge); insert mode, room for both
 * its columns (room_for_wide). Returns 0 when it was dropped.
 */
static int
vwrite_text(struct lz_pane *p, const uint32_t *ch, int n, int w)
{
	int edge = lz_pane_nowrap_edge(p, w), room;

	if (edge == 1)
		return 0;
	room = w == 2 && room_for_wide(p);
	vwrite_glyph(p, ch, n);
	if (edge == 2)
		vwrites(p, "\033[C");
	if (room)
		vwrites(p, "\033[4h");
	return 1;
}

/* A whole character cp ends at byte i: pass it, or cut it. */
static void
u8_done(struct lz_pane *p, size_t i, uint32_t cp)
{
	int drop = 0, w;

	switch (p->u8total) {
	case 2:
		if (cp < 0x80)
			cp = 0xfffd;
		break;
	case 3:
		if (cp < 0x800)
			cp = 0xfffd;
		break;
	case 4:
		if (cp < 0x10000)
			cp = 0xfffd;
		break;
	default:
		break;
	}
	w = lz_vtchar_width(cp);
	if (cp >= 0x80 && cp < 0xa0)
		drop = 1;		/* C1 control: libvterm's width is -1 */
	else if (w == 0 && u8_mark(p, i, cp)) {
		p->u8need = 0;
		return;
	} else if (p->cols < 4 && w == 2) {
		if (p->u8nheld == 0)
			flush_to(p, p->u8start);
		drop = too_wide(p);
	}
	if (drop || lz_vtchar_differs(cp) || (w == 2 && (!p->t.autowrap ||
	    p->t.insert))) {
		/* Written by vwrite_text, or cut. */
		if (p->u8nheld == 0)
			flush_to(p, p->u8start);
		p->fseg = i + 1;
		if (!drop && vwrite_text(p, &cp, 1, w)) {
			p->seg_move = 0;
			p->t.ss = 0;
		}
	} else {
		if (p->u8nheld > 0) {
			/* Its first bytes came in an earlier feed: first. */
			lz_pane_vwrite(p, (const char *)p->u8held,
			    (size_t)p->u8nheld);
		}
		p->seg_move = 0;
		p->t.ss = 0;
	}
	p->u8nheld = 0;
	p->u8need = 0;
}

static void
ground_byte(struct lz_pane *p, size_t i, unsigned char c)
{
	if (c >= 0x80 && p->u8need == 0 && p->t.ss != 0 &&
	    p->t.gset[p->t.ss] != 'u') {
		/*
		 * A single shift decodes the next byte through its set, not
		 * as UTF-8: 0xa0-0xfe as 0x20-0x7e, one glyph; 0x80-0x9f and
		 * 0xff decode to nothing, and libvterm skips them with the
		 * shift still pending.
		 */
		if (c >= 0xa0 && c != 0xff) {
			p->seg_move = 0;
			p->t.ss = 0;
		}
		return;
	}
	if (c >= 0x80 && c < 0xc0) {
		if (p->u8need == 0) {
			p->seg_move = 0;	/* libvterm shows U+FFFD */
			p->t.ss = 0;
			return;
		}
		p->u8cp = p->u8cp << 6 | (c & 0x3f);
		if (--p->u8need == 0)
			u8_done(p, i, p->u8cp);
		return;
	}
	if (p->u8need > 0)
		u8_drop_partial(p, i);
	if (c < 0x80) {
		p->seg_move = 0;
		p->t.ss = 0;
		return;
	}
	p->u8start = i;
	p->u8nheld = 0;
	if (c < 0xe0) {
		p->u8need = 1;
		p->u8cp = c & 0x1f;
	} else if (c < 0xf0) {
		p->u8need = 2;
		p->u8cp = c & 0x0f;
	} else if (c < 0xf8) {
		p->u8need = 3;
		p->u8cp = c & 0x07;
	} else if (c < 0xfc) {
		p->u8need = 4;
		p->u8cp = c & 0x03;
	} else if (c < 0xfe) {
		p->u8need = 5;
		p->u8cp = c & 0x01;
	} else {
		p->seg_move = 0;
		p->t.ss = 0;
		return;
	}
	p->u8total = p->u8need + 1;
}

/* libvterm's cursor after everything before byte i. */
static void
cursor_at(struct lz_pane *p, size_t i)
{
	flush_to(p, i);
}

/* Records libvterm's save slot as it is about to be written. */
static void
save_slot(struct lz_pane *p)
{
	VTermPos pos;

	vt_cursor(p, &pos);
	p->t.saved.valid = 1;
	p->t.saved.row = pos.row;
	p->t.saved.col = pos.col;
	p->t.saved.pen = p->pen;
	p->t.saved.visible = p->props.cursor_visible;
	p->t.saved.blink = p->props.cursor_blink;
	p->t.saved.shape = p->props.cursor_shape;
}

/*
 * One DEC private mode m, set or reset, written to libvterm on its own
 * (0.1.4 acts on the first mode of a DECSET only), with what the pane
 * records of it.
 */
static void
dec_mode(struct lz_pane *p, long m, int set)
{
	char seq[24];
	int n;

	if (set && (m == 1048 || m == 1049))
		save_slot(p);
	n = snprintf(seq, sizeof seq, "\033[?%ld%c", m, set ? 'h' : 'l');
	vt_write(p, seq, (size_t)n);
	switch (m) {
	case 1:
		p->props.app_cursor = set;
		break;
	case 6:
		p->t.origin = set;
		break;
	case 7:
		p->t.autowrap = set;
		track_modes(p);
		break;
	case 66:
		p->props.app_keypad = set;
		break;
	case 69:
		p->t.lrmm = set;
		track_modes(p);
		break;
	case 9:
	case 1000:
	case 1002:
	case 1003:
		p->props.mouse = set ? (int)m : LZ_MOUSE_NONE;
		break;
	case 1004:
		p->props.focus_events = set;
		break;
	case 1005:
	case 1006:
	case 1015:
		p->props.mouse_enc = set ? (int)m : LZ_MOUSE_ENC_X10;
		break;
	case 2004:
		p->props.bracketed_paste = set;
		break;
	case 2026:
		p->props.sync = set;
		break;
	default:
		return;
	}
	lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
}

/*
 * DECSET/DECRST ending at byte i: taken back, and each mode written on
 * its own (0.1.4 acts on the first only: CSI ? 12 ; 25 h would leave the
 * cursor hidden), in order, so that what the pane records of each follows
 * libvterm. ?1048l and ?1049l restore the cursor: it is clamped after.
 */
static void
dec_modes(struct lz_pane *p, size_t i, int set)
{
	int k;

	cancel_at(p, i);
	for (k = 0; k <= p->csi_argi && k <= G_CSI_SEP_MAX; k++) {
		if (p->csi_args[k] < 0)
			continue;
		dec_mode(p, p->csi_args[k], set);
	}
	clamp_cursor(p);
}

/* SM/RM (CSI 4 h, CSI 20 l): every mode, as dec_modes. */
static void
ansi_modes(struct lz_pane *p, size_t i, int set)
{
	char seq[24];
	long m;
	int k, n;

	cancel_at(p, i);
	for (k = 0; k <= p->csi_argi && k <= G_CSI_SEP_MAX; k++) {
		m = p->csi_args[k];
		if (m < 0)
			continue;
		n = snprintf(seq, sizeof seq, "\033[%ld%c", m, set ? 'h' : 'l');
		vt_write(p, seq, (size_t)n);
		if (m == 4)
			p->t.insert = set;
		else if (m == 20)
			p->t.newline = set;
	}
}

/* DECSTBM ending at byte i, as libvterm 0.1.4 stores it. */
static void
set_tb_margins(struct lz_pane *p, size_t i)
{
	long top = lz_pane_csi_arg(p, 0, 1) - 1, bottom;

	flush_to(p, i + 1);
	bottom = p->csi_argi < 1 || p->csi_args[1] < 0 ? -1 : p->csi_args[1];
	if (top < 0)
		top = 0;
	if (top > p->rows)
		top = p->rows;
	if (bottom < -1)
		bottom = -1;
	if (top == 0 && bottom == p->rows)
		bottom = -1;
	else if (bottom > p->rows)
		bottom = p->rows;
	if ((bottom > -1 ? bottom : p->rows) <= top) {
		top = 0;
		bottom = -1;
	}
	p->t.top = (int)top;
	p->t.bottom = (int)bottom;
	track_modes(p);
}

/* DECSLRM ending at byte i (always stored, in effect under ?69). */
static void
set_lr_margins(struct lz_pane *p, size_t i)
{
	long left = lz_pane_csi_arg(p, 0, 1) - 1, right;

	flush_to(p, i + 1);
	right = p->csi_argi < 1 || p->csi_args[1] < 0 ? -1 : p->csi_args[1];
	if (left < 0)
		left = 0;
	if (left > p->cols)
		left = p->cols;
	if (right < -1)
		right = -1;
	if (left == 0 && right == p->cols)
		right = -1;
	else if (right > p->cols)
		right = p->cols;
	if (right > -1 && right <= left) {
		left = 0;
		right = -1;
	}
	p->t.left = (int)left;
	p->t.right = (int)right;
	track_modes(p);
}

/* TBC ending at byte i. */
static void
clear_tabs(struct lz_pane *p, size_t i)
{
	long v = lz_pane_csi_arg(p, 0, 0);
	int col;

	cursor_at(p, i);
	if (v == 0) {
		col = p->t.vcol;
		if (col >= 0 && col < LZ_PANE_MAX_COLS)
			p->t.tabs[col >> 3] &= (uint8_t)~(1u << (col & 7));
	} else if (v == 3 || v == 5)
		memset(p->t.tabs, 0, sizeof p->t.tabs);
}

int
lz_pane_tab_at(const struct lz_pane *p, int col)
{
	if (col < 0 || col >= LZ_PANE_MAX_COLS)
		return 0;
	return (p->t.tabs[col >> 3] >> (col & 7)) & 1;
}

/*
 * REP ending at byte i: libvterm 0.1.4 repeats its last glyph by stepping
 * its width without wrapping (and loops forever when that is 0). xterm
 * prints the character again, Ps times, and tmux caps Ps at the columns
 * left: so does the guard, writing the glyph as text. A glyph of width 0
 * (none yet, or lone marks) is not repeated.
 */
static void
rep(struct lz_pane *p, size_t i)
{
	const struct g_glyph *g = &p->t.lg;
	struct g_glyph lg;
	long n = lz_pane_csi_arg(p, 0, 1);

	cancel_at(p, i);
	if (g->width <= 0 || g->nch == 0 || (g->width > 1 && too_wide(p))) {
		p->props.cancelled_csi++;
		return;
	}
	if (n < 1)
		n = 1;
	if (n > p->cols - p->t.vcol)
		n = p->cols - p->t.vcol > 1 ? p->cols - p->t.vcol : 1;
	lg = *g;
	for (; n > 0; n--)
		if (!vwrite_text(p, lg.ch, lg.nch, lg.width))
			break;
	p->t.ss = 0;
}

/*
 * DECSTR ending at byte i. libvterm 0.1.4 never recognises it (its
 * on_csi looks for '!' as a leader; fixed upstream in 0.3.2, LP2029441):
 * the guard does what xterm's soft reset does, with sequences libvterm
 * knows. The cursor is shown as a blinking block, margins and their mode,
 * origin mode, the pen, the character sets, cursor keys, keypad, DECSCA,
 * insert mode reset, autowrap set, and the save slot is the cursor at
 * home with all that. The cursor stays, and a pending wrap with it (the
 * last glyph written again, hidden). Tab stops, newline mode, mouse,
 * focus, bracketed paste and the screen stay, as in xterm.
 */
static void
decstr(struct lz_pane *p, size_t i)
{
	const struct g_glyph *g = &p->t.lg;
	struct lz_buf b = LZ_BUF_INIT;
	struct g_glyph lg;
	int phantom, k;
	VTermPos pos;

	/* Text before it in this feed reaches libvterm here. */
	cancel_at(p, i);
	phantom = lz_pane_wrap(p);
	vt_cursor(p, &pos);
	vwrites(p, "\033[?25h\033[0 q\033[r\033[s\033[?69l\033[?6l\033[m"
	    "\033(B\033)B\033*B\033+B\017\033~\033[?1l\033>\033[0\"q"
	    "\033[?7h\033[4l\033[H");
	save_slot(p);
	lz_buf_addf(&b, "\0337\033[%d;%dH", pos.row + 1, pos.col + 1);
	lz_pane_vwrite(p, b.buf, b.len);
	p->t.top = 0;
	p->t.bottom = -1;
	p->t.left = 0;
	p->t.right = -1;
	p->t.lrmm = 0;
	p->t.origin = 0;
	p->t.insert = 0;
	p->t.autowrap = 1;
	p->t.protect = 0;
	for (k = 0; k < 4; k++)
		p->t.gset[k] = 'B';
	p->t.gl = 0;
	p->t.gr = 1;
	p->props.app_cursor = 0;
	p->props.app_keypad = 0;
	lz_pane_colors_reset(p, 0);
	lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
	p->t.lg.wrap = 0;
	track_modes(p);
	if (phantom && g->row == pos.row && g->col == pos.col) {
		set_hidden(p, 1);
		lg = *g;
		vwrite_glyph(p, lg.ch, lg.nch);
		if (p->t.ss != 0)
			vwrites(p, p->t.ss == 2 ? "\033N" : "\033O");
		set_hidden(p, 0);
	}
	lz_buf_release(&b);
}

/* Moves libvterm's cursor to (row, col) with CUP: no pending wrap after. */
static void
move_to(struct lz_pane *p, int row, int col)
{
	char cup[32];
	int n;

	if (p->t.origin) {
		row -= p->t.top;
		if (p->t.lrmm)
			col -= p->t.left;
	}
	n = snprintf(cup, sizeof cup, "\033[%d;%dH", row + 1, col + 1);
	vt_write(p, cup, (size_t)n);
	p->t.lg.wrap = 0;
}

/* xterm's CarriageReturn: the left margin, unless left of it. */
static int
cr_col(const struct lz_pane *p, int col)
{
	int left = p->t.lrmm ? p->t.left : 0;

	return p->t.origin || col >= left ? left : 0;
}

/*
 * CUU, CUD, CUF, CUB, CNL, CPL, CHA and HPA ending at byte i (final c)
 * under a scroll region or left/right margins, as xterm's cursor.c does
 * them: a move that starts inside the margins stops at them (libvterm
 * 0.1.4 stops at the screen's edge, and CUF/CUB ignore the left/right
 * margins), CNL and CPL return to the left margin as CR does, and CHA
 * and HPA count from the left margin in origin mode (libvterm counts from
 * column 1 and clamps). Written to libvterm as a CUP.
 */
static void
xterm_move(struct lz_pane *p, size_t i, unsigned char c)
{
	long n = lz_pane_csi_arg(p, 0, 1);
	int row, col, top = p->t.top;
	int bot = (p->t.bottom > -1 ? p->t.bottom : p->rows) - 1;
	int left = p->t.lrmm ? p->t.left : 0;
	int right = (p->t.lrmm && p->t.right > -1 ? p->t.right : p->cols) - 1;
	int lim;

	cancel_at(p, i);
	row = p->t.vrow;
	col = p->t.vcol;
	if (n < 1 && c != 'G' && c != '`')
		n = 1;
	if (n > 9999)
		n = 9999;
	switch (c) {
	case 'A':
	case 'F':
		lim = row < top ? 0 : top;
		row = row - n < lim ? lim : row - (int)n;
		if (c == 'F')
			col = cr_col(p, col);
		break;
	case 'B':
	case 'E':
		lim = row > bot ? p->rows - 1 : bot;
		row = row + n > lim ? lim : row + (int)n;
		if (c == 'E')
			col = cr_col(p, col);
		break;
	case 'C':
		lim = p->t.lrmm && col <= right ? right :
		    lz_pane_row_width(p, row) - 1;
		col = col + n > lim ? lim : col + (int)n;
		break;
	case 'D':
		lim = col < left ? 0 : left;
		col = col - n < lim ? lim : col - (int)n;
		break;
	default:	/* 'G', '`' */
		if (n < 1)
			n = 1;
		col = (int)n - 1 + (p->t.origin ? left : 0);
		lim = p->t.origin ? right : p->cols - 1;
		if (col > lim)
			col = lim;
		break;
	}
	move_to(p, row, col);
}

/*
 * Whether libvterm 0.1.4 reads past the arguments of the SGR whose
 * parameter bytes (digits, ';' and ':') are s[0..len): its walk
 * (vterm_state_setpen, pen.c) takes a 38 or 48 with the palette after it
 * and that palette's values (lookup_colour: three for 2, one for 5, as
 * many as are left), then skips the sub-parameters (':') of what it
 * took; a 38 or 48 the walk reaches as the last argument is read with
 * its palette and index from past the end, what an earlier CSI left in
 * the parser ("ESC [ 1;5;44 H ESC [ 48 m" gave background 44). xterm
 * ignores such a colour. A 38 or 48 that is another's value (the blue
 * of "48;2;1;2;48") or sub-parameter is not one.
 */
static int
sgr_reads_past(const char *s, size_t len)
{
	long v[G_CSI_SEP_MAX + 1];
	int more[G_CSI_SEP_MAX + 1];
	size_t k;
	int n = 0, argi = 0, pal, avail, m;

	v[0] = -1;
	more[0] = 0;
	for (k = 0; k < len; k++) {
		if (s[k] >= '0' && s[k] <= '9') {
			v[n] = (v[n] < 0 ? 0 : v[n] * 10) + (s[k] - '0');
			continue;
		}
		if ((s[k] != ';' && s[k] != ':') || n == G_CSI_SEP_MAX)
			return 0;	/* not an SGR the guard passes on */
		more[n++] = s[k] == ':';
		v[n] = -1;
		more[n] = 0;
	}
	n++;
	while (argi < n) {
		if (v[argi] == 38 || v[argi] == 48) {
			if (argi + 1 == n)
				return 1;
			pal = (int)v[argi + 1];
			avail = n - argi - 2;
			argi += 1 + (pal == 2 ? (avail < 3 ? avail : 3) :
			    pal == 5 ? (avail > 0) : 0);
		}
		do
			m = more[argi++];
		while (m && argi < n);
	}
	return 0;
}

/*
 * The SGR the guard holds makes libvterm read past its arguments
 * (sgr_reads_past: its last argument is a bare 38 or 48): it is taken
 * back from libvterm and given again without that argument, so the
 * arguments before it take effect and nothing else does.
 */
static void
sgr_tail(struct lz_pane *p, size_t i)
{
	struct lz_buf b = LZ_BUF_INIT;
	size_t cut = p->csi_rawlen;

	if (!sgr_reads_past(p->csi_raw, p->csi_rawlen))
		return;
	while (cut > 0 && p->csi_raw[cut - 1] != ';' &&
	    p->csi_raw[cut - 1] != ':')
		cut--;
	cancel_at(p, i);
	if (cut == 0)
		return;		/* ESC [ 38 m: nothing */
	lz_buf_adds(&b, "\033[");
	lz_buf_add(&b, p->csi_raw, cut - 1);
	lz_buf_adds(&b, "m");
	lz_pane_vwrite(p, b.buf, b.len);
	lz_buf_release(&b);
}

/* The final byte of a CSI is byte i. */
static void
csi_final(struct lz_pane *p, size_t i, unsigned char c)
{
	p->gs = G_GROUND;
	if (lz_pane_query_csi(p, c)) {
		cancel_at(p, i);
		lz_pane_answer_csi(p, c);
		return;
	}
	if (c == 't' && p->csi_nleader == 0 && p->csi_ninter == 0) {
		cancel_at(p, i);	/* other window operations */
		return;
	}
	if (p->csi_nleader == 0 && p->csi_ninter == 0) {
		switch (c) {
		case 'b':
			rep(p, i);
			return;
		case 'm':
			sgr_tail(p, i);
			return;
		case 'h':
		case 'l':
			ansi_modes(p, i, c == 'h');
			return;
		case 'r':
			set_tb_margins(p, i);
			return;
		case 's':
			set_lr_margins(p, i);
			return;
		case 'g':
			clear_tabs(p, i);
			return;
		default:
			break;
		}
		if (c < 128 && csi_kind[c] == K_MARGIN && p->t.margined) {
			xterm_move(p, i, c);
			return;
		}
		if (c < 128 && (csi_kind[c] == K_MOVE ||
		    csi_kind[c] == K_MARGIN)) {
			flush_to(p, i + 1);
			p->t.lg.wrap = 0;
		}
		return;
	}
	if (p->csi_leader == '?' && p->csi_nleader == 1 &&
	    p->csi_ninter == 0 && (c == 'h' || c == 'l')) {
		dec_modes(p, i, c == 'h');
		return;
	}
	if (p->csi_nleader == 0 && p->csi_ninter == 1) {
		if (p->csi_inter == '!' && c == 'p')
			decstr(p, i);
		else if (p->csi_inter == '"' && c == 'q') {
			/* DECSCA */
			long v = lz_pane_csi_arg(p, 0, 0);

			if (v == 0 || v == 2)
				p->t.protect = 0;
			else if (v == 1)
				p->t.protect = 1;
		}
	}
}

static void
string_start(struct lz_pane *p, size_t i, enum g_string kind)
{
	cancel_at(p, i);	/* libvterm saw the ESC: take it back */
	p->gs = G_STRING;
	p->str_kind = kind;
	p->str_len = 0;
	p->str_long = 0;
}

/*
 * DECALN (ESC # 8) at byte i, as xterm does it: origin mode off, margins
 * reset, the pen reset, single-width lines, the screen filled with
 * unprotected E, the cursor home. libvterm 0.1.4 only fills (with the
 * current pen and protection) and leaves the cursor where it was.
 */
static void
decaln(struct lz_pane *p, size_t i)
{
	cancel_at(p, i);
	vwrites(p, "\033[?6l\033[r\033[s\033[m\033[0\"q\033[?69h");
	if (!p->t.lrmm)
		vwrites(p, "\033[?69l");
	p->t.origin = 0;
	p->t.top = 0;
	p->t.bottom = -1;
	p->t.left = 0;
	p->t.right = -1;
	p->decaln = 1;
	track_modes(p);
	vwrites(p, "\033#8");
	p->decaln = 0;
	if (p->t.protect)
		vwrites(p, "\033[1\"q");
	vwrites(p, "\033[H");
	p->t.lg.wrap = 0;
	track_modes(p);
}

/* ESC and one final byte c at i, with esc_ninter intermediates before. */
static void
esc_final(struct lz_pane *p, size_t i, unsigned char c)
{
	int col;

	if (p->esc_ninter == 1) {
		switch (p->esc_inter[0]) {
		case '#':
			if (c == '8')
				decaln(p, i);
			else if (p->cols < 2 && (c == '3' || c == '4' ||
			    c == '6'))
				cancel_at(p, i);	/* a line of width 0 */
			else if (c >= '3' && c <= '6') {
				/*
				 * A line size: a move before it cleared the
				 * pending wrap (seg_move) before text after
				 * it, which a narrower line wraps, reads it
				 * (soft_wrap); the text would clear the mark.
				 */
				flush_to(p, i);
			}
			break;
		case '(':
		case ')':
		case '*':
		case '+':
			if (c == '0' || c == 'A' || c == 'B')
				p->t.gset[p->esc_inter[0] - '('] = (char)c;
			break;
		case ' ':
			if (c == 'F' || c == 'G')
				p->t.s8c1t = c == 'G';
			break;
		default:
			break;
		}
		return;
	}
	if (p->esc_ninter != 0)
		return;
	switch (c) {
	case 'c':
		/*
		 * RIS: libvterm resets but keeps the alternate screen and the
		 * save slot; xterm leaves both, saving the cursor at home.
		 */
		flush_to(p, i);
		switch_screen(p, 0);
		guard_reset_modes(p);
		track_reset(p);
		lz_pane_colors_reset(p, 1);
		lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
		sync_after(p, i);
		save_slot(p);
		vwrites(p, "\0337");
		break;
	case '7':
		cursor_at(p, i);	/* DECSC */
		save_slot(p);
		break;
	case '8':
		sync_after(p, i);	/* DECRC */
		break;
	case '=':
	case '>':
		p->props.app_keypad = c == '=';
		lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
		break;
	case 'H':
		cursor_at(p, i);	/* HTS */
		col = p->t.vcol;
		if (col >= 0 && col < LZ_PANE_MAX_COLS)
			p->t.tabs[col >> 3] |= (uint8_t)(1u << (col & 7));
		break;
	case 'E':
		/* NEL: a line feed and xterm's CR under a left margin. */
		if (p->t.lrmm && p->t.left > 0) {
			cursor_at(p, i);
			col = p->t.vcol;
			flush_to(p, i + 1);
			move_to(p, p->t.vrow, cr_col(p, col));
		}
		break;
	case 'N':
	case 'O':
		p->t.ss = c == 'N' ? 2 : 3;
		break;
	case 'n':
	case 'o':
		p->t.gl = c == 'n' ? 2 : 3;
		break;
	case '~':
	case '}':
	case '|':
		p->t.gr = c == '~' ? 1 : c == '}' ? 2 : 3;
		break;
	default:
		break;
	}
}

/* A byte after ESC: libvterm starts CSI, OSC and DCS whatever came between. */
static void
esc_byte(struct lz_pane *p, size_t i, unsigned char c)
{
	switch (c) {
	case '[':
		p->gs = G_CSI_LEADER;
		p->csi_leader = 0;
		p->csi_nleader = 0;
		p->csi_inter = 0;
		p->csi_ninter = 0;
		p->csi_argi = 0;
		p->csi_ndigit = 0;
		p->csi_args[0] = -1;
		p->csi_rawlen = 0;
		return;
	case ']':
		string_start(p, i, G_STR_OSC);
		return;
	case 'P':
		string_start(p, i, G_STR_DCS);
		return;
	default:
		break;
	}
	if (p->esc_ninter == 0 && (c == '_' || c == '^' || c == 'X')) {
		string_start(p, i, G_STR_IGNORE);
		return;
	}
	if (c >= 0x20 && c <= 0x2f) {
		if (p->esc_ninter < G_CSI_BYTES_MAX)
			p->esc_inter[p->esc_ninter] = (char)c;
		p->esc_ninter++;
		return;
	}
	if (c >= 0x30 && c < 0x7f) {
		p->gs = G_GROUND;
		esc_final(p, i, c);
	}
	/* Other bytes: libvterm stays in its escape state, and so do we. */
}

/* A byte of a CSI's leader, arguments or intermediates, for a snapshot. */
static void
csi_raw(struct lz_pane *p, unsigned char c)
{
	if (p->csi_rawlen < G_CSI_RAW_MAX)
		p->csi_raw[p->csi_rawlen++] = (char)c;
}

static void
csi_byte(struct lz_pane *p, size_t i, unsigned char c)
{
	switch (p->gs) {
	case G_CSI_LEADER:
		if (c >= 0x3c && c <= 0x3f) {
			if (p->csi_nleader++ == 0)
				p->csi_leader = c;
			if (p->csi_nleader <= G_CSI_BYTES_MAX)
				csi_raw(p, c);
			return;
		}
		p->gs = G_CSI_ARGS;
		/* FALLTHROUGH */
	case G_CSI_ARGS:
		if (c >= '0' && c <= '9') {
			if (++p->csi_ndigit > G_CSI_DIGIT_MAX) {
				p->props.cancelled_csi++;
				cancel_at(p, i);
				p->gs = G_CSI_DISCARD;
				return;
			}
			if (p->csi_args[p->csi_argi] < 0)
				p->csi_args[p->csi_argi] = 0;
			p->csi_args[p->csi_argi] =
			    p->csi_args[p->csi_argi] * 10 + (c - '0');
			csi_raw(p, c);
			return;
		}
		if (c == ':' || c == ';') {
			if (p->csi_argi >= G_CSI_SEP_MAX) {
				p->props.cancelled_csi++;
				cancel_at(p, i);
				p->gs = G_CSI_DISCARD;
				return;
			}
			p->csi_args[++p->csi_argi] = -1;
			p->csi_ndigit = 0;
			csi_raw(p, c);
			return;
		}
		p->gs = G_CSI_INTERMED;
		/* FALLTHROUGH */
	case G_CSI_INTERMED:
		if (c >= 0x20 && c <= 0x2f) {
			if (p->csi_ninter++ == 0)
				p->csi_inter = c;
			if (p->csi_ninter <= G_CSI_BYTES_MAX)
				csi_raw(p, c);
			return;
		}
		if (c >= 0x40 && c <= 0x7e) {
			csi_final(p, i, c);
			return;
		}
		p->gs = G_GROUND;	/* invalid: libvterm drops the CSI */
		return;
	default:
		return;
	}
}

/*
 * CR at byte i, or a line feed in newline mode (LNM), under a left margin:
 * xterm returns to the margin (cr_col), libvterm 0.1.4 to column 1.
 */
static void
margin_cr(struct lz_pane *p, size_t i, unsigned char c)
{
	int col;

	flush_to(p, i);
	col = p->t.vcol;
	if (c == '\r')
		p->fseg = i + 1;	/* CR is the CUP below */
	else
		flush_to(p, i + 1);
	move_to(p, p->t.vrow, cr_col(p, col));
}

static void
guard_byte(struct lz_pane *p, size_t i, unsigned char c)
{
	/* An incomplete character is dropped, so libvterm never sees one. */
	if (p->u8need > 0 && !(c >= 0x80 && c < 0xc0))
		u8_drop_partial(p, i);

	if (c == 0x18 || c == 0x1a) {		/* CAN, SUB */
		if (p->gs == G_STRING || p->gs == G_STRING_ESC) {
			string_drop(p);
			skip_byte(p, i);
		} else if (p->gs == G_CSI_DISCARD) {
			p->gs = G_GROUND;
			skip_byte(p, i);
		} else
			p->gs = G_GROUND;
		return;
	}
	if (c == 0x1b) {
		switch (p->gs) {
		case G_STRING:
			p->gs = G_STRING_ESC;
			skip_byte(p, i);
			return;
		case G_STRING_ESC:
			/* libvterm abandons the string for a new escape. */
			string_drop(p);
			break;
		default:
			break;
		}
		p->gs = G_ESC;
		p->esc_ninter = 0;
		return;
	}
	if (c == 0x00 || c == 0x7f) {
		if (p->gs >= G_CSI_DISCARD)
			skip_byte(p, i);
		return;
	}
	if (c < 0x20) {
		switch (p->gs) {
		case G_STRING:
			if (c == 0x07)
				string_done(p, i, 1);
			else
				skip_byte(p, i);
			return;
		case G_STRING_ESC:
			skip_byte(p, i);
			return;
		default:
			/* libvterm executes it in place. */
			if (c == 0x0e || c == 0x0f)
				p->t.gl = c == 0x0e;
			else if (p->gs == G_GROUND && p->t.lrmm &&
			    p->t.left > 0 && (c == '\r' || (c >= '\n' &&
			    c <= '\f' && p->t.newline)))
				margin_cr(p, i, c);
			return;
		}
	}

	switch (p->gs) {
	case G_GROUND:
		ground_byte(p, i, c);
		return;
	case G_ESC:
		esc_byte(p, i, c);
		return;
	case G_CSI_LEADER:
	case G_CSI_ARGS:
	case G_CSI_INTERMED:
		csi_byte(p, i, c);
		return;
	case G_CSI_DISCARD:
		if (c >= 0x40 && c <= 0x7e)
			p->gs = G_GROUND;
		skip_byte(p, i);
		return;
	case G_STRING:
		if (p->str_len < sizeof p->str)
			p->str[p->str_len++] = (char)c;
		else
			p->str_long = 1;
		skip_byte(p, i);
		return;
	case G_STRING_ESC:
		if (c == '\\') {
			string_done(p, i, 0);
			return;
		}
		/* ESC and another byte: a new escape sequence. */
		string_drop(p);
		flush_to(p, i);
		vt_write(p, "\033", 1);
		p->gs = G_ESC;
		p->esc_ninter = 0;
		esc_byte(p, i, c);
		return;
	}
}

static void
after_input(struct lz_pane *p, unsigned was_dirty)
{
	if (p->reply.len > 0) {
		if (p->cb.reply != NULL)
			p->cb.reply(p->reply.buf, p->reply.len, p->user);
		lz_buf_reset(&p->reply);
	}
	if (was_dirty == 0 && p->dirty != 0 && p->cb.damage != NULL)
		p->cb.damage(p->user);
}

/*
 * A whole CSI at u[i] (ESC [) before end that the guard need not parse:
 * no leader, no intermediate, no control inside, parameters within
 * libvterm's limits, and a final byte that is not K_GUARD's. Returns the
 * index past it, with its kind in *kind, or i when the guard must see it
 * byte by byte.
 */
static size_t
csi_plain(const unsigned char *u, size_t i, size_t end, int *kind)
{
	size_t j = i + 2;
	int nsep = 0, ndigit = 0;

	if (j > end || u[i + 1] != '[')
		return i;
	for (; j < end; j++) {
		if (u[j] >= '0' && u[j] <= '9') {
			if (++ndigit > G_CSI_DIGIT_MAX)
				return i;
		} else if (u[j] == ';' || u[j] == ':') {
			if (++nsep > G_CSI_SEP_MAX)
				return i;
			ndigit = 0;
		} else
			break;
	}
	if (j == end || u[j] < 0x40 || u[j] > 0x7e ||
	    (*kind = csi_kind[u[j]]) == K_GUARD)
		return i;
	if (u[j] == 'm' && sgr_reads_past((const char *)u + i + 2,
	    j - i - 2))
		return i;	/* sgr_tail */
	return j + 1;
}

/*
 * Skips from byte i the bytes the guard leaves alone in the ground state:
 * text, the C0 controls libvterm executes in place and plain CSIs (SGR,
 * cursor moves), so the usual output costs a table look-up a byte. Notes
 * whether a cursor move comes after the last text (seg_move). Stops at
 * the first byte the guard must see, or where the pending write reaches
 * LZ_PANE_WRITE_MAX; returns where.
 */
static size_t
ground_run(struct lz_pane *p, const unsigned char *u, size_t i, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	const unsigned char *plain = p->t.plain;
	size_t end = p->fseg + LZ_PANE_WRITE_MAX, j;
	uint64_t w;
	unsigned char k;
	int text = 0, move = 0, kind = K_PLAIN;

	if (end > len)
		end = len;
	while (i < end) {
		/* Eight bytes at a time while all are printable ASCII. */
		for (; i + 8 <= end; i += 8) {
			memcpy(&w, u + i, 8);
			if (((w - ones * 0x20) | (w + ones) | w) & high)
				break;
			text = 2;
		}
		for (; i < end; i++) {
			k = plain[u[i]];
			if (k == 0)
				break;
			text |= k & 2;
		}
		if (i == end || u[i] != 0x1b ||
		    (j = csi_plain(u, i, end, &kind)) == i ||
		    (kind == K_MARGIN && p->t.margined))
			break;
		if (kind != K_PLAIN) {
			if (text)
				p->t.ss = 0;
			if (p->cols <= 4) {
				/*
				 * Rows of two columns can have a pending
				 * wrap at column 0, where a move that does
				 * not move clears it unseen: soft_wrap must
				 * know before the next text (which may come
				 * through the guard, as UTF-8 does).
				 */
				p->seg_move = 1;
				flush_to(p, j);
				text = 0;
				i = j;
				continue;
			}
			text = 0;
			move = 1;
		}
		i = j;
	}
	if (text) {
		p->seg_move = 0;
		p->t.ss = 0;
	} else if (move)
		p->seg_move = 1;
	return i;
}

void
lz_pane_feed(struct lz_pane *p, const char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)buf;
	unsigned was_dirty = p->dirty;
	size_t i, room;

	p->fbuf = buf;
	p->fseg = 0;
	for (i = 0; i < len; i++) {
		if (p->gs == G_GROUND && p->u8need == 0) {
			/*
			 * libvterm first takes what came before, which may
			 * change what the fast path may take.
			 */
			if (lz_pane_fast_ok(p))
				flush_to(p, i);
			if (lz_pane_fast_ok(p)) {
				i = lz_pane_fast(p, u, i, len);
				p->fseg = i;
			} else
				i = ground_run(p, u, i, len);
			if (i == len)
				break;
		}
		/* Keep writes bounded, never cutting a character. */
		if (i - p->fseg >= LZ_PANE_WRITE_MAX &&
		    (p->u8need == 0 || p->u8nheld == 0))
			flush_to(p, p->u8need > 0 ? p->u8start : i);
		guard_byte(p, i, u[i]);
	}
	if (p->u8need > 0) {
		/* Hold a partial character until its last byte comes. */
		if (p->u8nheld == 0) {
			flush_to(p, p->u8start);
			p->fseg = p->u8start;
		}
		room = sizeof p->u8held - (size_t)p->u8nheld;
		if (len - p->fseg <= room) {
			memcpy(p->u8held + p->u8nheld, buf + p->fseg,
			    len - p->fseg);
			p->u8nheld += (int)(len - p->fseg);
		} else
			p->u8need = 0;	/* cannot happen: 6 bytes at most */
		p->fseg = len;
	}
	flush_to(p, len);
	p->fbuf = NULL;
	after_input(p, was_dirty);
}

void
lz_pane_restore_begin(struct lz_pane *p)
{
	unsigned was_dirty = p->dirty;

	state_free(p);
	memset(&p->props, 0, sizeof p->props);
	memset(&p->t, 0, sizeof p->t);
	memset(&p->colors, 0, sizeof p->colors);
	lz_pane_links_free(p);
	p->title[0] = '\0';
	p->alt = 0;
	p->saved_row = p->saved_col = 0;
	p->gs = G_GROUND;
	p->u8need = p->u8nheld = 0;
	p->hidden = 0;
	p->vstale = 0;
	p->font = 0;
	state_init(p);
	p->restoring = 1;
	mark_rows(p, 0, p->rows);
	lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR | LZ_PANE_DIRTY_PROPS);
	after_input(p, was_dirty);
}

void
lz_pane_restore_end(struct lz_pane *p)
{
	set_hidden(p, 0);
	p->restoring = 0;
}

/*
 * libvterm 0.1.4 clamps only the bottom and right margins on resize, so a
 * shrink can leave top below bottom (a negative memmove in its scroll),
 * and lines brought back from the scrollback move the cursor below a
 * region it was kept in by origin mode. Reset both margins on every
 * resize, as xterm does; libvterm homes the cursor, the caller puts it
 * back.
 */
static void
reset_margins(struct lz_pane *p)
{
	vwrites(p, p->t.lrmm ? "\033[r\033[?69h\033[s" :
	    "\033[r\033[?69h\033[s\033[?69l");
	p->t.top = 0;
	p->t.bottom = -1;
	p->t.left = 0;
	p->t.right = -1;
	p->t.lg.wrap = 0;
	track_modes(p);
}

/*
 * libvterm does not clamp its save slot on resize: a slot left outside
 * the screen is moved to its nearest cell (restore, move, save), and the
 * live cursor, pen and cursor look put back, so that a snapshot, which
 * can only save a cell on the screen, carries the same slot. A reflow
 * moves it to (row, col) when row is not -1.
 */
static void
clamp_slot(struct lz_pane *p, int row, int col)
{
	struct g_saved *s = &p->t.saved;
	struct lz_pane_props pr = p->props;
	struct lz_pen pen = p->pen;
	struct lz_buf b = LZ_BUF_INIT;
	int font = p->font;
	VTermPos pos;

	if (!s->valid || (row == -1 && s->row < p->rows && s->col < p->cols) ||
	    (row == s->row && col == s->col))
		return;
	vt_cursor(p, &pos);
	if (row != -1) {
		s->row = row;
		s->col = col;
	}
	s->row = s->row < p->rows ? s->row : p->rows - 1;
	s->col = s->col < p->cols ? s->col : p->cols - 1;
	lz_buf_addf(&b, "\0338\033[%d;%dH\0337\033[%d;%dH", s->row + 1,
	    s->col + 1, pos.row + 1, pos.col + 1);
	lz_pane_sgr(&b, pen.fg, pen.bg, pen.attr, font);
	lz_buf_addf(&b, "\033[%d q\033[?25%c", (pr.cursor_shape ==
	    LZ_CURSOR_UNDERLINE ? 3 : pr.cursor_shape == LZ_CURSOR_BAR ? 5 :
	    1) + !pr.cursor_blink, pr.cursor_visible ? 'h' : 'l');
	lz_pane_vwrite(p, b.buf, b.len);
	lz_buf_release(&b);
	p->t.lg.wrap = 0;
}

/*
 * Puts a glyph of width w at (row, col) in hidden mode, margins and
 * origin mode off: libvterm's last glyph (what it joins marks to) and, at
 * the row's end, its pending wrap are set, the grid is not touched. The
 * guard's last glyph gets the characters of g. With row -1 libvterm's is
 * parked instead (lz_pane_park_seq) and the guard's stays g. A pending
 * single shift is used up and set again.
 */
static void
reput(struct lz_pane *p, int row, int col, int w, struct g_glyph g)
{
	struct lz_buf b = LZ_BUF_INIT;

	if (p->t.ss != 0)
		lz_buf_adds(&b, "x");	/* what the single shift takes */
	if (row < 0)
		lz_pane_park_seq(p, &b);
	else
		lz_buf_addf(&b, "\033[%d;%dH%s", row + 1, col + 1,
		    stand_in[w == 2 ? 2 : 1]);
	if (p->t.ss != 0)
		lz_buf_adds(&b, p->t.ss == 2 ? "\033N" : "\033O");
	set_hidden(p, 1);
	lz_pane_vwrite(p, b.buf, b.len);
	set_hidden(p, 0);
	lz_buf_release(&b);
	if (row < 0) {
		p->t.lg = g;
		return;
	}
	memcpy(p->t.lg.ch, g.ch, sizeof g.ch);
	p->t.lg.nch = g.nch;
}

/*
 * Rewraps the primary screen and the scrollback at cols (lz_grid_reflow).
 * Its cursor (the live one, or where it is kept while the alternate
 * screen is on, with the save slot ?1049 restores it from) and the last
 * glyph move with their characters; *to is where the live cursor goes
 * (row -1: where libvterm has it), *phantom whether it is past a full
 * row's last glyph, *slot where the save slot goes (row -1: stays).
 */
static void
reflow(struct lz_pane *p, int cols, struct lz_reflow_pt *to,
    struct lz_reflow_pt *slot, struct lz_reflow_pt *glyph)
{
	struct lz_reflow_pt pt[3];

	memset(pt, 0, sizeof pt);
	if (p->alt) {
		pt[0].row = p->saved_row;
		pt[0].col = p->saved_col;
	} else {
		pt[0].row = p->props.cursor_row;
		pt[0].col = p->props.cursor_col;
		pt[0].phantom = lz_pane_wrap(p) && p->t.lg.row == pt[0].row &&
		    p->t.lg.col == pt[0].col;
	}
	pt[1].row = p->t.saved.row < p->rows ? p->t.saved.row : p->rows - 1;
	pt[1].col = p->t.saved.col < p->cols ? p->t.saved.col : p->cols - 1;
	pt[2].row = p->t.lg.row;
	pt[2].col = p->t.lg.col;
	lz_grid_reflow(&p->scr[0], &p->sb, cols, pt, 3);
	to->row = slot->row = glyph->row = -1;
	if (p->alt) {
		p->saved_row = pt[0].row;
		p->saved_col = pt[0].col;
		if (p->t.saved.valid)
			*slot = pt[1];
		return;
	}
	*to = pt[0];
	if (p->t.lg.width > 0 && p->t.lg.row >= 0 && p->t.lg.row < p->rows &&
	    !p->decaln && !pt[2].gone)
		*glyph = pt[2];
}

void
lz_pane_resize(struct lz_pane *p, unsigned urows, unsigned ucols)
{
	unsigned was_dirty = p->dirty;
	struct lz_cell *line;
	struct lz_reflow_pt to = { -1, 0, 0, 0 }, slot = { -1, 0, 0, 0 };
	struct lz_reflow_pt glyph = { -1, 0, 0, 0 };
	const struct lz_cell *c;
	struct g_glyph g;
	VTermPos pos;
	int rows = (int)clampu(urows, 1, LZ_PANE_MAX_ROWS);
	int cols = (int)clampu(ucols, 1, LZ_PANE_MAX_COLS);
	int prow, drop_p, drop_a, pulled = 0, k, old_cols, w;

	if (rows == p->rows && cols == p->cols)
		return;
	lz_pane_vt_sync(p);
	if (p->gs >= G_ESC && p->gs <= G_CSI_INTERMED) {
		/* A sequence split around the resize is lost. */
		vt_write(p, "\030", 1);
		p->gs = G_GROUND;
	}
	if (cols != p->cols)
		reflow(p, cols, &to, &slot, &glyph);
	else if (!p->alt) {
		/* The same: a pending wrap and the last glyph are put back. */
		to.row = p->props.cursor_row;
		to.col = p->props.cursor_col;
		to.phantom = lz_pane_wrap(p) && p->t.lg.row == to.row &&
		    p->t.lg.col == to.col;
		if (p->t.lg.width > 0 && p->t.lg.row >= 0 &&
		    p->t.lg.row < p->rows && !p->decaln) {
			glyph.row = p->t.lg.row;
			glyph.col = p->t.lg.col;
		}
	}
	/* The primary screen's cursor: the live one or the saved one. */
	prow = p->alt ? p->saved_row : to.row != -1 ? to.row :
	    p->props.cursor_row;
	drop_p = rows < p->rows && prow >= rows ? prow + 1 - rows : 0;
	drop_a = rows < p->rows && p->props.cursor_row >= rows ?
	    p->props.cursor_row + 1 - rows : 0;
	lz_grid_resize(&p->scr[0], rows, cols, drop_p, sb_out, p);
	if (p->alt)
		lz_grid_resize(&p->scr[1], rows, cols, drop_a, NULL, NULL);
	if (rows > p->rows) {
		/* Bring back lines from scrollback above the primary screen. */
		pulled = rows - p->rows;
		if ((size_t)pulled > lz_sb_lines(&p->sb))
			pulled = (int)lz_sb_lines(&p->sb);
		if (pulled > 0) {
			lz_grid_scroll(&p->scr[0], 0, rows, -pulled,
			    LZ_COLOR_DEFAULT, NULL, NULL);
			for (k = pulled - 1; k >= 0; k--) {
				line = p->scr[0].row[k];
				w = lz_sb_pop(&p->sb, line, cols);
				if (w < 0)
					LZ_BUG("scrollback shorter than counted");
				p->scr[0].wrap[k] = (unsigned char)w;
				lz_grid_touch(&p->scr[0], k, cols);
			}
		}
	}
	if (p->alt) {
		p->saved_row += pulled - drop_p;
		p->resize_delta.row = -drop_a;
	} else
		p->resize_delta.row = pulled - drop_p;
	p->resize_delta.col = 0;
	if (to.row != -1)
		to.row += pulled - drop_p;
	if (slot.row != -1) {
		slot.row += pulled - drop_p;
		if (slot.row < 0)
			slot.row = 0;
	}
	if (glyph.row != -1)
		glyph.row += pulled - drop_p;
	if (p->saved_row < 0)
		p->saved_row = 0;
	if (p->saved_row >= rows)
		p->saved_row = rows - 1;
	if (p->saved_col >= cols)
		p->saved_col = cols - 1;
	old_cols = p->cols;
	p->rows = rows;
	p->cols = cols;
	/* libvterm's on_resize: new columns get the default tab stops. */
	if (cols > old_cols)
		tabs_default(p, old_cols);
	if (p->t.bottom > rows)
		p->t.bottom = rows;
	if (p->t.right > cols)
		p->t.right = cols;
	if (lz_pane_wrap(p) && p->t.vcol < cols - 1)
		p->t.lg.wrap = 0;
	track_modes(p);
	vterm_set_size(p->vt, rows, cols);
	p->resize_delta.row = 0;
	if (to.row != -1) {
		pos.row = to.row < rows ? to.row : rows - 1;
		pos.col = to.col;
		if (to.phantom && !p->t.autowrap)
			pos.col = cols - 1;
	} else
		vt_cursor(p, &pos);
	/* Margins first: the glyph's CUP below is then the screen's. */
	reset_margins(p);
	/*
	 * The last glyph again where it still is (a reflow blanks a wide one
	 * in 1), and whole within its row (one past a double-width line's
	 * half would wrap, scrolling its line sizes unseen). Anywhere else
	 * libvterm's is parked: left where it was, a cursor could stand
	 * after it in the new size, and libvterm would join a mark the guard
	 * declined (a mirror's, parked by its snapshot, somewhere else).
	 */
	if (glyph.row >= 0 && glyph.row < rows && glyph.col >= 0 &&
	    glyph.col + p->t.lg.width <= lz_pane_row_width(p, glyph.row) &&
	    p->scr[0].row[glyph.row][glyph.col].ch[0] != 0 &&
	    p->scr[0].row[glyph.row][glyph.col].width == p->t.lg.width)
		reput(p, glyph.row, glyph.col, p->t.lg.width, p->t.lg);
	else
		reput(p, -1, 0, 1, p->t.lg);
	move_to(p, pos.row, pos.col);
	if (to.row != -1) {
		/*
		 * The pending wrap: after the last glyph as it was (rows
		 * only: the cell may have been erased since), or after the
		 * character a reflow put at a full row's end.
		 */
		c = &p->scr[0].row[pos.row][to.col];
		g = p->t.lg;
		if (cols != old_cols) {
			memset(&g, 0, sizeof g);
			for (k = 0; k < LZ_CELL_CHARS && k < G_GLYPH_CHARS &&
			    c->ch[k] != 0; k++)
				g.ch[k] = c->ch[k];
			g.nch = (int16_t)k;
			g.width = c->width;
		}
		if (to.phantom && p->t.autowrap && g.width > 0 &&
		    to.col + g.width == lz_pane_row_width(p, pos.row))
			reput(p, pos.row, to.col, g.width, g);
	}
	clamp_slot(p, slot.row, slot.col);
	memset(p->rowdirty, 0, sizeof p->rowdirty);
	mark_rows(p, 0, rows);
	lz_pane_mark(p, LZ_PANE_DIRTY_CURSOR | LZ_PANE_DIRTY_PROPS);
	after_input(p, was_dirty);
}

void
lz_pane_set_fast(struct lz_pane *p, int on)
{
	lz_pane_vt_sync(p);
	p->fast_off = !on;
}

unsigned
lz_pane_rows(const struct lz_pane *p)
{
	return (unsigned)p->rows;
}

unsigned
lz_pane_cols(const struct lz_pane *p)
{
	return (unsigned)p->cols;
}

const struct lz_cell *
lz_pane_cell(const struct lz_pane *p, int row, int col)
{
	if (row < 0 || row >= p->rows || col < 0 || col >= p->cols)
		return NULL;
	return &p->scr[p->alt].row[row][col];
}

size_t
lz_pane_scrollback_lines(const struct lz_pane *p)
{
	return lz_sb_lines(&p->sb);
}

size_t
lz_pane_scrollback_bytes(const struct lz_pane *p)
{
	return lz_sb_bytes(&p->sb);
}

int
lz_pane_wrapped(const struct lz_pane *p, int row)
{
	if (row < 0 || row >= p->rows)
		return 0;
	return p->scr[p->alt].wrap[row];
}

int
lz_pane_scrollback_wrapped(const struct lz_pane *p, size_t line)
{
	return lz_sb_wrapped(&p->sb, line);
}

const struct lz_cell *
lz_pane_scrollback_cell(const struct lz_pane *p, size_t line, int col)
{
	/* The decode cache changes; the pane was allocated non-const. */
	return lz_sb_cell((struct lz_sb *)&p->sb, line, col);
}

void
lz_pane_line_text(const struct lz_pane *p, long line, struct lz_buf *out)
{
	const struct lz_cell *c;
	size_t keep = out->len;
	int col, k, width;

	if (line >= p->rows)
		return;
	if (line < 0 && (size_t)(-1 - line) >= lz_sb_lines(&p->sb))
		return;
	width = line >= 0 ? p->cols : LZ_PANE_MAX_COLS;
	for (col = 0; col < width; col++) {
		c = line >= 0 ? lz_pane_cell(p, (int)line, col) :
		    lz_pane_scrollback_cell(p, (size_t)(-1 - line), col);
		if (c == NULL)
			break;
		if (c->ch[0] == LZ_CELL_CONT)
			continue;
		if (c->ch[0] == 0) {
			lz_buf_addch(out, ' ');
			continue;
		}
		for (k = 0; k < LZ_CELL_CHARS && c->ch[k] != 0; k++)
			lz_buf_add_utf8(out, c->ch[k]);
		keep = out->len;
	}
	out->len = keep;
	out->buf[keep] = '\0';
}

const struct lz_pane_props *
lz_pane_props(const struct lz_pane *p)
{
	return &p->props;
}

const char *
lz_pane_title(const struct lz_pane *p)
{
	return p->title;
}

unsigned
lz_pane_dirty(const struct lz_pane *p)
{
	return p->dirty;
}

int
lz_pane_row_dirty(const struct lz_pane *p, int row)
{
	if (row < 0 || row >= p->rows)
		return 0;
	return (p->rowdirty[row >> 6] >> (row & 63)) & 1;
}

unsigned long
lz_pane_scrolled(const struct lz_pane *p)
{
	return p->scrolled;
}

void
lz_pane_clear_dirty(struct lz_pane *p)
{
	p->dirty = 0;
	p->scrolled = 0;
	memset(p->rowdirty, 0, sizeof p->rowdirty);
}
