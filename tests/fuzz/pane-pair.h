/*
 * pane-pair.h: what fuzz-snapshot.c and fuzz-reflow.c share: the script
 * tokens (a byte from 0x80 stands for one of the sequences below, 0xff
 * and the next byte for those past the 127th), two panes side by side,
 * and their comparison. Header-only: each target is one program.
 */
#ifndef LZ_FUZZ_PANE_PAIR_H
#define LZ_FUZZ_PANE_PAIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"

static const char *const tokens[] = {
	"\033[", "\033]", "\033P", "\033_", "\033\\", "\033[?", "\033#8",
	"\0337", "\0338", "\033c", "\033[!p", "\033[?6h", "\033[?6l",
	"\033[?7l", "\033[?7h", "\033[4h", "\033[4l", "\033[20h", "\033[20l",
	"\033[?69h", "\033[?69l", "\033[2;4r", "\033[r", "\033[3;7s",
	"\033[s", "\033[?1049h", "\033[?1049l", "\033[?1047h", "\033[?1047l",
	"\033[?1048h", "\033[?1048l", "\033H", "\033[g", "\033[3g", "\033[I",
	"\033[Z", "\t", "\033(0", "\033(B", "\033(A", "\033)0", "\033*0",
	"\033+A", "\016", "\017", "\033n", "\033o", "\033~", "\033}", "\033|",
	"\033N", "\033O", "\033[b", "\033[3b", "\033[999b", "\033#6",
	"\033#3", "\033#4", "\033#5", "\033[1\"q", "\033[0\"q", "\033[?1h",
	"\033=", "\033>", "\033[?5h", "\033[?2004h", "\033[?1000h",
	"\033[?1002h", "\033[?1003l", "\033[?1006h", "\033[?1004h",
	"\033[?2026h", "\033[?25l", "\033[?12l", "\033[5 q", "\033[2 q",
	"\033[31m", "\033[1;4:3;7m", "\033[38;2;1;2;3;48;5;200m", "\033[m",
	"\033[H", "\033[5;5H", "\033[A", "\033[B", "\033[C", "\033[D",
	"\033[E", "\033[F", "\033[10G", "\033[3`", "\033[2d", "\033[a",
	"\033[e", "\033[K", "\033[1K", "\033[J", "\033[2J", "\033[?J",
	"\033[X", "\033[@", "\033[P", "\033[L", "\033[M", "\033[S", "\033[T",
	"\033[2'}", "\033[2'~", "\033D", "\033E", "\033M", "\r\n",
	"\xcc\x81", "\xcc\x88", "\xe4\xb8\xad", "\xf0\x9f\x98\x80",
	"\xc3\xa9", "\xe2\x94\x80", "\xc2\x9b", "\xe4\xb8", "\xff",
	"\033]2;title\007", "\033]0;t\033\\", "\033P$qm\033\\",
	"\033P$qr\033\\", "\033[6n", "\033[?6n", "\033[c", "\033[>c",
	"\033[?1$p", "\033[?7$p", "\033 G", "\033 F", "\033[0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16m",
	"\033[1234567890m", "\030", "\032", "\033[?66h",
	"\033]11;?\007", "\033]4;1;#102030\007", "\033]10;rgb:1/2/3\033\\",
	"\033]104\007", "\033[18t", "\033[?2026$p", "\033[=c", "\033[>q",
	"\033[4$p", "\033[?6$p", "\033]8;;http://a/\033\\",
	"\033]8;id=x;file:///workspace/f\007", "\033]8;;\033\\",
};

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
