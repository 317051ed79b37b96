/*
 * test-pane-report.c: what a program asks about its terminal, answered
 * from the pane (ui/pane-report.c): cursor position reports, DECRQM for
 * every mode (2026 included), window size in characters and pixels, the
 * version and unit, and colours (the host's, or the program's own), with
 * the query's terminator, 8-bit answers after S8C1T, and a flood of
 * queries kept in proportion.
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

struct ctx {
	struct lz_pane *p;
	struct lz_buf reply;
};

static void
on_reply(const char *buf, size_t len, void *user)
{
	struct ctx *c = user;

	lz_buf_add(&c->reply, buf, len);
}

static int
setup(void **state)
{
	static const struct lz_pane_cb cb = { on_reply, NULL };
	struct ctx *c = lz_xcalloc(1, sizeof *c);

	lz_buf_init(&c->reply);
	c->p = lz_pane_new(24, 80, 0, &cb, c);
	*state = c;
	return 0;
}

static int
teardown(void **state)
{
	struct ctx *c = *state;

	lz_pane_free(c->p);
	lz_buf_release(&c->reply);
	free(c);
	return 0;
}

/* s without its leading ESC, for a readable message ("" stays ""). */
static const char *
shown(const char *s)
{
	return s[0] == '\033' ? s + 1 : s;
}

/* Feeds in and checks the answer is exactly want. */
static void
ask(struct ctx *c, const char *in, const char *want)
{
	const char *got;

	lz_buf_reset(&c->reply);
	lz_pane_feed(c->p, in, strlen(in));
	got = c->reply.buf ? c->reply.buf : "";
	if (strcmp(got, want) != 0)
		fail_msg("'%s': answer '%s', want '%s'", shown(in), shown(got),
		    shown(want));
}

static void
test_cursor(void **state)
{
	struct ctx *c = *state;

	ask(c, "\033[5;9H\033[6n", "\033[5;9R");
	ask(c, "\033[?6n", "\033[?5;9R");
	/* Origin mode with margins: from the margins (xterm). */
	ask(c, "\033[3;10r\033[?69h\033[4;20s\033[?6h\033[2;3H\033[6n",
	    "\033[2;3R");
	/* DSR 5 stays libvterm's. */
	ask(c, "\033[5n", "\033[0n");
}

