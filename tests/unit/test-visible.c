/*
 * test-visible.c: untrusted text made visible (core/visible.h): ANSI and
 * OSC sequences, 7-bit and 8-bit C1, bidi overrides, zero-width and other
 * invisible characters, look-alike spaces, newlines, bytes that are not
 * UTF-8 and 100 KB arguments come out as inert, complete escapes that
 * read back to the same bytes; every code point of Unicode round-trips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

#include <cmocka.h>

#include "core/utf8.h"
#include "core/visible.h"

/* Every character of s is printable ASCII or a visible code point. */
static void
assert_inert(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len, k;
	uint32_t cp;

	while (i < n) {
		len = lz_utf8_seq(p + i, n - i);
		if (len == 0)
			fail_msg("byte %zu (0x%02x) is not UTF-8", i, p[i]);
		cp = len == 1 ? p[i] : p[i] & (0x7fu >> len);
		for (k = 1; k < len; k++)
			cp = cp << 6 | (p[i + k] & 0x3f);
		if (lz_visible_hidden(cp))
			fail_msg("hidden U+%04X left at byte %zu", cp, i);
		i += len;
	}
}

static void
roundtrip(const char *s, size_t n, int flags)
{
	struct lz_buf e = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	size_t off = 0, len;

	lz_visible_add(&e, s, n, flags);
	assert_inert(e.buf, e.len);
	len = e.len;
	if (flags & LZ_VISIBLE_QUOTE) {
		assert_true(e.len >= 2 && e.buf[0] == '"' &&
		    e.buf[e.len - 1] == '"');
		off = 1;
		len -= 2;
	}
	if (lz_visible_unescape(e.buf + off, len, &back, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(back.len, n);
	assert_memory_equal(back.buf, s, n);
	lz_buf_release(&e);
	lz_buf_release(&back);
}

static void
expect(const char *in, int flags, const char *want)
{
	char *got = lz_visible_str(in, flags);

	assert_string_equal(got, want);
	roundtrip(in, strlen(in), flags);
	free(got);
}

static void
test_plain(void **state)
{
	(void)state;
	expect("git push origin main", 0, "git push origin main");
	expect("C:\\path", 0, "C:\\\\path");
	expect("", 0, "");
	expect("say \"hi\"", 0, "say \"hi\"");
}

static void
test_ansi_osc(void **state)
{
	(void)state;
	expect("\033[31mred\033[0m", 0, "\\x1b[31mred\\x1b[0m");
	expect("\033[2J\033[H", 0, "\\x1b[2J\\x1b[H");
	expect("\033]0;fake title\007", 0, "\\x1b]0;fake title\\x07");
	expect("\033]52;c;ZXZpbA==\033\\", 0,
	    "\\x1b]52;c;ZXZpbA==\\x1b\\\\");
	expect("\033]8;;http://evil\033\\ok\033]8;;\033\\", 0,
	    "\\x1b]8;;http://evil\\x1b\\\\ok\\x1b]8;;\\x1b\\\\");
	expect("\033P+q544e\033\\", 0, "\\x1bP+q544e\\x1b\\\\");
	expect("a\bb\x7f\x05", 0, "a\\x08b\\x7f\\x05");
	/* 8-bit C1 as UTF-8 (U+009B CSI, U+0085 NEL) and as raw bytes. */
	expect("\xc2\x9b" "31m", 0, "\\u009b31m");
	expect("\xc2\x85", 0, "\\u0085");
	expect("\x9b" "31m\x9d", 0, "\\x9b31m\\x9d");
}

static void
test_newlines(void **state)
{
	(void)state;
	expect("line1\nProfile: trusted\r\n\tx", 0,
	    "line1\\nProfile: trusted\\r\\n\\tx");
	/* Unicode line and paragraph separators, NEL. */
	expect("a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", 0,
	    "a\\u2028b\\u2029c");
}

static void
test_bidi(void **state)
{
	(void)state;
	/* "Trojan Source": RLO reverses what follows on the screen. */
	expect("ls \xe2\x80\xae" "txt.exe", 0, "ls \\u202etxt.exe");
	expect("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", 0,
	    "\\u202a\\u202b\\u202c\\u202d");
	expect("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", 0,
	    "\\u2066\\u2067\\u2068\\u2069");
	expect("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", 0,
	    "\\u200e\\u200f\\u061c");
}

static void
test_invisible(void **state)
{
	(void)state;
	/* Zero-width space, non-joiner, joiner, word joiner, BOM. */
	expect("ma\xe2\x80\x8bin", 0, "ma\\u200bin");
	expect("\xe2\x80\x8c\xe2\x80\x8d\xe2\x81\xa0\xef\xbb\xbf", 0,
	    "\\u200c\\u200d\\u2060\\ufeff");
	/* Tags ("ASCII smuggling"), variation selectors. */
	expect("ok\xf3\xa0\x81\x81\xf3\xa0\x81\xbf", 0,
	    "ok\\U000e0041\\U000e007f");
	expect("\xe2\x9c\x94\xef\xb8\x8f", 0, "\xe2\x9c\x94\\ufe0f");
	/* Spaces that are not U+0020, Braille blank, Hangul filler. */
	expect("a\xc2\xa0" "b\xe3\x80\x80" "c\xe2\x80\x83" "d", 0,
	    "a\\u00a0b\\u3000c\\u2003d");
	expect("\xe2\xa0\x80\xe3\x85\xa4", 0, "\\u2800\\u3164");
	expect("soft\xc2\xad" "hyphen", 0, "soft\\u00adhyphen");
	/* A combining mark has no column of its own. */
	expect("e\xcc\x81", 0, "e\\u0301");
	/* Private use, noncharacters. */
	expect("\xee\x80\x80\xef\xbf\xbe\xf4\x8f\xbf\xbf", 0,
	    "\\ue000\\ufffe\\U0010ffff");
}

static void
test_visible_unicode(void **state)
{
	(void)state;
	/* Letters, CJK, emoji: shown as they are. */
	expect("caf\xc3\xa9 \xd0\x96 \xe6\xbc\xa2 \xf0\x9f\x98\x80", 0,
	    "caf\xc3\xa9 \xd0\x96 \xe6\xbc\xa2 \xf0\x9f\x98\x80");
	expect("caf\xc3\xa9 \xf0\x9f\x98\x80", LZ_VISIBLE_ASCII,
	    "caf\\u00e9 \\U0001f600");
}

static void
test_not_utf8(void **state)
{
	(void)state;
	expect("\xc0\x80", 0, "\\xc0\\x80");			/* overlong */
	expect("\xed\xa0\x80", 0, "\\xed\\xa0\\x80");		/* surrogate */
	expect("a\xe2\x82", 0, "a\\xe2\\x82");			/* cut */
	expect("\xf5\x80\x80\x80", 0, "\\xf5\\x80\\x80\\x80");	/* > 10FFFF */
	expect("\xff\xfe", 0, "\\xff\\xfe");
}

static void
test_quote(void **state)
{
	(void)state;
	expect("", LZ_VISIBLE_QUOTE, "\"\"");
	expect(" main ", LZ_VISIBLE_QUOTE, "\" main \"");
	expect("say \"hi\"\\", LZ_VISIBLE_QUOTE, "\"say \\\"hi\\\"\\\\\"");
}

/* A 100 KB argument of everything above: complete, inert, exact. */
static void
test_large(void **state)
{
	static const char piece[] = "\033[31m\xe2\x80\xae" "x\xe2\x80\x8b"
	    "\n\xc2\x9b\xf3\xa0\x81\x81\xff" "abc";
	struct lz_buf in = LZ_BUF_INIT, e = LZ_BUF_INIT;
	size_t count = 0;
	const char *p;

	(void)state;
	while (in.len < 100 * 1024) {
		lz_buf_add(&in, piece, sizeof piece - 1);
		count++;
	}
	roundtrip(in.buf, in.len, 0);
	roundtrip(in.buf, in.len, LZ_VISIBLE_QUOTE);
	lz_visible_add(&e, in.buf, in.len, 0);
	/* Nothing dropped: every RLO is there as an escape. */
	for (p = e.buf; (p = strstr(p, "\\u202e")) != NULL; p++)
		count--;
	assert_int_equal(count, 0);
	lz_buf_release(&in);
	lz_buf_release(&e);
}

/* Every code point and every byte value, whatever the user's locale. */
static void
test_all_code_points(void **state)
{
	unsigned char u[4];
	char b[1];
	uint32_t cp;
	size_t n;

	(void)state;
	setlocale(LC_ALL, "C");
	for (cp = 1; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		n = lz_utf8_put(u, cp);
		roundtrip((const char *)u, n, 0);
	}
	for (n = 0; n < 256; n++) {
		b[0] = (char)n;
		roundtrip(b, 1, LZ_VISIBLE_QUOTE);
	}
}

static void
test_hidden(void **state)
{
	(void)state;
	assert_false(lz_visible_hidden(' '));
	assert_false(lz_visible_hidden('a'));
	assert_true(lz_visible_hidden('\n'));
	assert_true(lz_visible_hidden(0x7f));
	assert_true(lz_visible_hidden(0x85));
	assert_true(lz_visible_hidden(0x202e));
	assert_true(lz_visible_hidden(0x301));
	assert_true(lz_visible_hidden(0xe0041));
	assert_true(lz_visible_hidden(0x110000));
	assert_false(lz_visible_hidden(0xe9));
	assert_false(lz_visible_hidden(0x4e00));
	assert_false(lz_visible_hidden(0x1f600));
}

static void
unescape_bad(const char *in, const char *needle)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;

	assert_int_equal(lz_visible_unescape(in, strlen(in), &out, &err),
	    LZ_EINVAL);
	assert_non_null(err.msg);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("'%s': %s", in, err.msg);
	lz_err_release(&err);
	lz_buf_release(&out);
}

static void
test_unescape(void **state)
{
	struct lz_buf out = LZ_BUF_INIT;

	(void)state;
	assert_int_equal(lz_visible_unescape("a\\x41\\u00e9\\U0001f600\\\"",
	    24, &out, NULL), 0);
	assert_string_equal(out.buf, "aA\xc3\xa9\xf0\x9f\x98\x80\"");
	lz_buf_release(&out);
	/* NUL reads back as the byte it was (callers refuse it). */
	assert_int_equal(lz_visible_unescape("a\\x00b", 6, &out, NULL), 0);
	assert_int_equal(out.len, 3);
	assert_memory_equal(out.buf, "a\0b", 3);
	lz_buf_release(&out);
	unescape_bad("\\q", "unknown escape");
	unescape_bad("abc\\", "at the end");
	unescape_bad("\\x4", "hex digits");
	unescape_bad("\\u12g4", "hex digits");
	unescape_bad("\\ud800", "not a Unicode character");
	unescape_bad("\\U00110000", "not a Unicode character");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_ansi_osc),
		cmocka_unit_test(test_newlines),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_invisible),
		cmocka_unit_test(test_visible_unicode),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_all_code_points),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_unescape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
