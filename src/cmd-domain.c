/*
 * cmd-domain.c: "lazaret domain show": the Domain of the current project
 * and profile, its storage, runtime directory and Configuration
 * Fingerprint.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/client-setup.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"
#include "src/out-domain.h"

static int
cmd_domain_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, ctx->json, 0 };
	struct lz_client c;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (!lz_cmd_opts_take(&o, ch, optarg))
			return lz_cmd_usage(&lz_cmd_domain);
	}
	if (o.help) {
		printf("usage: lazaret domain %s\n", lz_cmd_domain.usage);
		return LZ_EXIT_OK;
	}
	if (argc - optind != 1 || strcmp(argv[optind], "show") != 0)
		return lz_cmd_usage(&lz_cmd_domain);
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	if (o.json)
		lz_client_print_json(lz_out_domain_json(&c));
	else
		lz_out_domain(stdout, &c);
	lz_client_release(&c);
	return LZ_EXIT_OK;
}

const struct lz_cmd lz_cmd_domain = {
	.name = "domain",
	.usage = "show [-p PROFILE] [-C DIR] [--json]",
	.summary = "show the Domain of this project: ID, storage, fingerprint",
	.flags = LZ_CMD_JSON,
	.exec = cmd_domain_exec,
};
