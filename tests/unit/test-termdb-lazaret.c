/*
 * test-termdb-lazaret.c: the "lazaret" terminfo entry (termdb/lazaret.ti)
 * says exactly what the pane emulator does. The compiled entry is loaded
 * with ncurses' own terminfo API (setupterm, tigetstr, tiparm, tputs), and
 * every capability it claims is expanded and fed into an lz_pane, whose
 * cells and props must then show what the capability means. The last test
 * walks the loaded entry and fails on any capability no test here looked
 * at, so a claim cannot be added to the entry without a test; another one
 * fails if the entry claims what the pane lacks (dim, invis, ...).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/util.h"
#include "termdb/termdb.h"
#include "ui/grid.h"
#include "ui/pane.h"

#include <curses.h>
#include <term.h>
/* term.h names every capability as a macro; the pane has these members. */
#undef cursor_visible
#undef lines
#undef columns

#define ROWS 24
#define COLS 80
#define MAX_SEEN 512

struct ctx {
	struct lz_pane *p;
	struct lz_buf reply;
};

static struct lz_buf outbuf = LZ_BUF_INIT;
static const char *seen[MAX_SEEN];
static size_t nseen;

/* Records a capability as looked at by a test. */
static void
saw(const char *name)
{
	size_t i;

	for (i = 0; i < nseen; i++) {
		if (strcmp(seen[i], name) == 0)
			return;
	}
	assert_true(nseen < MAX_SEEN);
	seen[nseen++] = name;
}

/* The string capability name, which the entry must have. */
static const char *
S(const char *name)
{
	const char *s = tigetstr(name);

	if (s == NULL || s == (const char *)-1)
		fail_msg("the lazaret entry has no string '%s'", name);
	saw(name);
	return s;
}

/* A boolean the entry must have. */
static void
F(const char *name)
{
	if (tigetflag(name) != 1)
		fail_msg("the lazaret entry has no boolean '%s'", name);
	saw(name);
}

static int
N(const char *name)
{
	int n = tigetnum(name);

	if (n < 0)
		fail_msg("the lazaret entry has no number '%s'", name);
	saw(name);
	return n;
}

static int
outc(int c)
{
	char ch = (char)c;

	lz_buf_add(&outbuf, &ch, 1);
	return c;
}

/* Feeds s through tputs (which drops padding such as flash's $<100/>). */
static void
put(struct ctx *c, const char *s)
{
	lz_buf_reset(&outbuf);
	assert_int_equal(tputs(s, 1, outc), OK);
	lz_pane_feed(c->p, outbuf.buf, outbuf.len);
}

static void
text(struct ctx *c, const char *s)
{
	lz_pane_feed(c->p, s, strlen(s));
}

/* Capability name with its parameters expanded, fed. */
static void
cap(struct ctx *c, const char *name)
{
	put(c, S(name));
}

static void
cap1(struct ctx *c, const char *name, int a)
{
	put(c, tiparm(S(name), a));
}

static void
cap2(struct ctx *c, const char *name, int a, int b)
{
	put(c, tiparm(S(name), a, b));
}

static void
cap3(struct ctx *c, const char *name, int a, int b, int d)
{
	put(c, tiparm(S(name), a, b, d));
}

static void
on_reply(const char *buf, size_t len, void *user)
{
	struct ctx *c = user;

	lz_buf_add(&c->reply, buf, len);
}

static const struct lz_pane_cb cbs = { on_reply, NULL };

static int
mk(void **state)
{
	struct ctx *c = lz_xcalloc(1, sizeof *c);

	lz_buf_init(&c->reply);
	c->p = lz_pane_new(ROWS, COLS, 100, &cbs, c);
	*state = c;
	return 0;
}

static int
rm(void **state)
{
	struct ctx *c = *state;

	lz_pane_free(c->p);
	lz_buf_release(&c->reply);
	free(c);
	return 0;
}

static const struct lz_cell *
cell(struct ctx *c, int row, int col)
{
	const struct lz_cell *x = lz_pane_cell(c->p, row, col);

	assert_non_null(x);
	return x;
}

static void
expect_row(struct ctx *c, int row, const char *want)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_pane_line_text(c->p, row, &b);
	if (strcmp(b.buf, want) != 0)
		fail_msg("row %d: '%s', expected '%s'", row, b.buf, want);
	lz_buf_release(&b);
}

static void
expect_cursor(struct ctx *c, int row, int col)
{
	const struct lz_pane_props *pr = lz_pane_props(c->p);

	if (pr->cursor_row != row || pr->cursor_col != col)
		fail_msg("cursor at %d,%d, expected %d,%d", pr->cursor_row,
		    pr->cursor_col, row, col);
}

/* Puts s at (row, col) with cup. */
static void
at(struct ctx *c, int row, int col, const char *s)
{
	cap2(c, "cup", row, col);
	text(c, s);
}

