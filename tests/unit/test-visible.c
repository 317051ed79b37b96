/*
 * test-visible.c: untrusted text made visible (core/visible.h): printable
 * UTF-8 kept, controls, invalid bytes, C1, bidi and invisible characters
 * escaped, and every result valid UTF-8 without a control character.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/visible.h"

static void
expect(const char *in, size_t n, const char *want)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_visible_add(&b, in, n);
	assert_string_equal(b.buf, want);
	lz_buf_release(&b);
}

static void
test_plain(void **state)
{
	(void)state;
	expect("usr/bin/ls", 10, "usr/bin/ls");
	expect("caf\xc3\xa9 \xe6\x97\xa5", 9, "caf\xc3\xa9 \xe6\x97\xa5");
	assert_true(lz_visible_plain("node_modules/.bin"));
	assert_false(lz_visible_plain("a\\b"));
}

static void
test_controls(void **state)
{
	(void)state;
	expect("a\x1b[31mb", 7, "a\\x1b[31mb");
	expect("x\ny\tz\r", 6, "x\\ny\\tz\\r");
	expect("\x7f\x01", 2, "\\x7f\\x01");
	expect("back\\slash", 10, "back\\\\slash");
	/* C1 CSI as UTF-8 (U+009B) and a lone 0x9b byte. */
	expect("\xc2\x9b" "2J", 4, "\\u{009b}2J");
	expect("\x9b" "2J", 3, "\\x9b2J");
}

static void
test_invalid_utf8(void **state)
{
	(void)state;
	expect("\xff\xfe", 2, "\\xff\\xfe");
	/* Overlong '/', a surrogate, a truncated sequence. */
	expect("\xc0\xaf", 2, "\\xc0\\xaf");
	expect("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");
	expect("ab\xe6\x97", 4, "ab\\xe6\\x97");
}

static void
test_bidi(void **state)
{
	(void)state;
	/* U+202E RIGHT-TO-LEFT OVERRIDE, U+2066, U+200B, U+FEFF. */
	expect("gpj.\xe2\x80\xae" "exe", 10, "gpj.\\u{202e}exe");
	expect("\xe2\x81\xa6\xe2\x80\x8b\xef\xbb\xbf", 9,
	    "\\u{2066}\\u{200b}\\u{feff}");
}

/* Every byte string comes out as a JSON string jansson accepts. */
static void
test_json_safe(void **state)
{
	char in[256], *v;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof in - 1; i++)
		in[i] = (char)(i + 1);
	in[sizeof in - 1] = '\0';
	v = lz_visible(in);
	for (i = 0; v[i] != '\0'; i++)
		assert_true((unsigned char)v[i] >= 0x20 && v[i] != 0x7f);
	j = json_string(v);
	assert_non_null(j);
	json_decref(j);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_json_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
