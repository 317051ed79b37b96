/*
 * tokens.h: the argument-vector syntax of config values (command, auto-approve,
 * volume). A value is a list of tokens separated by spaces or tabs. Inside a
 * token, "%XX" (two hex digits) stands for the byte 0xXX, so a space is %20,
 * ';' is %3B, '#' is %23, '%' itself is %25 and "'" is %27. The token ''
 * (two single quotes alone) is the empty argument; a single quote anywhere
 * else is an error. Nothing else is special: no backslashes. This cannot be cut by inih's inline-comment rule
 * (a ';' after whitespace) because a literal ';' is never needed, and it is
 * unambiguous: every byte string has exactly one spelling that
 * lz_tokens_quote writes. A character core/visible.h hides (a bidi
 * control, a zero-width character, a C1 control, a space other than
 * U+0020) must be written as escapes, never raw, so a config line reads
 * in an editor as it acts.
 */
#ifndef LZ_TOKENS_H
#define LZ_TOKENS_H

#include <stddef.h>

#include <jansson.h>

#include "core/util.h"

/*
 * Splits value into tokens and decodes their escapes. Fails with LZ_EINVAL on
 * a malformed escape, an escaped NUL, a raw control or invisible
 * character; on failure
 * out is left empty.
 */
int lz_tokens_split(const char *value, struct lz_tokens *out,
    struct lz_err *err);
/*
 * Appends the config spelling of s: the shortest one, except that every
 * byte of an invisible character is escaped too.
 */
void lz_tokens_quote(struct lz_buf *b, const char *s);
/* Appends every token, quoted, separated by single spaces. */
void lz_tokens_join(struct lz_buf *b, const struct lz_tokens *t);

/*
 * A JSON array (a new reference) of t's strings, each cut to its first
 * cut bytes (0: whole) at a character boundary; a string that is not
 * UTF-8 becomes "". The audit log and the notify command's JSON use it.
 */
json_t *lz_tokens_json(const struct lz_tokens *t, size_t cut);

/* 1 when the n bytes at s are valid UTF-8 (config text must be). */
int lz_utf8_valid(const char *s, size_t n);

#endif
