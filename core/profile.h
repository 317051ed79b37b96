/*
 * profile.h: an Agent Profile, the validated form of one "[profile NAME]"
 * section (or the built-in "default"). Every field has a built-in value, so
 * the default profile works with no config file at all. The schema, with an
 * example per key, is in docs/implementation-plan.md.
 */
#ifndef LZ_PROFILE_H
#define LZ_PROFILE_H

#include <stddef.h>

#include "core/cidr.h"
#include "core/policy.h"
#include "core/rules.h"
#include "core/tokens.h"

#define LZ_PROFILE_DEFAULT "default"
#define LZ_PROFILE_DEFAULT_IMAGE "localhost/lazaret/base:bookworm"
#define LZ_PROFILE_NAME_MAX 32
#define LZ_PROFILE_DEFAULT_TIMEOUT 300
#define LZ_PROFILE_MAX_TIMEOUT 86400
/* history-keep, seconds: 7 days by default, 1 minute to 365 days. */
#define LZ_PROFILE_DEFAULT_KEEP (7ul * 86400)
#define LZ_PROFILE_MAX_KEEP (365ul * 86400)

struct lz_volume {
	char *host;		/* absolute host path */
	char *container;	/* absolute path in the sandbox */
	int readonly;
	char *source;
};

struct lz_resolver {
	struct lz_cidr addr;	/* a /32 */
	char *source;
};

/* Which list keys the config set: they replace the built-in list. */
enum lz_profile_set {
	LZ_PROFILE_SET_COMMAND = 1 << 0,
	LZ_PROFILE_SET_PERSIST = 1 << 1,
	LZ_PROFILE_SET_RESOLVER = 1 << 2,
	LZ_PROFILE_SET_PROTECT = 1 << 3,
	LZ_PROFILE_SET_ESCALATION_ENV = 1 << 4,
};

struct lz_profile {
	char *name;
	char *source;		/* "built-in" or "config.ini:7" */
	char *image;
	struct lz_tokens command;
	struct lz_tokens env;		/* host variables passed through */
	struct lz_volume *volumes;
	size_t nvolumes, volumes_alloc;
	struct lz_tokens persist;	/* State Anchor container paths */
	int ignored_isolation;		/* FR-9: 1 unless disabled */
	int trust_hooks_path;		/* core.hooksPath inside W stays visible */
	struct lz_tokens protect;	/* host tool files (protect.h) */
	char *protect_source;		/* "built-in" or "config.ini:7" */
	struct lz_tokens trust_git_config; /* Git config in W, writable */
	struct lz_policy rules;		/* the developer's allow/deny lines */
	struct lz_resolver *resolvers;
	size_t nresolvers, resolvers_alloc;
	unsigned escalation_timeout;	/* seconds */
	/* Seconds the Git history guard keeps what the repository dropped
	 * (history.h); host-side only, not in the fingerprint. */
	unsigned long history_keep;
	/* Host variables a host command gets (names; values come from the
	 * approving client, or the coordinator's start for rules). */
	struct lz_tokens escalation_env;
	struct lz_rule *approve;
	size_t napprove, approve_alloc;
	int set;			/* enum lz_profile_set */
	unsigned long seen;		/* config keys given (config.c's index) */
};

/* Fills p with the built-in defaults under the given name. */
void lz_profile_init(struct lz_profile *p, const char *name,
    const char *source);
void lz_profile_release(struct lz_profile *p);
/* 1 when name is a valid profile name: [a-z0-9][a-z0-9_-]{0,31}. */
int lz_profile_name_valid(const char *name);
/*
 * The effective egress table: built-in defaults, one allow /32 per resolver
 * and the developer's rules, checked for equal-prefix conflicts (SR-6) and
 * normalised. On failure err lists every conflict and out is empty.
 */
int lz_profile_policy(const struct lz_profile *p, struct lz_policy *out,
    struct lz_err *err);

#endif
