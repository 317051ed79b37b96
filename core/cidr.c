/*
 * cidr.c: strict IPv4 prefix parsing and comparison for the policy compiler.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cidr.h"

static uint32_t
mask_of(unsigned len)
{
	return len == 0 ? 0 : 0xffffffffu << (32 - len);
}

int
lz_cidr_parse(const char *s, int allow_host, struct lz_cidr *out,
    struct lz_err *err)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	struct in_addr in;
	unsigned long len = 32;
	size_t alen;
	char *end;
	char fixed[32];
	struct lz_cidr c;

	if (strchr(s, ':') != NULL)
		return lz_err_set(err, LZ_EINVAL, "'%s' is an IPv6 prefix; "
		    "IPv6 is disabled in the sandbox network, so only IPv4 "
		    "prefixes can be given", s);
	if (slash == NULL && !allow_host)
		return lz_err_set(err, LZ_EINVAL, "'%s' has no prefix "
		    "length (write it as %s/32 for one address)", s, s);
	alen = slash ? (size_t)(slash - s) : strlen(s);
	if (alen == 0 || alen >= sizeof addr)
		return lz_err_set(err, LZ_EINVAL, "'%s' is not an IPv4 "
		    "address or prefix (expected a.b.c.d/len)", s);
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return lz_err_set(err, LZ_EINVAL, "'%s' is not an IPv4 "
		    "address (expected four decimal numbers 0-255 without "
		    "leading zeros)", addr);
	if (slash != NULL) {
		if (slash[1] < '0' || slash[1] > '9')
			return lz_err_set(err, LZ_EINVAL, "'%s' has a bad "
			    "prefix length (expected /0 to /32)", s);
		len = strtoul(slash + 1, &end, 10);
		if (*end != '\0' || len > 32 ||
		    (slash[1] == '0' && slash[2] != '\0'))
			return lz_err_set(err, LZ_EINVAL, "'%s' has a bad "
			    "prefix length (expected /0 to /32)", s);
	}
	c.addr = ntohl(in.s_addr);
	c.len = (unsigned)len;
	if ((c.addr & ~mask_of(c.len)) != 0) {
		c.addr &= mask_of(c.len);
		lz_cidr_format(&c, fixed, sizeof fixed);
		return lz_err_set(err, LZ_EINVAL, "'%s' has host bits set "
		    "(did you mean %s?)", s, fixed);
	}
	*out = c;
	return 0;
}

void
lz_cidr_format(const struct lz_cidr *c, char *out, size_t size)
{
	int n = snprintf(out, size, "%u.%u.%u.%u/%u", c->addr >> 24,
	    (c->addr >> 16) & 255, (c->addr >> 8) & 255, c->addr & 255, c->len);

	if (n < 0 || (size_t)n >= size)
		LZ_BUG("cidr buffer of %zu bytes too small", size);
}

int
lz_cidr_equal(const struct lz_cidr *a, const struct lz_cidr *b)
{
	return a->addr == b->addr && a->len == b->len;
}

int
lz_cidr_contains(const struct lz_cidr *outer, const struct lz_cidr *inner)
{
	return inner->len >= outer->len &&
	    (inner->addr & mask_of(outer->len)) == outer->addr;
}

int
lz_cidr_compare(const struct lz_cidr *a, const struct lz_cidr *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return 0;
}
