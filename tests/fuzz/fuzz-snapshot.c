/*
 * fuzz-snapshot.c: libFuzzer target for the pane snapshot (ui/pane.h,
 * lz_pane_render_ansi): a pane fed X then Y equals a new pane of the same
 * size fed snapshot(X) then Y. After the snapshot and after each chunk of
 * Y the two must hold the same cells (character, colours, attributes,
 * width), soft wraps, cursor, modes, title, the same answers to queries,
 * and the same lines scrolled into the scrollback by Y.
 *
 * The input is a script. Byte 0 picks the size, byte 1 where X ends. Each
 * chunk starts with a control byte whose low bits give its length and
 * whose top bit (in X only) asks for a resize before it. Inside a chunk a
 * byte below 0x80 is itself; a byte from 0x80 stands for one of the
 * sequences of tokens[] in pane-tokens.h (0xff and the next byte for those
 * past the 127th: escape sequences, modes, character sets, wide,
 * combining and broken UTF-8), so that the fuzzer reaches the states a
 * snapshot must carry without a dictionary.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"
#include "tests/fuzz/pane-tokens.h"
#include "tests/fuzz/pane-pair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* As above, and what Y scrolled off the top went the same way in both. */
static void
same(struct side *a, struct side *b)
{
	size_t na = lz_pane_scrollback_lines(a->p);
	size_t nb = lz_pane_scrollback_lines(b->p);

	same_screen(a, b);
	same_scrollback(a, b, nb < na ? nb : na);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_pane_cb cb = { on_reply, NULL };
	struct side a, b;
	struct lz_buf chunk = LZ_BUF_INIT, snap = LZ_BUF_INIT;
	size_t i = 2, split;
	const uint8_t *rs;

	if (size < 2)
		return 0;
	split = 2 + (size - 2) * data[1] / 256;
	lz_buf_init(&a.reply);
	lz_buf_init(&b.reply);
	a.p = lz_pane_new(1 + data[0] % 12, 1 + data[0] / 12 % 21, 64, &cb,
	    &a);
	while (i < split) {
		script_step(data, split, &i, 1, &rs, &chunk);
		if (rs != NULL)
			lz_pane_resize(a.p, 1 + rs[0] % 12, 1 + rs[1] % 21);
		lz_pane_feed(a.p, chunk.buf ? chunk.buf : "", chunk.len);
	}
	lz_pane_render_ansi(a.p, &snap);
	b.p = lz_pane_new(lz_pane_rows(a.p), lz_pane_cols(a.p), 64, &cb, &b);
	lz_pane_restore_begin(b.p);
	lz_pane_feed(b.p, snap.buf, snap.len);
	lz_pane_restore_end(b.p);
	lz_buf_reset(&a.reply);
	lz_buf_reset(&b.reply);
	same(&a, &b);
	while (i < size) {
		script_step(data, size, &i, 0, &rs, &chunk);
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
	return 0;
}
