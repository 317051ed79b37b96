/*
 * netpolicy.c: the sidecar's policy text: compile from the effective
 * table, format, strict parse, digest, lookup and the probe addresses the
 * sidecar checks with route lookups (netpolicy.h). No I/O; libc and
 * libcrypto only, so the static lazaret-netpolicy links it.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmac.h"
#include "core/netpolicy.h"

static int	 rule_cmp(const void *a, const void *b);
static void	 addr_format(uint32_t addr, char *out, size_t size);
static int	 probe_ok(uint32_t addr);
static void	 add_probe(struct lz_netpolicy_probe **v, size_t *n,
		     size_t *alloc, const struct lz_netpolicy *np,
		     uint32_t addr, const char *why);

static int
rule_cmp(const void *a, const void *b)
{
	const struct lz_netpolicy_rule *x = a, *y = b;

	return lz_cidr_compare(&x->prefix, &y->prefix);
}

static void
addr_format(uint32_t addr, char *out, size_t size)
{
	struct in_addr in;

	in.s_addr = htonl(addr);
	if (inet_ntop(AF_INET, &in, out, size) == NULL && size > 0)
		out[0] = '\0';
}

int
lz_netpolicy_compile(struct lz_netpolicy *np, const struct lz_policy *p,
    const struct lz_cidr *resolvers, size_t nresolvers, struct lz_err *err)
{
	struct lz_netpolicy_rule *r;
	char a[32];
	size_t i, j, n = 0;
	int rc = 0;

	if (p->n > LZ_NETPOLICY_MAX_RULES)
		return lz_err_set(err, LZ_EINVAL, "egress policy has %zu rules, "
		    "more than the sidecar takes (%d)", p->n,
		    LZ_NETPOLICY_MAX_RULES);
	if (nresolvers > LZ_NETPOLICY_MAX_RESOLVERS)
		return lz_err_set(err, LZ_EINVAL, "%zu DNS resolvers, more "
		    "than the sidecar takes (%d)", nresolvers,
		    LZ_NETPOLICY_MAX_RESOLVERS);
	np->rules = lz_xcalloc(p->n + 1, sizeof *np->rules);
	np->rules_alloc = p->n + 1;
	for (i = 0; i < p->n; i++) {
		np->rules[i].prefix = p->v[i].prefix;
		np->rules[i].allow = p->v[i].action == LZ_POLICY_ALLOW;
	}
	qsort(np->rules, p->n, sizeof *np->rules, rule_cmp);
	/* Merge exact duplicates; an equal prefix both ways is a bug here. */
	for (i = 0; i < p->n; i++) {
		r = &np->rules[i];
		if (n > 0 && lz_cidr_equal(&np->rules[n - 1].prefix,
		    &r->prefix)) {
			if (np->rules[n - 1].allow != r->allow) {
				lz_cidr_format(&r->prefix, a, sizeof a);
				rc = lz_err_set(err, LZ_EINVAL, "egress "
				    "policy allows and denies '%s' (the "
				    "table was not checked)", a);
				goto out;
			}
			continue;
		}
		np->rules[n++] = *r;
	}
	np->nrules = n;
	np->resolvers = lz_xcalloc(nresolvers + 1, sizeof *np->resolvers);
	np->resolvers_alloc = nresolvers + 1;
	for (i = 0; i < nresolvers; i++) {
		lz_cidr_format(&resolvers[i], a, sizeof a);
		if (resolvers[i].len != 32) {
			rc = lz_err_set(err, LZ_EINVAL, "DNS resolver '%s' is "
			    "not a single address", a);
			goto out;
		}
		for (j = 0; j < np->nresolvers; j++) {
			if (np->resolvers[j] == resolvers[i].addr)
				break;
		}
		if (j < np->nresolvers)
			continue;
		if (!lz_netpolicy_lookup(np, resolvers[i].addr, NULL)) {
			rc = lz_err_set(err, LZ_EINVAL, "DNS resolver '%s' is "
			    "denied by the egress policy", a);
			goto out;
		}
		np->resolvers[np->nresolvers++] = resolvers[i].addr;
	}
out:
	if (rc != 0)
		lz_netpolicy_release(np);
	return rc;
}

