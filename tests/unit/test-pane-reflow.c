/*
 * test-pane-reflow.c: reflow on a width change (issue 18, ui/pane.h
 * "Resize", lz_grid_reflow): soft wraps recorded where libvterm wrapped,
 * lines rejoined and rewrapped in the screen and the scrollback, hard line
 * ends kept, wide characters never split, pen and links kept, the cursor
 * on its character (and libvterm's pending wrap put back), the alternate
 * screen left alone, the scrollback cap counted in rows after rewrap, and
 * a mirror (restored from a snapshot and the history, as an attach does)
 * that stays identical to its pane through any resizes. The property test
 * writes random text and resizes at random, and compares the text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "ui/pane.h"
#include "ui/pane-history.h"

static struct lz_pane *
mk(unsigned rows, unsigned cols, size_t sb)
{
	return lz_pane_new(rows, cols, sb, NULL, NULL);
}

static void
feed(struct lz_pane *p, const char *s)
{
	lz_pane_feed(p, s, strlen(s));
}

static void
check_line(const struct lz_pane *p, long line, const char *want)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_pane_line_text(p, line, &b);
	if (strcmp(b.buf ? b.buf : "", want) != 0)
		fail_msg("line %ld: got '%s', want '%s'", line,
		    b.buf ? b.buf : "", want);
	lz_buf_release(&b);
}

static int
wrapped(const struct lz_pane *p, long line)
{
	return line < 0 ? lz_pane_scrollback_wrapped(p, (size_t)(-1 - line)) :
	    lz_pane_wrapped(p, (int)line);
}

/*
 * The pane's text: scrollback then screen, rows joined where they were
 * soft-wrapped, a newline after each line, trailing empty lines dropped.
 */
static void
logical(const struct lz_pane *p, struct lz_buf *out)
{
	long line;

	lz_buf_reset(out);
	lz_buf_adds(out, "");
	for (line = -(long)lz_pane_scrollback_lines(p);
	    line < (long)lz_pane_rows(p); line++) {
		lz_pane_line_text(p, line, out);
		if (!wrapped(p, line))
			lz_buf_addch(out, '\n');
	}
	while (out->len > 0 && out->buf[out->len - 1] == '\n')
		out->len--;
	out->buf[out->len] = '\0';
}

/* Cells, links, wrap flags, cursor and scrollback of two panes. */
static void
same(const struct lz_pane *a, const struct lz_pane *b, const char *what)
{
	const struct lz_cell *x, *y;
	struct lz_buf ta = LZ_BUF_INIT, tb = LZ_BUF_INIT;
	int r, c;
	size_t n;

	assert_int_equal(lz_pane_rows(a), lz_pane_rows(b));
	assert_int_equal(lz_pane_cols(a), lz_pane_cols(b));
	for (r = 0; r < (int)lz_pane_rows(a); r++) {
		for (c = 0; c < (int)lz_pane_cols(a); c++) {
			x = lz_pane_cell(a, r, c);
			y = lz_pane_cell(b, r, c);
			if (memcmp(x->ch, y->ch, sizeof x->ch) != 0 ||
			    x->fg != y->fg || x->bg != y->bg ||
			    x->width != y->width ||
			    (x->attr & ~LZ_ATTR_LINK_MASK) !=
			    (y->attr & ~LZ_ATTR_LINK_MASK))
				fail_msg("%s: cell %d,%d differs", what, r, c);
		}
		if (lz_pane_wrapped(a, r) != lz_pane_wrapped(b, r))
			fail_msg("%s: wrap of row %d differs", what, r);
	}
	if (lz_pane_props(a)->cursor_row != lz_pane_props(b)->cursor_row ||
	    lz_pane_props(a)->cursor_col != lz_pane_props(b)->cursor_col)
		fail_msg("%s: cursor %d,%d and %d,%d", what,
		    lz_pane_props(a)->cursor_row, lz_pane_props(a)->cursor_col,
		    lz_pane_props(b)->cursor_row, lz_pane_props(b)->cursor_col);
	assert_int_equal(lz_pane_scrollback_lines(a),
	    lz_pane_scrollback_lines(b));
	for (n = 0; n < lz_pane_scrollback_lines(a); n++) {
		lz_buf_reset(&ta);
		lz_buf_reset(&tb);
		lz_pane_line_text(a, -1 - (long)n, &ta);
		lz_pane_line_text(b, -1 - (long)n, &tb);
		if (ta.len != tb.len || (ta.len > 0 &&
		    memcmp(ta.buf, tb.buf, ta.len) != 0) ||
		    lz_pane_scrollback_wrapped(a, n) !=
		    lz_pane_scrollback_wrapped(b, n))
			fail_msg("%s: scrollback line %zu differs", what, n);
	}
	lz_buf_release(&ta);
	lz_buf_release(&tb);
}

