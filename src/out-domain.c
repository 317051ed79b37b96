/*
 * out-domain.c: printing a resolved Domain: identity, storage, runtime
 * directory, fingerprint and effective policy.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/gsreport.h"
#include "core/ignored.h"
#include "src/out-domain.h"
#include "src/out-profile.h"

/* Git-ignored paths: what is isolated (SR-13) and what is not covered. */
static void
print_ignored(FILE *f, const struct lz_client *c)
{
	struct lz_ignored ig;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	size_t i;

	if (!c->profile->ignored_isolation) {
		fprintf(f, "  ignored paths       shared with the host "
		    "(ignored-isolation = off, FR-9)\n");
		return;
	}
	memset(&ig, 0, sizeof ig);
	if (lz_ignored_scan(c->domain.workspace, &ig, &err) != 0) {
		fprintf(f, "  ignored paths       cannot scan: %s\n", err.msg);
		lz_err_release(&err);
		return;
	}
	for (i = 0; i < ig.paths.n; i++)
		lz_buf_addf(&b, "%s%s", i ? ", " : "", ig.paths.v[i]);
	fprintf(f, "  ignored, isolated   %s\n", b.len ? b.buf : "(none)");
	for (i = 0; i < ig.uncovered.n; i++)
		fprintf(f, "  ignored, uncovered  %s (a pattern: files it "
		    "matches later are shared with the host)\n",
		    ig.uncovered.v[i]);
	lz_buf_release(&b);
	lz_ignored_release(&ig);
}

static void print_ignored(FILE *f, const struct lz_client *c);
static void sentry_record(const struct lz_client *c, struct lz_tokens *lines);
static void print_sentry(FILE *f, const struct lz_client *c);

/* The lines of Git Sentry's record of the last run (gsreport.h). */
static void
sentry_record(const struct lz_client *c, struct lz_tokens *lines)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *line, *save = NULL;

	lz_gsreport_read(c->domain.root, &b);
	for (line = b.len ? strtok_r(b.buf, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save))
		lz_tokens_push(lines, line);
	lz_buf_release(&b);
}

/* Git Sentry's settings (SR-4) and its record of the last run. */
static void
print_sentry(FILE *f, const struct lz_client *c)
{
	const struct lz_profile *p = c->profile;
	struct lz_tokens lines = LZ_TOKENS_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;

	lz_tokens_join(&b, &p->protect);
	fprintf(f, "  protect (SR-4)      %s  (%s)\n", b.len ? b.buf :
	    "none: no editor or tool file is protected", p->protect_source);
	lz_buf_reset(&b);
	lz_tokens_join(&b, &p->trust_git_config);
	fprintf(f, "  trust-git-config    %s\n", b.len ? b.buf : "(none)");
	sentry_record(c, &lines);
	for (i = 0; i < lines.n; i++)
		fprintf(f, "  git sentry record   %s\n", lines.v[i]);
	lz_tokens_release(&lines);
	lz_buf_release(&b);
}

const char *
lz_out_domain_state(const struct lz_client *c)
{
	struct stat st;
	char *sock = lz_xasprintf("%s/control.sock", c->domain.runtime);
	int up = lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode);

	free(sock);
	return up ? "running" : "absent";
}

/* The running Domain's Trust Anchor and identities (SR-9). */
static void
print_trust(FILE *f, const struct lz_msg_trusted *t)
{
	char when[32];
	time_t na;
	struct tm tm;
	size_t i;

	fprintf(f, "  trust anchor        %s\n", t->anchor);
	for (i = 0; i < t->n; i++) {
		if (t->v[i].fingerprint[0] == '\0') {
			fprintf(f, "  identity            %-11s %s (attachment "
			    "key)\n", t->v[i].role, t->v[i].component);
			continue;
		}
		na = (time_t)t->v[i].not_after;
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", gmtime_r(&na,
		    &tm));
		fprintf(f, "  identity            %-11s %s serial %.12s "
		    "until %s UTC sha256 %s\n", t->v[i].role,
		    t->v[i].component, t->v[i].serial, when,
		    t->v[i].fingerprint);
	}
}

void
lz_out_domain(FILE *f, const struct lz_client *c,
    const struct lz_msg_trusted *trust)
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
	if (trust != NULL)
		print_trust(f, trust);
	print_ignored(f, c);
	print_sentry(f, c);
	fprintf(f, "egress policy (longest prefix wins):\n");
	lz_out_policy(f, c->profile);
}

json_t *
lz_out_domain_json(const struct lz_client *c,
    const struct lz_msg_trusted *trust)
{
	json_t *o, *prof, *ids, *e;
	size_t i;

	prof = lz_profile_json(c->profile, 1, NULL);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s?,s:s,s:s,s:O}",
	    "domain_id", c->domain.id, "profile", c->domain.profile,
	    "workspace", c->domain.workspace, "domain_root", c->domain.root,
	    "runtime_dir", c->domain.runtime, "config", c->cfg.path,
	    "fingerprint", c->fingerprint, "state", lz_out_domain_state(c),
	    "policy", json_object_get(prof, "policy"));
	json_object_set(o, "protect", json_object_get(prof, "protect"));
	json_object_set(o, "protect_source", json_object_get(prof,
	    "protect_source"));
	json_object_set(o, "trust_git_config", json_object_get(prof,
	    "trust_git_config"));
	json_decref(prof);
	if (trust != NULL) {
		ids = json_array();
		for (i = 0; i < trust->n; i++) {
			e = json_pack("{s:s,s:s}", "role", trust->v[i].role,
			    "component", trust->v[i].component);
			if (trust->v[i].fingerprint[0] != '\0')
				json_object_update_new(e, json_pack("{s:s,s:I,"
				    "s:s}", "serial", trust->v[i].serial,
				    "not_after",
				    (json_int_t)trust->v[i].not_after,
				    "fingerprint", trust->v[i].fingerprint));
			json_array_append_new(ids, e);
		}
		json_object_set_new(o, "trust", json_pack("{s:s,s:o}",
		    "anchor", trust->anchor, "identities", ids));
	}
	{
		struct lz_tokens lines = LZ_TOKENS_INIT;
		json_t *a = json_array();

		sentry_record(c, &lines);
		for (i = 0; i < lines.n; i++)
			json_array_append_new(a, json_string(lines.v[i]));
		json_object_set_new(o, "git_sentry_record", a);
		lz_tokens_release(&lines);
	}
	if (c->profile->ignored_isolation) {
		struct lz_ignored ig;
		json_t *a, *u;

		memset(&ig, 0, sizeof ig);
		if (lz_ignored_scan(c->domain.workspace, &ig, NULL) == 0) {
			a = json_array();
			u = json_array();
			for (i = 0; i < ig.paths.n; i++)
				json_array_append_new(a,
				    json_string(ig.paths.v[i]));
			for (i = 0; i < ig.uncovered.n; i++)
				json_array_append_new(u,
				    json_string(ig.uncovered.v[i]));
			json_object_set_new(o, "ignored_isolated", a);
			json_object_set_new(o, "ignored_uncovered", u);
		}
		lz_ignored_release(&ig);
	}
	return o;
}
