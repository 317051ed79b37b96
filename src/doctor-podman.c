/*
 * doctor-podman.c: running the caller's rootless podman for the doctor's
 * checks (lz_doctor_podman_run: core/spawn, argv only), and the checks of
 * the two images set-up imports. The storage check is doctor-storage.c,
 * the image's CAs doctor-cas.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sandbox-argv.h"
#include "src/doctor.h"

/* The first podman call of a session may migrate storage: be generous. */
#define PODMAN_TIMEOUT_MS 60000

int
lz_doctor_podman_run(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *const *args, const char *const *envp,
    struct lz_spawn_result *r)
{
	struct lz_spawn_opts opts = { .envp = envp,
	    .timeout_ms = PODMAN_TIMEOUT_MS };
	struct lz_err err = LZ_ERR_INIT;
	const char *argv[8];
	size_t i;

	if (ctx->podman == NULL) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "podman not found "
		    "in PATH");
		return -1;
	}
	argv[0] = ctx->podman;
	for (i = 0; args[i] != NULL && i + 2 < sizeof argv / sizeof argv[0];
	    i++)
		argv[i + 1] = args[i];
	if (args[i] != NULL)
		LZ_BUG("more podman arguments than the doctor runs");
	argv[i + 1] = NULL;
	if (lz_spawn_capture(argv, &opts, r, &err) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s", err.msg);
		lz_err_release(&err);
		return -1;
	}
	return 0;
}

static void image_check(struct lz_doctor_ctx *ctx,
    struct lz_doctor_result *res, const char *image);

void
lz_doctor_image(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	image_check(ctx, res, LZ_DOCTOR_IMAGE);
}

void
lz_doctor_sidecar_image(struct lz_doctor_ctx *ctx,
    struct lz_doctor_result *res)
{
	image_check(ctx, res, LZ_SANDBOX_SIDECAR_IMAGE);
}

static void
image_check(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *image)
{
	const char *args[] = { "image", "exists", image, NULL };
	struct lz_spawn_result r;
	char *line = NULL;

	lz_spawn_result_init(&r);
	if (lz_doctor_podman_run(ctx, res, args, NULL, &r) != 0)
		goto out;
	if (r.status == 0)
		lz_doctor_pass(res, "%s present", image);
	else if (r.status == 1 && strstr(r.err.buf, "rror") == NULL)
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s not found in "
		    "this user's podman storage", image);
	else {
		line = lz_doctor_last_line(r.err.buf);
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman image "
		    "exists' failed (exit %d): %s", r.status, line);
	}
out:
	free(line);
	lz_spawn_result_release(&r);
}