/* A pane built from p as an attach builds it: history, then snapshot. */
static struct lz_pane *
mirror(const struct lz_pane *p, size_t sb)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_pane *m = mk(lz_pane_rows(p), lz_pane_cols(p), sb);

	lz_pane_render_history(p, sb, &b);
	lz_buf_adds(&b, "\033[H\033[2J");
	lz_pane_render_ansi(p, &b);
	lz_pane_restore_begin(m);
	lz_pane_feed(m, b.buf, b.len);
	lz_pane_restore_end(m);
	lz_buf_release(&b);
	return m;
}

static void
test_wrap_flags(void **state)
{
	struct lz_pane *p = mk(4, 5, 100);

	(void)state;
	/* A wrap sets the flag; a line feed or a cursor move does not. */
	feed(p, "abcdefg\r\nxy\033[3;1Hz");
	assert_true(lz_pane_wrapped(p, 0));
	assert_false(lz_pane_wrapped(p, 1));
	assert_false(lz_pane_wrapped(p, 2));
	/* At the bottom the wrap scrolls: the flag goes up with its row. */
	feed(p, "\033[4;1H12345678");
	assert_true(lz_pane_wrapped(p, 2));
	assert_false(lz_pane_wrapped(p, 3));
	check_line(p, 2, "12345");
	check_line(p, 3, "678");
	/* Scrolled into the scrollback, it stays. */
	feed(p, "\r\n\r\n\r\n");
	check_line(p, -1, "12345");
	assert_true(lz_pane_scrollback_wrapped(p, 0));
	assert_false(lz_pane_scrollback_wrapped(p, 1));
	check_line(p, -4, "abcde");
	assert_true(lz_pane_scrollback_wrapped(p, 3));
	/*
	 * libvterm keeps a pending wrap across a line feed at the bottom:
	 * the next glyph wraps again, after a blank row, a hard end.
	 */
	feed(p, "\033[2J\033[4;1Hvwxyz\n!");
	assert_false(lz_pane_wrapped(p, 1));
	assert_false(lz_pane_wrapped(p, 2));
	/* A wide character that does not fit wraps early. */
	feed(p, "\033[2J\033[1;1Habcd\xe4\xb8\xad");
	assert_true(lz_pane_wrapped(p, 0));
	check_line(p, 1, "\xe4\xb8\xad");
	/* Erasing the next row whole ends the line before it (tmux). */
	feed(p, "\033[2;1H\033[2K");
	assert_false(lz_pane_wrapped(p, 0));
	/* Not under left and right margins. */
	feed(p, "\033[2J\033[?69h\033[2;5s\033[1;1Habcdefg\033[s\033[?69l");
	assert_false(lz_pane_wrapped(p, 0));
	lz_pane_free(p);
}

