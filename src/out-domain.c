/*
 * out-domain.c: printing a resolved Domain: identity, storage, runtime
 * directory, fingerprint and effective policy.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "src/out-domain.h"
#include "src/out-profile.h"

const char *
lz_out_domain_state(const struct lz_client *c)
{
	struct stat st;
	char *sock = lz_xasprintf("%s/control.sock", c->domain.runtime);
	int up = lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode);

	free(sock);
	return up ? "running" : "absent";
}

void
lz_out_domain(FILE *f, const struct lz_client *c)
{
	fprintf(f, "domain %s\n", c->domain.id);
	fprintf(f, "  profile             %s\n", c->domain.profile);
	fprintf(f, "  workspace           %s\n", c->domain.workspace);
	fprintf(f, "  domain root         %s\n", c->domain.root);
	fprintf(f, "  runtime dir         %s\n", c->domain.runtime);
	fprintf(f, "  config              %s\n", c->cfg.path ? c->cfg.path :
	    "(none: built-in defaults)");
	fprintf(f, "  fingerprint         %s\n", c->fingerprint);
	fprintf(f, "  state               %s\n", lz_out_domain_state(c));
	fprintf(f, "egress policy (longest prefix wins):\n");
	lz_out_policy(f, c->profile);
}

json_t *
lz_out_domain_json(const struct lz_client *c)
{
	json_t *o, *prof;

	prof = lz_profile_json(c->profile, 1, NULL);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s?,s:s,s:s,s:O}",
	    "domain_id", c->domain.id, "profile", c->domain.profile,
	    "workspace", c->domain.workspace, "domain_root", c->domain.root,
	    "runtime_dir", c->domain.runtime, "config", c->cfg.path,
	    "fingerprint", c->fingerprint, "state", lz_out_domain_state(c),
	    "policy", json_object_get(prof, "policy"));
	json_decref(prof);
	return o;
}
