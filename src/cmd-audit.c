/*
 * cmd-audit.c: "lazaret audit": the escalation audit log of this
 * project's Domain (core/audit.h), oldest first: what the sandbox asked,
 * who decided, what ran and how it ended. The sandbox's text is shown
 * escaped (core/visible.h); --json prints the records as JSON lines.
 */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "core/audit.h"
#include "core/visible.h"
#include "src/client-setup.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"

struct show {
	int json;
	int vis;		/* LZ_VISIBLE_ASCII: not a UTF-8 locale */
	size_t n;
	struct lz_buf out;
};

static int
show_one(const struct lz_audit_entry *e, void *ctx)
{
	struct show *s = ctx;

	lz_buf_reset(&s->out);
	if (s->json) {
		/* Re-encoded from the decoded record: canonical, ASCII. */
		if (lz_audit_encode(e, &s->out, NULL) != 0)
			return 0;
		lz_buf_addch(&s->out, '\n');
	} else
		lz_audit_describe(e, s->vis, &s->out);
	fwrite(s->out.buf, 1, s->out.len, stdout);
	s->n++;
	return 0;
}

static int
cmd_audit_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, ctx->json, 0 };
	struct lz_buf warnings = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct show s = { 0, 0, 0, LZ_BUF_INIT };
	struct lz_client c;
	const char *p, *nl;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (!lz_cmd_opts_take(&o, ch, optarg))
			return lz_cmd_usage(&lz_cmd_audit);
	}
	if (o.help) {
		printf("usage: lazaret audit %s\n%s\n", lz_cmd_audit.usage,
		    lz_cmd_audit.summary);
		return LZ_EXIT_OK;
	}
	if (optind != argc)
		return lz_cmd_usage(&lz_cmd_audit);
	rc = lz_client_setup(&c, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	s.json = o.json;
	setlocale(LC_CTYPE, "");
	s.vis = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 ? 0 :
	    LZ_VISIBLE_ASCII;
	rc = lz_audit_read(c.domain.root, show_one, &s, &warnings, &err);
	/* A parser's message can quote the line: escaped too. */
	for (p = warnings.buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		lz_buf_reset(&s.out);
		lz_visible_add(&s.out, p, (size_t)(nl - p), s.vis);
		lz_cmd_error("skipped a record: %s", s.out.buf);
	}
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
	} else {
		if (s.n == 0 && !s.json)
			printf("no escalation requests recorded for Domain "
			    "%s\n", c.domain.id);
		rc = LZ_EXIT_OK;
	}
	lz_buf_release(&s.out);
	lz_buf_release(&warnings);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

const struct lz_cmd lz_cmd_audit = {
	.name = "audit",
	.usage = "[-p PROFILE] [-C DIR] [--json]",
	.summary = "show the escalation audit log of this project's Domain",
	.flags = LZ_CMD_JSON,
	.exec = cmd_audit_exec,
};
