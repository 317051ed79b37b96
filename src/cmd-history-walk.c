/*
 * cmd-history-walk.c: "lazaret __history-walk FILE", a hidden helper the
 * coordinator runs (core/history.c) to ask the Git history guard's
 * questions about commits in a process of its own: libgit2 maps pack
 * files the sandbox can truncate in place (SIGBUS), and a crafted object
 * can cost memory; here that only costs the answers. Not for people: the
 * request file and the answer lines are core/histgit.h's contract.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "core/histgit.h"
#include "core/readat.h"
#include "src/cmd.h"

static int
cmd_history_walk_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	struct lz_buf req = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	int rc;

	(void)ctx;
	if (argc != 2 || argv[1][0] != '/')
		return lz_cmd_usage(&lz_cmd_history_walk);
	rc = lz_readat(AT_FDCWD, argv[1], LZ_HISTGIT_REQUEST_MAX, &req, NULL);
	if (rc != LZ_READAT_OK) {
		lz_cmd_error("cannot read the request '%s'", argv[1]);
		rc = LZ_EXIT_FAILURE;
	} else if (lz_histgit_answer(req.buf, req.len, &out, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
	} else {
		fwrite(out.buf, 1, out.len, stdout);
		rc = fflush(stdout) == 0 ? LZ_EXIT_OK : LZ_EXIT_FAILURE;
	}
	lz_buf_release(&req);
	lz_buf_release(&out);
	lz_err_release(&err);
	return rc;
}

const struct lz_cmd lz_cmd_history_walk = {
	.name = "__history-walk",
	.usage = "REQUEST-FILE",
	.summary = NULL,
	.flags = 0,
	.exec = cmd_history_walk_exec,
};
