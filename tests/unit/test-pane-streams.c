/*
 * test-pane-streams.c: every stream kind of the pane benches
 * (tests/bench/ansi-stream.h) through two panes of the benches' size, one
 * with the fast path (ui/pane-fast.c) and one without, fed in pieces that
 * cut sequences and characters at every place: under ASan nothing of it
 * may fault (the "attrs" stream's pen, handed back to libvterm in one CSI
 * of 19 arguments, overran libvterm's parser), and both panes must end
 * with the same cells, cursor, pen and answers. A third pane replays the
 * first one's snapshot (what a TUI's mirror gets after an attach) and
 * must reach the same state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "tests/bench/ansi-stream.h"
#include "ui/pane.h"

#define ROWS 50
#define COLS 200
#define SIZE (1024 * 1024)
/* The pen and the cursor, asked of each pane at the end. */
#define PROBE "\033P$qm\033\\\033[6n"

static void
on_reply(const char *buf, size_t len, void *user)
{
	lz_buf_add(user, buf, len);
}

static const struct lz_pane_cb cbs = { on_reply, NULL };

static void
same(struct lz_pane *a, struct lz_pane *b, const char *kind)
{
	const struct lz_pane_props *pa = lz_pane_props(a);
	const struct lz_pane_props *pb = lz_pane_props(b);
	const struct lz_cell *c, *d;
	int r, col;

	for (r = 0; r < ROWS; r++) {
		for (col = 0; col < COLS; col++) {
			c = lz_pane_cell(a, r, col);
			d = lz_pane_cell(b, r, col);
			if (memcmp(c->ch, d->ch, sizeof c->ch) != 0 ||
			    c->fg != d->fg || c->bg != d->bg ||
			    c->attr != d->attr || c->width != d->width)
				fail_msg("%s: cell %d,%d: %x/%x fg %x/%x bg "
				    "%x/%x attr %x/%x", kind, r, col, c->ch[0],
				    d->ch[0], c->fg, d->fg, c->bg, d->bg,
				    c->attr, d->attr);
		}
	}
	if (pa->cursor_row != pb->cursor_row ||
	    pa->cursor_col != pb->cursor_col)
		fail_msg("%s: cursor %d,%d / %d,%d", kind, pa->cursor_row,
		    pa->cursor_col, pb->cursor_row, pb->cursor_col);
}

static void
test_kinds(void **state)
{
	static const size_t pieces[] = { 4096, 1, 4093, 17, 65536, 3 };
	struct lz_buf s = LZ_BUF_INIT, ra = LZ_BUF_INIT, rb = LZ_BUF_INIT;
	struct lz_buf rm = LZ_BUF_INIT, snap = LZ_BUF_INIT;
	struct lz_pane *a, *b, *m;
	size_t k, off, n, i;

	(void)state;
	for (k = 0; k < ANSI_NKINDS; k++) {
		lz_buf_reset(&s);
		assert_int_equal(ansi_stream_kind(&s, ansi_kinds[k], SIZE,
		    ROWS, COLS), 0);
		a = lz_pane_new(ROWS, COLS, 1000, &cbs, &ra);
		b = lz_pane_new(ROWS, COLS, 1000, &cbs, &rb);
		lz_pane_set_fast(a, 1);
		lz_pane_set_fast(b, 0);
		for (off = 0, i = 0; off < s.len; off += n, i++) {
			n = pieces[i % (sizeof pieces / sizeof *pieces)];
			if (n > s.len - off)
				n = s.len - off;
			lz_pane_feed(a, s.buf + off, n);
			lz_pane_feed(b, s.buf + off, n);
		}
		/* A sequence cut at the end is ended, as a program would. */
		lz_pane_feed(a, "\030", 1);
		lz_pane_feed(b, "\030", 1);
		same(a, b, ansi_kinds[k]);
		lz_buf_reset(&snap);
		lz_pane_render_ansi(a, &snap);
		m = lz_pane_new(ROWS, COLS, 1000, &cbs, &rm);
		lz_pane_restore_begin(m);
		lz_pane_feed(m, snap.buf, snap.len);
		lz_pane_restore_end(m);
		same(a, m, ansi_kinds[k]);
		lz_buf_reset(&ra);
		lz_buf_reset(&rb);
		lz_buf_reset(&rm);
		lz_pane_feed(a, PROBE, strlen(PROBE));
		lz_pane_feed(b, PROBE, strlen(PROBE));
		lz_pane_feed(m, PROBE, strlen(PROBE));
		assert_true(ra.len > 0);
		if (ra.len != rb.len || memcmp(ra.buf, rb.buf, ra.len) != 0)
			fail_msg("%s: answers '%.*s' / '%.*s'", ansi_kinds[k],
			    (int)ra.len, ra.buf, (int)rb.len, rb.buf);
		if (ra.len != rm.len || memcmp(ra.buf, rm.buf, ra.len) != 0)
			fail_msg("%s: answers '%.*s' / the snapshot's '%.*s'",
			    ansi_kinds[k], (int)ra.len, ra.buf, (int)rm.len,
			    rm.buf);
		lz_pane_free(a);
		lz_pane_free(b);
		lz_pane_free(m);
	}
	lz_buf_release(&s);
	lz_buf_release(&ra);
	lz_buf_release(&rb);
	lz_buf_release(&rm);
	lz_buf_release(&snap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
