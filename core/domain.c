/*
 * domain.c: Domain ID derivation, XDG path resolution and the SR-2 mount
 * checks. Creating and locking the runtime directory is in rundir.c.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <openssl/evp.h>

#include "core/domain.h"
#include "core/gitconfig.h"
#include "core/pathcheck.h"

static int xdg_dir(const char *(*get)(const char *), const char *var,
    const char *home_rel, const char *home, char **out, struct lz_err *err);
static char *canonical_or_planned(const char *path);
static void put_lp(EVP_MD_CTX *md, const char *s);
static char *commondir_above(const char *dir);
static int git_init_begin(pthread_t *t);

/*
 * The ".git/commondir" of the nearest directory at or above dir that has a
 * .git directory, or NULL. A main repository has none; one there makes
 * Git look elsewhere (or fail), so it is named in the error.
 */
static char *
commondir_above(const char *dir)
{
	char *p = lz_xstrdup(dir), *slash, *cd;
	struct stat st;

	for (;;) {
		cd = lz_xasprintf("%s/.git", p);
		if (stat(cd, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(cd);
			cd = lz_xasprintf("%s/.git/commondir", p);
			free(p);
			if (lstat(cd, &st) == 0)
				return cd;
			free(cd);
			return NULL;
		}
		free(cd);
		slash = strrchr(p, '/');
		if (slash == NULL || slash == p) {
			free(p);
			return NULL;
		}
		*slash = '\0';
	}
}

static int
xdg_dir(const char *(*get)(const char *), const char *var,
    const char *home_rel, const char *home, char **out, struct lz_err *err)
{
	const char *v = get(var);

	if (v != NULL && *v != '\0') {
		if (v[0] != '/')
			return lz_err_set(err, LZ_EINVAL, "$%s is '%s', not "
			    "an absolute path; fix or unset it", var, v);
		*out = lz_xasprintf("%s/lazaret", v);
		return 0;
	}
	if (home_rel == NULL)
		return LZ_ENOTFOUND;	/* the caller decides */
	if (home == NULL || home[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "$HOME is %s and $%s is not "
		    "set, so Lazaret cannot place its files; set HOME to your "
		    "home directory", home ? "not absolute" : "not set", var);
	*out = lz_xasprintf("%s/%s/lazaret", home, home_rel);
	return 0;
}

int
lz_paths_runtime_fallback(const char *run_user, uid_t uid, char **out,
    struct lz_err *err)
{
	char *dir = lz_xasprintf("%s/%lu", run_user, (unsigned long)uid);
	struct stat st;
	int rc = 0;

	*out = NULL;
	if (lstat(dir, &st) != 0)
		rc = lz_err_set(err, errno == ENOENT ? LZ_ENOTFOUND : LZ_ESYS,
		    "%s: %s", dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = lz_err_set(err, LZ_EUNSAFE, "%s is %s, not a directory",
		    dir, S_ISLNK(st.st_mode) ? "a symbolic link" :
		    "something else");
	else if (st.st_uid != uid)
		rc = lz_err_set(err, LZ_EUNSAFE, "%s belongs to uid %lu, not "
		    "to you (uid %lu)", dir, (unsigned long)st.st_uid,
		    (unsigned long)uid);
	else if ((st.st_mode & 07777) != 0700)
		rc = lz_err_set(err, LZ_EUNSAFE, "%s has mode %04o, not 0700",
		    dir, (unsigned)(st.st_mode & 07777));
	if (rc == 0)
		*out = dir;
	else
		free(dir);
	return rc;
}

int
lz_paths_init(struct lz_paths *p, const char *(*get)(const char *),
    const char *run_user, struct lz_err *err)
{
	struct lz_err why = LZ_ERR_INIT;
	const char *home = get("HOME");
	char *rt = NULL, *dir;
	int rc;

	memset(p, 0, sizeof *p);
	if ((rc = xdg_dir(get, "XDG_CONFIG_HOME", ".config", home,
	    &p->config_dir, err)) != 0 ||
	    (rc = xdg_dir(get, "XDG_DATA_HOME", ".local/share", home,
	    &p->storage_root, err)) != 0)
		goto fail;
	rc = xdg_dir(get, "XDG_RUNTIME_DIR", NULL, home, &rt, err);
	if (rc == LZ_ENOTFOUND) {
		/* Unset: what podman does, /run/user/UID when it is safe. */
		if (lz_paths_runtime_fallback(run_user, geteuid(), &dir,
		    &why) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "$XDG_RUNTIME_DIR is "
			    "not set, and %s; Lazaret keeps its sockets there "
			    "(log in through a session that sets it, or "
			    "export XDG_RUNTIME_DIR=/run/user/$(id -u) after "
			    "'sudo scripts/setup.sh --user $USER' created "
			    "it)", why.msg);
			lz_err_release(&why);
			goto fail;
		}
		rt = lz_xasprintf("%s/lazaret", dir);
		free(dir);
		p->runtime_fallback = 1;
		rc = 0;
	}
	if (rc != 0)
		goto fail;
	p->runtime_base = rt;
	p->xdg_runtime = lz_xstrndup(rt, strlen(rt) - strlen("/lazaret"));
	p->config_file = lz_xasprintf("%s/config.ini", p->config_dir);
	return 0;
fail:
	lz_paths_release(p);
	return rc;
}

void
lz_paths_release(struct lz_paths *p)
{
	free(p->config_dir);
	free(p->config_file);
	free(p->storage_root);
	free(p->runtime_base);
	free(p->xdg_runtime);
	memset(p, 0, sizeof *p);
}

int
lz_domain_workspace(const char *dir, char **out, struct lz_err *err)
{
	git_repository *repo = NULL;
	const git_error *ge;
	const char *wd;
	char *real = NULL, *cd;
	pthread_t init;
	int rc = 0, g, threaded = 0;

	real = realpath(dir, NULL);
	if (real == NULL) {
		rc = lz_err_set(err, errno == ENOENT ? LZ_ENOTFOUND : LZ_ESYS,
		    "cannot use '%s' as the workspace: %s", dir,
		    strerror(errno));
		goto out;
	}
	/*
	 * Before libgit2 follows includes (a FIFO there would hang it); its
	 * init reads no configuration, and runs meanwhile.
	 */
	threaded = git_init_begin(&init);
	if ((rc = lz_gitconfig_check(real, err)) != 0)
		goto out;
	lz_git_init();
	g = git_repository_open_ext(&repo, real, 0, NULL);
	if (g == GIT_ENOTFOUND && (cd = commondir_above(real)) != NULL) {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' exists: it sends Git to "
		    "another directory's config and hooks (a sandbox may have "
		    "written it); check it, remove it, and run again", cd);
		free(cd);
		goto out;
	}
	if (g == GIT_ENOTFOUND) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "'%s' is not inside a Git "
		    "project; Lazaret mounts a Git work tree at /workspace "
		    "(run 'git init' there, or pass -C PROJECT-DIR)", real);
		goto out;
	}
	if (g < 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot open the Git "
		    "repository at '%s': %s", real, ge ? ge->message :
		    "unknown libgit2 error");
		goto out;
	}
	wd = git_repository_workdir(repo);
	if (wd == NULL) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is a bare Git "
		    "repository; Lazaret needs a work tree (clone it, or "
		    "pass -C with a work tree)", real);
		goto out;
	}
	*out = realpath(wd, NULL);
	if (*out == NULL)
		rc = lz_err_set(err, LZ_ESYS, "cannot resolve work tree '%s': "
		    "%s", wd, strerror(errno));
