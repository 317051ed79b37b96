/*
 * vtchar.h: a pane's width of a code point, and where libvterm 0.1.4's
 * own differs (see vtchar.c).
 */
#ifndef LZ_VTCHAR_H
#define LZ_VTCHAR_H

#include <stdint.h>

/*
 * The columns cp (U+00A0 or above) takes in a pane: 0 for a mark (it
 * joins the glyph before it), 1 or 2.
 */
int lz_vtchar_width(uint32_t cp);
/* Whether libvterm 0.1.4 would give cp another width than the pane's. */
int lz_vtchar_differs(uint32_t cp);
/* lz_vtchar_width(cp) == 0 and == 2. */
int lz_vtchar_combining(uint32_t cp);
int lz_vtchar_wide(uint32_t cp);

#endif
