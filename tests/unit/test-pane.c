/*
 * test-pane.c: the pane emulator (ui/pane.h) from byte streams to grids:
 * text, colours, attributes, wide and combining characters, the alternate
 * screen, scroll regions, scrollback and its bound, resize, answers through
 * the reply callback, the title, modes, damage coalescing and the guard
 * against libvterm 0.1.4's faults. The snapshot is test-pane-snapshot.c.
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

struct ctx {
	struct lz_buf reply;
	int replies;
	int damages;
};

static void
on_reply(const char *buf, size_t len, void *user)
{
	struct ctx *c = user;

	assert_true(len > 0);
	lz_buf_add(&c->reply, buf, len);
	c->replies++;
}

static void
on_damage(void *user)
{
	struct ctx *c = user;

	c->damages++;
}

static const struct lz_pane_cb cbs = { on_reply, on_damage };

static struct lz_pane *
mk(unsigned rows, unsigned cols, size_t sb, struct ctx *c)
{
	memset(c, 0, sizeof *c);
	lz_buf_init(&c->reply);
	return lz_pane_new(rows, cols, sb, &cbs, c);
}

static void
done(struct lz_pane *p, struct ctx *c)
{
	lz_pane_free(p);
	lz_buf_release(&c->reply);
}

static void
feed(struct lz_pane *p, const char *s)
{
	lz_pane_feed(p, s, strlen(s));
}

/* Feeds s one byte a call. */
static void
feed_bytes(struct lz_pane *p, const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		lz_pane_feed(p, s + i, 1);
}

static void
check_line(const struct lz_pane *p, long line, const char *want)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_pane_line_text(p, line, &b);
	if (strcmp(b.buf, want) != 0)
		fail_msg("line %ld: got '%s', want '%s'", line, b.buf, want);
	lz_buf_release(&b);
}

static const struct lz_cell *
cell(const struct lz_pane *p, int r, int c)
{
	const struct lz_cell *x = lz_pane_cell(p, r, c);

	assert_non_null(x);
	return x;
}

static void
test_text_and_wrap(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 10, 100, &c);

	(void)state;
	feed(p, "hello\r\nworld 0123456789ab");
	check_line(p, 0, "hello");
	check_line(p, 1, "world 0123");
	check_line(p, 2, "456789ab");
	assert_int_equal(lz_pane_props(p)->cursor_row, 2);
	assert_int_equal(lz_pane_props(p)->cursor_col, 8);
	assert_int_equal(cell(p, 0, 7)->ch[0], 0);	/* never written */
	done(p, &c);
}

static void
test_colours(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 20, 0, &c);

	(void)state;
	feed(p, "\033[31ma\033[92mb\033[38;5;200mc\033[48;2;1;2;3md"
	    "\033[39;49me\033[38:2:10:20:30mf\033[44mg\033[0mh");
	assert_int_equal(cell(p, 0, 0)->fg, LZ_COLOR_INDEXED(1));
	assert_int_equal(cell(p, 0, 1)->fg, LZ_COLOR_INDEXED(10));
	assert_int_equal(cell(p, 0, 2)->fg, LZ_COLOR_INDEXED(200));
	assert_int_equal(cell(p, 0, 3)->fg, LZ_COLOR_INDEXED(200));
	assert_int_equal(cell(p, 0, 3)->bg, LZ_COLOR_RGB(1, 2, 3));
	assert_int_equal(cell(p, 0, 4)->fg, LZ_COLOR_DEFAULT);
	assert_int_equal(cell(p, 0, 4)->bg, LZ_COLOR_DEFAULT);
	assert_int_equal(cell(p, 0, 5)->fg, LZ_COLOR_RGB(10, 20, 30));
	assert_int_equal(cell(p, 0, 6)->bg, LZ_COLOR_INDEXED(4));
	assert_int_equal(cell(p, 0, 7)->fg, LZ_COLOR_DEFAULT);
	assert_int_equal(cell(p, 0, 7)->bg, LZ_COLOR_DEFAULT);
	/* Background colour erase: EL takes the current background. */
	feed(p, "\r\n\033[45m\033[K\033[m");
	assert_int_equal(cell(p, 1, 19)->bg, LZ_COLOR_INDEXED(5));
	assert_int_equal(cell(p, 1, 19)->ch[0], 0);
	done(p, &c);
}

static void
test_attributes(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 20, 0, &c);

	(void)state;
	feed(p, "\033[1ma\033[3mb\033[4mc\033[21md\033[4:3me\033[5mf"
	    "\033[7mg\033[9mh\033[22;23;24;25;27;29mi\033[1;7mj\033[0mk");
	assert_int_equal(cell(p, 0, 0)->attr, LZ_ATTR_BOLD);
	assert_int_equal(cell(p, 0, 1)->attr, LZ_ATTR_BOLD | LZ_ATTR_ITALIC);
	assert_int_equal(LZ_ATTR_UNDERLINE(cell(p, 0, 2)->attr), 1);
	assert_int_equal(LZ_ATTR_UNDERLINE(cell(p, 0, 3)->attr), 2);
	assert_int_equal(LZ_ATTR_UNDERLINE(cell(p, 0, 4)->attr), 3);
	assert_true(cell(p, 0, 5)->attr & LZ_ATTR_BLINK);
	assert_true(cell(p, 0, 6)->attr & LZ_ATTR_REVERSE);
	assert_true(cell(p, 0, 7)->attr & LZ_ATTR_STRIKE);
	assert_int_equal(cell(p, 0, 8)->attr, 0);
	assert_int_equal(cell(p, 0, 9)->attr, LZ_ATTR_BOLD | LZ_ATTR_REVERSE);
	assert_int_equal(cell(p, 0, 10)->attr, 0);
	done(p, &c);
}

