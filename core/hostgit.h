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
#define LZ_HOSTGIT_TIMEOUT_MS 30000

/*
 * Runs "git ARGS..." (args NULL-terminated, without "git") in cwd. 0 when
 * git exited 0 with its output in res (initialised by the caller); an
 * error naming what (e.g. "cannot list the configuration files of
 * '/w'") and git's own message otherwise, including a timeout or more
 * than LZ_HOSTGIT_MAX_OUTPUT bytes of output.
 */
int lz_hostgit(const char *cwd, const char *const *args,
    struct lz_spawn_result *res, const char *what, struct lz_err *err);

#endif
