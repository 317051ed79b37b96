/*
 * grid.h: the cells of a pane (struct lz_cell), a screen of them (struct
 * lz_grid) and the scrollback ring (struct lz_sb). Pure data structures:
 * no libvterm, no ncurses, no I/O. The pane emulator (ui/pane.c) drives
 * them from libvterm's state callbacks; the renderer reads cells through
 * ui/pane.h, not through this header.
 *
 * Invariants the functions below keep:
 *  - A wide character is a head cell (width 2) immediately followed by a
 *    continuation cell (ch[0] == LZ_CELL_CONT, width 0). Overwriting or
 *    erasing either half blanks the other, so no half is ever orphaned.
 *  - A blank cell has ch[0] == 0 (never written, or erased); it keeps the
 *    colours it was erased with (background colour erase).
 *  - Rows are separately allocated and scrolled by rotating row pointers,
 *    so a full-width scroll costs O(rows), not O(rows * cols).
 *  - len[y] bounds what row y holds: every cell at or right of it is a
 *    plain blank (lz_cell_blank with LZ_COLOR_DEFAULT). It may be larger
 *    than needed, never smaller. Erasing a row, moving cells along it
 *    (lz_grid_moverect) and handing it to the scrollback then cost what
 *    the row holds, not its width: most rows of a wide pane are short.
 *    Whoever writes row[y] directly must raise len[y] (lz_grid_touch).
 *  - wrap[y] says row y was soft-wrapped: its text goes on in row y + 1
 *    (the pane sets it when a character wrapped there). Scrolls move it
 *    with the row; erasing whole rows clears it for them and for the row
 *    above them, whose text no longer goes on there (as tmux does).
 *  - enc[y] is row y's scrollback encoding (lz_sb_push's) kept as the row
 *    is written, while it is written only left to right in plain ASCII
 *    (lz_grid_put1, lz_grid_put_ascii) after a whole-row erase; any other
 *    change drops it. A row that leaves for the scrollback is then stored
 *    without another pass over its cells (lz_sb_push_row). Scrolls move it
 *    with the row. Whoever writes row[y] directly must say so
 *    (lz_grid_touch drops it). Kept only while rows leave the grid for
 *    a scrollback (keep: the last scroll up handed its rows out), so that
 *    a scroll region or the alternate screen costs nothing.
 */
#ifndef LZ_GRID_H
#define LZ_GRID_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Code points per cell: the base character and up to three combining. */
#define LZ_CELL_CHARS 4
/* ch[0] of the right half of a wide character. */
#define LZ_CELL_CONT 0xffffffffu

/*
 * Colours: the top byte says which kind. LZ_COLOR_DEFAULT is the
 * terminal's default foreground or background (SGR 39 / 49).
 */
#define LZ_COLOR_DEFAULT 0u
#define LZ_COLOR_KIND(c) ((c) >> 24)
#define LZ_COLOR_KIND_DEFAULT 0u
#define LZ_COLOR_KIND_INDEXED 1u	/* low byte: 0-255 */
#define LZ_COLOR_KIND_RGB 2u		/* low 24 bits: 0xRRGGBB */
#define LZ_COLOR_INDEXED(i) (0x01000000u | ((uint32_t)(i) & 0xffu))
#define LZ_COLOR_RGB(r, g, b) (0x02000000u | ((uint32_t)(r) & 0xffu) << 16 | \
	((uint32_t)(g) & 0xffu) << 8 | ((uint32_t)(b) & 0xffu))

/* Attributes (struct lz_cell.attr). */
#define LZ_ATTR_BOLD 0x0001
#define LZ_ATTR_ITALIC 0x0002
#define LZ_ATTR_BLINK 0x0004
#define LZ_ATTR_REVERSE 0x0008
#define LZ_ATTR_STRIKE 0x0010
#define LZ_ATTR_UL_SHIFT 5		/* underline: 0 none, 1 single, */
#define LZ_ATTR_UL_MASK 0x0060		/* 2 double, 3 curly */
#define LZ_ATTR_PROTECTED 0x0080	/* DECSCA: kept by selective erase */
#define LZ_ATTR_UNDERLINE(a) (((a) & LZ_ATTR_UL_MASK) >> LZ_ATTR_UL_SHIFT)
/*
 * A hyperlink (OSC 8): 1-255 in the high byte, an index into the link
 * table of whoever owns the cells (a pane: lz_pane_link; the renderer its
 * own), 0 for none.
 */
