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
 * switches branch; another repository's git runs), and the extension can
 * be turned on later, so every directive counts whatever its condition
 * says now, config.worktree counts whatever the extension says, and
 * every file a directive names is read for directives in turn, up to
 * git's own depth of 10.
 *
 * A value that names a program git runs (core.fsmonitor, a filter or
 * diff driver, an alias, a credential helper...: gitconfig.c lists the
 * keys) by a path into the workspace ("./tools/fmt.sh") makes that file
 * something host git runs: it is listed too.
 *
 * How: each file is read on its own, "git config --file F --list
 * --no-includes -z" with git reading no other configuration
 * (LZ_HOSTGIT_NO_CONFIG), and only once it is known to be a regular file
 * (reached with no symlink in the workspace): git, and libgit2, block for
 * ever on a FIFO include. Then, when nothing was refused, "git config
 * --list --show-origin --show-scope --includes -z" in the workspace adds
 * what git itself reads now, by its own rules.
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
	int program;	/* a program a command value names, not config */
};

struct lz_gitconfig_files {
	struct lz_gitconfig_file *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_GITCONFIG_FILES_INIT { NULL, 0, 0 }

/*
 * Lists the configuration files of workspace (canonical, its .git a
 * directory) and of extra (absolute paths of further configuration
 * files; missing ones are skipped). rel is set when the file lies in the
 * workspace lexically or its real path does (a global file symlinked
 * into a dotfiles workspace), or, for a missing file, when its nearest
 * existing directory does. Refused (LZ_EUNSAFE, with the path and the
 * fix): a file in the workspace that is not a readable regular file of
 * at most LZ_PROTECT_MAX_SIZE bytes reached with no symlink
 * (lz_protect_inspect), and an include target elsewhere that is not a
 * regular file (git would hang on it).
 */
int lz_gitconfig_list(const char *workspace, const struct lz_tokens *extra,
    struct lz_gitconfig_files *out, struct lz_err *err);

/*
 * The same checks before anything opens the repository with its
 * configuration (libgit2 follows includes too, and would hang): from dir,
 * the nearest directory with a .git directory, and its configuration
 * files read as above, without the final listing. 0 when there is no
 * such directory.
 */
int lz_gitconfig_check(const char *dir, struct lz_err *err);

void lz_gitconfig_release(struct lz_gitconfig_files *f);

#endif
