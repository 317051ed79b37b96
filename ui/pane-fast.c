/*
 * pane-fast.c: the pane's fast path (pane.h, lz_pane_set_fast). In the
 * ground state it takes what programs write most itself: text (UTF-8,
 * wide characters, marks that join the last glyph), the C0 controls, SGR,
 * the cursor moves, EL, ED, ECH, IL, DL, ICH, DCH, SU, SD, IND, NEL, RI
 * and ?25 and ?2026. Each is done with libvterm 0.1.4's own rules (state.c
 * and pen.c: the cursor, the pending wrap, line feeds in the scroll
 * region, the clamping after a CSI, the order of its callbacks) through
 * the same callbacks libvterm calls (pane.c), so the grid, the scrollback
 * and the pane's records come out as if libvterm had read the bytes;
 * tests/fuzz/fuzz-fast.c holds it to that. libvterm does not see these
 * bytes: what it keeps of them (cursor, pending wrap, last glyph, pen,
 * cursor visibility) is marked stale (G_STALE_*) and brought up to date
 * by lz_pane_vt_sync before it next reads one. Anything else (strings,
 * other escape sequences, modes, a mark that joins nothing, malformed
 * UTF-8, a sequence cut by the end of the feed) stops the fast path at
 * its first byte, for the guard and libvterm. So does a state the fast
 * path does not model (lz_pane_fast_ok): insert, origin and DECLRMM
 * modes, DECSCA, a character set other than ASCII or UTF-8 or a single
 * shift, double-width lines, a restore, a pane under four columns.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "ui/grid.h"
#include "ui/pane-int.h"
#include "ui/pane.h"
#include "ui/vtchar.h"

/* libvterm's cursor as the fast path moves it. */
struct fpos {
	int row, col;
};

/* A CSI: parameters as libvterm's parser has them (-1: missing). */
struct fcsi {
	long arg[G_CSI_SEP_MAX + 1];
	int nargs;
	int leader;		/* 0 or '?' */
	unsigned char final;
};

int
lz_pane_fast_ok(const struct lz_pane *p)
{
	char set = p->t.gset[p->t.gl];

	return !p->fast_off && !p->restoring && !p->hidden &&
	    p->t.fastmax != 0 && !p->t.insert && !p->t.origin &&
	    !p->t.lrmm && !p->t.protect && p->t.ss == 0 &&
	    (set == 'u' || set == 'B') && p->cols >= 4;
}

/*
 * libvterm's updatecursor: the cursor is not where libvterm last said.
 * Its pending wrap goes with the move (lz_pane_cb_movecursor).
 */
static void
moved(struct lz_pane *p, const struct fpos *f)
{
	VTermPos pos, old;

	if (f->row == p->t.vrow && f->col == p->t.vcol)
		return;
	pos.row = f->row;
	pos.col = f->col;
	old.row = p->t.vrow;
	old.col = p->t.vcol;
	p->vstale |= G_STALE_POS;
	lz_pane_cb_movecursor(pos, old, p->props.cursor_visible, p);
}

/* vterm_scroll_rect: a rectangle moved by moverect, the rest erased. */
static void
scroll_rect(struct lz_pane *p, VTermRect r, int down, int right)
{
	VTermRect src, dest;

	if (abs(down) >= r.end_row - r.start_row ||
	    abs(right) >= r.end_col - r.start_col) {
		lz_pane_cb_erase(r, 0, p);
		return;
	}
	if (right >= 0) {
		dest.start_col = r.start_col;
		dest.end_col = r.end_col - right;
		src.start_col = r.start_col + right;
		src.end_col = r.end_col;
	} else {
		dest.start_col = r.start_col - right;
		dest.end_col = r.end_col;
		src.start_col = r.start_col;
		src.end_col = r.end_col + right;
	}
	if (down >= 0) {
		dest.start_row = r.start_row;
		dest.end_row = r.end_row - down;
		src.start_row = r.start_row + down;
		src.end_row = r.end_row;
	} else {
		dest.start_row = r.start_row - down;
		dest.end_row = r.end_row;
		src.start_row = r.start_row;
		src.end_row = r.end_row + down;
	}
	lz_pane_cb_moverect(dest, src, p);
	if (down > 0)
		r.start_row = r.end_row - down;
	else if (down < 0)
		r.end_row = r.start_row - down;
	if (right > 0)
		r.start_col = r.end_col - right;
	else if (right < 0)
		r.end_col = r.start_col - right;
	lz_pane_cb_erase(r, 0, p);
}