static void
test_numbers(void **state)
{
	(void)state;
	assert_int_equal(N("lines"), ROWS);
	assert_int_equal(N("cols"), COLS);
	assert_int_equal(N("it"), 8);
	assert_int_equal(N("colors"), 256);
	/* One pair for every fg/bg combination of the 256 colours. */
	assert_int_equal(N("pairs"), 65536);
}

static void
test_cursor_motion(void **state)
{
	struct ctx *c = *state;

	cap2(c, "cup", 5, 10);
	expect_cursor(c, 5, 10);
	cap(c, "home");
	expect_cursor(c, 0, 0);
	cap2(c, "cup", 10, 10);
	cap1(c, "cuu", 3);
	expect_cursor(c, 7, 10);
	cap1(c, "cud", 5);
	expect_cursor(c, 12, 10);
	cap1(c, "cuf", 7);
	expect_cursor(c, 12, 17);
	cap1(c, "cub", 4);
	expect_cursor(c, 12, 13);
	cap(c, "cuu1");
	expect_cursor(c, 11, 13);
	cap(c, "cud1");
	expect_cursor(c, 12, 13);
	cap(c, "cuf1");
	expect_cursor(c, 12, 14);
	cap(c, "cub1");
	expect_cursor(c, 12, 13);
	cap(c, "cr");
	expect_cursor(c, 12, 0);
	cap1(c, "hpa", 7);
	expect_cursor(c, 12, 7);
	cap1(c, "vpa", 3);
	expect_cursor(c, 3, 7);
	cap(c, "nel");
	expect_cursor(c, 4, 0);
	/* sc/rc (DECSC/DECRC) keep the position. */
	cap2(c, "cup", 9, 33);
	cap(c, "sc");
	cap(c, "home");
	cap(c, "rc");
	expect_cursor(c, 9, 33);
	/* Tabs every it#8 columns; cbt goes back one stop. */
	cap(c, "cr");
	cap(c, "ht");
	expect_cursor(c, 9, 8);
	cap(c, "ht");
	expect_cursor(c, 9, 16);
	cap1(c, "hpa", 20);
	cap(c, "cbt");
	expect_cursor(c, 9, 16);
	/* tbc clears every stop, hts sets one. */
	cap(c, "tbc");
	cap1(c, "hpa", 5);
	cap(c, "hts");
	cap(c, "cr");
	cap(c, "ht");
	expect_cursor(c, 9, 5);
	cap(c, "ht");
	expect_cursor(c, 9, COLS - 1);
	cap(c, "rs1");		/* back to the default stops */
}

/* Rows 0..3 of "0123456789" repeated. */
static void
fill(struct ctx *c)
{
	static const char digits[] = "0123456789";
	char line[COLS + 1];
	int r, k;

	for (k = 0; k < COLS; k++)
		line[k] = digits[k % 10];
	line[COLS] = '\0';
	for (r = 0; r < 4; r++) {
		cap2(c, "cup", r, 0);
		text(c, line);
	}
}

static void
expect_blank(struct ctx *c, int row, int c0, int c1, uint32_t bg)
{
	const struct lz_cell *x;
	int k;

	for (k = c0; k < c1; k++) {
		x = cell(c, row, k);
		if (x->ch[0] != 0 || x->bg != bg)
			fail_msg("cell %d,%d: U+%04X bg %08x, expected blank "
			    "bg %08x", row, k, x->ch[0], x->bg, bg);
	}
}

static void
test_erase_bce(void **state)
{
	struct ctx *c = *state;
	uint32_t blue = LZ_COLOR_INDEXED(4);

	F("bce");
	cap(c, "clear");
	fill(c);
	/* Each erase fills with the current background (bce). */
	cap1(c, "setab", 4);
	cap2(c, "cup", 0, 5);
	cap(c, "el");
	expect_row(c, 0, "01234");
	expect_blank(c, 0, 5, COLS, blue);
	expect_cursor(c, 0, 5);
	cap2(c, "cup", 1, 5);
	cap(c, "el1");
	expect_blank(c, 1, 0, 6, blue);
	assert_int_equal(cell(c, 1, 6)->ch[0], '6');
	cap2(c, "cup", 2, 3);
	cap1(c, "ech", 4);
	expect_blank(c, 2, 3, 7, blue);
	assert_int_equal(cell(c, 2, 7)->ch[0], '7');
	expect_cursor(c, 2, 3);
	cap2(c, "cup", 3, 50);
	cap(c, "ed");
	expect_row(c, 3, "01234567890123456789012345678901234567890123456789");
	expect_blank(c, 3, 50, COLS, blue);
	expect_blank(c, ROWS - 1, 0, COLS, blue);
	cap(c, "op");
	cap(c, "clear");
	expect_cursor(c, 0, 0);
	expect_row(c, 0, "");
	expect_blank(c, 2, 0, COLS, LZ_COLOR_DEFAULT);
}

