/*
 * test-render.c: the frame diff, checked by the project's own emulator:
 * what lz_render_flush writes for xterm-256color, fed into a fresh pane,
 * must give back the cells that were drawn; a second frame writes only
 * what changed; colours degrade to the nearest the terminal has; a glyph
 * whose width the terminal's tables (wcwidth) and libvterm's disagree on
 * is drawn as U+FFFD in the pane's columns.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "ui/render.h"

#define ROWS 6
#define COLS 20

static void
load(struct lz_term *t)
{
	struct lz_err err = LZ_ERR_INIT;

	if (lz_term_load(t, "xterm-256color", -1, &err) != 0)
		fail_msg("%s", err.msg);
	t->utf8 = 1;
}

/* Every cell of the render's back buffer equals the pane's. */
static void
assert_same(struct lz_render *r, struct lz_pane *p, int rgb)
{
	const struct lz_cell *a, *b;
	int row, col;

	for (row = 0; row < ROWS; row++) {
		for (col = 0; col < COLS; col++) {
			a = lz_render_at(r, row, col);
			b = lz_pane_cell(p, row, col);
			/* A blank is drawn as a space. */
			if ((a->ch[0] ? a->ch[0] : ' ') != (b->ch[0] ?
			    b->ch[0] : ' ') || a->attr != b->attr ||
			    (rgb && (a->fg != b->fg || a->bg != b->bg)))
				fail_msg("cell %d,%d: drew %x/%x/%x, got %x/%x"
				    "/%x", row, col, a->ch[0], a->fg, a->attr,
				    b->ch[0], b->fg, b->attr);
		}
	}
}

static void
test_roundtrip(void **state)
{
	static const char src_text[] =
	    "\033[31mred\033[0m \033[1;4mbold-ul\033[0m\r\n"
	    "\033[38;2;10;200;120mrgb\033[0m \xe6\xbc\xa2\xe5\xad\x97 e\xcc\x81\r\n"
	    "\033[7mreverse\033[0m \033[3mitalic\033[0m";
	struct lz_pane *src = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_pane *dst = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_render r;
	struct lz_term t;
	size_t first;

	(void)state;
	load(&t);
	t.rgb = 1;
	lz_render_init(&r, &t, ROWS, COLS);
	lz_pane_feed(src, src_text, sizeof src_text - 1);
	lz_render_pane(&r, src, (struct lz_rect){ 0, 0, ROWS, COLS }, 0);
	lz_render_cursor(&r, 2, 5, 1);
	lz_render_flush(&r, &out);
	lz_pane_feed(dst, out.buf, out.len);
	assert_same(&r, dst, 1);
	assert_int_equal(lz_pane_props(dst)->cursor_row, 2);
	assert_int_equal(lz_pane_props(dst)->cursor_col, 5);
	first = out.len;
	/* One changed cell: a short update, and the same result. */
	lz_buf_reset(&out);
	lz_pane_feed(src, "\033[1;1HX", 7);
	lz_render_pane(&r, src, (struct lz_rect){ 0, 0, ROWS, COLS }, 0);
	lz_render_flush(&r, &out);
	assert_true(out.len < 40);
	assert_true(out.len < first / 4);
	lz_pane_feed(dst, out.buf, out.len);
	assert_same(&r, dst, 1);
	/* Nothing changed: nothing but the cursor. */
	lz_buf_reset(&out);
	lz_render_pane(&r, src, (struct lz_rect){ 0, 0, ROWS, COLS }, 0);
	lz_render_flush(&r, &out);
	assert_null(memchr(out.buf, 'X', out.len));
	lz_buf_release(&out);
	lz_render_free(&r);
	lz_term_release(&t);
	lz_pane_free(src);
	lz_pane_free(dst);
}

