/*
 * doctor-podman.c: "lazaret doctor" checks that ask the caller's rootless
 * podman: the storage driver (podman's own answer, whichever storage.conf
 * set it) and the default image. Run through core/spawn, argv only.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sandbox-argv.h"
#include "core/spawn.h"
#include "src/doctor.h"

/* The first podman call of a session may migrate storage: be generous. */
#define PODMAN_TIMEOUT_MS 60000

/*
 * Runs podman with args; on a spawn failure fills res and returns -1.
 * The caller reads r.
 */
static int
podman(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *const *args, struct lz_spawn_result *r)
{
	struct lz_spawn_opts opts = { .timeout_ms = PODMAN_TIMEOUT_MS };
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
	argv[i + 1] = NULL;
	if (lz_spawn_capture(argv, &opts, r, &err) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "%s", err.msg);
		lz_err_release(&err);
		return -1;
	}
	return 0;
}

void
lz_doctor_storage(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	const char *args[] = { "info", "--format",
	    "{{.Store.GraphDriverName}}", NULL };
	struct lz_spawn_result r;
	char *line = NULL;

	lz_spawn_result_init(&r);
	if (podman(ctx, res, args, &r) != 0)
		goto out;
	if (r.status != 0) {
		line = lz_doctor_last_line(r.err.buf);
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman info' "
		    "failed (exit %d): %s", r.status, line);
		goto out;
	}
	line = lz_doctor_last_line(r.out.buf);
	if (strcmp(line, "overlay") == 0)
		lz_doctor_pass(res, "podman storage driver overlay");
	else
		lz_doctor_fail(res, lz_xstrdup("set driver = \"overlay\" under "
		    "[storage] in ~/.config/containers/storage.conf, then "
		    "'podman system reset' (deletes this user's containers and "
		    "images) and run setup again to re-import the image"),
		    "podman storage driver is '%s', not overlay (slow)", line);
out:
	free(line);
	lz_spawn_result_release(&r);
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
	if (podman(ctx, res, args, &r) != 0)
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
