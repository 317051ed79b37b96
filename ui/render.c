/*
 * render.c: the frame diff (see render.h).
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/utf8.h"
#include "ui/render.h"

static void
cells_blank(struct lz_cell *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		lz_cell_blank(&c[i], LZ_COLOR_DEFAULT);
}

void
lz_render_init(struct lz_render *r, const struct lz_term *t, int rows,
    int cols)
{
	memset(r, 0, sizeof *r);
	r->t = t;
	lz_render_resize(r, rows, cols);
}

static void
links_clear(struct lz_render *r)
{
	int i;

	for (i = 0; i < r->nlink; i++)
		free(r->link[i]);
	r->nlink = 0;
}

void
lz_render_free(struct lz_render *r)
{
	free(r->front);
	free(r->back);
	r->front = r->back = NULL;
	links_clear(r);
}

void
lz_render_links(struct lz_render *r,
    int (*policy)(const char *uri, struct lz_buf *out, void *user),
    void *user)
{
	r->policy = policy;
	r->policy_user = user;
}

/*
 * The renderer's number for a pane's URI: the host's URI kept once, 0 if
 * the policy refuses it or no number is free (until the next flush).
 */
static int
link_number(struct lz_render *r, const char *uri)
{
	struct lz_buf host = LZ_BUF_INIT;
	int i, k = 0;

	if (r->policy == NULL || !r->t->hyperlinks ||
	    !r->policy(uri, &host, r->policy_user)) {
		lz_buf_release(&host);
		return 0;
	}
	for (i = 0; i < r->nlink; i++) {
		if (strcmp(r->link[i], host.buf) == 0)
			k = i + 1;
	}
	if (k == 0 && r->nlink < LZ_RENDER_LINKS) {
		r->link[r->nlink] = lz_buf_detach(&host);
		k = ++r->nlink;
	}
	lz_buf_release(&host);
	return k;
}

void
lz_render_resize(struct lz_render *r, int rows, int cols)
{
	size_t n;

	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	n = (size_t)rows * (size_t)cols;
	free(r->front);
	free(r->back);
	r->front = lz_xreallocarray(NULL, n, sizeof *r->front);
	r->back = lz_xreallocarray(NULL, n, sizeof *r->back);
	cells_blank(r->front, n);
	cells_blank(r->back, n);
	r->rows = rows;
	r->cols = cols;
	lz_render_invalidate(r);
}

void
lz_render_invalidate(struct lz_render *r)
{
	r->full = 1;
	r->at_row = r->at_col = -1;
	r->pen_known = 0;
	r->shown_visible = -1;
}

struct lz_cell *
lz_render_at(struct lz_render *r, int row, int col)
{
	if (row < 0 || col < 0 || row >= r->rows || col >= r->cols)
		return NULL;
	return &r->back[(size_t)row * (size_t)r->cols + (size_t)col];
}

void
lz_render_clear(struct lz_render *r, struct lz_rect rect, uint32_t bg)
{
	struct lz_cell *c;
	int row, col;

	for (row = rect.row; row < rect.row + rect.rows; row++) {
		for (col = rect.col; col < rect.col + rect.cols; col++) {
			if ((c = lz_render_at(r, row, col)) != NULL)
				lz_cell_blank(c, bg);
		}
	}
}

/* Decodes one UTF-8 character; an invalid byte gives U+FFFD. */
static size_t
utf8_next(const unsigned char *s, uint32_t *cp)
{
	size_t len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	if (len == 0 || s[0] >= 0xf8) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return i;
		}
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

int
lz_render_text(struct lz_render *r, int row, int col, int maxcols,
    const char *text, const struct lz_pen *pen)
{
	const unsigned char *s = (const unsigned char *)text;
	struct lz_cell *c;
	uint32_t cp;
	int used = 0, w;

	while (*s != '\0' && used < maxcols) {
		s += utf8_next(s, &cp);
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			cp = '?';
		w = wcwidth((wchar_t)cp);
		if (w < 1)
			continue;	/* combining marks: not in the chrome */
		if (used + w > maxcols)
			break;
		if ((c = lz_render_at(r, row, col + used)) == NULL)
			break;
		memset(c, 0, sizeof *c);
		c->ch[0] = cp;
		c->fg = pen->fg;
		c->bg = pen->bg;
		c->attr = pen->attr;
		c->width = (uint8_t)w;
		if (w == 2 && (c = lz_render_at(r, row, col + used + 1)) !=
		    NULL) {
			memset(c, 0, sizeof *c);
			c->ch[0] = LZ_CELL_CONT;
			c->fg = pen->fg;
			c->bg = pen->bg;
		}
		used += w;
	}
	return used;
}

void
lz_render_pane(struct lz_render *r, const struct lz_pane *p,
    struct lz_rect rect, size_t back)
{
	const struct lz_cell *src;
	struct lz_cell *dst;
	long line;
	int row, col, from = 0, to = 0;