static void
test_insert_delete(void **state)
{
	struct ctx *c = *state;

	cap(c, "clear");
	at(c, 0, 0, "abcdef");
	cap2(c, "cup", 0, 1);
	cap1(c, "ich", 2);
	expect_row(c, 0, "a  bcdef");
	expect_cursor(c, 0, 1);
	cap1(c, "dch", 3);
	expect_row(c, 0, "acdef");
	cap(c, "dch1");
	expect_row(c, 0, "adef");
	/* Insert mode; mir: moving in it is safe. */
	F("mir");
	cap(c, "smir");
	cap2(c, "cup", 0, 1);
	text(c, "XY");
	expect_row(c, 0, "aXYdef");
	cap(c, "rmir");
	text(c, "Z");
	expect_row(c, 0, "aXYZef");
	/* Lines: il/dl at the cursor row, within the screen. */
	at(c, 1, 0, "one");
	at(c, 2, 0, "two");
	at(c, 3, 0, "three");
	cap2(c, "cup", 1, 4);
	cap1(c, "il", 2);
	expect_row(c, 1, "");
	expect_row(c, 2, "");
	expect_row(c, 3, "one");
	expect_row(c, 4, "two");
	cap(c, "dl1");
	expect_row(c, 1, "");
	expect_row(c, 2, "one");
	cap1(c, "dl", 2);
	expect_row(c, 1, "two");
	expect_row(c, 2, "three");
	cap(c, "il1");
	expect_row(c, 1, "");
	expect_row(c, 2, "two");
	/* bce again: what insertion opens takes the background. */
	cap1(c, "setab", 2);
	cap2(c, "cup", 2, 0);
	cap1(c, "ich", 1);
	assert_int_equal(cell(c, 2, 0)->bg, LZ_COLOR_INDEXED(2));
	cap(c, "sgr0");
}

static void
test_scroll(void **state)
{
	struct ctx *c = *state;
	int r;
	char s[8];

	cap(c, "clear");
	for (r = 0; r < 8; r++) {
		snprintf(s, sizeof s, "r%d", r);
		at(c, r, 0, s);
	}
	/* A region of rows 2-5: ind at its bottom scrolls only it. */
	cap2(c, "csr", 2, 5);
	cap2(c, "cup", 5, 0);
	cap(c, "ind");
	expect_row(c, 1, "r1");
	expect_row(c, 2, "r3");
	expect_row(c, 4, "r5");
	expect_row(c, 5, "");
	expect_row(c, 6, "r6");
	cap2(c, "cup", 2, 0);
	cap(c, "ri");
	expect_row(c, 2, "");
	expect_row(c, 3, "r3");
	expect_row(c, 5, "r5");
	cap1(c, "indn", 2);
	expect_row(c, 2, "r4");
	expect_row(c, 3, "r5");
	expect_row(c, 4, "");
	expect_row(c, 6, "r6");
	cap1(c, "rin", 2);
	expect_row(c, 2, "");
	expect_row(c, 4, "r4");
	expect_row(c, 0, "r0");
	expect_row(c, 7, "r7");
	cap2(c, "csr", 0, ROWS - 1);
	/* Full screen: a line feed at the bottom scrolls. */
	cap2(c, "cup", ROWS - 1, 0);
	cap(c, "ind");
	expect_row(c, 0, "r1");
}

