/*
 * grid.c: the cell grid and the scrollback ring of grid.h. Knows nothing
 * of escape sequences; ui/pane.c turns libvterm's state callbacks into the
 * calls below.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/utf8.h"
#include "ui/grid.h"
#include "ui/grid-int.h"

/*
 * Scrollback lines live in blocks, one after the other in the order they
 * were pushed: the oldest line is always in the oldest block and the
 * newest at the end of the newest, so dropping and popping lines never
 * calls malloc, and a line costs its header and encoding with no
 * allocator overhead. Blocks start small (a pane that prints little keeps
 * little) and double up to SB_BLOCK; one emptied block is kept for reuse.
 */
#define SB_BLOCK_MIN 4096
#define SB_BLOCK (64 * 1024)
#define SB_ALIGN 2		/* struct lz_sbline */

struct lz_sbblock {
	struct lz_sbblock *prev, *next;	/* older, newer */
	size_t size, used, lines;
	_Alignas(8) unsigned char data[];
};

/* The size a line takes in a block. */
static size_t
sbline_size(size_t len)
{
	return (sizeof(struct lz_sbline) + len + SB_ALIGN - 1) &
	    ~(size_t)(SB_ALIGN - 1);
}

static const struct lz_cell blank_cell = { .width = 1 };

void
lz_cell_blank(struct lz_cell *c, uint32_t bg)
{
	memset(c, 0, sizeof *c);
	c->bg = bg;
	c->width = 1;
}

/*
 * A plain blank is all zero but for its width. The first cell is set and
 * copied onto the next, the two onto the next two and so on: a row in a
 * few large copies (memcpy's wide stores) instead of a store a field.
 */
void
lz_sbi_blank_plain(struct lz_cell *c, int n)
{
	int done, k;

	if (n <= 0)
		return;
	c[0] = blank_cell;
	for (done = 1; done < n; done += k) {
		k = done < n - done ? done : n - done;
		memcpy(c + done, c, (size_t)k * sizeof *c);
	}
}

static struct lz_cell *
row_new(int cols)
{
	struct lz_cell *r = lz_xreallocarray(NULL, (size_t)cols, sizeof *r);

	lz_sbi_blank_plain(r, cols);
	return r;
}

/* The encoding of a row blanked whole, or of a new one: empty. */
static void
enc_reset(struct lz_rowenc *e)
{
	e->len = 0;
	e->ncells = 0;
	e->valid = 1;
	e->single = 0;
	e->fg = 0;
	e->bg = 0;
	e->attr = 0;
}

/* None yet: a row's is kept from its first whole-row erase on. */
static struct lz_rowenc *
enc_new(void)
{
	return lz_xcalloc(1, sizeof(struct lz_rowenc));
}

static void
enc_free(struct lz_rowenc *e)
{
	if (e != NULL)
		free(e->buf);
	free(e);
}

void
lz_sbi_enc_drop_all(struct lz_grid *g)
{
	int y;

	for (y = 0; y < g->rows; y++)
		g->enc[y]->valid = 0;
}

static void
touch(struct lz_grid *g, int y, int c1)
{
	if (c1 > g->cols)
		c1 = g->cols;
	if (g->len[y] < c1)
		g->len[y] = c1;
}

void
lz_grid_touch(struct lz_grid *g, int y, int c1)
{
	if (y >= 0 && y < g->rows) {
		touch(g, y, c1);
		g->enc[y]->valid = 0;
	}
}

/* Points row, len, wrap and enc at the window of the stores at off. */
static void
window(struct lz_grid *g)
{
	g->row = g->row_store + g->off;
	g->len = g->len_store + g->off;
	g->wrap = g->wrap_store + g->off;
	g->enc = g->enc_store + g->off;
}

/*
 * The stores' entries for a grid of rows rows: four times the rows, so
 * the window goes back to 0 (one copy of its rows entries) once every
 * 3 x rows lines scrolled at least.
 */
#define STORE_ROWS(rows) (4 * (size_t)(rows))

/* New stores for rows rows, zeroed, the window at 0. */
static void
stores_new(struct lz_grid *g, int rows)
{
	g->off = 0;
	g->row_store = lz_xcalloc(STORE_ROWS(rows), sizeof *g->row_store);
	g->len_store = lz_xcalloc(STORE_ROWS(rows), sizeof *g->len_store);
	g->wrap_store = lz_xcalloc(STORE_ROWS(rows), 1);
	g->enc_store = lz_xcalloc(STORE_ROWS(rows), sizeof *g->enc_store);
	window(g);
}

/* Frees the stores (not the rows they point to). */
static void
stores_free(struct lz_cell **row, int *len, unsigned char *wrap,
    struct lz_rowenc **enc)
{
	free(row);
	free(len);
	free(wrap);
	free(enc);
}

void
lz_grid_init(struct lz_grid *g, int rows, int cols)
{
	int i;

	if (rows < 1 || cols < 1)
		LZ_BUG("grid of %d x %d", rows, cols);
	g->rows = rows;
	g->cols = cols;
	stores_new(g, rows);
	g->keep = 0;
	for (i = 0; i < rows; i++) {
		g->row[i] = row_new(cols);
		g->enc[i] = enc_new();
	}
}

void
lz_grid_free(struct lz_grid *g)
{
	int i;

	if (g->row == NULL)
		return;
	for (i = 0; i < g->rows; i++) {
		free(g->row[i]);
		enc_free(g->enc[i]);
	}
	stores_free(g->row_store, g->len_store, g->wrap_store, g->enc_store);
	g->row_store = NULL;
	g->len_store = NULL;
	g->wrap_store = NULL;
	g->enc_store = NULL;
	g->row = NULL;
	g->len = NULL;
	g->wrap = NULL;
	g->enc = NULL;
}