#define LZ_ATTR_LINK_SHIFT 8
#define LZ_ATTR_LINK_MASK 0xff00
#define LZ_ATTR_LINK(a) (((a) & LZ_ATTR_LINK_MASK) >> LZ_ATTR_LINK_SHIFT)

/* What a character is drawn with. */
struct lz_pen {
	uint32_t fg, bg;
	uint16_t attr;
};

/* One character cell: 28 bytes. */
struct lz_cell {
	uint32_t ch[LZ_CELL_CHARS];	/* unused slots are 0 */
	uint32_t fg, bg;
	uint16_t attr;
	uint8_t width;			/* 1; 2 for a wide head; 0 for LZ_CELL_CONT */
	uint8_t pad;
};

/* A screen: rows x cols cells. */
/*
 * A row's scrollback encoding kept as it is written (enc above; grid.c's
 * alone to change): what lz_sbi_encode gives for the row while valid. The
 * cells from ncells on are plain blanks; the pen is the encoder's after
 * the last of them, ppen the one before that last pen record.
 */
struct lz_rowenc {
	int valid;
	int ncells;
	unsigned char *buf;
	size_t len, alloc;
	int single;		/* the last cell alone after a pen record */
	uint32_t fg, bg;
	uint16_t attr;
	uint16_t pattr;
	uint32_t pfg, pbg;
};

struct lz_grid {
	int rows, cols;
	struct lz_cell **row;
	int *len;			/* see above */
	unsigned char *wrap;		/* see above */
	struct lz_rowenc **enc;		/* see above */
	int keep;			/* see above */
	/*
	 * grid.c's alone: row, len, wrap and enc are windows of rows
	 * entries at off into these arrays of 4 x rows entries, so that the
	 * scroll of the whole screen moves the window instead of copying
	 * every row's entry (lz_grid_scroll); the window goes back to 0 when
	 * it reaches the end.
	 */
	struct lz_cell **row_store;
	int *len_store;
	unsigned char *wrap_store;
	struct lz_rowenc **enc_store;
	int off;
};

/* Allocates a blank grid. rows and cols must be at least 1. */
void lz_grid_init(struct lz_grid *g, int rows, int cols);
void lz_grid_free(struct lz_grid *g);
/* Blank cell with background bg (LZ_COLOR_DEFAULT for none). */
void lz_cell_blank(struct lz_cell *c, uint32_t bg);
/*
 * Writes a character of width 1 or 2 at (row, col): chars holds nchars
 * code points, the base first (extra combining ones are dropped). Out of
 * range positions are ignored; a wide character that does not fit before
 * the right edge leaves a blank.
 */
void lz_grid_put(struct lz_grid *g, int row, int col, const uint32_t *chars,
    int nchars, int width, const struct lz_pen *pen);
/*
 * Whether cell col of row r (cols wide) takes a character of width 1 as
 * it is: not half of a wide character. For the two below.
 */
static inline int
lz_grid_takes1(const struct lz_cell *r, int col, int cols)
{
	return r[col].width == 1 && (col + 1 >= cols ||
	    r[col + 1].ch[0] != LZ_CELL_CONT);
}

/*
 * Writes ch in pen (fg, bg, attr) to c, a cell that takes it (above; its
 * width is 1, and pad is 0 in every cell): four stores of two fields each,
 * which text writes a row of at a time.
 */
static inline void
lz_grid_set1(struct lz_cell *c, uint32_t ch, uint32_t fg, uint32_t bg,
    uint16_t attr)
{
	const uint32_t chs[2] = { ch, 0 }, zero[2] = { 0, 0 };
	const uint32_t pen[2] = { fg, bg };
	const struct {
		uint16_t attr;
		uint8_t width, pad;
	} rest = { attr, 1, 0 };

	memcpy(&c->ch[0], chs, sizeof chs);
	memcpy(&c->ch[2], zero, sizeof zero);
	memcpy(&c->fg, pen, sizeof pen);
	memcpy(&c->attr, &rest, sizeof rest);
}
_Static_assert(offsetof(struct lz_cell, bg) == offsetof(struct lz_cell, fg) + 4 &&
    offsetof(struct lz_cell, pad) == offsetof(struct lz_cell, attr) + 3,
    "lz_grid_set1 stores fg and bg, attr, width and pad together");

/*
 * Row row was written at col: the plain ASCII s[0..k) in pen (s NULL:
 * anything else). Keeps or drops its enc (above), if valid; for the two
 * below.
 */
void lz_grid_wrote(struct lz_grid *g, int row, int col, const unsigned char *s,
    int k, const struct lz_pen *pen);

