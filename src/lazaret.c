/*
 * lazaret.c: main of the lazaret executable. Parses the global options,
 * finds the subcommand in the sorted table and runs it. Subcommands live in
 * src/cmd-*.c, one per file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "src/cmd.h"

static const struct lz_cmd *const cmd_table[] = {
	&lz_cmd_anchor_helper,
	&lz_cmd_attach,
	&lz_cmd_audit,
	&lz_cmd_coordinator,
	&lz_cmd_doctor,
	&lz_cmd_domain,
	&lz_cmd_git,
	&lz_cmd_history_walk,
	&lz_cmd_ls,
	&lz_cmd_mux_bench,
	&lz_cmd_profile,
	&lz_cmd_run,
	&lz_cmd_sandbox_helper,
	&lz_cmd_state,
	&lz_cmd_state_helper,
	&lz_cmd_tui,
};
#define CMD_COUNT (sizeof cmd_table / sizeof cmd_table[0])

static void usage(FILE *f);
static void verror(const char *fmt, va_list ap);
static int run(const struct lz_cmd *cmd, struct lz_cmd_ctx *ctx, int argc,
    char **argv);

/*
 * What main handles for a command, from its flags: --json (before "--") is
 * a usage error for a command without LZ_CMD_JSON, and is recorded in the
 * context for one that has it.
 */
static int
run(const struct lz_cmd *cmd, struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--json") != 0)
			continue;
		if (!(cmd->flags & LZ_CMD_JSON)) {
			lz_cmd_error("%s: --json is not an option of this "
			    "command", cmd->name);
			return lz_cmd_usage(cmd);
		}
		ctx->json = 1;
	}
	return cmd->exec(ctx, argc, argv);
}

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: lazaret [--help] [--version] COMMAND [ARGS]\n\n"
	    "Lazaret runs AI coding agents and shells in a rootless gVisor\n"
	    "sandbox over the current Git project.\n\ncommands:\n");
	for (i = 0; i < CMD_COUNT; i++) {
		if (cmd_table[i]->summary != NULL)	/* hidden helpers */
			fprintf(f, "  %-8s %s\n", cmd_table[i]->name,
			    cmd_table[i]->summary);
	}
	fprintf(f, "\n'lazaret COMMAND --help' describes one command; "
	    "'man lazaret' the rest.\n"
	    "with no command, lazaret opens the TUI ('lazaret tui') on a\n"
	    "terminal and runs 'lazaret run' otherwise.\n");
}

static void
verror(const char *fmt, va_list ap)
{
	fputs("lazaret: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
lz_cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

int
lz_cmd_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return code;
}

int
lz_cmd_usage(const struct lz_cmd *cmd)
{
	fprintf(stderr, "usage: lazaret %s %s\n", cmd->name, cmd->usage);
	return LZ_EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	struct lz_cmd_ctx ctx = { 0, argv[0], NULL };
	static char *run_argv[] = { "run", NULL };
	static char *tui_argv[] = { "tui", NULL };
	char *self;
	size_t i;

	/* Re-executions (the coordinator, the anchor helper) use this path. */
	self = realpath("/proc/self/exe", NULL);
	ctx.self = self != NULL ? self : argv[0];

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return LZ_EXIT_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 ||
	    strcmp(argv[1], "version") == 0)) {
		printf("lazaret %s\n", LZ_VERSION);
		return LZ_EXIT_OK;
	}
	if (argc < 2 && isatty(0) && isatty(1))
		return lz_cmd_tui.exec(&ctx, 1, tui_argv);
	if (argc < 2)
		return lz_cmd_run.exec(&ctx, 1, run_argv);
	if (argv[1][0] == '-') {
		lz_cmd_error("unknown option '%s' (try 'lazaret --help')",
		    argv[1]);
		return LZ_EXIT_USAGE;
	}
	for (i = 0; i < CMD_COUNT; i++) {
		if (strcmp(cmd_table[i]->name, argv[1]) == 0)
			return run(cmd_table[i], &ctx, argc - 1, argv + 1);
	}
	lz_cmd_error("unknown command '%s' (try 'lazaret --help')", argv[1]);
	return LZ_EXIT_USAGE;
}