static void
test_decrqm(void **state)
{
	struct ctx *c = *state;
	static const struct {
		const char *set, *query, *on, *off;
	} m[] = {
		{ "\033[?1h", "\033[?1$p", "\033[?1;1$y", "\033[?1;2$y" },
		{ "\033[?5h", "\033[?5$p", "\033[?5;1$y", "\033[?5;2$y" },
		{ "\033[?6h", "\033[?6$p", "\033[?6;1$y", "\033[?6;2$y" },
		{ "\033[?7l", "\033[?7$p", "\033[?7;2$y", "\033[?7;1$y" },
		{ "\033[?12l", "\033[?12$p", "\033[?12;2$y", "\033[?12;1$y" },
		{ "\033[?25l", "\033[?25$p", "\033[?25;2$y", "\033[?25;1$y" },
		{ "\033=", "\033[?66$p", "\033[?66;1$y", "\033[?66;2$y" },
		{ "\033[?69h", "\033[?69$p", "\033[?69;1$y", "\033[?69;2$y" },
		{ "\033[?9h", "\033[?9$p", "\033[?9;1$y", "\033[?9;2$y" },
		{ "\033[?1000h", "\033[?1000$p", "\033[?1000;1$y",
		    "\033[?1000;2$y" },
		{ "\033[?1002h", "\033[?1002$p", "\033[?1002;1$y",
		    "\033[?1002;2$y" },
		{ "\033[?1003h", "\033[?1003$p", "\033[?1003;1$y",
		    "\033[?1003;2$y" },
		{ "\033[?1004h", "\033[?1004$p", "\033[?1004;1$y",
		    "\033[?1004;2$y" },
		{ "\033[?1005h", "\033[?1005$p", "\033[?1005;1$y",
		    "\033[?1005;2$y" },
		{ "\033[?1006h", "\033[?1006$p", "\033[?1006;1$y",
		    "\033[?1006;2$y" },
		{ "\033[?1015h", "\033[?1015$p", "\033[?1015;1$y",
		    "\033[?1015;2$y" },
		{ "\033[?1049h", "\033[?1049$p", "\033[?1049;1$y",
		    "\033[?1049;2$y" },
		{ "\033[?1047h", "\033[?1047$p", "\033[?1047;1$y",
		    "\033[?1047;2$y" },
		{ "\033[?2004h", "\033[?2004$p", "\033[?2004;1$y",
		    "\033[?2004;2$y" },
		{ "\033[?2026h", "\033[?2026$p", "\033[?2026;1$y",
		    "\033[?2026;2$y" },
		{ "\033[4h", "\033[4$p", "\033[4;1$y", "\033[4;2$y" },
		{ "\033[20h", "\033[20$p", "\033[20;1$y", "\033[20;2$y" },
	};
	size_t k;

	for (k = 0; k < sizeof m / sizeof *m; k++) {
		lz_pane_feed(c->p, "\033c", 2);
		ask(c, m[k].query, m[k].off);
		lz_pane_feed(c->p, m[k].set, strlen(m[k].set));
		ask(c, m[k].query, m[k].on);
	}
	/* Modes the pane lacks: not recognised. */
	ask(c, "\033[?3$p", "\033[?3;0$y");
	ask(c, "\033[?1001$p", "\033[?1001;0$y");
	ask(c, "\033[2$p", "\033[2;0$y");
}

static void
test_window(void **state)
{
	struct ctx *c = *state;
	struct lz_pane_host h;

	ask(c, "\033[18t", "\033[8;24;80t");
	ask(c, "\033[19t", "\033[9;24;80t");
	ask(c, "\033[11t", "\033[1t");
	/* Pixels from the default cell (8x16) until the host says. */
	ask(c, "\033[16t", "\033[6;16;8t");
	ask(c, "\033[14t", "\033[4;384;640t");
	lz_pane_host_default(&h);
	h.cell_w = 9;
	h.cell_h = 19;
	lz_pane_set_host(c->p, &h);
	ask(c, "\033[16t", "\033[6;19;9t");
	ask(c, "\033[14t", "\033[4;456;720t");
	ask(c, "\033[15t", "\033[5;456;720t");
	lz_pane_resize(c->p, 10, 40);
	ask(c, "\033[18t", "\033[8;10;40t");
	/* Moves, resizes and title reports are not answered (or done). */
	ask(c, "\033[3;10;10t\033[8;5;5t\033[21t\033[20t", "");
	assert_int_equal(lz_pane_rows(c->p), 10);
}

static void
test_ids(void **state)
{
	struct ctx *c = *state;

	ask(c, "\033[>q", "\033P>|lazaret(" LZ_VERSION ")\033\\");
	ask(c, "\033[>0q", "\033P>|lazaret(" LZ_VERSION ")\033\\");
	ask(c, "\033[=c", "\033P!|00000000\033\\");
	/* DA1 and DA2 stay libvterm's. */
	ask(c, "\033[c", "\033[?1;2c");
	ask(c, "\033[>c", "\033[>0;100;0c");
}

