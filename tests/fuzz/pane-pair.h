/*
 * pane-pair.h: what the fuzz targets that run two panes side by side
 * (fuzz-snapshot.c, fuzz-reflow.c, fuzz-fast.c) share: the script's
 * tokens expanded (a byte from 0x80 stands for one of tokens[], 0xff and
 * the next byte for those past the 127th: the includer defines tokens[]
 * first, pane-tokens.h or its own) and walked a step at a time, the
 * panes and their comparison.
 * Header-only: each target is one program.
 */
#ifndef LZ_FUZZ_PANE_PAIR_H
#define LZ_FUZZ_PANE_PAIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"

struct side {
	struct lz_pane *p;
	struct lz_buf reply;
};

static void
on_reply(const char *buf, size_t len, void *user)
{
	struct side *s = user;

	if (len == 0)
		abort();
	lz_buf_add(&s->reply, buf, len);
}

static void
expand(const uint8_t *in, size_t n, struct lz_buf *out)
{
	size_t i, t;

	lz_buf_reset(out);
	for (i = 0; i < n; i++) {
		if (in[i] < 0x80) {
			lz_buf_addch(out, (char)in[i]);
			continue;
		}
		t = in[i] - 0x80u;
		if (in[i] == 0xff && i + 1 < n)
			t += in[++i];
		lz_buf_adds(out, tokens[t % (sizeof tokens / sizeof *tokens)]);
	}
}

/*
 * One step of a script, from data[*i] to end: a control byte, then (its
 * bit 7 set, when resizes is true and two bytes are left) two bytes of a
 * resize, returned in *resize (else NULL), then a chunk of 1 + its low
 * six bits (fewer at the end), expanded into chunk. *i moves past the
 * step; returns the control byte (bit 6 is the includer's).
 */
static uint8_t
script_step(const uint8_t *data, size_t end, size_t *i, int resizes,
    const uint8_t **resize, struct lz_buf *chunk)
{
	uint8_t ctl = data[(*i)++];
	size_t n;

	*resize = NULL;
	if (resizes && (ctl & 0x80) && *i + 2 <= end) {
		*resize = data + *i;
		*i += 2;
	}
	n = 1 + (ctl & 0x3f);
	if (n > end - *i)
		n = end - *i;
	expand(data + *i, n, chunk);
	*i += n;
	return ctl;
}

/* Same cell; links by their URI (each pane numbers its own). */
static int
cell_eq(const struct lz_pane *pa, const struct lz_cell *a,
    const struct lz_pane *pb, const struct lz_cell *b)
{
	const char *ua = lz_pane_link(pa, LZ_ATTR_LINK(a->attr));
	const char *ub = lz_pane_link(pb, LZ_ATTR_LINK(b->attr));

	return memcmp(a->ch, b->ch, sizeof a->ch) == 0 && a->fg == b->fg &&
	    a->bg == b->bg && ((a->attr ^ b->attr) & ~LZ_ATTR_LINK_MASK) == 0 &&
	    a->width == b->width && (ua == NULL) == (ub == NULL) &&
	    (ua == NULL || strcmp(ua, ub) == 0);
}

/*
 * The screens of two panes: cells (links by their URI: each pane numbers
 * its own), soft wraps, cursor, modes, title, and the answers given.
 */
static void
same_screen(struct side *a, struct side *b)
{
	const struct lz_pane_props *pa = lz_pane_props(a->p);
	const struct lz_pane_props *pb = lz_pane_props(b->p);
	int r, col, rows = (int)lz_pane_rows(a->p);
	int cols = (int)lz_pane_cols(a->p);

	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++) {
			if (!cell_eq(a->p, lz_pane_cell(a->p, r, col), b->p,
			    lz_pane_cell(b->p, r, col)))
				abort();
		}
		if (lz_pane_wrapped(a->p, r) != lz_pane_wrapped(b->p, r))
			abort();
	}
	if (pa->cursor_row != pb->cursor_row ||
	    pa->cursor_col != pb->cursor_col ||
	    pa->cursor_visible != pb->cursor_visible ||
	    pa->cursor_blink != pb->cursor_blink ||
	    pa->cursor_shape != pb->cursor_shape ||
	    pa->altscreen != pb->altscreen || pa->reverse != pb->reverse ||
	    pa->app_cursor != pb->app_cursor ||
	    pa->app_keypad != pb->app_keypad ||
	    pa->bracketed_paste != pb->bracketed_paste ||
	    pa->mouse != pb->mouse || pa->mouse_enc != pb->mouse_enc ||
	    pa->focus_events != pb->focus_events || pa->sync != pb->sync)
		abort();
	if (strcmp(lz_pane_title(a->p), lz_pane_title(b->p)) != 0)
		abort();
	if (a->reply.len != b->reply.len || (a->reply.len > 0 &&
	    memcmp(a->reply.buf, b->reply.buf, a->reply.len) != 0))
		abort();
}

/* The n newest scrollback lines of two panes, and their soft wraps. */
static void
same_scrollback(struct side *a, struct side *b, size_t n)
{
	int col, cols = (int)lz_pane_cols(a->p);
	size_t i;

	for (i = 0; i < n; i++) {
		if (lz_pane_scrollback_wrapped(a->p, i) !=
		    lz_pane_scrollback_wrapped(b->p, i))
			abort();
		for (col = 0; col < cols; col++) {
			struct lz_cell x = *lz_pane_scrollback_cell(a->p, i,
			    col);

			if (!cell_eq(a->p, &x, b->p,
			    lz_pane_scrollback_cell(b->p, i, col)))
				abort();
		}
	}
}

#endif
