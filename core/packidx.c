/*
 * packidx.c: reading a pack index's names, checked (packidx.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/packidx.h"
#include "core/readat.h"

#define HEADER 8		/* "\377tOc", version 2 */
#define FANOUT (256 * 4)

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

int
lz_unhex(const char *s, size_t n, unsigned char *out)
{
	size_t i;
	int hi, lo;

	for (i = 0; i < n; i++) {
		hi = s[2 * i] >= '0' && s[2 * i] <= '9' ? s[2 * i] - '0' :
		    s[2 * i] >= 'a' && s[2 * i] <= 'f' ? s[2 * i] - 'a' + 10 :
		    -1;
		lo = s[2 * i + 1] >= '0' && s[2 * i + 1] <= '9' ?
		    s[2 * i + 1] - '0' : s[2 * i + 1] >= 'a' &&
		    s[2 * i + 1] <= 'f' ? s[2 * i + 1] - 'a' + 10 : -1;
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return s[2 * n] == '\0' ? 0 : -1;
}

int
lz_packidx_parse(unsigned char *buf, size_t len, size_t hashlen,
    struct lz_packidx *out, struct lz_err *err)
{
	static const unsigned char magic[HEADER] = { 0xff, 't', 'O', 'c',
	    0, 0, 0, 2 };
	uint64_t min, large = 0;
	uint32_t n, prev = 0, i, off;
	const unsigned char *offs;

	memset(out, 0, sizeof *out);
	if (len < HEADER + FANOUT || memcmp(buf, magic, HEADER) != 0) {
		free(buf);
		return lz_err_set(err, LZ_EINVAL, "not a version 2 pack "
		    "index");
	}
	for (i = 0; i < 256; i++) {
		n = be32(buf + HEADER + 4 * i);
		if (n < prev) {
			free(buf);
			return lz_err_set(err, LZ_EINVAL, "pack index fan-out "
			    "table not ascending");
		}
		prev = n;
	}
	n = prev;
	min = HEADER + FANOUT + (uint64_t)n * (hashlen + 8) + 2 * hashlen;
	if ((uint64_t)len < min || (uint64_t)len > min + (uint64_t)n * 8) {
		free(buf);
		return lz_err_set(err, LZ_EINVAL, "pack index of %zu bytes "
		    "cannot hold %u objects", len, n);
	}
	offs = buf + HEADER + FANOUT + (size_t)n * (hashlen + 4);
	for (i = 0; i < n; i++) {
		off = be32(offs + 4 * (size_t)i);
		large += off >> 31;
		if (i > 0 && memcmp(buf + HEADER + FANOUT + (size_t)(i - 1) *
		    hashlen, buf + HEADER + FANOUT + (size_t)i * hashlen,
		    hashlen) >= 0) {
			free(buf);
			return lz_err_set(err, LZ_EINVAL, "pack index names "
			    "not in order");
		}
	}
	if ((uint64_t)len != min + large * 8) {
		free(buf);
		return lz_err_set(err, LZ_EINVAL, "pack index of %zu bytes "
		    "does not match its %llu large offsets", len,
		    (unsigned long long)large);
	}
	/* Each name's first byte must lie in its fan-out bucket. */
	for (i = 0; i < n; i++) {
		unsigned b = buf[HEADER + FANOUT + (size_t)i * hashlen];

		if (i >= be32(buf + HEADER + 4 * b) || (b > 0 &&
		    i < be32(buf + HEADER + 4 * (b - 1)))) {
			free(buf);
			return lz_err_set(err, LZ_EINVAL, "pack index fan-out "
			    "table does not match its names");
		}
	}
	out->buf = buf;
	out->len = len;
	out->hashlen = hashlen;
	out->n = n;
	out->names = buf + HEADER + FANOUT;
	return 0;
}

int
lz_packidx_read(int dirfd, const char *name, struct lz_packidx *out,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	size_t hex = 0, hashlen;
	int rc;

	memset(out, 0, sizeof *out);
	if (strncmp(name, "pack-", 5) == 0)
		hex = strspn(name + 5, "0123456789abcdef");
	if ((hex != 40 && hex != 64) || strcmp(name + 5 + hex, ".idx") != 0)
		return lz_err_set(err, LZ_EINVAL, "'%s' is not named like a "
		    "pack index", name);
	hashlen = hex / 2;
	rc = lz_readat(dirfd, name, LZ_PACKIDX_MAX, &b, NULL);
	if (rc == LZ_READAT_OK && b.alloc == 0)
		rc = -EINVAL;	/* nothing allocated: empty */
	if (rc != LZ_READAT_OK) {
		lz_buf_release(&b);
		return lz_err_set(err, LZ_EINVAL, "cannot read pack index "
		    "'%s' (%s)", name, rc == LZ_READAT_MISSING ? "missing" :
		    rc == LZ_READAT_NOTFILE ? "not a regular file" :
		    rc == LZ_READAT_TOOBIG ? "too large" : strerror(-rc));
	}
	b.alloc = 0;	/* the buffer is handed over */
	rc = lz_packidx_parse((unsigned char *)b.buf, b.len, hashlen, out,
	    err);
	if (rc != 0)
		lz_err_prefix(err, rc, "'%s'", name);
	return rc;
}

int
lz_packidx_has(const struct lz_packidx *x, const unsigned char *oid)
{
	const unsigned char *fan = x->buf + HEADER;
	uint32_t lo, hi, mid;
	int c;

	lo = oid[0] == 0 ? 0 : be32(fan + 4 * (oid[0] - 1));
	hi = be32(fan + 4 * oid[0]);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = memcmp(oid, x->names + (size_t)mid * x->hashlen,
		    x->hashlen);
		if (c == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

const unsigned char *
lz_packidx_name(const struct lz_packidx *x, uint32_t i)
{
	return x->names + (size_t)i * x->hashlen;
}

void
lz_packidx_release(struct lz_packidx *x)
{
	free(x->buf);
	memset(x, 0, sizeof *x);
}
