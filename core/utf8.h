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

/* Appends cp to b. */
static inline void
lz_buf_add_utf8(struct lz_buf *b, uint32_t cp)
{
	unsigned char u[4];

	lz_buf_add(b, u, lz_utf8_put(u, cp));
}

#endif
