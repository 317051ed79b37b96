/*
 * pane.c: the pane emulator of pane.h. libvterm's state layer parses and
 * keeps cursor, pen and modes; its callbacks below write the project's grid
 * (ui/grid.c). In front of libvterm runs a guard that mirrors its parser
 * (parser.c of 0.1.4) byte by byte, so it knows when libvterm is inside a
 * CSI or text, and steps in where libvterm 0.1.4 would go wrong (pane.h).
 * The TUI renderer is elsewhere; this file never includes ncurses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "core/utf8.h"
#include "core/util.h"
#include "ui/grid.h"
#include "ui/pane.h"

/* libvterm 0.1.4 keeps 16 CSI arguments: at most 15 separators. */
#define G_CSI_SEP_MAX 15
#define G_CSI_DIGIT_MAX 9
#define G_ASTRAL_SLOTS 512
#define G_DIRTY_WORDS ((LZ_PANE_MAX_ROWS + 63) / 64)

enum g_state {
	G_GROUND,
	G_ESC,
	G_CSI_LEADER,
	G_CSI_ARGS,
	G_CSI_INTERMED,
	G_CSI_DISCARD,		/* cancelled CSI: skip to its final byte */
	G_STRING,
	G_STRING_ESC,
};

enum g_string {
	G_STR_OSC,
	G_STR_DCS,
	G_STR_IGNORE,		/* APC, PM, SOS */
};

struct lz_pane {
	VTerm *vt;
	VTermState *vts;
	struct lz_pane_cb cb;
	void *user;

	struct lz_grid scr[2];		/* primary, alternate */
	int alt;			/* scr[alt] is shown */
	int rows, cols;
	struct lz_sb sb;
	struct lz_pen pen;
	struct lz_pane_props props;
	char title[LZ_PANE_TITLE_MAX + 1];
	int saved_row, saved_col;	/* primary cursor when alt was entered */
	VTermPos resize_delta;
	struct lz_buf reply;

	unsigned dirty;
	uint64_t rowdirty[G_DIRTY_WORDS];
	unsigned long scrolled;

	/* The guard: libvterm's parser state as the guard sees it. */
	enum g_state gs;
	int esc_ninter, esc_inter;	/* intermediates: count, first */
	int csi_leader, csi_nleader, csi_inter, csi_ninter;
	int csi_argi, csi_ndigit;
	long csi_args[G_CSI_SEP_MAX + 1];
	enum g_string str_kind;
	char str[LZ_PANE_STRING_MAX];
	size_t str_len;
	int str_long;

	/* UTF-8 of the text, so partial characters can be held or cut. */
	unsigned char u8held[8];	/* a partial character from earlier feeds */
	int u8nheld;
	int u8need, u8total;
	uint32_t u8cp;
	size_t u8start;			/* its first byte in this feed's buf */
	unsigned comb_run;
	int lrmm;			/* DECLRMM (?69) is set */
	int last_width;			/* of the last glyph: REP repeats it */
	uint8_t comb_bmp[0x10000 / 8];	/* BMP code points seen combining */
	uint32_t comb_astral[G_ASTRAL_SLOTS];

	/* The feed in progress: buf[seg..] not yet written to libvterm. */
	const char *fbuf;
	size_t fseg;
};

static int cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user);
static int cb_movecursor(VTermPos pos, VTermPos oldpos, int visible,
    void *user);
static int cb_scrollrect(VTermRect rect, int downward, int rightward,
    void *user);
static int cb_moverect(VTermRect dest, VTermRect src, void *user);
static int cb_erase(VTermRect rect, int selective, void *user);
static int cb_initpen(void *user);
static int cb_setpenattr(VTermAttr attr, VTermValue *val, void *user);
static int cb_settermprop(VTermProp prop, VTermValue *val, void *user);
static int cb_bell(void *user);
static int cb_resize(int rows, int cols, VTermPos *delta, void *user);
static int cb_setlineinfo(int row, const VTermLineInfo *newinfo,
    const VTermLineInfo *oldinfo, void *user);