static void
test_rewrap(void **state)
{
	struct lz_pane *p = mk(5, 10, 100);
	struct lz_buf t = LZ_BUF_INIT;

	(void)state;
	feed(p, "0123456789abcdefghij-tail\r\nshort\r\n$ ");
	lz_pane_resize(p, 5, 30);
	check_line(p, 0, "0123456789abcdefghij-tail");
	check_line(p, 1, "short");
	check_line(p, 2, "$ ");
	assert_int_equal(lz_pane_props(p)->cursor_row, 2);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	/*
	 * 4 rows for the long line, then 2, and the 2 empty rows below the
	 * cursor (as tmux): the first 3 go to scrollback, the cursor stays
	 * on its row.
	 */
	lz_pane_resize(p, 5, 8);
	assert_int_equal(lz_pane_scrollback_lines(p), 3);
	check_line(p, -3, "01234567");
	check_line(p, -1, "ghij-tai");
	check_line(p, 0, "l");
	check_line(p, 1, "short");
	assert_int_equal(lz_pane_props(p)->cursor_row, 2);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	logical(p, &t);
	assert_string_equal(t.buf, "0123456789abcdefghij-tail\nshort\n$ ");
	/* Typing goes on where it was. */
	feed(p, "ls");
	check_line(p, 2, "$ ls");
	lz_pane_resize(p, 5, 10);
	logical(p, &t);
	assert_string_equal(t.buf, "0123456789abcdefghij-tail\nshort\n$ ls");
	lz_buf_release(&t);
	lz_pane_free(p);
}

static void
test_wide_and_pen(void **state)
{
	struct lz_pane *p = mk(4, 6, 100);
	const struct lz_cell *c;

	(void)state;
	/*
	 * a, three wide, b: at 6 columns the third wide one wrapped early;
	 * at 4 no wide character is split either.
	 */
	feed(p, "\033[31ma\xe4\xb8\xad\033[1;44m\xe6\x96\x87\xe5\xad\x97\033[m"
	    "\033]8;;http://x/\033\\b\033]8;;\033\\\r\n\r\n\r\n");
	check_line(p, -1, "a\xe4\xb8\xad\xe6\x96\x87");
	lz_pane_resize(p, 4, 4);
	check_line(p, -2, "a\xe4\xb8\xad");
	check_line(p, -1, "\xe6\x96\x87\xe5\xad\x97");
	check_line(p, 0, "b");
	assert_true(lz_pane_scrollback_wrapped(p, 0));
	assert_true(lz_pane_scrollback_wrapped(p, 1));
	assert_false(lz_pane_wrapped(p, 0));
	/* Pen and link: back on screen with a taller pane. */
	lz_pane_resize(p, 7, 4);
	c = lz_pane_cell(p, 0, 1);
	assert_int_equal(c->width, 2);
	assert_int_equal(c->fg, LZ_COLOR_INDEXED(1));
	c = lz_pane_cell(p, 1, 2);
	assert_int_equal(c->bg, LZ_COLOR_INDEXED(4));
	assert_true(c->attr & LZ_ATTR_BOLD);
	c = lz_pane_cell(p, 2, 0);
	assert_string_equal(lz_pane_link(p, LZ_ATTR_LINK(c->attr)),
	    "http://x/");
	/* Three columns: the wide ones go whole to the next row. */
	lz_pane_resize(p, 7, 3);
	check_line(p, 0, "a\xe4\xb8\xad");
	check_line(p, 1, "\xe6\x96\x87");
	check_line(p, 2, "\xe5\xad\x97" "b");
	/*
	 * One column: a wide character cannot be there, it is a blank, an
	 * erased cell: one on the default background, alone in its row, is
	 * no text (the row is empty), one on blue stays.
	 */
	lz_pane_resize(p, 7, 1);
	lz_pane_resize(p, 7, 6);
	check_line(p, 0, "a  b");
	assert_int_equal(lz_pane_cell(p, 0, 1)->bg, LZ_COLOR_INDEXED(4));
	lz_pane_free(p);
}

