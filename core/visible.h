/*
 * visible.h: untrusted text made safe to show on a terminal and to put in
 * JSON. File names and contents that come from the Agent Sandbox (State
 * Anchor upper layers, Ignored Workspace State) go through it before any
 * human or JSON output, and so will the escalation prompt's command and
 * justification (DESIGN.md "Escalation": control characters made
 * visible).
 *
 * The rule: valid UTF-8 that is printable passes as is; everything else
 * becomes a backslash escape that reads as what it is:
 *
 *   '\\'                     \\
 *   \t \n \r                 \t \n \r
 *   other C0, DEL            \xNN
 *   a byte that is not part  \xNN (so any byte string, even one that is
 *   of valid UTF-8                 not UTF-8, has exactly one spelling)
 *   C1 controls (U+0080-9F), \u{NNNN}: they would act on a terminal or
 *   bidirectional controls         reorder what is shown (U+061C, U+200E,
 *   and invisible formatting       U+200F, U+202A-202E, U+2066-2069), or
 *   characters                     hide a character (U+200B-200D, U+2060,
 *                                  U+FEFF)
 *
 * The result is valid UTF-8 without a control character, so jansson takes
 * it as a JSON string and a terminal shows it literally.
 */
#ifndef LZ_VISIBLE_H
#define LZ_VISIBLE_H

#include <stddef.h>

#include "core/util.h"

/* Appends the visible form of s[0..n) to b. */
void lz_visible_add(struct lz_buf *b, const char *s, size_t n);
/* The visible form of the string s; allocated. */
char *lz_visible(const char *s);
/* 1 when s needs no escape (lz_visible would return it unchanged). */
int lz_visible_plain(const char *s);

#endif