/*
 * Restores the wide-character invariant across the boundary between
 * columns x - 1 and x of row r: a head must be followed by its
 * continuation, and a continuation must follow a head.
 */
static inline void
fix_pair(struct lz_cell *r, int cols, int x)
{
	int head = x > 0 && x - 1 < cols && r[x - 1].width == 2;
	int cont = x >= 0 && x < cols && r[x].ch[0] == LZ_CELL_CONT;

	if (head && !cont)
		lz_cell_blank(&r[x - 1], r[x - 1].bg);
	else if (cont && !head)
		lz_cell_blank(&r[x], r[x].bg);
}

/*
 * Blanks a wide character across the boundary between columns x - 1 and
 * x: after a rectangle was copied, halves that meet there come from two
 * characters (one copied, one not), even when each looks whole.
 */
static void
cut_pair(struct lz_cell *r, int cols, int x)
{
	if (x > 0 && x - 1 < cols && r[x - 1].width == 2)
		lz_cell_blank(&r[x - 1], r[x - 1].bg);
	if (x >= 0 && x < cols && r[x].ch[0] == LZ_CELL_CONT)
		lz_cell_blank(&r[x], r[x].bg);
}

void
lz_grid_put(struct lz_grid *g, int row, int col, const uint32_t *chars,
    int nchars, int width, const struct lz_pen *pen)
{
	struct lz_cell *r, *c;
	int i;

	if (row < 0 || row >= g->rows || col < 0 || col >= g->cols)
		return;
	r = g->row[row];
	c = &r[col];
	width = width == 2 ? 2 : 1;
	touch(g, row, col + width);
	g->enc[row]->valid = 0;
	if (width == 2 && col + 1 >= g->cols) {
		/* No room for both halves: leave a blank, as at a margin. */
		lz_cell_blank(c, pen->bg);
		fix_pair(r, g->cols, col);
		fix_pair(r, g->cols, col + 1);
		return;
	}
	memset(c->ch, 0, sizeof c->ch);
	for (i = 0; i < nchars && i < LZ_CELL_CHARS; i++)
		c->ch[i] = chars[i];
	c->fg = pen->fg;
	c->bg = pen->bg;
	c->attr = pen->attr;
	c->width = (uint8_t)width;
	c->pad = 0;
	if (width == 2) {
		c[1] = *c;
		memset(c[1].ch, 0, sizeof c[1].ch);
		c[1].ch[0] = LZ_CELL_CONT;
		c[1].width = 0;
	}
	fix_pair(r, g->cols, col);
	fix_pair(r, g->cols, col + width);
}

/*
 * A row's encoding after [c0, c1) was erased: empty for the whole row
 * made plain blank (while g keeps them), kept where only plain blanks
 * were erased plain (past its cells: no wide character meets them
 * either), dropped otherwise.
 */
static void
enc_erased(const struct lz_grid *g, struct lz_rowenc *e, int c0, int c1,
    uint32_t bg, int selective)
{
	if (bg != LZ_COLOR_DEFAULT)
		e->valid = 0;
	else if (c0 == 0 && c1 == g->cols && !selective) {
		if (g->keep)
			enc_reset(e);
		else
			e->valid = 0;
	}
	else if (c0 < e->ncells)
		e->valid = 0;
}

void
lz_grid_erase(struct lz_grid *g, int r0, int r1, int c0, int c1, uint32_t bg,
    int selective)
{
	struct lz_cell *r;
	int y, x, end;

	if (r0 < 0)
		r0 = 0;
	if (r1 > g->rows)
		r1 = g->rows;
	if (c0 < 0)
		c0 = 0;
	if (c1 > g->cols)
		c1 = g->cols;
	if (r0 >= r1 || c0 >= c1)
		return;
	if (c0 == 0 && c1 == g->cols && !selective) {
		/* Whole rows: no text goes on into them, nor out of them. */
		memset(&g->wrap[r0], 0, (size_t)(r1 - r0));
		if (r0 > 0)
			g->wrap[r0 - 1] = 0;
	}
	for (y = r0; y < r1; y++) {
		r = g->row[y];
		enc_erased(g, g->enc[y], c0, c1, bg, selective);
		/* Past len all is plain blank already. */
		end = bg == LZ_COLOR_DEFAULT && c1 > g->len[y] ? g->len[y] : c1;
		if (selective) {
			for (x = c0; x < end; x++) {
				if (!(r[x].attr & LZ_ATTR_PROTECTED))
					lz_cell_blank(&r[x], bg);
			}
		} else if (bg == LZ_COLOR_DEFAULT) {
			if (c0 < end)
				lz_sbi_blank_plain(r + c0, end - c0);
		} else {
			for (x = c0; x < end; x++)
				lz_cell_blank(&r[x], bg);
		}
		fix_pair(r, g->cols, c0);
		fix_pair(r, g->cols, c1);
		if (bg != LZ_COLOR_DEFAULT)
			touch(g, y, c1);
		else if (!selective && c1 >= g->len[y] && c0 < g->len[y])
			g->len[y] = c0;
	}
}

/*
 * Copies n cells of row sr from column sc to row dr at column dc (the same
 * row or not, overlapping or not). Past a row's len all is plain blank, so
 * only the source's cells before its len are copied; the rest of the
 * destination becomes plain blank where it was not already. Cells come
 * out as a copy of all n would leave them, and len stays a bound (a
 * line's insert or delete does not make it the whole width).
 */
static void
move_cells(struct lz_grid *g, int dr, int dc, int sr, int sc, int n)
{
	int k = g->len[sr] - sc, dlen = g->len[dr], end;

	if (k > n)
		k = n;
	if (k > 0)
		memmove(&g->row[dr][dc], &g->row[sr][sc],
		    (size_t)k * sizeof(struct lz_cell));
	else
		k = 0;
	end = dc + n < dlen ? dc + n : dlen;
	if (dc + k < end)
		lz_sbi_blank_plain(&g->row[dr][dc + k], end - (dc + k));
	if (k > 0)
		touch(g, dr, dc + k);
}