	for (row = 0; row < rect.rows; row++) {
		line = (long)row - (long)back;
		for (col = 0; col < rect.cols; col++) {
			dst = lz_render_at(r, rect.row + row, rect.col + col);
			if (dst == NULL)
				break;
			if (line >= 0)
				src = lz_pane_cell(p, (int)line, col);
			else
				src = lz_pane_scrollback_cell(p,
				    (size_t)(-line - 1), col);
			if (src == NULL) {
				lz_cell_blank(dst, LZ_COLOR_DEFAULT);
				continue;
			}
			*dst = *src;
			if (dst->attr & LZ_ATTR_LINK_MASK) {
				/* The pane's link number to the renderer's. */
				if (LZ_ATTR_LINK(dst->attr) != from) {
					from = LZ_ATTR_LINK(dst->attr);
					to = link_number(r, lz_pane_link(p,
					    from));
				}
				dst->attr = (uint16_t)((dst->attr &
				    ~LZ_ATTR_LINK_MASK) |
				    (unsigned)to << LZ_ATTR_LINK_SHIFT);
			}
			/* Half a wide character at either edge: a blank. */
			if ((src->width == 2 && col == rect.cols - 1) ||
			    (src->ch[0] == LZ_CELL_CONT && col == 0))
				lz_cell_blank(dst, src->bg);
		}
	}
}

void
lz_render_cursor(struct lz_render *r, int row, int col, int visible)
{
	r->cur_row = row;
	r->cur_col = col;
	r->cur_visible = visible;
}

void
lz_render_enter(const struct lz_term *t, struct lz_buf *out)
{
	if (t->smcup != NULL)
		lz_buf_adds(out, t->smcup);
	if (t->rmam != NULL)
		lz_buf_adds(out, t->rmam);
	if (t->sgr0 != NULL)
		lz_buf_adds(out, t->sgr0);
	if (t->clear != NULL)
		lz_buf_adds(out, t->clear);
}

void
lz_render_leave(const struct lz_term *t, struct lz_buf *out)
{
	if (t->sgr0 != NULL)
		lz_buf_adds(out, t->sgr0);
	if (t->cnorm != NULL)
		lz_buf_adds(out, t->cnorm);
	if (t->smam != NULL)
		lz_buf_adds(out, t->smam);
	if (t->rmcup != NULL)
		lz_buf_adds(out, t->rmcup);
}

static int
pen_equal(const struct lz_pen *a, const struct lz_cell *c)
{
	return a->fg == c->fg && a->bg == c->bg &&
	    ((a->attr ^ c->attr) & ~LZ_ATTR_LINK_MASK) == 0;
}

/* Opens the cell's hyperlink on the terminal, or closes the open one. */
static void
set_link(struct lz_render *r, const struct lz_cell *c, struct lz_buf *out)
{
	int k = LZ_ATTR_LINK(c->attr);

	if (k == r->at_link || k > r->nlink)
		return;
	lz_buf_addf(out, "\033]8;;%s\033\\", k ? r->link[k - 1] : "");
	r->at_link = k;
}

/* Sets the terminal's pen to the cell's: reset, then what is on. */
static void
set_pen(struct lz_render *r, const struct lz_cell *c, struct lz_buf *out)
{
	const struct lz_term *t = r->t;
	uint16_t a = c->attr;

	if (r->pen_known && pen_equal(&r->pen, c))
		return;
	if (t->sgr0 != NULL)
		lz_buf_adds(out, t->sgr0);
	if ((a & LZ_ATTR_BOLD) && t->bold)
		lz_buf_adds(out, t->bold);
	if ((a & LZ_ATTR_ITALIC) && t->sitm)
		lz_buf_adds(out, t->sitm);
	if (LZ_ATTR_UNDERLINE(a) && t->smul)
		lz_buf_adds(out, t->smul);
	if ((a & LZ_ATTR_BLINK) && t->blink)
		lz_buf_adds(out, t->blink);
	if ((a & LZ_ATTR_REVERSE) && t->rev)
		lz_buf_adds(out, t->rev);
	if ((a & LZ_ATTR_STRIKE) && t->smxx)
		lz_buf_adds(out, t->smxx);
	lz_term_colours(t, out, c->fg, c->bg);
	r->pen.fg = c->fg;
	r->pen.bg = c->bg;
	r->pen.attr = c->attr;
	r->pen_known = 1;
}

/*
 * Writes the cell's glyph, taking exactly w columns on the terminal.
 * The pane gives a glyph the C library's width as its tables were made
 * (ui/vtchar.c); the terminal outside goes by its own, which the C
 * library's wcwidth in the TUI's locale stands for (as it does for
 * tmux). Where the two disagree (unassigned code points the terminal may
 * not draw at all, another C library), writing the glyph would move the
 * terminal's cursor off the column every later cell of the row is drawn
 * at, and the row's last glyph over the border beside the pane: such a
 * glyph is drawn as U+FFFD in its w columns, and a combining mark the
 * terminal would not join is left out.
 */
