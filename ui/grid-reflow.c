/*
 * grid-reflow.c: lz_grid_reflow (grid.h), the rewrap of a screen and its
 * scrollback at a new width, in the scrollback's encoding (grid-int.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/grid.h"
#include "ui/grid-int.h"

/*
 * Reflow (lz_grid_reflow). Lines are rewrapped as they are stored, in the
 * scrollback's encoding: text is copied in runs, a pen record is written
 * where a row starts in the middle of a coloured run or a joined row
 * starts with another pen, and nothing is decoded but the screen's rows at
 * the end. A line that needs no change is copied as it is.
 */

/* A row of the new layout. */
struct rf_row {
	unsigned char *buf;
	size_t len, alloc;
	int ncells, wrap;
};

/* A point being moved: its offset in its line, then its new place. */
struct rf_pt {
	long line;		/* the logical line it is on, -1: not yet seen */
	long off;		/* cells from the line's start */
	long row;		/* its row in the new layout, -1: not yet */
	int col, phantom;
};

struct rf {
	struct lz_sb *sb;	/* the new scrollback */
	int cols, rows;
	/* The last rows made: a ring of the screen's height. */
	struct rf_row *q;
	int qhead, qcount;
	long base;		/* row number of q[qhead] */
	long nout;		/* rows made so far (dropped ones too) */
	long keep;		/* the cursor's row: it stays on the screen */
	struct rf_row cur;	/* the row being made */
	struct lz_pen opn;	/* cur's pen so far */
	struct lz_pen spn;	/* the source line's pen so far */
	int last_w;		/* width of cur's last character */
	/* cur's trailing plain blanks: from byte tail, tailn cells. */
	size_t tail;
	int tailn;
	long line;		/* the logical line being made */
	long cum;		/* its cells in rows already made */
	struct rf_pt *pt;
	int npt;
};

static void
rf_room(struct rf_row *r, size_t n)
{
	if (r->alloc - r->len >= n)
		return;
	r->alloc = r->alloc * 2 > r->len + n ? r->alloc * 2 : r->len + n + 64;
	r->buf = lz_xrealloc(r->buf, r->alloc);
}

/* Before a character of cur: the pen record to the source's pen. */
static void
rf_pen(struct rf *f)
{
	struct lz_cell c;

	if (f->opn.fg == f->spn.fg && f->opn.bg == f->spn.bg &&
	    f->opn.attr == f->spn.attr)
		return;
	c.fg = f->spn.fg;
	c.bg = f->spn.bg;
	c.attr = f->spn.attr;
	rf_room(&f->cur, SB_PEN_MAX);
	f->cur.len += lz_sbi_put_pen(f->cur.buf + f->cur.len, f->opn.fg, f->opn.bg,
	    f->opn.attr, &c);
	f->opn = f->spn;
}

/* The points of the line being made that row n (cur) holds. */
static void
rf_place(struct rf *f, int last)
{
	struct rf_pt *t;
	long col;
	int i;

	for (i = 0; i < f->npt; i++) {
		t = &f->pt[i];
		if (t->line != f->line || t->row >= 0)
			continue;
		col = t->off - f->cum;
		if (col < f->cur.ncells) {
			t->row = f->nout;
			t->col = (int)col;
			t->phantom = 0;
		} else if (last) {
			t->row = f->nout;
			t->phantom = i == 0 && col == f->cur.ncells &&
			    col == f->cols && f->last_w > 0;
			if (t->phantom)
				col -= f->last_w;
			t->col = (int)(col < f->cols ? col : f->cols - 1);
		}
	}
}