out:
	if (threaded)
		pthread_join(init, NULL);
	git_repository_free(repo);
	free(real);
	return rc;
}

static void
put_lp(EVP_MD_CTX *md, const char *s)
{
	size_t n = strlen(s);
	unsigned char len[4];

	if (n > UINT32_MAX)
		LZ_BUG("identity field of %zu bytes", n);
	len[0] = (unsigned char)(n >> 24);
	len[1] = (unsigned char)(n >> 16);
	len[2] = (unsigned char)(n >> 8);
	len[3] = (unsigned char)n;
	if (EVP_DigestUpdate(md, len, 4) != 1 ||
	    EVP_DigestUpdate(md, s, n) != 1)
		LZ_BUG("SHA-256 update failed");
}

void
lz_domain_id(const char *profile, const char *workspace,
    char id[LZ_DOMAIN_ID_LEN + 1])
{
	static const char tag[] = "lazaret-domain-v1";
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hl = 0;
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	if (md == NULL || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestUpdate(md, tag, sizeof tag - 1) != 1)
		LZ_BUG("SHA-256 init failed");
	put_lp(md, profile);
	put_lp(md, workspace);
	if (EVP_DigestFinal_ex(md, h, &hl) != 1 || hl < LZ_DOMAIN_ID_LEN / 2)
		LZ_BUG("SHA-256 final failed");
	EVP_MD_CTX_free(md);
	lz_hex(h, LZ_DOMAIN_ID_LEN / 2, id);
}

