/*
 * cmd-state.c: "lazaret state", the State Anchors and Ignored Workspace
 * State the developer can see and reset (FR-11, DX-6, SR-14, OR-5):
 *
 *   state list [--json]
 *   state inspect [PATH] [--contents] [--json]
 *   state diff [PATH] [--json]
 *   state verify [--json]
 *   state reset PATH... | --all | --ignored [--forget-paths] [--yes]
 *
 * with -p PROFILE and -C DIR (the Domain of that project and profile, as
 * "run" finds it) or --domain ID (one of the Domains "state list"
 * shows). Option parsing and dispatch only; the verbs are in
 * state-list.c, state-show.c and state-reset.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/cmd.h"
#include "src/state.h"

static const char usage_text[] =
    "usage: lazaret state VERB [-p PROFILE] [-C DIR | --domain ID] "
    "[--json]\n"
    "  list                      the Domains, their State Anchors and "
    "sizes\n"
    "  inspect [PATH] [--contents]\n"
    "                            what each anchor's upper layer holds "
    "(--contents\n"
    "                            PATH: that file's content)\n"
    "  diff [PATH]               packages and files the sandbox changed\n"
    "  verify                    check the Domain's storage (Domain "
    "stopped)\n"
    "  reset PATH... | --all     back to the image for those anchors\n"
    "  reset --ignored [--forget-paths]\n"
    "                            empty the Ignored Workspace State (and "
    "forget\n"
    "                            its list of isolated paths)\n"
    "reset asks first; --yes answers for it. PATH is a path in the "
    "sandbox,\nlike /usr.\n";

static int
cmd_state_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ "domain", required_argument, NULL, 'D' },
		{ "yes", no_argument, NULL, 'y' },
		{ "all", no_argument, NULL, 'a' },
		{ "contents", no_argument, NULL, 'c' },
		{ "ignored", no_argument, NULL, 'I' },
		{ "forget-paths", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_state_opts o;
	const char *verb;
	int ch, only_reset = 0;

	memset(&o, 0, sizeof o);
	o.o.json = ctx->json;
	o.self = ctx->self;
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
		    strcmp(argv[1], "--help") == 0)) {
			fputs(usage_text, stdout);
			return LZ_EXIT_OK;
		}
		fputs(usage_text, stderr);
		return LZ_EXIT_USAGE;
	}
	verb = argv[1];
	optind = 1;
	while ((ch = getopt_long(argc - 1, argv + 1, LZ_CMD_OPTS_SHORT "y",
	    opts, NULL)) != -1) {
		if (lz_cmd_opts_take(&o.o, ch, optarg))
			continue;
		switch (ch) {
		case 'D':
			o.domain = optarg;
			break;
		case 'y':
			o.yes = only_reset = 1;
			break;
		case 'a':
			o.all = only_reset = 1;
			break;
		case 'I':
			o.ignored = only_reset = 1;
			break;
		case 'F':
			o.forget = only_reset = 1;
			break;
		case 'c':
			o.contents = 1;
			break;
		default:
			fputs(usage_text, stderr);
			return LZ_EXIT_USAGE;
		}
	}
	if (o.o.help) {
		fputs(usage_text, stdout);
		return LZ_EXIT_OK;
	}
	o.paths = argv + 1 + optind;
	o.npaths = argc - 1 - optind;
	if ((only_reset && strcmp(verb, "reset") != 0) || (o.contents &&
	    strcmp(verb, "inspect") != 0)) {
		lz_cmd_error("state %s: an option of another verb was given "
		    "(see 'lazaret state --help')", verb);
		return LZ_EXIT_USAGE;
	}
	if (strcmp(verb, "list") == 0 && o.npaths == 0 && o.domain == NULL)
		return lz_state_list(&o);
	if ((strcmp(verb, "inspect") == 0 || strcmp(verb, "diff") == 0) &&
	    (o.npaths <= 1 || o.contents))
		return lz_state_show(&o, verb[0] == 'd');
	if (strcmp(verb, "verify") == 0)
		return lz_state_verify(&o);
	if (strcmp(verb, "reset") == 0)
		return lz_state_reset(&o);
	fputs(usage_text, stderr);
	return LZ_EXIT_USAGE;
}

const struct lz_cmd lz_cmd_state = {
	.name = "state",
	.usage = "list | inspect [PATH] [--contents] | diff [PATH] | verify | "
	    "reset PATH...|--all|--ignored [--forget-paths] [--yes]  "
	    "[-p PROFILE] [-C DIR | --domain ID] [--json]",
	.summary = "see and reset the persistent sandbox state (State "
	    "Anchors)",
	.flags = LZ_CMD_JSON,
	.exec = cmd_state_exec,
};
