/*
 * hooks.h: the hooks host git runs for the workspace, and what they read
 * (SR-4). Host hooks are hidden from the sandbox (gitsentry.h); what the
 * sandbox can still reach is the workspace files a hook framework takes
 * its commands from.
 */
#ifndef LZ_HOOKS_H
#define LZ_HOOKS_H

#include "core/tokens.h"
#include "core/util.h"

/*
 * The effective core.hooksPath of the repository libgit2 opens at
 * open_path (dir: its git directory, the base of a relative value when it
 * has no work tree): *value as set and *abs absolute and normalised (both
 * allocated), or both NULL when unset. LZ_ENOTFOUND when libgit2 cannot
 * open it, with its message.
 */
int lz_hooks_path(const char *open_path, const char *dir, char **value,
    char **abs, struct lz_err *err);

/*
 * Protect patterns (protect.h) for the workspace files that hook
 * frameworks installed in the host's hooks take their commands from:
 * pre-commit (.pre-commit-config.yaml), lefthook (lefthook*.yml,
 * .lefthook/ scripts), overcommit (.overcommit.yml, .git-hooks/),
 * lint-staged (.lintstagedrc*). Found by each framework's marker in the
 * regular files (no symlink followed, *.sample skipped, 256 KiB read) of
 * the workspace's .git/hooks and its effective core.hooksPath, read on
 * the host. Added to patterns.
 */
void lz_hooks_frameworks(const char *workspace, struct lz_tokens *patterns);

#endif
