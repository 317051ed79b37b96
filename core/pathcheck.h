/*
 * pathcheck.h: checks on path strings from the config and on the ownership
 * and mode of files Lazaret trusts. Path strings are only ever compared
 * here, never opened: opening files under a root goes through openat2
 * (lz_open_beneath, below).
 */
#ifndef LZ_PATHCHECK_H
#define LZ_PATHCHECK_H

#include <sys/stat.h>

#include "core/tokens.h"
#include "core/util.h"

/* An absolute, normalised path: no "//", ".", ".." or trailing '/'. */
int lz_pathcheck_host(const char *path, struct lz_err *err);
/*
 * A path inside the sandbox for a volume or State Anchor (what names the
 * key): normalised and absolute, not "/", and not /workspace, /run/lazaret,
 * /proc, /sys or /dev or beneath them, which Lazaret owns.
 */
int lz_pathcheck_sandbox(const char *path, const char *what,
    struct lz_err *err);
/* Fails when one path of the list is, or lies beneath, another. */
int lz_pathcheck_nested(const struct lz_tokens *paths, struct lz_err *err);
/*
 * The lexical normal form of an absolute path (allocated): no "//", "."
 * or ".." ("/.." is "/"). Symlinks are not looked at.
 */
char *lz_path_normalise(const char *path);
/*
 * 1 when path is not there: lstat fails with ENOENT or ENOTDIR (a project
 * or Domain Root deleted or moved); 0 when it is or cannot be told.
 */
int lz_path_gone(const char *path);
/*
 * 1 when path (relative) is an entry of paths or lies beneath one of its
 * directory entries ("dir/", as ignored.h writes them); paths may be
 * NULL.
 */
int lz_path_listed(const struct lz_tokens *paths, const char *path);
/*
 * path (absolute) relative to ws when it lies beneath it: lexically, by
 * its real path, or, when it does not exist, by the real path of its
 * nearest existing directory (a symlink on the way into ws counts).
 * NULL otherwise. Allocated.
 */
char *lz_path_in(const char *ws, const char *path);
/*
 * The search path path_env (may be NULL) without the entries where a
 * program the sandbox writes could be found (SR-4): relative ones (they
 * follow the current directory) and those that are or lie in workspace
 * (lz_path_in). Allocated; each dropped entry is pushed to dropped (may
 * be NULL).
 */
char *lz_path_env_scrub(const char *path_env, const char *workspace,
    struct lz_tokens *dropped);
/*
 * What lstat(2) says of path: 'd' directory, 'f' regular file, 'l'
 * anything else (a symlink is never followed), 0 when nothing is there;
 * an error otherwise.
 */
int lz_lstat_kind(const char *path, struct lz_err *err);
/* 1 when path is parent or lies beneath it (component-wise). */
int lz_path_beneath(const char *path, const char *parent);
/*
 * A file Lazaret trusts (config): a regular file owned by the user or root,
 * not writable by group or others. path is for the message only.
 */
int lz_pathcheck_private_file(const struct stat *st, const char *path,
    struct lz_err *err);
/*
 * A host-private directory (SR-10): a directory, not a symlink, owned by
 * the effective user, with no group or other permission bits.
 */
int lz_pathcheck_private_dir(const struct stat *st, const char *path,
    struct lz_err *err);

/*
 * openat2(2) of name beneath dirfd with no symlink anywhere on the way
 * (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS; O_CLOEXEC and O_NOFOLLOW added);
 * -1 and errno on failure (ENOSYS on a kernel without openat2: callers
 * fail closed).
 */
int lz_open_beneath(int dirfd, const char *name, int flags, mode_t mode);

#endif