/* libvterm's scroll() (no line is double width: lineinfo stays zero). */
static void
scroll(struct lz_pane *p, VTermRect r, int down, int right)
{
	int rows = r.end_row - r.start_row, cols = r.end_col - r.start_col;

	if (down == 0 && right == 0)
		return;
	if (down > rows)
		down = rows;
	else if (down < -rows)
		down = -rows;
	if (right > cols)
		right = cols;
	else if (right < -cols)
		right = -cols;
	if (!lz_pane_cb_scrollrect(r, down, right, p))
		scroll_rect(p, r, down, right);
}

static int
region_bottom(const struct lz_pane *p)
{
	return p->t.bottom > -1 ? p->t.bottom : p->rows;
}

/* The scroll region's rows, full width. */
static VTermRect
region(const struct lz_pane *p)
{
	VTermRect r;

	r.start_row = p->t.top;
	r.end_row = region_bottom(p);
	r.start_col = 0;
	r.end_col = p->cols;
	return r;
}

static void
linefeed(struct lz_pane *p, struct fpos *f)
{
	if (f->row == region_bottom(p) - 1)
		scroll(p, region(p), 1, 0);
	else if (f->row < p->rows - 1)
		f->row++;
}

/* Puts a glyph of width w (chars ends with 0) where the cursor is. */
static void
put(struct lz_pane *p, struct fpos *f, const uint32_t *chars, int w)
{
	VTermGlyphInfo info;
	VTermPos pos;

	memset(&info, 0, sizeof info);
	info.chars = chars;
	info.width = w;
	pos.row = f->row;
	pos.col = f->col;
	lz_pane_cb_putglyph(&info, pos, p);
	if (f->col + w < p->cols)
		f->col += w;
}

/*
 * One glyph of width w, as libvterm's on_text puts it: a pending wrap or
 * no room left wraps first; the cursor stays on a glyph that reaches the
 * row's end (the pane's record of the pending wrap is set by the
 * callback, and read by it at the next glyph).
 */
static void
glyph(struct lz_pane *p, struct fpos *f, const uint32_t *chars, int w)
{
	int edge = 0;

	if (lz_pane_wrap(p) || (p->t.autowrap && f->col + w > p->cols)) {
		linefeed(p, f);
		f->col = 0;
	} else if (!p->t.autowrap) {
		moved(p, f);
		if ((edge = lz_pane_nowrap_edge(p, w)) == 1)
			return;		/* it does not fit: dropped */
	}
	put(p, f, chars, w);
	if (edge == 2)
		f->col = p->cols - 1;
}

/*
 * A run of printable ASCII from u[i]: glyph() for each. After the first
 * glyph of a row (put(): the callback's soft-wrap record), what follows
 * on the row is written at once (lz_grid_put_ascii) and only its last
 * glyph recorded, which is all libvterm keeps: no glyph before the last
 * column sets the pending wrap (wrapcol is cols - 1 or none). The cursor
 * stays in registers (f is written only around calls that take it).
 * Returns the index past the run.
 */
static size_t
ascii_run(struct lz_pane *p, struct fpos *f, const unsigned char *u,
    size_t i, size_t len)
{
	struct lz_grid *g = &p->scr[p->alt];
	int row = f->row, col = f->col, cols = p->cols, k, m;
	uint32_t ch[2];
	VTermPos pos;

	do {
		if (lz_pane_wrap(p)) {
			f->row = row;
			linefeed(p, f);
			row = f->row;
			col = 0;
		}
		m = len - i < (size_t)(cols - col) ? (int)(len - i) :
		    cols - col;
		if (col == 0 || (k = lz_grid_put_ascii(g, row, col, u + i, m,
		    &p->pen)) == 0) {
			ch[0] = u[i];
			ch[1] = 0;
			f->row = row;
			f->col = col;
			put(p, f, ch, 1);
			col = f->col;
			continue;
		}
		col += k - 1;
		i += (size_t)k - 1;
		pos.row = row;
		pos.col = col;
		lz_pane_fast_glyph(p, u[i], pos);
		if (col + 1 < cols)
			col++;
	} while (++i < len && u[i] >= 0x20 && u[i] < 0x7f);
	f->row = row;
	f->col = col;
	return i;
}