static void
test_colour_degrade(void **state)
{
	struct lz_pane *dst = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_pen pen = { LZ_COLOR_RGB(10, 200, 120), 0, 0 };
	struct lz_render r;
	struct lz_term t;

	(void)state;
	load(&t);
	t.rgb = 0;	/* xterm-256color has no RGB: the nearest index */
	lz_render_init(&r, &t, ROWS, COLS);
	lz_render_text(&r, 0, 0, COLS, "x", &pen);
	lz_render_flush(&r, &out);
	lz_pane_feed(dst, out.buf, out.len);
	assert_int_equal(lz_pane_cell(dst, 0, 0)->fg,
	    LZ_COLOR_INDEXED(lz_colour_rgb_to_256(0x0ac878)));
	assert_int_equal(lz_colour_rgb_to_256(0xff0000), 196);
	assert_int_equal(lz_colour_256_to_16(196), 9);
	assert_int_equal(lz_colour_256_to_16(3), 3);
	lz_buf_release(&out);
	lz_render_free(&r);
	lz_term_release(&t);
	lz_pane_free(dst);
}

static void
test_text_and_edges(void **state)
{
	struct lz_pane *src = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_pen pen = { 0, 0, 0 };
	struct lz_render r;
	struct lz_term t;

	(void)state;
	load(&t);
	lz_render_init(&r, &t, ROWS, COLS);
	/* Control characters in chrome text are shown as '?'. */
	assert_int_equal(lz_render_text(&r, 0, 0, COLS, "a\033b", &pen), 3);
	assert_int_equal(lz_render_at(&r, 0, 1)->ch[0], '?');
	/* A wide character that does not fit is not half drawn. */
	assert_int_equal(lz_render_text(&r, 1, 0, 3, "ab\xe6\xbc\xa2", &pen),
	    2);
	/* A pane drawn into a narrower rectangle: a cut wide char blanks. */
	lz_pane_feed(src, "abc\xe6\xbc\xa2", 6);
	lz_render_pane(&r, src, (struct lz_rect){ 2, 0, 1, 4 }, 0);
	assert_int_equal(lz_render_at(&r, 2, 2)->ch[0], 'c');
	assert_int_equal(lz_render_at(&r, 2, 3)->ch[0], 0);
	assert_null(lz_render_at(&r, ROWS, 0));
	lz_render_free(&r);
	lz_term_release(&t);
	lz_pane_free(src);
}

static int
allow_https(const char *uri, struct lz_buf *out, void *user)
{
	(void)user;
	if (strncmp(uri, "https://", 8) != 0)
		return 0;
	lz_buf_addf(out, "%s#host", uri);
	return 1;
}

/*
 * Hyperlinks: drawn with OSC 8 around their text, as the policy rewrote
 * them, closed at the end of the frame; a refused one, or a terminal that
 * does not take them, gets the text alone. The links of two panes, each
 * numbered by its pane, stay apart.
 */
static void
test_links(void **state)
{
	static const char a_text[] = "\033]8;;https://a/\033\\A\033]8;;"
	    "\033\\ \033]8;;javascript:x\033\\J\033]8;;\033\\";
	static const char b_text[] = "\033]8;;https://b/\033\\B";
	struct lz_pane *a = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_pane *b = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_render r;
	struct lz_term t;
	const char *last, *next;

	(void)state;
	load(&t);
	t.hyperlinks = 1;
	lz_render_init(&r, &t, ROWS, 2 * COLS);
	lz_render_links(&r, allow_https, NULL);
	lz_pane_feed(a, a_text, sizeof a_text - 1);
	lz_pane_feed(b, b_text, sizeof b_text - 1);
	lz_render_pane(&r, a, (struct lz_rect){ 0, 0, ROWS, COLS }, 0);
	lz_render_pane(&r, b, (struct lz_rect){ 0, COLS, ROWS, COLS }, 0);
	lz_render_flush(&r, &out);
	assert_non_null(strstr(out.buf, "\033]8;;https://a/#host\033\\A"));
	assert_non_null(strstr(out.buf, "\033]8;;https://b/#host\033\\B"));
	assert_null(strstr(out.buf, "javascript"));
	assert_non_null(strstr(out.buf, "J"));
	/* Closed before the frame ends: the last OSC 8 is a close. */
	for (last = strstr(out.buf, "\033]8;;"); last != NULL &&
	    (next = strstr(last + 1, "\033]8;;")) != NULL; last = next)
		;
	assert_non_null(last);
	assert_int_equal(strncmp(last, "\033]8;;\033\\", 7), 0);
	lz_render_free(&r);
	/* A terminal without OSC 8: the text only. */
	t.hyperlinks = 0;
	lz_render_init(&r, &t, ROWS, COLS);
	lz_render_links(&r, allow_https, NULL);
	lz_buf_reset(&out);
	lz_render_pane(&r, a, (struct lz_rect){ 0, 0, ROWS, COLS }, 0);
	lz_render_flush(&r, &out);
	assert_null(strstr(out.buf, "\033]8"));
	assert_non_null(strstr(out.buf, "A"));
	lz_render_free(&r);
	lz_buf_release(&out);
	lz_term_release(&t);
	lz_pane_free(a);
	lz_pane_free(b);
}

