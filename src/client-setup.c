/*
 * client-setup.c: the shared start of Domain-aware subcommands (see
 * client-setup.h). The only place that turns core's errors into printed
 * messages and exit codes for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/histview.h"
#include "core/pathcheck.h"
#include "src/client-setup.h"
#include "src/cmd.h"

static const char *get_env(const char *name);
static void print_warnings(const char *lines);
static void scrub_path(const char *workspace);

/*
 * PATH without its entries in the workspace or relative ones, for this
 * process and every program it starts (the coordinator, podman, git):
 * the sandbox can write there (SR-4). Each dropped entry is a warning:
 * the developer's own shell still runs what it finds there.
 */
static void
scrub_path(const char *workspace)
{
	struct lz_tokens dropped = LZ_TOKENS_INIT;
	char *path = lz_path_env_scrub(getenv("PATH"), workspace, &dropped);
	size_t i;

	for (i = 0; i < dropped.n; i++)
		lz_cmd_error("warning: PATH holds '%s', %s: a program the "
		    "sandbox writes there runs on the host when you type its "
		    "name, and shell prompts run 'git' from PATH (SR-4); "
		    "Lazaret ignores it: take it out of PATH (direnv's "
		    "PATH_add, a venv), or keep that directory Git-ignored",
		    dropped.v[i], dropped.v[i][0] == '/' ? "in the workspace" :
		    "relative to where you are");
	if (dropped.n > 0)
		setenv("PATH", path, 1);
	lz_tokens_release(&dropped);
	free(path);
}

static const char *
get_env(const char *name)
{
	return getenv(name);
}

/* The config's warnings ('\n'-terminated lines), one "warning:" each. */
static void
print_warnings(const char *lines)
{
	const char *nl;

	for (; (nl = strchr(lines, '\n')) != NULL; lines = nl + 1)
		fprintf(stderr, "lazaret: warning: %.*s\n", (int)(nl - lines),
		    lines);
}

int
lz_client_exit_code(int code)
{
	switch (code) {
	case 0:
		return LZ_EXIT_OK;
	case LZ_EINVAL:
	case LZ_ECONFLICT:
		return LZ_EXIT_CONFIG;
	case LZ_EUNSAFE:
		return LZ_EXIT_UNSAFE;
	case LZ_EBUSY:
		return LZ_EXIT_BUSY;
	case LZ_ENOTFOUND:
		return LZ_EXIT_ENV;
	default:
		return LZ_EXIT_FAILURE;
	}
}

void
lz_client_print_json(json_t *j)
{
	if (json_dumpf(j, stdout, JSON_INDENT(2) | JSON_SORT_KEYS |
	    JSON_ENSURE_ASCII) != 0)
		lz_cmd_error("cannot write JSON to standard output");
	fputc('\n', stdout);
	json_decref(j);
}

int
lz_client_setup(struct lz_client *c, const char *profile, const char *dir,
    int flags)
{
	struct lz_err err = LZ_ERR_INIT;
	int rc, exit_code = LZ_EXIT_OK;

	memset(c, 0, sizeof *c);
	rc = lz_paths_init(&c->paths, get_env, LZ_RUN_USER_DIR, &err);
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		exit_code = LZ_EXIT_ENV;
		goto out;
	}
	/* As podman does: the coordinator, podman and the shim it runs all
	 * see the directory chosen here. */
	if (c->paths.runtime_fallback &&
	    setenv("XDG_RUNTIME_DIR", c->paths.xdg_runtime, 1) != 0)
		LZ_BUG("setenv XDG_RUNTIME_DIR failed");
	rc = lz_config_load(&c->cfg, c->paths.config_file, &err);
	if (rc != 0) {
		if (rc == LZ_EINVAL)
			lz_cmd_error("invalid configuration:\n%s", err.msg);
		else
			lz_cmd_error("%s", err.msg);
		exit_code = lz_client_exit_code(rc);
		goto out;
	}
	print_warnings(c->cfg.warnings.buf);
	if (!(flags & LZ_CLIENT_DOMAIN))
		goto out;
	if (profile == NULL)
		profile = c->cfg.default_profile;
	c->profile = lz_config_profile(&c->cfg, profile);
	if (c->profile == NULL) {
		lz_cmd_error("no profile '%s' (see 'lazaret profile list'; "
		    "profiles are defined in %s)", profile,
		    c->paths.config_file);
		exit_code = LZ_EXIT_CONFIG;
		goto out;
	}
	rc = LZ_ENOTFOUND;
	if (flags & LZ_CLIENT_KEPT)
		rc = lz_histview_domain(&c->domain, &c->paths, profile,
		    dir ? dir : ".", NULL);
	if (rc != 0 && (flags & LZ_CLIENT_HANDED))
		rc = lz_domain_given(&c->domain, &c->paths, profile,
		    dir ? dir : ".", &err);
	else if (rc != 0)
		rc = lz_domain_resolve(&c->domain, &c->paths, profile,
		    dir ? dir : ".", &err);
	if (rc == 0)
		scrub_path(c->domain.workspace);
	if (rc == 0)
		rc = lz_domain_check_mounts(&c->domain, &c->paths, &c->cfg,
		    c->profile, &err);
	if (rc == 0)
		rc = lz_profile_fingerprint(c->profile, c->fingerprint, &err);
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		exit_code = rc == LZ_ENOTFOUND ? LZ_EXIT_ENV :
		    lz_client_exit_code(rc);
	}
out:
	lz_err_release(&err);
	if (exit_code != LZ_EXIT_OK)
		lz_client_release(c);
	return exit_code;
}

void
lz_client_release(struct lz_client *c)
{
	lz_domain_release(&c->domain);
	lz_config_release(&c->cfg);
	lz_paths_release(&c->paths);
	c->profile = NULL;
}
