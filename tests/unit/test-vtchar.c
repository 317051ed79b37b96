/*
 * test-vtchar.c: ui/vtchar.c's tables. Every code point U+00A0-U+10FFFF
 * (surrogates aside) is written to the linked libvterm, alone and after
 * "a", and the glyph it puts says whether it is wide and whether it
 * joined the "a": libvterm's width (0 for a mark, 1 or 2). The C
 * library's wcwidth in C.UTF-8 gives the width programs and tmux use.
 * The pane's width (lz_vtchar_width) must be the C library's wherever it
 * gives one (0, 1 or 2) and libvterm's elsewhere, and lz_vtchar_differs
 * must say exactly where libvterm's is not the pane's. A new glibc or
 * libvterm makes this fail: `test-vtchar --print` then writes the tables
 * for ui/vtchar.c (the code between its "generated" lines).
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

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

struct probe {
	VTerm *vt;
};

static void
probe_init(struct probe *pr)
{
	pr->vt = vterm_new(4, 200);
	vterm_set_utf8(pr->vt, 1);
	vterm_state_set_callbacks(vterm_obtain_state(pr->vt), &cbs, NULL);
	vterm_state_reset(vterm_obtain_state(pr->vt), 1);
}

/* libvterm's width of cp: 0 (it joins it), 1 or 2. */
static int
vt_width(struct probe *pr, uint32_t cp)
{
	unsigned char b[16];
	size_t n = 0;

	want = cp;
	joined = wide = 0;
	b[n++] = '\r';
	b[n++] = 'a';
	n += lz_utf8_put(b + n, cp);
	b[n++] = '\r';
	n += lz_utf8_put(b + n, cp);
	vterm_input_write(pr->vt, (const char *)b, n);
	return joined ? 0 : wide ? 2 : 1;
}

/* The pane's width of cp: the C library's, or libvterm's (v) if none. */
static int
want_width(uint32_t cp, int v)
{
	int w = wcwidth((wchar_t)cp);

	return w >= 0 && w <= 2 ? w : v;
}

static int
surrogate(uint32_t cp)
{
	return cp >= 0xd800 && cp <= 0xdfff;
}

static void
test_tables(void **state)
{
	struct probe pr;
	uint32_t cp;
	int bad = 0, v, w;

	(void)state;
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		fail_msg("no C.UTF-8 locale: the widths cannot be checked");
	probe_init(&pr);
	for (cp = 0xa0; cp <= 0x10ffff; cp++) {
		if (surrogate(cp))
			continue;
		v = vt_width(&pr, cp);
		w = want_width(cp, v);
		if (lz_vtchar_width(cp) != w ||
		    lz_vtchar_differs(cp) != (v != w) ||
		    lz_vtchar_combining(cp) != (w == 0) ||
		    lz_vtchar_wide(cp) != (w == 2)) {
			if (bad++ < 10)
				print_message("U+%04X: libvterm %d, wcwidth "
				    "%d, table %d%s\n", cp, v,
				    wcwidth((wchar_t)cp), lz_vtchar_width(cp),
				    lz_vtchar_differs(cp) ? " (differs)" : "");
		}
	}
	vterm_free(pr.vt);
	if (bad > 0)
		print_message("%d code points: run test-vtchar --print and "
		    "put its tables in ui/vtchar.c\n", bad);
	assert_int_equal(bad, 0);
}

/* One run of a range table as C, width w (-1: none printed). */
static void
put_range(uint32_t first, uint32_t last, int w)
{
	if (w < 0)
		printf("\t{ 0x%04x, 0x%04x },\n", first, last);
	else
		printf("\t{ 0x%04x, 0x%04x, %d },\n", first, last, w);
}

/* Prints the two tables of ui/vtchar.c: widths 0 and 2, and differs. */
static int
print_tables(void)
{
	static unsigned char want[0x110001], differ[0x110001];
	struct probe pr;
	uint32_t cp, first = 0;
	int v, run = 1, drun = 0;

	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {
		fprintf(stderr, "test-vtchar: no C.UTF-8 locale\n");
		return 1;
	}
	probe_init(&pr);
	/* One probe a code point; the end (U+110000) closes the last run. */
	for (cp = 0xa0; cp <= 0x110000; cp++) {
		want[cp] = 1;
		if (cp <= 0x10ffff && !surrogate(cp)) {
			v = vt_width(&pr, cp);
			want[cp] = (unsigned char)want_width(cp, v);
			differ[cp] = want[cp] != v;
		}
	}
	vterm_free(pr.vt);
	printf("static const struct wrange widths[] = {\n");
	for (cp = 0xa0; cp <= 0x110000; cp++) {
		if (want[cp] != run && run != 1)
			put_range(first, cp - 1, run);
		if (want[cp] != run)
			first = cp;
		run = want[cp];
	}
	printf("};\n\nstatic const struct range differs[] = {\n");
	for (cp = 0xa0; cp <= 0x110000; cp++) {
		if (differ[cp] && !drun)
			first = cp;
		if (!differ[cp] && drun)
			put_range(first, cp - 1, -1);
		drun = differ[cp];
	}
	printf("};\n");
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
	};

	if (argc == 2 && strcmp(argv[1], "--print") == 0)
		return print_tables();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