static inline void
lz_grid_wrote1(struct lz_grid *g, int row, int col, uint32_t ch,
    const struct lz_pen *pen)
{
	unsigned char b = (unsigned char)ch;

	if (g->enc[row]->valid)
		lz_grid_wrote(g, row, col, ch >= 0x20 && ch < 0x7f ? &b :
		    NULL, 1, pen);
}

/*
 * lz_grid_put of one character of width 1 without combining marks, for
 * the hot path of plain text, inline. Returns 0, having done nothing, when
 * a half of a wide character is there (call lz_grid_put); 1 otherwise.
 */
static inline int
lz_grid_put1(struct lz_grid *g, int row, int col, uint32_t ch,
    const struct lz_pen *pen)
{
	struct lz_cell *r;

	if ((unsigned)row >= (unsigned)g->rows ||
	    (unsigned)col >= (unsigned)g->cols)
		return 1;
	r = g->row[row];
	if (!lz_grid_takes1(r, col, g->cols))
		return 0;
	if (g->len[row] <= col)
		g->len[row] = col + 1;
	lz_grid_set1(&r[col], ch, pen->fg, pen->bg, pen->attr);
	lz_grid_wrote1(g, row, col, ch, pen);
	return 1;
}

/*
 * lz_grid_put_ascii on a row whose encoding is kept (enc): it holds plain
 * ASCII and plain blanks alone, so no cell is half of a wide character.
 */
int lz_grid_put_ascii_kept(struct lz_grid *g, int row, int col,
    const unsigned char *s, int n, const struct lz_pen *pen);

/*
 * lz_grid_put1 of s[0], s[1], ... at (row, col), (row, col + 1), ...: the
 * printable ASCII of s[0..n) on one row, for the plain text of the fast
 * path. Stops at the first other byte, at the right edge and before the
 * first cell lz_grid_put1 would refuse. Returns how many it wrote (0 out
 * of range).
 */
static inline int
lz_grid_put_ascii(struct lz_grid *g, int row, int col, const unsigned char *s,
    int n, const struct lz_pen *pen)
{
	struct lz_cell *r;
	uint32_t fg = pen->fg, bg = pen->bg;
	uint16_t attr = pen->attr;
	int k, cols = g->cols;

	if ((unsigned)row >= (unsigned)g->rows || (unsigned)col >= (unsigned)cols)
		return 0;
	if (g->enc[row]->valid)
		return lz_grid_put_ascii_kept(g, row, col, s, n, pen);
	if (n > cols - col)
		n = cols - col;
	r = g->row[row];
	for (k = 0; k < n && s[k] >= 0x20 && s[k] < 0x7f &&
	    lz_grid_takes1(r, col + k, cols); k++)
		lz_grid_set1(&r[col + k], s[k], fg, bg, attr);
	if (g->len[row] < col + k)
		g->len[row] = col + k;
	return k;
}

/* Row y was written directly up to column c1 (excluded). */
void lz_grid_touch(struct lz_grid *g, int y, int c1);
/*
 * Blanks the rectangle [r0, r1) x [c0, c1) (clipped) with background bg;
 * selective (DECSED/DECSEL) keeps LZ_ATTR_PROTECTED cells.
 */
void lz_grid_erase(struct lz_grid *g, int r0, int r1, int c0, int c1,
    uint32_t bg, int selective);
/*
 * Copies the rectangle src to dest (same size, clipped, may overlap), as
 * libvterm's moverect callback asks.
 */
void lz_grid_moverect(struct lz_grid *g, int dr0, int dc0, int sr0, int sc0,
    int nrows, int ncols);
/*
 * Where rows leave a grid for the scrollback: out(row, ncells, wrapped,
 * enc, user), ncells at most cols and every cell past it a plain blank,
 * enc the row's encoding if the grid kept it (for lz_sb_push_row).
 */
typedef void lz_grid_out(const struct lz_cell *, int, int,
    const struct lz_rowenc *, void *);
/*
 * Scrolls full-width rows [top, bottom) up by n (n > 0: the top n rows
 * leave, blank rows with background bg enter at the bottom) or down by -n.
 * When out is not NULL and n > 0, the leaving rows are handed to out
 * first, top one first (the scrollback takes them).
 */
void lz_grid_scroll(struct lz_grid *g, int top, int bottom, int n, uint32_t bg,
    lz_grid_out *out, void *user);
/*
 * Changes the size to rows x cols (clean truncation, no reflow): columns
 * are cut or padded on the right (a wide character cut in half becomes a
 * blank); rows are taken from or added at the bottom after drop_top rows
 * were removed from the top (handed to out, as for lz_grid_scroll).
 */
