/*
 * jfield.h: the JSON field checks shared by protocol/'s decoders (msg.c,
 * mailbox.c). "what" is the frame or record kind named in errors ("bad
 * OPEN frame: 'cwd' is 5000 bytes, ..."). Each returns 0 or LZ_EINVAL
 * with that message; an absent key that is not required leaves its output
 * untouched (or NULL) and returns 0.
 */
#ifndef LZ_JFIELD_H
#define LZ_JFIELD_H

#include <stddef.h>

#include <jansson.h>

#include "core/util.h"

extern const char lz_jf_hex_chars[];	/* "0123456789abcdef" */

/* 1 when s is 1..max bytes, all from alphabet. */
int lz_jf_word(const char *s, const char *alphabet, size_t max);
/* A string of at most max bytes; *out points into o. */
int lz_jf_str(json_t *o, const char *what, const char *key, int required,
    size_t max, const char **out, struct lz_err *err);
/* An integer within lo..hi. */
int lz_jf_int(json_t *o, const char *what, const char *key, int required,
    long long lo, long long hi, long long *out, struct lz_err *err);
/* A boolean (never required). */
int lz_jf_bool(json_t *o, const char *what, const char *key, int *out,
    struct lz_err *err);
/* Exactly n lower-case hex digits into out (n + 1 bytes; "" if absent). */
int lz_jf_hex(json_t *o, const char *what, const char *key, int required,
    size_t n, char *out, struct lz_err *err);
/*
 * Base64 of min..max bytes, decoded into b. Only what EVP_EncodeBlock
 * writes is accepted (padded, no whitespace, unused bits zero), so each
 * value has one spelling and encodes back to the same text.
 */
int lz_jf_b64(json_t *o, const char *what, const char *key, size_t min,
    size_t max, struct lz_buf *b, struct lz_err *err);
/* An array of at most LZ_MSG_ARGV_MAX strings of LZ_MSG_ARG_MAX bytes. */
int lz_jf_argv(json_t *o, const char *what, const char *key, int required,
    struct lz_tokens *argv, struct lz_err *err);
/* An object of strings into "NAME=value" entries (the OPEN limits). */
int lz_jf_env(json_t *o, const char *what, const char *key,
    struct lz_tokens *env, struct lz_err *err);

/* Text for a human: at most max bytes, cut on a character boundary, bytes
 * that are not UTF-8 shown as '?'. Never NULL. */
json_t *lz_jf_text(const char *s, size_t max);
/* A string the user gave: NULL with "<what> is not valid UTF-8" or "over
 * the limit" in err. */
json_t *lz_jf_user(const char *s, size_t max, const char *what,
    struct lz_err *err);
/* argv as an array under key, each element checked with lz_jf_user. */
int lz_jf_put_argv(json_t *o, const char *key, const struct lz_tokens *argv,
    struct lz_err *err);
/* "NAME=value" entries as an object under key. */
int lz_jf_put_env(json_t *o, const char *key, const struct lz_tokens *env,
    struct lz_err *err);

#endif