static void
test_cursor(void **state)
{
	struct lz_pane *p = mk(3, 10, 100);

	(void)state;
	/* A pending wrap comes back after a round trip. */
	feed(p, "0123456789");
	lz_pane_resize(p, 3, 20);
	assert_int_equal(lz_pane_props(p)->cursor_col, 10);
	lz_pane_resize(p, 3, 10);
	assert_int_equal(lz_pane_props(p)->cursor_col, 9);
	feed(p, "X");
	check_line(p, 0, "0123456789");
	check_line(p, 1, "X");
	assert_true(lz_pane_wrapped(p, 0));
	/* Narrower, the cursor past a full row's end: pending wrap too. */
	feed(p, "\033[2J\033[Habcdef");
	lz_pane_resize(p, 3, 6);
	assert_int_equal(lz_pane_props(p)->cursor_col, 5);
	feed(p, "g");
	check_line(p, 1, "g");
	/* Combining marks join the character before the cursor. */
	feed(p, "\033[2J\033[Habc");
	lz_pane_resize(p, 3, 2);
	feed(p, "\xcc\x81");
	check_line(p, 0, "c\xcc\x81");
	/* A cursor in the middle of a line stays on its character. */
	lz_pane_resize(p, 3, 10);
	feed(p, "\033[2J\033[Hhello world\033[1;7H");
	lz_pane_resize(p, 3, 4);
	check_line(p, 0, "o wo");
	assert_int_equal(lz_pane_props(p)->cursor_row, 0);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	feed(p, "W");
	lz_pane_resize(p, 3, 20);
	check_line(p, 0, "hello World");
	/* A cursor past a line's text keeps its distance. */
	feed(p, "\033[2J\033[Hab\033[1;9H");
	lz_pane_resize(p, 3, 12);
	assert_int_equal(lz_pane_props(p)->cursor_col, 8);
	lz_pane_free(p);
}

static void
test_alternate(void **state)
{
	struct lz_pane *p = mk(4, 10, 100);

	(void)state;
	feed(p, "0123456789abc\033[?1049h\033[Halt screen");
	lz_pane_resize(p, 4, 5);
	/* The alternate screen is cut, not reflowed. */
	check_line(p, 0, "alt s");
	assert_false(lz_pane_wrapped(p, 0));
	feed(p, "\033[?1049l");
	check_line(p, -1, "01234");
	check_line(p, 0, "56789");
	check_line(p, 1, "abc");
	/* The primary cursor came back after c. */
	assert_int_equal(lz_pane_props(p)->cursor_row, 1);
	assert_int_equal(lz_pane_props(p)->cursor_col, 3);
	lz_pane_free(p);
}

static void
test_cap(void **state)
{
	struct lz_pane *p = mk(2, 10, 3);

	(void)state;
	feed(p, "aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc\r\n$ ");
	assert_int_equal(lz_pane_scrollback_lines(p), 2);
	/* Five rows of history at 5 columns: the oldest two go. */
	lz_pane_resize(p, 2, 5);
	assert_int_equal(lz_pane_scrollback_lines(p), 3);
	check_line(p, -3, "bbbbb");
	check_line(p, -2, "bbbbb");
	check_line(p, -1, "ccccc");
	check_line(p, 0, "ccccc");
	check_line(p, 1, "$ ");
	lz_pane_free(p);
}

static void
test_mirror(void **state)
{
	static const unsigned widths[] = { 7, 31, 3, 12, 1, 9, 40 };
	struct lz_pane *p = mk(6, 20, 50), *m;
	size_t k;

	(void)state;
	feed(p, "\033[32mgreen text that wraps around the pane\033[m\r\n"
	    "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe4\xb8\xad\xe6\x96\x87"
	    "\xe5\xad\x97\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe4\xb8\xad\r\n"
	    "\033]8;;https://example.com/\033\\link text\033]8;;\033\\"
	    " more text to wrap\r\n0123456789012345678901");
	lz_pane_resize(p, 6, 11);
	m = mirror(p, 50);
	same(p, m, "restored");
	for (k = 0; k < sizeof widths / sizeof *widths; k++) {
		lz_pane_resize(p, 6 + (unsigned)k % 3, widths[k]);
		lz_pane_resize(m, 6 + (unsigned)k % 3, widths[k]);
		same(p, m, "resized");
		feed(p, "more\r\nout");
		feed(m, "more\r\nout");
		same(p, m, "fed");
	}
	lz_pane_free(m);
	lz_pane_free(p);
}