static void
test_wide(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 10, 0, &c);
	const struct lz_cell *x;

	(void)state;
	/* A wide character that does not fit at the margin wraps whole. */
	feed(p, "abcdefghi\xe4\xb8\xad|");
	check_line(p, 0, "abcdefghi");
	assert_int_equal(cell(p, 0, 9)->ch[0], 0);
	x = cell(p, 1, 0);
	assert_int_equal(x->ch[0], 0x4e2d);
	assert_int_equal(x->width, 2);
	assert_int_equal(cell(p, 1, 1)->ch[0], LZ_CELL_CONT);
	assert_int_equal(cell(p, 1, 2)->ch[0], '|');
	check_line(p, 1, "\xe4\xb8\xad|");
	/* Emoji are wide as well (libvterm 0.1.4's table). */
	feed(p, "\r\n\xf0\x9f\x98\x80x");
	assert_int_equal(cell(p, 2, 0)->ch[0], 0x1f600);
	assert_int_equal(cell(p, 2, 0)->width, 2);
	assert_int_equal(cell(p, 2, 1)->ch[0], LZ_CELL_CONT);
	assert_int_equal(cell(p, 2, 2)->ch[0], 'x');
	/* Overwriting the right half blanks the left. */
	feed(p, "\033[2;2HZ");
	assert_int_equal(cell(p, 1, 0)->ch[0], 0);
	assert_int_equal(cell(p, 1, 1)->ch[0], 'Z');
	/* Erasing the left half blanks the right. */
	feed(p, "\033[3;1H\033[1X");
	assert_int_equal(cell(p, 2, 0)->ch[0], 0);
	assert_int_equal(cell(p, 2, 1)->ch[0], 0);
	assert_int_equal(cell(p, 2, 2)->ch[0], 'x');
	done(p, &c);
}

static void
test_combining(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 10, 0, &c);
	const struct lz_cell *x;

	(void)state;
	feed(p, "e\xcc\x81z");
	x = cell(p, 0, 0);
	assert_int_equal(x->ch[0], 'e');
	assert_int_equal(x->ch[1], 0x301);
	assert_int_equal(x->ch[2], 0);
	assert_int_equal(cell(p, 0, 1)->ch[0], 'z');
	/* Split across feeds, in the middle of the mark too. */
	feed(p, "\r\n");
	feed_bytes(p, "a\xcc\x88\xcc\xa3");
	x = cell(p, 1, 0);
	assert_int_equal(x->ch[0], 'a');
	assert_int_equal(x->ch[1], 0x308);
	assert_int_equal(x->ch[2], 0x323);
	/* At most three marks are kept in a cell. */
	feed(p, "\033[1;5Ho\xcc\x81\xcc\x82\xcc\x83\xcc\x84\xcc\x85!");
	x = cell(p, 0, 4);
	assert_int_equal(x->ch[0], 'o');
	assert_int_equal(x->ch[3], 0x303);
	assert_int_equal(cell(p, 0, 5)->ch[0], '!');
	check_line(p, 0, "e\xcc\x81z  o\xcc\x81\xcc\x82\xcc\x83!");
	done(p, &c);
}

/*
 * Widths are the C library's where libvterm 0.1.4's differ (ui/vtchar.c):
 * libvterm gets a stand-in of the pane's width, the grid the character.
 * The same with the fast path off, and fed a byte at a time.
 */
static void
test_widths_of_the_c_library(void **state)
{
	static const char in[] =
	    "a\xf0\x9f\xa5\xb0" "b"		/* U+1F970: wide */
	    "\r\ne\xe1\xaa\xb0z"		/* U+1AB0: a mark */
	    "\r\nc\xf0\x9f\xa4\xbb" "d"		/* U+1F93B: narrow */
	    "\r\n\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8|" /* Hangul jamo */
	    "\033[5;1H\xf0\x9f\xa5\xb0\033[2b"	/* REP of a stand-in */
	    "\033[6;9H\xf0\x9f\xa5\xb0\xcc\x88"; /* pending wrap, a mark */
	struct ctx c;
	struct lz_pane *p;
	const struct lz_cell *x;
	int mode, k;

	(void)state;
	for (mode = 0; mode < 3; mode++) {
		p = mk(6, 10, 0, &c);
		lz_pane_set_fast(p, mode != 1);
		if (mode == 2)
			feed_bytes(p, in);
		else
			feed(p, in);
		x = cell(p, 0, 1);
		assert_int_equal(x->ch[0], 0x1f970);
		assert_int_equal(x->width, 2);
		assert_int_equal(cell(p, 0, 2)->ch[0], LZ_CELL_CONT);
		assert_int_equal(cell(p, 0, 3)->ch[0], 'b');
		x = cell(p, 1, 0);
		assert_int_equal(x->ch[0], 'e');
		assert_int_equal(x->ch[1], 0x1ab0);
		assert_int_equal(cell(p, 1, 1)->ch[0], 'z');
		x = cell(p, 2, 1);
		assert_int_equal(x->ch[0], 0x1f93b);
		assert_int_equal(x->width, 1);
		assert_int_equal(cell(p, 2, 2)->ch[0], 'd');
		x = cell(p, 3, 0);
		assert_int_equal(x->ch[0], 0x1100);
		assert_int_equal(x->ch[1], 0x1161);
		assert_int_equal(x->ch[2], 0x11a8);
		assert_int_equal(x->width, 2);
		assert_int_equal(cell(p, 3, 2)->ch[0], '|');
		for (k = 0; k < 6; k += 2) {
			assert_int_equal(cell(p, 4, k)->ch[0], 0x1f970);
			assert_int_equal(cell(p, 4, k)->width, 2);
		}
		assert_int_equal(cell(p, 4, 6)->ch[0], 0);
		x = cell(p, 5, 8);
		assert_int_equal(x->ch[0], 0x1f970);
		assert_int_equal(x->ch[1], 0x308);
		assert_int_equal(lz_pane_props(p)->cursor_row, 5);
		assert_int_equal(lz_pane_props(p)->cursor_col, 8);
		/* The pending wrap: the next character scrolls, on a new row. */
		feed(p, "Q");
		assert_int_equal(cell(p, 4, 8)->ch[0], 0x1f970);
		assert_int_equal(cell(p, 5, 0)->ch[0], 'Q');
		done(p, &c);
	}
}

