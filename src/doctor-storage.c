/*
 * doctor-storage.c: the "storage" check of "lazaret doctor". Lazaret runs
 * podman with the caller's environment, so podman's own answer ("podman
 * info": the storage.conf it read, the driver, where its images are) is
 * what counts. It is printed beside what set-up wrote and imported with:
 * ~/.config/containers/storage.conf of the account's passwd home, and the
 * images in the storage podman uses for that home when no XDG variable or
 * CONTAINERS_STORAGE_CONF moves it. When the caller's environment moves
 * any of them, podman is asked a second time with set-up's environment
 * and the two answers are compared.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/util.h"
#include "src/doctor.h"

struct store {
	char *config;		/* storage.conf podman read (may not exist) */
	char *driver;
	char *graph;		/* where its images are */
};

static int	 ask_store(struct lz_doctor_ctx *ctx,
		     struct lz_doctor_result *res, const char *const *envp,
		     const char *whose, struct store *st);
static void	 store_release(struct store *st);
static int	 env_moves_storage(const char *home);
static int	 same_file(const char *a, const char *b);
static char	*env_fix(const char *home);

static void
store_release(struct store *st)
{
	free(st->config);
	free(st->driver);
	free(st->graph);
	memset(st, 0, sizeof *st);
}

/*
 * "podman info" in envp into st; on a failure fills res (with podman's own
 * error line) and returns -1. whose names the environment in messages.
 */
static int
ask_store(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *const *envp, const char *whose, struct store *st)
{
	const char *args[] = { "info", "--format", "{{json .Store}}", NULL };
	struct lz_spawn_result r;
	json_error_t jerr;
	json_t *j = NULL;
	const char *config = NULL, *driver = NULL, *graph = NULL;
	char *line = NULL;
	int rc = -1;

	memset(st, 0, sizeof *st);
	lz_spawn_result_init(&r);
	if (lz_doctor_podman_run(ctx, res, args, envp, &r) != 0)
		goto out;
	if (r.status != 0) {
		/* Where the caller's environment moves podman's files, that
		 * is the first suspect (a directory podman cannot create). */
		line = lz_doctor_last_line(r.err.buf);
		lz_doctor_fail(res, envp == NULL && ctx->home != NULL &&
		    env_moves_storage(ctx->home) ? env_fix(ctx->home) :
		    lz_xstrdup(ctx->setup), "'podman info' %sfailed (exit "
		    "%d): %s", whose, r.status, line);
		goto out;
	}
	j = json_loads(r.out.buf, 0, &jerr);
	if (j == NULL || json_unpack_ex(j, &jerr, 0, "{s:s, s:s, s:s}",
	    "configFile", &config, "graphDriverName", &driver, "graphRoot",
	    &graph) != 0) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman info' "
		    "%sprinted no storage answer: %s", whose, jerr.text);
		goto out;
	}
	st->config = lz_xstrdup(config);
	st->driver = lz_xstrdup(driver);
	st->graph = lz_xstrdup(graph);
	rc = 0;
out:
	json_decref(j);
	free(line);
	lz_spawn_result_release(&r);
	return rc;
}

/* 1 when the caller's environment can put podman's storage elsewhere. */
static int
env_moves_storage(const char *home)
{
	static const char *const vars[] = { "XDG_CONFIG_HOME", "XDG_DATA_HOME",
	    "CONTAINERS_STORAGE_CONF" };
	const char *v = getenv("HOME");
	size_t i;

	if (v == NULL || strcmp(v, home) != 0)
		return 1;
	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		v = getenv(vars[i]);
		if (v != NULL && *v != '\0')
			return 1;
	}
	return 0;
}

/* 1 when both names lead to the same existing file. */
static int
same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) != NULL && realpath(b, rb) != NULL &&
	    strcmp(ra, rb) == 0;
}