void
lz_grid_moverect(struct lz_grid *g, int dr0, int dc0, int sr0, int sc0,
    int nrows, int ncols)
{
	int i, y;

	/* Clip both rectangles to the grid, keeping them the same size. */
	if (dr0 < 0 || sr0 < 0 || dc0 < 0 || sc0 < 0 || nrows <= 0 ||
	    ncols <= 0)
		return;
	if (dr0 + nrows > g->rows)
		nrows = g->rows - dr0;
	if (sr0 + nrows > g->rows)
		nrows = g->rows - sr0;
	if (dc0 + ncols > g->cols)
		ncols = g->cols - dc0;
	if (sc0 + ncols > g->cols)
		ncols = g->cols - sc0;
	if (nrows <= 0 || ncols <= 0)
		return;
	for (i = 0; i < nrows; i++) {
		/* Walk away from the overlap. */
		y = dr0 <= sr0 ? i : nrows - 1 - i;
		move_cells(g, dr0 + y, dc0, sr0 + y, sc0, ncols);
	}
	for (i = 0; i < nrows; i++) {
		g->enc[dr0 + i]->valid = 0;
		cut_pair(g->row[dr0 + i], g->cols, dc0);
		cut_pair(g->row[dr0 + i], g->cols, dc0 + ncols);
	}
}

/*
 * Moves n row pointers, their lengths, wrap flags and encodings from src
 * to dst (indices of the window; dst may be below 0, down to -off).
 */
static void
rotate(struct lz_grid *g, int dst, int src, int n)
{
	memmove(&g->row[dst], &g->row[src], (size_t)n * sizeof *g->row);
	memmove(&g->len[dst], &g->len[src], (size_t)n * sizeof *g->len);
	memmove(&g->wrap[dst], &g->wrap[src], (size_t)n);
	memmove(&g->enc[dst], &g->enc[src], (size_t)n * sizeof *g->enc);
}

/*
 * The window moved down by k rows (1 <= k <= rows): what was row k is
 * row 0; the last k rows' entries are stale, for the caller to set. At
 * the stores' end the window's entries go back to their start first.
 */
static void
slide(struct lz_grid *g, int k)
{
	if ((size_t)(g->off + k + g->rows) > STORE_ROWS(g->rows)) {
		rotate(g, -g->off, 0, g->rows);
		g->off = 0;
	}
	g->off += k;
	window(g);
}

void
lz_grid_scroll(struct lz_grid *g, int top, int bottom, int n, uint32_t bg,
    lz_grid_out *out, void *user)
{
	struct lz_cell *save[64], **sp;
	struct lz_rowenc *esave[64], **ep;
	int lsave[64], *lp;
	int height, k, i;
	unsigned char wrap;

	if (top < 0)
		top = 0;
	if (bottom > g->rows)
		bottom = g->rows;
	height = bottom - top;
	if (height <= 0 || n == 0)
		return;
	k = n > 0 ? n : -n;
	if (k > height)
		k = height;
	/* Rows leave for a scrollback or not: keep encodings as they do. */
	if (n > 0 && (out != NULL) != g->keep) {
		g->keep = out != NULL;
		if (!g->keep)
			lz_sbi_enc_drop_all(g);
	}
	/* The common scroll is a line or a few: no allocation for those. */
	sp = save;
	ep = esave;
	lp = lsave;
	if (k > 64) {
		sp = lz_xreallocarray(NULL, (size_t)k, sizeof *sp);
		ep = lz_xreallocarray(NULL, (size_t)k, sizeof *ep);
		lp = lz_xreallocarray(NULL, (size_t)k, sizeof *lp);
	}
	if (n > 0) {
		for (i = 0; i < k; i++) {
			if (out != NULL)
				out(g->row[top + i], g->len[top + i],
				    g->wrap[top + i], g->enc[top + i], user);
			sp[i] = g->row[top + i];
			ep[i] = g->enc[top + i];
			lp[i] = g->len[top + i];
		}
		/* The row above no longer goes on into the region's top. */
		if (top > 0)
			g->wrap[top - 1] = 0;
		if (height == g->rows)
			slide(g, k);
		else
			rotate(g, top, top + k, height - k);
		memcpy(&g->row[bottom - k], sp, (size_t)k * sizeof *sp);
		memcpy(&g->enc[bottom - k], ep, (size_t)k * sizeof *ep);
		memcpy(&g->len[bottom - k], lp, (size_t)k * sizeof *lp);
		/*
		 * The rows entering are blank; the one above them keeps its
		 * flag: text that wrapped at the bottom goes on in the first
		 * (the line feed of that very wrap is this scroll).
		 */
		wrap = bottom - k - 1 >= top ? g->wrap[bottom - k - 1] : 0;
		for (i = bottom - k; i < bottom; i++)
			lz_grid_erase(g, i, i + 1, 0, g->cols, bg, 0);
		if (bottom - k - 1 >= top)
			g->wrap[bottom - k - 1] = wrap;
	} else {
		memcpy(sp, &g->row[bottom - k], (size_t)k * sizeof *sp);
		memcpy(ep, &g->enc[bottom - k], (size_t)k * sizeof *ep);
		memcpy(lp, &g->len[bottom - k], (size_t)k * sizeof *lp);
		rotate(g, top + k, top, height - k);
		memcpy(&g->row[top], sp, (size_t)k * sizeof *sp);
		memcpy(&g->enc[top], ep, (size_t)k * sizeof *ep);
		memcpy(&g->len[top], lp, (size_t)k * sizeof *lp);
		for (i = top; i < top + k; i++)
			lz_grid_erase(g, i, i + 1, 0, g->cols, bg, 0);
		/* The region's last row no longer goes on below it. */
		g->wrap[bottom - 1] = 0;
	}
	if (sp != save) {
		free(sp);
		free(ep);
		free(lp);
	}
}

