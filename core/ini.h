/*
 * ini.h: inih as Debian builds it (libinih 55: 200-byte lines, ';' inline
 * comments, no line numbers), wrapped so that nothing is cut silently. The
 * text is fed to ini_parse_stream by a reader of our own that counts lines
 * and refuses, with file:line and a fix, what inih would mangle: a line over
 * LZ_INI_MAX_LINE bytes, a ';' after whitespace (an inline comment that
 * would cut the value), an indented line (a multi-line continuation), and
 * NUL bytes. inih's own syntax errors are reported with their line too.
 */
#ifndef LZ_INI_H
#define LZ_INI_H

#include <stddef.h>

#include "core/util.h"

/* Longest line accepted, newline excluded (inih 55: INI_MAX_LINE 200). */
#define LZ_INI_MAX_LINE 198

/*
 * Called for every "key = value" with its section and 1-based line, and once
 * for every section header with key and value NULL. Returns 0, or a negative
 * code with err set: the message becomes "NAME:LINE: message".
 */
typedef int (*lz_ini_handler)(void *ctx, const char *section,
    const char *key, const char *value, unsigned line, struct lz_err *err);

/*
 * Parses text (len bytes; need not be NUL-terminated). name prefixes every
 * error ("NAME:LINE: ..."). Returns 0, or LZ_EINVAL with every error, one a
 * line, in err. Parsing goes on after an error, so one run reports them all.
 */
int lz_ini_parse(const char *name, const char *text, size_t len,
    lz_ini_handler handler, void *ctx, struct lz_err *err);

#endif
