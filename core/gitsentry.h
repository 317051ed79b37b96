/*
 * gitsentry.h: the Git Sentry mounts (SR-4, DESIGN.md "Sandbox mounts"
 * steps 2 and 3): what keeps the sandbox from making the host run code it
 * wrote, through git or through a tool that runs workspace files on its
 * own. It plans mounts (creating a few empty host files or directories
 * they need as mount points, never a protected editor file); the runtime
 * mounts them. docs/host-trust.md is the inventory this implements.
 *
 * Every git directory Git Sentry looks after (gitdirs.h) is one of:
 *
 *   a repository R: the workspace's W/.git; each submodule gitdir under a
 *   repository's modules/ (a directory holding HEAD and config; nested
 *   ones and names with '/' found by recursion); each repository of the
 *   census (repos.h) anywhere in the workspace (a ".git" directory, or a
 *   git directory itself). Mounts ("ro" read-only, "rw" read-write):
 *     R                 rw   bound over itself: cannot be renamed away
 *     R/config          ro   created empty first if missing
 *     R/config.worktree ro   created empty first if missing: read as
 *                            configuration once extensions.worktreeConfig
 *                            is on (it may be turned on later)
 *     R/hooks           tmpfs (created on the host if missing)
 *     R/modules         ro   created if missing: no new submodule gitdir
 *     R/worktrees       ro   created if missing: no new worktree
 *   A "commondir" in R at launch is refused (host git would take config
 *   and hooks from where it points); one written later is moved away by
 *   the coordinator (gitguard.h).
 *
 *   a worktree administrative directory A (R/worktrees/NAME, or a git
 *   directory of the census that has a "commondir"):
 *     A                 rw   bound over itself
 *     A/commondir       ro   required: one missing is refused (host git
 *                            would read A as a repository of its own)
 *     A/gitdir          ro   when it exists (a missing one written later
 *                            is moved away by the coordinator)
 *     A/config.worktree ro   created empty first if missing
 *
 * Also: a census ".git" directory that git does not take as a git
 * directory is bound read-only whole (the sandbox cannot make it one); a
 * census ".git" file is bound read-only (its "gitdir:" stays).
 *
 * core.hooksPath: the effective value for each repository (libgit2, all
 * levels; "~/" expanded; relative to its work tree) that resolves inside
 * the workspace (Husky's .husky) is workspace content the sandbox can
 * change: a warning, and unless the profile says trust-hooks-path = yes a
 * tmpfs hides it. A hooksPath naming the workspace itself is refused.
 *
 * Configuration files (gitconfig.h) that lie in the workspace, included
 * or not, and the profile's protect list (protect.h): each file is
 * checked (lz_protect_inspect: no symlink, FIFO, device or directory;
 * a Git configuration file must also be readable and at most
 * LZ_PROTECT_MAX_SIZE) and bound read-only, each directory on its way
 * bound over itself so it cannot be renamed away with the file's mount.
 * A missing Git configuration file that an include names is refused (the
 * sandbox could write it) unless the profile trusts its path
 * (trust-git-config), which also keeps an existing one writable, with a
 * warning. A missing protected editor file stays missing (nothing is
 * created); the coordinator reports one that appears (gitguard.h).
 *
 * The files hook frameworks installed in the host's hooks read their
 * commands from (hooks.h, lz_hooks_frameworks: .pre-commit-config.yaml,
 * lefthook.yml, ...) are protected the same way, whatever "protect" says:
 * they are what the host's hooks run.
 *
 * Nothing under a tmpfs of the plan or under a path of isolated (ignored
 * paths the sandbox only sees as its own copies) is protected or
 * mounted: the sandbox cannot see the host file there.
 *
 * The mounts are ordered by depth (a directory before anything beneath
 * it), so none hides another. More than LZ_GITSENTRY_MAX_MOUNTS is
 * refused. A W/.git that is a file (a linked worktree or a submodule
 * checkout used as the workspace) is refused with LZ_EINVAL for now.
 */
#ifndef LZ_GITSENTRY_H
#define LZ_GITSENTRY_H

#include "core/mountplan.h"
#include "core/util.h"

#define LZ_GITSENTRY_MAX_MOUNTS 512

/*
 * Appends the mounts above to mp, and any warning for the user (one line
 * each, '\n'-terminated; warnings may be NULL) to warnings. isolated may
 * be NULL (nothing isolated). On failure mp may hold some of them; the
 * caller releases it.
 */
int lz_gitsentry_plan(struct lz_mountplan *mp, const char *workspace,
    const struct lz_profile *p, const struct lz_tokens *isolated,
    struct lz_buf *warnings, struct lz_err *err);

/*
 * The text of /run/lazaret/protected for the sandbox: what Git Sentry made
 * read-only or hid in plan mp and why, and which profile setting decides
 * it (a write there fails with EROFS or EBUSY, which cannot say so).
 */
void lz_gitsentry_notice(const struct lz_mountplan *mp,
    const struct lz_profile *p, struct lz_buf *out);

#endif
