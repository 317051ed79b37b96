/*
 * cmd-sandbox-helper.c: "lazaret __sandbox start|stop|list", a hidden
 * test hook that drives core/sandbox.c directly, without the Session
 * Coordinator, so tests/integration/test-sandbox.sh can check the sandbox
 * against real podman and runsc. Not for people and not a way to run a
 * Domain: it takes no lifecycle lock and starts no coordinator.
 *
 *   __sandbox start [-p PROFILE] [-C DIR] [-R SHIM] [-i IMAGE]
 *       prints "domain ID" and "container CID"
 *   __sandbox stop  [-p PROFILE] [-C DIR]    (also recovery of leftovers)
 *   __sandbox list  [-p PROFILE] [-C DIR]    "CID ROLE STATE NAME" lines
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/mountplan.h"
#include "core/rundir.h"
#include "core/sandbox.h"
#include "src/client-setup.h"
#include "src/domain-sandbox.h"
#include "src/cmd.h"

#define SHIM_DEFAULT "/usr/local/bin/lazaret-runsc"

/* Declared here until src/cmd.h lists it with the other commands. */

static int	 ensure_dirs(struct lz_client *c, struct lz_err *err);
static int	 do_start(struct lz_client *c, struct lz_sandbox_ctx *sc,
		     const char *shim, const char *image, struct lz_err *err);
static int	 cmd_sandbox_helper_exec(struct lz_cmd_ctx *ctx, int argc,
		     char **argv);

/* The Domain Root and the runtime directories the plan binds. */
static int
ensure_dirs(struct lz_client *c, struct lz_err *err)
{
	char *path = lz_xasprintf("domains/%s", c->domain.id);
	int fd = lz_rundir_ensure(c->paths.storage_root, 1, path, err);

	free(path);
	if (fd < 0)
		return fd;
	close(fd);
	return lz_domain_dirs(c, err);
}

static int
do_start(struct lz_client *c, struct lz_sandbox_ctx *sc, const char *shim,
    const char *image, struct lz_err *err)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_sandbox_spec s;
	char *cid = NULL;
	int rc;

	if ((rc = ensure_dirs(c, err)) != 0)
		goto out;
	if ((rc = lz_mountplan_build(&mp, &c->domain, c->profile, NULL, NULL,
	    err)) != 0 || (rc = lz_domain_notice(c, &mp, err)) != 0)
		goto out;
	memset(&s, 0, sizeof s);
	s.domain_id = c->domain.id;
	s.runtime = shim;
	s.image = image ? image : c->profile->image;
	s.plan = &mp;
	s.env = &c->profile->env;
	s.term = getenv("TERM");
	if ((rc = lz_sandbox_start(sc, &s, c->domain.root, &cid, err)) != 0)
		goto out;
	printf("domain %s\ncontainer %s\n", c->domain.id, cid);
out:
	free(cid);
	lz_mountplan_release(&mp);
	return rc;
}

static int
cmd_sandbox_helper_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	struct lz_sandbox_ctx sc;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_client c;
	const char *profile = NULL, *dir = NULL, *shim = SHIM_DEFAULT;
	const char *image = NULL, *verb;
	size_t i;
	int ch, rc = 0, ex;

	if (argc < 2)
		return lz_cmd_usage(&lz_cmd_sandbox_helper);
	verb = argv[1];
	optind = 1;
	while ((ch = getopt(argc - 1, argv + 1, "+p:C:R:i:")) != -1) {
		switch (ch) {
		case 'p':
			profile = optarg;
			break;
		case 'C':
			dir = optarg;
			break;
		case 'R':
			shim = optarg;
			break;
		case 'i':
			image = optarg;
			break;
		default:
			return lz_cmd_usage(&lz_cmd_sandbox_helper);
		}
	}
	if (optind + 1 != argc || (strcmp(verb, "start") != 0 &&
	    strcmp(verb, "stop") != 0 && strcmp(verb, "list") != 0))
		return lz_cmd_usage(&lz_cmd_sandbox_helper);
	ex = lz_client_setup(&c, profile, dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (ex != LZ_EXIT_OK)
		return ex;
	if ((rc = lz_sandbox_ctx_init(&sc, NULL, ctx->self, &err)) != 0)
		goto out;
	if (strcmp(verb, "start") == 0)
		rc = do_start(&c, &sc, shim, image, &err);
	else if (strcmp(verb, "stop") == 0)
		rc = lz_sandbox_stop(&sc, c.domain.id, c.domain.root, &err);
	else if ((rc = lz_sandbox_list(&sc, c.domain.id, &l, &err)) == 0) {
		for (i = 0; i < l.n; i++)
			printf("%s %s %s %s\n", l.v[i].id, l.v[i].role[0] ?
			    l.v[i].role : "-", l.v[i].state, l.v[i].name);
	}
	lz_sandbox_list_release(&l);
	lz_sandbox_ctx_release(&sc);
out:
	if (rc != 0)
		lz_cmd_error("%s", err.msg);
	lz_err_release(&err);
	lz_client_release(&c);
	return lz_client_exit_code(rc);
}

const struct lz_cmd lz_cmd_sandbox_helper = {
	.name = "__sandbox",
	.usage = "start|stop|list [-p PROFILE] [-C DIR] [-R SHIM] [-i IMAGE] "
	    "(internal test hook)",
	.summary = NULL,	/* hidden */
	.flags = 0,
	.exec = cmd_sandbox_helper_exec,
};
