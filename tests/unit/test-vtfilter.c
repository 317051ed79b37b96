/*
 * test-vtfilter.c: the sandbox output filter (ui/vtfilter.h). Realistic
 * output comes out byte-identical however it is split; every class the
 * policy drops is dropped, whole and split, and counted; a CSI with more
 * parameters than libvterm 0.1.4 can hold does not crash it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "ui/vtfilter.h"

struct sink {
	struct lz_buf b;
	int calls;
};

static void
collect(const char *buf, size_t len, void *user)
{
	struct sink *s = user;

	assert_true(len > 0);
	lz_buf_add(&s->b, buf, len);
	s->calls++;
}

/* Runs in through a new filter in chunks of chunk bytes (0: at once). */
static char *
run(const char *in, size_t len, size_t chunk, struct lz_vtfilter_stats *st)
{
	struct sink s = { LZ_BUF_INIT, 0 };
	struct lz_vtfilter *f = lz_vtfilter_new(collect, &s);
	size_t i, n;

	if (chunk == 0)
		chunk = len;
	for (i = 0; i < len; i += n) {
		n = len - i < chunk ? len - i : chunk;
		lz_vtfilter_feed(f, in + i, n);
	}
	if (st != NULL)
		*st = *lz_vtfilter_stats(f);
	lz_vtfilter_free(f);
	return lz_buf_detach(&s.b);
}

/* in gives out whole, byte by byte and in chunks of 3 and 7. */
static void
check(const char *in, const char *want, unsigned long dropped)
{
	static const size_t chunks[] = { 0, 1, 3, 7 };
	struct lz_vtfilter_stats st;
	unsigned long sum;
	size_t i;
	char *got;

	for (i = 0; i < sizeof chunks / sizeof *chunks; i++) {
		got = run(in, strlen(in), chunks[i], &st);
		sum = st.query + st.window + st.clipboard + st.title +
		    st.osc + st.dcs + st.apc + st.overlong + st.malformed +
		    st.utf8;
		if (sum != dropped)
			fail_msg("chunk %zu: dropped %lu want %lu", chunks[i],
			    sum, dropped);
		if (strcmp(got, want) != 0)
			fail_msg("chunk %zu: got '%s' want '%s'", chunks[i],
			    got, want);
		free(got);
	}
}

static const char realistic[] =
    "\033[?1049h\033[22;0;0t\033[1;1H\033[2J\033[?25l"
    "\033[38;5;208mtotal 42\033[0m\r\n"
    "drwxr-xr-x 2 root root 4096 \033[01;34msrc\033[0m\r\n"
    "\033[38;2;255;100;0m\033[48;2;0;0;0mtruecolour\033[m "
    "\033[38:2::10:20:30mcolon form\033[39m\r\n"
    "\033[4:3mcurly\033[4:0m \033[58:5:196mundercolour\033[59m\r\n"
    "UTF-8: caf\xc3\xa9 \xe2\x80\x94 \xe6\xbc\xa2\xe5\xad\x97 "
    "\xf0\x9f\x98\x80\r\n"
    "\033(B\033)0\016lqk\017\0337\033[10;20r\033[5;1H\033M\0338"
    "\033[?2004h\033[>4;2m\033[?1000h\033[?1006h\033[<0;1;2M"
    "\033[3 q\033[K\033[2K\033[1@\033[3P\033[5X\033[10;20H\033[A"
    "\033]10;rgb:ff/ff/ff\007\033]4;1;#ff0000\033\\\033]104\007"
    "\033[?1049l\033[23;0;0t\033[?25h\033[!p\033=\033>\033#8\033c"
    "\t\b\a\n";

static void
test_roundtrip(void **state)
{
	(void)state;
	check(realistic, realistic, 0);
}

