/*
 * anchor.h: State Anchor storage (FR-4, DX-2). Each persistent sandbox
 * path P of a profile has a directory in the Domain Root:
 *
 *   anchors/<name>/gen-N/upper   overlay upper layer of generation N
 *   anchors/<name>/gen-N/work    overlay work directory
 *   anchors/<name>/current       symlink "gen-N", replaced atomically
 *                                (symlink + rename) by a future reset
 *   anchors/<name>/merged        mount point of the merged overlay
 *   anchors/<name>/lower-empty   lower layer when the image lacks P
 *
 * <name> is P without its leading '/' and with '/' turned into '-'
 * ("/usr/local" -> "usr-local"). Every directory is created 0700 and
 * checked by descriptor (rundir.h). The overlay itself is mounted inside
 * podman's rootless namespace by the coordinator (anchor-mount.c).
 */
#ifndef LZ_ANCHOR_H
#define LZ_ANCHOR_H

#include "core/util.h"

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
/*
 * Creates what is missing for anchor path under domain_root (generation 1
 * when there is no "current" yet) and fills a. A "current" link that does
 * not name "gen-<digits>" with an existing directory is refused
 * (LZ_EUNSAFE): it is never followed anywhere else.
 */
int lz_anchor_prepare(const char *domain_root, const char *path,
    struct lz_anchor *a, struct lz_err *err);
void lz_anchor_release(struct lz_anchor *a);

#endif