static void
put_cell(struct lz_render *r, const struct lz_cell *c, int w,
    struct lz_buf *out)
{
	int i;

	if (c->ch[0] == 0) {
		lz_buf_addch(out, ' ');
		return;
	}
	/* The grid holds printable characters; anything else is a bug. */
	if (c->ch[0] < 0x20 || (c->ch[0] >= 0x7f && c->ch[0] < 0xa0) ||
	    c->ch[0] > 0x10ffff || (!r->t->utf8 && c->ch[0] >= 0x80)) {
		lz_buf_addch(out, '?');
		return;
	}
	if (c->ch[0] >= 0x80 && wcwidth((wchar_t)c->ch[0]) != w) {
		lz_buf_add_utf8(out, 0xfffd);
		if (w == 2)
			lz_buf_addch(out, ' ');
		return;
	}
	lz_buf_add_utf8(out, c->ch[0]);
	for (i = 1; i < LZ_CELL_CHARS && c->ch[i] != 0; i++) {
		/*
		 * Not a zero-width joiner: terminals that draw emoji
		 * sequences (tmux 3.3a, kitty) would join the next cell's
		 * character to this one, two columns for what the pane has
		 * in four or more, and every later cell of the row would be
		 * drawn off its column.
		 */
		if (c->ch[i] <= 0x10ffff && c->ch[i] >= 0x20 &&
		    c->ch[i] != 0x200d && wcwidth((wchar_t)c->ch[i]) == 0)
			lz_buf_add_utf8(out, c->ch[i]);
	}
}

static int
cell_same(const struct lz_cell *a, const struct lz_cell *b)
{
	return memcmp(a->ch, b->ch, sizeof a->ch) == 0 && a->fg == b->fg &&
	    a->bg == b->bg && a->attr == b->attr && a->width == b->width;
}

void
lz_render_flush(struct lz_render *r, struct lz_buf *out)
{
	const struct lz_term *t = r->t;
	struct lz_cell *b, *f;
	int row, col, w, last, wrapped;

	if (r->shown_visible != 0 && t->civis != NULL) {
		lz_buf_adds(out, t->civis);	/* no flicker while drawing */
		r->shown_visible = 0;
	}
	for (row = 0; row < r->rows; row++) {
		for (col = 0; col < r->cols; col++) {
			size_t i = (size_t)row * (size_t)r->cols + (size_t)col;

			b = &r->back[i];
			f = &r->front[i];
			if (b->ch[0] == LZ_CELL_CONT)
				continue;	/* its head draws it */
			w = b->width == 2 && col + 1 < r->cols ? 2 : 1;
			if (!r->full && cell_same(b, f) && (w == 1 ||
			    cell_same(b + 1, f + 1)))
				continue;
			last = row == r->rows - 1 && col + w == r->cols;
			/* Without rmam the last cell would scroll. */
			if (last && t->rmam == NULL)
				continue;
			if (r->at_row != row || r->at_col != col)
				lz_term_goto(t, out, row, col);
			set_pen(r, b, out);
			set_link(r, b, out);
			/*
			 * Marks in the last column: with autowrap off, tmux
			 * 3.3a keeps its cursor on that column and joins them
			 * to the cell before it. With it on, the cursor stands
			 * past the glyph (no character comes before the next
			 * move), except on the last row, left as it is.
			 */
			wrapped = !last && col + w == r->cols && b->ch[1] != 0 &&
			    t->smam != NULL && t->rmam != NULL;
			if (wrapped)
				lz_buf_adds(out, t->smam);
			put_cell(r, b, w, out);
			if (wrapped)
				lz_buf_adds(out, t->rmam);
			if (w == 2 && !r->t->utf8)
				lz_buf_addch(out, ' ');	/* '?' was one column */
			r->at_row = row;
			r->at_col = col + w;
			if (r->at_col >= r->cols)
				/* A pending wrap: the position is unknown. */
				r->at_row = r->at_col = -1;
		}
	}
	memcpy(r->front, r->back, (size_t)r->rows * (size_t)r->cols *
	    sizeof *r->front);
	r->full = 0;
	if (r->at_link != 0) {
		lz_buf_adds(out, "\033]8;;\033\\");
		r->at_link = 0;
	}
	if (r->nlink > LZ_RENDER_LINKS * 3 / 4) {
		/* Numbers run short: fresh ones, and every cell drawn again. */
		links_clear(r);
		r->full = 1;
	}
	if (r->cur_visible && r->cur_row >= 0 && r->cur_row < r->rows &&
	    r->cur_col >= 0 && r->cur_col < r->cols) {
		lz_term_goto(t, out, r->cur_row, r->cur_col);
		r->at_row = r->cur_row;
		r->at_col = r->cur_col;
		if (t->cnorm != NULL)
			lz_buf_adds(out, t->cnorm);
		r->shown_visible = 1;
	}
}