static void
test_roundtrip_random_chunks(void **state)
{
	struct lz_buf in = LZ_BUF_INIT, want = LZ_BUF_INIT;
	struct sink s = { LZ_BUF_INIT, 0 };
	struct lz_vtfilter *f = lz_vtfilter_new(collect, &s);
	size_t i, n;
	int k;

	(void)state;
	srand(42);
	for (k = 0; k < 200; k++)
		lz_buf_adds(&in, realistic);
	for (i = 0; i < in.len; i += n) {
		n = 1 + (size_t)rand() % 97;
		if (n > in.len - i)
			n = in.len - i;
		lz_vtfilter_feed(f, in.buf + i, n);
	}
	assert_int_equal(s.b.len, in.len);
	assert_memory_equal(s.b.buf, in.buf, in.len);
	assert_int_equal(lz_vtfilter_dropped(f), 0);
	lz_vtfilter_free(f);
	lz_buf_release(&in);
	lz_buf_release(&want);
	lz_buf_release(&s.b);
}

static void
test_one_out_call_per_feed(void **state)
{
	struct sink s = { LZ_BUF_INIT, 0 };
	struct lz_vtfilter *f = lz_vtfilter_new(collect, &s);

	(void)state;
	lz_vtfilter_feed(f, realistic, strlen(realistic));
	assert_int_equal(s.calls, 1);
	lz_vtfilter_feed(f, "\033[6n", 4);	/* nothing kept: no call */
	assert_int_equal(s.calls, 1);
	lz_vtfilter_free(f);
	lz_buf_release(&s.b);
}

static void
test_device_attributes(void **state)
{
	(void)state;
	check("a\033[cb\033[0cc\033[>cd\033[>0ce\033[=cf", "abcdef", 5);
}

static void
test_status_reports(void **state)
{
	struct lz_vtfilter_stats st;
	char *got;

	(void)state;
	check("a\033[5nb\033[6nc\033[?6nd\033[?15ne\033[?996nf", "abcdef", 5);
	/* CSI > n sets key modifiers: kept. */
	check("\033[>4n", "\033[>4n", 0);
	got = run("\033[6n", 4, 1, &st);
	assert_string_equal(got, "");
	assert_int_equal(st.query, 1);
	free(got);
}

static void
test_decrqm_and_other_queries(void **state)
{
	(void)state;
	check("a\033[?2026$pb\033[4$pc\033[xd\033[>qe\033[>0qf", "abcdef",
	    5);
	check("a\033[?1;1;0Sb\033[?4mc\033[?ud\033[1$ue\033[1$wf", "abcdef",
	    5);
	check("a\033[1;1;2;2*yb\033[1'|c\033[1;1;2;2#|d", "abcd", 3);
	/* Look-alikes that answer nothing pass. */
	check("\033[2 q\033[>1u\033[<u\033[u\033[1*x\033[>4;2m\033[#{",
	    "\033[2 q\033[>1u\033[<u\033[u\033[1*x\033[>4;2m\033[#{", 0);
}

static void
test_window_ops(void **state)
{
	struct lz_vtfilter_stats st;
	char *got;
	const char *in = "\033[11t\033[13t\033[14t\033[18t\033[19t\033[20t"
	    "\033[21t\033[8;50;100t\033[3;0;0t\033[2t\033[22;0t\033[23;0t";

	(void)state;
	got = run(in, strlen(in), 0, &st);
	assert_string_equal(got, "\033[22;0t\033[23;0t");
	assert_int_equal(st.query, 7);
	assert_int_equal(st.window, 3);
	free(got);
}

static void
test_osc_clipboard_title(void **state)
{
	struct lz_vtfilter_stats st;
	const char *in = "x\033]52;c;aGVsbG8=\007y\033]52;p;?\033\\"
	    "z\033]0;pwned\007\033]1;icon\033\\\033]2;title\007.";
	size_t chunk;
	char *got;

	(void)state;
	for (chunk = 0; chunk < 6; chunk++) {
		got = run(in, strlen(in), chunk, &st);
		assert_string_equal(got, "xyz.");
		assert_int_equal(st.clipboard, 2);
		assert_int_equal(st.title, 3);
		free(got);
	}
}