void
lz_grid_resize(struct lz_grid *g, int rows, int cols, int drop_top,
    lz_grid_out *out, void *user)
{
	struct lz_cell **orow = g->row, **ors = g->row_store;
	struct lz_rowenc **oenc = g->enc, **oes = g->enc_store;
	unsigned char *owrap = g->wrap, *ows = g->wrap_store;
	int *olen = g->len, *ols = g->len_store;
	struct lz_cell *r;
	int i, keep;

	if (rows < 1 || cols < 1)
		LZ_BUG("grid resize to %d x %d", rows, cols);
	if (drop_top < 0)
		drop_top = 0;
	if (drop_top > g->rows)
		drop_top = g->rows;
	for (i = 0; i < drop_top; i++) {
		if (out != NULL)
			out(orow[i], olen[i], owrap[i], oenc[i], user);
		free(orow[i]);
		enc_free(oenc[i]);
	}
	keep = g->rows - drop_top;
	if (keep > rows) {
		for (i = drop_top + rows; i < g->rows; i++) {
			free(orow[i]);
			enc_free(oenc[i]);
		}
		keep = rows;
	}
	stores_new(g, rows);
	for (i = 0; i < keep; i++) {
		r = orow[drop_top + i];
		g->enc[i] = oenc[drop_top + i];
		g->len[i] = olen[drop_top + i];
		/* The last row kept no longer goes on (the rest is cut). */
		g->wrap[i] = i + 1 < keep ? owrap[drop_top + i] : 0;
		if (cols != g->cols) {
			r = lz_xreallocarray(r, (size_t)cols, sizeof *r);
			if (cols > g->cols)
				lz_sbi_blank_plain(r + g->cols, cols - g->cols);
			fix_pair(r, cols, cols);
			if (g->len[i] > cols)
				g->len[i] = cols;
			g->enc[i]->valid = 0;
		}
		g->row[i] = r;
	}
	for (; i < rows; i++) {
		g->row[i] = row_new(cols);
		g->enc[i] = enc_new();
	}
	stores_free(ors, ols, ows, oes);
	g->rows = rows;
	g->cols = cols;
}

/* Scrollback. */

/* Decodes what lz_utf8_put wrote; *pos moves past it. */
uint32_t
lz_sbi_get_utf8(const unsigned char *p, size_t len, size_t *pos)
{
	uint32_t cp = p[*pos];
	size_t n, i;

	if (cp < 0x80)
		n = 0;
	else if (cp < 0xe0) {
		n = 1;
		cp &= 0x1f;
	} else if (cp < 0xf0) {
		n = 2;
		cp &= 0x0f;
	} else {
		n = 3;
		cp &= 0x07;
	}
	(*pos)++;
	for (i = 0; i < n && *pos < len; i++, (*pos)++)
		cp = cp << 6 | (p[*pos] & 0x3f);
	return cp;
}

static void
put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static int
is_plain_blank(const struct lz_cell *c)
{
	return c->ch[0] == 0 && c->fg == 0 && c->bg == 0 && c->attr == 0;
}

/* How a colour is stored (SB_C_*). */
static unsigned
color_kind(uint32_t c)
{
	if (c == LZ_COLOR_DEFAULT)
		return SB_C_DEFAULT;
	if ((c & 0xffffff00u) == LZ_COLOR_INDEXED(0))
		return SB_C_INDEXED;
	if (LZ_COLOR_KIND(c) == LZ_COLOR_KIND_RGB)
		return SB_C_RGB;
	return SB_C_RAW;
}

static size_t
put_color(unsigned char *p, unsigned kind, uint32_t c)
{
	switch (kind) {
	case SB_C_INDEXED:
		p[0] = (unsigned char)c;
		return 1;
	case SB_C_RGB:
		p[0] = (unsigned char)(c >> 16);
		p[1] = (unsigned char)(c >> 8);
		p[2] = (unsigned char)c;
		return 3;
	case SB_C_RAW:
		put_u32(p, c);
		return 4;
	default:
		return 0;
	}
}

/*
 * Writes the pen record that turns pen (fg, bg, attr) into c's; returns
 * its size. The pen is passed by value so that the caller keeps it in
 * registers: stores into the byte buffer could alias anything in memory.
 */
size_t
lz_sbi_put_pen(unsigned char *p, uint32_t fg, uint32_t bg, uint16_t attr,
    const struct lz_cell *c)
{
	unsigned mask, fk = SB_C_SAME, bk = SB_C_SAME;
	size_t n = 2;

	if (c->fg != fg)
		fk = color_kind(c->fg);
	if (c->bg != bg)
		bk = color_kind(c->bg);
	if (fk == SB_C_INDEXED && bk == SB_C_SAME && c->attr == attr) {
		/* A new colour, nothing else: the usual change in a line. */
		p[0] = SB_FG;
		p[1] = (unsigned char)c->fg;
		return 2;
	}
	mask = fk | bk << SB_M_BG_SHIFT;
	n += put_color(p + n, fk, c->fg);
	n += put_color(p + n, bk, c->bg);
	if (c->attr != attr) {
		mask |= SB_M_ATTR;
		p[n++] = (unsigned char)c->attr;
		p[n++] = (unsigned char)(c->attr >> 8);
	}
	p[0] = SB_PEN;
	p[1] = (unsigned char)mask;
	return n;
}

/*
 * Whether c can be the next cell of a run (SB_RUN, SB_RUNRGB) after a
 * cell in foreground fg: plain ASCII, a foreground of its own, nothing
 * else of the pen (bg, attr) changed.
 */
static inline int
run_cell(const struct lz_cell *c, uint32_t fg, uint32_t bg, uint16_t attr)
{
	return c->fg != fg && c->bg == bg && c->attr == attr &&
	    c->ch[0] - 1 < 0x7f && c->ch[1] == 0 && c->width == 1;
}

