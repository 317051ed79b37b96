/*
 * grid.c: the cell grid and the scrollback ring of grid.h. Knows nothing
 * of escape sequences; ui/pane.c turns libvterm's state callbacks into the
 * calls below.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/grid.h"

/* Scrollback encoding: bytes that never occur in UTF-8. */
#define SB_PEN 0xff		/* followed by fg(4) bg(4) attr(2), LE */
#define SB_COMB 0xfe		/* followed by a combining code point */
#define SB_WIDE 0xfd		/* the next character is a wide head */
#define SB_BLANK 0xfc		/* a blank cell */
#define SB_PEN_LEN 11
/* The most one cell can take: pen, wide mark, base, three combining. */
#define SB_CELL_MAX (SB_PEN_LEN + 1 + 4 + (LZ_CELL_CHARS - 1) * 5)

struct lz_sbline {
	uint32_t len;		/* bytes of data */
	uint32_t ncells;	/* cells encoded, continuation cells included */
	unsigned char data[];
};

static const struct lz_cell blank_cell = { .width = 1 };

void
lz_cell_blank(struct lz_cell *c, uint32_t bg)
{
	memset(c, 0, sizeof *c);
	c->bg = bg;
	c->width = 1;
}

static struct lz_cell *
row_new(int cols)
{
	struct lz_cell *r = lz_xreallocarray(NULL, (size_t)cols, sizeof *r);
	int i;

	for (i = 0; i < cols; i++)
		lz_cell_blank(&r[i], LZ_COLOR_DEFAULT);
	return r;
}

void
lz_grid_init(struct lz_grid *g, int rows, int cols)
{
	int i;

	if (rows < 1 || cols < 1)
		LZ_BUG("grid of %d x %d", rows, cols);
	g->rows = rows;
	g->cols = cols;
	g->row = lz_xcalloc((size_t)rows, sizeof *g->row);
	for (i = 0; i < rows; i++)
		g->row[i] = row_new(cols);
}

void
lz_grid_free(struct lz_grid *g)
{
	int i;

	if (g->row == NULL)
		return;
	for (i = 0; i < g->rows; i++)
		free(g->row[i]);
	free(g->row);
	g->row = NULL;
}

/*
 * Restores the wide-character invariant across the boundary between
 * columns x - 1 and x of row r: a head must be followed by its
 * continuation, and a continuation must follow a head.
 */
static void
fix_pair(struct lz_cell *r, int cols, int x)
{
	int head = x > 0 && x - 1 < cols && r[x - 1].width == 2;
	int cont = x >= 0 && x < cols && r[x].ch[0] == LZ_CELL_CONT;

	if (head && !cont)
		lz_cell_blank(&r[x - 1], r[x - 1].bg);
	else if (cont && !head)
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
	if (width == 2) {
		c[1] = *c;
		memset(c[1].ch, 0, sizeof c[1].ch);
		c[1].ch[0] = LZ_CELL_CONT;
		c[1].width = 0;
	}
	fix_pair(r, g->cols, col);
	fix_pair(r, g->cols, col + width);
}

void
lz_grid_erase(struct lz_grid *g, int r0, int r1, int c0, int c1, uint32_t bg,
    int selective)
{
	struct lz_cell *r;
	int y, x;

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
	for (y = r0; y < r1; y++) {
		r = g->row[y];
		for (x = c0; x < c1; x++) {
			if (selective && (r[x].attr & LZ_ATTR_PROTECTED))
				continue;
			lz_cell_blank(&r[x], bg);
		}
		fix_pair(r, g->cols, c0);
		fix_pair(r, g->cols, c1);
	}
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
		memmove(&g->row[dr0 + y][dc0], &g->row[sr0 + y][sc0],
		    (size_t)ncols * sizeof(struct lz_cell));
	}
	for (i = 0; i < nrows; i++) {
		fix_pair(g->row[dr0 + i], g->cols, dc0);
		fix_pair(g->row[dr0 + i], g->cols, dc0 + ncols);
	}
}

void
lz_grid_scroll(struct lz_grid *g, int top, int bottom, int n, uint32_t bg,
    void (*out)(const struct lz_cell *, int, void *), void *user)
{
	struct lz_cell **save;
	int height, k, i;

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
	save = lz_xreallocarray(NULL, (size_t)k, sizeof *save);
	if (n > 0) {
		for (i = 0; i < k; i++) {
			if (out != NULL)
				out(g->row[top + i], g->cols, user);
			save[i] = g->row[top + i];
		}
		memmove(&g->row[top], &g->row[top + k],
		    (size_t)(height - k) * sizeof *g->row);
		memcpy(&g->row[bottom - k], save, (size_t)k * sizeof *save);
		for (i = bottom - k; i < bottom; i++)
			lz_grid_erase(g, i, i + 1, 0, g->cols, bg, 0);
	} else {
		memcpy(save, &g->row[bottom - k], (size_t)k * sizeof *save);
		memmove(&g->row[top + k], &g->row[top],
		    (size_t)(height - k) * sizeof *g->row);
		memcpy(&g->row[top], save, (size_t)k * sizeof *save);
		for (i = top; i < top + k; i++)
			lz_grid_erase(g, i, i + 1, 0, g->cols, bg, 0);
	}
	free(save);
}

