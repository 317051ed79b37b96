/*
 * histstore.h: the objects the Git history guard keeps of one git
 * directory (history.h, issue 20): every loose object and pack file the
 * repository has had while the Domain ran, in the store's own objects/
 * with git's layout (objects/xx/NAME, objects/pack/pack-*.pack, .idx,
 * .rev, .bitmap, .mtimes, .promisor, .keep).
 *
 * Keeping a file is a hard link to it: free and immediate, and safe
 * because git never rewrites an object or pack file in place (it writes
 * a new file and renames it). Where a link is refused (the repository is
 * on another file system than the Domain Root: EXDEV; a file of another
 * owner under fs.protected_hardlinks: EPERM; EMLINK) the file is copied,
 * while the bytes only the store holds (copies, and files the repository
 * dropped) stay under copy_max; past that, files that would need a copy
 * are not kept, said once (links still are). A file is kept only when it is, by its descriptor,
 * a regular file: a symlink, FIFO, device or socket the sandbox put in
 * objects/ is never followed, opened for reading or linked, and is said.
 * The link is checked to be that very inode afterwards.
 *
 * A kept file whose name the repository no longer has is "dropped": its
 * mode gets the sticky bit and its mtime the time the guard saw it go
 * (a mark on a file only the store still holds). Dropped files are
 * released lz_histstore_expire's keep time after that; a file that comes
 * back (restored, or written again) loses the mark.
 *
 * What this does not protect: a file the sandbox writes into in place
 * (it can chmod an object and write it) changes the kept link too, since
 * both are one inode; a copy is safe from that once made. Restore checks
 * what it brings back (histrestore.h).
 */
#ifndef LZ_HISTSTORE_H
#define LZ_HISTSTORE_H

#include <sys/types.h>

#include <stdint.h>
#include <time.h>

#include "core/tokens.h"
#include "core/util.h"

#define LZ_HISTSTORE_COPY_MAX (2ull * 1024 * 1024 * 1024)
#define LZ_HISTSTORE_PACK 256		/* fan[] index of objects/pack */

struct lz_histfan {
	ino_t ino;
	struct timespec mtime;
	int seen;			/* listed at least once */
	int racy;			/* changed too recently: list again */
	int had;			/* the repository had this directory */
};

struct lz_histstore {
	int fd;				/* the store's objects/ */
	int cross;			/* links fail with EXDEV: copy all */
	uint64_t copied;		/* bytes only the store holds */
	uint64_t copy_max;
	int copy_full;			/* copy_max reached (said once) */
	struct lz_histfan fan[LZ_HISTSTORE_PACK + 1];
};

/* What one lz_histstore_sync did and found. */
struct lz_histsync {
	size_t kept;			/* files linked or copied now */
	size_t copies;			/* of which copies */
	uint64_t copy_bytes;
	size_t dropped;			/* files newly gone from the repo */
	struct lz_tokens gone_loose;	/* their object names (hex) */
	struct lz_tokens gone_packs;	/* dropped "pack-X.idx" names */
	int objects_gone;		/* the repository has no objects/ */
	struct lz_buf notes;		/* what was refused, and why */
};
#define LZ_HISTSYNC_INIT { 0, 0, 0, 0, LZ_TOKENS_INIT, LZ_TOKENS_INIT, \
	0, LZ_BUF_INIT }

/* The space the store holds (lz_histstore_expire, lz_histstore_space). */
struct lz_histspace {
	uint64_t files;			/* in the store */
	uint64_t shared;		/* hard links the repository shares */
	uint64_t held;			/* bytes of files only the store holds */
	uint64_t copies, copy_bytes;	/* copies of files still there */
	uint64_t dropped, dropped_bytes; /* files the repository dropped */
	int64_t oldest_drop_ms;		/* 0 when none */
	uint64_t released, released_bytes; /* expired and removed now */
};

/*
 * Opens (creating 0700) storefd/objects and its pack/ into s; copy_max
 * bytes of copies at most (0: LZ_HISTSTORE_COPY_MAX).
 */
int lz_histstore_open(struct lz_histstore *s, int storefd,
    uint64_t copy_max, struct lz_err *err);
/*
 * Keeps what the repository gitfd's objects/ holds that the store does
 * not, and marks what the store holds that the repository dropped. With
 * full, every directory is listed; otherwise only those whose status
 * changed since the last listing (or changed too recently to trust
 * it). now_ms: the wall clock, for the marks.
 */
int lz_histstore_sync(struct lz_histstore *s, int gitfd, int full,
    int64_t now_ms, struct lz_histsync *out, struct lz_err *err);
void lz_histsync_release(struct lz_histsync *r);
/*
 * Every file of the store: clears the mark of those the repository
 * (gitfd; -1: it has none) has again, removes those marked gone more
 * than keep_ms before now_ms (keep_ms < 0: none), and adds up the space
 * (into sp; "shared" is a file with another link: the repository's, or
 * another Domain's store's). Marking is lz_histstore_sync's (a full one
 * follows at launch). Also sets s->copied.
 */
int lz_histstore_expire(struct lz_histstore *s, int gitfd, int64_t now_ms,
    int64_t keep_ms, struct lz_histspace *sp, struct lz_err *err);
/* The space of storefd's objects/ against gitfd (-1: none), read only. */
int lz_histstore_space(int storefd, int gitfd, struct lz_histspace *sp,
    struct lz_err *err);
void lz_histstore_close(struct lz_histstore *s);
/*
 * Copies the regular file src/name to dst/name (mode 0444, through a
 * temporary name, never over an existing one): 0 or a negated errno.
 */
int lz_histstore_copy(int src, int dst, const char *name);

/* The name of objects/'s directory i: "00".."ff", or "pack" (256). */
void lz_histstore_dir_name(int i, char name[8]);
/*
 * The names of dfd's entries that are loose objects (pack: pack files),
 * sorted; 0 or a negated errno.
 */
int lz_histstore_list(int dfd, int pack, struct lz_tokens *out);
/* 1 when name is a loose object's file name in fan directory "xx". */
int lz_histstore_loose_name(const char *name);
/* 1 when name is a pack file the store keeps ("pack-<hex>.<ext>"). */
int lz_histstore_pack_name(const char *name);

#endif