static void
test_combining_flood(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 10, 0, &c);
	size_t i, n = 1 << 20;
	char *buf = lz_xmalloc(n);

	(void)state;
	/* 512 Ki combining marks after one base, in 1 KiB writes: bounded. */
	buf[0] = 'a';
	buf[1] = 'b';
	for (i = 2; i + 1 < n; i += 2) {
		buf[i] = '\xcc';
		buf[i + 1] = '\x81';
	}
	for (i = 0; i < n; i += 1000)
		lz_pane_feed(p, buf + i, n - i < 1000 ? n - i : 1000);
	feed(p, "c");
	assert_int_equal(cell(p, 0, 1)->ch[0], 'b');
	assert_int_equal(cell(p, 0, 1)->ch[1], 0x301);
	assert_int_equal(cell(p, 0, 2)->ch[0], 'c');
	free(buf);
	done(p, &c);
}

static void
test_altscreen(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 10, 100, &c);
	size_t sb;

	(void)state;
	feed(p, "one\r\ntwo\r\nthree\r\nfour\033[2;3H");
	sb = lz_pane_scrollback_lines(p);
	assert_int_equal(sb, 1);
	feed(p, "\033[?1049h");
	assert_true(lz_pane_props(p)->altscreen);
	check_line(p, 0, "");
	feed(p, "\033[Halt\r\n\r\n\r\n\r\n\r\nlast");
	check_line(p, 2, "last");
	/* The alternate screen never feeds scrollback. */
	assert_int_equal(lz_pane_scrollback_lines(p), sb);
	feed(p, "\033[?1049l");
	assert_false(lz_pane_props(p)->altscreen);
	check_line(p, 0, "two");
	check_line(p, 1, "three");
	check_line(p, 2, "four");
	assert_int_equal(lz_pane_props(p)->cursor_row, 1);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	/* Entering again starts from a clear alternate screen. */
	feed(p, "\033[?1049h");
	check_line(p, 2, "");
	/* RIS leaves the alternate screen. */
	feed(p, "\033c");
	assert_false(lz_pane_props(p)->altscreen);
	check_line(p, 0, "");
	/*
	 * The alternate screen is made on entry (freed on exit): one
	 * entered after a resize has the new size, and one resized while
	 * shown keeps what it shows.
	 */
	lz_pane_resize(p, 4, 12);
	feed(p, "\033[?1049h\033[4;1H0123456789ab");
	check_line(p, 3, "0123456789ab");
	lz_pane_resize(p, 5, 14);
	check_line(p, 3, "0123456789ab");
	feed(p, "\033[5;14HZ");
	assert_int_equal(cell(p, 4, 13)->ch[0], 'Z');
	feed(p, "\033[?1049l\033[?1049h");
	check_line(p, 3, "");
	done(p, &c);
}

/*
 * ?1049l restoring a slot past the middle of a double-width line: libvterm
 * 0.1.4 stops the cursor at the middle when the CSI ends, and calls no
 * movecursor when that is where it started. The pane says where libvterm
 * is (a fuzz-snapshot finding).
 */
static void
test_restore_onto_double_width(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 10, 100, &c);

	(void)state;
	feed(p, "1234567\033[?1049h\033#6\033[?1049l");
	assert_int_equal(lz_pane_props(p)->cursor_col, 4);
	feed(p, "\033[?1049l");
	assert_int_equal(lz_pane_props(p)->cursor_col, 4);
	/* A restore on a single-width line goes where it was saved. */
	feed(p, "\033#5\033[?1049l");
	assert_int_equal(lz_pane_props(p)->cursor_col, 7);
	/* X now goes where the cursor is said to be. */
	feed(p, "\033#6\033[?1049lX");
	check_line(p, 0, "1234X67");
	done(p, &c);
}

/*
 * A move that does not move clears the pending wrap before a line size
 * and text in the same feed: the text, past the narrower line's half,
 * goes to the next row, which is no soft wrap (as without the pending
 * wrap); with the pending wrap kept it is one. Fast path on and off.
 */
static void
test_line_size_after_move(void **state)
{
	struct ctx c;
	struct lz_pane *p;
	int fast;

	(void)state;
	for (fast = 0; fast < 2; fast++) {
		p = mk(8, 8, 100, &c);
		lz_pane_set_fast(p, fast);
		feed(p, "0123456789ABCDEF\033[C\033#6[");
		assert_int_equal(lz_pane_wrapped(p, 0), 1);
		assert_int_equal(lz_pane_wrapped(p, 1), 0);
		check_line(p, 2, "[");
		done(p, &c);
		p = mk(8, 8, 100, &c);
		lz_pane_set_fast(p, fast);
		feed(p, "0123456789ABCDEF\033#6[");
		assert_int_equal(lz_pane_wrapped(p, 1), 1);
		check_line(p, 2, "[");
		done(p, &c);
	}
}

/*
 * A resize that leaves the last glyph past its double-width line's half
 * does not put it back: libvterm would wrap it, under its margins of the
 * old size (a region below the new screen: a negative memmove in
 * libvterm's scroll, which ASan reports). The bytes are fuzz-pane's
 * finding (corpus/pane/resize-glyph-past-double-width-half).
 */
static void
test_resize_glyph_past_half(void **state)
{
	static const char in[] = "\000\012\033[8;31rdem\033[\036\0008lazaret;"
	    "since\377\377\003\033#6[\002r\001\000lazaret;wrap;\201\314\202x"
	    "\015\202\015\202x\015\377\377\033#6[[ \002r\001\000\000\000how"
	    "\033#b\360\237\230\200\314\201\314";
	struct ctx c;
	struct lz_pane *p = mk(31, 24, 64, &c);

	(void)state;
	lz_pane_feed(p, in, sizeof in - 1);
	lz_pane_resize(p, 1, 14);
	assert_int_equal(lz_pane_rows(p), 1);
	assert_int_equal(lz_pane_cols(p), 14);
	done(p, &c);
}

/*
 * Plain text after a row's first glyph is written a row at a time (the
 * fast path's ascii_run): it stops at half of a wide character, at the
 * last column (the pending wrap, a soft wrap with the next glyph) and,
 * without autowrap, keeps overwriting the last column. Fast path on and
 * off alike.
 */