/*
 * Writes the run that starts at c[0] (n cells left on the line) after the
 * pen (fg, bg, attr); returns its size and sets *k to the cells it takes,
 * or returns 0 when fewer than two cells would be in it.
 */
static size_t
put_run(unsigned char *p, const struct lz_cell *c, int n, uint32_t fg,
    uint32_t bg, uint16_t attr, int *k)
{
	unsigned kind;
	size_t len = 2;
	int j, i;

	if (n < 2 || !run_cell(c, fg, bg, attr))
		return 0;
	kind = color_kind(c->fg);
	if (kind != SB_C_INDEXED && kind != SB_C_RGB)
		return 0;
	for (j = 1; j < n && j < 255 && run_cell(&c[j], c[j - 1].fg, bg,
	    attr) && color_kind(c[j].fg) == kind; j++)
		;
	if (j < 2)
		return 0;
	p[0] = kind == SB_C_INDEXED ? SB_RUN : SB_RUNRGB;
	p[1] = (unsigned char)j;
	for (i = 0; i < j; i++) {
		len += put_color(p + len, kind, c[i].fg);
		p[len++] = (unsigned char)c[i].ch[0];
	}
	*k = j;
	return len;
}

/*
 * A cell stored as a blank: never written or erased, or the right half of
 * a wide character that lost its head (the head takes its own).
 */
static int
is_blank(const struct lz_cell *c)
{
	return c->ch[0] == 0 || c->ch[0] == LZ_CELL_CONT;
}

/*
 * The bytes of a cell from fg on (fg, bg, attr, width, pad): two cells
 * whose bytes there are equal have the same pen and width.
 */
#define CELL_PEN_BYTES (sizeof(struct lz_cell) - offsetof(struct lz_cell, fg))
_Static_assert(CELL_PEN_BYTES == 12, "fg to pad: the tail of a cell, unpadded");

/*
 * Writes the characters of c[0..n) to p as long as they are plain ASCII
 * with the pen and width of c[0], itself plain ASCII of width 1; returns
 * how many. The bulk of a line in one pass: the pen is compared as bytes
 * (two loads a cell), so a cell whose pad differs ends the run and is
 * encoded the longer way.
 */
static inline int
put_ascii_run(unsigned char *p, const struct lz_cell *c, int n)
{
	uint64_t a, x;
	uint32_t b, y;
	int i;

	memcpy(&a, &c->fg, 8);
	memcpy(&b, (const char *)&c->fg + 8, 4);
	for (i = 0; i < n; i++) {
		memcpy(&x, &c[i].fg, 8);
		memcpy(&y, (const char *)&c[i].fg + 8, 4);
		if (((x ^ a) | (y ^ b) | c[i].ch[1]) != 0 ||
		    c[i].ch[0] - 1 >= 0x7f)
			break;
		p[i] = (unsigned char)c[i].ch[0];
	}
	return i;
}

/*
 * Encodes cells[0..ncols) into *buf (grown as needed); returns the size
 * and sets *ncells to the cells it covers (trailing plain blanks dropped).
 */
size_t
lz_sbi_encode(const struct lz_cell *cells, int ncols, unsigned char **buf,
    size_t *bufalloc, int *ncells)
{
	const struct lz_cell *c;
	unsigned char *p;
	size_t need, n = 0, m;
	uint32_t ch, fg = 0, bg = 0;
	uint16_t attr = 0;
	int last = ncols, i, k, run;

	while (last > 0 && is_plain_blank(&cells[last - 1]))
		last--;
	need = (size_t)last * SB_CELL_MAX + 1;
	if (need > *bufalloc) {
		*buf = lz_xrealloc(*buf, need);
		*bufalloc = need;
	}
	p = *buf;
	for (i = 0; i < last; i++) {
		c = &cells[i];
		ch = c->ch[0];
		if (c->fg != fg || c->bg != bg || c->attr != attr) {
			m = put_run(p + n, c, last - i, fg, bg, attr, &k);
			if (m > 0) {
				n += m;
				i += k - 1;
				fg = cells[i].fg;
				continue;
			}
			n += lz_sbi_put_pen(p + n, fg, bg, attr, c);
			fg = c->fg;
			bg = c->bg;
			attr = c->attr;
		}
		if (ch - 1 < 0x7f && c->ch[1] == 0 && c->width == 1) {
			/* Plain ASCII, and the rest of its run. */
			k = put_ascii_run(p + n, c, last - i);
			n += (size_t)k;
			i += k - 1;
			continue;
		}
		if (is_blank(c)) {
			/* A run of blanks of one pen: one tag and a count. */
			for (run = 1; i + run < last && run < 255 &&
			    is_blank(&cells[i + run]) && cells[i + run].fg == fg &&
			    cells[i + run].bg == bg && cells[i + run].attr == attr;
			    run++)
				;
			n += lz_sbi_put_blanks(p + n, run);
			i += run - 1;
			continue;
		}
		if (c->width == 2) {
			p[n++] = SB_WIDE;
			/* Its right half is implied. */
			if (i + 1 < last && cells[i + 1].ch[0] == LZ_CELL_CONT)
				i++;
		}
		n += lz_utf8_put(p + n, ch);
		for (k = 1; k < LZ_CELL_CHARS && c->ch[k] != 0; k++) {
			p[n++] = SB_COMB;
			n += lz_utf8_put(p + n, c->ch[k]);
		}
	}
	*ncells = last;
	return n;
}

/*
 * Whether the encoder, at the last cell of e (single: alone after its pen
 * record) followed by a cell in pen, would start a run there (put_run):
 * each changes only the foreground, to a colour of one kind.
 */