static void
test_wrap(void **state)
{
	struct ctx *c = *state;
	char line[COLS + 6];

	memset(line, 'w', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	cap(c, "clear");
	/* am: the 81st character goes to the next row. */
	F("am");
	line[COLS] = 'X';
	at(c, 0, 0, line);
	assert_int_equal(cell(c, 1, 0)->ch[0], 'X');
	/* xenl: after the last column the cursor waits; CR LF is one row. */
	F("xenl");
	line[COLS] = '\0';
	at(c, 3, 0, line);
	expect_cursor(c, 3, COLS - 1);
	text(c, "\r\n");
	expect_cursor(c, 4, 0);
	/* rmam: no wrap, the last column is overwritten. */
	cap(c, "rmam");
	line[COLS] = 'Y';
	line[COLS + 1] = '\0';
	at(c, 6, 0, line);
	assert_int_equal(cell(c, 6, COLS - 1)->ch[0], 'Y');
	expect_row(c, 7, "");
	expect_cursor(c, 6, COLS - 1);
	cap(c, "smam");
	at(c, 8, 0, line);
	assert_int_equal(cell(c, 9, 0)->ch[0], 'Y');
}

static void
test_margins(void **state)
{
	struct ctx *c = *state;

	cap(c, "clear");
	fill(c);
	/* Left/right margins 10-20 (DECSLRM under ?69): dch stays inside. */
	cap2(c, "smglr", 10, 20);
	cap2(c, "cup", 0, 10);
	cap1(c, "dch", 1);
	assert_int_equal(cell(c, 0, 10)->ch[0], '1');
	assert_int_equal(cell(c, 0, 19)->ch[0], '0');
	assert_int_equal(cell(c, 0, 20)->ch[0], 0);
	assert_int_equal(cell(c, 0, 21)->ch[0], '1');
	/* mgc: the whole line again. */
	cap(c, "mgc");
	cap2(c, "cup", 1, 10);
	cap1(c, "dch", 1);
	assert_int_equal(cell(c, 1, 20)->ch[0], '1');
	assert_int_equal(cell(c, 1, COLS - 2)->ch[0], '9');
	assert_int_equal(cell(c, 1, COLS - 1)->ch[0], 0);
}

static void
test_rep(void **state)
{
	struct ctx *c = *state;

	cap(c, "clear");
	cap2(c, "cup", 3, 0);
	cap2(c, "rep", 'x', 1);
	expect_row(c, 3, "x");
	cap2(c, "rep", 'y', 2);
	cap2(c, "rep", 'z', 5);
	expect_row(c, 3, "xyyzzzzz");
	expect_cursor(c, 3, 8);
}

static void
expect_attr(struct ctx *c, int row, int col, unsigned attr)
{
	unsigned got = cell(c, row, col)->attr;

	if (got != attr)
		fail_msg("cell %d,%d: attr %#x, expected %#x", row, col, got,
		    attr);
}

/* on and off around one character each, on row row. */
static void
attr_pair(struct ctx *c, int row, const char *on, const char *off,
    unsigned attr)
{
	cap2(c, "cup", row, 0);
	cap(c, on);
	text(c, "A");
	cap(c, off);
	text(c, "B");
	expect_attr(c, row, 0, attr);
	expect_attr(c, row, 1, 0);
}

static void
test_attributes(void **state)
{
	struct ctx *c = *state;
	int k;

	cap(c, "clear");
	cap(c, "sgr0");
	attr_pair(c, 0, "bold", "sgr0", LZ_ATTR_BOLD);
	attr_pair(c, 1, "sitm", "ritm", LZ_ATTR_ITALIC);
	attr_pair(c, 2, "smul", "rmul", 1 << LZ_ATTR_UL_SHIFT);
	attr_pair(c, 3, "rev", "sgr0", LZ_ATTR_REVERSE);
	attr_pair(c, 4, "blink", "sgr0", LZ_ATTR_BLINK);
	attr_pair(c, 5, "smxx", "rmxx", LZ_ATTR_STRIKE);
	attr_pair(c, 6, "smso", "rmso", LZ_ATTR_REVERSE);
	/* Smulx: none, single, double, curly. */
	cap2(c, "cup", 7, 0);
	for (k = 3; k >= 0; k--) {
		cap1(c, "Smulx", k);
		text(c, "u");
	}
	for (k = 0; k < 4; k++)
		assert_int_equal(LZ_ATTR_UNDERLINE(cell(c, 7, k)->attr),
		    3 - k);
	/* sgr0 also resets colours and the character set. */
	cap2(c, "cup", 8, 0);
	cap1(c, "setaf", 1);
	cap1(c, "setab", 2);
	cap(c, "smacs");
	cap(c, "bold");
	cap(c, "sgr0");
	text(c, "q");
	assert_int_equal(cell(c, 8, 0)->ch[0], 'q');
	assert_int_equal(cell(c, 8, 0)->fg, LZ_COLOR_DEFAULT);
	assert_int_equal(cell(c, 8, 0)->bg, LZ_COLOR_DEFAULT);
	expect_attr(c, 8, 0, 0);
	/* msgr: moving keeps the attributes and touches no cell. */
	F("msgr");
	cap2(c, "cup", 9, 0);
	cap(c, "smso");
	text(c, "S");
	cap2(c, "cup", 9, 5);
	text(c, "T");
	cap(c, "rmso");
	expect_attr(c, 9, 5, LZ_ATTR_REVERSE);
	expect_blank(c, 9, 1, 5, LZ_COLOR_DEFAULT);
	expect_attr(c, 9, 2, 0);
}

/*
 * sgr(p1 standout, p2 underline, p3 reverse, p4 blink, p5 dim, p6 bold,
 * p7 invis, p8 protect, p9 acs): dim, invis and protect are not claimed,
 * so they set nothing.
 */
static void
test_sgr(void **state)
{
	static const struct {
		int p[9];
		unsigned attr;
	} t[] = {
		{ { 1, 0, 0, 0, 0, 0, 0, 0, 0 }, LZ_ATTR_REVERSE },
		{ { 0, 1, 0, 0, 0, 0, 0, 0, 0 }, 1 << LZ_ATTR_UL_SHIFT },
		{ { 0, 0, 1, 0, 0, 0, 0, 0, 0 }, LZ_ATTR_REVERSE },
		{ { 0, 0, 0, 1, 0, 0, 0, 0, 0 }, LZ_ATTR_BLINK },
		{ { 0, 0, 0, 0, 0, 1, 0, 0, 0 }, LZ_ATTR_BOLD },
		{ { 0, 1, 0, 1, 0, 1, 0, 0, 0 }, LZ_ATTR_BOLD | LZ_ATTR_BLINK |
		    1 << LZ_ATTR_UL_SHIFT },
		{ { 0, 0, 0, 0, 1, 0, 1, 1, 0 }, 0 },
	};
	struct ctx *c = *state;
	const char *sgr;
	size_t k;

	cap(c, "clear");
	sgr = S("sgr");
	for (k = 0; k < sizeof t / sizeof *t; k++) {
		cap2(c, "cup", (int)k, 0);
		cap1(c, "setaf", 3);
		put(c, tiparm(sgr, t[k].p[0], t[k].p[1], t[k].p[2], t[k].p[3],
		    t[k].p[4], t[k].p[5], t[k].p[6], t[k].p[7], t[k].p[8]));
		text(c, "q");
		expect_attr(c, (int)k, 0, t[k].attr);
		/* sgr starts from nothing: the colour is gone too. */
		assert_int_equal(cell(c, (int)k, 0)->fg, LZ_COLOR_DEFAULT);
		assert_int_equal(cell(c, (int)k, 0)->ch[0], 'q');
	}
	/* p9: the line-drawing set. */
	put(c, tiparm(sgr, 0, 0, 0, 0, 0, 0, 0, 0, 1));
	text(c, "q");
	assert_int_equal(cell(c, (int)k - 1, 1)->ch[0], 0x2500);
	cap(c, "sgr0");
}

static void
test_colours(void **state)
{
	struct ctx *c = *state;
	int i;

	cap(c, "clear");
	/* Every one of the 256: 16 through SGR 30-37/90-97, the rest 38;5. */
	for (i = 0; i < 256; i++) {
		cap2(c, "cup", i / COLS, i % COLS);
		cap1(c, "setaf", i);
		cap1(c, "setab", 255 - i);
		text(c, "c");
		assert_int_equal(cell(c, i / COLS, i % COLS)->fg,
		    LZ_COLOR_INDEXED(i));
		assert_int_equal(cell(c, i / COLS, i % COLS)->bg,
		    LZ_COLOR_INDEXED(255 - i));
	}
	/* AX: op gives the default colours back. */
	F("AX");
	cap(c, "op");
	cap2(c, "cup", 5, 0);
	text(c, "d");
	assert_int_equal(cell(c, 5, 0)->fg, LZ_COLOR_DEFAULT);
	assert_int_equal(cell(c, 5, 0)->bg, LZ_COLOR_DEFAULT);
	/* True colour: Tc, setrgbf/setrgbb (SGR 38;2 and 48;2). */
	F("Tc");
	cap3(c, "setrgbf", 1, 2, 3);
	cap3(c, "setrgbb", 255, 128, 0);
	text(c, "t");
	assert_int_equal(cell(c, 5, 1)->fg, LZ_COLOR_RGB(1, 2, 3));
	assert_int_equal(cell(c, 5, 1)->bg, LZ_COLOR_RGB(255, 128, 0));
	cap3(c, "setrgbf", 0, 0, 0);
	cap3(c, "setrgbb", 255, 255, 255);
	text(c, "u");
	assert_int_equal(cell(c, 5, 2)->fg, LZ_COLOR_RGB(0, 0, 0));
	assert_int_equal(cell(c, 5, 2)->bg, LZ_COLOR_RGB(255, 255, 255));
	cap(c, "sgr0");
}

static void
test_altscreen(void **state)
{
	struct ctx *c = *state;

	cap(c, "clear");
	at(c, 0, 0, "primary");
	cap2(c, "cup", 4, 4);
	cap(c, "smcup");
	assert_int_equal(lz_pane_props(c->p)->altscreen, 1);
	expect_row(c, 0, "");
	at(c, 1, 0, "alternate");
	cap(c, "rmcup");
	assert_int_equal(lz_pane_props(c->p)->altscreen, 0);
	expect_row(c, 0, "primary");
	expect_row(c, 1, "");
	expect_cursor(c, 4, 4);
}

static void
test_cursor_look(void **state)
{
	static const struct {
		int ps, blink, shape;
	} t[] = {
		{ 0, 1, LZ_CURSOR_BLOCK }, { 1, 1, LZ_CURSOR_BLOCK },
		{ 2, 0, LZ_CURSOR_BLOCK }, { 3, 1, LZ_CURSOR_UNDERLINE },
		{ 4, 0, LZ_CURSOR_UNDERLINE }, { 5, 1, LZ_CURSOR_BAR },
		{ 6, 0, LZ_CURSOR_BAR },
	};
	struct ctx *c = *state;
	const struct lz_pane_props *pr = lz_pane_props(c->p);
	int saw_reverse = 0;
	size_t k;

	cap(c, "civis");
	assert_int_equal(pr->cursor_visible, 0);
	cap(c, "cvvis");
	assert_int_equal(pr->cursor_visible, 1);
	assert_int_equal(pr->cursor_blink, 1);
	cap(c, "civis");
	cap(c, "cnorm");
	assert_int_equal(pr->cursor_visible, 1);
	assert_int_equal(pr->cursor_blink, 0);
	for (k = 0; k < sizeof t / sizeof *t; k++) {
		cap1(c, "Ss", t[k].ps);
		assert_int_equal(pr->cursor_blink, t[k].blink);
		assert_int_equal(pr->cursor_shape, t[k].shape);
	}
	/* Se: the cursor the pane starts with. */
	cap(c, "Se");
	assert_int_equal(pr->cursor_blink, 1);
	assert_int_equal(pr->cursor_shape, LZ_CURSOR_BLOCK);
	/* flash: DECSCNM on, then off; fed a byte at a time to see both. */
	lz_buf_reset(&outbuf);
	assert_int_equal(tputs(S("flash"), 1, outc), OK);
	for (k = 0; k < outbuf.len; k++) {
		lz_pane_feed(c->p, outbuf.buf + k, 1);
		saw_reverse |= pr->reverse;
	}
	assert_true(saw_reverse);
	assert_int_equal(pr->reverse, 0);
}

static void
test_acs(void **state)
{
	struct ctx *c = *state;
	const char *acsc = S("acsc");
	char ch[2] = { 0, 0 };
	size_t k, n = strlen(acsc);

	assert_true(n > 0 && n % 2 == 0);
	cap(c, "clear");
	cap(c, "home");
	cap(c, "smacs");
	for (k = 1; k < n; k += 2) {
		ch[0] = acsc[k];
		text(c, ch);
		/* The pane drew a graphic, not the ASCII letter. */
		if (cell(c, 0, (int)k / 2)->ch[0] < 0x80)
			fail_msg("acsc '%c' is not translated", acsc[k]);
	}
	at(c, 1, 0, "lqkx");
	assert_int_equal(cell(c, 1, 0)->ch[0], 0x250c);
	assert_int_equal(cell(c, 1, 1)->ch[0], 0x2500);
	assert_int_equal(cell(c, 1, 2)->ch[0], 0x2510);
	assert_int_equal(cell(c, 1, 3)->ch[0], 0x2502);
	cap(c, "rmacs");
	at(c, 2, 0, "q");
	assert_int_equal(cell(c, 2, 0)->ch[0], 'q');
}

static void
test_title(void **state)
{
	struct ctx *c = *state;

	/* hs: the title is the status line, kept for the renderer. */
	F("hs");
	cap(c, "tsl");
	text(c, "a title");
	cap(c, "fsl");
	assert_string_equal(lz_pane_title(c->p), "a title");
	cap(c, "dsl");
	assert_string_equal(lz_pane_title(c->p), "");
}

static void
test_modes(void **state)
{
	struct ctx *c = *state;
	const struct lz_pane_props *pr = lz_pane_props(c->p);

	cap(c, "smkx");
	assert_int_equal(pr->app_cursor, 1);
	assert_int_equal(pr->app_keypad, 1);
	cap(c, "rmkx");
	assert_int_equal(pr->app_cursor, 0);
	assert_int_equal(pr->app_keypad, 0);
	cap1(c, "XM", 1);
	assert_int_equal(pr->mouse, LZ_MOUSE_CLICK);
	assert_int_equal(pr->mouse_enc, LZ_MOUSE_ENC_SGR);
	cap1(c, "XM", 0);
	assert_int_equal(pr->mouse, LZ_MOUSE_NONE);
	cap(c, "BE");
	assert_int_equal(pr->bracketed_paste, 1);
	cap(c, "BD");
	assert_int_equal(pr->bracketed_paste, 0);
	cap(c, "fe");
	assert_int_equal(pr->focus_events, 1);
	cap(c, "fd");
	assert_int_equal(pr->focus_events, 0);
	/* Sync: 1 begins an update, 2 ends it; DECRQM says so. */
	cap1(c, "Sync", 1);
	assert_int_equal(pr->sync, 1);
	lz_buf_reset(&c->reply);
	text(c, "\033[?2026$p");
	assert_string_equal(c->reply.buf, "\033[?2026;1$y");
	cap1(c, "Sync", 2);
	assert_int_equal(pr->sync, 0);
	lz_buf_reset(&c->reply);
	text(c, "\033[?2026$p");
	assert_string_equal(c->reply.buf, "\033[?2026;2$y");
}

static void
test_resets(void **state)
{
	struct ctx *c = *state;
	const struct lz_pane_props *pr = lz_pane_props(c->p);
	const char *reset[] = { "is2", "rs2" };
	size_t k;

	for (k = 0; k < 2; k++) {
		cap(c, "smkx");
		cap(c, "bold");
		cap(c, reset[k]);
		assert_int_equal(pr->app_cursor, 0);
		assert_int_equal(pr->app_keypad, 0);
		at(c, 10, 0, "n");
		expect_attr(c, 10, 0, 0);
	}
	/* rs1 (RIS): everything, the screen included. */
	cap(c, "smcup");
	cap(c, "smkx");
	cap(c, "BE");
	cap(c, "rs1");
	assert_int_equal(pr->altscreen, 0);
	assert_int_equal(pr->app_cursor, 0);
	assert_int_equal(pr->bracketed_paste, 0);
	expect_row(c, 10, "");
	expect_cursor(c, 0, 0);
}

static void
test_answers(void **state)
{
	struct ctx *c = *state;
	const char *u8;
	size_t k;

	/*
	 * u7 asks for the cursor position; u6 is the answer's form, for
	 * scanning (row and column, 1-based), not for tparm.
	 */
	assert_string_equal(S("u6"), "\033[%i%d;%dR");
	cap2(c, "cup", 6, 11);
	lz_buf_reset(&c->reply);
	cap(c, "u7");
	assert_string_equal(c->reply.buf, "\033[7;12R");
	/* u9 asks for the device attributes; u8 is the answer's form. */
	u8 = S("u8");
	assert_string_equal(u8, "\033[?%[;0123456789]c");
	lz_buf_reset(&c->reply);
	cap(c, "u9");
	assert_true(c->reply.len > 4);
	assert_memory_equal(c->reply.buf, "\033[?", 3);
	for (k = 3; k < c->reply.len - 1; k++)
		assert_non_null(strchr(";0123456789", c->reply.buf[k]));
	assert_int_equal(c->reply.buf[c->reply.len - 1], 'c');
	/* bel rings the pane's bell. */
	k = lz_pane_props(c->p)->bells;
	cap(c, "bel");
	assert_int_equal(lz_pane_props(c->p)->bells, k + 1);
}

/*
 * What the terminal sends rather than what it is sent: keys, pastes,
 * focus and mouse reports. The pane does not make them (the key and mouse
 * encoders do, from the modes tested above), so here they are only
 * checked to be there and to have the xterm form the encoders follow.
 */
static void
test_input_strings(void **state)
{
	static const char *const appcursor[] = { "kcuu1", "kcud1", "kcuf1",
	    "kcub1", "khome", "kend", "kf1", "kf2", "kf3", "kf4" };
	const char *s, *name;
	size_t k;
	int i, nkeys = 0;
	TERMTYPE *tt = &cur_term->type;
	int nstd = tt->num_Strings - tt->ext_Strings;
	int xoff = tt->ext_Booleans + tt->ext_Numbers;

	(void)state;
	assert_string_equal(S("kbs"), "\177");
	for (k = 0; k < sizeof appcursor / sizeof *appcursor; k++)
		assert_memory_equal(S(appcursor[k]), "\033O", 2);
	assert_string_equal(S("kmous"), "\033[<");
	assert_string_equal(S("PS"), "\033[200~");
	assert_string_equal(S("PE"), "\033[201~");
	assert_string_equal(S("kxIN"), "\033[I");
	assert_string_equal(S("kxOUT"), "\033[O");
	/* Every other key: an escape sequence. */
	for (i = 0; i < tt->num_Strings; i++) {
		name = i < nstd ? strnames[i] : tt->ext_Names[xoff + i - nstd];
		s = tt->Strings[i];
		if (s == NULL || s == (char *)-1 || name[0] != 'k' ||
		    strcmp(name, "kbs") == 0 || strcmp(name, "kmous") == 0)
			continue;
		if (s[0] != '\033' || (s[1] != '[' && s[1] != 'O'))
			fail_msg("key %s is not an escape sequence", name);
		saw(name);
		nkeys++;
	}
	assert_true(nkeys > 50);
	/* km: input keeps its eighth bit (UTF-8); npc: no padding. */
	F("km");
	F("npc");
}

/* Claimed by none of xterm-256color's or tmux-256color's absentees. */
static void
test_not_claimed(void **state)
{
	static const char *const strs[] = {
		"dim", "invis",		/* libvterm 0.1.4: no faint, conceal */
		"Smol", "Rmol",		/* nor overline */
		"Setulc", "Setulc1",	/* nor underline colour */
		"initc", "initp", "oc",	/* OSC 4/104: answers only, not drawn */
		"Cs", "Cr",		/* OSC 12/112: answers only */
		"Ms",			/* OSC 52 is dropped */
		"E3",			/* CSI 3 J keeps the scrollback */
		"smm", "rmm",		/* no eighth-bit meta mode */
		"prot", "mc0", "mc4", "mc5", "smglp", "smgrp",
		"ka1", "ka3", "kb2", "kc1", "kc3", "kent",
		"XR", "TS", "Ss2", "S0", "E0", "enacs",
	};
	static const char *const flags[] = { "XT", "RGB", "ccc", "G0", "bw",
	    "mc5i", "eo", "ul" };
	const char *s;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof strs / sizeof *strs; k++) {
		s = tigetstr(strs[k]);
		if (s != NULL && s != (const char *)-1)
			fail_msg("the lazaret entry claims '%s'", strs[k]);
	}
	for (k = 0; k < sizeof flags / sizeof *flags; k++) {
		if (tigetflag(flags[k]) > 0)
			fail_msg("the lazaret entry claims '%s'", flags[k]);
	}
	/* RGB in none of its three forms. */
	assert_true(tigetnum("RGB") < 0);
	s = tigetstr("RGB");
	assert_true(s == NULL || s == (const char *)-1);
}