/* cur is made (wrap: its line goes on in the next row). */
static void
rf_emit(struct rf *f, int wrap)
{
	struct rf_row *slot, tmp;

	/*
	 * Trailing plain blanks are no text: left out, as a row of the
	 * screen leaves them out when it scrolls into the scrollback.
	 */
	if (f->tailn > 0) {
		f->cur.len = f->tail;
		f->cur.ncells -= f->tailn;
	}
	f->cur.wrap = wrap;
	rf_place(f, !wrap);
	if (f->pt[0].row == f->nout)
		f->keep = f->nout;
	f->cum += f->cur.ncells;
	if (f->qcount < f->rows) {
		slot = &f->q[(f->qhead + f->qcount) % f->rows];
		f->qcount++;
	} else if (f->base < f->keep) {
		/* The oldest waiting row goes to the scrollback. */
		slot = &f->q[f->qhead];
		lz_sbi_push(f->sb, slot->buf, slot->len, slot->ncells,
		    slot->wrap);
		f->qhead = (f->qhead + 1) % f->rows;
		f->base++;
	} else
		slot = NULL;	/* below a screen the cursor tops: dropped */
	if (slot != NULL) {
		tmp = *slot;
		*slot = f->cur;
		f->cur = tmp;
	}
	f->nout++;
	f->cur.len = 0;
	f->cur.ncells = 0;
	f->cur.wrap = 0;
	memset(&f->opn, 0, sizeof f->opn);
	f->last_w = 0;
	f->tailn = 0;
}

/* Room in cur for a character of width w, wrapping if it is full. */
static void
rf_fit(struct rf *f, int w)
{
	if (f->cur.ncells + w > f->cols && f->cur.ncells > 0)
		rf_emit(f, 1);
}

/* Appends bytes s[0..n) holding k cells, the last one w wide. */
static void
rf_add(struct rf *f, const unsigned char *s, size_t n, int k, int w)
{
	if (n == 0)
		return;
	rf_pen(f);
	rf_room(&f->cur, n);
	memcpy(f->cur.buf + f->cur.len, s, n);
	f->cur.len += n;
	f->cur.ncells += k;
	f->last_w = w;
	f->tailn = 0;
}

/* A whole line that fits, as it is (its pen records start from none). */
static void
rf_whole(struct rf *f, const unsigned char *s, size_t n, int k, int w)
{
	memset(&f->spn, 0, sizeof f->spn);
	rf_add(f, s, n, k, w);
}

/* Appends k blanks (at most 255): no character to wrap after. */
static void
rf_blanks(struct rf *f, int k)
{
	unsigned char b[2];
	size_t at, len = lz_sbi_put_blanks(b, k);
	int n;

	rf_pen(f);
	at = f->cur.len;
	n = f->tailn;
	rf_add(f, b, len, k, 0);
	if (f->opn.fg == 0 && f->opn.bg == 0 && f->opn.attr == 0) {
		f->tail = n > 0 ? f->tail : at;
		f->tailn = n + k;
	}
}

/*
 * Adds the run (SB_RUN, SB_RUNRGB) at s[0..len): split where rows end,
 * each piece a run again (one cell: a pen record and the character).
 * Returns its size, 0 when it is cut short.
 */
static size_t
rf_run(struct rf *f, const unsigned char *s, size_t len)
{
	unsigned char hdr[2] = { s[0], 0 };
	unsigned cs = SB_RUN_CS(s[0]);
	size_t es = cs + 1, pos = 2;
	int k, m, room;

	if (len < 2 || (len - 2) / es < s[1])
		return 0;
	for (k = s[1]; k > 0; k -= m) {
		rf_fit(f, 1);
		room = f->cols - f->cur.ncells;
		m = k < room ? k : room;
		if (m == 1) {
			f->spn.fg = lz_sbi_run_color(s + pos, cs);
			rf_add(f, s + pos + cs, 1, 1, 1);
		} else {
			/* The run sets each cell's colour: the rest first. */
			f->spn.fg = f->opn.fg;
			hdr[1] = (unsigned char)m;
			rf_add(f, hdr, 2, 0, 1);
			rf_add(f, s + pos, (size_t)m * es, m, 1);
			f->spn.fg = f->opn.fg = lz_sbi_run_color(s + pos +
			    (size_t)(m - 1) * es, cs);
		}
		pos += (size_t)m * es;
	}
	return pos;
}