void
lz_netpolicy_format(const struct lz_netpolicy *np, struct lz_buf *out)
{
	char a[32];
	size_t i;

	lz_buf_adds(out, LZ_NETPOLICY_HEADER "\n");
	for (i = 0; i < np->nrules; i++) {
		lz_cidr_format(&np->rules[i].prefix, a, sizeof a);
		lz_buf_addf(out, "%s %s\n", np->rules[i].allow ? "allow" :
		    "deny", a);
	}
	for (i = 0; i < np->nresolvers; i++) {
		addr_format(np->resolvers[i], a, sizeof a);
		lz_buf_addf(out, "resolver %s\n", a);
	}
}

int
lz_netpolicy_parse(const char *text, size_t len, struct lz_netpolicy *np,
    struct lz_err *err)
{
	struct lz_buf line = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	struct lz_cidr c;
	const char *p, *nl, *arg;
	char a[32];
	size_t lineno = 0, i, kw;
	int rc = 0, allow;

	memset(np, 0, sizeof *np);
	if (len > LZ_NETPOLICY_MAX_TEXT)
		return lz_err_set(err, LZ_EINVAL, "policy text of %zu bytes is "
		    "longer than %d", len, LZ_NETPOLICY_MAX_TEXT);
	if (memchr(text, '\0', len) != NULL)
		return lz_err_set(err, LZ_EINVAL, "policy text contains a NUL "
		    "byte");
	np->rules = lz_xcalloc(1, sizeof *np->rules);
	np->resolvers = lz_xcalloc(1, sizeof *np->resolvers);
	np->rules_alloc = np->resolvers_alloc = 1;
	for (p = text; p < text + len; p = nl + 1) {
		lineno++;
		if ((nl = memchr(p, '\n', text + len - p)) == NULL) {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu does "
			    "not end in a newline", lineno);
			goto out;
		}
		lz_buf_reset(&line);
		lz_buf_add(&line, p, nl - p);
		if (lineno == 1) {
			if (strcmp(line.buf, LZ_NETPOLICY_HEADER) != 0) {
				rc = lz_err_set(err, LZ_EINVAL, "policy text "
				    "does not start with '%s'",
				    LZ_NETPOLICY_HEADER);
				goto out;
			}
			continue;
		}
		if (strncmp(line.buf, "allow ", 6) == 0)
			kw = 6, allow = 1;
		else if (strncmp(line.buf, "deny ", 5) == 0)
			kw = 5, allow = 0;
		else if (strncmp(line.buf, "resolver ", 9) == 0)
			kw = 9, allow = -1;
		else {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu: "
			    "unknown keyword", lineno);
			goto out;
		}
		arg = line.buf + kw;
		if (lz_cidr_parse(arg, allow < 0, &c, &sub) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu: %s",
			    lineno, sub.msg);
			goto out;
		}
		/* Only the canonical spelling: it formats back the same. */
		if (allow < 0) {
			addr_format(c.addr, a, sizeof a);
			if (c.len != 32)
				a[0] = '\0';
		} else
			lz_cidr_format(&c, a, sizeof a);
		if (strcmp(a, arg) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu: '%s' "
			    "is not in canonical form", lineno, arg);
			goto out;
		}
		if (allow >= 0) {
			if (np->nresolvers > 0) {
				rc = lz_err_set(err, LZ_EINVAL, "policy line "
				    "%zu: rule after a resolver", lineno);
				goto out;
			}
			if (np->nrules > 0 && lz_cidr_compare(
			    &np->rules[np->nrules - 1].prefix, &c) >= 0) {
				rc = lz_err_set(err, LZ_EINVAL, "policy line "
				    "%zu: rules out of order or repeated",
				    lineno);
				goto out;
			}
			if (np->nrules == LZ_NETPOLICY_MAX_RULES) {
				rc = lz_err_set(err, LZ_EINVAL, "policy line "
				    "%zu: more than %d rules", lineno,
				    LZ_NETPOLICY_MAX_RULES);
				goto out;
			}
			np->rules = lz_xgrow(np->rules, np->nrules + 1,
			    &np->rules_alloc, sizeof *np->rules);
			np->rules[np->nrules].prefix = c;
			np->rules[np->nrules++].allow = allow;
			continue;
		}
		for (i = 0; i < np->nresolvers; i++) {
			if (np->resolvers[i] == c.addr)
				break;
		}
		if (i < np->nresolvers || np->nresolvers ==
		    LZ_NETPOLICY_MAX_RESOLVERS) {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu: "
			    "resolver repeated or more than %d", lineno,
			    LZ_NETPOLICY_MAX_RESOLVERS);
			goto out;
		}
		if (!lz_netpolicy_lookup(np, c.addr, NULL)) {
			rc = lz_err_set(err, LZ_EINVAL, "policy line %zu: "
			    "resolver '%s' is denied by the rules", lineno,
			    arg);
			goto out;
		}
		np->resolvers = lz_xgrow(np->resolvers, np->nresolvers + 1,
		    &np->resolvers_alloc, sizeof *np->resolvers);
		np->resolvers[np->nresolvers++] = c.addr;
	}
	if (lineno == 0) {
		rc = lz_err_set(err, LZ_EINVAL, "policy text is empty");
		goto out;
	}
	/* Belt and braces: what was parsed formats back byte for byte. */
	lz_netpolicy_format(np, &back);
	if (back.len != len || memcmp(back.buf, text, len) != 0)
		rc = lz_err_set(err, LZ_EINVAL, "policy text is not canonical");
