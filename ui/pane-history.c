/*
 * pane-history.c: scrollback lines as ANSI (see pane-history.h). Each line
 * is printed with CR LF from the top of a cleared screen; rows - 1 more
 * line feeds then push the last of them above the screen, into the
 * receiving pane's scrollback, in order.
 */
#include "ui/pane-history.h"

static void
colour_sgr(uint32_t c, int base, struct lz_buf *out)
{
	unsigned i = c & 0xff;

	switch (LZ_COLOR_KIND(c)) {
	case LZ_COLOR_KIND_INDEXED:
		if (i < 8)
			lz_buf_addf(out, ";%u", base + i);
		else if (i < 16)
			lz_buf_addf(out, ";%u", base + 60 + i - 8);
		else
			lz_buf_addf(out, ";%u;5;%u", base + 8, i);
		break;
	case LZ_COLOR_KIND_RGB:
		lz_buf_addf(out, ";%u;2;%u;%u;%u", base + 8, c >> 16 & 0xff,
		    c >> 8 & 0xff, c & 0xff);
		break;
	default:
		break;
	}
}

void
lz_sgr_of_cell(const struct lz_cell *c, struct lz_buf *out)
{
	static const char *const ul[4] = { "", ";4", ";4:2", ";4:3" };

	lz_buf_adds(out, "\033[0");
	if (c->attr & LZ_ATTR_BOLD)
		lz_buf_adds(out, ";1");
	if (c->attr & LZ_ATTR_ITALIC)
		lz_buf_adds(out, ";3");
	lz_buf_adds(out, ul[LZ_ATTR_UNDERLINE(c->attr)]);
	if (c->attr & LZ_ATTR_BLINK)
		lz_buf_adds(out, ";5");
	if (c->attr & LZ_ATTR_REVERSE)
		lz_buf_adds(out, ";7");
	if (c->attr & LZ_ATTR_STRIKE)
		lz_buf_adds(out, ";9");
	colour_sgr(c->fg, 30, out);
	colour_sgr(c->bg, 40, out);
	lz_buf_addch(out, 'm');
}

static void
put_utf8(struct lz_buf *out, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	lz_buf_add(out, b, n);
}

static int
blank_default(const struct lz_cell *c)
{
	return c->ch[0] == 0 && c->bg == LZ_COLOR_DEFAULT &&
	    !(c->attr & LZ_ATTR_REVERSE);
}

/* One scrollback line: cells up to the last non-blank one. */
static void
line(const struct lz_pane *p, size_t n, int cols, struct lz_buf *out)
{
	struct lz_cell cells[LZ_PANE_MAX_COLS];
	const struct lz_cell *c;
	int end = 0, col, i;

	for (col = 0; col < cols; col++) {
		c = lz_pane_scrollback_cell(p, n, col);
		if (c == NULL)
			break;
		cells[col] = *c;
		if (!blank_default(c))
			end = col + 1;
	}
	for (col = 0; col < end; col++) {
		c = &cells[col];
		if (col == 0 || c->fg != cells[col - 1].fg ||
		    c->bg != cells[col - 1].bg ||
		    c->attr != cells[col - 1].attr)
			lz_sgr_of_cell(c, out);
		if (c->ch[0] == LZ_CELL_CONT)
			continue;
		if (c->ch[0] == 0) {
			lz_buf_addch(out, ' ');
			continue;
		}
		for (i = 0; i < LZ_CELL_CHARS && c->ch[i] != 0; i++)
			put_utf8(out, c->ch[i]);
	}
	lz_buf_adds(out, "\033[0m\r\n");
}

void
lz_pane_render_history(const struct lz_pane *p, size_t max,
    struct lz_buf *out)
{
	size_t have = lz_pane_scrollback_lines(p), n, i;
	unsigned rows = lz_pane_rows(p);

	n = have < max ? have : max;
	if (n == 0)
		return;
	lz_buf_adds(out, "\033[0m\033[H\033[2J");
	for (i = n; i-- > 0;)
		line(p, i, (int)lz_pane_cols(p), out);
	for (i = 1; i < rows; i++)
		lz_buf_adds(out, "\r\n");
}