/*
 * The well-formed UTF-8 character at u[i] libvterm decodes as itself:
 * its length, with the code point in *cp; 0 for anything else (cut by
 * the end, malformed, overlong, a surrogate, U+FFFE, U+FFFF, past
 * U+10FFFF), which the guard takes.
 */
static size_t
utf8(const unsigned char *u, size_t i, size_t len, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned char c = u[i];
	size_t n, k;
	uint32_t v;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n > len - i)
		return 0;
	v = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
	for (k = 1; k < n; k++) {
		if ((u[i + k] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (u[i + k] & 0x3f);
	}
	if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ||
	    v == 0xfffe || v == 0xffff)
		return 0;
	*cp = v;
	return n;
}

/*
 * A combining mark: joined to the last glyph when the cursor stands right
 * after it (pane.c u8_mark, the guard's own join); 0 when it joins
 * nothing (libvterm makes it a glyph of its own).
 */
static int
join(struct lz_pane *p, uint32_t cp)
{
	struct g_glyph *g = &p->t.lg;

	if (!lz_pane_joins(p))
		return 0;
	if (g->nch < G_GLYPH_CHARS)
		g->ch[g->nch++] = cp;
	lz_pane_put_chars(p, g->ch, g->nch, g->width, g->row, g->col,
	    p->t.protect);
	return 1;
}

/*
 * A CSI at u[i] (ESC [) the fast path may take: no intermediate, no
 * control inside, no colon, no leader but '?', parameters within
 * libvterm's limits (the guard cancels the others). Returns the index
 * past it, or i.
 */
static size_t
csi_parse(const unsigned char *u, size_t i, size_t len, struct fcsi *c)
{
	size_t j = i + 2;
	int ndigit = 0;
	long *a;

	c->leader = 0;
	if (j < len && u[j] == '?') {
		c->leader = '?';
		j++;
	}
	c->nargs = 1;
	c->arg[0] = -1;
	for (; j < len; j++) {
		if (u[j] >= '0' && u[j] <= '9') {
			if (++ndigit > G_CSI_DIGIT_MAX)
				return i;
			a = &c->arg[c->nargs - 1];
			*a = (*a < 0 ? 0 : *a * 10) + (u[j] - '0');
		} else if (u[j] == ';') {
			if (c->nargs > G_CSI_SEP_MAX)
				return i;
			c->arg[c->nargs++] = -1;
			ndigit = 0;
		} else
			break;
	}
	if (j == len || u[j] < 0x40 || u[j] > 0x7e)
		return i;
	c->final = u[j];
	return j + 1;
}

/* libvterm's CSI_ARG_COUNT and CSI_ARG_OR. */
static long
count(const struct fcsi *c, int k)
{
	return k >= c->nargs || c->arg[k] <= 0 ? 1 : c->arg[k];
}

static long
arg_or(const struct fcsi *c, int k, long def)
{
	return k >= c->nargs || c->arg[k] < 0 ? def : c->arg[k];
}

/* An extended colour (38 or 48 at c->arg[*k]); 0: not one the path takes. */
static int
sgr_color(const struct fcsi *c, int *k, uint32_t *col)
{
	const long *a = c->arg + *k;
	int left = c->nargs - *k;

	if (left >= 3 && a[1] == 5 && a[2] >= 0) {
		*col = LZ_COLOR_INDEXED(a[2]);
		*k += 2;
		return 1;
	}
	if (left >= 5 && a[1] == 2 && a[2] >= 0 && a[3] >= 0 && a[4] >= 0) {
		*col = LZ_COLOR_RGB(a[2], a[3], a[4]);
		*k += 4;
		return 1;
	}
	return 0;
}

