/*
 * readat.h: reading a small file the sandbox may have planted, without
 * ever following a symlink, blocking on a FIFO or reading without end:
 * the Git history guard's one way to read a ref, packed-refs, its own
 * ref log or a pack index (history.h).
 */
#ifndef LZ_READAT_H
#define LZ_READAT_H

#include <sys/stat.h>

#include <stddef.h>

#include "core/util.h"

enum lz_readat_result {
	LZ_READAT_OK = 0,
	LZ_READAT_MISSING = 1,	/* nothing of that name */
	LZ_READAT_NOTFILE = 2,	/* a symlink, FIFO, socket, device, dir */
	LZ_READAT_TOOBIG = 3,	/* more than max bytes */
};

/*
 * Reads dirfd/name (openat with O_NOFOLLOW and O_NONBLOCK; fstat'ed:
 * a regular file of at most max bytes) into out (reset first). Returns
 * an enum lz_readat_result, or the negated errno of a read that failed.
 * st, when not NULL, gets the file's status (also for NOTFILE and
 * TOOBIG).
 */
int lz_readat(int dirfd, const char *name, size_t max, struct lz_buf *out,
    struct stat *st);
/* A few words for a NOTFILE result's st_mode: "a symlink", "a FIFO"... */
const char *lz_readat_kind(mode_t mode);
/*
 * 1 when st was changed so recently (its ctime less than
 * LZ_READAT_RACY_NS before now) that a cache keyed on the status cannot
 * trust it: a second change within the same timestamp tick, to the same
 * size, on a reused inode, has the same status ("racy git"). What is
 * racy is read again the next time, whatever its status says.
 */
#define LZ_READAT_RACY_NS 2000000000ll
int lz_readat_racy(const struct stat *st);

#endif
