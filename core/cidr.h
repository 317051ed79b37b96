/*
 * cidr.h: IPv4 prefixes for the egress policy ("10.0.0.0/8"). Parsing is
 * strict: dotted decimal through inet_pton, a length 0..32, and no host bits
 * set, so every prefix has one spelling and equal prefixes compare equal.
 */
#ifndef LZ_CIDR_H
#define LZ_CIDR_H

#include <stdint.h>

#include "core/util.h"

struct lz_cidr {
	uint32_t addr;		/* host byte order, host bits zero */
	unsigned len;		/* 0..32 */
};

/*
 * Parses "a.b.c.d/len", or "a.b.c.d" alone when allow_host is set (a /32).
 * IPv6 prefixes are refused with a message saying that IPv6 is disabled.
 */
int lz_cidr_parse(const char *s, int allow_host, struct lz_cidr *out,
    struct lz_err *err);
/* Writes "a.b.c.d/len" into out (at least 19 bytes). */
void lz_cidr_format(const struct lz_cidr *c, char *out, size_t size);
int lz_cidr_equal(const struct lz_cidr *a, const struct lz_cidr *b);
/* 1 when inner lies within outer (inner no shorter than outer). */
int lz_cidr_contains(const struct lz_cidr *outer, const struct lz_cidr *inner);
/* Orders by address, then by length: a stable table order. */
int lz_cidr_compare(const struct lz_cidr *a, const struct lz_cidr *b);

#endif
