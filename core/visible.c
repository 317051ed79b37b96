/*
 * visible.c: untrusted text made visible (see visible.h). The hidden set
 * is a table of ranges for what glibc would draw as something (spaces,
 * format characters it gives a column) plus glibc's own "no column"
 * answer, asked in the C.UTF-8 locale so the user's locale changes
 * nothing.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/utf8.h"
#include "core/visible.h"

struct range {
	uint32_t lo, hi;
};

/*
 * Hidden whatever wcwidth says: sorted, not overlapping. Sources: the
 * Unicode Cf (format), Zs (spaces), Zl/Zp, Co (private use) lists, the
 * noncharacters, and the invisible letters the "Trojan Source" and
 * "ASCII smuggling" reports use (Hangul fillers, Braille blank, tags).
 */
static const struct range hidden[] = {
	{ 0x0080, 0x00a0 },	/* C1 controls, no-break space */
	{ 0x00ad, 0x00ad },	/* soft hyphen */
	{ 0x034f, 0x034f },	/* combining grapheme joiner */
	{ 0x0600, 0x0605 },	/* Arabic number signs */
	{ 0x061c, 0x061c },	/* Arabic letter mark (bidi) */
	{ 0x06dd, 0x06dd },
	{ 0x070f, 0x070f },
	{ 0x0890, 0x0891 },
	{ 0x08e2, 0x08e2 },
	{ 0x115f, 0x1160 },	/* Hangul fillers */
	{ 0x1680, 0x1680 },	/* Ogham space mark */
	{ 0x17b4, 0x17b5 },	/* Khmer inherent vowels */
	{ 0x180b, 0x180f },	/* Mongolian selectors, vowel separator */
	{ 0x2000, 0x200f },	/* spaces, ZWSP, ZWNJ, ZWJ, LRM, RLM */
	{ 0x2028, 0x202f },	/* LS, PS, LRE RLE PDF LRO RLO, NNBSP */
	{ 0x205f, 0x206f },	/* MMSP, WJ, invisible operators, LRI-PDI */
	{ 0x2800, 0x2800 },	/* Braille blank */
	{ 0x3000, 0x3000 },	/* ideographic space */
	{ 0x3164, 0x3164 },	/* Hangul filler */
	{ 0xd800, 0xf8ff },	/* surrogates, private use */
	{ 0xfdd0, 0xfdef },	/* noncharacters */
	{ 0xfe00, 0xfe0f },	/* variation selectors */
	{ 0xfeff, 0xfeff },	/* zero-width no-break space (BOM) */
	{ 0xffa0, 0xffa0 },	/* halfwidth Hangul filler */
	{ 0xfff0, 0xfffb },	/* interlinear annotation */
	{ 0x110bd, 0x110bd },
	{ 0x110cd, 0x110cd },
	{ 0x13430, 0x1343f },	/* Egyptian hieroglyph format controls */
	{ 0x1bca0, 0x1bca3 },	/* shorthand format controls */
	{ 0x1d173, 0x1d17a },	/* musical symbol format controls */
	{ 0xe0000, 0xe0fff },	/* tags, variation selectors supplement */
	{ 0xf0000, 0x10ffff },	/* private use planes 15 and 16 */
};
#define NHIDDEN (sizeof hidden / sizeof hidden[0])

static locale_t	c_utf8(void);
static int	in_table(uint32_t cp);
static int	columns(uint32_t cp, locale_t loc);
static int	hex_n(const char *s, size_t n, uint32_t *out);

/*
 * The C.UTF-8 locale, made once: a cache, not state (every caller gets
 * the same answer). NULL when the C library has none; every non-ASCII
 * code point is then hidden (fail closed).
 */
