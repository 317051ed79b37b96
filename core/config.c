/*
 * config.c: reading config.ini into validated Agent Profiles. Every key of
 * the schema has one setter below; the schema itself is documented in
 * docs/implementation-plan.md. Checks that need the workspace (SR-2: the
 * file beneath a mounted path) are in domain.c, which knows the workspace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/ini.h"
#include "core/pathcheck.h"
#include "core/protect.h"

struct load {
	struct lz_config *cfg;
	const char *name;
	struct lz_profile *cur;		/* profile of the current section */
	int in_global;			/* in [lazaret] */
	int in_tui;			/* in [tui] */
	int bad_section;		/* current section was refused */
	int repeat;			/* a profile's section seen again */
	unsigned default_line;
};

typedef int (*setter)(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err);

static int set_image(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_command(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_env(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_volume(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_persist(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_isolation(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_trust_hooks(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_protect(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_trust_config(struct load *, struct lz_profile *,
    const char *, const char *, struct lz_err *);
static int set_allow(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_deny(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_resolver(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_timeout(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_approve(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_keep(struct load *, struct lz_profile *, const char *,
    const char *, struct lz_err *);
static int set_escalation_env(struct load *, struct lz_profile *,
    const char *, const char *, struct lz_err *);
static int env_name_ok(const char *v);

static const struct {
	const char *key;
	setter set;
	int list;		/* may be repeated */
} profile_keys[] = {
	{ "allow", set_allow, 1 },
	{ "auto-approve", set_approve, 1 },
	{ "command", set_command, 0 },
	{ "deny", set_deny, 1 },
	{ "env", set_env, 1 },
	{ "escalation-env", set_escalation_env, 1 },
	{ "escalation-timeout", set_timeout, 0 },
	{ "history-keep", set_keep, 0 },
	{ "ignored-isolation", set_isolation, 0 },
	{ "image", set_image, 0 },
	{ "persist", set_persist, 1 },
	{ "protect", set_protect, 1 },
	{ "resolver", set_resolver, 1 },
	{ "trust-git-config", set_trust_config, 1 },
	{ "trust-hooks-path", set_trust_hooks, 0 },
	{ "volume", set_volume, 1 },
};
#define NKEYS (sizeof profile_keys / sizeof profile_keys[0])

static int on_entry(void *ctx, const char *section, const char *key,
    const char *value, unsigned line, struct lz_err *err);
static int on_section(struct load *l, const char *section,
    const char *src, struct lz_err *err);
static int validate(struct lz_config *cfg, const char *name,
    struct lz_err *err);
static struct lz_profile *add_profile(struct lz_config *cfg,
    const char *name, const char *source);
static void builtins(struct lz_config *cfg);

static struct lz_profile *
add_profile(struct lz_config *cfg, const char *name, const char *source)
{
	struct lz_profile *p;

	cfg->profiles = lz_xgrow(cfg->profiles, cfg->nprofiles + 1,
	    &cfg->profiles_alloc, sizeof *cfg->profiles);
	p = &cfg->profiles[cfg->nprofiles++];
	lz_profile_init(p, name, source);
	return p;
}

static void
builtins(struct lz_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	lz_buf_init(&cfg->warnings);
	cfg->default_profile = lz_xstrdup(LZ_PROFILE_DEFAULT);
	lz_tui_conf_default(&cfg->tui);
	add_profile(cfg, LZ_PROFILE_DEFAULT, "built-in");
}

const struct lz_profile *
lz_config_profile(const struct lz_config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nprofiles; i++) {
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return &cfg->profiles[i];
	}
	return NULL;
}

void
lz_config_release(struct lz_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nprofiles; i++)
		lz_profile_release(&cfg->profiles[i]);
	free(cfg->profiles);
	free(cfg->path);
	free(cfg->named);
	free(cfg->default_profile);
	lz_tui_conf_release(&cfg->tui);
	lz_buf_release(&cfg->warnings);
	memset(cfg, 0, sizeof *cfg);
}

static int
set_image(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	size_t i;

	(void)l; (void)src;
	if (*v == '\0')
		return lz_err_set(err, LZ_EINVAL, "image is empty (the "
		    "default is %s)", LZ_PROFILE_DEFAULT_IMAGE);
	for (i = 0; v[i] != '\0'; i++) {
		if ((unsigned char)v[i] <= ' ' || v[i] == '%')
			return lz_err_set(err, LZ_EINVAL, "image '%s' has a "
			    "space or control character; name a local image "
			    "such as %s", v, LZ_PROFILE_DEFAULT_IMAGE);
	}
	if (v[0] == '-')
		return lz_err_set(err, LZ_EINVAL, "image '%s' starts with "
		    "'-' and would read as an option", v);
	free(p->image);
	p->image = lz_xstrdup(v);
	return 0;
}

static int
set_command(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	int rc;

	(void)l; (void)src;
	rc = lz_tokens_split(v, &t, err);
	if (rc != 0)
		return rc;
	if (t.n == 0) {
		lz_tokens_release(&t);
		return lz_err_set(err, LZ_EINVAL, "command is empty (e.g. "
		    "'command = /bin/bash -l')");
	}
	lz_tokens_release(&p->command);
	p->command = t;
	p->set |= LZ_PROFILE_SET_COMMAND;
	return 0;
}

/* A variable name: a letter or '_', then letters, digits and '_'. */
static int
env_name_ok(const char *v)
{
	size_t i;

	for (i = 0; v[i] != '\0'; i++) {
		if (!((v[i] >= 'A' && v[i] <= 'Z') ||
		    (v[i] >= 'a' && v[i] <= 'z') || v[i] == '_' ||
		    (i > 0 && v[i] >= '0' && v[i] <= '9')))
			return 0;
	}
	return i > 0;
}

static int
set_env(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	size_t i;

	(void)l; (void)src;
	if (!env_name_ok(v))
		return lz_err_set(err, LZ_EINVAL, "env '%s' is not a "
		    "variable name; give one name per line, e.g. 'env = "
		    "ANTHROPIC_API_KEY' (its value is taken from the host "
		    "at launch)", v);
	for (i = 0; i < p->env.n; i++) {
		if (strcmp(p->env.v[i], v) == 0)
			return lz_err_set(err, LZ_EINVAL, "env '%s' is listed "
			    "twice", v);
	}
	lz_tokens_push(&p->env, v);
	return 0;
}

static int
set_volume(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_volume *vol;
	int rc, ro = 0;

	(void)l;
	rc = lz_tokens_split(v, &t, err);
	if (rc != 0)
		return rc;
	if (t.n == 3 && strcmp(t.v[2], "ro") == 0)
		ro = 1;
	else if (t.n == 3 && strcmp(t.v[2], "rw") == 0)
		ro = 0;
	else if (t.n != 2) {
		rc = lz_err_set(err, LZ_EINVAL, "volume must be 'HOST-PATH "
		    "SANDBOX-PATH [ro|rw]' (write a space inside a path as "
		    "%%20)");
		goto out;
	}
	rc = lz_pathcheck_host(t.v[0], err);
	if (rc == 0)
		rc = lz_pathcheck_sandbox(t.v[1], "volume", err);
	if (rc != 0)
		goto out;
	p->volumes = lz_xgrow(p->volumes, p->nvolumes + 1, &p->volumes_alloc,
	    sizeof *p->volumes);
	vol = &p->volumes[p->nvolumes++];
	vol->host = lz_xstrdup(t.v[0]);
	vol->container = lz_xstrdup(t.v[1]);
	vol->readonly = ro;
	vol->source = lz_xstrdup(src);
out:
	lz_tokens_release(&t);
	return rc;
}

static int
set_persist(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	int rc;

	(void)l; (void)src;
	rc = lz_pathcheck_sandbox(v, "persist", err);
	if (rc != 0)
		return rc;
	if (!(p->set & LZ_PROFILE_SET_PERSIST)) {
		lz_tokens_release(&p->persist);
		p->set |= LZ_PROFILE_SET_PERSIST;
	}
	lz_tokens_push(&p->persist, v);
	return 0;
}

static int
set_isolation(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	(void)l; (void)src;
	if (strcmp(v, "on") == 0)
		p->ignored_isolation = 1;
	else if (strcmp(v, "off") == 0)
		p->ignored_isolation = 0;
	else
		return lz_err_set(err, LZ_EINVAL, "ignored-isolation must be "
		    "'on' (Git-ignored paths are the sandbox's own, the "
		    "default) or 'off' (FR-9), not '%s'", v);
	return 0;
}

static int
set_trust_hooks(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	(void)l; (void)src;
	if (strcmp(v, "yes") == 0)
		p->trust_hooks_path = 1;
	else if (strcmp(v, "no") == 0)
		p->trust_hooks_path = 0;
	else
		return lz_err_set(err, LZ_EINVAL, "trust-hooks-path must be "
		    "'no' (hooks under a core.hooksPath inside the workspace "
		    "are hidden from the sandbox, the default) or 'yes', not "
		    "'%s'", v);
	return 0;
}

/*
 * "protect = PATTERN..." (several per line, repeatable): the first line
 * replaces the built-in list; "none" alone empties it.
 */
static int
set_protect(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	size_t i;
	int rc, none;

	(void)l;
	if ((rc = lz_tokens_split(v, &t, err)) != 0)
		return rc;
	none = lz_tokens_has(&t, "none");
	if (t.n == 0 || (none && t.n > 1))
		rc = lz_err_set(err, LZ_EINVAL, "protect needs workspace "
		    "paths (e.g. 'protect = .vscode/tasks.json "
		    ".idea/runConfigurations/*.xml'), or 'none' alone to "
		    "protect no editor or tool file");
	else if ((p->set & LZ_PROFILE_SET_PROTECT) && (none ||
	    p->protect.n == 0))
		rc = lz_err_set(err, LZ_EINVAL, "protect = none cannot be "
		    "combined with other protect lines");
	for (i = 0; i < t.n && !none && rc == 0; i++)
		rc = lz_protect_pattern_valid(t.v[i], 1, "protect", err);
	if (rc == 0 && !(p->set & LZ_PROFILE_SET_PROTECT)) {
		lz_tokens_release(&p->protect);
		free(p->protect_source);
		p->protect_source = lz_xstrdup(src);
		p->set |= LZ_PROFILE_SET_PROTECT;
	}
	for (i = 0; i < t.n && !none && rc == 0; i++) {
		if (!lz_tokens_has(&p->protect, t.v[i]))
			lz_tokens_push(&p->protect, t.v[i]);
	}
	lz_tokens_release(&t);
	return rc;
}

static int
set_trust_config(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	int rc;

	(void)l; (void)src;
	if ((rc = lz_protect_pattern_valid(v, 0, "trust-git-config",
	    err)) != 0)
		return rc;
	if (!lz_tokens_has(&p->trust_git_config, v))
		lz_tokens_push(&p->trust_git_config, v);
	return 0;
}

static int
add_rule(struct lz_profile *p, const char *v, enum lz_policy_action a,
    const char *src, struct lz_err *err)
{
	struct lz_cidr c;
	int rc;

	rc = lz_cidr_parse(v, 0, &c, err);
	if (rc != 0)
		return rc;
	lz_policy_add(&p->rules, &c, a, src);
	return 0;
}

static int
set_allow(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	(void)l;
	return add_rule(p, v, LZ_POLICY_ALLOW, src, err);
}

static int
set_deny(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	(void)l;
	return add_rule(p, v, LZ_POLICY_DENY, src, err);
}

static int
set_resolver(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_cidr c;
	size_t i;
	int rc;

	(void)l;
	rc = lz_cidr_parse(v, 1, &c, err);
	if (rc != 0)
		return rc;
	if (c.len != 32)
		return lz_err_set(err, LZ_EINVAL, "resolver '%s' must be one "
		    "address, not a prefix", v);
	if (!(p->set & LZ_PROFILE_SET_RESOLVER)) {
		for (i = 0; i < p->nresolvers; i++)
			free(p->resolvers[i].source);
		p->nresolvers = 0;
		p->set |= LZ_PROFILE_SET_RESOLVER;
	}
	p->resolvers = lz_xgrow(p->resolvers, p->nresolvers + 1,
	    &p->resolvers_alloc, sizeof *p->resolvers);
	p->resolvers[p->nresolvers].addr = c;
	p->resolvers[p->nresolvers].source = lz_xstrdup(src);
	p->nresolvers++;
	return 0;
}

static int
set_timeout(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	unsigned long n;
	char *end;

	(void)l; (void)src;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 ||
	    n < 1 || n > LZ_PROFILE_MAX_TIMEOUT)
		return lz_err_set(err, LZ_EINVAL, "escalation-timeout must be "
		    "a number of seconds from 1 to %d, not '%s'",
		    LZ_PROFILE_MAX_TIMEOUT, v);
	p->escalation_timeout = (unsigned)n;
	return 0;
}

/*
 * history-keep = 7d: how long the Git history guard keeps objects the
 * repository dropped; a number and a unit (d, h or m), 1m to 365d.
 */
static int
set_keep(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	unsigned long n, unit = 0;
	char *end;

	(void)l; (void)src;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (end[0] != '\0' && end[1] == '\0')
		unit = end[0] == 'd' ? 86400 : end[0] == 'h' ? 3600 :
		    end[0] == 'm' ? 60 : 0;
	if (v[0] < '0' || v[0] > '9' || errno != 0 || unit == 0 ||
	    n > LZ_PROFILE_MAX_KEEP / unit || n * unit < 60)
		return lz_err_set(err, LZ_EINVAL, "history-keep must be a "
		    "number of days, hours or minutes from 1m to 365d, like "
		    "'history-keep = 7d', not '%s'", v);
	p->history_keep = n * unit;
	return 0;
}

static int
set_approve(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_rule r;
	int rc;

	(void)l;
	rc = lz_rule_parse(v, src, &r, err);
	if (rc != 0)
		return rc;
	p->approve = lz_xgrow(p->approve, p->napprove + 1, &p->approve_alloc,
	    sizeof *p->approve);
	p->approve[p->napprove++] = r;
	return 0;
}

/*
 * escalation-env = NAME..., repeatable: the first line replaces the
 * built-in list (an empty value leaves none).
 */
static int
set_escalation_env(struct load *l, struct lz_profile *p, const char *v,
    const char *src, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	size_t i;
	int rc;

	(void)l; (void)src;
	rc = lz_tokens_split(v, &t, err);
	for (i = 0; rc == 0 && i < t.n; i++)
		if (!env_name_ok(t.v[i]))
			rc = lz_err_set(err, LZ_EINVAL, "escalation-env '%s' is "
			    "not a variable name; list host variables a host "
			    "command gets, e.g. 'escalation-env = HOME PATH "
			    "SSH_AUTH_SOCK'", t.v[i]);
	if (rc == 0 && !(p->set & LZ_PROFILE_SET_ESCALATION_ENV)) {
		lz_tokens_release(&p->escalation_env);
		p->set |= LZ_PROFILE_SET_ESCALATION_ENV;
	}
	for (i = 0; rc == 0 && i < t.n; i++)
		if (!lz_tokens_has(&p->escalation_env, t.v[i]))
			lz_tokens_push(&p->escalation_env, t.v[i]);
	lz_tokens_release(&t);
	return rc;
}

static int
on_section(struct load *l, const char *section, const char *src,
    struct lz_err *err)
{
	const char *name;
	size_t i;

	l->cur = NULL;
	l->in_global = 0;
	l->in_tui = 0;
	l->repeat = 0;
	l->bad_section = 1;
	if (strcmp(section, "lazaret") == 0 || strcmp(section, "tui") == 0) {
		l->in_global = section[0] == 'l';
		l->in_tui = section[0] == 't';
		l->bad_section = 0;
		return 0;
	}
	if (strncmp(section, "profile ", 8) != 0)
		return lz_err_set(err, LZ_EINVAL, "unknown section '[%s]' "
		    "(expected '[lazaret]', '[tui]' or '[profile NAME]')",
		    section);
	name = section + 8;
	if (!lz_profile_name_valid(name))
		return lz_err_set(err, LZ_EINVAL, "profile name '%s' is not "
		    "valid: use 1 to %d of a-z, 0-9, '-' and '_', starting "
		    "with a letter or digit", name, LZ_PROFILE_NAME_MAX);
	/*
	 * A profile's section seen again may only add auto-approve lines:
	 * that is what a rule saved from a prompt appends (rulesave.h).
	 */
	for (i = 0; i < l->cfg->nprofiles; i++) {
		if (strcmp(l->cfg->profiles[i].name, name) == 0 &&
		    strcmp(l->cfg->profiles[i].source, "built-in") != 0) {
			l->cur = &l->cfg->profiles[i];
			l->repeat = 1;
			l->bad_section = 0;
			return 0;
		}
	}
	if (strcmp(name, LZ_PROFILE_DEFAULT) == 0) {
		l->cur = &l->cfg->profiles[0];
		free(l->cur->source);
		l->cur->source = lz_xstrdup(src);
	} else
		l->cur = add_profile(l->cfg, name, src);
	l->bad_section = 0;
	return 0;
}

static int
on_entry(void *ctx, const char *section, const char *key, const char *value,
    unsigned line, struct lz_err *err)
{
	struct load *l = ctx;
	struct lz_buf src = LZ_BUF_INIT;
	size_t i;
	int rc = 0;

	lz_buf_addf(&src, "%s:%u", l->name, line);
	if (key == NULL) {
		rc = on_section(l, section, src.buf, err);
		goto out;
	}
	if (l->bad_section)
		goto out;	/* the header's error says it all */
	if (*section == '\0') {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is outside any section; "
		    "put it under '[profile NAME]'", key);
		goto out;
	}
	if (l->in_tui) {
		rc = lz_tui_conf_set(&l->cfg->tui, key, value, err);
		goto out;
	}
	if (l->cur == NULL && !l->in_global)
		LZ_BUG("key '%s' in section '%s' with no profile", key,
		    section);
	if (l->in_global) {
		if (strcmp(key, "default-profile") != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "unknown key '%s' in "
			    "[lazaret] (known: default-profile)", key);
			goto out;
		}
		if (!lz_profile_name_valid(value)) {
			rc = lz_err_set(err, LZ_EINVAL, "default-profile "
			    "'%s' is not a valid profile name", value);
			goto out;
		}
		free(l->cfg->default_profile);
		l->cfg->default_profile = lz_xstrdup(value);
		l->default_line = line;
		goto out;
	}
	for (i = 0; i < NKEYS; i++) {
		if (strcmp(profile_keys[i].key, key) == 0)
			break;
	}
	if (i == NKEYS) {
		rc = lz_err_set(err, LZ_EINVAL, "unknown key '%s' in profile "
		    "'%s' (known: allow, auto-approve, command, deny, env, "
		    "escalation-env, escalation-timeout, history-keep, "
		    "ignored-isolation, image, persist, protect, resolver, "
		    "trust-git-config, trust-hooks-path, volume)", key,
		    l->cur->name);
		goto out;
	}
	if (l->repeat && profile_keys[i].set != set_approve) {
		rc = lz_err_set(err, LZ_EINVAL, "profile '%s' is defined "
		    "twice; merge the two sections (a later '[profile %s]' "
		    "may only add auto-approve lines)", l->cur->name,
		    l->cur->name);
		goto out;
	}
	if (!profile_keys[i].list && (l->cur->seen & (1ul << i))) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is set twice in profile "
		    "'%s'; keep one line", key, l->cur->name);
		goto out;
	}
	l->cur->seen |= 1ul << i;
	rc = profile_keys[i].set(l, l->cur, value, src.buf, err);
out:
	lz_buf_release(&src);
	return rc;
}

static int
validate(struct lz_config *cfg, const char *name, struct lz_err *err)
{
	struct lz_buf msg = LZ_BUF_INIT;
	struct lz_policy pol = LZ_POLICY_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	for (i = 0; i < cfg->nprofiles; i++) {
		if (lz_profile_policy(&cfg->profiles[i], &pol, &e) != 0) {
			if (msg.len)
				lz_buf_addch(&msg, '\n');
			lz_buf_adds(&msg, e.msg);
			lz_err_release(&e);
		}
		lz_policy_release(&pol);
		if (lz_pathcheck_nested(&cfg->profiles[i].persist, &e) != 0) {
			if (msg.len)
				lz_buf_addch(&msg, '\n');
			lz_buf_addf(&msg, "%s: %s", cfg->profiles[i].source,
			    e.msg);
			lz_err_release(&e);
		}
	}
	if (lz_config_profile(cfg, cfg->default_profile) == NULL) {
		if (msg.len)
			lz_buf_addch(&msg, '\n');
		lz_buf_addf(&msg, "%s: default-profile '%s' is not defined; "
		    "add a '[profile %s]' section or name an existing one",
		    name, cfg->default_profile, cfg->default_profile);
	}
	if (msg.len == 0) {
		lz_buf_release(&msg);
		return 0;
	}
	lz_err_set(err, LZ_EINVAL, "%s", msg.buf);
	lz_buf_release(&msg);
	return LZ_EINVAL;
}

int
lz_config_load_buffer(struct lz_config *cfg, const char *name,
    const char *text, size_t len, struct lz_err *err)
{
	struct load l;
	size_t i, j;
	int rc;

	builtins(cfg);
	memset(&l, 0, sizeof l);
	l.cfg = cfg;
	l.name = name;
	l.bad_section = 0;
	rc = lz_ini_parse(name, text, len, on_entry, &l, err);
	if (rc == 0)
		rc = validate(cfg, name, err);
	for (i = 0; rc == 0 && i < cfg->nprofiles; i++)
		for (j = 0; j < cfg->profiles[i].napprove; j++)
			lz_rule_resolve(&cfg->profiles[i].approve[j],
			    getenv("PATH"), &cfg->warnings);
	if (rc != 0)
		lz_config_release(cfg);
	return rc;
}

int
lz_config_load(struct lz_config *cfg, const char *path, struct lz_err *err)
{
	struct lz_buf text = LZ_BUF_INIT;
	char *real = NULL;
	struct stat st;
	char chunk[8192];
	ssize_t n;
	int fd = -1, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		builtins(cfg);
		cfg->named = lz_xstrdup(path);
		return 0;
	}
	if (fd < 0) {
		rc = lz_err_set(err, errno == EACCES ? LZ_EUNSAFE : LZ_ESYS,
		    "cannot read config '%s': %s (check its mode: it must be "
		    "readable by you and writable by you alone)", path,
		    strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot stat config '%s': %s",
		    path, strerror(errno));
		goto out;
	}
	rc = lz_pathcheck_private_file(&st, path, err);
	if (rc != 0)
		goto out;
	if (st.st_size > LZ_CONFIG_MAX_SIZE) {
		rc = lz_err_set(err, LZ_EINVAL, "config '%s' is %lld bytes, "
		    "over the limit of %d", path, (long long)st.st_size,
		    LZ_CONFIG_MAX_SIZE);
		goto out;
	}
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot read config "
			    "'%s': %s", path, strerror(errno));
			goto out;
		}
		if (text.len + (size_t)n > LZ_CONFIG_MAX_SIZE) {
			rc = lz_err_set(err, LZ_EINVAL, "config '%s' grew "
			    "past %d bytes while being read", path,
			    LZ_CONFIG_MAX_SIZE);
			goto out;
		}
		lz_buf_add(&text, chunk, (size_t)n);
	}
	real = realpath(path, NULL);
	if (real == NULL) {
		rc = lz_err_set(err, LZ_ESYS, "cannot resolve config path "
		    "'%s': %s", path, strerror(errno));
		goto out;
	}
	rc = lz_config_load_buffer(cfg, path, text.buf, text.len, err);
	if (rc == 0) {
		cfg->path = real;
		real = NULL;
		cfg->named = lz_xstrdup(path);
		cfg->dev = (unsigned long long)st.st_dev;
		cfg->ino = (unsigned long long)st.st_ino;
	}
out:
	if (fd >= 0)
		close(fd);
	free(real);
	lz_buf_release(&text);
	return rc;
}
