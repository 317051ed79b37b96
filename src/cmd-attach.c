/*
 * cmd-attach.c: "lazaret attach [SESSION]": back to a detached terminal
 * session of the project's running Domain, its screen redrawn from the
 * coordinator's pane. SESSION is an ID or a unique prefix; without it the
 * only detached terminal session is taken.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/client-conn.h"
#include "src/client-session.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"

static int pick(json_t *sessions, const char *want, char **out,
    struct lz_err *err);

/* Finds the detached pty session matching want (a prefix, or NULL). */
static int
pick(json_t *sessions, const char *want, char **out, struct lz_err *err)
{
	const char *id, *found = NULL;
	size_t i, n = 0;
	json_t *s;

	json_array_foreach(sessions, i, s) {
		id = json_string_value(json_object_get(s, "session"));
		if (id == NULL || !json_is_true(json_object_get(s, "tty")))
			continue;
		if (want != NULL && strncmp(id, want, strlen(want)) != 0)
			continue;
		if (want == NULL && json_is_true(json_object_get(s,
		    "attached")))
			continue;
		found = id;
		n++;
	}
	if (n == 1) {
		*out = lz_xstrdup(found);
		return 0;
	}
	if (n == 0)
		return lz_err_set(err, LZ_ENOTFOUND, "%s ('lazaret ls' lists "
		    "the sessions)", want ? "no terminal session with that ID" :
		    "no detached terminal session");
	return lz_err_set(err, LZ_EINVAL, "%u sessions match; name one "
	    "('lazaret ls' lists them)", (unsigned)n);
}

static int
cmd_attach_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, 0, 0 };
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_conn_client cc;
	struct lz_client c;
	struct lz_frame f;
	char *id = NULL;
	json_t *j = NULL;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (!lz_cmd_opts_take(&o, ch, optarg))
			return lz_cmd_usage(&lz_cmd_attach);
	}
	if (o.help) {
		printf("usage: lazaret attach %s\n", lz_cmd_attach.usage);
		return LZ_EXIT_OK;
	}
	if (argc - optind > 1)
		return lz_cmd_usage(&lz_cmd_attach);
	if (!isatty(0) || !isatty(1)) {
		lz_cmd_error("attach: needs a terminal");
		return LZ_EXIT_USAGE;
	}
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	rc = lz_conn_open(&cc, &c, ctx->self, 0, &err);
	if (rc == 0) {
		lz_frame_add(&b, LZ_FRAME_LIST, NULL, 0);
		rc = lz_conn_send(&cc, &b, &err);
	}
	if (rc == 0)
		rc = lz_conn_wait(&cc, &f, &payload, &err);
	if (rc == 0 && (j = lz_frame_json(&f, &err)) == NULL)
		rc = LZ_EINVAL;
	if (rc == 0)
		rc = pick(json_object_get(j, "sessions"), argc > optind ?
		    argv[optind] : NULL, &id, &err);
	if (rc != 0) {
		lz_cmd_error("%s", err.msg ? err.msg : "cannot attach");
		rc = lz_client_exit_code(rc);
	} else {
		rc = lz_client_session(&cc, &c, NULL, 0, 1, id);
		rc = rc < 0 ? LZ_EXIT_FAILURE : rc;
	}
	json_decref(j);
	free(id);
	lz_conn_close(&cc);
	lz_buf_release(&payload);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_attach = {
	.name = "attach",
	.usage = "[-p PROFILE] [-C DIR] [SESSION]",
	.summary = "return to a detached terminal session",
	.flags = 0,
	.exec = cmd_attach_exec,
};
