/*
 * visible.h: untrusted text made visible. What the sandbox sends a human
 * (an escalation's argv and justification, a file name in `state
 * inspect`) is shown through this module so that it cannot lie: nothing
 * in the output can move the cursor, change colours, reorder the line
 * (bidi overrides), hide characters (zero-width, tags, variation
 * selectors) or pass for a space. Used by the escalation prompt (TUI and
 * raw sessions), `lazaret audit` and core/tokens.c (config spelling).
 *
 * The escaped form, which lz_visible_unescape reads back byte for byte:
 *
 *   printable ASCII      as is, except '\' which is "\\" (and '"' which
 *                        is "\"" with LZ_VISIBLE_QUOTE)
 *   TAB, LF, CR          "\t", "\n", "\r"
 *   other C0, DEL        "\xHH" (ESC is "\x1b")
 *   a byte that is not   "\xHH", one per byte (an overlong form, a
 *   part of valid UTF-8  surrogate, a stray continuation, a cut sequence)
 *   a hidden code point  "\uHHHH", or "\UHHHHHHHH" above U+FFFF
 *   any other character  as is (UTF-8)
 *
 * A code point is hidden when lz_visible_hidden says so: C1 controls,
 * bidi controls (U+061C, U+200E/F, U+202A-E, U+2066-9), zero-width and
 * other format characters (U+200B-D, U+2060-4, U+FEFF, U+00AD, U+180E,
 * tags U+E0000-E007F, ...), variation selectors, every space other than
 * U+0020 (U+00A0, U+2000-200A, U+3000, U+2800 ...), line and paragraph
 * separators, private use, noncharacters, and everything that has no
 * column of its own (combining marks, unassigned code points: glibc's
 * wcwidth in the C.UTF-8 locale, whatever the user's locale is). So the
 * output holds only characters that take one or two columns and look
 * like what they are. Letters that look like other letters (Cyrillic
 * 'а' for Latin 'a') stay letters: they are visible, not hidden.
 */
#ifndef LZ_VISIBLE_H
#define LZ_VISIBLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

enum lz_visible_flags {
	/* Wrap in double quotes; '"' inside becomes "\"". An empty string
	 * is then "" and spaces at either end stay in sight. */
	LZ_VISIBLE_QUOTE = 1 << 0,
	/* Every non-ASCII code point escaped too (a terminal that is not
	 * UTF-8 would show them all as the same '?'). */
	LZ_VISIBLE_ASCII = 1 << 1,
};

/* Appends the escaped form of the n bytes at s to b. */
void lz_visible_add(struct lz_buf *b, const char *s, size_t n, int flags);
/* The escaped form of the string s, allocated. */
char *lz_visible_str(const char *s, int flags);
/* 1 when code point cp is shown as an escape (see above). */
int lz_visible_hidden(uint32_t cp);
/*
 * Columns the escaped form's character cp takes on a terminal: 1 or 2
 * (glibc's wcwidth in C.UTF-8); 1 for ASCII. For laying out what
 * lz_visible_add wrote, so hidden code points never reach it.
 */
int lz_visible_width(uint32_t cp);

/*
 * Reads an escaped form back (without the quotes of LZ_VISIBLE_QUOTE):
 * the inverse of lz_visible_add for every input. Appends the bytes to out.
 * Fails with LZ_EINVAL, saying where, on an unknown escape ("\q"), a cut
 * one, or a "\u" naming a surrogate or a code point above U+10FFFF. Does
 * not check that the result is UTF-8 or free of NUL (the caller does
 * where it must be: an argument cannot hold a NUL).
 */
int lz_visible_unescape(const char *s, size_t n, struct lz_buf *out,
    struct lz_err *err);

#endif