/* A pane fed some text, drawn into a frame, the frame's output. */
struct drawn {
	struct lz_pane *src;
	struct lz_buf out;
	struct lz_render r;
	struct lz_term t;
};

static void
draw(struct drawn *d, const char *text, size_t len)
{
	d->src = lz_pane_new(ROWS, COLS, 0, NULL, NULL);
	lz_buf_init(&d->out);
	load(&d->t);
	lz_render_init(&d->r, &d->t, ROWS, COLS);
	lz_pane_feed(d->src, text, len);
	lz_render_pane(&d->r, d->src, (struct lz_rect){ 0, 0, ROWS, COLS },
	    0);
	lz_render_flush(&d->r, &d->out);
}

/* A new pane fed d's output (the terminal outside, as libvterm sees it). */
static struct lz_pane *
outside(const struct drawn *d)
{
	struct lz_pane *p = lz_pane_new(ROWS, COLS, 0, NULL, NULL);

	lz_pane_feed(p, d->out.buf, d->out.len);
	return p;
}

static void
drawn_release(struct drawn *d)
{
	lz_buf_release(&d->out);
	lz_render_free(&d->r);
	lz_term_release(&d->t);
	lz_pane_free(d->src);
}

/*
 * A pane's widths are the C library's (ui/vtchar.c), also where libvterm
 * 0.1.4 counts otherwise: such glyphs are drawn as they are, in the
 * pane's columns. A glyph the C library gives no width (unassigned: a
 * terminal may draw it in 0, 1 or 2 columns) is drawn as U+FFFD in the
 * pane's columns, so the rest of the row stays where the pane has it (a
 * random-byte flood put the row's last glyph over the border beside the
 * pane, seen in the TUI flood test).
 */