/* Skips a code point and the combining ones after it. */
static size_t
rf_char_end(const unsigned char *p, size_t len, size_t pos)
{
	(void)lz_sbi_get_utf8(p, len, &pos);
	while (pos < len && p[pos] == SB_COMB) {
		pos++;
		if (pos < len)
			(void)lz_sbi_get_utf8(p, len, &pos);
	}
	return pos;
}

/* Adds one source row's encoding p[0..len) to the line being made. */
static void
rf_source(struct rf *f, const unsigned char *p, size_t len)
{
	struct lz_pen keep;
	size_t pos = 0, e, n;
	int room, k, w;

	memset(&f->spn, 0, sizeof f->spn);
	while (pos < len) {
		if (p[pos] < 0x80) {
			/* A run of plain ASCII: as much as fits. */
			for (e = pos; e < len && p[e] < 0x80; e++)
				;
			if (e < len && p[e] == SB_COMB)
				e--;	/* the last one has marks */
			if (e > pos) {
				rf_fit(f, 1);
				room = f->cols - f->cur.ncells;
				n = e - pos < (size_t)room ? e - pos :
				    (size_t)room;
				rf_add(f, p + pos, n, (int)n, 1);
				pos += n;
				continue;
			}
		}
		switch (p[pos]) {
		case SB_PEN:
			pos++;
			if (lz_sbi_get_pen(p, len, &pos, &f->spn) != 0)
				return;
			continue;
		case SB_FG:
			if (len - pos < 2)
				return;
			f->spn.fg = LZ_COLOR_INDEXED(p[pos + 1]);
			pos += 2;
			continue;
		case SB_RUN:
		case SB_RUNRGB:
			if ((n = rf_run(f, p + pos, len - pos)) == 0)
				return;
			pos += n;
			continue;
		case SB_BLANK:
			rf_fit(f, 1);
			rf_blanks(f, 1);
			pos++;
			continue;
		case SB_BLANKS:
			if (len - pos < 2)
				return;
			for (k = p[pos + 1]; k > 0; k -= n) {
				rf_fit(f, 1);
				room = f->cols - f->cur.ncells;
				n = k < room ? (size_t)k : (size_t)room;
				rf_blanks(f, (int)n);
			}
			pos += 2;
			continue;
		case SB_COMB:
			/* Cannot start a character: skipped. */
			pos = rf_char_end(p, len, pos + 1);
			continue;
		case SB_WIDE:
			w = 2;
			e = rf_char_end(p, len, pos + 1);
			break;
		default:
			w = 1;
			e = rf_char_end(p, len, pos);
			break;
		}
		if (w > f->cols) {
			/* A wide character in one column: a blank (as erased). */
			keep = f->spn;
			f->spn.fg = 0;
			f->spn.attr = 0;
			rf_fit(f, 1);
			rf_blanks(f, 1);
			f->spn = keep;
		} else {
			rf_fit(f, w);
			rf_add(f, p + pos, e - pos, w, w);
		}
		pos = e;
	}
}

/* The width of the character ending at cells[n - 1]; 0 for a blank. */
static int
last_width(const struct lz_cell *cells, int n)
{
	if (n == 0)
		return 0;
	if (cells[n - 1].ch[0] == LZ_CELL_CONT)
		return n > 1 && cells[n - 2].width == 2 ? 2 : 0;
	return cells[n - 1].ch[0] != 0;
}

/*
 * The points on a source row of ncells cells, which the line being made
 * reached after cum cells: their offsets in the line.
 */
static void
rf_points(struct rf *f, const struct lz_reflow_pt *in, int npt, int row,
    const struct lz_cell *cells, int ncells, int wrap, long cum)
{
	long off;
	int i, col;

	for (i = 0; i < npt; i++) {
		if (in[i].row != row)
			continue;
		col = in[i].col;
		off = col;
		if (i == 0 && in[i].phantom)
			off += cells[col].width == 2 ? 2 : 1;
		if (wrap && off > ncells)
			off = ncells;
		f->pt[i].line = f->line;
		f->pt[i].off = cum + off;
	}
}

