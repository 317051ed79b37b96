/*
 * cmd-ls.c: "lazaret ls": the Client Sessions of the project's running
 * Domain, from its coordinator.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/visible.h"
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
	struct lz_err err = LZ_ERR_INIT;
	struct lz_msg_sessions l = LZ_MSG_SESSIONS_INIT;
	struct lz_msg_session *s;
	struct lz_conn_client cc;
	struct lz_client c;
	json_t *a;
	char *note;
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
	if (rc == 0)
		rc = lz_conn_list(&cc, &l, &err);
	if (rc == 0 && o.json) {
		a = json_array();
		for (i = 0; i < l.n; i++) {
			s = &l.v[i];
			json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:b,"
			    "s:s,s:I,s:s?,s:b,s:i}", "session", s->session,
			    "command", s->command, "cwd", s->cwd, "tty", s->tty,
			    "state", s->running ? "running" : "exited",
			    "started", (json_int_t)s->started, "client",
			    s->client[0] ? s->client : NULL, "attached",
			    s->client[0] != '\0', "pending", (int)s->pending));
		}
		lz_client_print_json(a);
	} else if (rc == 0) {
		printf("%-12s %-9s %-4s %-8s %-7s %s\n", "SESSION", "STATE",
		    "TTY", "AGE", "ASKING", "COMMAND");
		for (i = 0; i < l.n; i++) {
			s = &l.v[i];
			printf("%-12.12s %-9s %-4s %5llds   %-7u %s\n",
			    s->session, s->client[0] == '\0' && s->tty &&
			    s->running ? "detached" : s->running ? "running" :
			    "exited", s->tty ? "yes" : "no",
			    (long long)time(NULL) - s->started, s->pending,
			    s->command);
		}
		/* A detached session's request waits for an attach. */
		for (i = 0; i < l.n; i++)
			if (l.v[i].pending > 0 && l.v[i].client[0] == '\0')
				printf("session %.12s asks for host access: "
				    "'lazaret attach %.12s' to answer\n",
				    l.v[i].session, l.v[i].session);
	}
	if (rc == 0 && l.omitted > 0)
		lz_cmd_error("%zu more session%s not listed: the list is "
		    "longer than the coordinator sends at once", l.omitted,
		    l.omitted == 1 ? "" : "s");
	if (rc == 0 && l.history != NULL) {
		/* The coordinator's words, with ref names of the sandbox's. */
		note = lz_visible_str(l.history, 0);
		lz_cmd_error("history changed: %s; 'lazaret git restore' "
		    "brings it back", note);
		free(note);
	}
	if (rc != 0) {
		lz_cmd_error("%s", err.msg ? err.msg : "cannot list sessions");
		rc = lz_client_exit_code(rc);
	}
	lz_conn_close(&cc);
	lz_msg_sessions_release(&l);
out:
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
