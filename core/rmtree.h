/*
 * rmtree.h: removing a directory tree beneath a descriptor without ever
 * following a symlink (SR-14: State Anchor maintenance stays inside the
 * Domain Root). Used by State Anchor reset and by the reset of Ignored
 * Workspace State, whose trees the sandbox wrote: they hold absolute
 * symlinks (/etc/alternatives), links to the host's /etc/shadow, device
 * nodes, names with any byte, and may be deeper than a process has
 * descriptors.
 *
 * Each directory is opened relative to its parent's descriptor with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV), every
 * other entry (a symlink included: the link goes, never what it names) is
 * removed with unlinkat. A mount point anywhere in the tree stops the
 * removal (EXDEV): nothing of another file system is touched. A tree
 * deeper than LZ_RMTREE_DEPTH has its deep subtrees renamed up to the top
 * directory first, so the descriptors held stay bounded.
 */
#ifndef LZ_RMTREE_H
#define LZ_RMTREE_H

#include "core/util.h"

#define LZ_RMTREE_DEPTH 64

/*
 * Removes dirfd/name (a directory and what is beneath it, or any other
 * kind of entry) as above. shown is the path for messages. fault, when
 * not NULL, is a fault point (fault.h) hit after the first entry is
 * removed. An absent name is not an error. Fails with LZ_EUNSAFE when the
 * tree crosses a mount or openat2 is missing (ENOSYS), LZ_ESYS otherwise;
 * what was removed before the failure stays removed.
 */
int lz_rmtree_at(int dirfd, const char *name, const char *shown,
    const char *fault, struct lz_err *err);

#endif