/* Every capability of the entry was looked at by a test above. */
static void
test_all_claims_tested(void **state)
{
	TERMTYPE *tt = &cur_term->type;
	int nb = tt->num_Booleans - tt->ext_Booleans;
	int nn = tt->num_Numbers - tt->ext_Numbers;
	int ns = tt->num_Strings - tt->ext_Strings;
	struct lz_buf missing = LZ_BUF_INIT;
	const char *name;
	size_t k;
	int i, found, total = 0;

	(void)state;
	for (i = 0; i < tt->num_Booleans + tt->num_Numbers + tt->num_Strings;
	    i++) {
		if (i < tt->num_Booleans) {
			if (tt->Booleans[i] != 1)
				continue;
			name = i < nb ? boolnames[i] :
			    tt->ext_Names[i - nb];
		} else if (i < tt->num_Booleans + tt->num_Numbers) {
			k = (size_t)(i - tt->num_Booleans);
			if (tt->Numbers[k] < 0)
				continue;
			name = (int)k < nn ? numnames[k] :
			    tt->ext_Names[tt->ext_Booleans + (int)k - nn];
		} else {
			k = (size_t)(i - tt->num_Booleans - tt->num_Numbers);
			if (tt->Strings[k] == NULL ||
			    tt->Strings[k] == (char *)-1)
				continue;
			name = (int)k < ns ? strnames[k] :
			    tt->ext_Names[tt->ext_Booleans + tt->ext_Numbers +
			    (int)k - ns];
		}
		total++;
		for (found = 0, k = 0; k < nseen && !found; k++)
			found = strcmp(seen[k], name) == 0;
		if (!found)
			lz_buf_addf(&missing, " %s", name);
	}
	if (missing.len > 0)
		fail_msg("claimed but not tested:%s", missing.buf);
	assert_true(total > 100);
	lz_buf_release(&missing);
}

