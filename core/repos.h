/*
 * repos.h: the repositories in the workspace besides the workspace's own
 * (SR-4). Host git run in a directory of the workspace takes the nearest
 * repository it finds going up (setup.c, setup_git_directory_gently_1):
 * a ".git" there (a directory, a "gitdir: X" file, or a symlink git
 * follows), or the directory itself when it is a git directory
 * (is_git_directory: a valid HEAD, and objects/ and refs/, in it or in the
 * directory its "commondir" names; safe.bareRepository is "all" by
 * default). A shell prompt that runs git on "cd", an editor that scans
 * subfolders, a typed "git log" with a pager, or host "git status" at the
 * top recursing into a gitlink all read that repository's configuration.
 *
 * This census lists those markers anywhere in the workspace: every
 * directory is read (no symlink is followed) except the workspace's own
 * .git, the inside of a ".git" directory or a git directory, and the
 * caller's skipped paths (Git-ignored paths the sandbox only sees as its
 * own copies). What a launch finds is the developer's: Git Sentry mounts
 * it (gitsentry.h). What appears later is moved out of host git's way by
 * lz_repos_guard, which the coordinator runs while the Domain runs.
 */
#ifndef LZ_REPOS_H
#define LZ_REPOS_H

#include <sys/types.h>

#include <stdint.h>

#include "core/tokens.h"
#include "core/util.h"

/* Quarantine names (quarantine.h): never read by git. */
#define LZ_REPOS_Q_DOTGIT "lazaret-quarantine-dotgit."
#define LZ_REPOS_Q_HEAD "lazaret-quarantine-HEAD."
#define LZ_REPOS_Q_COMMONDIR "lazaret-quarantine-commondir."

enum lz_repo_kind {
	LZ_REPO_DOTGIT_DIR = 'd',	/* path is "P/.git", a directory */
	LZ_REPO_DOTGIT_FILE = 'f',	/* "P/.git", a regular file */
	LZ_REPO_DOTGIT_OTHER = 'o',	/* "P/.git", a symlink or other */
	LZ_REPO_GITDIR = 'g',		/* path is itself a git directory */
};

struct lz_repo {
	char *path;		/* relative to the workspace */
	int kind;		/* enum lz_repo_kind */
	int commondir;		/* a git directory with a "commondir" */
	int valid;		/* a 'd' that git takes as a git directory */
	dev_t dev;
	ino_t ino;
};

struct lz_repos {
	struct lz_repo *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
	uint64_t dirs;		/* directories read by the scan */
};
#define LZ_REPOS_INIT { NULL, 0, 0, 0 }

/*
 * Lists the markers of workspace (canonical). skip holds paths relative
 * to it, a directory ending with '/' ("node_modules/", as ignored.h
 * writes them); NULL skips nothing. A directory that cannot be read is
 * skipped (host git cannot read it either).
 */
int lz_repos_scan(const char *workspace, const struct lz_tokens *skip,
    struct lz_repos *out, struct lz_err *err);

/*
 * 1 when dirfd/name (no symlink followed) looks like a git directory the
 * way is_git_directory decides: a valid HEAD (a symlink to "refs/...", or
 * a regular file with "ref: refs/..." or an object name) and either
 * objects/ and refs/ directories or a "commondir" file.
 */
int lz_repos_is_gitdir(int dirfd, const char *name);

/*
 * 1 when e was there at launch: a directory (a ".git" directory or a git
 * directory) of the same kind, device and inode, wherever it is now (the
 * sandbox may rename a parent; the mounts go with it); anything else also
 * at the same path.
 */
int lz_repos_known(const struct lz_repos *launch, const struct lz_repo *e);

/*
 * Moves out of host git's way every marker of now that launch does not
 * know, except a ".git" file git would refuse (not "gitdir: ...": an
 * "invalid gitfile format" stops git there) and a ".git" file naming a
 * git directory inside the workspace's .git/modules (read-only in the
 * sandbox: how git lays out a submodule's checkout). A ".git" is renamed
 * to LZ_REPOS_Q_DOTGIT<unix time>.<n> beside it (and the HEAD of a moved
 * directory to LZ_REPOS_Q_HEAD..., so it is no git directory either); a
 * git directory loses its HEAD the same way. In both cases a ".git" file
 * that git refuses takes the place (saying where the original went), so
 * that git run there fails instead of going up to the workspace's own
 * repository. A git directory or ".git" directory known from launch gets
 * its "commondir" moved away when it had none at launch. One line per
 * move is appended to log. Returns the number of moves, or an error
 * after trying every entry.
 */
int lz_repos_guard(const char *workspace, const struct lz_repos *launch,
    const struct lz_repos *now, struct lz_buf *log, struct lz_err *err);

void lz_repos_release(struct lz_repos *r);

#endif