out:
	if (rc != 0)
		lz_netpolicy_release(np);
	lz_err_release(&sub);
	lz_buf_release(&line);
	lz_buf_release(&back);
	return rc;
}

int
lz_netpolicy_digest(const char *text, size_t len, char *out,
    struct lz_err *err)
{
	(void)err;
	lz_sha256_hex(text, len, out);
	return 0;
}

int
lz_netpolicy_lookup(const struct lz_netpolicy *np, uint32_t addr,
    size_t *rule)
{
	struct lz_cidr host;
	size_t i, best = np->nrules;

	host.addr = addr;
	host.len = 32;
	for (i = 0; i < np->nrules; i++) {
		if (!lz_cidr_contains(&np->rules[i].prefix, &host))
			continue;
		if (best == np->nrules || np->rules[i].prefix.len >
		    np->rules[best].prefix.len)
			best = i;
	}
	if (rule != NULL)
		*rule = best;
	return best < np->nrules ? np->rules[best].allow : 0;
}

int
lz_netpolicy_in_slirp(uint32_t addr)
{
	return (addr & 0xffffff00u) == LZ_NETPOLICY_SLIRP_NET;
}

/* Addresses whose route lookup says nothing about egress. */
static int
probe_ok(uint32_t addr)
{
	return (addr >> 24) != 0 && (addr >> 24) != 127 &&
	    (addr >> 29) != 7;	/* 224.0.0.0/3: multicast, reserved */
}

static void
add_probe(struct lz_netpolicy_probe **v, size_t *n, size_t *alloc,
    const struct lz_netpolicy *np, uint32_t addr, const char *why)
{
	struct lz_netpolicy_probe *p;
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*v)[i].addr == addr)
			return;
	}
	*v = lz_xgrow(*v, *n + 1, alloc, sizeof **v);
	p = &(*v)[(*n)++];
	p->addr = addr;
	p->allow = lz_netpolicy_lookup(np, addr, &p->rule);
	p->via_gateway = p->allow && !lz_netpolicy_in_slirp(addr);
	p->why = why;
}

void
lz_netpolicy_probes(const struct lz_netpolicy *np,
    struct lz_netpolicy_probe **v, size_t *n)
{
	const struct lz_cidr *c;
	uint32_t first, last, cand[6];
	size_t i, k, who, alloc = 0;

	*v = NULL;
	*n = 0;
	for (i = 0; i < np->nrules; i++) {
		c = &np->rules[i].prefix;
		first = c->addr;
		last = c->addr | (c->len == 0 ? 0xffffffffu :
		    ~(0xffffffffu << (32 - c->len)));
		cand[0] = first + 1;
		cand[1] = last - 1;
		cand[2] = first + (last - first) / 2;
		cand[3] = first + (last - first) / 4;
		cand[4] = first;
		cand[5] = last;
		for (k = 0; k < 6; k++) {
			if (cand[k] < first || cand[k] > last ||
			    !probe_ok(cand[k]))
				continue;
			(void)lz_netpolicy_lookup(np, cand[k], &who);
			if (who == i) {
				add_probe(v, n, &alloc, np, cand[k], "rule");
				break;
			}
		}
	}
	add_probe(v, n, &alloc, np, LZ_NETPOLICY_GATEWAY, "gateway");
	add_probe(v, n, &alloc, np, 0xa9fea9feu, "metadata");	/* 169.254.169.254 */
	for (i = 0; i < np->nresolvers; i++)
		add_probe(v, n, &alloc, np, np->resolvers[i], "resolver");
}