static void
test_colors(void **state)
{
	struct ctx *c = *state;
	struct lz_pane_host h;

	/* The defaults, with the query's terminator. */
	ask(c, "\033]10;?\007", "\033]10;rgb:e5e5/e5e5/e5e5\007");
	ask(c, "\033]11;?\033\\", "\033]11;rgb:0000/0000/0000\033\\");
	ask(c, "\033]12;?\007", "\033]12;rgb:e5e5/e5e5/e5e5\007");
	ask(c, "\033]4;1;?\007", "\033]4;1;rgb:cdcd/0000/0000\007");
	ask(c, "\033]4;196;?\007", "\033]4;196;rgb:ffff/0000/0000\007");
	ask(c, "\033]4;244;?\007", "\033]4;244;rgb:8080/8080/8080\007");
	/* Several in one: OSC 4 by pairs, OSC 10 onto 11 and 12. */
	ask(c, "\033]4;0;?;15;?\007", "\033]4;0;rgb:0000/0000/0000\007"
	    "\033]4;15;rgb:ffff/ffff/ffff\007");
	ask(c, "\033]10;?;?\007", "\033]10;rgb:e5e5/e5e5/e5e5\007"
	    "\033]11;rgb:0000/0000/0000\007");
	/* The host's. */
	lz_pane_host_default(&h);
	h.fg = 0x102030;
	h.bg = 0xfafafa;
	h.palette[1] = 0x800000;
	lz_pane_set_host(c->p, &h);
	ask(c, "\033]11;?\007", "\033]11;rgb:fafa/fafa/fafa\007");
	ask(c, "\033]4;1;?\007", "\033]4;1;rgb:8080/0000/0000\007");
	/* The program's own, in both forms, until it resets them. */
	ask(c, "\033]11;rgb:12/34/56\007\033]11;?\007",
	    "\033]11;rgb:1212/3434/5656\007");
	ask(c, "\033]11;#abc\007\033]11;?\007",
	    "\033]11;rgb:a0a0/b0b0/c0c0\007");
	ask(c, "\033]11;rgb:f/0/0\007\033]11;?\007",
	    "\033]11;rgb:ffff/0000/0000\007");
	ask(c, "\033]4;1;#010203;2;rgb:ff/ff/00\007\033]4;1;?;2;?\007",
	    "\033]4;1;rgb:0101/0202/0303\007\033]4;2;rgb:ffff/ffff/0000\007");
	ask(c, "\033]104;1\007\033]4;1;?;2;?\007",
	    "\033]4;1;rgb:8080/0000/0000\007\033]4;2;rgb:ffff/ffff/0000\007");
	ask(c, "\033]104\007\033]4;2;?\007",
	    "\033]4;2;rgb:0000/cdcd/0000\007");
	ask(c, "\033]111\007\033]11;?\007", "\033]11;rgb:fafa/fafa/fafa\007");
	/* A name or garbage changes nothing; RIS resets. */
	ask(c, "\033]10;red\007\033]10;rgb:1/2\007\033]10;?\007",
	    "\033]10;rgb:1010/2020/3030\007");
	ask(c, "\033]10;#ffffff\007\033c\033]10;?\007",
	    "\033]10;rgb:1010/2020/3030\007");
	/* A restore keeps the host's. */
	lz_pane_restore_begin(c->p);
	lz_pane_restore_end(c->p);
	ask(c, "\033]11;?\007", "\033]11;rgb:fafa/fafa/fafa\007");
}

static void
test_8bit(void **state)
{
	struct ctx *c = *state;

	ask(c, "\033 G\033[6n", "\x9b" "1;1R");
	ask(c, "\033]11;?\033\\", "\x9d" "11;rgb:0000/0000/0000\x9c");
	ask(c, "\033[=c", "\x90!|00000000\x9c");
	ask(c, "\033 F\033[6n", "\033[1;1R");
}

/* 10,000 window reports in one write: answered, and no more than that. */
static void
test_flood(void **state)
{
	struct ctx *c = *state;
	struct lz_buf b = LZ_BUF_INIT;
	int i;

	for (i = 0; i < 10000; i++)
		lz_buf_adds(&b, "\033[18t");
	lz_buf_reset(&c->reply);
	lz_pane_feed(c->p, b.buf, b.len);
	assert_int_equal(c->reply.len, 10000 * strlen("\033[8;24;80t"));
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cursor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decrqm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_colors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_8bit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flood, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