static const char *
env(const char *name)
{
	return getenv(name);
}

static int
setup(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	char *path = NULL;
	const char *dir = getenv("LZ_TERMINFO_DIR");
	int fd, err = 0, rc;

	(void)state;
	if (lz_termdb_lazaret_entry(NULL, env, &path, &e) != 0) {
		fprintf(stderr, "lazaret entry: %s\n", e.msg);
		lz_err_release(&e);
		return -1;
	}
	free(path);
	/* ncurses reads $TERMINFO first: the entry just built, no other. */
	if (dir == NULL || setenv("TERMINFO", dir, 1) != 0)
		return -1;
	unsetenv("TERMINFO_DIRS");
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	rc = setupterm(LZ_TERMDB_LAZARET, fd, &err);
	close(fd);
	if (rc != OK || err != 1) {
		fprintf(stderr, "setupterm lazaret: %d\n", err);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	del_curterm(cur_term);
	lz_buf_release(&outbuf);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test_setup_teardown(test_cursor_motion, mk, rm),
		cmocka_unit_test_setup_teardown(test_erase_bce, mk, rm),
		cmocka_unit_test_setup_teardown(test_insert_delete, mk, rm),
		cmocka_unit_test_setup_teardown(test_scroll, mk, rm),
		cmocka_unit_test_setup_teardown(test_wrap, mk, rm),
		cmocka_unit_test_setup_teardown(test_margins, mk, rm),
		cmocka_unit_test_setup_teardown(test_rep, mk, rm),
		cmocka_unit_test_setup_teardown(test_attributes, mk, rm),
		cmocka_unit_test_setup_teardown(test_sgr, mk, rm),
		cmocka_unit_test_setup_teardown(test_colours, mk, rm),
		cmocka_unit_test_setup_teardown(test_altscreen, mk, rm),
		cmocka_unit_test_setup_teardown(test_cursor_look, mk, rm),
		cmocka_unit_test_setup_teardown(test_acs, mk, rm),
		cmocka_unit_test_setup_teardown(test_title, mk, rm),
		cmocka_unit_test_setup_teardown(test_modes, mk, rm),
		cmocka_unit_test_setup_teardown(test_resets, mk, rm),
		cmocka_unit_test_setup_teardown(test_answers, mk, rm),
		cmocka_unit_test(test_input_strings),
		cmocka_unit_test(test_not_claimed),
		cmocka_unit_test(test_all_claims_tested),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