static int
enc_run(const struct lz_rowenc *e, const struct lz_pen *pen)
{
	unsigned kind = color_kind(e->fg);

	return e->fg != e->pfg && e->bg == e->pbg && e->attr == e->pattr &&
	    (kind == SB_C_INDEXED || kind == SB_C_RGB) && pen->fg != e->fg &&
	    pen->bg == e->bg && pen->attr == e->attr &&
	    color_kind(pen->fg) == kind;
}

/*
 * Row row was written at col (grid.h): the encoding goes on as
 * lz_sbi_encode would go on over the cells. The plain blanks between its
 * last cell and col are a pen record back to the plain pen if needed and
 * blank runs; then a pen record if the pen changed and the characters.
 * Dropped for a write before its last cell, of anything but plain ASCII,
 * or where the encoder would start a run (enc_run).
 */
void
lz_grid_wrote(struct lz_grid *g, int row, int col, const unsigned char *s,
    int k, const struct lz_pen *pen)
{
	struct lz_rowenc *e = g->enc[row];
	struct lz_cell c;
	unsigned char *p;
	size_t need;
	int gap, run, newpen;

	if (!e->valid)
		return;
	newpen = pen->fg != e->fg || pen->bg != e->bg || pen->attr != e->attr;
	if (s == NULL || col < e->ncells || (e->single && col == e->ncells &&
	    newpen && enc_run(e, pen))) {
		e->valid = 0;
		return;
	}
	gap = col - e->ncells;
	need = e->len + 2 * SB_PEN_MAX + 2 * ((size_t)gap / 255 + 1) +
	    (size_t)k;
	if (need > e->alloc) {
		e->alloc = need < 2 * e->alloc ? 2 * e->alloc : need;
		e->buf = lz_xrealloc(e->buf, e->alloc);
	}
	p = e->buf + e->len;
	if (gap > 0 && (e->fg != 0 || e->bg != 0 || e->attr != 0)) {
		p += lz_sbi_put_pen(p, e->fg, e->bg, e->attr, &blank_cell);
		e->fg = 0;
		e->bg = 0;
		e->attr = 0;
		newpen = pen->fg != 0 || pen->bg != 0 || pen->attr != 0;
	}
	for (; gap > 0; gap -= run) {
		run = gap < 255 ? gap : 255;
		p += lz_sbi_put_blanks(p, run);
	}
	e->single = 0;
	if (newpen) {
		memset(&c, 0, sizeof c);
		c.fg = pen->fg;
		c.bg = pen->bg;
		c.attr = pen->attr;
		p += lz_sbi_put_pen(p, e->fg, e->bg, e->attr, &c);
		e->pfg = e->fg;
		e->pbg = e->bg;
		e->pattr = e->attr;
		e->fg = pen->fg;
		e->bg = pen->bg;
		e->attr = pen->attr;
		e->single = k == 1;
	}
	memcpy(p, s, (size_t)k);
	e->len = (size_t)(p + k - e->buf);
	e->ncells = col + k;
}

int
lz_grid_put_ascii_kept(struct lz_grid *g, int row, int col,
    const unsigned char *s, int n, const struct lz_pen *pen)
{
	struct lz_cell *r = g->row[row] + col;
	uint32_t fg = pen->fg, bg = pen->bg;
	uint16_t attr = pen->attr;
	int k;

	if (n > g->cols - col)
		n = g->cols - col;
	for (k = 0; k < n && s[k] >= 0x20 && s[k] < 0x7f; k++)
		lz_grid_set1(&r[k], s[k], fg, bg, attr);
	if (g->len[row] < col + k)
		g->len[row] = col + k;
	if (k > 0)
		lz_grid_wrote(g, row, col, s, k, pen);
	return k;
}

/* Reads a colour of kind k at p[*pos] into *c; -1 when it is cut short. */
static int
get_color(const unsigned char *p, size_t len, size_t *pos, unsigned k,
    uint32_t *c)
{
	static const size_t size[] = { 0, 0, 1, 3, 4, 0, 0, 0 };

	if (len - *pos < size[k])
		return -1;
	p += *pos;
	switch (k) {
	case SB_C_DEFAULT:
		*c = LZ_COLOR_DEFAULT;
		break;
	case SB_C_INDEXED:
		*c = LZ_COLOR_INDEXED(p[0]);
		break;
	case SB_C_RGB:
		*c = LZ_COLOR_RGB(p[0], p[1], p[2]);
		break;
	case SB_C_RAW:
		*c = get_u32(p);
		break;
	default:
		break;
	}
	*pos += size[k];
	return 0;
}

/* Reads the pen record at p[*pos] (past its tag); -1 when cut short. */
int
lz_sbi_get_pen(const unsigned char *p, size_t len, size_t *pos,
    struct lz_pen *pen)
{
	unsigned mask;

	if (*pos >= len)
		return -1;
	mask = p[(*pos)++];
	if (get_color(p, len, pos, mask & 7, &pen->fg) != 0 ||
	    get_color(p, len, pos, mask >> SB_M_BG_SHIFT & 7, &pen->bg) != 0)
		return -1;
	if (mask & SB_M_ATTR) {
		if (len - *pos < 2)
			return -1;
		pen->attr = (uint16_t)(p[*pos] | p[*pos + 1] << 8);
		*pos += 2;
	}
	return 0;
}

