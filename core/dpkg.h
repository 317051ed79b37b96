/*
 * dpkg.h: the installed packages of a dpkg status file
 * (/var/lib/dpkg/status, deb-status(5)) and the difference between two of
 * them, for "lazaret state diff": what an agent installed or removed with
 * apt, read from a State Anchor's upper layer against the image's. The
 * text comes from the sandbox: it is parsed, never trusted (names and
 * versions are shown through visible.h).
 *
 * A package counts as installed when the last word of its Status field is
 * "installed" ("install ok installed", "hold ok installed"). Packages are
 * told apart by name and architecture ("libc6:amd64"), as dpkg does for
 * multi-arch; one listed twice counts once, one with an empty name not at
 * all.
 */
#ifndef LZ_DPKG_H
#define LZ_DPKG_H

#include <stddef.h>

#include "core/util.h"

#define LZ_DPKG_MAX (64 * 1024 * 1024)	/* a larger status file is refused */

struct lz_dpkg_pkg {
	char *name;		/* Package */
	char *arch;		/* Architecture, or "" */
	char *version;		/* Version, or "" */
	char *old;		/* in a diff's "changed": the image's version */
};

struct lz_dpkg {
	struct lz_dpkg_pkg *v;	/* sorted by name, then architecture */
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_DPKG_INIT { NULL, 0, 0 }

/* Parses status text (len bytes) into out (empty on entry). */
int lz_dpkg_parse(const char *text, size_t len, struct lz_dpkg *out,
    struct lz_err *err);
/*
 * The packages of now that base lacks (added), those of base that now
 * lacks (removed), and those in both with another version (changed: old is
 * base's). The lists are sorted.
 */
void lz_dpkg_diff(const struct lz_dpkg *base, const struct lz_dpkg *now,
    struct lz_dpkg *added, struct lz_dpkg *removed, struct lz_dpkg *changed);
void lz_dpkg_release(struct lz_dpkg *d);

#endif
