/*
 * cmd-mux-bench.c: "lazaret __mux-bench [-q] [-r ROWS] [-c COLS] -- CMD",
 * hidden: the multiplexer's pane pipeline on a host pty running a host
 * command, no coordinator and no sandbox, so tests/bench/ can hold it
 * against tmux running the same command. Drawn to the terminal as the TUI
 * draws, or with -q only fed into the pane (ROWS x COLS, default 50x200).
 * Exits with the command's status.
 */
#include <getopt.h>
#include <stdlib.h>

#include "src/cmd.h"
#include "src/tui.h"

static int
cmd_mux_bench_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	unsigned rows = 50, cols = 200;
	int ch, quiet = 0;

	(void)ctx;
	optind = 1;
	while ((ch = getopt(argc, argv, "+qr:c:")) != -1) {
		switch (ch) {
		case 'q':
			quiet = 1;
			break;
		case 'r':
			rows = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'c':
			cols = (unsigned)strtoul(optarg, NULL, 10);
			break;
		default:
			return lz_cmd_usage(&lz_cmd_mux_bench);
		}
	}
	if (optind >= argc || rows < 2 || cols < 2 || rows > 1000 ||
	    cols > 1000)
		return lz_cmd_usage(&lz_cmd_mux_bench);
	return lz_tui_bench(argv + optind, argc - optind, quiet, rows, cols);
}

const struct lz_cmd lz_cmd_mux_bench = {
	.name = "__mux-bench",
	.usage = "[-q] [-r ROWS] [-c COLS] -- COMMAND [ARG...]",
	.summary = NULL,
	.flags = 0,
	.exec = cmd_mux_bench_exec,
};
