/*
 * fingerprint.c: the canonical JSON of an Agent Profile and the SHA-256
 * Configuration Fingerprint over it (see fingerprint.h).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "core/fingerprint.h"

static int cmp_str(const void *a, const void *b);
static json_t *sorted_strings(char **v, size_t n);
static int cmp_volume(const void *a, const void *b);
static json_t *rules_json(const struct lz_profile *p);

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A JSON array of copies of v[0..n), sorted bytewise. */
static json_t *
sorted_strings(char **v, size_t n)
{
	char **copy = lz_xcalloc(n + 1, sizeof *copy);
	json_t *a = json_array();
	size_t i;

	if (n > 0)
		memcpy(copy, v, n * sizeof *v);
	qsort(copy, n, sizeof *copy, cmp_str);
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(copy[i]));
	free(copy);
	return a;
}

static int
cmp_volume(const void *a, const void *b)
{
	const struct lz_volume *va = a, *vb = b;

	return strcmp(va->container, vb->container);
}

/*
 * For "profile show --json": each rule with where it came from, the host
 * program it resolved to (null: not found) and its concerns (rules.h).
 */
static json_t *
rules_json(const struct lz_profile *p)
{
	struct lz_buf b = LZ_BUF_INIT;
	json_t *a = json_array(), *c;
	const char *s, *nl;
	size_t i;

	for (i = 0; i < p->napprove; i++) {
		const struct lz_rule *r = &p->approve[i];

		lz_buf_reset(&b);
		lz_rule_format(r, &b);
		c = json_array();
		json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:o}",
		    "rule", b.buf, "source", r->source, "program",
		    r->program ? json_string(r->program) : json_null(),
		    "concerns", c));
		lz_buf_reset(&b);
		lz_rule_concerns(r, &b);
		for (s = b.buf; (nl = strchr(s, '\n')) != NULL; s = nl + 1)
			json_array_append_new(c, json_stringn(s,
			    (size_t)(nl - s)));
	}
	lz_buf_release(&b);
	return a;
}

json_t *
lz_profile_json(const struct lz_profile *p, int sources, struct lz_err *err)
{
	struct lz_policy pol = LZ_POLICY_INIT;
	struct lz_volume *vols = NULL;
	struct lz_buf b = LZ_BUF_INIT;
	json_t *o = NULL, *a, *e;
	char **strs = NULL, pfx[32];
	size_t i;

	if (lz_profile_policy(p, &pol, err) != 0)
		return NULL;
	o = json_object();
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "image", json_string(p->image));
	a = json_array();
	for (i = 0; i < p->command.n; i++)
		json_array_append_new(a, json_string(p->command.v[i]));
	json_object_set_new(o, "command", a);
	json_object_set_new(o, "env", sorted_strings(p->env.v, p->env.n));
	json_object_set_new(o, "persist", sorted_strings(p->persist.v,
	    p->persist.n));
	json_object_set_new(o, "ignored_isolation",
	    json_boolean(p->ignored_isolation));
	json_object_set_new(o, "trust_hooks_path",
	    json_boolean(p->trust_hooks_path));
	json_object_set_new(o, "protect", sorted_strings(p->protect.v,
	    p->protect.n));
	json_object_set_new(o, "trust_git_config",
	    sorted_strings(p->trust_git_config.v, p->trust_git_config.n));
	if (sources)
		json_object_set_new(o, "protect_source",
		    json_string(p->protect_source));
	/* Host-side bookkeeping (the Git history guard): shown, never part
	 * of the fingerprint, which says what the sandbox is. */
	if (sources)
		json_object_set_new(o, "history_keep_seconds",
		    json_integer((json_int_t)p->history_keep));
	json_object_set_new(o, "escalation_timeout",
	    json_integer(p->escalation_timeout));
	json_object_set_new(o, "escalation_env",
	    sorted_strings(p->escalation_env.v, p->escalation_env.n));

	vols = lz_xcalloc(p->nvolumes + 1, sizeof *vols);
	if (p->nvolumes > 0)
		memcpy(vols, p->volumes, p->nvolumes * sizeof *vols);
	qsort(vols, p->nvolumes, sizeof *vols, cmp_volume);
	a = json_array();
	for (i = 0; i < p->nvolumes; i++) {
		e = json_pack("{s:s,s:s,s:s}", "host", vols[i].host,
		    "sandbox", vols[i].container, "mode",
		    vols[i].readonly ? "ro" : "rw");
		if (sources)
			json_object_set_new(e, "source",
			    json_string(vols[i].source));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "volumes", a);

	strs = lz_xcalloc(p->nresolvers + p->napprove + 1, sizeof *strs);
	for (i = 0; i < p->nresolvers; i++) {
		lz_cidr_format(&p->resolvers[i].addr, pfx, sizeof pfx);
		*strchr(pfx, '/') = '\0';
		strs[i] = lz_xstrdup(pfx);
	}
	json_object_set_new(o, "resolvers", sorted_strings(strs,
	    p->nresolvers));
	for (i = 0; i < p->nresolvers; i++)
		free(strs[i]);
	for (i = 0; i < p->napprove; i++) {
		lz_buf_reset(&b);
		lz_rule_format(&p->approve[i], &b);
		strs[i] = lz_xstrdup(b.buf);
	}
	json_object_set_new(o, "auto_approve", sorted_strings(strs,
	    p->napprove));
	for (i = 0; i < p->napprove; i++)
		free(strs[i]);
	if (sources)
		json_object_set_new(o, "auto_approve_rules", rules_json(p));

	a = json_array();
	for (i = 0; i < pol.n; i++) {
		lz_cidr_format(&pol.v[i].prefix, pfx, sizeof pfx);
		e = json_pack("{s:s,s:s}", "prefix", pfx, "action",
		    lz_policy_action_name(pol.v[i].action));
		if (sources)
			json_object_set_new(e, "source",
			    json_string(pol.v[i].source));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "policy", a);
	if (sources)
		json_object_set_new(o, "source", json_string(p->source));

	free(strs);
	free(vols);
	lz_buf_release(&b);
	lz_policy_release(&pol);
	return o;
}

int
lz_profile_fingerprint(const struct lz_profile *p,
    char out[LZ_FINGERPRINT_HEX + 1], struct lz_err *err)
{
	static const char tag[] = "lazaret-config-v1\n";
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hl = 0;
	json_t *o;
	char *text;
	EVP_MD_CTX *md;

	o = lz_profile_json(p, 0, err);
	if (o == NULL)
		return LZ_ECONFLICT;
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENSURE_ASCII);
	json_decref(o);
	if (text == NULL)
		LZ_BUG("cannot encode profile '%s'", p->name);
	md = EVP_MD_CTX_new();
	if (md == NULL || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestUpdate(md, tag, sizeof tag - 1) != 1 ||
	    EVP_DigestUpdate(md, text, strlen(text)) != 1 ||
	    EVP_DigestFinal_ex(md, h, &hl) != 1 || hl != 32)
		LZ_BUG("SHA-256 failed");
	EVP_MD_CTX_free(md);
	free(text);
	lz_hex(h, 32, out);
	return 0;
}