void lz_grid_resize(struct lz_grid *g, int rows, int cols, int drop_top,
    lz_grid_out *out, void *user);

/*
 * The scrollback ring: lines that scrolled off the top of the primary
 * screen, newest at index 0. Lines are stored compactly (trailing blanks
 * dropped; text as UTF-8 with a pen record only where the pen changes and
 * only of what changed: about 1 byte a cell for text in colour runs, 2
 * for ASCII with a 256-colour change on every cell, 4 with an RGB one;
 * grid-int.h), one after the other in blocks of up to 64 KiB, and the
 * ring is bounded by both a line count and a byte count: pushing past
 * either drops the oldest lines. lz_sb_bytes counts line headers (4
 * bytes) and encodings; on top come the ring (8 bytes a line), a byte
 * of alignment every other line, and the unused ends of the newest and
 * oldest blocks (at most 128 KiB, plus one spare block). A line holds at
 * most LZ_SB_MAX_COLS cells (its header counts in 16 bits): lz_sb_push
 * and lz_grid_reflow take no wider rows.
 */
#define LZ_SB_MAX_COLS 2000
struct lz_sbline;
struct lz_sbblock;
struct lz_sb {
	struct lz_sbline **ring;	/* alloc slots, count used from head */
	size_t alloc, head, count;
	struct lz_sbblock *first, *last, *spare;	/* oldest, newest */
	size_t max_lines, max_bytes, bytes;
	uint64_t pushed;		/* lines ever pushed minus popped */
	struct lz_cell *scratch;	/* one decoded line */
	int scratch_cols;
	uint64_t scratch_seq;		/* which line scratch holds, or ~0 */
	unsigned char *enc;		/* encoding buffer */
	size_t encalloc;
};

void lz_sb_init(struct lz_sb *sb, size_t max_lines, size_t max_bytes);
void lz_sb_free(struct lz_sb *sb);
/* Appends a line of ncols cells as the newest (wrapped: soft-wrapped). */
void lz_sb_push(struct lz_sb *sb, const struct lz_cell *cells, int ncols,
    int wrapped);
/* lz_sb_push of a row leaving a grid, with what lz_grid_out was given. */
void lz_sb_push_row(struct lz_sb *sb, const struct lz_cell *cells, int ncols,
    int wrapped, const struct lz_rowenc *enc);
/*
 * Takes the newest line out into out[0..ncols) (truncated or padded with
 * blanks); returns whether it was soft-wrapped (0 or 1), or -1 when the
 * ring is empty.
 */
int lz_sb_pop(struct lz_sb *sb, struct lz_cell *out, int ncols);
size_t lz_sb_lines(const struct lz_sb *sb);
size_t lz_sb_bytes(const struct lz_sb *sb);
/* Whether line idx (0 = newest) was soft-wrapped into the next one. */
int lz_sb_wrapped(const struct lz_sb *sb, size_t idx);
/* Line idx (0 = newest) was soft-wrapped into the next one. */
void lz_sb_set_wrapped(struct lz_sb *sb, size_t idx);
/*
 * Cell col of line idx (0 = newest), or NULL when idx is out of range or
 * col negative. Columns beyond the stored width read as blank. The pointer
 * is valid until the next call on sb.
 */
const struct lz_cell *lz_sb_cell(struct lz_sb *sb, size_t idx, int col);

/*
 * Reflow (issue 18), as tmux does: the lines of sb (oldest first) and
 * then the rows of g, joined where they were soft-wrapped, are wrapped
 * again at cols columns (a wide character never split: it goes to the
 * next row, leaving the row one short), pen and links kept; hard line
 * ends stay. The last g->rows rows become g (cols wide; blank rows at the
 * bottom when fewer), the rest sb's lines, whose caps drop the oldest
 * rows. Each point (a position on g) is moved to the same character
 * (gone set, and row 0 column 0, if that went into sb; the last row if
 * it was dropped): the screen is moved down so that pt[0] (the cursor)
 * stays on it, the rows below it dropped. A point past
 * its line's text keeps its distance to it, within the width; pt[0] at
 * the end of a full last row gets phantom set (libvterm's pending wrap,
 * with col on the last character) and may have it set on input.
 */
struct lz_reflow_pt {
	int row, col, phantom, gone;
};
void lz_grid_reflow(struct lz_grid *g, struct lz_sb *sb, int cols,
    struct lz_reflow_pt *pt, int npt);

#endif
