/*
 * cmd-profile.c: "lazaret profile list" and "lazaret profile show NAME".
 * Reads the config only; needs no Git project.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/client-setup.h"
#include "src/cmd.h"
#include "src/out-profile.h"

static int profile_list(struct lz_client *c, int json);
static int profile_show(struct lz_client *c, const char *name, int json);

static int
profile_list(struct lz_client *c, int json)
{
	json_t *a;
	size_t i;

	if (json) {
		a = json_array();
		for (i = 0; i < c->cfg.nprofiles; i++) {
			json_array_append_new(a, json_pack("{s:s,s:s,s:b}",
			    "name", c->cfg.profiles[i].name, "source",
			    c->cfg.profiles[i].source, "default",
			    strcmp(c->cfg.profiles[i].name,
			    c->cfg.default_profile) == 0));
		}
		lz_client_print_json(a);
		return LZ_EXIT_OK;
	}
	for (i = 0; i < c->cfg.nprofiles; i++) {
		printf("%c %-16s %s\n", strcmp(c->cfg.profiles[i].name,
		    c->cfg.default_profile) == 0 ? '*' : ' ',
		    c->cfg.profiles[i].name, c->cfg.profiles[i].source);
	}
	return LZ_EXIT_OK;
}

static int
profile_show(struct lz_client *c, const char *name, int json)
{
	const struct lz_profile *p = lz_config_profile(&c->cfg, name);
	char fp[LZ_FINGERPRINT_HEX + 1];
	json_t *o;

	if (p == NULL) {
		lz_cmd_error("no profile '%s' (see 'lazaret profile list')",
		    name);
		return LZ_EXIT_CONFIG;
	}
	if (lz_profile_fingerprint(p, fp, NULL) != 0)
		LZ_BUG("validated profile '%s' has policy conflicts", name);
	if (json) {
		o = lz_profile_json(p, 1, NULL);
		json_object_set_new(o, "fingerprint", json_string(fp));
		lz_client_print_json(o);
		return LZ_EXIT_OK;
	}
	lz_out_profile(stdout, p);
	printf("configuration fingerprint %s\n", fp);
	return LZ_EXIT_OK;
}

static int
cmd_profile_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_client c;
	int ch, rc, json = ctx->json;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'j')
			json = 1;
		else if (ch == 'h') {
			printf("usage: lazaret profile %s\n",
			    lz_cmd_profile.usage);
			return LZ_EXIT_OK;
		} else
			return lz_cmd_usage(&lz_cmd_profile);
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || (strcmp(argv[0], "list") == 0 && argc != 1) ||
	    (strcmp(argv[0], "show") == 0 && argc != 2) ||
	    (strcmp(argv[0], "list") != 0 && strcmp(argv[0], "show") != 0))
		return lz_cmd_usage(&lz_cmd_profile);
	rc = lz_client_setup(&c, NULL, NULL, LZ_CLIENT_CONFIG);
	if (rc != LZ_EXIT_OK)
		return rc;
	if (strcmp(argv[0], "list") == 0)
		rc = profile_list(&c, json);
	else
		rc = profile_show(&c, argv[1], json);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_profile = {
	.name = "profile",
	.usage = "[--json] list | [--json] show NAME",
	.summary = "list the Agent Profiles or show one with its sources",
	.flags = LZ_CMD_JSON,
	.exec = cmd_profile_exec,
};