void
lz_grid_resize(struct lz_grid *g, int rows, int cols, int drop_top,
    void (*out)(const struct lz_cell *, int, void *), void *user)
{
	struct lz_cell **nrow;
	struct lz_cell *r;
	int i, keep, x;

	if (rows < 1 || cols < 1)
		LZ_BUG("grid resize to %d x %d", rows, cols);
	if (drop_top < 0)
		drop_top = 0;
	if (drop_top > g->rows)
		drop_top = g->rows;
	for (i = 0; i < drop_top; i++) {
		if (out != NULL)
			out(g->row[i], g->cols, user);
		free(g->row[i]);
	}
	keep = g->rows - drop_top;
	if (keep > rows) {
		for (i = drop_top + rows; i < g->rows; i++)
			free(g->row[i]);
		keep = rows;
	}
	nrow = lz_xcalloc((size_t)rows, sizeof *nrow);
	for (i = 0; i < keep; i++) {
		r = g->row[drop_top + i];
		if (cols != g->cols) {
			r = lz_xreallocarray(r, (size_t)cols, sizeof *r);
			for (x = g->cols; x < cols; x++)
				lz_cell_blank(&r[x], LZ_COLOR_DEFAULT);
			fix_pair(r, cols, cols);
		}
		nrow[i] = r;
	}
	for (; i < rows; i++)
		nrow[i] = row_new(cols);
	free(g->row);
	g->row = nrow;
	g->rows = rows;
	g->cols = cols;
}

/* Scrollback. */