void
lz_netpolicy_release(struct lz_netpolicy *np)
{
	free(np->rules);
	free(np->resolvers);
	memset(np, 0, sizeof *np);
}

void
lz_netpolicy_attach_mac(const unsigned char *key, size_t klen,
    const char *digest, const char *domain, const char *sidecar,
    const char *sandbox, char out[65])
{
	struct lz_buf m = LZ_BUF_INIT;

	lz_buf_addf(&m, "lazaret-attach-v1\n%s\n%s\n%s\n%s\n", digest, domain,
	    sidecar, sandbox);
	lz_hmac_hex(key, klen, m.buf, m.len, out);
	lz_buf_release(&m);
}

static int
hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
lz_netpolicy_key_parse(const char *text, size_t len,
    unsigned char key[LZ_NETPOLICY_KEY_BYTES], struct lz_err *err)
{
	size_t i;
	int hi, lo;

	if (len == 2 * LZ_NETPOLICY_KEY_BYTES + 1 && text[len - 1] == '\n')
		len--;
	if (len != 2 * LZ_NETPOLICY_KEY_BYTES)
		return lz_err_set(err, LZ_EINVAL, "attachment key: %zu "
		    "characters, not %d hex digits", len,
		    2 * LZ_NETPOLICY_KEY_BYTES);
	for (i = 0; i < LZ_NETPOLICY_KEY_BYTES; i++) {
		hi = hexdigit(text[2 * i]);
		lo = hexdigit(text[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return lz_err_set(err, LZ_EINVAL, "attachment key: not "
			    "hex");
		key[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

/* 1 when p[0..n) is n lower-case hex digits. */
static int
all_hex(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (hexdigit(p[i]) < 0)
			return 0;
	}
	return 1;
}

int
lz_netpolicy_attach_format(const char *key_hex, const char *sidecar,
    const char *sandbox, struct lz_buf *out, struct lz_err *err)
{
	if (strlen(key_hex) != 2 * LZ_NETPOLICY_KEY_BYTES ||
	    !all_hex(key_hex, 2 * LZ_NETPOLICY_KEY_BYTES) ||
	    strlen(sidecar) != LZ_NETPOLICY_ID_LEN ||
	    !all_hex(sidecar, LZ_NETPOLICY_ID_LEN) ||
	    strlen(sandbox) != LZ_NETPOLICY_ID_LEN ||
	    !all_hex(sandbox, LZ_NETPOLICY_ID_LEN))
		return lz_err_set(err, LZ_EINVAL, "attachment: the key must be "
		    "%d and each component ID %d lower-case hex digits",
		    2 * LZ_NETPOLICY_KEY_BYTES, LZ_NETPOLICY_ID_LEN);
	lz_buf_addf(out, "%s\n%s %s\n", key_hex, sidecar, sandbox);
	return 0;
}

int
lz_netpolicy_attach_parse(const char *text, size_t len,
    unsigned char key[LZ_NETPOLICY_KEY_BYTES],
    char sidecar[LZ_NETPOLICY_ID_LEN + 1],
    char sandbox[LZ_NETPOLICY_ID_LEN + 1], struct lz_err *err)
{
	const size_t k = 2 * LZ_NETPOLICY_KEY_BYTES, n = LZ_NETPOLICY_ID_LEN;
	const char *ids = text + k + 1;

	if (len != k + 1 + n + 1 + n + 1 || memchr(text, '\0', len) != NULL ||
	    text[k] != '\n' || ids[n] != ' ' || ids[2 * n + 1] != '\n' ||
	    !all_hex(ids, n) || !all_hex(ids + n + 1, n))
		return lz_err_set(err, LZ_EINVAL, "attachment file: not \"KEY"
		    "\\nSIDECAR-ID SANDBOX-ID\\n\" (%zu bytes; this lazaret "
		    "and the sidecar's image must be of the same version: run "
		    "scripts/setup.sh)", len);
	if (lz_netpolicy_key_parse(text, k, key, err) != 0)
		return LZ_EINVAL;
	memcpy(sidecar, ids, n);
	sidecar[n] = '\0';
	memcpy(sandbox, ids + n + 1, n);
	sandbox[n] = '\0';
	return 0;
}