static const VTermStateCallbacks pane_callbacks = {
	.putglyph = cb_putglyph,
	.movecursor = cb_movecursor,
	.scrollrect = cb_scrollrect,
	.moverect = cb_moverect,
	.erase = cb_erase,
	.initpen = cb_initpen,
	.setpenattr = cb_setpenattr,
	.settermprop = cb_settermprop,
	.bell = cb_bell,
	.resize = cb_resize,
	.setlineinfo = cb_setlineinfo,
};

static struct lz_grid *
cur(struct lz_pane *p)
{
	return &p->scr[p->alt];
}

static void
mark(struct lz_pane *p, unsigned bits)
{
	p->dirty |= bits;
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

/* Marks one row dirty: the per-glyph case, kept small to inline. */
static inline void
mark_row(struct lz_pane *p, int r)
{
	if ((unsigned)r >= (unsigned)p->rows)
		return;
	p->dirty |= LZ_PANE_DIRTY_CELLS;
	p->rowdirty[r >> 6] |= 1ull << (r & 63);
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
	p->lrmm = 0;
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
	lz_grid_init(&p->scr[0], p->rows, p->cols);
	lz_grid_init(&p->scr[1], p->rows, p->cols);
	lz_sb_init(&p->sb, scrollback_lines, LZ_PANE_SB_MAX_BYTES);
	lz_buf_init(&p->reply);
	p->props.cursor_visible = 1;
	p->props.cursor_blink = 1;
	p->props.cursor_shape = LZ_CURSOR_BLOCK;
	guard_reset_modes(p);

	p->vt = vterm_new(p->rows, p->cols);
	if (p->vt == NULL)
		LZ_BUG("vterm_new failed");
	vterm_set_utf8(p->vt, 1);
	vterm_output_set_callback(p->vt, output_cb, p);
	p->vts = vterm_obtain_state(p->vt);
	vterm_state_set_callbacks(p->vts, &pane_callbacks, p);
	vterm_state_reset(p->vts, 1);
	lz_pane_clear_dirty(p);
	return p;
}

void
lz_pane_free(struct lz_pane *p)
{
	if (p == NULL)
		return;
	vterm_free(p->vt);
	lz_grid_free(&p->scr[0]);
	lz_grid_free(&p->scr[1]);
	lz_sb_free(&p->sb);
	lz_buf_release(&p->reply);
	free(p);
}

/* libvterm callbacks. */

static int
comb_known(const struct lz_pane *p, uint32_t cp)
{
	size_t i, h;

	if (cp < 0x10000)
		return (p->comb_bmp[cp >> 3] >> (cp & 7)) & 1;
	h = (cp * 2654435761u) % G_ASTRAL_SLOTS;
	for (i = 0; i < G_ASTRAL_SLOTS; i++) {
		if (p->comb_astral[h] == cp)
			return 1;
		if (p->comb_astral[h] == 0)
			return 0;
		h = (h + 1) % G_ASTRAL_SLOTS;
	}
	return 0;
}

/* Remembers that libvterm combined cp with the character before it. */
static void
comb_learn(struct lz_pane *p, uint32_t cp)
{
	size_t i, h;

	if (cp < 0x10000) {
		p->comb_bmp[cp >> 3] |= (uint8_t)(1u << (cp & 7));
		return;
	}
	if (cp > 0x10ffff)
		return;
	h = (cp * 2654435761u) % G_ASTRAL_SLOTS;
	for (i = 0; i < G_ASTRAL_SLOTS; i++) {
		if (p->comb_astral[h] == cp)
			return;
		if (p->comb_astral[h] == 0) {
			p->comb_astral[h] = cp;
			return;
		}
		h = (h + 1) % G_ASTRAL_SLOTS;
	}
}

/* A glyph with marks, wide or protected: the rest of cb_putglyph. */
static int __attribute__((noinline))
putglyph_full(struct lz_pane *p, const VTermGlyphInfo *info, VTermPos pos)
{
	struct lz_pen pen = p->pen;
	uint32_t ch[LZ_CELL_CHARS];
	uint32_t c;
	int n, k;

	p->last_width = info->width;
	/*
	 * A glyph of width 0 is combining marks with no base (after a cursor
	 * move): they get a space as base, as a terminal shows them.
	 */
	n = 0;
	if (info->width <= 0)
		ch[n++] = ' ';
	for (k = 0; info->chars[k] != 0; k++) {
		c = info->chars[k];
		if (k > 0 || info->width <= 0)
			comb_learn(p, c);
		if (n >= LZ_CELL_CHARS)
			continue;
		if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			c = 0xfffd;
		ch[n++] = c;
	}
	if (k == 0)
		return 1;
	if (info->protected_cell)
		pen.attr |= LZ_ATTR_PROTECTED;
	lz_grid_put(cur(p), pos.row, pos.col, ch, n, info->width, &pen);
	mark_row(p, pos.row);
	return 1;
}

static int
cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	struct lz_pane *p = user;
	const uint32_t *chars = info->chars;
	uint32_t c = chars[0];

	/*
	 * One character below the surrogates, width 1, no marks, no wide
	 * neighbour: most of any output, kept short (no call but in tail
	 * position, so no registers to save). putglyph_full does the rest.
	 */
	if (info->width != 1 || c == 0 || c >= 0xd800 || chars[1] != 0 ||
	    info->protected_cell ||
	    !lz_grid_put1(cur(p), pos.row, pos.col, c, &p->pen))
		return putglyph_full(p, info, pos);
	p->last_width = 1;
	mark_row(p, pos.row);
	return 1;
}

