/*
 * snapshot.h: the developer's uncommitted work kept as a commit (issue
 * 20), as "git stash create" makes one, without touching the work tree,
 * the index or any branch: a commit whose tree is the work tree's
 * tracked files as they are, with two parents, HEAD and a commit of the
 * index (so "git stash apply REF" puts both back), on its own ref
 * "refs/lazaret/snapshots/YYYYMMDD-HHMMSS-LABEL" (UTC), outside
 * refs/heads. The Git history guard (history.h) keeps its objects and
 * its ref like any other.
 *
 * Covered: every path of the index, as the work tree holds it (changed,
 * deleted, a file turned into a symlink), and what the index holds
 * (staged changes, staged new files). Not covered: untracked files (not
 * in the index: "git stash" leaves them too), Git-ignored paths (the
 * sandbox's own copies anyway, FR-9), submodules' and nested
 * repositories' work trees (each its own repository; not snapshotted),
 * a path that is not a regular file or symlink now (a FIFO, a socket:
 * its index version is kept, and it is said), and a file over
 * LZ_SNAPSHOT_FILE_MAX (same). Content is stored as it is on disk: no
 * clean filter runs (no git-lfs pointer, no line-ending conversion).
 * Files are read beneath the work tree with no symlink followed on the
 * way; a symlink is stored as a symlink. An index with unmerged paths (a
 * merge in the middle of its conflicts) gets no snapshot: the message
 * says so. A repository with no commit yet gets a snapshot with no
 * parent.
 */
#ifndef LZ_SNAPSHOT_H
#define LZ_SNAPSHOT_H

#include <stdint.h>

#include "core/util.h"

#define LZ_SNAPSHOT_REFS "refs/lazaret/snapshots/"
#define LZ_SNAPSHOT_FILE_MAX (256u * 1024 * 1024)

struct lz_snapshot {
	char *ref;			/* the ref written, NULL when none */
	char oid[65];			/* its commit */
	size_t paths;			/* work tree paths that differ */
	int staged;			/* the index differs from HEAD */
	struct lz_buf notes;		/* paths left as the index has them */
	char *same_as;			/* nothing new since this snapshot */
};

/*
 * Makes a snapshot of the work tree workspace (canonical; its .git a
 * directory) labelled label ("launch", "request": letters and '-') at
 * now_ms. Returns 0 when a snapshot was written (out->ref), 1 when there
 * is nothing uncommitted, or nothing new since the last snapshot
 * (out->same_as), or an error.
 */
int lz_snapshot_make(const char *workspace, const char *label,
    int64_t now_ms, struct lz_snapshot *out, struct lz_err *err);
/*
 * Deletes the snapshot refs of workspace whose time is before cutoff_ms
 * (their objects stay in the history store for its keep time). Returns
 * how many, or an error.
 */
int lz_snapshot_prune(const char *workspace, int64_t cutoff_ms,
    struct lz_err *err);
void lz_snapshot_release(struct lz_snapshot *s);

#endif
