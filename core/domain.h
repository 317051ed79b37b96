/*
 * domain.h: Domain identity and storage (FR-1, SR-10, SR-11). A Domain is
 * one (Agent Profile, canonical Agent Workspace) pair. Its ID is derived
 * deterministically:
 *
 *   id = hex(SHA-256("lazaret-domain-v1" || u32be(len(profile)) || profile
 *                    || u32be(len(workspace)) || workspace)[0..8])
 *
 * 16 hex digits, so "$XDG_RUNTIME_DIR/lazaret/<id>/control.sock" stays far
 * below the 108-byte socket path limit. The workspace is the top level of
 * the Git work tree that contains the given directory, resolved by
 * realpath(3): a symlink to the project and a subdirectory of it name the
 * same Domain. The ID namespaces resources; it authenticates nothing.
 */
#ifndef LZ_DOMAIN_H
#define LZ_DOMAIN_H

#include <sys/types.h>

#include "core/config.h"
#include "core/util.h"

#define LZ_DOMAIN_ID_LEN 16

struct lz_paths {
	char *config_dir;	/* $XDG_CONFIG_HOME/lazaret */
	char *config_file;	/* config_dir/config.ini */
	char *storage_root;	/* $XDG_DATA_HOME/lazaret */
	char *runtime_base;	/* $XDG_RUNTIME_DIR/lazaret */
	char *xdg_runtime;	/* $XDG_RUNTIME_DIR */
	int runtime_fallback;	/* it was unset: xdg_runtime is run_user/UID */
};

struct lz_domain {
	char id[LZ_DOMAIN_ID_LEN + 1];
	char *profile;
	char *workspace;	/* canonical Git top level */
	char *root;		/* storage_root/domains/<id> */
	char *runtime;		/* runtime_base/<id> */
	int handed;		/* by lz_domain_given: Git not asked yet */
};

/*
 * Resolves the XDG paths from the environment given as a getenv-like
 * function (tests pass their own). HOME is needed unless every XDG
 * variable is set. Relative XDG values are refused, as the XDG spec says
 * they must be ignored and a silent fallback would hide a mistake. An
 * unset (or empty) XDG_RUNTIME_DIR is what podman does with it: run_user/
 * UID (LZ_RUN_USER_DIR; the unit tests pass their own) when
 * lz_paths_runtime_fallback accepts it, sets runtime_fallback (the caller
 * exports it, as podman does, so that every child agrees), and is
 * otherwise refused, saying why.
 */
#define LZ_RUN_USER_DIR "/run/user"
int lz_paths_init(struct lz_paths *p, const char *(*get)(const char *),
    const char *run_user, struct lz_err *err);
/*
 * run_user/uid when it is a directory (not a symlink) owned by uid with
 * mode exactly 0700 (what set-up creates); otherwise LZ_ENOTFOUND,
 * LZ_EUNSAFE or LZ_ESYS with why in err.
 */
int lz_paths_runtime_fallback(const char *run_user, uid_t uid, char **out,
    struct lz_err *err);
void lz_paths_release(struct lz_paths *p);

/* Finds the canonical workspace for dir: realpath of its Git top level. */
int lz_domain_workspace(const char *dir, char **out, struct lz_err *err);
/* Computes the ID of (profile, canonical workspace) into id. */
void lz_domain_id(const char *profile, const char *workspace,
    char id[LZ_DOMAIN_ID_LEN + 1]);
/* Fills d for profile and workspace dir (any directory inside the project). */
int lz_domain_resolve(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *dir, struct lz_err *err);
/*
 * Fills d for a workspace another process resolved with
 * lz_domain_resolve (the starting client hands its coordinator the work
 * tree it found): workspace must be canonical, an absolute path that
 * realpath leaves as it is; Git is not asked, so d->handed is set.
 * lz_domain_verify then asks Git, later, once a cold start's first podman
 * runs (src/domain-sandbox.c).
 */
int lz_domain_given(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *workspace, struct lz_err *err);
/*
 * For a Domain lz_domain_given filled: refuses a workspace that is not the
 * Git top level Git finds there. 0 at once for any other Domain.
 */
int lz_domain_verify(const struct lz_domain *d, struct lz_err *err);
void lz_domain_release(struct lz_domain *d);

/*
 * SR-2 and the storage rule of DESIGN.md: refuses a config file beneath the
 * workspace or a volume, and a workspace or volume that contains the
 * Storage Root, the runtime directory or the config directory.
 */
int lz_domain_check_mounts(const struct lz_domain *d,
    const struct lz_paths *paths, const struct lz_config *cfg,
    const struct lz_profile *prof, struct lz_err *err);

/* git_libgit2_init once per process (never shut down: see domain.c). */
void lz_git_init(void);

#endif
