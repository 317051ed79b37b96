/*
 * gitconfig.h: the files host git reads as configuration for the
 * workspace (SR-4), listed by the host's own git (hostgit.h), so that Git
 * Sentry can keep every one that lies in the workspace out of the
 * sandbox's reach (gitsentry.h).
 *
 * Git reads the system, global (XDG and ~/.gitconfig), repository and,
 * with extensions.worktreeConfig, worktree files (config.c,
 * do_git_config_sequence), and from each the files its "include.path" and
 * "includeIf.<condition>.path" name (handle_path_include: "~/" and
 * "~user/" expanded, a relative path taken from the including file's
 * directory; a missing file is skipped). A condition (gitdir:, gitdir/i:,
 * onbranch:, hasconfig:remote.*.url:) can become true later (the sandbox
 * switches branch; another repository's git runs), so every directive
 * counts whatever its condition says now, and every file it names is read
 * for directives in turn, up to git's own depth of 10.
 *
 * How: "git config --list --show-origin --show-scope -z" in the workspace
 * without and then with --includes (what git reads now, by git's own
 * rules), and "git config --file F --list ... --no-includes" for every
 * named file and every extra file the caller gives (the configuration of
 * each repository Git Sentry mounts). An include target that is not a
 * regular file is never given to git (a FIFO would hang it); the listing
 * with --includes is then left out, with a warning.
 */
#ifndef LZ_GITCONFIG_H
#define LZ_GITCONFIG_H

#include "core/tokens.h"
#include "core/util.h"

struct lz_gitconfig_file {
	char *path;	/* absolute, lexically normalised */
	char *rel;	/* relative to the workspace when it lies in it */
	char *why;	/* "global configuration", "include.path in F" */
	int exists;	/* something is at path (not followed) */
};

struct lz_gitconfig_files {
	struct lz_gitconfig_file *v;
	size_t n;
};
#define LZ_GITCONFIG_FILES_INIT { NULL, 0 }

/*
 * Lists the configuration files of workspace (canonical) and of extra
 * (absolute paths of further configuration files; missing ones are
 * skipped). rel is set when the file lies in the workspace lexically or
 * its real path does (a global file symlinked into a dotfiles workspace),
 * or, for a missing file, when its nearest existing directory does.
 * Warnings (one line each) for what could not be followed.
 */
int lz_gitconfig_list(const char *workspace, const struct lz_tokens *extra,
    struct lz_gitconfig_files *out, struct lz_buf *warnings,
    struct lz_err *err);

void lz_gitconfig_release(struct lz_gitconfig_files *f);

#endif
