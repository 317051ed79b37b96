/*
 * fileio.h: replacing a small file of Lazaret's own in one step, for the
 * records of a Domain Root (domain.json, ignored.json, view.json, an
 * anchor's "path"): a reader, or a process killed half-way, sees the old
 * file or the new one, never a part of either.
 */
#ifndef LZ_FILEIO_H
#define LZ_FILEIO_H

#include <sys/types.h>

#include <stddef.h>

#include "core/util.h"

/*
 * Writes len bytes of data to ".NAME.tmp" in the directory dirfd
 * (created O_EXCL with mode after removing a stale one, never through a
 * symlink), syncs it, renames it over name and syncs the directory.
 * shown names the file in the message of a failure (LZ_ESYS); the
 * temporary file is removed then.
 */
int lz_file_replace(int dirfd, const char *name, const void *data,
    size_t len, mode_t mode, const char *shown, struct lz_err *err);

#endif