/* A small deterministic PRNG (xorshift). */
static uint32_t
rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void
test_property(void **state)
{
	static const char *const bits[] = {
		"a", "b", "c", " ", "xyz", "\xe4\xb8\xad", "\xc3\xa9",
		"e\xcc\x81", "\xf0\x9f\x98\x80", "0123456789",
	};
	struct lz_buf want = LZ_BUF_INIT, got = LZ_BUF_INIT;
	struct lz_pane *p, *m;
	uint32_t s = 12345;
	int round, step, k;
	unsigned rows, cols;

	(void)state;
	/*
	 * At least 3 columns: in 2, a wide character fills a row from column
	 * 0, and libvterm keeps its pending wrap across CR there (the cursor
	 * does not move), so CR LF after it leaves a blank row.
	 */
	for (round = 0; round < 60; round++) {
		cols = 3 + rnd(&s) % 30;
		rows = 1 + rnd(&s) % 8;
		p = mk(rows, cols, 10000);
		m = NULL;
		lz_buf_reset(&want);
		lz_buf_adds(&want, "");
		for (step = 0; step < 80; step++) {
			k = (int)(rnd(&s) % 16);
			if (k < 10) {
				feed(p, bits[k]);
				if (m != NULL)
					feed(m, bits[k]);
				lz_buf_adds(&want, bits[k]);
			} else if (k < 12) {
				feed(p, "\r\n");
				if (m != NULL)
					feed(m, "\r\n");
				lz_buf_addch(&want, '\n');
			} else if (k < 15) {
				rows = 1 + rnd(&s) % 8;
				cols = 3 + rnd(&s) % 30;
				lz_pane_resize(p, rows, cols);
				if (m != NULL)
					lz_pane_resize(m, lz_pane_rows(p),
					    lz_pane_cols(p));
			} else if (m == NULL)
				m = mirror(p, 10000);
		}
		/* What was written, soft wraps rejoined. */
		while (want.len > 0 && want.buf[want.len - 1] == '\n')
			want.len--;
		want.buf[want.len] = '\0';
		logical(p, &got);
		if (strcmp(got.buf, want.buf) != 0)
			fail_msg("round %d: got\n%s\nwant\n%s", round, got.buf,
			    want.buf);
		if (m != NULL) {
			same(p, m, "property");
			lz_pane_free(m);
		}
		lz_pane_free(p);
	}
	lz_buf_release(&want);
	lz_buf_release(&got);
}

/*
 * Rows of cells each in a colour of its own (kept as runs in the
 * scrollback's encoding) are split where rows end, at every width: the
 * pane reflowed holds what a pane of that width fed the same holds, cell
 * for cell, colours included.
 */
static void
test_runs(void **state)
{
	/*
	 * Not 1: a pane fed at one column keeps libvterm's pending wrap
	 * across the CR (see pane-history.c) and has an empty row more.
	 */
	static const int widths[] = { 7, 3, 2, 10, 40 };
	struct lz_buf in = LZ_BUF_INIT;
	struct lz_pane *p = mk(3, 10, 100), *q;
	const struct lz_cell *x, *y;
	size_t i, n;
	int k, col;

	(void)state;
	for (k = 0; k < 25; k++)
		lz_buf_addf(&in, "\033[38;5;%dm%c", k * 7, 'a' + k);
	lz_buf_adds(&in, "\r\n\033[4m");
	for (k = 0; k < 13; k++)
		lz_buf_addf(&in, "\033[38;2;%d;%d;9m%c", k, 255 - k, 'A' + k);
	lz_buf_adds(&in, "\033[1m\033[38;5;1mx\033[38;5;2my\033[0m\r\nend\r\n");
	lz_pane_feed(p, in.buf, in.len);
	for (i = 0; i < sizeof widths / sizeof *widths; i++) {
		lz_pane_resize(p, 3, (unsigned)widths[i]);
		q = mk(3, (unsigned)widths[i], 100);
		lz_pane_feed(q, in.buf, in.len);
		same(p, q, "runs");
		for (n = 0; n < lz_pane_scrollback_lines(q); n++) {
			for (col = 0; col < widths[i]; col++) {
				x = lz_pane_scrollback_cell(p, n, col);
				y = lz_pane_scrollback_cell(q, n, col);
				if (x == NULL || y == NULL || x->ch[0] != y->ch[0] ||
				    x->fg != y->fg || x->bg != y->bg ||
				    x->attr != y->attr)
					fail_msg("width %d: scrollback %zu,%d "
					    "differs", widths[i], n, col);
			}
		}
		lz_pane_free(q);
	}
	lz_buf_release(&in);
	lz_pane_free(p);
}

