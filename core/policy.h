/*
 * policy.h: the egress policy table of an Agent Profile (SR-5, SR-6). It
 * holds every prefix rule with the place it came from: the built-in
 * defaults (default route allowed, RFC 1918, link-local and the slirp4netns
 * network denied), the routes that keep the selected DNS resolvers
 * reachable, and the developer's allow and deny lines. Equal-prefix rules
 * with opposite actions are a load error naming both sources, whatever
 * their origin; the kernel's longest-prefix match decides the rest.
 */
#ifndef LZ_POLICY_H
#define LZ_POLICY_H

#include <stddef.h>

#include "core/cidr.h"
#include "core/util.h"

enum lz_policy_action {
	LZ_POLICY_ALLOW,
	LZ_POLICY_DENY,
};

struct lz_policy_rule {
	struct lz_cidr prefix;
	enum lz_policy_action action;
	char *source;		/* "built-in: RFC 1918", "config.ini:12", ... */
};

struct lz_policy {
	struct lz_policy_rule *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_POLICY_INIT { NULL, 0, 0 }

void lz_policy_add(struct lz_policy *p, const struct lz_cidr *prefix,
    enum lz_policy_action action, const char *source);
/* Adds the built-in defaults described above. */
void lz_policy_add_builtin(struct lz_policy *p);
/*
 * Checks every pair for an equal-prefix conflict; each one found becomes a
 * line of err's message. Returns 0 or LZ_ECONFLICT.
 */
int lz_policy_check(const struct lz_policy *p, struct lz_err *err);
/*
 * Sorts by prefix and drops exact duplicates (same prefix and action), the
 * source kept being one of the equal ones: the effective table the sidecar
 * installs.
 */
void lz_policy_normalize(struct lz_policy *p);
/* The longest-prefix decision for an address (host byte order). */
enum lz_policy_action lz_policy_lookup(const struct lz_policy *p,
    uint32_t addr, const struct lz_policy_rule **rule);
void lz_policy_copy(struct lz_policy *dst, const struct lz_policy *src);
void lz_policy_release(struct lz_policy *p);
const char *lz_policy_action_name(enum lz_policy_action a);

#endif
