/*
 * state-helper.h: the parts of "lazaret __state" (src/cmd-state-helper.c),
 * the helper "lazaret state" runs inside podman's rootless namespace as
 *
 *   podman unshare -- SELF __state VERB --domain ID [--persist P]...
 *       [--image IMAGE] [options] [PATH...]
 *
 * There the upper layers' files (owned by the sandbox's subordinate IDs)
 * can be read and removed, the anchors' overlays are mounted, and the
 * image can be mounted as the lower layer. The helper resolves the Domain
 * Root itself from the Domain ID and the XDG variables podman passes on;
 * it is never given a host path. It writes JSON on stdout (the schemas of
 * docs/schemas/state-*.schema.json, which "lazaret state --json" prints) and a message
 * on stderr with an exit status of enum lz_exit on failure.
 */
#ifndef LZ_STATE_HELPER_H
#define LZ_STATE_HELPER_H

#include <jansson.h>

#include "core/anchor-store.h"
#include "core/domain.h"
#include "core/tokens.h"

enum lz_state_helper_flags {
	LZ_SH_ENTRIES = 1 << 0,		/* scan: every change */
	LZ_SH_GROUPS = 1 << 1,		/* scan: changes by directory */
	LZ_SH_DPKG = 1 << 2,		/* scan: packages added and removed */
	LZ_SH_ALL = 1 << 3,		/* reset: every anchor */
	LZ_SH_IGNORED = 1 << 4,		/* reset: Ignored Workspace State */
	LZ_SH_FORGET = 1 << 5,		/* reset: and its list of paths */
};

struct lz_state_helper {
	struct lz_paths paths;
	char id[LZ_DOMAIN_ID_LEN + 1];
	char *droot;			/* the Domain Root, canonical */
	int rootfd, anchorsfd;		/* anchorsfd -1: no anchors/ */
	struct lz_tokens persist;	/* the profile's paths, when known */
	const char *image;		/* NULL: none to mount */
	char *image_root;		/* mounted image, or NULL */
	char *image_error;		/* why there is no image root */
	int image_mounted;
	struct lz_anchor_set set;
	int flags;
	char **argv;			/* PATH operands */
	int argc;
};

/* The scan verb: the JSON document of "state inspect | diff". */
int lz_state_helper_scan(struct lz_state_helper *h, json_t **out);
/* The cat verb: the merged view's file path, raw, to stdout. */
int lz_state_helper_cat(struct lz_state_helper *h);
/* Unmounts the image if the helper mounted it. */
void lz_state_helper_unmount(struct lz_state_helper *h);

#endif
