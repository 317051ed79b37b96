/*
 * cmd.h: the subcommand table of the lazaret executable, after tmux's
 * cmd_entry. Each src/cmd-<name>.c exports one const struct lz_cmd; the
 * sorted table in lazaret.c lists them. flags say what main handles for a
 * command (today only --json, LZ_CMD_JSON); the options every command
 * shares (-p, -C, --help) are parsed by cmd-opts.c and the set-up (config,
 * profile, Domain) by lz_client_setup, which each command calls itself.
 */
#ifndef LZ_CMD_H
#define LZ_CMD_H

#include <stdio.h>

/* Exit codes, documented in docs/lazaret.1 and README.md. */
enum lz_exit {
	LZ_EXIT_OK = 0,
	LZ_EXIT_FAILURE = 1,	/* the operation failed at run time */
	LZ_EXIT_USAGE = 2,	/* bad command line */
	LZ_EXIT_CONFIG = 3,	/* configuration invalid or refused (SR-2) */
	LZ_EXIT_ENV = 4,	/* environment not usable: HOME, XDG dirs, not Git, prerequisites */
	LZ_EXIT_UNSAFE = 5,	/* refused for safety: owner, mode, symlink */
	LZ_EXIT_BUSY = 6,	/* Domain held by another coordinator or other config */
	/*
	 * The Domain failed while the session ran (its sandbox or sidecar
	 * ended): torn down, nothing left. As podman run's 125, a status no
	 * command of the sandbox gave.
	 */
	LZ_EXIT_DOMAIN = 125,
};

enum lz_cmd_flags {
	LZ_CMD_JSON = 1 << 0,	/* accepts --json */
};

struct lz_cmd_ctx {
	int json;		/* --json given */
	const char *argv0;	/* how lazaret was invoked */
	const char *self;	/* absolute path of this binary, for re-exec */
};

struct lz_cmd {
	const char *name;
	const char *usage;	/* after "lazaret NAME " */
	const char *summary;	/* one line for --help */
	int flags;
	/* argv[0] is the subcommand name; returns an enum lz_exit value. */
	int (*exec)(struct lz_cmd_ctx *ctx, int argc, char **argv);
};

extern const struct lz_cmd lz_cmd_anchor_helper;
extern const struct lz_cmd lz_cmd_audit;
extern const struct lz_cmd lz_cmd_attach;
extern const struct lz_cmd lz_cmd_coordinator;
extern const struct lz_cmd lz_cmd_doctor;
extern const struct lz_cmd lz_cmd_ls;
extern const struct lz_cmd lz_cmd_mux_bench;
extern const struct lz_cmd lz_cmd_domain;
extern const struct lz_cmd lz_cmd_git;
extern const struct lz_cmd lz_cmd_history_walk;
extern const struct lz_cmd lz_cmd_profile;
extern const struct lz_cmd lz_cmd_run;
extern const struct lz_cmd lz_cmd_sandbox_helper;
extern const struct lz_cmd lz_cmd_state;
extern const struct lz_cmd lz_cmd_state_helper;
extern const struct lz_cmd lz_cmd_tui;

/* Prints "lazaret: " and the message to stderr. */
void lz_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* lz_cmd_error, then returns code (an enum lz_exit value). */
int lz_cmd_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the usage line of cmd to stderr and returns LZ_EXIT_USAGE. */
int lz_cmd_usage(const struct lz_cmd *cmd);

#endif
