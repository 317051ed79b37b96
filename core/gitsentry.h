/*
 * gitsentry.h: the Git Sentry mounts (SR-4, DESIGN.md "Sandbox mounts"
 * step 2 and 3): what keeps the sandbox from making host git run code it
 * wrote. It only plans mounts (and creates a few empty host directories or
 * files they need as mount points); the runtime mounts them.
 *
 * For a canonical workspace W whose .git is a directory, in this order
 * (targets are /workspace/<path relative to W>, sources canonical host
 * paths; "ro" read-only, "rw" read-write):
 *
 *   W/.git                      rw   bound over itself: renaming .git (and
 *                                    the mounts inside it) away fails EBUSY
 *   W/.git/config               ro   created empty first if missing
 *   W/.git/hooks                tmpfs (created on the host if missing)
 *   W/.git/modules              ro   created empty first if missing
 *     for each submodule gitdir G below it (a directory holding HEAD and
 *     config; nested gitdirs in G/modules, and names with '/', found by
 *     recursion; symlinks are never followed):
 *   G                           rw
 *   G/config                    ro
 *   G/hooks                     tmpfs
 *   G/modules                   ro   created empty first if missing
 *   W/.git/worktrees            ro   only when it exists
 *     for each W/.git/worktrees/NAME directory:
 *   NAME                        rw
 *   NAME/commondir              ro   when it exists (it names the
 *                                    repository whose config git reads)
 *   NAME/config.worktree        ro   when it exists
 *     for each gitlink P of the index whose directory has a .git
 *     (gitlinks.h; no symlink on the way):
 *   W/P/.git (a file)           ro
 *   W/P/.git (a directory)      rw   bound over itself
 *   W/P/.git/config             ro   created empty first if missing
 *   W/P/.git/hooks              tmpfs
 *   W/<hooksPath>               tmpfs, see below
 *
 * New gitdirs are blocked, not made inert: W/.git/modules (and every
 * gitdir's modules/) is a read-only directory in the sandbox, so "git
 * submodule add" or "git clone --separate-git-dir .git/modules/x" fails
 * there, while existing gitdirs stay writable for fetch and checkout. New
 * worktrees ("git worktree add") fail the same way when W/.git/worktrees
 * exists; when it does not, the sandbox can create it, but host git only
 * uses a worktree gitdir from a linked checkout's .git file, so running
 * host git in the main work tree reads nothing from it.
 *
 * core.hooksPath: the effective value (all config levels, as host git sees
 * it; "~/" expanded; a relative path is relative to W) that resolves inside
 * W (Husky's .husky, or a directory inside .git) is workspace content the
 * sandbox can change: a warning line is appended to warnings and, unless
 * trust_hooks_path, a tmpfs hides it. A hooksPath naming W itself is
 * refused (LZ_EUNSAFE): it cannot be hidden without hiding the workspace.
 *
 * W/.git/commondir (host git then reads config from the directory it
 * names) cannot be blocked by a mount: a launch refuses to start over one,
 * warns about the ones the coordinator moved away while a Domain ran
 * (commondir.h), and the coordinator watches W/.git for it.
 *
 * Gitlinks the sandbox adds, or a .git it puts under one, are moved away
 * by the coordinator while the Domain runs (gitlinks.h). Not covered: a
 * .git that is a symlink, and nested repositories no gitlink names (host
 * git does not recurse into those).
 *
 * A W/.git that is a file (a linked worktree or a submodule checkout used
 * as the workspace) is refused with LZ_EINVAL for now.
 */
#ifndef LZ_GITSENTRY_H
#define LZ_GITSENTRY_H

#include "core/mountplan.h"
#include "core/util.h"

/*
 * Appends the mounts above to mp, and any warning for the user (one line
 * each, '\n'-terminated) to warnings. On failure mp may hold some of them;
 * the caller releases it.
 */
int lz_gitsentry_plan(struct lz_mountplan *mp, const char *workspace,
    int trust_hooks_path, struct lz_buf *warnings, struct lz_err *err);

#endif
