/*
 * anchor.h: State Anchor storage (FR-4, DX-2). Each persistent sandbox
 * path P of a profile has a directory in the Domain Root:
 *
 *   anchors/<name>/path          P itself, one line: which path this is
 *   anchors/<name>/gen-N/upper   overlay upper layer of generation N
 *   anchors/<name>/gen-N/work    overlay work directory
 *   anchors/<name>/current       symlink "gen-N", replaced atomically
 *                                (symlink + rename) by a reset
 *   anchors/<name>/merged        mount point of the merged overlay
 *   anchors/<name>/lower-empty   lower layer when the image lacks P
 *
 * <name> is P without its leading '/', with every byte other than
 * A-Z a-z 0-9 '.' '_' '-' written as %XX (upper-case hex): "/usr/local"
 * -> "usr%2Flocal", "/usr-local" -> "usr-local". The encoding is
 * injective, so two paths never share a directory (resetting one never
 * resets the other), and a name carries none of the characters an
 * overlay option string cannot ("," ":" "\\").
 *
 * Migration. Lazaret before this layout turned '/' into '-' and wrote no
 * "path" file, so "/usr/local" and "/usr-local" shared "usr-local". Such
 * a legacy directory (one without "path") is taken over by the first
 * path whose old name it is when that path is prepared (at a launch, under
 * the lifecycle lock): renamed to the new name if that differs, then its
 * "path" written. That is the directory the old code used for the path,
 * so nothing a Domain had is lost or changes owner.
 *
 * Every directory is created 0700 and checked by descriptor (rundir.h).
 * The overlay itself is mounted inside podman's rootless namespace by the
 * runtime shim (anchor-annot.h).
 */
#ifndef LZ_ANCHOR_H
#define LZ_ANCHOR_H

#include "core/util.h"

#define LZ_ANCHOR_GEN_MAX 1000000	/* "gen-N" beyond: refused */

struct lz_anchor {
	char *path;		/* in the sandbox, e.g. "/usr" */
	char *name;		/* "usr" */
	unsigned gen;		/* the current generation */
	char *upper;
	char *work;
	char *merged;
	char *lower_empty;
};

/* The directory name of anchor path (see above); caller frees. */
char *lz_anchor_name(const char *path);
/* The name the old layout gave path ('/' as '-'); caller frees. */
char *lz_anchor_legacy_name(const char *path);
/*
 * Creates what is missing for anchor path under domain_root (generation 1
 * when there is no "current" yet), migrating a legacy directory (see
 * above), and fills a. A "current" link that does not name "gen-<digits>"
 * is refused (LZ_EUNSAFE): it is never followed anywhere else. So is a
 * directory whose "path" names another path.
 */
int lz_anchor_prepare(const char *domain_root, const char *path,
    struct lz_anchor *a, struct lz_err *err);
void lz_anchor_release(struct lz_anchor *a);

/*
 * Reads "current" in the anchor directory dirfd: *gen gets N of "gen-N",
 * or 0 when there is no "current". LZ_EUNSAFE when it is not a symlink to
 * "gen-<1..LZ_ANCHOR_GEN_MAX>" (shown names the directory in the message).
 * Whether gen-N exists is the caller's question.
 */
int lz_anchor_read_current(int dirfd, const char *shown, unsigned *gen,
    struct lz_err *err);
/* N of an entry name "gen-N" (no leading zero), or 0 for any other name. */
unsigned lz_anchor_gen_number(const char *name);
/*
 * Reads the "path" record of the anchor directory dirfd: *path gets it
 * (allocated), or NULL when there is none (a legacy directory). LZ_EINVAL
 * when it is not a normalised absolute path whose encoding is name.
 */
int lz_anchor_read_path(int dirfd, const char *name, char **path,
    struct lz_err *err);
/*
 * The migration above for path, in the anchors/ directory anchorsfd, then
 * makes sure anchors/<name> exists with its "path" record (LZ_EUNSAFE when
 * the record names another path). shown names anchors/ in messages. The
 * caller holds the lifecycle lock.
 */
int lz_anchor_adopt(int anchorsfd, const char *shown, const char *path,
    struct lz_err *err);
/* Writes the "path" record (temporary file, fsync, rename). */
int lz_anchor_write_path(int dirfd, const char *path, struct lz_err *err);

#endif
