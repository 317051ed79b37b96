/*
 * cmd-tui.c: "lazaret tui [-p PROFILE] [-C DIR] [-- COMMAND...]", what
 * "lazaret" with no arguments runs on a terminal: the full-screen TUI with
 * a new session in its first pane (src/tui.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "src/client-setup.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"
#include "src/tui.h"

static int
cmd_tui_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, 0, 0 };
	struct lz_client c;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+" LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (!lz_cmd_opts_take(&o, ch, optarg))
			return lz_cmd_usage(&lz_cmd_tui);
	}
	if (o.help) {
		printf("usage: lazaret tui %s\n", lz_cmd_tui.usage);
		return LZ_EXIT_OK;
	}
	if (!isatty(0) || !isatty(1)) {
		lz_cmd_error("tui: needs a terminal ('lazaret run -- COMMAND' "
		    "runs a command without one)");
		return LZ_EXIT_USAGE;
	}
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	rc = lz_tui_run(&c, ctx->self, argv + optind, argc - optind, NULL, 0);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_tui = {
	.name = "tui",
	.usage = "[-p PROFILE] [-C DIR] [-- COMMAND [ARG...]]",
	.summary = "the full-screen multiplexer (what 'lazaret' runs)",
	.flags = 0,
	.exec = cmd_tui_exec,
};