/*
 * SGR as pen.c's vterm_state_setpen and the pane's setpenattr make it.
 * A code vterm_state_setpen has no case for (faint, conceal, overline,
 * underline colours, ...) changes nothing there and is skipped alone (a
 * CSI with a colon, whose subparameters it would skip with it, is left to
 * libvterm: csi_parse). The link (OSC 8) stays. 0: not taken (an
 * extended colour the path does not read), the pen untouched.
 */
static int
sgr(struct lz_pane *p, const struct fcsi *c)
{
	const uint16_t reset = LZ_ATTR_BOLD | LZ_ATTR_ITALIC | LZ_ATTR_BLINK |
	    LZ_ATTR_REVERSE | LZ_ATTR_STRIKE | LZ_ATTR_UL_MASK;
	struct lz_pen pen = p->pen;
	int k, font = p->font;
	long a;

	for (k = 0; k < c->nargs; k++) {
		a = c->arg[k];
		if (a >= 30 && a <= 37)
			pen.fg = LZ_COLOR_INDEXED(a - 30);
		else if (a >= 40 && a <= 47)
			pen.bg = LZ_COLOR_INDEXED(a - 40);
		else if (a >= 90 && a <= 97)
			pen.fg = LZ_COLOR_INDEXED(a - 90 + 8);
		else if (a >= 100 && a <= 107)
			pen.bg = LZ_COLOR_INDEXED(a - 100 + 8);
		else {
			switch (a) {
			case -1:
			case 0:
				pen.attr &= (uint16_t)~reset;
				pen.fg = LZ_COLOR_DEFAULT;
				pen.bg = LZ_COLOR_DEFAULT;
				font = 0;
				break;
			case 1:
				pen.attr |= LZ_ATTR_BOLD;
				break;
			case 3:
				pen.attr |= LZ_ATTR_ITALIC;
				break;
			case 4:
			case 21:
				pen.attr = (uint16_t)((pen.attr &
				    ~LZ_ATTR_UL_MASK) | (a == 4 ? 1 : 2) <<
				    LZ_ATTR_UL_SHIFT);
				break;
			case 5:
				pen.attr |= LZ_ATTR_BLINK;
				break;
			case 7:
				pen.attr |= LZ_ATTR_REVERSE;
				break;
			case 9:
				pen.attr |= LZ_ATTR_STRIKE;
				break;
			case 22:
				pen.attr &= (uint16_t)~LZ_ATTR_BOLD;
				break;
			case 23:
				pen.attr &= (uint16_t)~LZ_ATTR_ITALIC;
				break;
			case 24:
				pen.attr &= (uint16_t)~LZ_ATTR_UL_MASK;
				break;
			case 25:
				pen.attr &= (uint16_t)~LZ_ATTR_BLINK;
				break;
			case 27:
				pen.attr &= (uint16_t)~LZ_ATTR_REVERSE;
				break;
			case 29:
				pen.attr &= (uint16_t)~LZ_ATTR_STRIKE;
				break;
			case 38:
				if (!sgr_color(c, &k, &pen.fg))
					return 0;
				break;
			case 39:
				pen.fg = LZ_COLOR_DEFAULT;
				break;
			case 48:
				if (!sgr_color(c, &k, &pen.bg))
					return 0;
				break;
			case 49:
				pen.bg = LZ_COLOR_DEFAULT;
				break;
			default:
				if (a >= 10 && a <= 19)
					font = (int)a - 10;
				break;
			}
		}
	}
	p->pen = pen;
	p->font = font;
	p->vstale |= G_STALE_PEN;
	return 1;
}

/* An erase of row r, columns [c0, c1), when not empty. */
static void
erase_row(struct lz_pane *p, int r, int c0, int c1)
{
	VTermRect rect = { .start_row = r, .end_row = r + 1, .start_col = c0,
	    .end_col = c1 };

	if (c1 > c0)
		lz_pane_cb_erase(rect, 0, p);
}

static void
erase_rows(struct lz_pane *p, int r0, int r1)
{
	VTermRect rect = { .start_row = r0, .end_row = r1, .start_col = 0,
	    .end_col = p->cols };

	if (r1 > r0)
		lz_pane_cb_erase(rect, 0, p);
}

