/*
 * cmd-opts.h: the options every Domain-aware subcommand shares: -p PROFILE,
 * -C DIR, --json and --help. A subcommand's getopt loop hands each option
 * to lz_cmd_opts_take first and handles only its own.
 */
#ifndef LZ_CMD_OPTS_H
#define LZ_CMD_OPTS_H

#include <getopt.h>

struct lz_cmd_opts {
	const char *profile;	/* -p, or NULL: the default profile */
	const char *dir;	/* -C, or NULL: the current directory */
	int json;		/* --json */
	int help;		/* -h, --help */
};

/* Short options to put first in a getopt string (after a '+' if any). */
#define LZ_CMD_OPTS_SHORT "p:C:h"
/* Long options to put first in a struct option array. */
#define LZ_CMD_OPTS_LONG \
	{ "json", no_argument, NULL, 'j' }, \
	{ "help", no_argument, NULL, 'h' }

/* Returns 1 when ch (with arg) was one of the shared options. */
int lz_cmd_opts_take(struct lz_cmd_opts *o, int ch, const char *arg);

#endif
