/*
 * fuzz-pane.c: libFuzzer target for the pane emulator's input path
 * (ui/pane.c, with libvterm 0.1.4 behind its guard). The input is a script:
 * byte 0 picks the first size, then each chunk starts with a control byte
 * whose low bits give the chunk length and whose top bit asks for a resize
 * (the next two bytes give rows and columns) before it. Whatever comes in:
 * no crash, no leak (ASan), every cell reachable and consistent (a wide
 * head is followed by its continuation), the cursor on the screen, the
 * scrollback within its bounds, the snapshot replays into a pane of the
 * same size with the same cells and soft wraps (fuzz-snapshot.c checks
 * the rest, fuzz-reflow.c the reflow on resizes), and every screen row comes
 * back from the scrollback encoding (ui/grid.h) cell for cell.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
nop_reply(const char *buf, size_t len, void *user)
{
	(void)buf;
	(void)user;
	if (len == 0)
		abort();
}

static void
check(const struct lz_pane *p)
{
	const struct lz_pane_props *pr = lz_pane_props(p);
	const struct lz_cell *c;
	int r, col, rows = (int)lz_pane_rows(p), cols = (int)lz_pane_cols(p);

	if (pr->cursor_row < 0 || pr->cursor_row >= rows ||
	    pr->cursor_col < 0 || pr->cursor_col >= cols)
		abort();
	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++) {
			c = lz_pane_cell(p, r, col);
			if (c == NULL)
				abort();
			if (c->width == 2 && (col + 1 >= cols ||
			    lz_pane_cell(p, r, col + 1)->ch[0] != LZ_CELL_CONT))
				abort();
			if (c->ch[0] == LZ_CELL_CONT && (col == 0 ||
			    lz_pane_cell(p, r, col - 1)->width != 2))
				abort();
		}
	}
	if (lz_pane_scrollback_lines(p) > 64 ||
	    lz_pane_scrollback_bytes(p) > LZ_PANE_SB_MAX_BYTES)
		abort();
	if (strlen(lz_pane_title(p)) > LZ_PANE_TITLE_MAX)
		abort();
}

/* The serialised screen gives the same cells in a fresh pane. */
static void
replay(const struct lz_pane *p)
{
	struct lz_pane_cb cb = { nop_reply, NULL };
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_pane *q;
	const struct lz_cell *a, *b;
	const char *ua, *ub;
	int r, col;

	lz_pane_render_ansi(p, &out);
	q = lz_pane_new(lz_pane_rows(p), lz_pane_cols(p), 0, &cb, NULL);
	lz_pane_restore_begin(q);
	lz_pane_feed(q, out.buf, out.len);
	lz_pane_restore_end(q);
	for (r = 0; r < (int)lz_pane_rows(p); r++) {
		for (col = 0; col < (int)lz_pane_cols(p); col++) {
			a = lz_pane_cell(p, r, col);
			b = lz_pane_cell(q, r, col);
			ua = lz_pane_link(p, LZ_ATTR_LINK(a->attr));
			ub = lz_pane_link(q, LZ_ATTR_LINK(b->attr));
			if (memcmp(a->ch, b->ch, sizeof a->ch) != 0 ||
			    a->fg != b->fg || a->bg != b->bg ||
			    ((a->attr ^ b->attr) & ~LZ_ATTR_LINK_MASK) != 0 ||
			    a->width != b->width || (ua == NULL) != (ub == NULL) ||
			    (ua != NULL && strcmp(ua, ub) != 0))
				abort();
		}
	}
	for (r = 0; r < (int)lz_pane_rows(p); r++) {
		if (lz_pane_wrapped(p, r) != lz_pane_wrapped(q, r))
			abort();
	}
	if (lz_pane_props(p)->cursor_row != lz_pane_props(q)->cursor_row ||
	    lz_pane_props(p)->cursor_col != lz_pane_props(q)->cursor_col)
		abort();
	lz_pane_free(q);
	lz_buf_release(&out);
}

/* Every row of the screen survives the scrollback's encoding as it is. */
static void
sb_round_trip(const struct lz_pane *p)
{
	const struct lz_cell *a, *b;
	struct lz_cell row[LZ_PANE_MAX_COLS];
	struct lz_sb sb;
	int r, col, rows = (int)lz_pane_rows(p), cols = (int)lz_pane_cols(p);

	lz_sb_init(&sb, 4, 1 << 20);
	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++)
			row[col] = *lz_pane_cell(p, r, col);
		lz_sb_push(&sb, row, cols, 0);
		for (col = 0; col < cols; col++) {
			a = &row[col];
			b = lz_sb_cell(&sb, 0, col);
			if (b == NULL || memcmp(a->ch, b->ch, sizeof a->ch) != 0 ||
			    a->fg != b->fg || a->bg != b->bg ||
			    a->attr != b->attr || a->width != b->width)
				abort();
		}
	}
	lz_sb_free(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_pane_cb cb = { nop_reply, NULL };
	struct lz_pane *p;
	size_t i = 1, n;
	uint8_t ctl;

	if (size == 0)
		return 0;
	p = lz_pane_new(1 + data[0] % 40, 1 + data[0] / 3 % 100, 64, &cb, NULL);
	while (i < size) {
		ctl = data[i++];
		if ((ctl & 0x80) && i + 2 <= size) {
			lz_pane_resize(p, 1 + data[i] % 60, 1 + data[i + 1] % 150);
			i += 2;
		}
		n = 1 + (ctl & 0x7f) * 3;
		if (n > size - i)
			n = size - i;
		lz_pane_feed(p, (const char *)data + i, n);
		i += n;
		if (ctl & 0x40)
			lz_pane_clear_dirty(p);
	}
	check(p);
	replay(p);
	sb_round_trip(p);
	lz_pane_free(p);
	return 0;
}
