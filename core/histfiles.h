/*
 * histfiles.h: the few small files of a git directory that are neither
 * objects nor refs but that a repository needs to be itself again after
 * its .git was deleted (issue 20): config, config.worktree, shallow (a
 * shallow clone's history ends there: git fsck needs it), info/exclude,
 * info/attributes, info/sparse-checkout. The Git history guard copies
 * them into its store's files/ at launch and at teardown (history.h);
 * "lazaret git restore" writes back those the repository lacks, never
 * over one it has. Each is read as readat.h reads (no symlink, no FIFO),
 * at most LZ_HISTFILES_MAX bytes.
 */
#ifndef LZ_HISTFILES_H
#define LZ_HISTFILES_H

#include "core/util.h"

#define LZ_HISTFILES_MAX (1024u * 1024)

/* Copies gitfd's files into storefd/files/ (changed ones only). */
void lz_histfiles_keep(int gitfd, int storefd, struct lz_buf *notes);
/*
 * Writes back into gitfd each kept file it lacks; one line per file
 * written to done. Returns how many.
 */
int lz_histfiles_restore(int gitfd, int storefd, struct lz_buf *done);

#endif
