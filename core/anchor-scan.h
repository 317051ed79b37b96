/*
 * anchor-scan.h: what a State Anchor's upper layer holds, against its lower
 * layer (the image's directory), for "lazaret state inspect | diff |
 * verify | list" (FR-11, DX-6). It runs inside podman's rootless
 * namespace (the "__state" helper), where the upper layer's files, owned
 * by the sandbox's subordinate IDs, can all be read.
 *
 * Everything here is by descriptor: each directory is opened from the
 * layer's root with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_XDEV); entries are looked at with fstatat(AT_SYMLINK_NOFOLLOW).
 * A symlink in an upper layer is content (/etc/alternatives is full of
 * absolute ones): it is reported as a symlink and never followed, in
 * either layer. File contents are never read, except by
 * lz_scan_lookup's caller, on request.
 *
 * Classification, as overlayfs itself merges (Documentation/filesystems/
 * overlayfs.rst), for each upper entry E at relative path P:
 *   deleted   E is a whiteout (a character device 0:0)
 *   opaque    E is a directory with user.overlay.opaque = "y" over a lower
 *             directory: the lower one's content is hidden; everything
 *             beneath E is "added"
 *   added     the lower layer has no P (or P is beneath an added or opaque
 *             directory, or the lower's P is not a directory while E is)
 *   modified  a non-directory E where the lower has P (replaced, or
 *             copied up by a change of content, mode or owner)
 * A directory present in both layers is no change itself; its entries are.
 *
 * Notes (not problems: a sandbox may do all of this) are collected for
 * device nodes other than whiteouts, setuid and setgid files, entries
 * owned by an ID outside the namespace's map (the overflow ID), overlay
 * xattrs that a "userxattr" mount does not write (redirect, metacopy),
 * whiteouts written as xattrs, and opaque values other than "y".
 */
#ifndef LZ_ANCHOR_SCAN_H
#define LZ_ANCHOR_SCAN_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

enum lz_change_kind {
	LZ_CHANGE_ADDED,
	LZ_CHANGE_MODIFIED,
	LZ_CHANGE_DELETED,
	LZ_CHANGE_OPAQUE,
	LZ_CHANGE_KINDS
};

enum lz_scan_flags {
	LZ_SCAN_KEEP = 1 << 0,		/* keep every change in v */
	LZ_SCAN_GROUPS = 1 << 1,	/* aggregate changes by directory */
	LZ_SCAN_XATTRS = 1 << 2,	/* list every entry's xattrs (notes) */
};

#define LZ_SCAN_SAMPLES 5	/* names kept per group */

struct lz_change {
	char *path;		/* relative to the anchor's path; raw bytes */
	unsigned char kind;	/* enum lz_change_kind */
	char type;		/* f d l c b p s: the upper entry's; for a
				 * deletion the lower's ('-' when none) */
	unsigned mode;		/* st_mode & 07777 of the upper entry */
	long long size;		/* st_size of the upper entry */
	char *link;		/* a symlink's target (raw), else NULL */
};

/* Changes counted under one first-level name of the anchor ("bin"). */
struct lz_scan_top {
	char *name;		/* "" for entries of the anchor's own root */
	unsigned long long count[LZ_CHANGE_KINDS];
};

/*
 * Changes by directory, for a human diff: a directory that exists in the
 * lower layer gets the changes of its direct entries; a new (or opaque)
 * directory gets everything beneath it, so a new tree is one group.
 */
struct lz_scan_group {
	char *dir;		/* relative path; "" for the anchor's root */
	char kind;		/* 'E' existing, 'A' new, 'O' opaque */
	unsigned long long files[LZ_CHANGE_KINDS]; /* non-directories */
	unsigned long long dirs;	/* directories added beneath */
	unsigned long long bytes;	/* st_size of what was added or
					 * changed */
	char *sample[LZ_SCAN_SAMPLES];	/* first names, relative to dir */
	size_t nsample;
};

struct lz_scan_note {
	char *path;		/* relative; raw bytes */
	char *what;		/* trusted text */
};

struct lz_scan {
	unsigned long long count[LZ_CHANGE_KINDS];
	unsigned long long entries;	/* entries in the upper layer */
	unsigned long long bytes;	/* on disk: st_blocks * 512 */
	struct lz_change *v;		/* with LZ_SCAN_KEEP */
	size_t n, alloc;
	struct lz_scan_top *tops;
	size_t ntops, tops_alloc;
	struct lz_scan_group *groups;	/* with LZ_SCAN_GROUPS */
	size_t ngroups, groups_alloc;
	struct lz_scan_note *notes;
	size_t nnotes, notes_alloc;
	int truncated;			/* a directory too deep to open */
};

/*
 * Scans the tree under upperfd (an anchor's upper layer, or a directory
 * in it) against lowerfd (the same place in the lower layer; -1 when there
 * is none: everything is then "added"). prefix is prepended to every
 * reported path ("" at the anchor's root, "bin/" for a scan started at
 * "bin"). Fails only when the top cannot be read; a subdirectory that
 * cannot be opened (too deep, gone) sets truncated and gets a note.
 */
int lz_scan_tree(int upperfd, int lowerfd, const char *prefix, int flags,
    struct lz_scan *s, struct lz_err *err);
void lz_scan_release(struct lz_scan *s);
const char *lz_change_name(int kind);

/* Where a path of the merged view comes from. */
enum lz_lookup_where {
	LZ_LOOKUP_NONE,		/* in neither layer */
	LZ_LOOKUP_UPPER,
	LZ_LOOKUP_LOWER,
	LZ_LOOKUP_DELETED,	/* a whiteout in the upper layer hides it */
	LZ_LOOKUP_SYMLINK,	/* a component is a symlink: not followed */
};

/*
 * Looks rel (relative to the anchor, no "." or ".." components) up as the
 * merged overlay would, without following any symlink: *where says which
 * layer holds it; *upper and *lower get O_PATH descriptors of it in each
 * layer that has it at its place in the merge (-1 otherwise; the caller
 * closes them). A symlink on the way, or as rel itself, gives
 * LZ_LOOKUP_SYMLINK (and the link's target in *link when not NULL). rel ""
 * is the anchor's root.
 */
int lz_scan_lookup(int upperfd, int lowerfd, const char *rel, int *where,
    int *upper, int *lower, char **link, struct lz_err *err);

#endif
