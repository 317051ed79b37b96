/*
 * cmd-attach.c: "lazaret attach [--raw] [SESSION]": back to the detached
 * terminal sessions of the project's running Domain, in the TUI, one pane
 * each, their screens (and scrollback) redrawn from the coordinator's
 * panes. SESSION is an ID or a unique prefix: only that one, taken over
 * (after asking) when another client shows it. --raw attaches one session
 * straight to the terminal, as 'lazaret run' shows it; without SESSION it
 * takes the only detached one.
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
#include "src/tui.h"

static void
free_ids(char **ids)
{
	size_t i;

	for (i = 0; ids != NULL && ids[i] != NULL; i++)
		free(ids[i]);
	free(ids);
}

/*
 * The running terminal sessions to attach to: with want (an ID or a
 * prefix), the one it names, wherever it is shown (*elsewhere set when
 * another client shows it); without, every detached one (one only for
 * --raw: one), oldest first.
 */
static char **
pick(const struct lz_msg_sessions *l, const char *want, int one,
    int *elsewhere, struct lz_err *err)
{
	char **ids = lz_xcalloc(l->n + 1, sizeof *ids), *tmp;
	size_t i, n = 0;

	*elsewhere = 0;
	for (i = 0; i < l->n; i++) {
		if (!l->v[i].tty || !l->v[i].running)
			continue;
		if (want != NULL && strncmp(l->v[i].session, want,
		    strlen(want)) != 0)
			continue;
		if (l->v[i].client[0] != '\0') {
			if (want == NULL)
				continue;
			*elsewhere = 1;
		}
		ids[n++] = lz_xstrdup(l->v[i].session);
	}
	/* The coordinator lists the newest first: panes go oldest first. */
	for (i = 0; i < n / 2; i++) {
		tmp = ids[i];
		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = tmp;
	}
	if (n == 1 || (n > 1 && want == NULL && !one))
		return ids;
	free_ids(ids);
	if (n == 0)
		lz_err_set(err, LZ_ENOTFOUND, "%s ('lazaret ls' lists the "
		    "sessions)", want ? "no running terminal session with that "
		    "ID" : "no detached terminal session");
	else
		lz_err_set(err, LZ_EINVAL, "%u sessions match; name one "
		    "('lazaret ls' lists them)", (unsigned)n);
	return NULL;
}

/* Asks on the plain terminal before taking a session from another client. */
static int
confirm_take(const char *id)
{
	char answer[16];

	fprintf(stderr, "session %.12s is shown by another lazaret client; "
	    "take it over? [y/N] ", id);
	if (fgets(answer, sizeof answer, stdin) == NULL)
		return 0;
	return answer[0] == 'y' || answer[0] == 'Y';
}

static int
cmd_attach_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ "raw", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, 0, 0 };
	struct lz_err err = LZ_ERR_INIT;
	struct lz_msg_sessions list = LZ_MSG_SESSIONS_INIT;
	struct lz_conn_client cc;
	struct lz_client c;
	char **ids = NULL;
	int ch, rc, raw = 0, elsewhere = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (ch == 'r')
			raw = 1;
		else if (!lz_cmd_opts_take(&o, ch, optarg))
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
	if (rc == 0)
		rc = lz_conn_list(&cc, &list, &err);
	if (rc == 0 && (ids = pick(&list, argc > optind ? argv[optind] : NULL,
	    raw, &elsewhere, &err)) == NULL)
		rc = LZ_ENOTFOUND;
	if (rc != 0) {
		lz_cmd_error("%s", err.msg ? err.msg : "cannot attach");
		rc = lz_client_exit_code(rc);
	} else if (raw) {
		rc = lz_client_session(&cc, &c, NULL, 0, 1, ids[0]);
		rc = rc == -2 ? LZ_EXIT_DOMAIN : rc < 0 ? LZ_EXIT_FAILURE : rc;
	} else if (elsewhere && !confirm_take(ids[0])) {
		fprintf(stderr, "not attached\n");
		rc = LZ_EXIT_BUSY;
	} else {
		lz_conn_close(&cc);
		rc = lz_tui_run(&c, ctx->self, NULL, 0, ids, elsewhere);
	}
	free_ids(ids);
	lz_msg_sessions_release(&list);
	lz_conn_close(&cc);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_attach = {
	.name = "attach",
	.usage = "[-p PROFILE] [-C DIR] [--raw] [SESSION]",
	.summary = "return to detached terminal sessions (in the TUI)",
	.flags = 0,
	.exec = cmd_attach_exec,
};
