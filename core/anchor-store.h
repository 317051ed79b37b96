/*
 * anchor-store.h: a Domain's State Anchors as they are on disk, for
 * "lazaret state" (FR-11, SR-14): which anchor directories exist, which
 * sandbox path each is for, its current generation and what an
 * interrupted reset left; the structural checks of "state verify"; and
 * the reset itself with its recovery (OR-5). The layout is anchor.h's.
 *
 * Everything works on descriptors of the Domain Root and of anchors/
 * opened by the caller (private, checked by rundir.h), and opens each
 * entry beneath them with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS):
 * a symlink where a directory of the layout should be is reported, never
 * followed. The caller runs inside podman's rootless namespace (where the
 * sandbox's files can be removed) and, for a reset or a recovery, holds
 * the Domain's lifecycle lock with the Domain inactive (SR-14).
 *
 * Reset (OR-5), for one anchor directory:
 *   1. gen-M is made (M = 1 + the highest gen-N there) with empty upper
 *      and work directories, and synced;
 *   2. "current.tmp" -> gen-M is made and renamed over "current", and the
 *      directory synced: one atomic switch;
 *   3. every entry but path, current, gen-M, merged and lower-empty is
 *      removed (lz_rmtree_at: never a symlink followed, never a mount
 *      crossed).
 * Killed at any point, "current" names the old generation (steps 1-2) or
 * the new empty one (step 3); never a partly removed one. What is left is
 * removed by lz_anchor_recover, which the next "state reset" or "state
 * verify" runs first.
 */
#ifndef LZ_ANCHOR_STORE_H
#define LZ_ANCHOR_STORE_H

#include "core/anchor-mount.h"
#include "core/tokens.h"
#include "core/util.h"

struct lz_anchor_info {
	char *name;		/* directory under anchors/ */
	char *path;		/* sandbox path; NULL when unknown */
	int legacy;		/* no "path" record (made by an old Lazaret) */
	unsigned gen;		/* current generation; 0: none, or bad */
	char *problem;		/* what is wrong (with the fix), or NULL */
	struct lz_tokens leftovers;	/* left by an interrupted reset */
};

struct lz_anchor_set {
	struct lz_anchor_info *v;	/* sorted by path (unknown last) */
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_ANCHOR_SET_INIT { NULL, 0, 0 }

/*
 * Reads the anchors/ directory of the Domain Root rootfd (none: an empty
 * set). persist, the profile's anchor paths when known (else NULL), names
 * the path of a legacy directory whose old name is ambiguous ("usr-local"
 * is "/usr-local" or "/usr/local"). Problems of one anchor are in its
 * info, not failures.
 */
int lz_anchor_set_read(int rootfd, const struct lz_tokens *persist,
    struct lz_anchor_set *s, struct lz_err *err);
/* The anchor of sandbox path exactly, or NULL. */
struct lz_anchor_info *lz_anchor_set_find(const struct lz_anchor_set *s,
    const char *path);
/* The anchor whose path is path or an ancestor of it, or NULL. */
struct lz_anchor_info *lz_anchor_set_cover(const struct lz_anchor_set *s,
    const char *path);
void lz_anchor_set_release(struct lz_anchor_set *s);

/*
 * Opens anchors/ of rootfd (O_DIRECTORY, beneath, no symlink), making it
 * when create is set. -1 with errno when it cannot (ENOENT: none).
 */
int lz_anchor_dir_open(int rootfd, int create);

/*
 * The checks of "state verify" for anchor a: problems (each "PATH: what;
 * fix") and notes are appended. mi is podman's namespace's mountinfo
 * (its merged directory must not be mounted); droot the Domain Root's
 * path as that mountinfo shows it.
 */
void lz_anchor_check(int anchorsfd, const struct lz_anchor_info *a,
    const struct lz_mountinfo *mi, const char *droot,
    struct lz_tokens *problems, struct lz_tokens *notes);

/* Resets anchor directory name (see above); *gen gets M. */
int lz_anchor_reset(int anchorsfd, const char *name, const char *shown,
    unsigned *gen, struct lz_err *err);
/*
 * Removes what an interrupted reset left in anchor directory name (the
 * names go to removed). Refused (LZ_EUNSAFE) while "current" is bad or
 * names a missing generation: only a reset repairs that.
 */
int lz_anchor_recover(int anchorsfd, const char *name, const char *shown,
    struct lz_tokens *removed, struct lz_err *err);

#endif
