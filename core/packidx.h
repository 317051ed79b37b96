/*
 * packidx.h: the object names a pack index holds (git's idx format
 * version 2, Documentation/gitformat-pack.txt), for the Git history
 * guard's question "is this object still in the repository?"
 * (history.h). The file is read into memory, never mapped: the sandbox
 * can truncate a pack index in place, and a mapped file that shrinks
 * raises SIGBUS. Everything is checked before it is believed: the magic
 * and version, the fan-out table ascending, the file's size against the
 * object count, the names in strictly ascending order.
 */
#ifndef LZ_PACKIDX_H
#define LZ_PACKIDX_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

#define LZ_PACKIDX_MAX (1024u * 1024 * 1024)	/* bytes read */

struct lz_packidx {
	unsigned char *buf;	/* the file */
	size_t len;
	size_t hashlen;		/* 20 (SHA-1) or 32 (SHA-256) */
	uint32_t n;		/* objects */
	const unsigned char *names;	/* n * hashlen, sorted */
};
#define LZ_PACKIDX_INIT { NULL, 0, 0, 0, NULL }

/*
 * Checks len bytes at buf (taken over: freed by lz_packidx_release, or
 * here on failure) as an index of hashlen-byte names.
 */
int lz_packidx_parse(unsigned char *buf, size_t len, size_t hashlen,
    struct lz_packidx *out, struct lz_err *err);
/*
 * Reads dirfd/name (no symlink, a regular file, at most LZ_PACKIDX_MAX)
 * and parses it; the hash length comes from the name's hex part
 * ("pack-<40 hex>.idx" or 64).
 */
int lz_packidx_read(int dirfd, const char *name, struct lz_packidx *out,
    struct lz_err *err);
/* 1 when the index holds the object named by hashlen bytes at oid. */
int lz_packidx_has(const struct lz_packidx *x, const unsigned char *oid);
/* The i-th name (i < n). */
const unsigned char *lz_packidx_name(const struct lz_packidx *x,
    uint32_t i);
void lz_packidx_release(struct lz_packidx *x);

/* Hex (2*n digits) to n bytes; 0, or -1 when s is not that. */
int lz_unhex(const char *s, size_t n, unsigned char *out);

#endif
