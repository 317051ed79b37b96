/*
 * test-domain.c: Domain ID stability and distinctness (FR-1), canonical
 * workspace resolution through Git and symlinks, a workspace handed over
 * (lz_domain_given, lz_domain_verify), XDG path resolution and the SR-2
 * mount checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <git2.h>

#include "core/domain.h"
#include "tests/unit/testlib.h"

static const char *fake_env[16][2];

static const char *
get_fake(const char *name)
{
	size_t i;

	for (i = 0; fake_env[i][0] != NULL; i++) {
		if (strcmp(fake_env[i][0], name) == 0)
			return fake_env[i][1];
	}
	return NULL;
}

static void
set_env(const char *const *kv)
{
	size_t i;

	memset(fake_env, 0, sizeof fake_env);
	for (i = 0; kv[2 * i] != NULL; i++) {
		fake_env[i][0] = kv[2 * i];
		fake_env[i][1] = kv[2 * i + 1];
	}
}

static void
test_id_stable(void **state)
{
	char id[LZ_DOMAIN_ID_LEN + 1];

	(void)state;
	/*
	 * A golden value: if this changes, every user's Domains move. Bump
	 * the "lazaret-domain-v1" tag on purpose instead. The value was computed
	 * independently from the documented encoding (docs/journal.md).
	 */
	lz_domain_id("default", "/home/dev/project", id);
	assert_string_equal(id, "bf5d173cb2b2c922");
	assert_int_equal(strlen(id), 16);
}

static void
test_id_distinct(void **state)
{
	char a[17], b[17], c[17], d[17];

	(void)state;
	lz_domain_id("default", "/p", a);
	lz_domain_id("other", "/p", b);
	lz_domain_id("default", "/q", c);
	assert_string_not_equal(a, b);
	assert_string_not_equal(a, c);
	/* Length prefixes: moving bytes between fields changes the ID. */
	lz_domain_id("ab", "/c", c);
	lz_domain_id("a", "b/c", d);
	assert_string_not_equal(c, d);
}