void
lz_grid_reflow(struct lz_grid *g, struct lz_sb *sb, int cols,
    struct lz_reflow_pt *pt, int npt)
{
	struct lz_sb old = *sb;
	struct lz_sbline *l;
	struct rf f;
	struct rf_row *r;
	unsigned char *enc = NULL;
	size_t encalloc = 0, n;
	long cum = 0;
	int y, i, ncells, wrap = 0;

	if (cols < 1 || npt < 1)
		LZ_BUG("reflow to %d columns, %d points", cols, npt);
	memset(&f, 0, sizeof f);
	lz_sb_init(sb, old.max_lines, old.max_bytes);
	f.sb = sb;
	f.cols = cols;
	f.rows = g->rows;
	f.q = lz_xcalloc((size_t)g->rows, sizeof *f.q);
	f.keep = LONG_MAX;
	f.pt = lz_xcalloc((size_t)npt, sizeof *f.pt);
	f.npt = npt;
	for (i = 0; i < npt; i++) {
		f.pt[i].line = -1;
		f.pt[i].row = -1;
	}
	/* The scrollback, oldest first, each line freed once read. */
	while (old.count > 0) {
		l = old.ring[old.head];
		if (!wrap)
			cum = 0;
		if (!wrap && !(l->ncells & SB_WRAPPED) &&
		    (int)SB_NCELLS(l) <= cols)
			/* A line that fits as it is. */
			rf_whole(&f, l->data, l->len, (int)SB_NCELLS(l), 1);
		else
			rf_source(&f, l->data, l->len);
		cum += SB_NCELLS(l);
		wrap = (l->ncells & SB_WRAPPED) != 0;
		if (!wrap) {
			rf_emit(&f, 0);
			f.line++;
			f.cum = 0;
		}
		lz_sbi_drop_oldest(&old);
	}
	/* Then the screen. */
	for (y = 0; y < g->rows; y++) {
		if (!wrap)
			cum = 0;
		n = lz_sbi_encode(g->row[y], g->len[y], &enc, &encalloc, &ncells);
		rf_points(&f, pt, npt, y, g->row[y], ncells, g->wrap[y], cum);
		if (!wrap && !g->wrap[y] && ncells <= cols)
			rf_whole(&f, enc, n, ncells, last_width(g->row[y],
			    ncells));
		else
			rf_source(&f, enc, n);
		cum += ncells;
		wrap = g->wrap[y] && y + 1 < g->rows;
		if (!wrap) {
			rf_emit(&f, 0);
			f.line++;
			f.cum = 0;
		}
	}
	/* The screen: the rows waiting, then blank ones. */
	for (y = 0; y < g->rows; y++) {
		g->row[y] = lz_xreallocarray(g->row[y], (size_t)cols,
		    sizeof **g->row);
		if (y < f.qcount) {
			r = &f.q[(f.qhead + y) % f.rows];
			lz_sbi_decode(r->buf, r->len, g->row[y], cols);
			g->len[y] = r->ncells;
			g->wrap[y] = r->wrap && y + 1 < f.qcount;
		} else {
			lz_sbi_blank_plain(g->row[y], cols);
			g->len[y] = 0;
			g->wrap[y] = 0;
		}
	}
	g->cols = cols;
	lz_sbi_enc_drop_all(g);
	for (i = 0; i < npt; i++) {
		pt[i].gone = f.pt[i].row < f.base ||
		    f.pt[i].row >= f.base + g->rows;
		if (f.pt[i].row < 0 || f.pt[i].row < f.base) {
			pt[i].row = 0;
			pt[i].col = 0;
			pt[i].phantom = 0;
		} else if (f.pt[i].row >= f.base + g->rows) {
			pt[i].row = g->rows - 1;
			pt[i].col = f.pt[i].col;
			pt[i].phantom = 0;
		} else {
			pt[i].row = (int)(f.pt[i].row - f.base);
			pt[i].col = f.pt[i].col;
			pt[i].phantom = f.pt[i].phantom;
		}
	}
	for (i = 0; i < g->rows; i++)
		free(f.q[i].buf);
	free(f.q);
	free(f.cur.buf);
	free(f.pt);
	free(enc);
	lz_sb_free(&old);
}
