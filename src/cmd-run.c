/*
 * cmd-run.c: "lazaret run": resolve the profile and Domain, join the
 * Domain's coordinator (starting it when none runs) and open a Client
 * Session in the sandbox: a terminal session with no command, the
 * command's own streams and exit status with one. With --dry-run it prints
 * the resolved plan and changes nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ignored.h"
#include "core/mountplan.h"
#include "src/client-conn.h"
#include "src/client-session.h"
#include "src/client-setup.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"
#include "src/out-domain.h"

static int print_plan(struct lz_client *c, char **cmd, int ncmd, int json);

static int
print_plan(struct lz_client *c, char **cmd, int ncmd, int json)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf warn = LZ_BUF_INIT;
	const struct lz_profile *p = c->profile;
	json_t *o, *a;
	size_t i;

	struct lz_ignored ig;
	int rc;

	/* What the launch would isolate, read-only (nothing is written). */
	memset(&ig, 0, sizeof ig);
	rc = p->ignored_isolation ? lz_ignored_scan(c->domain.workspace, &ig,
	    &err) : 0;
	if (rc == 0 && p->ignored_isolation)
		rc = lz_ignored_load(c->domain.root, &ig, &err);
	if (rc == 0)
		rc = lz_mountplan_build(&mp, &c->domain, p, &ig.paths, &warn,
		    &err);
	lz_ignored_release(&ig);
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		lz_err_release(&err);
		lz_buf_release(&warn);
		return lz_client_exit_code(rc);
	}
	if (json) {
		o = lz_out_domain_json(c, NULL);
		json_object_set_new(o, "image", json_string(p->image));
		a = json_array();
		for (i = 0; i < (ncmd ? (size_t)ncmd : p->command.n); i++)
			json_array_append_new(a, json_string(ncmd ? cmd[i] :
			    p->command.v[i]));
		json_object_set_new(o, "command", a);
		a = json_array();
		for (i = 0; i < mp.n; i++)
			json_array_append_new(a, json_pack("{s:s,s:s?,s:s,s:b,"
			    "s:s}", "kind", lz_mount_kind_name(mp.v[i].kind),
			    "source", mp.v[i].source, "target",
			    mp.v[i].target, "readonly", mp.v[i].readonly,
			    "why", mp.v[i].why));
		json_object_set_new(o, "mounts", a);
		a = json_array();
		for (i = 0; i < p->env.n; i++)
			json_array_append_new(a, json_pack("{s:s,s:b}", "name",
			    p->env.v[i], "set", getenv(p->env.v[i]) != NULL));
		json_object_set_new(o, "env", a);
		json_object_set_new(o, "ignored_isolation",
		    json_boolean(p->ignored_isolation));
		json_object_set_new(o, "warnings", json_string(warn.buf));
		lz_client_print_json(o);
		lz_mountplan_release(&mp);
		lz_buf_release(&warn);
		return LZ_EXIT_OK;
	}
	lz_out_domain(stdout, c, NULL);
	printf("sandbox\n  image               %s\n  command            ",
	    p->image);
	for (i = 0; i < (ncmd ? (size_t)ncmd : p->command.n); i++)
		printf(" %s", ncmd ? cmd[i] : p->command.v[i]);
	printf("\n  ignored paths       %s\n", p->ignored_isolation ?
	    "isolated in the Domain (SR-13)" : "shared with the host (FR-9)");
	for (i = 0; i < p->env.n; i++)
		printf("  env                 %s (%s on the host)\n",
		    p->env.v[i], getenv(p->env.v[i]) ? "set" : "not set");
	printf("mounts, in order:\n");
	for (i = 0; i < mp.n; i++)
		printf("  %-6s %-26s <- %s%s  [%s]\n",
		    lz_mount_kind_name(mp.v[i].kind), mp.v[i].target,
		    mp.v[i].source ? mp.v[i].source : "(tmpfs)",
		    mp.v[i].readonly ? " (ro)" : "", mp.v[i].why);
	if (warn.len > 0)
		printf("warnings:\n%s\n", warn.buf);
	lz_mountplan_release(&mp);
	lz_buf_release(&warn);
	return LZ_EXIT_OK;
}

static int
cmd_run_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ "dry-run", no_argument, NULL, 'n' },
		{ "tty", no_argument, NULL, 't' },
		{ "no-tty", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, ctx->json, 0 };
	struct lz_client c;
	struct lz_conn_client cc;
	struct lz_err err = LZ_ERR_INIT;
	int ch, rc, dry = 0, tty = -1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+" LZ_CMD_OPTS_SHORT "tT", opts,
	    NULL)) != -1) {
		if (lz_cmd_opts_take(&o, ch, optarg))
			continue;
		switch (ch) {
		case 'n':
			dry = 1;
			break;
		case 't':
			tty = 1;
			break;
		case 'T':
			tty = 0;
			break;
		default:
			return lz_cmd_usage(&lz_cmd_run);
		}
	}
	if (o.help) {
		printf("usage: lazaret run %s\n", lz_cmd_run.usage);
		return LZ_EXIT_OK;
	}
	if (o.json && !dry) {
		lz_cmd_error("run: --json goes with --dry-run (a session is "
		    "a terminal, not data)");
		return LZ_EXIT_USAGE;
	}
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	if (dry) {
		rc = print_plan(&c, argv + optind, argc - optind, o.json);
		goto out;
	}
	/* A terminal session by default; a command keeps its streams. */
	if (tty < 0)
		tty = argc == optind && isatty(0) && isatty(1);
	if (tty && !isatty(0)) {
		lz_cmd_error("run: -t needs a terminal on standard input");
		rc = LZ_EXIT_USAGE;
		goto out;
	}
	rc = lz_conn_open(&cc, &c, ctx->self, 1, &err);
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		lz_err_release(&err);
		rc = lz_client_exit_code(rc);
		goto out;
	}
	rc = lz_client_session(&cc, &c, argv + optind, argc - optind, tty,
	    NULL);
	lz_conn_close(&cc);
	rc = rc == -2 ? LZ_EXIT_DOMAIN : rc < 0 ? LZ_EXIT_FAILURE : rc;
out:
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_run = {
	.name = "run",
	.usage = "[-p PROFILE] [-C DIR] [-t|-T] [--dry-run [--json]] [--] "
	    "[CMD ...]",
	.summary = "open a session in the project's sandbox (the default)",
	.flags = LZ_CMD_JSON,
	.exec = cmd_run_exec,
};