static int
cb_movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user)
{
	struct lz_pane *p = user;

	(void)oldpos;
	(void)visible;
	if (pos.row < 0)
		pos.row = 0;
	if (pos.row >= p->rows)
		pos.row = p->rows - 1;
	if (pos.col < 0)
		pos.col = 0;
	if (pos.col >= p->cols)
		pos.col = p->cols - 1;
	if (pos.row != p->props.cursor_row || pos.col != p->props.cursor_col)
		mark(p, LZ_PANE_DIRTY_CURSOR);
	p->props.cursor_row = pos.row;
	p->props.cursor_col = pos.col;
	return 1;
}

static void
sb_out(const struct lz_cell *row, int cols, void *user)
{
	struct lz_pane *p = user;

	lz_sb_push(&p->sb, row, cols);
}

static int
cb_scrollrect(VTermRect rect, int downward, int rightward, void *user)
{
	struct lz_pane *p = user;
	int full;

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

static int
cb_moverect(VTermRect dest, VTermRect src, void *user)
{
	struct lz_pane *p = user;

	lz_grid_moverect(cur(p), dest.start_row, dest.start_col, src.start_row,
	    src.start_col, dest.end_row - dest.start_row,
	    dest.end_col - dest.start_col);
	mark_rows(p, dest.start_row, dest.end_row);
	return 1;
}

static int
cb_erase(VTermRect rect, int selective, void *user)
{
	struct lz_pane *p = user;

	lz_grid_erase(cur(p), rect.start_row, rect.end_row, rect.start_col,
	    rect.end_col, p->pen.bg, selective);
	mark_rows(p, rect.start_row, rect.end_row);
	return 1;
}

static int
cb_initpen(void *user)
{
	struct lz_pane *p = user;

	memset(&p->pen, 0, sizeof p->pen);
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
	if (alt) {
		p->saved_row = p->props.cursor_row;
		p->saved_col = p->props.cursor_col;
		lz_grid_erase(&p->scr[1], 0, p->rows, 0, p->cols,
		    LZ_COLOR_DEFAULT, 0);
	}
	p->alt = alt;
	p->props.altscreen = alt;
	mark_rows(p, 0, p->rows);
	mark(p, LZ_PANE_DIRTY_PROPS);
}

static int
cb_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct lz_pane *p = user;

	switch (prop) {
	case VTERM_PROP_CURSORVISIBLE:
		p->props.cursor_visible = val->boolean;
		mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_CURSORBLINK:
		p->props.cursor_blink = val->boolean;
		mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_CURSORSHAPE:
		if (val->number >= LZ_CURSOR_BLOCK &&
		    val->number <= LZ_CURSOR_BAR)
			p->props.cursor_shape = val->number;
		mark(p, LZ_PANE_DIRTY_CURSOR);
		break;
	case VTERM_PROP_ALTSCREEN:
		switch_screen(p, val->boolean != 0);
		break;
	case VTERM_PROP_REVERSE:
		p->props.reverse = val->boolean;
		mark_rows(p, 0, p->rows);
		mark(p, LZ_PANE_DIRTY_PROPS);
		break;
	default:
		/* Title: the guard takes OSC. Mouse: the guard tracks it. */
		break;
	}
	return 1;
}

