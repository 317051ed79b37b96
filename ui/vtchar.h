/*
 * vtchar.h: libvterm 0.1.4's view of a code point (see vtchar.c).
 */
#ifndef LZ_VTCHAR_H
#define LZ_VTCHAR_H

#include <stdint.h>

/* Whether libvterm joins cp to the glyph before it. */
int lz_vtchar_combining(uint32_t cp);
/* Whether libvterm gives cp two columns. */
int lz_vtchar_wide(uint32_t cp);

#endif
