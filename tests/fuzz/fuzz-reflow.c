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
 *    later reflow reads. Chunks are fuzz-snapshot.c's (pane-pair.h).
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
#include "tests/fuzz/pane-tokens.h"
#include "tests/fuzz/pane-pair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SB 200

/* As above, with the whole scrollback and its soft wraps. */
static void
same(struct side *a, struct side *b)
{
	size_t n = lz_pane_scrollback_lines(b->p);

	same_screen(a, b);
	if (n != lz_pane_scrollback_lines(a->p))
		abort();
	same_scrollback(a, b, n);
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
	size_t i = 2, split;
	const uint8_t *rs;

	split = 2 + (size - 2) * data[1] / 256;
	lz_buf_init(&a.reply);
	lz_buf_init(&b.reply);
	a.p = lz_pane_new(1 + data[0] / 2 % 12, 1 + data[0] / 24 % 21, SB, &cb,
	    &a);
	while (i < split) {
		script_step(data, split, &i, 1, &rs, &chunk);
		if (rs != NULL)
			resize(a.p, rs, 1);
		lz_pane_feed(a.p, chunk.buf ? chunk.buf : "", chunk.len);
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
		script_step(data, size, &i, 1, &rs, &chunk);
		if (rs != NULL) {
			resize(a.p, rs, 1);
			resize(b.p, rs, 1);
			same(&a, &b);
		}
		lz_pane_feed(a.p, chunk.buf ? chunk.buf : "", chunk.len);
		lz_pane_feed(b.p, chunk.buf ? chunk.buf : "", chunk.len);
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