static void
test_ascii_rows(void **state)
{
	struct ctx c;
	struct lz_pane *p;
	int fast;

	(void)state;
	for (fast = 0; fast < 2; fast++) {
		p = mk(5, 10, 10, &c);
		lz_pane_set_fast(p, fast);
		feed(p, "ab\xe4\xb8\xad" "cd\033[1;1HXYZW");
		check_line(p, 0, "XYZWcd");
		assert_int_equal(cell(p, 0, 2)->width, 1);
		assert_int_equal(cell(p, 0, 3)->ch[0], 'W');
		assert_int_equal(lz_pane_props(p)->cursor_col, 4);
		feed(p, "\033[3;1H0123456789AB");
		check_line(p, 2, "0123456789");
		check_line(p, 3, "AB");
		assert_int_equal(lz_pane_wrapped(p, 2), 1);
		assert_int_equal(lz_pane_props(p)->cursor_row, 3);
		assert_int_equal(lz_pane_props(p)->cursor_col, 2);
		feed(p, "\033[?7l\033[5;1H0123456789XYZ");
		check_line(p, 4, "012345678Z");
		assert_int_equal(lz_pane_wrapped(p, 4), 0);
		assert_int_equal(lz_pane_props(p)->cursor_col, 9);
		done(p, &c);
	}
}

/*
 * An SGR ending in a bare 38 or 48 sets no colour from it: libvterm
 * 0.1.4 would read the palette and index from an earlier CSI's arguments
 * (here the CUPs' 5 and 44, which the CHAs leave). The parameters before
 * it still count; a missing first one is 0, a reset. Fast path on and
 * off alike.
 */
static void
test_sgr_bare_colour(void **state)
{
	struct ctx c;
	struct lz_pane *p;
	int fast;

	(void)state;
	for (fast = 0; fast < 2; fast++) {
		p = mk(3, 10, 0, &c);
		lz_pane_set_fast(p, fast);
		feed(p, "\033[1;5;44H\033[1G\033[48mA"
		    "\033[1;2;3;5;44H\033[2G\033[1;31;38mB"
		    "\033[1;1;5;44H\033[3G\033[;48mC");
		assert_int_equal(cell(p, 0, 0)->bg, LZ_COLOR_DEFAULT);
		assert_int_equal(cell(p, 0, 0)->fg, LZ_COLOR_DEFAULT);
		assert_int_equal(cell(p, 0, 1)->fg, LZ_COLOR_INDEXED(1));
		assert_int_equal(cell(p, 0, 1)->attr, LZ_ATTR_BOLD);
		assert_int_equal(cell(p, 0, 2)->fg, LZ_COLOR_DEFAULT);
		assert_int_equal(cell(p, 0, 2)->attr, 0);
		/*
		 * A 38 or 48 that is another colour's value or index, or a
		 * sub-parameter, is no bare one: the SGR stands whole.
		 */
		feed(p, "\r\n\033[0;48;2;1;2;48mD\033[0;38;5;38mE"
		    "\033[0;4:38;48;5;48mF\033[0;38;5;1;48mG");
		assert_int_equal(cell(p, 1, 0)->bg, LZ_COLOR_RGB(1, 2, 48));
		assert_int_equal(cell(p, 1, 1)->fg, LZ_COLOR_INDEXED(38));
		assert_int_equal(cell(p, 1, 2)->bg, LZ_COLOR_INDEXED(48));
		/* ... and one the walk reaches last is bare. */
		assert_int_equal(cell(p, 1, 3)->fg, LZ_COLOR_INDEXED(1));
		assert_int_equal(cell(p, 1, 3)->bg, LZ_COLOR_DEFAULT);
		done(p, &c);
	}
}

static void
test_scroll_region(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(5, 10, 100, &c);

	(void)state;
	feed(p, "A\r\nB\r\nC\r\nD\r\nE\033[2;4r\033[4;1H\nX\r\nY");
	check_line(p, 0, "A");
	check_line(p, 1, "D");
	check_line(p, 2, "X");
	check_line(p, 3, "Y");
	check_line(p, 4, "E");
	/* A region that is not the whole screen feeds no scrollback. */
	assert_int_equal(lz_pane_scrollback_lines(p), 0);
	/* Reverse index at the top of the region scrolls it down. */
	feed(p, "\033[2;1H\033M");
	check_line(p, 1, "");
	check_line(p, 2, "D");
	check_line(p, 4, "E");
	/* Left/right margins (DECLRMM + DECSLRM): only columns 2-4 move. */
	feed(p, "\033[r\033[H\033[2J11111\r\n22222\r\n33333"
	    "\033[?69h\033[2;4s\033[1;3r\033[3;2H\n\033[?69l\033[r");
	check_line(p, 0, "12221");
	check_line(p, 1, "23332");
	check_line(p, 2, "3   3");
	/* Insert and delete characters. */
	feed(p, "\033[5;1Habcdef\033[5;2H\033[2@");
	check_line(p, 4, "a  bcdef");
	feed(p, "\033[5;2H\033[3P");
	check_line(p, 4, "acdef");
	done(p, &c);
}

static void
test_scrollback(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 10, 5, &c);
	const struct lz_cell *x;
	char line[32];
	int i;

	(void)state;
	for (i = 0; i < 20; i++) {
		snprintf(line, sizeof line, "%s\033[3%dml%d\033[m", i ? "\r\n" :
		    "", i % 8, i);
		feed(p, line);
	}
	/* 20 lines on 3 rows: 17 scrolled off, the newest 5 are kept. */
	assert_int_equal(lz_pane_scrollback_lines(p), 5);
	check_line(p, 0, "l17");
	check_line(p, -1, "l16");
	check_line(p, -5, "l12");
	check_line(p, -6, "");
	x = lz_pane_scrollback_cell(p, 0, 1);
	assert_non_null(x);
	assert_int_equal(x->ch[0], '1');
	assert_int_equal(x->fg, LZ_COLOR_INDEXED(16 % 8));
	x = lz_pane_scrollback_cell(p, 4, 0);
	assert_int_equal(x->fg, LZ_COLOR_INDEXED(12 % 8));
	/* Beyond the stored width: blank; beyond the ring: NULL. */
	assert_int_equal(lz_pane_scrollback_cell(p, 0, 9)->ch[0], 0);
	assert_null(lz_pane_scrollback_cell(p, 5, 0));
	assert_true(lz_pane_scrollback_bytes(p) > 0);
	assert_true(lz_pane_scrollback_bytes(p) < 5 * 64);
	/* Wide and combining characters survive the encoding. */
	feed(p, "\r\n\xe4\xb8\xad" "e\xcc\x81\033[48;2;9;8;7m \033[m\r\n\r\n\r\n");
	x = lz_pane_scrollback_cell(p, 0, 0);
	assert_int_equal(x->ch[0], 0x4e2d);
	assert_int_equal(x->width, 2);
	assert_int_equal(lz_pane_scrollback_cell(p, 0, 1)->ch[0],
	    LZ_CELL_CONT);
	x = lz_pane_scrollback_cell(p, 0, 2);
	assert_int_equal(x->ch[1], 0x301);
	assert_int_equal(lz_pane_scrollback_cell(p, 0, 3)->bg,
	    LZ_COLOR_RGB(9, 8, 7));
	done(p, &c);
}

