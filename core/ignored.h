/*
 * ignored.h: Ignored Workspace State (SR-13, FR-9, DESIGN.md "Sandbox
 * mounts" step 4). The workspace's Git-ignored paths are computed on the
 * host with libgit2 and each is replaced in the sandbox by a Domain-owned
 * directory (or file) under <domain_root>/ignored/, so host content there
 * is never visible inside and what the sandbox puts there persists.
 *
 * Paths are relative to the workspace, normalised, without "..", never .git
 * or beneath it; a directory ends with '/' ("node_modules/"), a file does
 * not (".env").
 *
 * Covered: (1) what libgit2's status walk reports as ignored, with ignored
 * directories collapsed ("build/", no walk inside them); (2) concrete
 * entries of .gitignore files (the top-level one, tracked ones in
 * subdirectories, and untracked ones git reports) and of .git/info/exclude
 * that hold no glob character (*, ?, [, \) and no negation, even when the
 * path is absent on the host: "node_modules/" or "/build/" become
 * directories, a name without a trailing '/' that does not exist becomes
 * a file (".env"). An entry without '/' is taken relative to its
 * .gitignore's directory only. Only entries git still says are ignored are
 * taken (a later "!" rule wins).
 * Not covered, listed in uncovered: glob patterns and negations ("*.o",
 * "!keep"), which name no path until files match them; an ignored file
 * created later by the sandbox next to sources stays workspace content.
 *
 * The set never shrinks: lz_ignored_merge unions it with the Domain's
 * trusted record <domain_root>/ignored.json, which only the developer
 * edits down.
 */
#ifndef LZ_IGNORED_H
#define LZ_IGNORED_H

#include "core/mountplan.h"
#include "core/tokens.h"
#include "core/util.h"

#define LZ_IGNORED_MAX_MOUNTS 64

struct lz_ignored {
	struct lz_tokens paths;		/* isolated, sorted, no duplicates */
	struct lz_tokens uncovered;	/* "dir/.gitignore: *.o" lines */
};
#define LZ_IGNORED_INIT { LZ_TOKENS_INIT, LZ_TOKENS_INIT }

/* Computes the ignored paths of workspace (canonical Git top level). */
int lz_ignored_scan(const char *workspace, struct lz_ignored *out,
    struct lz_err *err);
/*
 * Unions ig->paths with <domain_root>/ignored.json and writes the union
 * back atomically (temporary file, fsync, rename) when it grew.
 */
int lz_ignored_merge(const char *domain_root, struct lz_ignored *ig,
    struct lz_err *err);
/*
 * Unions ig->paths with the record <domain_root>/ignored.json without
 * writing anything (what the last launch isolated, for a dry run and for
 * the coordinator's watch).
 */
int lz_ignored_load(const char *domain_root, struct lz_ignored *ig,
    struct lz_err *err);
/*
 * For each path: creates its Domain storage <domain_root>/ignored/<path
 * with '%' as %25 and '/' as %2F> (a directory, or an empty file), creates
 * the host mount point when absent (a directory, or an empty file for a
 * file entry: an empty .env appears on the host), and appends a bind of
 * the storage over /workspace/<path>. Every path is opened component by
 * component with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): a symlink
 * on the way is refused (LZ_EUNSAFE); a kernel without openat2 fails
 * closed. More than LZ_IGNORED_MAX_MOUNTS paths is LZ_EINVAL.
 */
int lz_ignored_prepare(const char *workspace, const char *domain_root,
    const struct lz_ignored *ig, struct lz_mountplan *mp, struct lz_err *err);
void lz_ignored_release(struct lz_ignored *ig);

#endif