/* The rest of d, from its profile and canonical workspace (owned). */
static void
domain_fill(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, char *workspace)
{
	memset(d, 0, sizeof *d);
	d->workspace = workspace;
	d->profile = lz_xstrdup(profile);
	lz_domain_id(profile, d->workspace, d->id);
	d->root = lz_xasprintf("%s/domains/%s", paths->storage_root, d->id);
	d->runtime = lz_xasprintf("%s/%s", paths->runtime_base, d->id);
}

int
lz_domain_resolve(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *dir, struct lz_err *err)
{
	char *ws = NULL;
	int rc;

	memset(d, 0, sizeof *d);
	rc = lz_domain_workspace(dir, &ws, err);
	if (rc != 0)
		return rc;
	domain_fill(d, paths, profile, ws);
	return 0;
}

int
lz_domain_given(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *workspace, struct lz_err *err)
{
	char *real;

	memset(d, 0, sizeof *d);
	if (workspace[0] != '/' || (real = realpath(workspace, NULL)) == NULL)
		return lz_err_set(err, LZ_EINVAL, "the workspace handed over, "
		    "'%s', is not an absolute path to a directory that exists",
		    workspace);
	if (strcmp(real, workspace) != 0) {
		lz_err_set(err, LZ_EINVAL, "the workspace handed over, '%s', "
		    "is not canonical (it resolves to '%s')", workspace, real);
		free(real);
		return LZ_EINVAL;
	}
	domain_fill(d, paths, profile, real);
	d->handed = 1;
	return 0;
}

int
lz_domain_verify(const struct lz_domain *d, struct lz_err *err)
{
	char *ws = NULL;
	int rc;

	if (!d->handed)
		return 0;
	if ((rc = lz_domain_workspace(d->workspace, &ws, err)) != 0)
		return rc;
	if (strcmp(ws, d->workspace) != 0)
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is not the top level of "
		    "its Git work tree ('%s' is): a Domain's workspace is the "
		    "whole work tree", d->workspace, ws);
	free(ws);
	return rc;
}

void
lz_domain_release(struct lz_domain *d)
{
	free(d->profile);
	free(d->workspace);
	free(d->root);
	free(d->runtime);
	memset(d, 0, sizeof *d);
}

/*
 * The canonical form of a path that may not exist yet: realpath of its
 * deepest existing ancestor, with the rest appended. Comparisons of such
 * forms are what SR-2 needs; nothing is opened by name afterwards.
 */
