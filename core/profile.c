/*
 * profile.c: built-in defaults and the derived egress table of an Agent
 * Profile. Parsing a profile from the config file is in config.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hostcmd.h"
#include "core/profile.h"
#include "core/protect.h"

/* State Anchors of the default profile: where apt, pip and friends write. */
static const char *const default_persist[] = {
	"/etc", "/opt", "/root", "/usr", "/var",
};

/* slirp4netns's DNS forwarder, which relays to the host's resolver. */
#define DEFAULT_RESOLVER "10.0.2.3"

void
lz_profile_init(struct lz_profile *p, const char *name, const char *source)
{
	struct lz_cidr r;
	size_t i;

	memset(p, 0, sizeof *p);
	p->name = lz_xstrdup(name);
	p->source = lz_xstrdup(source);
	p->image = lz_xstrdup(LZ_PROFILE_DEFAULT_IMAGE);
	lz_tokens_push(&p->command, "/bin/bash");
	lz_tokens_push(&p->command, "-l");
	for (i = 0; i < sizeof default_persist / sizeof *default_persist; i++)
		lz_tokens_push(&p->persist, default_persist[i]);
	p->ignored_isolation = 1;
	lz_protect_defaults(&p->protect);
	p->protect_source = lz_xstrdup("built-in");
	if (lz_cidr_parse(DEFAULT_RESOLVER, 1, &r, NULL) != 0)
		LZ_BUG("bad default resolver");
	p->resolvers = lz_xcalloc(1, sizeof *p->resolvers);
	p->resolvers_alloc = 1;
	p->resolvers[0].addr = r;
	p->resolvers[0].source = lz_xstrdup("built-in: slirp4netns DNS");
	p->nresolvers = 1;
	p->escalation_timeout = LZ_PROFILE_DEFAULT_TIMEOUT;
	p->history_keep = LZ_PROFILE_DEFAULT_KEEP;
	if (lz_tokens_split(LZ_HOSTCMD_ENV_DEFAULT, &p->escalation_env,
	    NULL) != 0)
		LZ_BUG("bad default escalation-env");
}

void
lz_profile_release(struct lz_profile *p)
{
	size_t i;

	free(p->name);
	free(p->source);
	free(p->image);
	lz_tokens_release(&p->command);
	lz_tokens_release(&p->env);
	for (i = 0; i < p->nvolumes; i++) {
		free(p->volumes[i].host);
		free(p->volumes[i].container);
		free(p->volumes[i].source);
	}
	free(p->volumes);
	lz_tokens_release(&p->persist);
	lz_tokens_release(&p->protect);
	free(p->protect_source);
	lz_tokens_release(&p->trust_git_config);
	lz_tokens_release(&p->escalation_env);
	lz_policy_release(&p->rules);
	for (i = 0; i < p->nresolvers; i++)
		free(p->resolvers[i].source);
	free(p->resolvers);
	for (i = 0; i < p->napprove; i++)
		lz_rule_release(&p->approve[i]);
	free(p->approve);
	memset(p, 0, sizeof *p);
}

int
lz_profile_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > LZ_PROFILE_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		if (i > 0 && (c == '-' || c == '_'))
			continue;
		return 0;
	}
	return 1;
}

int
lz_profile_policy(const struct lz_profile *p, struct lz_policy *out,
    struct lz_err *err)
{
	struct lz_buf src = LZ_BUF_INIT;
	char a[32];
	size_t i;
	int rc;

	lz_policy_add_builtin(out);
	for (i = 0; i < p->nresolvers; i++) {
		lz_cidr_format(&p->resolvers[i].addr, a, sizeof a);
		lz_buf_reset(&src);
		lz_buf_addf(&src, "%s: route to DNS resolver",
		    p->resolvers[i].source);
		lz_policy_add(out, &p->resolvers[i].addr, LZ_POLICY_ALLOW,
		    src.buf);
	}
	lz_buf_release(&src);
	lz_policy_copy(out, &p->rules);
	rc = lz_policy_check(out, err);
	if (rc != 0) {
		lz_policy_release(out);
		return rc;
	}
	lz_policy_normalize(out);
	return 0;
}
