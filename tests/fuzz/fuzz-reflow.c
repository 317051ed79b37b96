/*
 * fuzz-reflow.c: libFuzzer target for reflow (issue 18, ui/pane.h
 * "Resize"). Two properties, by the low bit of byte 0:
 *
 *  - mirror (0): a pane A fed X, with resizes, and a pane B built from A
 *    as an attach builds a mirror (the history, lz_pane_render_history,
 *    then the snapshot, lz_pane_render_ansi, in a restore) hold the same
 *    cells, soft wraps, cursor, modes and scrollback (cells and soft
 *    wraps, line for line) after each chunk of Y and each resize in Y,
 *    given to both: so the snapshot and the history carry everything a
 *    later reflow reads. Chunks are fuzz-snapshot.c's (tokens below).
 *  - text (1): text (letters, wide, combining, emoji), CR LF and resizes
 *    of at least 3 columns: the pane's lines, rows joined where they
 *    were soft-wrapped, are the text written.
 *
 * Byte 0 picks the size too, byte 1 where X ends (mirror). Each chunk
 * starts with a control byte whose low six bits give its length and whose
 * top bit asks for a resize (the next two bytes give rows and columns).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"
#include "ui/pane-history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SB 200

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

static void
same(struct side *a, struct side *b)
{
	const struct lz_pane_props *pa = lz_pane_props(a->p);
	const struct lz_pane_props *pb = lz_pane_props(b->p);
	size_t nb = lz_pane_scrollback_lines(b->p), i;
	int r, col, rows = (int)lz_pane_rows(a->p), cols = (int)lz_pane_cols(a->p);

	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++) {
			if (!cell_eq(a->p, lz_pane_cell(a->p, r, col), b->p,
			    lz_pane_cell(b->p, r, col)))
				abort();
		}
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
	/* The scrollback, soft wraps too, and the screen's wraps. */
	if (nb != lz_pane_scrollback_lines(a->p))
		abort();
	for (r = 0; r < rows; r++) {
		if (lz_pane_wrapped(a->p, r) != lz_pane_wrapped(b->p, r))
			abort();
	}
	for (i = 0; i < nb; i++) {
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

static void
resize(struct lz_pane *p, const uint8_t *d, unsigned min_cols)
{
	lz_pane_resize(p, 1 + d[0] % 12, min_cols + d[1] % (40 - min_cols));
}

/* Property 1: A and its mirror. */
static void
mirror(const uint8_t *data, size_t size)
{
	struct lz_pane_cb cb = { on_reply, NULL };
	struct side a, b;
	struct lz_buf chunk = LZ_BUF_INIT, snap = LZ_BUF_INIT;
	size_t i = 2, split, n;
	uint8_t ctl;

	split = 2 + (size - 2) * data[1] / 256;
	lz_buf_init(&a.reply);
	lz_buf_init(&b.reply);
	a.p = lz_pane_new(1 + data[0] / 2 % 12, 1 + data[0] / 24 % 21, SB, &cb,
	    &a);
	while (i < split) {
		ctl = data[i++];
		if ((ctl & 0x80) && i + 2 <= split) {
			resize(a.p, data + i, 1);
			i += 2;
		}
		n = 1 + (ctl & 0x3f);
		if (n > split - i)
			n = split - i;
		expand(data + i, n, &chunk);
		lz_pane_feed(a.p, chunk.buf ? chunk.buf : "", chunk.len);
		i += n;
	}
	lz_pane_render_history(a.p, SB, &snap);
	lz_buf_adds(&snap, "\033[H\033[2J");
	lz_pane_render_ansi(a.p, &snap);
	b.p = lz_pane_new(lz_pane_rows(a.p), lz_pane_cols(a.p), SB, &cb, &b);
	lz_pane_restore_begin(b.p);
	lz_pane_feed(b.p, snap.buf, snap.len);
	lz_pane_restore_end(b.p);
	lz_buf_reset(&a.reply);
	lz_buf_reset(&b.reply);
	same(&a, &b);
	while (i < size) {
		ctl = data[i++];
		if ((ctl & 0x80) && i + 2 <= size) {
			resize(a.p, data + i, 1);
			resize(b.p, data + i, 1);
			i += 2;
			same(&a, &b);
		}
		n = 1 + (ctl & 0x3f);
		if (n > size - i)
			n = size - i;
		expand(data + i, n, &chunk);
		lz_pane_feed(a.p, chunk.buf ? chunk.buf : "", chunk.len);
		lz_pane_feed(b.p, chunk.buf ? chunk.buf : "", chunk.len);
		i += n;
		same(&a, &b);
		lz_buf_reset(&a.reply);
		lz_buf_reset(&b.reply);
	}
	lz_pane_free(a.p);
	lz_pane_free(b.p);
	lz_buf_release(&a.reply);
	lz_buf_release(&b.reply);
	lz_buf_release(&chunk);
	lz_buf_release(&snap);
}

/* The lines of p, soft-wrapped rows joined, trailing empty ones left out. */
static void
lines(const struct lz_pane *p, struct lz_buf *out)
{
	long line;
	int wrapped;

	lz_buf_reset(out);
	lz_buf_adds(out, "");
	for (line = -(long)lz_pane_scrollback_lines(p);
	    line < (long)lz_pane_rows(p); line++) {
		lz_pane_line_text(p, line, out);
		wrapped = line < 0 ?
		    lz_pane_scrollback_wrapped(p, (size_t)(-1 - line)) :
		    lz_pane_wrapped(p, (int)line);
		if (!wrapped)
			lz_buf_addch(out, '\n');
	}
	while (out->len > 0 && out->buf[out->len - 1] == '\n')
		out->len--;
	out->buf[out->len] = '\0';
}

/* Property 2: the text written comes back. */
static void
text(const uint8_t *data, size_t size)
{
	static const char *const bits[] = {
		"a", "b", " ", "xyz", "\xe4\xb8\xad", "\xc3\xa9", "e\xcc\x81",
		"\xf0\x9f\x98\x80", "0123456789", "\r\n",
	};
	struct lz_buf want = LZ_BUF_INIT, got = LZ_BUF_INIT;
	struct lz_pane *p;
	size_t i = 1, n, k;
	uint8_t ctl;

	p = lz_pane_new(1 + data[0] / 2 % 12, 3 + data[0] / 24 % 30, 100000,
	    NULL, NULL);
	lz_buf_adds(&want, "");
	while (i < size) {
		ctl = data[i++];
		if ((ctl & 0x80) && i + 2 <= size) {
			resize(p, data + i, 3);
			i += 2;
		}
		n = 1 + (ctl & 0x3f);
		for (k = 0; k < n && i < size; k++, i++) {
			const char *s = bits[data[i] % (sizeof bits /
			    sizeof *bits)];

			lz_pane_feed(p, s, strlen(s));
			if (s[0] == '\r')
				lz_buf_addch(&want, '\n');
			else
				lz_buf_adds(&want, s);
		}
	}
	while (want.len > 0 && want.buf[want.len - 1] == '\n')
		want.len--;
	want.buf[want.len] = '\0';
	lines(p, &got);
	if (strcmp(got.buf, want.buf) != 0)
		abort();
	lz_pane_free(p);
	lz_buf_release(&want);
	lz_buf_release(&got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	if (data[0] & 1)
		text(data, size);
	else
		mirror(data, size);
	return 0;
}