static int
cb_bell(void *user)
{
	struct lz_pane *p = user;

	p->props.bells++;
	mark(p, LZ_PANE_DIRTY_BELL);
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
	/* DECDWL/DECDHL lines are drawn at normal size. */
	(void)row;
	(void)newinfo;
	(void)oldinfo;
	(void)user;
	return 1;
}

/* Writing to libvterm. */

/* Puts the cursor back on the screen if a restore left it outside. */
static void
clamp_cursor(struct lz_pane *p)
{
	VTermPos pos;
	char cup[32];
	int n;

	vterm_state_get_cursorpos(p->vts, &pos);
	if (pos.row >= 0 && pos.row < p->rows && pos.col >= 0 &&
	    pos.col < p->cols)
		return;
	n = snprintf(cup, sizeof cup, "\033[%d;%dH",
	    pos.row < 0 ? 1 : pos.row >= p->rows ? p->rows : pos.row + 1,
	    pos.col < 0 ? 1 : pos.col >= p->cols ? p->cols : pos.col + 1);
	if (n > 0 && (size_t)n < sizeof cup)
		vterm_input_write(p->vt, cup, (size_t)n);
}

static void
vwrite(struct lz_pane *p, const char *s, size_t n)
{
	size_t k;

	while (n > 0) {
		k = n < LZ_PANE_WRITE_MAX ? n : LZ_PANE_WRITE_MAX;
		vterm_input_write(p->vt, s, k);
		s += k;
		n -= k;
	}
}