/*
 * A row goes to scrollback and comes back cell for cell: every kind of
 * colour, attributes (protected too), blanks with a background in and
 * after the text, wide and combining characters, a colour per cell.
 */
static void
test_scrollback_exact(void **state)
{
	static const char *const rows[] = {
		"\033[31ma\033[38;5;200mb\033[38;2;1;2;3mc\033[48;5;9md"
		"\033[48;2;250;0;7me\033[0m\033[1;3;4:3;5;7;9mf\033[0m"
		"\033[1\"qP\033[0\"qq\033[44m  \033[3X\033[0m\033[4C x",
		"\xe4\xb8\xad\033[32m\xf0\x9f\x9a\x80" "e\xcc\x81\xcc\x82"
		"\033[45m\xe6\x96\x87\033[0m\033[5Cy\033[48;5;3m\033[K",
		"\033[38;5;1m1\033[38;5;2m2\033[38;5;3m3\033[38;5;4m4"
		"\033[38;5;5m5\033[38;5;6m6\033[38;5;7m7\033[38;5;8m8"
		"\033[0m\033[2;1H\033[2@",
		/*
		 * Runs of a colour a cell (ASCII only), indexed and RGB:
		 * broken by a repeated colour, a bg or attr change, a wide
		 * character, a combining mark, a blank, a switch of kind.
		 */
		"\033[38;5;1m1\033[38;5;2m2\033[38;5;2m2\033[38;5;3m3"
		"\033[38;5;4m4\033[41m5\033[38;5;6m6\033[1m\033[38;5;7m7"
		"\033[38;5;8m8\033[38;5;9m\xe4\xb8\xad\033[38;5;10me\xcc\x81"
		"\033[38;5;11mz\033[38;5;12m \033[38;5;13mw\033[0m"
		"\033[38;2;1;2;3mr\033[38;2;4;5;6mg\033[38;2;7;8;9mb"
		"\033[38;5;14mi\033[38;2;0;0;0mk\033[39mo\033[38;5;15m!",
	};
	struct lz_cell snap[40];
	const struct lz_cell *a, *b;
	struct ctx c;
	struct lz_pane *p;
	size_t i;
	int col;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof *rows; i++) {
		p = mk(2, 40, 10, &c);
		feed(p, rows[i]);
		feed(p, "\033[0m\033[1;1H");
		for (col = 0; col < 40; col++)
			snap[col] = *cell(p, 0, col);
		feed(p, "\033[2;1H\r\n\r\n");
		assert_int_equal(lz_pane_scrollback_lines(p), 2);
		for (col = 0; col < 40; col++) {
			a = &snap[col];
			b = lz_pane_scrollback_cell(p, 1, col);
			assert_non_null(b);
			if (memcmp(a->ch, b->ch, sizeof a->ch) != 0 ||
			    a->fg != b->fg || a->bg != b->bg ||
			    a->attr != b->attr || a->width != b->width)
				fail_msg("row %zu col %d: %x/%x/%x/%x/%u, want "
				    "%x/%x/%x/%x/%u", i, col, b->ch[0], b->fg,
				    b->bg, b->attr, b->width, a->ch[0], a->fg,
				    a->bg, a->attr, a->width);
		}
		done(p, &c);
	}
}

/*
 * A colour on every character costs two bytes a cell (indexed) or four
 * (RGB) in the scrollback, runs of at most 255 cells: a 300-character
 * line of 256 colours is 4 bytes of header, a run of 255 (2 + 510 bytes)
 * and one of 45 (2 + 90).
 */
static void
test_scrollback_runs(void **state)
{
	struct lz_buf in = LZ_BUF_INIT;
	struct ctx c;
	struct lz_pane *p;
	int k, rgb;

	(void)state;
	for (rgb = 0; rgb < 2; rgb++) {
		p = mk(2, 300, 10, &c);
		lz_buf_reset(&in);
		for (k = 0; k < 300; k++)
			lz_buf_addf(&in, rgb ? "\033[38;2;%d;1;2m%c" :
			    "\033[38;5;%dm%c", k % 256, 'a' + k % 26);
		lz_buf_adds(&in, "\033[0m\r\n\r\n");
		lz_pane_feed(p, in.buf, in.len);
		assert_int_equal(lz_pane_scrollback_lines(p), 1);
		assert_int_equal(lz_pane_scrollback_bytes(p),
		    4 + 2 + 255 * (rgb ? 4 : 2) + 2 + 45 * (rgb ? 4 : 2));
		assert_int_equal(lz_pane_scrollback_cell(p, 0, 299)->fg, rgb ?
		    LZ_COLOR_RGB(299 % 256, 1, 2) : LZ_COLOR_INDEXED(299 % 256));
		assert_int_equal(lz_pane_scrollback_cell(p, 0, 299)->ch[0],
		    'a' + 299 % 26);
		done(p, &c);
	}
	lz_buf_release(&in);
}