/*
 * A cursor move (pos is where libvterm's CSI puts it before clamping);
 * 0 for one the guard must take (a margin is set: xterm's moves).
 */
static int
csi_move(struct lz_pane *p, const struct fcsi *c, struct fpos *f)
{
	switch (c->final) {
	case 'A':
	case 'B':
	case 'C':
	case 'D':
	case 'E':
	case 'F':
	case 'G':
	case '`':
		if (p->t.margined)
			return 0;
		break;
	default:
		break;
	}
	switch (c->final) {
	case 'A':
		f->row -= (int)count(c, 0);
		break;
	case 'B':
	case 'e':
		f->row += (int)count(c, 0);
		break;
	case 'C':
	case 'a':
		f->col += (int)count(c, 0);
		break;
	case 'D':
	case 'j':
		f->col -= (int)count(c, 0);
		break;
	case 'E':
		f->col = 0;
		f->row += (int)count(c, 0);
		break;
	case 'F':
		f->col = 0;
		f->row -= (int)count(c, 0);
		break;
	case 'G':
	case '`':
		f->col = (int)arg_or(c, 0, 1) - 1;
		break;
	case 'H':
	case 'f':
		f->row = (int)arg_or(c, 0, 1) - 1;
		f->col = c->nargs < 2 || c->arg[1] < 0 ? 0 :
		    (int)c->arg[1] - 1;
		break;
	case 'd':
		f->row = (int)arg_or(c, 0, 1) - 1;
		break;
	case 'k':
		f->row -= (int)count(c, 0);
		break;
	default:
		return 0;
	}
	return 1;
}

/* Whether the cursor is in the scroll region (no left/right margins). */
static int
in_region(const struct lz_pane *p, const struct fpos *f)
{
	return f->row >= p->t.top && f->row < region_bottom(p);
}

/* The CSI c: done (1), or left to the guard (0). */
static int
csi(struct lz_pane *p, const struct fcsi *c, struct fpos *f)
{
	VTermRect r;
	VTermValue v;
	long n;
	int moves = 0;

	if (c->leader == '?') {
		if (c->nargs != 1 || (c->final != 'h' && c->final != 'l'))
			return 0;
		if (c->arg[0] == 25) {
			v.boolean = c->final == 'h';
			lz_pane_cb_settermprop(VTERM_PROP_CURSORVISIBLE, &v, p);
			p->vstale |= G_STALE_VISIBLE;
		} else if (c->arg[0] == 2026) {
			/* libvterm 0.1.4 knows no 2026: only the pane records it */
			p->props.sync = c->final == 'h';
			lz_pane_mark(p, LZ_PANE_DIRTY_PROPS);
		} else
			return 0;
		return 1;
	}
	switch (c->final) {
	case 'm':
		return sgr(p, c);
	case 'K':
		switch (arg_or(c, 0, 0)) {
		case 0:
			erase_row(p, f->row, f->col, p->cols);
			break;
		case 1:
			erase_row(p, f->row, 0, f->col + 1);
			break;
		case 2:
			erase_row(p, f->row, 0, p->cols);
			break;
		default:
			break;		/* libvterm ignores it */
		}
		return 1;
	case 'J':
		switch (arg_or(c, 0, 0)) {
		case 0:
			erase_row(p, f->row, f->col, p->cols);
			erase_rows(p, f->row + 1, p->rows);
			break;
		case 1:
			erase_rows(p, 0, f->row);
			erase_row(p, f->row, 0, f->col + 1);
			break;
		case 2:
			erase_rows(p, 0, p->rows);
			break;
		default:
			break;
		}
		return 1;
	case 'X':
		n = count(c, 0);
		erase_row(p, f->row, f->col, n > p->cols - f->col ? p->cols :
		    f->col + (int)n);
		return 1;
	case 'L':
	case 'M':
		if (in_region(p, f)) {
			r = region(p);
			r.start_row = f->row;
			n = count(c, 0);
			scroll(p, r, c->final == 'L' ? -(int)n : (int)n, 0);
		}
		return 1;
	case '@':
	case 'P':
		if (in_region(p, f)) {
			r.start_row = f->row;
			r.end_row = f->row + 1;
			r.start_col = f->col;
			r.end_col = p->cols;
			n = count(c, 0);
			scroll(p, r, 0, c->final == '@' ? -(int)n : (int)n);
		}
		return 1;
	case 'S':
	case 'T':
		n = count(c, 0);
		scroll(p, region(p), c->final == 'S' ? (int)n : -(int)n, 0);
		return 1;
	default:
		if (!csi_move(p, c, f))
			return 0;
		moves = 1;
		break;
	}
	/* on_csi's end: the cursor clamped, then moved. */
	if (f->row < 0)
		f->row = 0;
	if (f->row > p->rows - 1)
		f->row = p->rows - 1;
	if (f->col < 0)
		f->col = 0;
	if (f->col > p->cols - 1)
		f->col = p->cols - 1;
	moved(p, f);
	if (moves) {
		/* libvterm cancels a pending wrap even where it stays. */
		p->t.lg.wrap = 0;
		p->vstale |= G_STALE_POS;
	}
	return 1;
}