static void
test_osc_other(void **state)
{
	(void)state;
	/* Hyperlink: the text stays, the target goes. */
	check("\033]8;;https://evil.example/\033\\click\033]8;;\033\\",
	    "click", 2);
	check("a\033]7;file://host/tmp\007b\033]9;hi\007c"
	    "\033]777;notify;x;y\007d\033]1337;File=x\007e\033];x\007f",
	    "abcdef", 5);
	/* Colour queries are dropped, sets and resets kept. */
	check("\033]10;?\007\033]11;rgb:0/0/0;?\007\033]4;1;?\033\\",
	    "", 3);
	check("\033]11;#000000\007\033]112\033\\\033]110;\007",
	    "\033]11;#000000\007\033]112\033\\\033]110;\007", 0);
	/* A kept colour set must be printable. */
	check("\033]4;1;\xc3\xa9\007", "", 1);
}

static void
test_osc_long(void **state)
{
	struct lz_buf in = LZ_BUF_INIT, want = LZ_BUF_INIT;
	char *got;
	int i;

	(void)state;
	/* Over 64 bytes: libvterm 0.1.4 keeps only 64 of a split string. */
	lz_buf_adds(&in, "\033]4");
	for (i = 0; i < 20; i++)
		lz_buf_addf(&in, ";%d;rgb:%02x/%02x/%02x", i, i, i, i);
	lz_buf_adds(&in, "\007");
	lz_buf_adds(&want, in.buf);
	check(in.buf, want.buf, 0);
	/* Longer than LZ_VTFILTER_OSC_MAX: dropped. */
	lz_buf_reset(&in);
	lz_buf_adds(&in, "\033]4");
	for (i = 0; i < 200; i++)
		lz_buf_addf(&in, ";%d;red", i);
	lz_buf_adds(&in, "\007ok");
	got = run(in.buf, in.len, 5, NULL);
	assert_string_equal(got, "ok");
	free(got);
	lz_buf_release(&in);
	lz_buf_release(&want);
}

/*
 * libvterm 0.1.4 reads past its input when a write starts just after an
 * ESC inside a string, or a NUL sits between that ESC and its '\\'. Each
 * piece is its own exact-size allocation, so ASan sees any overread.
 */
static void
test_string_esc_split(void **state)
{
	static const char *const pieces[] = {
		"a\033]0;x\033", "\\", "b\033]4;1;red\033", "\0\0\\c",
		"\033P$q\033", "\177", "\\d",
	};
	struct sink s = { LZ_BUF_INIT, 0 };
	struct lz_vtfilter *f = lz_vtfilter_new(collect, &s);
	size_t i, n;
	char *p;

	(void)state;
	for (i = 0; i < sizeof pieces / sizeof *pieces; i++) {
		n = i == 3 ? 4 : strlen(pieces[i]);
		p = lz_xmalloc(n);
		memcpy(p, pieces[i], n);
		lz_vtfilter_feed(f, p, n);
		free(p);
	}
	lz_buf_addch(&s.b, '\0');
	assert_string_equal(s.b.buf, "ab\033]4;1;red\033\\cd");
	assert_int_equal(lz_vtfilter_stats(f)->title, 1);
	assert_int_equal(lz_vtfilter_stats(f)->dcs, 1);
	lz_vtfilter_free(f);
	lz_buf_release(&s.b);
}

static void
test_dcs(void **state)
{
	(void)state;
	/*
	 * The tmux passthrough is cut by its doubled ESC; the OSC 52 inside
	 * is then judged (dropped) and its ST left alone (kept, harmless).
	 */
	check("a\033P$qm\033\\b\033P+q544e\033\\c\033Ptmux;\033\033]52;c;x"
	    "\007\033\\d\033P0;1;0q#0;2;0;0;0~\033\\e", "abc\033\\de", 4);
}