/* Decodes the line p[0..len) into out[0..ncols); the rest is blank. */
void
lz_sbi_decode(const unsigned char *p, size_t len, struct lz_cell *out,
    int ncols)
{
	struct lz_cell *c;
	struct lz_pen pen = { 0, 0, 0 };
	size_t pos = 0;
	unsigned cs;
	int col = 0, wide, k, run;

	while (pos < len && col < ncols) {
		switch (p[pos]) {
		case SB_PEN:
			pos++;
			if (lz_sbi_get_pen(p, len, &pos, &pen) != 0)
				goto out;
			continue;
		case SB_FG:
			if (len - pos < 2)
				goto out;
			pen.fg = LZ_COLOR_INDEXED(p[pos + 1]);
			pos += 2;
			continue;
		case SB_BLANKS:
			if (len - pos < 2)
				goto out;
			run = p[pos + 1];
			pos += 2;
			for (; run > 0 && col < ncols; run--, col++) {
				lz_cell_blank(&out[col], pen.bg);
				out[col].fg = pen.fg;
				out[col].attr = pen.attr;
			}
			continue;
		case SB_RUN:
		case SB_RUNRGB:
			cs = SB_RUN_CS(p[pos]);
			if (len - pos < 2 ||
			    (len - pos - 2) / (cs + 1) < p[pos + 1])
				goto out;
			run = p[pos + 1];
			pos += 2;
			for (; run > 0 && col < ncols; run--, col++) {
				pen.fg = lz_sbi_run_color(p + pos, cs);
				c = &out[col];
				lz_cell_blank(c, pen.bg);
				c->fg = pen.fg;
				c->attr = pen.attr;
				c->ch[0] = p[pos + cs];
				pos += cs + 1;
			}
			continue;
		default:
			break;
		}
		c = &out[col];
		lz_cell_blank(c, pen.bg);
		c->fg = pen.fg;
		c->attr = pen.attr;
		if (p[pos] < 0x80 && (pos + 1 == len ||
		    p[pos + 1] != SB_COMB)) {
			c->ch[0] = p[pos++];	/* plain ASCII */
			col++;
			continue;
		}
		if (p[pos] == SB_BLANK) {
			pos++;
			col++;
			continue;
		}
		wide = p[pos] == SB_WIDE;
		if (wide)
			pos++;
		if (pos >= len)
			break;
		c->ch[0] = lz_sbi_get_utf8(p, len, &pos);
		for (k = 1; pos < len && p[pos] == SB_COMB; k++) {
			pos++;
			if (pos >= len)
				break;
			if (k < LZ_CELL_CHARS)
				c->ch[k] = lz_sbi_get_utf8(p, len, &pos);
			else
				(void)lz_sbi_get_utf8(p, len, &pos);
		}
		col++;
		if (wide) {
			if (col >= ncols) {
				/* The right half would not fit. */
				lz_cell_blank(c, pen.bg);
				break;
			}
			c->width = 2;
			out[col] = *c;
			memset(out[col].ch, 0, sizeof out[col].ch);
			out[col].ch[0] = LZ_CELL_CONT;
			out[col].width = 0;
			col++;
		}
	}
out:
	for (; col < ncols; col++)
		lz_cell_blank(&out[col], LZ_COLOR_DEFAULT);
}

static void
sb_decode(const struct lz_sbline *l, struct lz_cell *out, int ncols)
{
	lz_sbi_decode(l->data, l->len, out, ncols);
}

void
lz_sb_init(struct lz_sb *sb, size_t max_lines, size_t max_bytes)
{
	memset(sb, 0, sizeof *sb);
	sb->max_lines = max_lines;
	sb->max_bytes = max_bytes;
	sb->scratch_seq = UINT64_MAX;
}

/* Unlinks an emptied block; keeps it as the spare if it is a full one. */
static void
sb_block_done(struct lz_sb *sb, struct lz_sbblock *b)
{
	if (b->prev != NULL)
		b->prev->next = b->next;
	else
		sb->first = b->next;
	if (b->next != NULL)
		b->next->prev = b->prev;
	else
		sb->last = b->prev;
	if (sb->spare == NULL && b->size == SB_BLOCK) {
		b->used = 0;
		b->lines = 0;
		sb->spare = b;
	} else
		free(b);
}

/* Room for a line of sz bytes at the end of the newest block. */
static struct lz_sbline *
sb_alloc(struct lz_sb *sb, size_t sz)
{
	struct lz_sbblock *b = sb->last;
	size_t size;

	if (b == NULL || b->size - b->used < sz) {
		size = b == NULL ? SB_BLOCK_MIN : b->size * 2;
		if (size > SB_BLOCK)
			size = SB_BLOCK;
		if (size < sz)
			size = sz;	/* a line longer than a block */
		if (size == SB_BLOCK && sb->spare != NULL) {
			b = sb->spare;
			sb->spare = NULL;
		} else {
			b = lz_xmalloc(sizeof *b + size);
			b->size = size;
		}
		b->used = 0;
		b->lines = 0;
		b->next = NULL;
		b->prev = sb->last;
		if (sb->last != NULL)
			sb->last->next = b;
		else
			sb->first = b;
		sb->last = b;
	}
	b->used += sz;
	b->lines++;
	return (struct lz_sbline *)(void *)(b->data + b->used - sz);
}

/* Slot i of the ring counted from the oldest line. */
static size_t
sb_slot(const struct lz_sb *sb, size_t i)
{
	i += sb->head;
	return i >= sb->alloc ? i - sb->alloc : i;
}

/* How many lines ahead of the oldest lz_sbi_drop_oldest prefetches. */
#define SB_DROP_AHEAD 8

void
lz_sbi_drop_oldest(struct lz_sb *sb)
{
	struct lz_sbline *l = sb->ring[sb->head];
	struct lz_sbblock *b = sb->first;

	sb->bytes -= sizeof *l + l->len;
	if (--b->lines == 0)
		sb_block_done(sb, b);
	sb->ring[sb->head] = NULL;
	if (++sb->head == sb->alloc)
		sb->head = 0;
	sb->count--;
	/*
	 * The line dropped next time or a few after is long out of the
	 * cache, and its header is all this reads of it: ask for it now.
	 */
	if (sb->count > SB_DROP_AHEAD)
		__builtin_prefetch(sb->ring[sb_slot(sb, SB_DROP_AHEAD)]);
}