/* A C0 control c (not ESC): done (1), or left to the guard (0). */
static int
control(struct lz_pane *p, unsigned char c, struct fpos *f)
{
	switch (c) {
	case 0x07:
		lz_pane_cb_bell(p);
		return 1;
	case 0x08:
		if (f->col > 0)
			f->col--;
		break;
	case 0x09:
		while (f->col < p->cols - 1) {
			f->col++;
			if (lz_pane_tab_at(p, f->col))
				break;
		}
		break;
	case 0x0a:
	case 0x0b:
	case 0x0c:
		linefeed(p, f);
		if (p->t.newline)
			f->col = 0;
		break;
	case 0x0d:
		f->col = 0;
		break;
	case 0x0e:
	case 0x0f:
		return 0;	/* shifts: the guard tracks them */
	default:
		return 1;	/* nothing in libvterm's ground state */
	}
	moved(p, f);
	return 1;
}

/* ESC and a byte (IND, NEL, RI) at u[i]: done (1), or left (0). */
static int
esc(struct lz_pane *p, unsigned char c, struct fpos *f)
{
	switch (c) {
	case 'D':
		linefeed(p, f);
		break;
	case 'E':
		linefeed(p, f);
		f->col = 0;
		break;
	case 'M':
		if (f->row == p->t.top)
			scroll(p, region(p), -1, 0);
		else if (f->row > 0)
			f->row--;
		break;
	default:
		return 0;
	}
	moved(p, f);
	return 1;
}

size_t
lz_pane_fast(struct lz_pane *p, const unsigned char *u, size_t i, size_t len)
{
	struct fpos f = { p->t.vrow, p->t.vcol };
	struct fcsi c;
	uint32_t cp, ch[2];
	size_t n;
	unsigned char b;

	while (i < len) {
		b = u[i];
		if (b >= 0x20 && b < 0x7f) {
			i = ascii_run(p, &f, u, i, len);
			p->vstale |= G_STALE_GLYPH;
			continue;
		}
		if (b >= 0x80) {
			if ((n = utf8(u, i, len, &cp)) == 0)
				break;
			if (cp < 0xa0) {
				/* C1 as UTF-8: the guard drops it */
				moved(p, &f);
			} else if (lz_vtchar_combining(cp)) {
				moved(p, &f);
				if (!join(p, cp))
					break;
			} else {
				ch[0] = cp;
				ch[1] = 0;
				glyph(p, &f, ch, lz_vtchar_wide(cp) ? 2 : 1);
				p->vstale |= G_STALE_GLYPH;
			}
			i += n;
			continue;
		}
		/* Not text: libvterm's text, if any, ends here. */
		moved(p, &f);
		if (b != 0x1b) {
			if (!control(p, b, &f))
				break;
			i++;
			continue;
		}
		if (len - i < 2)
			break;
		if (u[i + 1] != '[') {
			if (!esc(p, u[i + 1], &f))
				break;
			i += 2;
			continue;
		}
		if ((n = csi_parse(u, i, len, &c)) == i || !csi(p, &c, &f))
			break;
		i = n;
	}
	moved(p, &f);
	return i;
}
