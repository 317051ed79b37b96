/*
 * anchor-mount.h: mounting State Anchors (FR-4, DX-2) as kernel overlays.
 * This code runs inside podman's rootless user and mount namespace, where
 * "lazaret __anchor" (src/cmd-anchor-helper.c) is re-executed through
 * "podman unshare": a mount made anywhere else is invisible to the
 * containers (RUNTIME-NOTES.md). core/sandbox.c drives it.
 *
 * Each anchor is "mount -t overlay lzanchor -o lowerdir=L,upperdir=U,
 * workdir=W,userxattr M": L the image's directory for the anchored path
 * (or the anchor's empty lower directory when the image lacks it), U and W
 * the current generation (anchor.h), M the anchor's merged directory,
 * which the sandbox then binds in. Mounting is idempotent: an overlay
 * already at M with the same upper directory is left alone; anything else
 * at M is an error. Unmounting uses a plain umount and falls back to
 * MNT_DETACH only when that fails with EBUSY (a process of a dying sandbox
 * may still hold it); the caller is told which happened.
 *
 * Also here: a /proc/self/mountinfo parser (proc(5)), used to see what is
 * mounted without trusting a path string.
 */
#ifndef LZ_ANCHOR_MOUNT_H
#define LZ_ANCHOR_MOUNT_H

#include <stddef.h>

#include "core/util.h"

#define LZ_ANCHOR_FSNAME "lzanchor"

/* One line of mountinfo, with octal escapes (\040 ...) decoded. */
struct lz_mountinfo_entry {
	unsigned id;
	unsigned parent;
	char *dev;		/* "major:minor" of its file system */
	char *root;		/* root of the mount within its filesystem */
	char *mountpoint;
	char *fstype;
	char *source;
	char *superopts;	/* still comma-separated; values escaped */
};

struct lz_mountinfo {
	struct lz_mountinfo_entry *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_MOUNTINFO_INIT { NULL, 0, 0 }

/*
 * Parses mountinfo text (every line, in order). LZ_EINVAL with the line
 * number on a malformed line; mi is left empty then.
 */
int lz_mountinfo_parse(const char *text, struct lz_mountinfo *mi,
    struct lz_err *err);
/* Reads and parses /proc/self/mountinfo. */
int lz_mountinfo_read(struct lz_mountinfo *mi, struct lz_err *err);
void lz_mountinfo_release(struct lz_mountinfo *mi);
/* The topmost (last) mount at mountpoint, or NULL. */
const struct lz_mountinfo_entry *lz_mountinfo_top(const struct lz_mountinfo *mi,
    const char *mountpoint);
/*
 * The decoded value of "key=" in a comma-separated option string (the
 * super options of an entry), allocated; NULL when absent. Values with
 * ',' are octal-escaped by the kernel, so splitting at ',' is safe.
 */
char *lz_mountinfo_option(const char *opts, const char *key);
/* Decodes octal escapes "\ooo" of mountinfo into a new string. */
char *lz_mountinfo_unescape(const char *s);

/* The layers of one anchor overlay; every path absolute. */
struct lz_anchor_layers {
	const char *lower;
	const char *upper;
	const char *work;
	const char *merged;
};

enum lz_anchor_mount_result {
	LZ_ANCHOR_MOUNTED = 1,		/* mounted now */
	LZ_ANCHOR_ALREADY,		/* our overlay was already there */
	LZ_ANCHOR_UNMOUNTED,		/* plain umount */
	LZ_ANCHOR_DETACHED,		/* umount gave EBUSY: MNT_DETACH */
	LZ_ANCHOR_NOT_MOUNTED,		/* nothing to unmount */
};

/*
 * Finds the lower layer of anchored path inside the image root rootfs:
 * rootfs/path opened with openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS
 * | RESOLVE_NO_XDEV), so an absolute symlink in the image resolves inside
 * it, never on the host; the resolved directory's real path is returned in
 * *out (allocated). When the image has no such path, *out is a copy of
 * lower_empty. LZ_EINVAL when the image's path is not a directory,
 * LZ_EUNSAFE on ENOSYS (openat2 missing: fail closed).
 */
int lz_anchor_lower(const char *rootfs, const char *path,
    const char *lower_empty, char **out, struct lz_err *err);

/*
 * Mounts the overlay (see above) unless it is there already. Sets
 * *result to LZ_ANCHOR_MOUNTED or LZ_ANCHOR_ALREADY. Errors: LZ_EBUSY when
 * something else is mounted on merged, LZ_EINVAL for a path the overlay
 * option string cannot carry (',', ':', '\\' or a newline), LZ_ESYS when
 * mount(2) fails (the message names the option string and errno).
 */
int lz_anchor_mount(const struct lz_anchor_layers *l, int *result,
    struct lz_err *err);

/*
 * Unmounts the anchor overlay at merged (every stacked one). Sets *result
 * to LZ_ANCHOR_UNMOUNTED, LZ_ANCHOR_DETACHED or LZ_ANCHOR_NOT_MOUNTED.
 * LZ_EBUSY when what is mounted there is not an overlay (not ours: left
 * alone).
 */
int lz_anchor_umount(const char *merged, int *result, struct lz_err *err);

/*
 * Unmounts every overlay whose mount point lies beneath dir (for recovery,
 * where the profile that made them may have changed), deepest and newest
 * first. *count gets how many were unmounted. dir must exist.
 */
int lz_anchor_umount_under(const char *dir, size_t *count, struct lz_err *err);

/*
 * 1 when the process runs in a user namespace other than the initial one
 * (uid_map is not the identity of the whole range), 0 when not, negative
 * on error. The helper refuses to mount in the initial namespace.
 */
int lz_anchor_in_userns(struct lz_err *err);

#endif