static void
test_width_disagreement(void **state)
{
	static const char src_text[] =
	    "a\xf0\x96\xbf\xa1"	/* U+16FE1: wide (libvterm: narrow) */
	    "b\xcd\xb8"		/* U+0378: unassigned, -1 in the C lib */
	    "c\xf0\x9f\xa4\xbb"	/* U+1F93B: narrow (libvterm: wide) */
	    "d\xd8\x80"		/* U+0600: a glyph (libvterm: a mark) */
	    "e\xe6\xbc\xa2" "f";	/* U+6F22: wide in both */
	static const struct { int col; uint32_t ch; } want[] = {
		{ 0, 'a' }, { 1, 0x16fe1 }, { 3, 'b' }, { 4, 0xfffd },
		{ 5, 'c' }, { 6, 0x1f93b }, { 7, 'd' }, { 8, 0x600 },
		{ 9, 'e' }, { 10, 0x6f22 }, { 12, 'f' },
	};
	struct drawn d;
	struct lz_pane *dst;
	size_t i;

	(void)state;
	/* The premise: the C library's tables say what the comments say. */
	assert_int_equal(wcwidth(0x16fe1), 2);
	assert_int_equal(wcwidth(0x378), -1);
	assert_int_equal(wcwidth(0x1f93b), 1);
	assert_int_equal(wcwidth(0x600), 1);
	draw(&d, src_text, sizeof src_text - 1);
	assert_int_equal(lz_pane_cell(d.src, 0, 12)->ch[0], 'f');
	assert_non_null(memmem(d.out.buf, d.out.len, "\xf0\x96\xbf\xa1", 4));
	assert_null(memmem(d.out.buf, d.out.len, "\xcd\xb8", 2));
	assert_non_null(memmem(d.out.buf, d.out.len, "\xf0\x9f\xa4\xbb", 4));
	assert_non_null(memmem(d.out.buf, d.out.len, "\xd8\x80", 2));
	assert_non_null(memmem(d.out.buf, d.out.len, "\xe6\xbc\xa2", 3));
	dst = outside(&d);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		if (lz_pane_cell(dst, 0, want[i].col)->ch[0] != want[i].ch)
			fail_msg("column %d: %x, not %x", want[i].col,
			    lz_pane_cell(dst, 0, want[i].col)->ch[0],
			    want[i].ch);
	lz_pane_free(dst);
	drawn_release(&d);
}

/*
 * A zero-width joiner is kept in its cell but not drawn: tmux 3.3a and
 * other terminals join the character after it into the same two
 * columns, where the pane has each emoji of the sequence in its own.
 */
static void
test_no_joiner(void **state)
{
	static const char src_text[] =
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9x";
	struct drawn d;
	struct lz_pane *dst;

	(void)state;
	draw(&d, src_text, sizeof src_text - 1);
	assert_int_equal(lz_pane_cell(d.src, 0, 0)->ch[1], 0x200d);
	assert_int_equal(lz_pane_cell(d.src, 0, 2)->ch[0], 0x1f469);
	assert_int_equal(lz_pane_cell(d.src, 0, 4)->ch[0], 'x');
	assert_null(memmem(d.out.buf, d.out.len, "\xe2\x80\x8d", 3));
	dst = outside(&d);
	assert_int_equal(lz_pane_cell(dst, 0, 2)->ch[0], 0x1f469);
	assert_int_equal(lz_pane_cell(dst, 0, 4)->ch[0], 'x');
	lz_pane_free(dst);
	drawn_release(&d);
}

/*
 * A mark in the last column is drawn with autowrap on (tmux 3.3a, as the
 * terminal outside, joins it to the cell before otherwise), and autowrap
 * is off again after it; not on the last row.
 */
static void
test_mark_last_column(void **state)
{
	struct lz_buf in = LZ_BUF_INIT, want = LZ_BUF_INIT;
	struct drawn d;
	int k;

	(void)state;
	for (k = 0; k < COLS - 1; k++)
		lz_buf_addch(&in, 'x');
	lz_buf_adds(&in, "a\xcc\xa8");
	lz_buf_addf(&in, "\033[%d;%dHb\xcc\xa8", ROWS, COLS);
	draw(&d, in.buf, in.len);
	lz_buf_addf(&want, "%sa\xcc\xa8%s", d.t.smam, d.t.rmam);
	assert_non_null(memmem(d.out.buf, d.out.len, want.buf, want.len));
	lz_buf_reset(&want);
	lz_buf_addf(&want, "%sb", d.t.smam);
	assert_null(memmem(d.out.buf, d.out.len, want.buf, want.len));
	lz_buf_release(&want);
	lz_buf_release(&in);
	drawn_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_colour_degrade),
		cmocka_unit_test(test_text_and_edges),
		cmocka_unit_test(test_width_disagreement),
		cmocka_unit_test(test_no_joiner),
		cmocka_unit_test(test_mark_last_column),
	};

	/* wcwidth, as the TUI's locale gives it (src/tui-main.c). */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		return 1;

	return cmocka_run_group_tests(tests, NULL, NULL);
}