/* Writes the pending segment up to (not including) end. */
static void
flush_to(struct lz_pane *p, size_t end)
{
	if (end > p->fseg)
		vwrite(p, p->fbuf + p->fseg, end - p->fseg);
	if (end > p->fseg)
		p->fseg = end;
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

/* The guard. */

/*
 * Bytes the guard passes untouched in the ground state with no partial
 * character: 1 for C0 controls libvterm executes (all but CAN, SUB, ESC)
 * and DEL, 2 for printable ASCII (which ends a run of combining marks).
 */
static const unsigned char g_plain[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
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
		if (cp < 0x80) {
			enc[0] = (unsigned char)cp;
			k = 1;
		} else if (cp < 0x800) {
			enc[0] = (unsigned char)(0xc0 | cp >> 6);
			enc[1] = (unsigned char)(0x80 | (cp & 0x3f));
			k = 2;
		} else if (cp < 0x10000) {
			enc[0] = (unsigned char)(0xe0 | cp >> 12);
			enc[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
			enc[2] = (unsigned char)(0x80 | (cp & 0x3f));
			k = 3;
		} else {
			enc[0] = (unsigned char)(0xf0 | cp >> 18);
			enc[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
			enc[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
			enc[3] = (unsigned char)(0x80 | (cp & 0x3f));
			k = 4;
		}
		if (o + k > LZ_PANE_TITLE_MAX)
			break;
		memcpy(p->title + o, enc, k);
		o += k;
	}
	p->title[o] = '\0';
	mark(p, LZ_PANE_DIRTY_PROPS);
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

/* A string ended (ST or BEL) at byte i, which is left out. */
static void
string_done(struct lz_pane *p, size_t i)
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
		else
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
		vterm_input_write(p->vt, dcs, p->str_len + 4);
		break;
	case G_STR_IGNORE:
		p->props.dropped_strings++;
		break;
	}
}

static void
string_drop(struct lz_pane *p)
{
	p->props.dropped_strings++;
	p->gs = G_GROUND;
}

/* Cancels the CSI or ESC libvterm is in, leaving byte i out. */
static void
cancel_at(struct lz_pane *p, size_t i)
{
	skip_byte(p, i);
	vterm_input_write(p->vt, "\030", 1);
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

/* A whole character cp ends at byte i: pass it, or cut it. */
static void
u8_done(struct lz_pane *p, size_t i, uint32_t cp)
{
	int drop = 0;

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
	if (cp >= 0x80 && cp < 0xa0)
		drop = 1;		/* C1 control: libvterm's width is -1 */
	else if (comb_known(p, cp)) {
		if (++p->comb_run > LZ_PANE_COMBINE_RUN)
			drop = 1;
	} else
		p->comb_run = 0;
	if (drop) {
		if (p->u8nheld == 0)
			flush_to(p, p->u8start);
		p->fseg = i + 1;
	} else if (p->u8nheld > 0) {
		/* Its first bytes came in an earlier feed: they go first. */
		vwrite(p, (const char *)p->u8held, (size_t)p->u8nheld);
	}
	p->u8nheld = 0;
	p->u8need = 0;
}

static void
ground_byte(struct lz_pane *p, size_t i, unsigned char c)
{
	if (c >= 0x80 && c < 0xc0) {
		if (p->u8need == 0) {
			p->comb_run = 0;	/* libvterm shows U+FFFD */
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
		p->comb_run = 0;
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
		p->comb_run = 0;
		return;
	}
	p->u8total = p->u8need + 1;
}

static void
csi_modes(struct lz_pane *p, int set)
{
	int k;
	long m;

	for (k = 0; k <= p->csi_argi && k <= G_CSI_SEP_MAX; k++) {
		m = p->csi_args[k];
		switch (m) {
		case 1:
			p->props.app_cursor = set;
			break;
		case 66:
			p->props.app_keypad = set;
			break;
		case 69:
			p->lrmm = set;
			continue;
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
			continue;
		}
		mark(p, LZ_PANE_DIRTY_PROPS);
	}
}

/*
 * libvterm 0.1.4 acts on the first mode of a DECSET/DECRST only
 * (CSI ? 12 ; 25 h leaves the cursor hidden): the CSI ending at byte i is
 * taken back and each mode written as a sequence of its own.
 */
static void
modes_one_by_one(struct lz_pane *p, size_t i, unsigned char c)
{
	char seq[24];
	int k, n;

	cancel_at(p, i);
	for (k = 0; k <= p->csi_argi && k <= G_CSI_SEP_MAX; k++) {
		if (p->csi_args[k] < 0)
			continue;
		n = snprintf(seq, sizeof seq, "\033[?%ld%c", p->csi_args[k], c);
		vterm_input_write(p->vt, seq, (size_t)n);
	}
}

/* The final byte of a CSI is byte i. */
static void
csi_final(struct lz_pane *p, size_t i, unsigned char c)
{
	p->gs = G_GROUND;
	if (c == 'b' && p->csi_nleader == 0 && p->csi_ninter == 0) {
		/*
		 * REP repeats the last glyph by stepping its width: libvterm
		 * 0.1.4 loops forever when that is 0 (before any text, or
		 * after a lone combining mark). Write what came before, so
		 * last_width is libvterm's.
		 */
		flush_to(p, i);
		if (p->last_width <= 0) {
			p->props.cancelled_csi++;
			cancel_at(p, i);
			return;
		}
	}
	if (p->csi_leader == '?' && p->csi_nleader == 1 &&
	    p->csi_ninter == 0 && (c == 'h' || c == 'l')) {
		csi_modes(p, c == 'h');
		if (p->csi_argi > 0)
			modes_one_by_one(p, i, c);
		/* ?1048l and ?1049l restore the cursor. */
		sync_after(p, i);
	} else if (p->csi_nleader == 0 && p->csi_ninter == 1 &&
	    p->csi_inter == '!' && c == 'p') {
		p->props.app_cursor = 0;	/* DECSTR */
		p->props.app_keypad = 0;
		p->lrmm = 0;
		mark(p, LZ_PANE_DIRTY_PROPS);
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
 * DECALN (ESC # 8) at byte i fills the screen through putglyph but leaves
 * libvterm's last glyph (what REP repeats) as it was: keep last_width in
 * step, or a REP after it would pass the guard with libvterm's width
 * still 0 and loop forever.
 */
static void
decaln(struct lz_pane *p, size_t i)
{
	int w;

	flush_to(p, i);		/* the text before it sets last_width */
	w = p->last_width;
	flush_to(p, i + 1);
	p->last_width = w;
}

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
		if (p->esc_ninter++ == 0)
			p->esc_inter = c;
		return;
	}
	if (c >= 0x30 && c < 0x7f) {
		p->gs = G_GROUND;
		if (p->esc_ninter == 1 && p->esc_inter == '#' && c == '8')
			decaln(p, i);
		if (p->esc_ninter != 0)
			return;
		if (c == 'c') {
			/* RIS: libvterm resets but keeps the alternate screen. */
			flush_to(p, i);
			switch_screen(p, 0);
			guard_reset_modes(p);
			mark(p, LZ_PANE_DIRTY_PROPS);
			sync_after(p, i);
		} else if (c == '8')
			sync_after(p, i);	/* DECRC */
		else if (c == '=' || c == '>') {
			p->props.app_keypad = c == '=';
			mark(p, LZ_PANE_DIRTY_PROPS);
		}
	}
	/* Other bytes: libvterm stays in its escape state, and so do we. */
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
				string_done(p, i);
			else
				skip_byte(p, i);
			return;
		case G_STRING_ESC:
			skip_byte(p, i);
			return;
		default:
			return;		/* libvterm executes it in place */
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
		if (c >= 0x3c && c <= 0x3f) {
			if (p->csi_nleader++ == 0)
				p->csi_leader = c;
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
			return;
		}
		p->gs = G_CSI_INTERMED;
		/* FALLTHROUGH */
	case G_CSI_INTERMED:
		if (c >= 0x20 && c <= 0x2f) {
			if (p->csi_ninter++ == 0)
				p->csi_inter = c;
			return;
		}
		if (c >= 0x40 && c <= 0x7e) {
			csi_final(p, i, c);
			return;
		}
		p->gs = G_GROUND;	/* invalid: libvterm drops the CSI */
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
			string_done(p, i);
			return;
		}
		/* ESC and another byte: a new escape sequence. */
		string_drop(p);
		flush_to(p, i);
		vterm_input_write(p->vt, "\033", 1);
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
 * Skips from byte i the bytes the guard leaves alone in the ground state
 * (text and the C0 controls libvterm executes in place), so text costs a
 * table look-up a byte. Stops at the first byte the guard must see, or
 * where the pending write reaches LZ_PANE_WRITE_MAX; returns where.
 */
/*
 * A whole CSI at u[i] (ESC [) before end that the guard has nothing to do
 * with: no leader, no intermediate, no control inside, parameters within
 * libvterm's limits, and a final byte other than REP's. Returns the index
 * past it, or i when the guard must see it byte by byte.
 */
static size_t
csi_plain(const unsigned char *u, size_t i, size_t end)
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
	if (j == end || u[j] < 0x40 || u[j] > 0x7e || u[j] == 'b')
		return i;
	return j + 1;
}

/*
 * Skips from byte i the bytes the guard leaves alone in the ground state:
 * text, the C0 controls libvterm executes in place and plain CSIs (SGR,
 * cursor moves), so the usual output costs a table look-up a byte. Stops
 * at the first byte the guard must see, or where the pending write
 * reaches LZ_PANE_WRITE_MAX; returns where.
 */
static size_t
ground_run(struct lz_pane *p, const unsigned char *u, size_t i, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	size_t end = p->fseg + LZ_PANE_WRITE_MAX, text = 0, j;
	uint64_t w;
	unsigned char k;

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
			k = g_plain[u[i]];
			if (k == 0)
				break;
			text |= k & 2;
		}
		if (i == end || u[i] != 0x1b || (j = csi_plain(u, i, end)) == i)
			break;
		i = j;
	}
	if (text)
		p->comb_run = 0;	/* as ground_byte does for text */
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

/*
 * libvterm 0.1.4 clamps only the bottom and right margins on resize, so a
 * shrink can leave top below bottom (a negative memmove in its scroll).
 * Reset both margins, keeping the cursor, as xterm does on resize.
 */
static void
reset_margins(struct lz_pane *p)
{
	VTermPos pos;
	char seq[64];
	int n;

	if (p->gs >= G_ESC && p->gs <= G_CSI_INTERMED) {
		/* A sequence split around the resize is lost. */
		vterm_input_write(p->vt, "\030", 1);
		p->gs = G_GROUND;
	}
	vterm_state_get_cursorpos(p->vts, &pos);
	n = snprintf(seq, sizeof seq, "\033[r\033[?69h\033[s\033[?69%c\033[%d;%dH",
	    p->lrmm ? 'h' : 'l', pos.row + 1, pos.col + 1);
	if (n > 0 && (size_t)n < sizeof seq)
		vterm_input_write(p->vt, seq, (size_t)n);
}

void
lz_pane_resize(struct lz_pane *p, unsigned urows, unsigned ucols)
{
	unsigned was_dirty = p->dirty;
	struct lz_cell *line;
	int rows = (int)clampu(urows, 1, LZ_PANE_MAX_ROWS);
	int cols = (int)clampu(ucols, 1, LZ_PANE_MAX_COLS);
	int prow, drop_p, drop_a, pulled = 0, k, old_rows, old_cols;

	if (rows == p->rows && cols == p->cols)
		return;
	/* The primary screen's cursor: the live one or the saved one. */
	prow = p->alt ? p->saved_row : p->props.cursor_row;
	drop_p = rows < p->rows && prow >= rows ? prow + 1 - rows : 0;
	drop_a = rows < p->rows && p->props.cursor_row >= rows ?
	    p->props.cursor_row + 1 - rows : 0;
	lz_grid_resize(&p->scr[0], rows, cols, drop_p, sb_out, p);
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
				if (lz_sb_pop(&p->sb, line, cols) != 0)
					LZ_BUG("scrollback shorter than counted");
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
	if (p->saved_row < 0)
		p->saved_row = 0;
	if (p->saved_row >= rows)
		p->saved_row = rows - 1;
	if (p->saved_col >= cols)
		p->saved_col = cols - 1;
	old_rows = p->rows;
	old_cols = p->cols;
	p->rows = rows;
	p->cols = cols;
	vterm_set_size(p->vt, rows, cols);
	p->resize_delta.row = 0;
	if (rows < old_rows || cols < old_cols)
		reset_margins(p);
	memset(p->rowdirty, 0, sizeof p->rowdirty);
	mark_rows(p, 0, rows);
	mark(p, LZ_PANE_DIRTY_CURSOR | LZ_PANE_DIRTY_PROPS);
	after_input(p, was_dirty);
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

/* Serialising. */

static void
sgr_color(struct lz_buf *out, uint32_t c, int bg)
{
	uint32_t v = c & 0xffffff;

	switch (LZ_COLOR_KIND(c)) {
	case LZ_COLOR_KIND_INDEXED:
		if (v < 8)
			lz_buf_addf(out, ";%u", (bg ? 40 : 30) + v);
		else if (v < 16)
			lz_buf_addf(out, ";%u", (bg ? 100 : 90) + v - 8);
		else
			lz_buf_addf(out, ";%d;5;%u", bg ? 48 : 38, v);
		break;
	case LZ_COLOR_KIND_RGB:
		lz_buf_addf(out, ";%d;2;%u;%u;%u", bg ? 48 : 38, v >> 16,
		    v >> 8 & 0xff, v & 0xff);
		break;
	default:
		break;
	}
}

void
lz_pane_sgr(struct lz_buf *out, uint32_t fg, uint32_t bg, uint16_t attr)
{
	static const char *const ul[] = { "", ";4", ";4:2", ";4:3" };

	lz_buf_adds(out, "\033[0");
	if (attr & LZ_ATTR_BOLD)
		lz_buf_adds(out, ";1");
	if (attr & LZ_ATTR_ITALIC)
		lz_buf_adds(out, ";3");
	lz_buf_adds(out, ul[LZ_ATTR_UNDERLINE(attr)]);
	if (attr & LZ_ATTR_BLINK)
		lz_buf_adds(out, ";5");
	if (attr & LZ_ATTR_REVERSE)
		lz_buf_adds(out, ";7");
	if (attr & LZ_ATTR_STRIKE)
		lz_buf_adds(out, ";9");
	sgr_color(out, fg, 0);
	sgr_color(out, bg, 1);
	lz_buf_addch(out, 'm');
}

struct rpen {
	uint32_t fg, bg;
	uint16_t attr;
};

static void
rpen_set(struct lz_buf *out, struct rpen *cur, uint32_t fg, uint32_t bg,
    uint16_t attr)
{
	attr &= (uint16_t)~LZ_ATTR_PROTECTED;
	if (cur->fg == fg && cur->bg == bg && cur->attr == attr)
		return;
	lz_pane_sgr(out, fg, bg, attr);
	cur->fg = fg;
	cur->bg = bg;
	cur->attr = attr;
}

static int
plain_blank(const struct lz_cell *c)
{
	return c->ch[0] == 0 && c->bg == 0;
}

static void
render_grid(const struct lz_grid *g, struct lz_buf *out)
{
	const struct lz_cell *r, *c;
	struct rpen pen = { 0, 0, 0 };
	int y, x, end, n, k;

	lz_buf_adds(out, "\033[0m\033[H\033[2J");
	for (y = 0; y < g->rows; y++) {
		r = g->row[y];
		end = g->cols;
		while (end > 0 && plain_blank(&r[end - 1]))
			end--;
		if (end == 0)
			continue;
		lz_buf_addf(out, "\033[%d;1H", y + 1);
		for (x = 0; x < end; x++) {
			c = &r[x];
			if (c->ch[0] == 0) {
				/* A run of blanks: skip it, or erase it. */
				for (n = 1; x + n < end && r[x + n].ch[0] == 0 &&
				    r[x + n].bg == c->bg; n++)
					;
				if (c->bg != 0) {
					rpen_set(out, &pen, 0, c->bg, 0);
					lz_buf_addf(out, "\033[%dX", n);
				}
				lz_buf_addf(out, "\033[%dC", n);
				x += n - 1;
				continue;
			}
			if (c->ch[0] == LZ_CELL_CONT)
				continue;
			rpen_set(out, &pen, c->fg, c->bg, c->attr);
			for (k = 0; k < LZ_CELL_CHARS && c->ch[k] != 0; k++)
				lz_buf_add_utf8(out, c->ch[k]);
		}
	}
}

static void
dec_mode(struct lz_buf *out, int mode, int on)
{
	lz_buf_addf(out, "\033[?%d%c", mode, on ? 'h' : 'l');
}

void
lz_pane_render_ansi(const struct lz_pane *p, struct lz_buf *out)
{
	const struct lz_pane_props *pr = &p->props;
	int shape;

	lz_buf_adds(out, "\033[?1049l");
	render_grid(&p->scr[0], out);
	if (p->alt) {
		lz_buf_addf(out, "\033[0m\033[%d;%dH\033[?1049h",
		    p->saved_row + 1, p->saved_col + 1);
		render_grid(&p->scr[1], out);
	}
	dec_mode(out, 1, pr->app_cursor);
	lz_buf_adds(out, pr->app_keypad ? "\033=" : "\033>");
	dec_mode(out, 5, pr->reverse);
	dec_mode(out, 2004, pr->bracketed_paste);
	dec_mode(out, 1000, 0);
	if (pr->mouse != LZ_MOUSE_NONE)
		dec_mode(out, pr->mouse, 1);
	dec_mode(out, 1006, 0);
	if (pr->mouse_enc != LZ_MOUSE_ENC_X10)
		dec_mode(out, pr->mouse_enc, 1);
	dec_mode(out, 1004, pr->focus_events);
	shape = pr->cursor_shape == LZ_CURSOR_UNDERLINE ? 3 :
	    pr->cursor_shape == LZ_CURSOR_BAR ? 5 : 1;
	lz_buf_addf(out, "\033[%d q", shape + (pr->cursor_blink ? 0 : 1));
	dec_mode(out, 25, pr->cursor_visible);
	lz_buf_addf(out, "\033[%d;%dH", pr->cursor_row + 1,
	    pr->cursor_col + 1);
	lz_pane_sgr(out, p->pen.fg, p->pen.bg, p->pen.attr);
}
