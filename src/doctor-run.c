/*
 * doctor-run.c: the table of "lazaret doctor" checks, the context they
 * share (who is asking, where setup.sh is) and the result helpers. The
 * checks themselves are in the other doctor-*.c files.
 */
#include <sys/stat.h>

#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spawn.h"
#include "core/util.h"
#include "src/doctor.h"

static char	*find_setup(const char *exe_dir);

const struct lz_doctor_check lz_doctor_checks[] = {
	{ "rootless", 0, lz_doctor_rootless },
	{ "podman", 0, lz_doctor_podman },
	{ "runsc", 0, lz_doctor_runsc },
	{ "shim", 0, lz_doctor_shim },
	{ "subuid", 1, lz_doctor_subuid },
	{ "subgid", 1, lz_doctor_subgid },
	{ "dev-net-tun", 0, lz_doctor_tun },
	{ "dev-fuse", 0, lz_doctor_fuse },
	{ "cgroups", 0, lz_doctor_cgroups },
	{ "runtime-dir", 1, lz_doctor_runtime_dir },
	{ "storage", 1, lz_doctor_storage },
	{ "image", 1, lz_doctor_image },
	{ "image-cas", 1, lz_doctor_image_cas },
	{ "sidecar-image", 1, lz_doctor_sidecar_image },
};
const size_t lz_doctor_nchecks =
    sizeof lz_doctor_checks / sizeof lz_doctor_checks[0];

/*
 * The setup script beside the running binary: build/<dir>/lazaret in a
 * source tree, or PREFIX/share/lazaret/scripts once installed there.
 */
static char *
find_setup(const char *exe_dir)
{
	const char *rel[] = { "../../scripts/setup.sh",
	    "../share/lazaret/scripts/setup.sh" };
	char *cand, resolved[PATH_MAX];
	size_t i;

	for (i = 0; exe_dir != NULL && i < sizeof rel / sizeof rel[0]; i++) {
		cand = lz_xasprintf("%s/%s", exe_dir, rel[i]);
		if (realpath(cand, resolved) != NULL &&
		    access(resolved, X_OK) == 0) {
			free(cand);
			return lz_xstrdup(resolved);
		}
		free(cand);
	}
#ifdef LZ_SOURCE_DIR
	return lz_xstrdup(LZ_SOURCE_DIR "/scripts/setup.sh");
#else
	return NULL;
#endif
}

void
lz_doctor_ctx_init(struct lz_doctor_ctx *ctx)
{
	struct passwd *pw;
	char exe[PATH_MAX], *slash, *setup;
	ssize_t n;

	memset(ctx, 0, sizeof *ctx);
	ctx->uid = getuid();
	ctx->gid = getgid();
	pw = getpwuid(ctx->uid);
	ctx->user = pw != NULL ? lz_xstrdup(pw->pw_name) :
	    lz_xasprintf("%lu", (unsigned long)ctx->uid);
	ctx->home = pw != NULL && pw->pw_dir[0] == '/' ?
	    lz_xstrdup(pw->pw_dir) : NULL;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL && slash != exe) {
			*slash = '\0';
			ctx->exe_dir = lz_xstrdup(exe);
		}
	}
	setup = find_setup(ctx->exe_dir);
	if (setup != NULL)
		ctx->setup = lz_xasprintf("sudo %s --user %s", setup,
		    ctx->uid == 0 ? "lazaret" : ctx->user);
	else
		ctx->setup = lz_xasprintf("sudo scripts/setup.sh --user %s "
		    "(from the Lazaret source tree)",
		    ctx->uid == 0 ? "lazaret" : ctx->user);
	free(setup);
	if (lz_spawn_find("podman", NULL, &ctx->podman, NULL) != 0)
		ctx->podman = NULL;
}

void
lz_doctor_ctx_release(struct lz_doctor_ctx *ctx)
{
	free(ctx->user);
	free(ctx->home);
	free(ctx->setup);
	free(ctx->exe_dir);
	free(ctx->podman);
	memset(ctx, 0, sizeof *ctx);
}

void
lz_doctor_result_release(struct lz_doctor_result *res)
{
	free(res->detail);
	free(res->fix);
	memset(res, 0, sizeof *res);
}

/* Replaces res with a verdict; takes ownership of fix. */
static void
set_result(struct lz_doctor_result *res, int ok, char *fix, const char *fmt,
    va_list ap)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_buf_vaddf(&b, fmt, ap);
	lz_doctor_result_release(res);
	res->ok = ok;
	res->detail = lz_buf_detach(&b);
	res->fix = fix;
}

void
lz_doctor_pass(struct lz_doctor_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_result(res, 1, NULL, fmt, ap);
	va_end(ap);
}

/* Takes ownership of fix. */
void
lz_doctor_fail(struct lz_doctor_result *res, char *fix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_result(res, 0, fix, fmt, ap);
	va_end(ap);
}

char *
lz_doctor_last_line(const char *s)
{
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	return lz_xstrndup(start, (size_t)(end - start));
}
