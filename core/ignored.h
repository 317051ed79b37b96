/*
 * ignored.h: Ignored Workspace State (SR-13, FR-9, DESIGN.md "Sandbox
 * mounts" step 4). The workspace's Git-ignored paths are computed on the
 * host with libgit2 and each is replaced in the sandbox by a Domain-owned
 * directory (or file) under <domain_root>/ignored/, so host content there
 * is never visible inside and what the sandbox puts there persists.
 *
 * Paths are relative to the workspace, normalised, without "..", never .git
 * or beneath it; a directory ends with '/' ("node_modules/"), a file does
 * not (".env"). The sandbox sees them through the workspace view of
 * ws-view.h: one mount however many paths there are.
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
 * empties ("lazaret state reset --ignored --forget-paths"). The record
 * (version 2) keeps when each path was first isolated:
 *
 *   {"version": 2, "paths": [{"path": "node_modules/", "added": UNIX}]}
 *
 * Version 1, a bare array of paths, is still read (added: 0, unknown).
 */
#ifndef LZ_IGNORED_H
#define LZ_IGNORED_H

#include "core/mountplan.h"
#include "core/tokens.h"
#include "core/ws-view.h"
#include "core/util.h"

/*
 * The most paths of Ignored Workspace State a sandbox gets: binds inside
 * podman's namespace (ws-view.h), measured at 64 to 4096 with
 * tests/bench/ignored-mounts.sh (journal.md).
 */
#define LZ_IGNORED_MAX_MOUNTS 4096
/*
 * The most rule lines (not empty, not comments) of the ignore files a
 * scan reads; past it lz_ignored_scan fails, naming the way back: libgit2
 * checks each path against every rule, so a flood costs minutes.
 */
#define LZ_IGNORED_MAX_RULES (2 * LZ_IGNORED_MAX_MOUNTS)

#define LZ_IGNORED_RECORD "ignored.json"
#define LZ_IGNORED_OLD "ignored.old-"	/* ignored/ moved aside by a reset */

struct lz_ignored {
	struct lz_tokens paths;		/* isolated, sorted, no duplicates */
	struct lz_tokens uncovered;	/* "dir/.gitignore: *.o" lines */
	long long *added;		/* per path: first isolated (unix s);
					 * set by lz_ignored_merge, else NULL */
	struct lz_tokens stale;		/* recorded, but no rule names them */
};
#define LZ_IGNORED_INIT { LZ_TOKENS_INIT, LZ_TOKENS_INIT, NULL, \
	LZ_TOKENS_INIT }

/*
 * The scan's index (ignored-index.c): disk, the workspace's index, copied
 * into memory with each tracked file's stat data as it is now (on wsfd,
 * the workspace's directory), and made repo's index, so that the status
 * walk never hashes a tracked file. 0 when it was; -1 (nothing changed:
 * the walk then uses the index on disk) when an entry could not be
 * copied. The index on disk is never written.
 */
struct git_repository;
struct git_index;
int lz_ignored_index_trusted(struct git_repository *repo,
    struct git_index *disk, int wsfd);

/*
 * Computes the ignored paths of workspace (canonical Git top level).
 * LZ_EINVAL past LZ_IGNORED_MAX_RULES rules.
 */
int lz_ignored_scan(const char *workspace, struct lz_ignored *out,
    struct lz_err *err);
/*
 * Unions ig->paths with <domain_root>/ignored.json and writes the union
 * back atomically (temporary file, fsync, rename) when it grew; fills
 * ig->added (now for the new ones).
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
 * Makes ig fit LZ_IGNORED_MAX_MOUNTS: past it, paths below a directory of
 * workspace that holds nothing Git tracks (no index entry under it) and
 * that has at least two of them become that directory (its highest such
 * ancestor). Isolation only grows: the sandbox sees nothing of the host
 * there. When that is not enough, LZ_EINVAL with a message naming the
 * paths recorded last (ig->added), how many only the record holds
 * (ig->stale), and "lazaret state reset --ignored --forget-paths".
 */
int lz_ignored_fit(const char *workspace, struct lz_ignored *ig,
    struct lz_err *err);

/*
 * For each path: creates its Domain storage <domain_root>/ignored/<name>
 * (lz_view_storage_name: a directory, or an empty file) and the host
 * mount point when absent (a directory, or an empty file for a file
 * entry: an empty .env appears on the host). Every path is opened
 * component by component with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS): a symlink on the way is refused (LZ_EUNSAFE); a
 * kernel without openat2 fails closed. Then, when there is any path, the
 * sandbox's /workspace in mp (it must have one) is switched to the view
 * <domain_root>/view the runtime shim composes, the list
 * <domain_root>/view.json is written, and view is filled for the
 * "lazaret.view" annotation (ws-view.h); with no path, view stays empty.
 * It calls lz_ignored_fit first.
 */
int lz_ignored_prepare(const char *workspace, const char *domain_root,
    struct lz_ignored *ig, struct lz_mountplan *mp, struct lz_view *view,
    struct lz_err *err);
void lz_ignored_release(struct lz_ignored *ig);

/*
 * The record of <domain_root>: its paths and, in *added (allocated,
 * parallel, 0 when unknown), when each was first isolated. No record:
 * empty.
 */
int lz_ignored_record_read(const char *domain_root, struct lz_tokens *paths,
    long long **added, struct lz_err *err);

/*
 * "state reset --ignored" in the Domain Root rootfd (inside podman's
 * namespace, lifecycle lock held, Domain inactive): ignored/ is renamed
 * to ignored.old-<time> in one step, then removed by descriptor
 * (rmtree.h), so a kill at any point leaves either the old content or
 * none in place; with forget the record goes too, and the next launch
 * isolates only what the ignore rules then name.
 */
int lz_ignored_state_reset(int rootfd, int forget, struct lz_err *err);
/* Removes the ignored.old-* an interrupted reset left (names to removed). */
int lz_ignored_state_recover(int rootfd, struct lz_tokens *removed,
    struct lz_err *err);

#endif
