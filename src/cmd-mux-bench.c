/*
 * cmd-mux-bench.c: "lazaret __mux-bench [-q] [-t] [-r ROWS] [-c COLS] --
 * CMD", hidden: the multiplexer's pane pipeline on a host pty running a
 * host command, no coordinator and no sandbox, so tests/bench/ can hold it
 * against tmux running the same command. Drawn to the terminal as the TUI
 * draws, or with -q only fed into the pane (ROWS x COLS, default 50x200).
 * With -t, prints "mux-bench cpu USER SYS" to stderr at the end: the
 * seconds of CPU this process spent (getrusage RUSAGE_SELF: all its
 * threads, none of its children, so not the command's), counted after the
 * pane is freed. Exits with the command's status.
 */
#include <sys/resource.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/cmd.h"
#include "src/tui.h"

static int
cmd_mux_bench_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	unsigned rows = 50, cols = 200;
	struct rusage ru;
	int ch, quiet = 0, times = 0, rc;

	(void)ctx;
	optind = 1;
	while ((ch = getopt(argc, argv, "+qtr:c:")) != -1) {
		switch (ch) {
		case 'q':
			quiet = 1;
			break;
		case 't':
			times = 1;
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
	rc = lz_tui_bench(argv + optind, argc - optind, quiet, rows, cols);
	if (times && getrusage(RUSAGE_SELF, &ru) == 0)
		fprintf(stderr, "mux-bench cpu %ld.%06ld %ld.%06ld\n",
		    (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
		    (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
	return rc;
}

const struct lz_cmd lz_cmd_mux_bench = {
	.name = "__mux-bench",
	.usage = "[-q] [-t] [-r ROWS] [-c COLS] -- COMMAND [ARG...]",
	.summary = NULL,
	.flags = 0,
	.exec = cmd_mux_bench_exec,
};
