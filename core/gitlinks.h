/*
 * gitlinks.h: nested repositories under gitlinks (SR-4). For every gitlink
 * (submodule entry, mode 160000) of the index whose work-tree directory
 * holds a ".git", host "git status" at the top level runs git inside it,
 * which reads that repository's config: a core.fsmonitor there is a
 * command host git runs (checked). The sandbox can write the index and
 * the work tree, so it could add a gitlink over a repository of its own,
 * or put a ".git" of its own under an existing gitlink.
 *
 * Git Sentry mounts the ones present at launch like the main repository
 * (gitsentry.h); the coordinator compares the index's gitlinks with that
 * launch snapshot while the Domain runs, and moves any other ".git" under
 * a gitlink out of host git's way, to "lazaret-quarantine-dotgit.<unix
 * time>.<n>" in the same directory (kept for the developer). A ".git" file
 * whose gitdir lies in the main repository's .git/modules (read-only in
 * the sandbox) is accepted: that is how git itself lays submodules out.
 */
#ifndef LZ_GITLINKS_H
#define LZ_GITLINKS_H

#include <sys/types.h>

#include "core/util.h"

#define LZ_GITLINKS_QUARANTINE "lazaret-quarantine-dotgit."

struct lz_gitlink {
	char *path;		/* relative to the workspace */
	int kind;		/* 'd' dir, 'f' file, 'o' other, 0 none */
	dev_t dev;		/* of the ".git" entry */
	ino_t ino;
};

struct lz_gitlinks {
	struct lz_gitlink *v;
	size_t n;
};
#define LZ_GITLINKS_INIT { NULL, 0 }

/*
 * Every gitlink of workspace's index (workspace/.git/index; a missing
 * index has none), each stat'ed as lz_gitlinks_restat does. libgit2 reads
 * the index; one it refuses (a split or sparse index: a mandatory
 * extension libgit2 1.5 lacks) is listed by "git ls-files --stage", so
 * the list is always what host git sees.
 */
int lz_gitlinks_scan(const char *workspace, struct lz_gitlinks *out,
    struct lz_err *err);

/*
 * Looks at each gitlink's ".git" again: kind, device and inode, or kind 0
 * when there is none or the directory cannot be reached without following
 * a symlink (git does not recurse through one either).
 */
int lz_gitlinks_restat(const char *workspace, struct lz_gitlinks *g,
    struct lz_err *err);

/*
 * Moves every ".git" of now that launch does not hold (same path, kind,
 * device and inode) and that is not a ".git" file naming a gitdir in
 * workspace/.git/modules; one line per move is appended to log. Returns
 * the number moved, or an error (after trying every entry).
 */
int lz_gitlinks_guard(const char *workspace, const struct lz_gitlinks *launch,
    const struct lz_gitlinks *now, struct lz_buf *log, struct lz_err *err);

/* Appends a copy of every entry of src to dst. */
void lz_gitlinks_copy(struct lz_gitlinks *dst, const struct lz_gitlinks *src);

void lz_gitlinks_release(struct lz_gitlinks *g);

#endif