void
lz_sb_free(struct lz_sb *sb)
{
	struct lz_sbblock *b, *next;

	for (b = sb->first; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(sb->spare);
	free(sb->ring);
	free(sb->scratch);
	free(sb->enc);
	memset(sb, 0, sizeof *sb);
}

/* Appends an encoded line (n bytes at data) as the newest. */
void
lz_sbi_push(struct lz_sb *sb, const unsigned char *data, size_t n,
    int ncells, int wrapped)
{
	struct lz_sbline *l, **nring;
	size_t nalloc, i;

	if (sb->max_lines == 0)
		return;
	if (n > UINT16_MAX || ncells < 0 || ncells > LZ_SB_MAX_COLS)
		LZ_BUG("scrollback line of %d cells, %zu bytes", ncells, n);
	if (sb->count == sb->max_lines)
		lz_sbi_drop_oldest(sb);
	if (sb->count == sb->alloc) {
		/* Grow by doubling up to the bound, unwrapping the ring. */
		nalloc = sb->alloc == 0 ? 64 : sb->alloc * 2;
		if (nalloc > sb->max_lines)
			nalloc = sb->max_lines;
		nring = lz_xcalloc(nalloc, sizeof *nring);
		for (i = 0; i < sb->count; i++)
			nring[i] = sb->ring[sb_slot(sb, i)];
		free(sb->ring);
		sb->ring = nring;
		sb->alloc = nalloc;
		sb->head = 0;
	}
	l = sb_alloc(sb, sbline_size(n));
	l->len = (uint16_t)n;
	l->ncells = (uint16_t)((unsigned)ncells | (wrapped ? SB_WRAPPED : 0));
	if (n > 0)
		memcpy(l->data, data, n);
	sb->ring[sb_slot(sb, sb->count)] = l;
	sb->count++;
	sb->pushed++;
	sb->bytes += sizeof *l + l->len;
	while (sb->bytes > sb->max_bytes && sb->count > 1)
		lz_sbi_drop_oldest(sb);
}

void
lz_sb_push(struct lz_sb *sb, const struct lz_cell *cells, int ncols,
    int wrapped)
{
	size_t n;
	int ncells;

	if (sb->max_lines == 0)
		return;
	n = lz_sbi_encode(cells, ncols, &sb->enc, &sb->encalloc, &ncells);
	lz_sbi_push(sb, sb->enc, n, ncells, wrapped);
}

void
lz_sb_push_row(struct lz_sb *sb, const struct lz_cell *cells, int ncols,
    int wrapped, const struct lz_rowenc *enc)
{
#ifndef NDEBUG
	size_t n;
	int ncells;
#endif

	if (enc == NULL || !enc->valid) {
		lz_sb_push(sb, cells, ncols, wrapped);
		return;
	}
	if (sb->max_lines == 0)
		return;
#ifndef NDEBUG
	/* What was kept is what a pass over the cells gives. */
	n = lz_sbi_encode(cells, ncols, &sb->enc, &sb->encalloc, &ncells);
	if (n != enc->len || ncells != enc->ncells ||
	    (n > 0 && memcmp(sb->enc, enc->buf, n) != 0))
		LZ_BUG("row encoding kept as %zu bytes, %d cells; %zu, %d "
		    "from its cells", enc->len, enc->ncells, n, ncells);
#endif
	lz_sbi_push(sb, enc->buf, enc->len, enc->ncells, wrapped);
}

int
lz_sb_pop(struct lz_sb *sb, struct lz_cell *out, int ncols)
{
	struct lz_sbline *l;
	struct lz_sbblock *b = sb->last;
	size_t slot;
	int wrapped;

	if (sb->count == 0)
		return -1;
	slot = sb_slot(sb, sb->count - 1);
	l = sb->ring[slot];
	wrapped = (l->ncells & SB_WRAPPED) != 0;
	sb_decode(l, out, ncols);
	sb->bytes -= sizeof *l + l->len;
	/* The newest line is the last thing in the newest block. */
	b->used -= sbline_size(l->len);
	if (--b->lines == 0)
		sb_block_done(sb, b);
	sb->ring[slot] = NULL;
	sb->count--;
	sb->pushed--;
	sb->scratch_seq = UINT64_MAX;
	return wrapped;
}

size_t
lz_sb_lines(const struct lz_sb *sb)
{
	return sb->count;
}

size_t
lz_sb_bytes(const struct lz_sb *sb)
{
	return sb->bytes;
}

void
lz_sb_set_wrapped(struct lz_sb *sb, size_t idx)
{
	if (idx < sb->count)
		sb->ring[sb_slot(sb, sb->count - 1 - idx)]->ncells |=
		    SB_WRAPPED;
}

int
lz_sb_wrapped(const struct lz_sb *sb, size_t idx)
{
	if (idx >= sb->count)
		return 0;
	return (sb->ring[sb_slot(sb, sb->count - 1 - idx)]->ncells &
	    SB_WRAPPED) != 0;
}

const struct lz_cell *
lz_sb_cell(struct lz_sb *sb, size_t idx, int col)
{
	const struct lz_sbline *l;
	uint64_t seq;

	if (idx >= sb->count || col < 0)
		return NULL;
	seq = sb->pushed - 1 - idx;
	l = sb->ring[sb_slot(sb, sb->count - 1 - idx)];
	if (sb->scratch_seq != seq) {
		if ((int)SB_NCELLS(l) > sb->scratch_cols) {
			sb->scratch = lz_xreallocarray(sb->scratch,
			    SB_NCELLS(l), sizeof *sb->scratch);
			sb->scratch_cols = (int)SB_NCELLS(l);
		}
		if (SB_NCELLS(l) > 0)
			sb_decode(l, sb->scratch, (int)SB_NCELLS(l));
		sb->scratch_seq = seq;
	}
	if (col >= (int)SB_NCELLS(l))
		return &blank_cell;
	return &sb->scratch[col];
}