static char *
canonical_or_planned(const char *path)
{
	char *copy = lz_xstrdup(path), *slash, *real, *out;
	size_t cut = strlen(copy);

	for (;;) {
		real = realpath(copy, NULL);
		if (real != NULL)
			break;
		slash = strrchr(copy, '/');
		if (slash == NULL || slash == copy) {
			free(copy);
			return lz_xstrdup(path);
		}
		*slash = '\0';
		cut = (size_t)(slash - copy);
	}
	out = lz_xasprintf("%s%s", strcmp(real, "/") == 0 ? "" : real,
	    path + cut);
	free(real);
	free(copy);
	return out;
}

int
lz_domain_check_mounts(const struct lz_domain *d,
    const struct lz_paths *paths, const struct lz_config *cfg,
    const struct lz_profile *prof, struct lz_err *err)
{
	const char *what[3] = { "Storage Root", "runtime directory",
	    "config directory" };
	char *priv[3], *cfgfile = NULL, *mount = NULL;
	size_t i, m;
	int rc = 0;

	priv[0] = canonical_or_planned(paths->storage_root);
	priv[1] = canonical_or_planned(paths->runtime_base);
	priv[2] = canonical_or_planned(paths->config_dir);
	if (cfg->path != NULL)
		cfgfile = lz_xstrdup(cfg->path);
	for (m = 0; m <= prof->nvolumes && rc == 0; m++) {
		const char *name = m == 0 ? "workspace" : "volume";

		free(mount);
		mount = m == 0 ? lz_xstrdup(d->workspace) :
		    canonical_or_planned(prof->volumes[m - 1].host);
		if (cfgfile != NULL && lz_path_beneath(cfgfile, mount)) {
			rc = lz_err_set(err, LZ_EUNSAFE, "config '%s' lies "
			    "beneath the %s '%s', which is mounted into the "
			    "sandbox (SR-2); move the config out of it",
			    cfgfile, name, mount);
			break;
		}
		for (i = 0; i < 3; i++) {
			if (!lz_path_beneath(priv[i], mount))
				continue;
			rc = lz_err_set(err, LZ_EUNSAFE, "the %s '%s' contains "
			    "Lazaret's %s '%s' and would expose it to the "
			    "sandbox; run Lazaret in a project directory, "
			    "not in a parent of ~/.local, ~/.config or "
			    "$XDG_RUNTIME_DIR", name, mount, what[i], priv[i]);
			break;
		}
	}
	for (i = 0; i < 3; i++)
		free(priv[i]);
	free(cfgfile);
	free(mount);
	return rc;
}

/*
 * libgit2 is set up once per process and never shut down: each
 * git_libgit2_init after a shutdown loads the system's CA bundle again
 * (its TLS backend), three times in a coordinator's start.
 */
static void
git_init_once(void)
{
	git_libgit2_init();
}

static pthread_once_t git_once = PTHREAD_ONCE_INIT;

/* Once, whichever thread comes first (the history guard's may). */
void
lz_git_init(void)
{
	if (pthread_once(&git_once, git_init_once) != 0)
		LZ_BUG("pthread_once failed");
}

static void *
git_init_thread(void *arg)
{
	(void)arg;
	lz_git_init();
	return NULL;
}

/*
 * The init costs 4-5 ms (Debian's libgit2 uses mbedTLS, which parses the
 * whole CA bundle there): on a thread of its own it runs while the
 * caller waits for lz_gitconfig_check's git. lz_git_init waits for it
 * (pthread_once). 1 when *t runs it: the caller joins it before it
 * returns, so that no thread outlives it (the thread's OpenSSL state,
 * which libssh2's init makes, is freed only when it has ended). Once per
 * process; 0 when a thread cannot be made (lz_git_init does it then).
 */
static int
git_init_begin(pthread_t *t)
{
	static int begun;

	if (__atomic_exchange_n(&begun, 1, __ATOMIC_SEQ_CST))
		return 0;
	return pthread_create(t, NULL, git_init_thread, NULL) == 0;
}
