/*
 * policy.c: building, checking and normalising the egress policy table.
 * Installing it as kernel routes is the sidecar's job (network issue).
 */
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"

static const struct {
	const char *prefix;
	enum lz_policy_action action;
	const char *why;
} builtin[] = {
	{ "0.0.0.0/0", LZ_POLICY_ALLOW, "built-in: default route" },
	{ "10.0.0.0/8", LZ_POLICY_DENY, "built-in: RFC 1918 private range" },
	{ "172.16.0.0/12", LZ_POLICY_DENY, "built-in: RFC 1918 private range" },
	{ "192.168.0.0/16", LZ_POLICY_DENY, "built-in: RFC 1918 private range" },
	{ "169.254.0.0/16", LZ_POLICY_DENY,
	    "built-in: link-local and cloud metadata" },
	{ "10.0.2.0/24", LZ_POLICY_DENY,
	    "built-in: slirp4netns network and host loopback" },
};

static int rule_compare(const void *a, const void *b);

const char *
lz_policy_action_name(enum lz_policy_action a)
{
	return a == LZ_POLICY_ALLOW ? "allow" : "deny";
}

void
lz_policy_add(struct lz_policy *p, const struct lz_cidr *prefix,
    enum lz_policy_action action, const char *source)
{
	p->v = lz_xgrow(p->v, p->n + 1, &p->alloc, sizeof *p->v);
	p->v[p->n].prefix = *prefix;
	p->v[p->n].action = action;
	p->v[p->n].source = lz_xstrdup(source);
	p->n++;
}

void
lz_policy_add_builtin(struct lz_policy *p)
{
	struct lz_cidr c;
	size_t i;

	for (i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
		if (lz_cidr_parse(builtin[i].prefix, 0, &c, NULL) != 0)
			LZ_BUG("bad built-in prefix %s", builtin[i].prefix);
		lz_policy_add(p, &c, builtin[i].action, builtin[i].why);
	}
}

int
lz_policy_check(const struct lz_policy *p, struct lz_err *err)
{
	struct lz_buf msg = LZ_BUF_INIT;
	const struct lz_policy_rule *a, *b;
	char pa[32];
	size_t i, j;
	int rc = 0;

	for (i = 0; i < p->n; i++) {
		for (j = i + 1; j < p->n; j++) {
			a = &p->v[i];
			b = &p->v[j];
			if (!lz_cidr_equal(&a->prefix, &b->prefix) ||
			    a->action == b->action)
				continue;
			lz_cidr_format(&a->prefix, pa, sizeof pa);
			if (msg.len)
				lz_buf_addch(&msg, '\n');
			lz_buf_addf(&msg, "%s: %s %s conflicts with %s %s "
			    "(%s): equal prefixes must not disagree (SR-6); "
			    "remove one, or grant a more specific prefix "
			    "inside the denied range", b->source,
			    lz_policy_action_name(b->action), pa,
			    lz_policy_action_name(a->action), pa, a->source);
			rc = LZ_ECONFLICT;
		}
	}
	if (rc != 0)
		lz_err_set(err, rc, "%s", msg.buf);
	lz_buf_release(&msg);
	return rc;
}

static int
rule_compare(const void *a, const void *b)
{
	const struct lz_policy_rule *ra = a, *rb = b;
	int c = lz_cidr_compare(&ra->prefix, &rb->prefix);

	if (c != 0)
		return c;
	return (int)ra->action - (int)rb->action;
}

void
lz_policy_normalize(struct lz_policy *p)
{
	size_t i, out = 0;

	qsort(p->v, p->n, sizeof *p->v, rule_compare);
	for (i = 0, out = 0; i < p->n; i++) {
		if (out > 0 && rule_compare(&p->v[out - 1], &p->v[i]) == 0) {
			free(p->v[i].source);
			continue;
		}
		p->v[out++] = p->v[i];
	}
	p->n = out;
}

enum lz_policy_action
lz_policy_lookup(const struct lz_policy *p, uint32_t addr,
    const struct lz_policy_rule **rule)
{
	const struct lz_policy_rule *best = NULL;
	struct lz_cidr host = { addr, 32 };
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (!lz_cidr_contains(&p->v[i].prefix, &host))
			continue;
		/* Equal length: deny wins (spec 3.5), though check refuses it. */
		if (best == NULL || p->v[i].prefix.len > best->prefix.len ||
		    (p->v[i].prefix.len == best->prefix.len &&
		    p->v[i].action == LZ_POLICY_DENY))
			best = &p->v[i];
	}
	if (rule != NULL)
		*rule = best;
	return best != NULL ? best->action : LZ_POLICY_DENY;
}

void
lz_policy_copy(struct lz_policy *dst, const struct lz_policy *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		lz_policy_add(dst, &src->v[i].prefix, src->v[i].action,
		    src->v[i].source);
}

void
lz_policy_release(struct lz_policy *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].source);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