/*
 * A combining mark after a resize joins the last glyph only where the
 * cursor stands right after it. libvterm keeps its own last glyph (where
 * it joins marks) through a resize: a resize that cannot put the glyph
 * back (erased, or on the alternate screen) parks libvterm's, and one
 * that can puts it where the glyph is even under origin mode. The pane
 * and its mirror (whose snapshot parked libvterm's glyph at the old
 * size's last cell) stay the same.
 */
static void
test_mark_after_resize(void **state)
{
	static const struct {
		unsigned r0, c0;	/* the pane */
		const char *x;		/* before the mirror */
		unsigned rows, cols;	/* the resize */
		const char *y;		/* the probe */
		int row, col;		/* a cell that stays blank, or -1 */
		int jrow, jcol;		/* where the mark joins, or -1 */
	} t[] = {
		/* The mirror's parked glyph at (4,9), the cursor after it. */
		{ 5, 10, "ab\033[2K", 5, 20, "\033[5;11H\xcc\x88", 4, 9,
		    -1, -1 },
		{ 5, 10, "\033[?1049hab\033[2K", 5, 20,
		    "\033[5;11H\xcc\x88", 4, 9, -1, -1 },
		{ 4, 10, "0123456789abc\033[2K", 4, 7,
		    "\033[4;8H\xcc\x88", 3, 6, -1, -1 },
		/* Here the guard joins it to its erased glyph, as libvterm. */
		{ 1, 1, "a\033[2K", 1, 7, "\033[1;2H\xcc\x88", -1, -1,
		    -1, -1 },
		/* Put back where it is, not under the old top margin. */
		{ 6, 10, "\033[3;5r\033[?6h\033[1;1Hab", 6, 12,
		    "\033[5;3H\xcc\x88", 4, 1, -1, -1 },
		{ 6, 10, "\033[3;5r\033[?6h\033[1;1Hab", 6, 12,
		    "\033[3;3H\xcc\x88", -1, -1, 2, 1 },
		/* And joined as before where the glyph stays. */
		{ 5, 10, "ab", 5, 20, "\xcc\x88", -1, -1, 0, 1 },
		{ 5, 10, "ab", 7, 10, "\xcc\x88", -1, -1, 0, 1 },
	};
	struct lz_pane *p, *m;
	const struct lz_cell *c;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof t / sizeof *t; k++) {
		p = mk(t[k].r0, t[k].c0, 50);
		feed(p, t[k].x);
		m = mirror(p, 50);
		same(p, m, t[k].x);
		lz_pane_resize(p, t[k].rows, t[k].cols);
		lz_pane_resize(m, t[k].rows, t[k].cols);
		same(p, m, "resized");
		feed(p, t[k].y);
		feed(m, t[k].y);
		same(p, m, t[k].y);
		if (t[k].row >= 0) {
			c = lz_pane_cell(p, t[k].row, t[k].col);
			if (c->ch[0] != 0 && c->ch[0] != ' ')
				fail_msg("case %zu: cell %d,%d holds U+%04X", k,
				    t[k].row, t[k].col, c->ch[0]);
		}
		if (t[k].jrow >= 0) {
			c = lz_pane_cell(p, t[k].jrow, t[k].jcol);
			if (c->ch[0] != 'b' || c->ch[1] != 0x308)
				fail_msg("case %zu: cell %d,%d holds U+%04X "
				    "U+%04X, not b and the mark", k, t[k].jrow,
				    t[k].jcol, c->ch[0], c->ch[1]);
		}
		lz_pane_free(m);
		lz_pane_free(p);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_flags),
		cmocka_unit_test(test_rewrap),
		cmocka_unit_test(test_wide_and_pen),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_alternate),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_property),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_mark_after_resize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
