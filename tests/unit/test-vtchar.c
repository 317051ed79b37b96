/*
 * test-vtchar.c: ui/vtchar.c's tables are libvterm's. Every code point
 * U+00A0-U+10FFFF (surrogates aside) is written to the linked libvterm,
 * alone and after "a", and the glyph it puts says whether it is wide and
 * whether it joined the "a": the tables must agree on every one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <vterm.h>

#include "core/utf8.h"
#include "ui/vtchar.h"

static uint32_t want;
static int joined, wide;

static int
putglyph(VTermGlyphInfo *info, VTermPos pos, void *user)
{
	(void)pos;
	(void)user;
	if (info->chars[0] == 'a' && info->chars[1] == want)
		joined = 1;
	if (info->chars[0] == want && info->width == 2)
		wide = 1;
	return 1;
}

static const VTermStateCallbacks cbs = { .putglyph = putglyph };

static void
test_tables(void **state)
{
	VTerm *vt = vterm_new(4, 200);
	VTermState *st;
	unsigned char b[16];
	uint32_t cp;
	size_t n;
	int bad = 0;

	(void)state;
	vterm_set_utf8(vt, 1);
	st = vterm_obtain_state(vt);
	vterm_state_set_callbacks(st, &cbs, NULL);
	vterm_state_reset(st, 1);
	for (cp = 0xa0; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		want = cp;
		joined = wide = 0;
		n = 0;
		b[n++] = '\r';
		b[n++] = 'a';
		n += lz_utf8_put(b + n, cp);
		b[n++] = '\r';
		n += lz_utf8_put(b + n, cp);
		vterm_input_write(vt, (const char *)b, n);
		if (joined != lz_vtchar_combining(cp) ||
		    wide != lz_vtchar_wide(cp)) {
			if (bad++ < 10)
				print_message("U+%04X: libvterm %s%s, table "
				    "%s%s\n", cp, joined ? "mark " : "",
				    wide ? "wide" : "", lz_vtchar_combining(cp) ?
				    "mark " : "", lz_vtchar_wide(cp) ? "wide" :
				    "");
		}
	}
	vterm_free(vt);
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