/* What to change in the caller's environment, for the variables set. */
static char *
env_fix(const char *home)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *v;

	if ((v = getenv("CONTAINERS_STORAGE_CONF")) != NULL && *v != '\0')
		lz_buf_addf(&b, "unset CONTAINERS_STORAGE_CONF; ");
	if ((v = getenv("XDG_CONFIG_HOME")) != NULL && *v != '\0')
		lz_buf_addf(&b, "unset XDG_CONFIG_HOME, or keep it and link "
		    "podman's configuration: ln -s %s/.config/containers "
		    "%s/containers; ", home, v);
	if ((v = getenv("XDG_DATA_HOME")) != NULL && *v != '\0')
		lz_buf_addf(&b, "unset XDG_DATA_HOME, or keep it and link "
		    "podman's storage: ln -s %s/.local/share/containers "
		    "%s/containers; ", home, v);
	if ((v = getenv("HOME")) == NULL || strcmp(v, home) != 0)
		lz_buf_addf(&b, "export HOME=%s; ", home);
	if (b.len == 0)
		lz_buf_adds(&b, "unset what moves podman's storage; ");
	lz_buf_adds(&b, "then run lazaret doctor again");
	return lz_buf_detach(&b);
}

void
lz_doctor_storage(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct store mine, setup;
	char *wrote = NULL, *env[6];
	const char *rt;
	size_t i;

	memset(&setup, 0, sizeof setup);
	memset(env, 0, sizeof env);
	if (ask_store(ctx, res, NULL, "", &mine) != 0)
		return;
	if (strcmp(mine.driver, "overlay") != 0) {
		lz_doctor_fail(res, lz_xstrdup("set driver = \"overlay\" under "
		    "[storage] in ~/.config/containers/storage.conf, then "
		    "'podman system reset' (deletes this user's containers and "
		    "images) and run setup again to re-import the image"),
		    "podman storage driver is '%s', not overlay (slow); podman "
		    "read %s", mine.driver, mine.config);
		goto out;
	}
	if (ctx->home == NULL) {
		lz_doctor_pass(res, "overlay; podman read %s, images in %s "
		    "(no home in passwd to compare with set-up's)",
		    mine.config, mine.graph);
		goto out;
	}
	wrote = lz_xasprintf("%s/.config/containers/storage.conf", ctx->home);
	if (!same_file(mine.config, wrote)) {
		lz_doctor_fail(res, access(wrote, F_OK) == 0 ?
		    env_fix(ctx->home) : lz_xstrdup(ctx->setup), "podman "
		    "read %s%s, not the file set-up wrote, %s%s", mine.config,
		    access(mine.config, F_OK) == 0 ? "" : " (missing: podman's "
		    "defaults)", wrote, access(wrote, F_OK) == 0 ? "" :
		    " (missing)");
		goto out;
	}
	if (env_moves_storage(ctx->home)) {
		/* What set-up ran podman with (scripts/setup-lib.sh). */
		rt = getenv("XDG_RUNTIME_DIR");
		env[0] = lz_xasprintf("HOME=%s", ctx->home);
		env[1] = lz_xasprintf("USER=%s", ctx->user);
		env[2] = lz_xasprintf("LOGNAME=%s", ctx->user);
		env[3] = lz_xasprintf("PATH=%s", getenv("PATH") != NULL ?
		    getenv("PATH") : LZ_SPAWN_PATH_DEFAULT);
		env[4] = rt != NULL && *rt != '\0' ?
		    lz_xasprintf("XDG_RUNTIME_DIR=%s", rt) :
		    lz_xasprintf("XDG_RUNTIME_DIR=/run/user/%lu",
		    (unsigned long)ctx->uid);
		if (ask_store(ctx, res, (const char *const *)env,
		    "with set-up's environment ", &setup) != 0)
			goto out;
		if (!same_file(mine.graph, setup.graph)) {
			lz_doctor_fail(res, env_fix(ctx->home), "podman keeps "
			    "its images in %s, set-up imported them into %s "
			    "(podman read %s)", mine.graph, setup.graph,
			    mine.config);
			goto out;
		}
	}
	if (strcmp(mine.config, wrote) == 0)
		lz_doctor_pass(res, "overlay; podman read %s, the file set-up "
		    "wrote; images in %s", mine.config, mine.graph);
	else
		lz_doctor_pass(res, "overlay; podman read %s, which is %s, the "
		    "file set-up wrote; images in %s", mine.config, wrote,
		    mine.graph);
out:
	for (i = 0; i < sizeof env / sizeof env[0]; i++)
		free(env[i]);
	free(wrote);
	store_release(&mine);
	store_release(&setup);
}
