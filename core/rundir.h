/*
 * rundir.h: host-private directories (SR-10) and the Domain's exclusive
 * lifecycle lock (OR-1). Each directory on the way is created 0700 if
 * missing and then verified through the descriptor it was opened with
 * (O_DIRECTORY | O_NOFOLLOW, fstat): a directory, owned by the user, no
 * group or other bits, never a symlink. Checking a path string and then
 * using it is what this avoids.
 */
#ifndef LZ_RUNDIR_H
#define LZ_RUNDIR_H

#include "core/util.h"

/*
 * Ensures base is private (with create_base, creating it and its missing
 * parents 0700 first, as for the Storage Root; without, it must exist, as
 * $XDG_RUNTIME_DIR must), then each component of the relative path sub
 * below it, creating missing ones 0700. Returns a directory fd of the last
 * one (the caller closes it), or a negative code.
 */
int lz_rundir_ensure(const char *base, int create_base, const char *sub,
    struct lz_err *err);

/*
 * lz_rundir_ensure that creates nothing (base included): a missing
 * component is LZ_ENOTFOUND. For the Domain Root of a Domain named on the
 * command line, which must exist already.
 */
int lz_rundir_open(const char *base, const char *sub, struct lz_err *err);

/*
 * Takes the lifecycle lock: flock(LOCK_EX) on "lifecycle.lock" inside the
 * directory dirfd. With nonblock, a lock held by another process gives
 * LZ_EBUSY at once. Returns the lock's fd (closing it releases the lock).
 */
int lz_rundir_lock(int dirfd, const char *path, int nonblock,
    struct lz_err *err);

/*
 * The process holding the lifecycle lock of dirfd (from /proc/locks), or
 * 0 when none is seen. For messages only: the lock itself decides.
 */
long lz_rundir_lock_holder(int dirfd);

#endif
