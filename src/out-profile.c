/*
 * out-profile.c: the human form of a profile and its policy table. The
 * machine form is core/fingerprint.c's canonical JSON with sources.
 */
#include <stdio.h>
#include <string.h>

#include "core/tokens.h"
#include "src/out-profile.h"

void
lz_out_policy(FILE *f, const struct lz_profile *p)
{
	struct lz_policy pol = LZ_POLICY_INIT;
	char pfx[32];
	size_t i;

	if (lz_profile_policy(p, &pol, NULL) != 0) {
		fprintf(f, "  (policy has conflicts; see the config errors)\n");
		return;
	}
	for (i = 0; i < pol.n; i++) {
		lz_cidr_format(&pol.v[i].prefix, pfx, sizeof pfx);
		fprintf(f, "  %-5s %-18s  %s\n",
		    lz_policy_action_name(pol.v[i].action), pfx,
		    pol.v[i].source);
	}
	fprintf(f, "  IPv6 is disabled in the sandbox network (SR-6)\n");
	lz_policy_release(&pol);
}

/*
 * A rule, the host program it matches, and a "!" line per concern
 * (rules.h): trailing arguments, a program that runs code it is given.
 */
static void
out_rule(FILE *f, const struct lz_rule *r)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *s, *nl;

	lz_rule_format(r, &b);
	fprintf(f, "  auto-approve        %s  %s\n", b.buf, r->source);
	fprintf(f, "                        program %s\n", r->program ?
	    r->program : "(not found in PATH: matches nothing)");
	lz_buf_reset(&b);
	lz_rule_concerns(r, &b);
	for (s = b.buf; (nl = strchr(s, '\n')) != NULL; s = nl + 1)
		fprintf(f, "                        ! %.*s\n", (int)(nl - s), s);
	lz_buf_release(&b);
}

void
lz_out_profile(FILE *f, const struct lz_profile *p)
{
	struct lz_buf b = LZ_BUF_INIT;
	char pfx[32], keep[32];
	size_t i;

	fprintf(f, "profile %s (%s)\n", p->name, p->source);
	fprintf(f, "  image               %s\n", p->image);
	lz_tokens_join(&b, &p->command);
	fprintf(f, "  command             %s\n", b.buf);
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->env);
	fprintf(f, "  env                 %s\n", b.len ? b.buf : "(none)");
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->persist);
	fprintf(f, "  persist             %s\n", b.len ? b.buf : "(none)");
	fprintf(f, "  ignored-isolation   %s\n",
	    p->ignored_isolation ? "on" : "off (FR-9: ignored paths are "
	    "shared with the host)");
	fprintf(f, "  escalation-timeout  %us\n", p->escalation_timeout);
	lz_out_keep(p->history_keep, keep, sizeof keep);
	fprintf(f, "  history-keep        %s\n", keep);
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->protect);
	fprintf(f, "  protect             %s  (%s)\n", b.len ? b.buf : "none",
	    p->protect_source);
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->trust_git_config);
	fprintf(f, "  trust-git-config    %s\n", b.len ? b.buf : "(none)");
	fprintf(f, "  trust-hooks-path    %s\n", p->trust_hooks_path ? "yes" :
	    "no");
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->escalation_env);
	fprintf(f, "  escalation-env      %s\n", b.len ? b.buf : "(none)");
	for (i = 0; i < p->nvolumes; i++) {
		fprintf(f, "  volume              %s -> %s (%s)  %s\n",
		    p->volumes[i].host, p->volumes[i].container,
		    p->volumes[i].readonly ? "ro" : "rw",
		    p->volumes[i].source);
	}
	for (i = 0; i < p->nresolvers; i++) {
		lz_cidr_format(&p->resolvers[i].addr, pfx, sizeof pfx);
		fprintf(f, "  resolver            %s  %s\n", pfx,
		    p->resolvers[i].source);
	}
	for (i = 0; i < p->napprove; i++)
		out_rule(f, &p->approve[i]);
	if (p->napprove == 0)
		fprintf(f, "  auto-approve        (none: every host command "
		    "asks you)\n");
	fprintf(f, "egress policy (longest prefix wins):\n");
	lz_out_policy(f, p);
	lz_buf_release(&b);
}

void
lz_out_keep(unsigned long seconds, char *buf, size_t size)
{
	if (seconds % 86400 == 0)
		snprintf(buf, size, "%lud", seconds / 86400);
	else if (seconds % 3600 == 0)
		snprintf(buf, size, "%luh", seconds / 3600);
	else
		snprintf(buf, size, "%lum", seconds / 60);
}