static locale_t
c_utf8(void)
{
	static locale_t loc;
	static int tried;

	if (!tried) {
		tried = 1;
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	return loc;
}

static int
in_table(uint32_t cp)
{
	size_t lo = 0, hi = NHIDDEN, mid;

	if ((cp & 0xfffe) == 0xfffe)
		return 1;		/* U+xFFFE, U+xFFFF: noncharacters */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (cp < hidden[mid].lo)
			hi = mid;
		else if (cp > hidden[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

/* Columns of cp in loc (the caller switched to it); < 1: none. */
static int
columns(uint32_t cp, locale_t loc)
{
	if (loc == (locale_t)0)
		return -1;
	return wcwidth((wchar_t)cp);
}

int
lz_visible_hidden(uint32_t cp)
{
	locale_t loc, old;
	int w;

	if (cp < 0x80)
		return cp < 0x20 || cp == 0x7f;
	if (cp > 0x10ffff || in_table(cp))
		return 1;
	if ((loc = c_utf8()) == (locale_t)0)
		return 1;
	old = uselocale(loc);
	w = columns(cp, loc);
	uselocale(old);
	return w < 1;
}

int
lz_visible_width(uint32_t cp)
{
	locale_t loc, old;
	int w;

	if (cp < 0x80 || (loc = c_utf8()) == (locale_t)0)
		return 1;
	old = uselocale(loc);
	w = columns(cp, loc);
	uselocale(old);
	return w == 2 ? 2 : 1;
}

void
lz_visible_add(struct lz_buf *b, const char *s, size_t n, int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	locale_t loc = c_utf8(), old = (locale_t)0;
	size_t i = 0, len, k;
	uint32_t cp;

	if (loc != (locale_t)0)
		old = uselocale(loc);
	if (flags & LZ_VISIBLE_QUOTE)
		lz_buf_addch(b, '"');
	while (i < n) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			if (p[i] == '\\' || (p[i] == '"' &&
			    (flags & LZ_VISIBLE_QUOTE)))
				lz_buf_addch(b, '\\');
			lz_buf_addch(b, (char)p[i++]);
			continue;
		}
		if (p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
			lz_buf_adds(b, p[i] == '\t' ? "\\t" : p[i] == '\n' ?
			    "\\n" : "\\r");
			i++;
			continue;
		}
		len = lz_utf8_seq(p + i, n - i);
		if (len <= 1) {
			/* A C0 control, DEL, or a byte that is not UTF-8. */
			lz_buf_addf(b, "\\x%02x", p[i++]);
			continue;
		}
		cp = p[i] & (0x7f >> len);
		for (k = 1; k < len; k++)
			cp = cp << 6 | (p[i + k] & 0x3f);
		if ((flags & LZ_VISIBLE_ASCII) || in_table(cp) ||
		    columns(cp, loc) < 1)
			lz_buf_addf(b, cp > 0xffff ? "\\U%08x" : "\\u%04x",
			    (unsigned)cp);
		else
			lz_buf_add(b, p + i, len);
		i += len;
	}
	if (flags & LZ_VISIBLE_QUOTE)
		lz_buf_addch(b, '"');
	if (loc != (locale_t)0)
		uselocale(old);
}

char *
lz_visible_str(const char *s, int flags)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_visible_add(&b, s, strlen(s), flags);
	return lz_buf_detach(&b);
}


/* The n hex digits at s; -1 unless all n are hex digits. */
static int
hex_n(const char *s, size_t n, uint32_t *out)
{
	size_t i;
	int v;

	*out = 0;
	for (i = 0; i < n; i++) {
		if ((v = lz_hex_digit(s[i])) < 0)
			return -1;
		*out = *out << 4 | (uint32_t)v;
	}
	return 0;
}

int
lz_visible_unescape(const char *s, size_t n, struct lz_buf *out,
    struct lz_err *err)
{
	size_t i = 0, want;
	uint32_t v;
	char c;

	while (i < n) {
		if (s[i] != '\\') {
			lz_buf_addch(out, s[i++]);
			continue;
		}
		if (i + 1 >= n)
			return lz_err_set(err, LZ_EINVAL, "a '\\' at the end "
			    "(write a backslash as \\\\)");
		c = s[i + 1];
		if (c == '\\' || c == '"' || c == 'n' || c == 't' ||
		    c == 'r') {
			lz_buf_addch(out, c == 'n' ? '\n' : c == 't' ? '\t' :
			    c == 'r' ? '\r' : c);
			i += 2;
			continue;
		}
		want = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
		if (want == 0)
			return lz_err_set(err, LZ_EINVAL, "unknown escape "
			    "'\\%c' at byte %zu (known: \\\\ \\\" \\n \\t \\r "
			    "\\xHH \\uHHHH \\UHHHHHHHH)", c, i);
		if (i + 2 + want > n || hex_n(s + i + 2, want, &v) != 0)
			return lz_err_set(err, LZ_EINVAL, "escape '\\%c' at "
			    "byte %zu needs %zu hex digits", c, i, want);
		if (c == 'x')
			lz_buf_addch(out, (char)v);
		else if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			return lz_err_set(err, LZ_EINVAL, "escape at byte %zu "
			    "is not a Unicode character (U+%X)", i,
			    (unsigned)v);
		else
			lz_buf_add_utf8(out, v);
		i += 2 + want;
	}
	return 0;
}
