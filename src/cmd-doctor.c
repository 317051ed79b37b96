/*
 * cmd-doctor.c: "lazaret doctor [--json]". Runs every prerequisite check
 * (src/doctor.h) and prints a table of ok/FAIL with the exact fix for each
 * failure, or with --json an array of {check, ok, detail, fix}. Exits 0
 * when all pass, LZ_EXIT_ENV otherwise. As root it explains that Lazaret
 * runs rootless and skips the checks of the caller's own account.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/util.h"
#include "src/cmd.h"
#include "src/doctor.h"

static int	 print_json(struct lz_doctor_result *res, size_t n);
static void	 print_table(struct lz_doctor_ctx *ctx,
		     struct lz_doctor_result *res, size_t n, size_t failed);

static int
print_json(struct lz_doctor_result *res, size_t n)
{
	json_t *arr, *o;
	size_t i;
	int rc = 0;

	arr = json_array();
	for (i = 0; i < n; i++) {
		if (res[i].detail == NULL)
			continue;	/* skipped */
		o = json_pack("{s:s, s:b, s:s, s:s?}", "check",
		    lz_doctor_checks[i].name, "ok", res[i].ok, "detail",
		    res[i].detail, "fix", res[i].fix);
		if (o == NULL || json_array_append_new(arr, o) != 0)
			LZ_BUG("cannot build doctor JSON");
	}
	if (json_dumpf(arr, stdout, JSON_INDENT(2)) != 0 ||
	    fputc('\n', stdout) == EOF)
		rc = -1;
	json_decref(arr);
	return rc;
}

static void
print_table(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    size_t n, size_t failed)
{
	size_t i, ran = 0;

	if (ctx->uid == 0)
		printf("You are root. Lazaret runs rootless: as a normal user, "
		    "with the sandbox in\nthat user's user namespace. Set up "
		    "an account with '%s'\nand run lazaret as that user "
		    "('sudo -u lazaret -i'). Checking the host only.\n\n",
		    ctx->setup);
	for (i = 0; i < n; i++) {
		if (res[i].detail == NULL)
			continue;
		ran++;
		printf("%-4s  %-14s  %s\n", res[i].ok ? "ok" : "FAIL",
		    lz_doctor_checks[i].name, res[i].detail);
		if (!res[i].ok && res[i].fix != NULL)
			printf("      %-14s  fix: %s\n", "", res[i].fix);
	}
	if (failed == 0)
		printf("\nall %zu checks passed\n", ran);
	else
		printf("\n%zu of %zu checks failed: run the fix shown for "
		    "each, or '%s'\n", failed, ran, ctx->setup);
}

static int
cmd_doctor_exec(struct lz_cmd_ctx *cctx, int argc, char **argv)
{
	struct lz_doctor_ctx ctx;
	struct lz_doctor_result *res;
	size_t i, failed = 0;
	int json = cctx->json, rc;

	for (i = 1; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			printf("usage: lazaret doctor %s\n%s\n",
			    lz_cmd_doctor.usage, lz_cmd_doctor.summary);
			return LZ_EXIT_OK;
		} else
			return lz_cmd_usage(&lz_cmd_doctor);
	}

	lz_doctor_ctx_init(&ctx);
	res = lz_xcalloc(lz_doctor_nchecks, sizeof *res);
	for (i = 0; i < lz_doctor_nchecks; i++) {
		if (ctx.uid == 0 && lz_doctor_checks[i].user_level)
			continue;
		lz_doctor_checks[i].run(&ctx, &res[i]);
		if (res[i].detail == NULL)
			LZ_BUG("doctor check '%s' set no result",
			    lz_doctor_checks[i].name);
		if (!res[i].ok)
			failed++;
	}
	if (json) {
		if (print_json(res, lz_doctor_nchecks) != 0)
			lz_cmd_error("doctor: cannot write the JSON output");
	} else
		print_table(&ctx, res, lz_doctor_nchecks, failed);
	fflush(stdout);
	rc = failed == 0 ? LZ_EXIT_OK : LZ_EXIT_ENV;

	for (i = 0; i < lz_doctor_nchecks; i++)
		lz_doctor_result_release(&res[i]);
	free(res);
	lz_doctor_ctx_release(&ctx);
	return rc;
}

const struct lz_cmd lz_cmd_doctor = {
	.name = "doctor",
	.usage = "[--json]",
	.summary = "check every prerequisite and print the fix for each failure",
	.flags = LZ_CMD_JSON,
	.exec = cmd_doctor_exec,
};
