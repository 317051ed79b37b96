/*
 * utf8.h: encoding one code point as UTF-8, inline because the pane's
 * scrollback encoder calls it for every cell it stores. A code point that
 * UTF-8 cannot carry (above U+10FFFF, or a surrogate) becomes U+FFFD, so
 * no lead byte above 0xf4 is ever written.
 */
#ifndef LZ_UTF8_H
#define LZ_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

/* Writes cp at p (room for 4 bytes); returns the bytes written. */
static inline size_t
lz_utf8_put(unsigned char *p, uint32_t cp)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		p[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (unsigned char)(0xc0 | cp >> 6);
		p[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = (unsigned char)(0xe0 | cp >> 12);
		p[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		p[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	p[0] = (unsigned char)(0xf0 | cp >> 18);
	p[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	p[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	p[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The length (1-4) of the well-formed UTF-8 sequence at p (n bytes
 * available), or 0 when p does not start one: a stray continuation, an
 * overlong form, a surrogate, a code point above U+10FFFF, a cut one.
 */
static inline size_t
lz_utf8_seq(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Appends cp to b. */
static inline void
lz_buf_add_utf8(struct lz_buf *b, uint32_t cp)
{
	unsigned char u[4];

	lz_buf_add(b, u, lz_utf8_put(u, cp));
}

#endif