static void
test_scrollback_clamp(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 20, (size_t)1 << 40, &c);
	char *buf;
	size_t i, n = 2000000;

	(void)state;
	/* A 1 TiB-line demand is clamped, and bytes bound the ring too. */
	buf = lz_xmalloc(n);
	for (i = 0; i < n; i++)
		buf[i] = i % 3 == 2 ? '\n' : (char)('a' + i % 26);
	lz_pane_feed(p, buf, n);
	assert_true(lz_pane_scrollback_lines(p) <= LZ_PANE_SB_MAX_LINES);
	assert_true(lz_pane_scrollback_bytes(p) <= LZ_PANE_SB_MAX_BYTES);
	free(buf);
	done(p, &c);
}

static void
test_resize(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(4, 10, 100, &c);

	(void)state;
	feed(p, "r0\r\nr1\r\nr2\r\nr3\xe4\xb8\xad" "abcdef");
	/* Shrinking rows: the rows above the cursor go to scrollback. */
	lz_pane_resize(p, 2, 10);
	assert_int_equal(lz_pane_rows(p), 2);
	assert_int_equal(lz_pane_scrollback_lines(p), 2);
	check_line(p, -1, "r1");
	check_line(p, 0, "r2");
	check_line(p, 1, "r3\xe4\xb8\xad" "abcdef");
	assert_int_equal(lz_pane_props(p)->cursor_row, 1);
	/* Growing brings them back. */
	lz_pane_resize(p, 4, 10);
	assert_int_equal(lz_pane_scrollback_lines(p), 0);
	check_line(p, 0, "r0");
	check_line(p, 3, "r3\xe4\xb8\xad" "abcdef");
	assert_int_equal(lz_pane_props(p)->cursor_row, 3);
	/*
	 * Fewer columns rewrap (the wide character goes whole to the next
	 * row), the rows above going to scrollback; more rejoin them.
	 */
	lz_pane_resize(p, 4, 3);
	check_line(p, -1, "r2");
	check_line(p, 0, "r3");
	check_line(p, 1, "\xe4\xb8\xad" "a");
	check_line(p, 2, "bcd");
	check_line(p, 3, "ef");
	assert_true(lz_pane_wrapped(p, 0) && lz_pane_wrapped(p, 2));
	assert_false(lz_pane_wrapped(p, 3));
	/* The cursor stays after f (the row resizes kept the pending wrap). */
	assert_int_equal(lz_pane_props(p)->cursor_row, 3);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	lz_pane_resize(p, 4, 10);
	assert_int_equal(lz_pane_scrollback_lines(p), 0);
	check_line(p, 3, "r3\xe4\xb8\xad" "abcdef");
	assert_int_equal(lz_pane_props(p)->cursor_col, 9);
	/* Rows shrink below an empty bottom: blank rows are cut first. */
	feed(p, "\033[2J\033[Htop");
	lz_pane_resize(p, 2, 10);
	check_line(p, 0, "top");
	assert_int_equal(lz_pane_scrollback_lines(p), 0);
	/* The saved cursor is clamped after a resize (libvterm's is not). */
	feed(p, "\033[2;9H\0337");
	lz_pane_resize(p, 1, 4);
	feed(p, "\0338xy");
	assert_int_equal(lz_pane_props(p)->cursor_row, 0);
	/* A scroll region below the new bottom (libvterm keeps its top). */
	lz_pane_resize(p, 31, 24);
	feed(p, "\033[8;31r\033[?69h\033[5;20s\033[?69l\033[3;4H");
	lz_pane_resize(p, 1, 3);
	assert_int_equal(lz_pane_props(p)->cursor_col, 2);
	feed(p, "a\r\nb\r\nc\033[?69hd\r\ne\033[Lf");
	check_line(p, 0, " f");
	lz_pane_resize(p, 100000, 100000);
	assert_int_equal(lz_pane_rows(p), LZ_PANE_MAX_ROWS);
	assert_int_equal(lz_pane_cols(p), LZ_PANE_MAX_COLS);
	done(p, &c);
}

static void
test_replies(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(5, 20, 0, &c);

	(void)state;
	feed(p, "\033[3;7H\033[6n");
	assert_int_equal(c.replies, 1);
	assert_string_equal(c.reply.buf, "\033[3;7R");
	lz_buf_reset(&c.reply);
	/* Split across feeds. */
	feed_bytes(p, "\033[c");
	assert_true(c.reply.len > 3);
	assert_memory_equal(c.reply.buf, "\033[?", 3);
	lz_buf_reset(&c.reply);
	/* DECRQM for synchronized output: the pane answers (reset). */
	feed(p, "\033[?2026$p");
	assert_string_equal(c.reply.buf, "\033[?2026;2$y");
	lz_buf_reset(&c.reply);
	/* DECRQSS through a DCS split across feeds. */
	feed_bytes(p, "\033[1m\033P$qm\033\\");
	assert_string_equal(c.reply.buf, "\033P1$r1m\033\\");
	lz_buf_reset(&c.reply);
	/* Any other DECRQSS would crash libvterm 0.1.4: dropped. */
	feed(p, "\033P$qzz\033\\\033P$q\"p\007");
	assert_int_equal(c.reply.len, 0);
	assert_int_equal(lz_pane_props(p)->dropped_strings, 2);
	done(p, &c);
}

