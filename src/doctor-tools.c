/*
 * doctor-tools.c: "lazaret doctor" checks of the programs Lazaret runs:
 * the caller is not root, podman, gVisor's runsc (the backports version)
 * and the runtime shim lazaret-runsc. Each program is run through
 * core/spawn with a timeout, never through a shell.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runsc-argv.h"
#include "core/spawn.h"
#include "src/doctor.h"

#define TOOL_TIMEOUT_MS 30000

static long	 runsc_date(const char *version);

void
lz_doctor_rootless(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	if (ctx->uid != 0) {
		lz_doctor_pass(res, "running as '%s' (uid %lu)", ctx->user,
		    (unsigned long)ctx->uid);
		return;
	}
	lz_doctor_fail(res, lz_xstrdup("sudo -u lazaret -i lazaret doctor "
	    "(the account 'sudo scripts/setup.sh' creates), or run lazaret "
	    "as your own user"),
	    "running as root: Lazaret runs rootless, as a normal user whose "
	    "sandbox lives in a user namespace; the account checks were "
	    "skipped");
}

void
lz_doctor_podman(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct lz_spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS };
	struct lz_spawn_result r;
	struct lz_err err = LZ_ERR_INIT;
	const char *argv[] = { NULL, "version", "--format",
	    "{{.Client.Version}}", NULL };
	char *line = NULL;

	lz_spawn_result_init(&r);
	if (ctx->podman == NULL) {
		lz_doctor_fail(res, lz_xasprintf("sudo apt-get install podman, "
		    "or: %s", ctx->setup), "podman not found in PATH");
		goto out;
	}
	argv[0] = ctx->podman;
	if (lz_spawn_capture(argv, &opts, &r, &err) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s", err.msg);
		goto out;
	}
	line = lz_doctor_last_line(r.status == 0 ? r.out.buf : r.err.buf);
	if (r.status != 0)
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman version' "
		    "failed (exit %d): %s", r.status, line);
	else
		lz_doctor_pass(res, "podman %s (%s)", line, ctx->podman);
out:
	free(line);
	lz_err_release(&err);
	lz_spawn_result_release(&r);
}

/* The YYYYMMDD date in a runsc version string, or -1. */
static long
runsc_date(const char *version)
{
	const char *p;
	int i;

	for (p = version; *p != '\0'; p++) {
		if (p[0] != '2' || p[1] != '0')
			continue;
		for (i = 0; i < 8 && isdigit((unsigned char)p[i]); i++)
			;
		if (i == 8 && !isdigit((unsigned char)p[8]))
			return strtol(p, NULL, 10);
	}
	return -1;
}

void
lz_doctor_runsc(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct lz_spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS };
	struct lz_spawn_result r;
	struct lz_err err = LZ_ERR_INIT;
	const char *argv[] = { LZ_RUNSC_PATH, "--version", NULL };
	char *fix = NULL, *first = NULL;
	long date;

	fix = lz_xasprintf("%s (it installs runsc with 'apt-get install -t "
	    "bookworm-backports runsc')", ctx->setup);
	lz_spawn_result_init(&r);
	if (lz_spawn_capture(argv, &opts, &r, &err) != 0) {
		lz_doctor_fail(res, fix, "%s", err.msg);
		fix = NULL;
		goto out;
	}
	first = lz_xstrndup(r.out.buf, strcspn(r.out.buf, "\n"));
	date = runsc_date(first);
	if (r.status != 0 || date < 0)
		lz_doctor_fail(res, fix, "'%s --version' failed (exit %d)",
		    LZ_RUNSC_PATH, r.status);
	else if (date < LZ_RUNSC_MIN_DATE)
		lz_doctor_fail(res, fix, "%s is too old (%ld; need %ld or "
		    "later from bookworm-backports: bookworm's own breaks "
		    "coreutils in the sandbox)", first, date,
		    LZ_RUNSC_MIN_DATE);
	else {
		lz_doctor_pass(res, "%s (%s)", first, LZ_RUNSC_PATH);
		free(fix);
	}
	fix = NULL;
out:
	free(first);
	free(fix);
	lz_err_release(&err);
	lz_spawn_result_release(&r);
}

/*
 * The shim beside the running lazaret (the install puts both in the same
 * bin directory), else in PATH. It must be executable and writable by no
 * one but root or the caller: podman runs it as the sandbox's runtime.
 * Running it with --version proves it execs runsc.
 */
void
lz_doctor_shim(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct lz_spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS };
	struct lz_spawn_result r;
	struct lz_err err = LZ_ERR_INIT;
	const char *argv[] = { NULL, "--version", NULL };
	char *path = NULL, *line = NULL;
	struct stat st;

	lz_spawn_result_init(&r);
	if (ctx->exe_dir != NULL) {
		path = lz_xasprintf("%s/%s", ctx->exe_dir, LZ_DOCTOR_SHIM);
		if (access(path, X_OK) != 0) {
			free(path);
			path = NULL;
		}
	}
	if (path == NULL &&
	    lz_spawn_find(LZ_DOCTOR_SHIM, NULL, &path, NULL) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s not found "
		    "beside lazaret or in PATH", LZ_DOCTOR_SHIM);
		goto out;
	}
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(path, X_OK) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'%s' is not an "
		    "executable file", path);
		goto out;
	}
	if ((st.st_mode & 022) != 0 || (st.st_uid != 0 &&
	    st.st_uid != ctx->uid)) {
		lz_doctor_fail(res, lz_xasprintf("sudo chown root: %s && sudo "
		    "chmod 0755 %s", path, path), "'%s' can be changed by "
		    "another user (mode %03o, owner uid %lu)", path,
		    (unsigned)(st.st_mode & 0777), (unsigned long)st.st_uid);
		goto out;
	}
	argv[0] = path;
	if (lz_spawn_capture(argv, &opts, &r, &err) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s", err.msg);
		goto out;
	}
	line = lz_doctor_last_line(r.err.buf);
	if (r.status != 0 || strstr(r.out.buf, "runsc version") == NULL)
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'%s --version' "
		    "did not reach runsc (exit %d): %s", path, r.status, line);
	else
		lz_doctor_pass(res, "%s execs %s", path, LZ_RUNSC_PATH);
out:
	free(line);
	free(path);
	lz_err_release(&err);
	lz_spawn_result_release(&r);
}
