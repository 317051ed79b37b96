/*
 * cmd-opts.c: the shared options of Domain-aware subcommands.
 */
#include "src/cmd-opts.h"

int
lz_cmd_opts_take(struct lz_cmd_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case 'p':
		o->profile = arg;
		return 1;
	case 'C':
		o->dir = arg;
		return 1;
	case 'j':
		o->json = 1;
		return 1;
	case 'h':
		o->help = 1;
		return 1;
	default:
		return 0;
	}
}