static void
test_title(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 20, 0, &c);
	char big[LZ_PANE_TITLE_MAX * 2 + 16];

	(void)state;
	assert_string_equal(lz_pane_title(p), "");
	feed(p, "\033]2;hello\007after");
	assert_string_equal(lz_pane_title(p), "hello");
	check_line(p, 0, "after");
	/* Split byte by byte, ST-terminated, control characters removed. */
	feed_bytes(p, "\033]0;a\tb\001 \xc2\x9b" "c\xff\033\\");
	assert_string_equal(lz_pane_title(p), "ab c\xef\xbf\xbd");
	/* ESC and anything but a backslash abandons the OSC. */
	feed_bytes(p, "\033]2;never\033[31mX");
	assert_string_equal(lz_pane_title(p), "ab c\xef\xbf\xbd");
	assert_int_equal(cell(p, 0, 5)->ch[0], 'X');
	assert_int_equal(cell(p, 0, 5)->fg, LZ_COLOR_INDEXED(1));
	feed(p, "\033[m");
	/* Nothing was forwarded: the pane has no reply for a title. */
	assert_int_equal(c.replies, 0);
	assert_true(lz_pane_dirty(p) & LZ_PANE_DIRTY_PROPS);
	/* Long titles are cut at a character boundary. */
	memcpy(big, "\033]2;", 4);
	memset(big + 4, 'x', sizeof big - 4);
	memcpy(big + sizeof big - 2, "\007", 2);
	feed(p, big);
	assert_int_equal(strlen(lz_pane_title(p)), LZ_PANE_TITLE_MAX);
	/*
	 * Other OSC are dropped and counted (a colour query is answered, in
	 * pane-report.c, a hyperlink kept, in pane-link.c); text around them
	 * stays.
	 */
	feed(p, "\033[2;1H\033]52;c;aGVsbG8=\007\033]8;;http://x\007link"
	    "\033]8;;\007\033]7;file:///tmp\007\033]11;?\007!");
	check_line(p, 1, "link!");
	assert_int_equal(lz_pane_props(p)->dropped_osc, 2);
	assert_int_equal(c.replies, 1);
	assert_string_equal(lz_pane_link(p, LZ_ATTR_LINK(cell(p, 1, 0)->attr)),
	    "http://x");
	assert_int_equal(LZ_ATTR_LINK(cell(p, 1, 4)->attr), 0);
	done(p, &c);
}

static void
test_modes(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(2, 20, 0, &c);
	const struct lz_pane_props *pr = lz_pane_props(p);

	(void)state;
	assert_int_equal(pr->cursor_visible, 1);
	feed(p, "\033[?1h\033=\033[?2004h\033[?1002h\033[?1006h\033[?1004h"
	    "\033[?2026h\033[?25l\033[6 q\a\a");
	assert_int_equal(pr->app_cursor, 1);
	assert_int_equal(pr->app_keypad, 1);
	assert_int_equal(pr->bracketed_paste, 1);
	assert_int_equal(pr->mouse, LZ_MOUSE_DRAG);
	assert_int_equal(pr->mouse_enc, LZ_MOUSE_ENC_SGR);
	assert_int_equal(pr->focus_events, 1);
	assert_int_equal(pr->sync, 1);
	assert_int_equal(pr->cursor_visible, 0);
	assert_int_equal(pr->cursor_shape, LZ_CURSOR_BAR);
	assert_int_equal(pr->cursor_blink, 0);
	assert_int_equal(pr->bells, 2);
	assert_true(lz_pane_dirty(p) & LZ_PANE_DIRTY_BELL);
	/*
	 * Several modes in one DECSET reach libvterm one by one (0.1.4 acts
	 * on the first only): the cursor comes back with ?12;25h, and the
	 * alternate screen with ?25;1049h.
	 */
	feed(p, "\033[?12;25h");
	assert_int_equal(pr->cursor_visible, 1);
	feed(p, "\033[?25;1049h");
	assert_int_equal(pr->altscreen, 1);
	feed(p, "\033[?1049;25l");
	assert_int_equal(pr->altscreen, 0);
	assert_int_equal(pr->cursor_visible, 0);
	feed(p, "\033[?25h");
	feed(p, "\033[?2026l\033[?1002;2004l\033>");
	assert_int_equal(pr->sync, 0);
	assert_int_equal(pr->mouse, LZ_MOUSE_NONE);
	assert_int_equal(pr->bracketed_paste, 0);
	assert_int_equal(pr->app_keypad, 0);
	feed(p, "\033[!p");
	assert_int_equal(pr->app_cursor, 0);
	done(p, &c);
}

static void
test_damage(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(50, 200, 1000, &c);
	struct lz_buf b = LZ_BUF_INIT;
	int i;

	(void)state;
	assert_int_equal(lz_pane_dirty(p), 0);
	for (i = 0; i < 1000; i++)
		lz_buf_addf(&b, "\033[3%dmline %d\033[m\r\n", i % 8, i);
	lz_pane_feed(p, b.buf, b.len);
	/* A thousand scrolled lines: one damage notice, all rows dirty. */
	assert_int_equal(c.damages, 1);
	assert_true(lz_pane_dirty(p) & LZ_PANE_DIRTY_CELLS);
	assert_true(lz_pane_row_dirty(p, 0) && lz_pane_row_dirty(p, 49));
	assert_true(lz_pane_scrolled(p) >= 950);
	lz_pane_feed(p, b.buf, b.len);
	assert_int_equal(c.damages, 1);
	lz_pane_clear_dirty(p);
	assert_int_equal(lz_pane_dirty(p), 0);
	assert_false(lz_pane_row_dirty(p, 0));
	/* One character: one row and a second notice. */
	feed(p, "\033[10;1Hx");
	assert_int_equal(c.damages, 2);
	assert_true(lz_pane_row_dirty(p, 9));
	assert_false(lz_pane_row_dirty(p, 8));
	assert_false(lz_pane_row_dirty(p, 10));
	lz_pane_clear_dirty(p);
	feed(p, "\033[5;5H");
	assert_int_equal(lz_pane_dirty(p), LZ_PANE_DIRTY_CURSOR);
	lz_buf_release(&b);
	done(p, &c);
}

