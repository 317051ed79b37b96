/*
 * fuzz-render.c: libFuzzer target for the TUI's renderer (ui/render.c):
 * any bytes into a pane, the pane drawn into a frame, the frame's output
 * for xterm-256color (24-bit on) fed into a second pane: both panes must
 * show the same characters, colours and attributes. Then the same bytes
 * again and a second, incremental frame: still the same. Needs the host's
 * xterm-256color terminfo entry (ncurses-base).
 *
 * The second pane is one column wider than the frame, so the frame never
 * writes its last column: libvterm 0.1.4 puts a combining mark written in
 * the last column on the wrong cell (with autowrap on or off), a fault of
 * the oracle, not of the frame (journal.md).
 *
 * A glyph whose width the C library (wcwidth, in C.UTF-8 as the TUI sets
 * its locale) and the pane disagree on (unassigned code points: the pane
 * takes libvterm's width there, ui/vtchar.c) is drawn as U+FFFD, followed
 * by a space if it is wide (ui/render.c put_cell): the oracle expects
 * that. Only the base characters are compared (a zero-width joiner is
 * not drawn).
 */
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/render.h"

#define ROWS 8
#define COLS 30

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What xterm-256color can carry: underline of any kind is single. */
static unsigned
attrs(const struct lz_cell *c)
{
	return (c->attr & (LZ_ATTR_BOLD | LZ_ATTR_ITALIC | LZ_ATTR_BLINK |
	    LZ_ATTR_REVERSE | LZ_ATTR_STRIKE)) | (LZ_ATTR_UNDERLINE(c->attr) ?
	    0x100 : 0);
}

/* Whether the frame draws the cell's glyph as U+FFFD. */
static int
replaced(const struct lz_cell *c)
{
	return c->ch[0] >= 0x80 && c->ch[0] != LZ_CELL_CONT &&
	    wcwidth((wchar_t)c->ch[0]) != (c->width == 2 ? 2 : 1);
}

/* The character the frame puts at row, col. */
static uint32_t
drawn(struct lz_render *r, int row, int col)
{
	const struct lz_cell *x = lz_render_at(r, row, col);

	if (x->ch[0] == LZ_CELL_CONT && col > 0 &&
	    replaced(lz_render_at(r, row, col - 1)))
		return ' ';
	if (replaced(x))
		return 0xfffd;
	return x->ch[0] ? x->ch[0] : ' ';
}

static void
compare(struct lz_render *r, struct lz_pane *b)
{
	const struct lz_cell *x, *y;
	int row, col;

	for (row = 0; row < ROWS; row++) {
		for (col = 0; col < COLS; col++) {
			x = lz_render_at(r, row, col);
			y = lz_pane_cell(b, row, col);
			if (drawn(r, row, col) != (y->ch[0] ?
			    y->ch[0] : ' ') || x->fg != y->fg ||
			    x->bg != y->bg || attrs(x) != attrs(y)) {
				fprintf(stderr, "cell %d,%d: drew U+%04X fg %08x "
				    "bg %08x attr %x, got U+%04X fg %08x bg %08x "
				    "attr %x\n", row, col, x->ch[0], x->fg, x->bg,
				    attrs(x), y->ch[0], y->fg, y->bg, attrs(y));
				abort();
			}
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lz_term t;
	static int ready;
	struct lz_pane *a, *b;
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_render r;
	struct lz_rect all = { 0, 0, ROWS, COLS };

	if (!ready) {
		if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
			abort();
		if (lz_term_load(&t, "xterm-256color", -1, NULL) != 0)
			abort();
		t.rgb = 1;
		t.utf8 = 1;
		ready = 1;
	}
	a = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	b = lz_pane_new(ROWS, COLS + 1, 0, NULL, NULL);
	lz_render_init(&r, &t, ROWS, COLS);
	lz_pane_feed(a, (const char *)data, size);
	lz_render_pane(&r, a, all, 0);
	lz_render_flush(&r, &out);
	lz_pane_feed(b, out.buf ? out.buf : "", out.len);
	compare(&r, b);
	lz_buf_reset(&out);
	lz_pane_feed(a, (const char *)data, size);
	lz_render_pane(&r, a, all, 0);
	lz_render_flush(&r, &out);
	lz_pane_feed(b, out.buf ? out.buf : "", out.len);
	compare(&r, b);
	lz_buf_release(&out);
	lz_render_free(&r);
	lz_pane_free(a);
	lz_pane_free(b);
	return 0;
}
