/*
 * visible.c: escaping untrusted text for terminals and JSON (visible.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/visible.h"

static size_t	 utf8_len(const unsigned char *s, size_t n, uint32_t *cp);
static int	 hidden(uint32_t cp);

/*
 * Length of the valid UTF-8 sequence at s (shortest form, no surrogate,
 * at most U+10FFFF) with its code point in *cp; 0 when s does not start
 * one.
 */
static size_t
utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Code points shown as \u{...}: C1, bidi controls, invisible formatting. */
static int
hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200b ||
	    cp == 0x200c || cp == 0x200d || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || cp == 0x2060 ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

void
lz_visible_add(struct lz_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		len = utf8_len(p + i, n - i, &cp);
		if (len == 0) {
			lz_buf_addf(b, "\\x%02x", p[i++]);
			continue;
		}
		if (cp == '\\')
			lz_buf_adds(b, "\\\\");
		else if (cp == '\t' || cp == '\n' || cp == '\r')
			lz_buf_adds(b, cp == '\t' ? "\\t" : cp == '\n' ? "\\n" :
			    "\\r");
		else if (cp < 0x20 || cp == 0x7f)
			lz_buf_addf(b, "\\x%02x", (unsigned)cp);
		else if (hidden(cp))
			lz_buf_addf(b, "\\u{%04x}", (unsigned)cp);
		else
			lz_buf_add(b, p + i, len);
		i += len;
	}
}

char *
lz_visible(const char *s)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_visible_add(&b, s, strlen(s));
	if (b.len == 0)
		return lz_xstrdup("");
	return lz_buf_detach(&b);
}

int
lz_visible_plain(const char *s)
{
	char *v = lz_visible(s);
	int same = strcmp(v, s) == 0;

	free(v);
	return same;
}
