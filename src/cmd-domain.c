/*
 * cmd-domain.c: "lazaret domain show": the Domain of the current project
 * and profile, its storage, runtime directory and Configuration
 * Fingerprint; when it runs, its Trust Anchor and every identity issued
 * (from the coordinator: TRUST), never a key.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/client-conn.h"
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
	struct lz_err err = LZ_ERR_INIT;
	struct lz_msg_trusted t;
	struct lz_conn_client cc;
	struct lz_client c;
	int ch, rc, have = 0;

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
	/* A running Domain's identities come from its coordinator. */
	memset(&t, 0, sizeof t);
	if (lz_conn_open(&cc, &c, ctx->self, 0, NULL) == 0) {
		if (lz_conn_trusted(&cc, &t, &err) == 0)
			have = 1;
		else
			lz_cmd_error("cannot read the Domain's identities: %s",
			    err.msg);
		lz_conn_close(&cc);
	}
	if (o.json)
		lz_client_print_json(lz_out_domain_json(&c, have ? &t : NULL));
	else
		lz_out_domain(stdout, &c, have ? &t : NULL);
	lz_msg_trusted_release(&t);
	lz_err_release(&err);
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