static void
test_workspace(void **state)
{
	char dir[] = "/tmp/lz-test-ws-XXXXXX", path[256], link[256];
	git_repository *repo = NULL;
	char *ws = NULL, *ws2 = NULL;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* Not a Git project: a clear error, not a silent default. */
	assert_int_equal(lz_domain_workspace(dir, &ws, &e), LZ_ENOTFOUND);
	assert_non_null(strstr(e.msg, "is not inside a Git project"));
	assert_non_null(strstr(e.msg, "git init"));
	lz_err_release(&e);

	git_libgit2_init();
	snprintf(path, sizeof path, "%s/proj", dir);
	assert_int_equal(git_repository_init(&repo, path, 0), 0);
	git_repository_free(repo);
	snprintf(path, sizeof path, "%s/proj/sub", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(link, sizeof link, "%s/link", dir);
	snprintf(path, sizeof path, "%s/proj", dir);
	assert_int_equal(symlink(path, link), 0);

	snprintf(path, sizeof path, "%s/proj/sub", dir);
	assert_int_equal(lz_domain_workspace(path, &ws, NULL), 0);
	assert_int_equal(lz_domain_workspace(link, &ws2, NULL), 0);
	assert_string_equal(ws, ws2);
	snprintf(path, sizeof path, "%s/proj", dir);
	assert_string_equal(ws, path);
	free(ws);
	free(ws2);

	/* A bare repository has no work tree to mount. */
	snprintf(path, sizeof path, "%s/bare.git", dir);
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	git_repository_free(repo);
	assert_int_equal(lz_domain_workspace(path, &ws, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "bare"));
	lz_err_release(&e);

	snprintf(path, sizeof path, "%s/missing", dir);
	assert_int_equal(lz_domain_workspace(path, &ws, &e), LZ_ENOTFOUND);
	lz_err_release(&e);
	git_libgit2_shutdown();
	lz_test_rmrf(dir);
}

/* A new directory ws, taken by lz_domain_given and refused by Git. */
static void
given_refused(const struct lz_paths *p, const char *ws, int code,
    const char *says, const char *names)
{
	struct lz_domain d;
	struct lz_err e = LZ_ERR_INIT;

	assert_int_equal(mkdir(ws, 0700), 0);
	assert_int_equal(lz_domain_given(&d, p, "default", ws, NULL), 0);
	assert_int_equal(lz_domain_verify(&d, &e), code);
	assert_non_null(strstr(e.msg, says));
	assert_non_null(strstr(e.msg, names));
	lz_err_release(&e);
	lz_domain_release(&d);
}

/*
 * The coordinator's Domain from the workspace its client handed over:
 * the same Domain as lz_domain_resolve's, and Git asked only by
 * lz_domain_verify, which refuses anything but the work tree's top level.
 */
static void
test_given(void **state)
{
	static const char *const env[] = { "HOME", "/h", "XDG_RUNTIME_DIR",
	    "/run/user/7", NULL };
	char dir[] = "/tmp/lz-test-given-XXXXXX", path[256], link[256];
	struct lz_paths p;
	struct lz_domain a, b;
	struct lz_err e = LZ_ERR_INIT;
	git_repository *repo = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	set_env(env);
	assert_int_equal(lz_paths_init(&p, get_fake, "/run/user", NULL), 0);
	git_libgit2_init();
	snprintf(path, sizeof path, "%s/proj", dir);
	assert_int_equal(git_repository_init(&repo, path, 0), 0);
	git_repository_free(repo);

	assert_int_equal(lz_domain_resolve(&a, &p, "default", path, NULL), 0);
	assert_int_equal(a.handed, 0);
	assert_int_equal(lz_domain_verify(&a, NULL), 0);
	assert_int_equal(lz_domain_given(&b, &p, "default", path, NULL), 0);
	assert_int_equal(b.handed, 1);
	assert_string_equal(a.id, b.id);
	assert_string_equal(a.runtime, b.runtime);
	assert_string_equal(a.root, b.root);
	assert_int_equal(lz_domain_verify(&b, NULL), 0);
	lz_domain_release(&a);
	lz_domain_release(&b);

	/* Refused before anything is read: relative, missing, not canonical. */
	assert_int_equal(lz_domain_given(&b, &p, "default", "proj", &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not an absolute path"));
	lz_err_release(&e);
	snprintf(link, sizeof link, "%s/missing", dir);
	assert_int_equal(lz_domain_given(&b, &p, "default", link, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	snprintf(link, sizeof link, "%s/link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(lz_domain_given(&b, &p, "default", link, &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not canonical"));
	assert_non_null(strstr(e.msg, path));
	lz_err_release(&e);

	/* Taken, then refused by Git: a subdirectory, then no project. */
	snprintf(link, sizeof link, "%s/proj/sub", dir);
	given_refused(&p, link, LZ_EINVAL, "is not the top level", path);
	snprintf(link, sizeof link, "%s/plain", dir);
	given_refused(&p, link, LZ_ENOTFOUND, "is not inside a Git project",
	    link);
	git_libgit2_shutdown();
	lz_paths_release(&p);
	lz_test_rmrf(dir);
}

static void
test_paths(void **state)
{
	static const char *const full[] = { "HOME", "/h", "XDG_RUNTIME_DIR",
	    "/run/user/7", NULL };
	static const char *const xdg[] = { "XDG_CONFIG_HOME", "/c",
	    "XDG_DATA_HOME", "/d", "XDG_RUNTIME_DIR", "/r", NULL };
	static const char *const no_rt[] = { "HOME", "/h", NULL };
	static const char *const no_home[] = { "XDG_RUNTIME_DIR", "/r", NULL };
	static const char *const rel[] = { "HOME", "/h", "XDG_DATA_HOME",
	    "rel", "XDG_RUNTIME_DIR", "/r", NULL };
	struct lz_paths p;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	set_env(full);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", NULL), 0);
	assert_string_equal(p.config_file, "/h/.config/lazaret/config.ini");
	assert_string_equal(p.storage_root, "/h/.local/share/lazaret");
	assert_string_equal(p.runtime_base, "/run/user/7/lazaret");
	assert_string_equal(p.xdg_runtime, "/run/user/7");
	lz_paths_release(&p);

	set_env(xdg);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", NULL), 0);
	assert_string_equal(p.config_dir, "/c/lazaret");
	assert_string_equal(p.storage_root, "/d/lazaret");
	lz_paths_release(&p);

	set_env(no_rt);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "$XDG_RUNTIME_DIR is not set"));
	assert_non_null(strstr(e.msg, "/nonexistent-run-user/"));
	lz_err_release(&e);

	set_env(no_home);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "$HOME is not set"));
	lz_err_release(&e);

	set_env(rel);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "$XDG_DATA_HOME is 'rel'"));
	lz_err_release(&e);
}

/*
 * An unset XDG_RUNTIME_DIR: RUN_USER/UID as podman does, only when it is a
 * directory of the user's with mode 0700; otherwise refused, saying why.
 */
