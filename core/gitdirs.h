/*
 * gitdirs.h: the git directories Git Sentry looks after (SR-4,
 * gitsentry.h): the workspace's W/.git; each submodule gitdir under a
 * repository's modules/ (a directory holding HEAD and config; nested ones
 * and names with '/' found by recursion); each worktree's administrative
 * directory under a repository's worktrees/; and what the census of the
 * workspace found (repos.h), each with its own submodules and worktrees.
 * The plan mounts them (gitsentry.h); the watch takes its launch
 * snapshot from the same list (gitguard.h).
 */
#ifndef LZ_GITDIRS_H
#define LZ_GITDIRS_H

#include "core/repos.h"
#include "core/util.h"

enum lz_gitdir_kind {
	LZ_GITDIR_REPO,		/* a repository's git directory */
	LZ_GITDIR_ADMIN,	/* a worktree's administrative directory */
	LZ_GITDIR_OPAQUE,	/* a census ".git" git does not take */
	LZ_GITDIR_FILE,		/* a census ".git" file */
};

struct lz_gitdir {
	char *path;		/* absolute */
	enum lz_gitdir_kind kind;
	int census;		/* found by the census (repos.h) */
};

struct lz_gitdirs {
	struct lz_gitdir *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_GITDIRS_INIT { NULL, 0, 0 }

/*
 * The git directories of workspace (canonical; W/.git a directory),
 * parents before what lies in them: W/.git, its submodule gitdirs and
 * worktree directories, then each census entry with its own (a ".git"
 * symlink gets none: git follows it, and a replacement is a new entry).
 * A census git directory with a commondir is a worktree directory.
 * Refuses (LZ_EUNSAFE) a modules/ or worktrees/ that is not a directory
 * and a worktree directory without commondir (host git would read it as
 * a repository of its own, which the sandbox could fill).
 */
int lz_gitdirs_list(const char *workspace, const struct lz_repos *census,
    struct lz_gitdirs *out, struct lz_err *err);
void lz_gitdirs_release(struct lz_gitdirs *g);

#endif
