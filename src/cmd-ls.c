/*
 * cmd-ls.c: "lazaret ls": the Client Sessions of the project's running
 * Domain, from its coordinator.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "src/client-conn.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"

static int
cmd_ls_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, ctx->json, 0 };
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_conn_client cc;
	struct lz_client c;
	struct lz_frame f;
	json_t *j, *a, *s;
	size_t i;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (!lz_cmd_opts_take(&o, ch, optarg))
			return lz_cmd_usage(&lz_cmd_ls);
	}
	if (o.help) {
		printf("usage: lazaret ls %s\n", lz_cmd_ls.usage);
		return LZ_EXIT_OK;
	}
	if (optind != argc)
		return lz_cmd_usage(&lz_cmd_ls);
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	rc = lz_conn_open(&cc, &c, ctx->self, 0, &err);
	if (rc == LZ_ENOTFOUND) {
		if (o.json)
			printf("[]\n");
		else
			printf("no sessions: Domain %s is not running\n",
			    c.domain.id);
		rc = LZ_EXIT_OK;
		goto out;
	}
	if (rc == 0) {
		lz_frame_add(&b, LZ_FRAME_LIST, NULL, 0);
		rc = lz_conn_send(&cc, &b, &err);
	}
	if (rc == 0)
		rc = lz_conn_wait(&cc, &f, &payload, &err);
	if (rc == 0 && (j = lz_frame_json(&f, &err)) != NULL) {
		a = json_object_get(j, "sessions");
		if (o.json)
			lz_client_print_json(json_incref(a));
		else {
			printf("%-12s %-9s %-4s %-8s %s\n", "SESSION", "STATE",
			    "TTY", "AGE", "COMMAND");
			json_array_foreach(a, i, s) {
				long age = (long)(time(NULL) -
				    json_integer_value(json_object_get(s,
				    "started")));

				printf("%-12.12s %-9s %-4s %5lds   %s\n",
				    json_string_value(json_object_get(s,
				    "session")), !json_is_true(json_object_get(s,
				    "attached")) && json_is_true(json_object_get(
				    s, "tty")) ? "detached" : json_string_value(
				    json_object_get(s, "state")),
				    json_is_true(json_object_get(s, "tty")) ?
				    "yes" : "no", age, json_string_value(
				    json_object_get(s, "command")));
			}
		}
		json_decref(j);
	} else if (rc == 0)
		rc = LZ_EINVAL;
	if (rc != 0) {
		lz_cmd_error("%s", err.msg ? err.msg : "cannot list sessions");
		rc = lz_client_exit_code(rc);
	}
	lz_conn_close(&cc);
out:
	lz_buf_release(&payload);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_ls = {
	.name = "ls",
	.usage = "[-p PROFILE] [-C DIR] [--json]",
	.summary = "list the Client Sessions of this project's Domain",
	.flags = LZ_CMD_JSON,
	.exec = cmd_ls_exec,
};
