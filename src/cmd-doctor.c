/*
 * cmd-doctor.c: "lazaret doctor". Placeholder until the prerequisite checks
 * land; prints that it checks nothing yet and fails.
 */
#include "src/cmd.h"

static int
cmd_doctor_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	(void)ctx; (void)argc; (void)argv;
	lz_cmd_error("doctor: not implemented yet");
	return LZ_EXIT_FAILURE;
}

const struct lz_cmd lz_cmd_doctor = {
	.name = "doctor",
	.usage = "[--json]",
	.summary = "check every prerequisite and print the fix for each failure",
	.flags = LZ_CMD_JSON,
	.exec = cmd_doctor_exec,
};
