/*
 * cmd-domain.c: "lazaret domain show": the Domain of the current project
 * and profile, its storage, runtime directory and Configuration
 * Fingerprint.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/client-setup.h"
#include "src/cmd.h"
#include "src/out-domain.h"

static int
cmd_domain_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *profile = NULL, *dir = NULL;
	struct lz_client c;
	int ch, rc, json = ctx->json;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "p:C:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			profile = optarg;
			break;
		case 'C':
			dir = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			printf("usage: lazaret domain %s\n",
			    lz_cmd_domain.usage);
			return LZ_EXIT_OK;
		default:
			return lz_cmd_usage(&lz_cmd_domain);
		}
	}
	if (argc - optind != 1 || strcmp(argv[optind], "show") != 0)
		return lz_cmd_usage(&lz_cmd_domain);
	rc = lz_client_setup(&c, profile, dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	if (json)
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