static void
test_apc_pm_sos(void **state)
{
	(void)state;
	check("a\033_Gf=100;AAAA\033\\b\033^secret\033\\c\033Xsos\033\\d",
	    "abcd", 3);
	/* CAN ends an APC string; CAN itself passes. */
	check("a\033_junk\030b", "a\030b", 1);
	/* A new sequence ends it too and is judged on its own. */
	check("a\033_junk\033[1mb", "a\033[1mb", 1);
	check("a\033_junk\033[6nb", "ab", 2);
}

static void
test_controls(void **state)
{
	(void)state;
	check("a\005b\033Zc", "abc", 2);
	check("a\033Mb\033Dc\033Ed\033He", "a\033Mb\033Dc\033Ed\033He", 0);
}

static void
test_overlong_csi(void **state)
{
	struct lz_buf in = LZ_BUF_INIT;
	struct lz_vtfilter_stats st;
	char *got;
	int i;

	(void)state;
	/* 16 parameters: libvterm's limit, kept. */
	lz_buf_adds(&in, "\033[1");
	for (i = 2; i <= 16; i++)
		lz_buf_addf(&in, ";%d", i);
	lz_buf_adds(&in, "m");
	check(in.buf, in.buf, 0);
	/*
	 * The longest kept CSI: a leader, 16 parameters of 9 digits (leading
	 * zeros kept as they came), both separators, an intermediate.
	 */
	lz_buf_reset(&in);
	lz_buf_adds(&in, "\033[?999999999");
	for (i = 2; i <= 16; i++)
		lz_buf_addf(&in, "%c%09d", i % 2 ? ':' : ';', i % 3 ? 999999999 :
		    i);
	lz_buf_adds(&in, " h");
	check(in.buf, in.buf, 0);
	/* 17 and 40: dropped whole, no crash, what follows intact. */
	lz_buf_reset(&in);
	lz_buf_adds(&in, "a\033[1");
	for (i = 2; i <= 17; i++)
		lz_buf_addf(&in, ";%d", i);
	lz_buf_adds(&in, "mb\033[0");
	for (i = 0; i < 40; i++)
		lz_buf_adds(&in, ":1");
	lz_buf_adds(&in, "6nc\033[1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;\033[1md");
	got = run(in.buf, in.len, 0, &st);
	assert_string_equal(got, "abc\033[1md");
	assert_int_equal(st.overlong, 3);
	free(got);
	got = run(in.buf, in.len, 1, &st);
	assert_string_equal(got, "abc\033[1md");
	free(got);
	lz_buf_release(&in);
	/* A 10-digit parameter; several leaders or intermediates. */
	check("a\033[0000000001mb\033[?>cc\033[1$ pd", "abcd", 3);
	check("\033[000000001m", "\033[000000001m", 0);
}

static void
test_utf8(void **state)
{
	(void)state;
	/* A raw C1 CSI byte is never emitted outside a UTF-8 character. */
	check("a\x9b" "6nb", "a\xef\xbf\xbd" "6nb", 1);
	check("\xe2\x82\033[1m", "\xef\xbf\xbd\033[1m", 1);
	check("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 3);
	check("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", 2);
	check("\xf0\x9f\x98\x80\xe6\xbc\xa2", "\xf0\x9f\x98\x80\xe6\xbc\xa2",
	    0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_roundtrip_random_chunks),
		cmocka_unit_test(test_one_out_call_per_feed),
		cmocka_unit_test(test_device_attributes),
		cmocka_unit_test(test_status_reports),
		cmocka_unit_test(test_decrqm_and_other_queries),
		cmocka_unit_test(test_window_ops),
		cmocka_unit_test(test_osc_clipboard_title),
		cmocka_unit_test(test_osc_other),
		cmocka_unit_test(test_osc_long),
		cmocka_unit_test(test_string_esc_split),
		cmocka_unit_test(test_dcs),
		cmocka_unit_test(test_apc_pm_sos),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_overlong_csi),
		cmocka_unit_test(test_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