static void
test_guard(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 20, 0, &c), *q;
	struct lz_buf b = LZ_BUF_INIT;
	int i;

	(void)state;
	/* 40 parameters: libvterm 0.1.4 would write past its array. */
	lz_buf_adds(&b, "\033[");
	for (i = 0; i < 40; i++)
		lz_buf_adds(&b, "1;");
	lz_buf_adds(&b, "31mok");
	lz_pane_feed(p, b.buf, b.len);
	check_line(p, 0, "ok");
	assert_int_equal(cell(p, 0, 0)->fg, LZ_COLOR_DEFAULT);
	assert_int_equal(lz_pane_props(p)->cancelled_csi, 1);
	/* Byte by byte as well, and a parameter of 12 digits. */
	feed_bytes(p, b.buf);
	feed_bytes(p, "\033[123456789012Hz");
	assert_int_equal(lz_pane_props(p)->cancelled_csi, 3);
	/* ESC inside an OSC or DCS split across writes. */
	feed(p, "\033[2;1H");
	feed_bytes(p, "\033]2;t\033x\033P1;2|ab\033\\\033_apc\033\\\033X\033\\q");
	check_line(p, 1, "q");
	/* An overlong DCS is dropped, the next text is not. */
	lz_buf_reset(&b);
	lz_buf_adds(&b, "\033P");
	for (i = 0; i < LZ_PANE_STRING_MAX + 10; i++)
		lz_buf_addch(&b, 'd');
	lz_buf_adds(&b, "\033\\w");
	lz_pane_feed(p, b.buf, b.len);
	check_line(p, 1, "qw");
	/* C1 controls as UTF-8 are dropped; bad UTF-8 shows U+FFFD. */
	feed(p, "\033[3;1H\xc2\x9b" "31m\xc2\x85|\xff|\xe4\xb8|");
	check_line(p, 2, "31m|\xef\xbf\xbd||");
	/* REP with nothing (or a zero-width glyph) to repeat: no hang. */
	q = lz_pane_new(2, 20, 0, NULL, NULL);
	feed(q, "\033[5b");
	check_line(q, 0, "");
	feed(q, "x\033[3b\033[1;8H\xcc\x81\033[9b!");
	check_line(q, 0, "xxxx   !");
	assert_int_equal(lz_pane_props(q)->cancelled_csi, 2);
	lz_pane_free(q);
	/* DECALN puts glyphs but is not one to repeat: no hang either. */
	q = lz_pane_new(2, 4, 0, NULL, NULL);
	feed(q, "\033#8\033[b");
	check_line(q, 0, "EEEE");
	assert_int_equal(lz_pane_props(q)->cancelled_csi, 1);
	feed(q, "\033[Hx\033#8\033[2;1H\033[2b");
	check_line(q, 1, "xxEE");
	lz_pane_free(q);
	/* CAN ends a CSI. */
	feed(p, "\033[3;1H\033[31\030m");
	assert_int_equal(cell(p, 2, 0)->ch[0], 'm');
	assert_int_equal(cell(p, 2, 0)->fg, LZ_COLOR_DEFAULT);
	lz_buf_release(&b);
	done(p, &c);
}

static const char *
link_at(const struct lz_pane *p, long line, int col)
{
	const struct lz_cell *c = line >= 0 ? lz_pane_cell(p, (int)line, col) :
	    lz_pane_scrollback_cell(p, (size_t)(-1 - line), col);

	return lz_pane_link(p, LZ_ATTR_LINK(c->attr));
}

static void
test_links(void **state)
{
	struct ctx c;
	struct lz_pane *p = mk(3, 20, 10, &c);
	struct lz_buf b = LZ_BUF_INIT;
	int i;

	(void)state;
	/* A link covers what is written until it closes; SGR leaves it. */
	feed(p, "\033]8;;https://a.example/x\033\\ab\033[1mc\033[m"
	    "\033]8;;\033\\d");
	assert_string_equal(link_at(p, 0, 0), "https://a.example/x");
	assert_string_equal(link_at(p, 0, 2), "https://a.example/x");
	assert_null(link_at(p, 0, 3));
	assert_int_equal(cell(p, 0, 2)->attr & ~LZ_ATTR_LINK_MASK,
	    LZ_ATTR_BOLD);
	/* The same URI and id: the same link; another id: another. */
	feed(p, "\033]8;id=1;http://b/\007e\033]8;id=1;http://b/\007f"
	    "\033]8;id=2;http://b/\007g\033]8;;\007");
	assert_int_equal(LZ_ATTR_LINK(cell(p, 0, 4)->attr),
	    LZ_ATTR_LINK(cell(p, 0, 5)->attr));
	assert_true(LZ_ATTR_LINK(cell(p, 0, 6)->attr) !=
	    LZ_ATTR_LINK(cell(p, 0, 5)->attr));
	/* URIs with spaces, controls or bytes past ASCII are not kept. */
	feed(p, "\033]8;;http://x y/\007h\033]8;;http://\xc3\xa9/\007i"
	    "\033]8;;\007");
	assert_null(link_at(p, 0, 7));
	assert_null(link_at(p, 0, 8));
	assert_int_equal(lz_pane_props(p)->dropped_links, 2);
	/* Erased cells lose it; the scrollback keeps it. */
	feed(p, "\033[2;1H\033]8;;http://c/\007linked\033]8;;\007\033[2;2H"
	    "\033[X\r\n\n\n");
	assert_null(link_at(p, -1, 1));
	assert_string_equal(link_at(p, -1, 0), "http://c/");
	lz_pane_render_history(p, 10, &b);
	assert_non_null(strstr(b.buf, "\033]8;;http://c/\033\\"));
	/* RIS ends it. */
	feed(p, "\033]8;;http://d/\007\033cx");
	assert_null(link_at(p, 0, 0));
	/* Past 255 links (5 made above) the text stays, unlinked. */
	for (i = 0; i < 300; i++) {
		lz_buf_reset(&b);
		lz_buf_addf(&b, "\033]8;;http://n/%d\007y\033]8;;\007", i);
		lz_pane_feed(p, b.buf, b.len);
	}
	assert_int_equal(lz_pane_props(p)->dropped_links, 2 + 300 - 250);
	lz_buf_release(&b);
	done(p, &c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_wrap),
		cmocka_unit_test(test_colours),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_ascii_rows),
		cmocka_unit_test(test_sgr_bare_colour),
		cmocka_unit_test(test_combining),
		cmocka_unit_test(test_combining_flood),
		cmocka_unit_test(test_widths_of_the_c_library),
		cmocka_unit_test(test_altscreen),
		cmocka_unit_test(test_restore_onto_double_width),
		cmocka_unit_test(test_line_size_after_move),
		cmocka_unit_test(test_resize_glyph_past_half),
		cmocka_unit_test(test_scroll_region),
		cmocka_unit_test(test_scrollback),
		cmocka_unit_test(test_scrollback_exact),
		cmocka_unit_test(test_scrollback_runs),
		cmocka_unit_test(test_scrollback_clamp),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_guard),
		cmocka_unit_test(test_links),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
