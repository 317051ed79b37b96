/*
 * hostgit.h: asking the host's own git a question about the workspace
 * (Git Sentry, SR-4), so the answer is what the developer's git will do,
 * not what a library thinks it would: the gitlinks of an index libgit2
 * cannot read, the configuration files git reads. The caller's GIT_*
 * variables are dropped (GIT_DIR, GIT_INDEX_FILE or GIT_CONFIG_* would
 * point git at other files) and LC_ALL=C keeps messages parseable.
 */
#ifndef LZ_HOSTGIT_H
#define LZ_HOSTGIT_H

#include "core/spawn.h"

/* Output kept of one question; more is an error. */
#define LZ_HOSTGIT_MAX_OUTPUT (64 * 1024 * 1024)
#define LZ_HOSTGIT_TIMEOUT_MS 10000

/* lz_hostgit's flags. */
enum {
	/*
	 * Git reads no configuration of its own accord: no system or global
	 * file (GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null), no
	 * pager lookup (--no-pager), for "git config --file F": every git
	 * command reads the system and global files, includes and all, at
	 * start (trace2's early config), and would hang on a FIFO there.
	 */
	LZ_HOSTGIT_NO_CONFIG = 1 << 0,
};

/*
 * Runs "git --no-pager ARGS..." (args NULL-terminated, without "git") in
 * cwd, git found in PATH without the entries that lie in workspace
 * (lz_path_env_scrub: never a git the sandbox wrote). 0 when git exited
 * 0 with its output in res (initialised by the caller); an error naming
 * what (e.g. "cannot list the configuration files of '/w'") and git's
 * own message otherwise, including a timeout
 * (LZ_HOSTGIT_TIMEOUT_MS) or more than LZ_HOSTGIT_MAX_OUTPUT bytes.
 */
int lz_hostgit(const char *workspace, const char *cwd,
    const char *const *args, int flags, struct lz_spawn_result *res,
    const char *what, struct lz_err *err);

#endif