static void
test_runtime_fallback(void **state)
{
	static const char *const no_rt[] = { "HOME", "/h", NULL };
	static const char *const empty_rt[] = { "HOME", "/h",
	    "XDG_RUNTIME_DIR", "", NULL };
	char base[] = "/tmp/lz-test-runuser.XXXXXX", dir[64], want[80];
	char link[80], *out = NULL;
	struct lz_paths p;
	struct lz_err e = LZ_ERR_INIT;
	uid_t uid = geteuid();

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(dir, sizeof dir, "%s/%lu", base, (unsigned long)uid);

	/* Missing. */
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, &e),
	    LZ_ENOTFOUND);
	assert_null(out);
	lz_err_release(&e);

	/* Present, the user's, 0700: used, and marked as a fallback. */
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, NULL), 0);
	assert_string_equal(out, dir);
	free(out);
	set_env(no_rt);
	assert_int_equal(lz_paths_init(&p, get_fake, base, NULL), 0);
	snprintf(want, sizeof want, "%s/lazaret", dir);
	assert_string_equal(p.runtime_base, want);
	assert_string_equal(p.xdg_runtime, dir);
	assert_int_equal(p.runtime_fallback, 1);
	lz_paths_release(&p);
	set_env(empty_rt);
	assert_int_equal(lz_paths_init(&p, get_fake, base, NULL), 0);
	assert_int_equal(p.runtime_fallback, 1);
	lz_paths_release(&p);

	/* Group or other bits, missing owner bits, another user's. */
	assert_int_equal(chmod(dir, 0750), 0);
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, &e),
	    LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "mode 0750, not 0700"));
	lz_err_release(&e);
	set_env(no_rt);
	assert_int_equal(lz_paths_init(&p, get_fake, base, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "$XDG_RUNTIME_DIR is not set, and"));
	assert_non_null(strstr(e.msg, "mode 0750, not 0700"));
	lz_err_release(&e);
	assert_int_equal(chmod(dir, 0500), 0);
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, &e),
	    LZ_EUNSAFE);
	lz_err_release(&e);
	assert_int_equal(chmod(dir, 01700), 0);
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, &e),
	    LZ_EUNSAFE);
	lz_err_release(&e);
	assert_int_equal(chmod(dir, 0700), 0);
	if (uid == 0) {		/* scripts/test.sh runs the unit tests as root */
		assert_int_equal(chown(dir, 4242, (gid_t)-1), 0);
		assert_int_equal(lz_paths_runtime_fallback(base, 0, &out, &e),
		    LZ_EUNSAFE);
		assert_non_null(strstr(e.msg, "belongs to uid 4242"));
		lz_err_release(&e);
	}
	assert_int_equal(rmdir(dir), 0);

	/* A symlink to a good directory is not taken. */
	snprintf(link, sizeof link, "%s/real", base);
	assert_int_equal(mkdir(link, 0700), 0);
	assert_int_equal(symlink(link, dir), 0);
	assert_int_equal(lz_paths_runtime_fallback(base, uid, &out, &e),
	    LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "symbolic link"));
	lz_err_release(&e);
	assert_null(out);
	lz_test_rmrf(base);
}

static void
test_mount_checks(void **state)
{
	static const char *const env[] = { "HOME", "/home/dev",
	    "XDG_RUNTIME_DIR", "/run/user/1000", NULL };
	struct lz_paths p;
	struct lz_config cfg;
	struct lz_domain d;
	struct lz_err e = LZ_ERR_INIT;
	static const char vol[] = "[profile v]\nvolume = /home /h\n";

	(void)state;
	set_env(env);
	assert_int_equal(lz_paths_init(&p, get_fake, "/nonexistent-run-user", NULL), 0);
	assert_int_equal(lz_config_load_buffer(&cfg, "c.ini", vol,
	    sizeof vol - 1, NULL), 0);
	memset(&d, 0, sizeof d);

	d.workspace = "/home/dev/project";
	assert_int_equal(lz_domain_check_mounts(&d, &p, &cfg,
	    lz_config_profile(&cfg, "default"), NULL), 0);

	/* A workspace at $HOME would expose every Domain's state. */
	d.workspace = "/home/dev";
	assert_int_equal(lz_domain_check_mounts(&d, &p, &cfg,
	    lz_config_profile(&cfg, "default"), &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "contains Lazaret's Storage Root"));
	lz_err_release(&e);

	/* So would a volume of /home. */
	d.workspace = "/home/dev/project";
	assert_int_equal(lz_domain_check_mounts(&d, &p, &cfg,
	    lz_config_profile(&cfg, "v"), &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "the volume '/home'"));
	lz_err_release(&e);

	/* A config file inside the workspace (SR-2). */
	cfg.path = lz_xstrdup("/home/dev/project/.lazaret/config.ini");
	assert_int_equal(lz_domain_check_mounts(&d, &p, &cfg,
	    lz_config_profile(&cfg, "default"), &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "lies beneath the workspace"));
	assert_non_null(strstr(e.msg, "SR-2"));
	lz_err_release(&e);
	lz_config_release(&cfg);
	lz_paths_release(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_stable),
		cmocka_unit_test(test_id_distinct),
		cmocka_unit_test(test_workspace),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_runtime_fallback),
		cmocka_unit_test(test_mount_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