static size_t
put_utf8(unsigned char *p, uint32_t cp)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		p[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (unsigned char)(0xc0 | cp >> 6);
		p[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = (unsigned char)(0xe0 | cp >> 12);
		p[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		p[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	p[0] = (unsigned char)(0xf0 | cp >> 18);
	p[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	p[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	p[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Decodes what put_utf8 wrote; *pos moves past it. */
static uint32_t
get_utf8(const unsigned char *p, size_t len, size_t *pos)
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

static struct lz_sbline *
sb_encode(const struct lz_cell *cells, int ncols, unsigned char **buf,
    size_t *bufalloc)
{
	struct lz_sbline *l;
	const struct lz_cell *c;
	unsigned char *p;
	uint32_t fg = 0, bg = 0;
	uint16_t attr = 0;
	size_t need, n = 0;
	int last = ncols, i, k, head = 0;

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
		if (c->ch[0] == LZ_CELL_CONT && head) {
			head = 0;
			continue;
		}
		head = 0;
		if (c->fg != fg || c->bg != bg || c->attr != attr) {
			fg = c->fg;
			bg = c->bg;
			attr = c->attr;
			p[n] = SB_PEN;
			put_u32(p + n + 1, fg);
			put_u32(p + n + 5, bg);
			p[n + 9] = (unsigned char)attr;
			p[n + 10] = (unsigned char)(attr >> 8);
			n += SB_PEN_LEN;
		}
		if (c->ch[0] == 0 || c->ch[0] == LZ_CELL_CONT) {
			p[n++] = SB_BLANK;
			continue;
		}
		if (c->width == 2) {
			p[n++] = SB_WIDE;
			head = 1;
		}
		n += put_utf8(p + n, c->ch[0]);
		for (k = 1; k < LZ_CELL_CHARS && c->ch[k] != 0; k++) {
			p[n++] = SB_COMB;
			n += put_utf8(p + n, c->ch[k]);
		}
	}
	l = lz_xmalloc(sizeof *l + n);
	l->len = (uint32_t)n;
	l->ncells = (uint32_t)last;
	memcpy(l->data, p, n);
	return l;
}

/* Decodes l into out[0..ncols); the rest of out is blank. */
static void
sb_decode(const struct lz_sbline *l, struct lz_cell *out, int ncols)
{
	const unsigned char *p = l->data;
	struct lz_cell *c;
	uint32_t fg = 0, bg = 0;
	uint16_t attr = 0;
	size_t pos = 0;
	int col = 0, wide, k;

	while (pos < l->len && col < ncols) {
		if (p[pos] == SB_PEN) {
			if (l->len - pos < SB_PEN_LEN)
				break;
			fg = get_u32(p + pos + 1);
			bg = get_u32(p + pos + 5);
			attr = (uint16_t)(p[pos + 9] | p[pos + 10] << 8);
			pos += SB_PEN_LEN;
			continue;
		}
		c = &out[col];
		lz_cell_blank(c, bg);
		c->fg = fg;
		c->attr = attr;
		if (p[pos] == SB_BLANK) {
			pos++;
			col++;
			continue;
		}
		wide = p[pos] == SB_WIDE;
		if (wide)
			pos++;
		if (pos >= l->len)
			break;
		c->ch[0] = get_utf8(p, l->len, &pos);
		for (k = 1; pos < l->len && p[pos] == SB_COMB; k++) {
			pos++;
			if (pos >= l->len)
				break;
			if (k < LZ_CELL_CHARS)
				c->ch[k] = get_utf8(p, l->len, &pos);
			else
				(void)get_utf8(p, l->len, &pos);
		}
		col++;
		if (wide) {
			if (col >= ncols) {
				/* The right half would not fit. */
				lz_cell_blank(c, bg);
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
	for (; col < ncols; col++)
		lz_cell_blank(&out[col], LZ_COLOR_DEFAULT);
}

void
lz_sb_init(struct lz_sb *sb, size_t max_lines, size_t max_bytes)
{
	memset(sb, 0, sizeof *sb);
	sb->max_lines = max_lines;
	sb->max_bytes = max_bytes;
	sb->scratch_seq = UINT64_MAX;
}

static void
sb_drop_oldest(struct lz_sb *sb)
{
	struct lz_sbline *l = sb->ring[sb->head];

	sb->bytes -= sizeof *l + l->len;
	free(l);
	sb->ring[sb->head] = NULL;
	sb->head = (sb->head + 1) % sb->alloc;
	sb->count--;
}

void
lz_sb_free(struct lz_sb *sb)
{
	while (sb->count > 0)
		sb_drop_oldest(sb);
	free(sb->ring);
	free(sb->scratch);
	free(sb->enc);
	memset(sb, 0, sizeof *sb);
}

void
lz_sb_push(struct lz_sb *sb, const struct lz_cell *cells, int ncols)
{
	struct lz_sbline *l, **nring;
	size_t nalloc, i;

	if (sb->max_lines == 0)
		return;
	if (sb->count == sb->max_lines)
		sb_drop_oldest(sb);
	if (sb->count == sb->alloc) {
		/* Grow by doubling up to the bound, unwrapping the ring. */
		nalloc = sb->alloc == 0 ? 64 : sb->alloc * 2;
		if (nalloc > sb->max_lines)
			nalloc = sb->max_lines;
		nring = lz_xcalloc(nalloc, sizeof *nring);
		for (i = 0; i < sb->count; i++)
			nring[i] = sb->ring[(sb->head + i) % sb->alloc];
		free(sb->ring);
		sb->ring = nring;
		sb->alloc = nalloc;
		sb->head = 0;
	}
	l = sb_encode(cells, ncols, &sb->enc, &sb->encalloc);
	sb->ring[(sb->head + sb->count) % sb->alloc] = l;
	sb->count++;
	sb->pushed++;
	sb->bytes += sizeof *l + l->len;
	while (sb->bytes > sb->max_bytes && sb->count > 1)
		sb_drop_oldest(sb);
}

int
lz_sb_pop(struct lz_sb *sb, struct lz_cell *out, int ncols)
{
	struct lz_sbline *l;
	size_t slot;

	if (sb->count == 0)
		return -1;
	slot = (sb->head + sb->count - 1) % sb->alloc;
	l = sb->ring[slot];
	sb_decode(l, out, ncols);
	sb->bytes -= sizeof *l + l->len;
	free(l);
	sb->ring[slot] = NULL;
	sb->count--;
	sb->pushed--;
	sb->scratch_seq = UINT64_MAX;
	return 0;
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

const struct lz_cell *
lz_sb_cell(struct lz_sb *sb, size_t idx, int col)
{
	const struct lz_sbline *l;
	uint64_t seq;

	if (idx >= sb->count || col < 0)
		return NULL;
	seq = sb->pushed - 1 - idx;
	l = sb->ring[(sb->head + sb->count - 1 - idx) % sb->alloc];
	if (sb->scratch_seq != seq) {
		if ((int)l->ncells > sb->scratch_cols) {
			sb->scratch = lz_xreallocarray(sb->scratch, l->ncells,
			    sizeof *sb->scratch);
			sb->scratch_cols = (int)l->ncells;
		}
		if (l->ncells > 0)
			sb_decode(l, sb->scratch, (int)l->ncells);
		sb->scratch_seq = seq;
	}
	if (col >= (int)l->ncells)
		return &blank_cell;
	return &sb->scratch[col];
}
