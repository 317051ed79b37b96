/*
 * history.h: the Git history guard (issue 20): while a Domain runs,
 * every object and every ref value its repositories have had is kept in
 * the Domain Root, outside the sandbox's reach, so that nothing an agent
 * does inside ("rm -rf .git", "git reset --hard" then "git gc
 * --prune=now", "git branch -D", "git checkout .") can lose the
 * developer's commits; "lazaret git restore" brings them back
 * (histrestore.h).
 *
 * Which repositories: every git directory Git Sentry mounts as a
 * repository (gitdirs.h, LZ_GITDIR_REPO): the workspace's .git, its
 * submodule gitdirs, the repositories of the launch census. Each has a
 * store "<Domain Root>/history/<key>/" (key: 16 hex digits of the
 * SHA-256 of its path relative to the workspace, which the store's file
 * "gitdir" holds) with
 *
 *   objects/   the kept objects and packs (histstore.h)
 *   refs.log   every change of a ref's value (histlog.h)
 *
 * When: a pass at launch (before any session runs: a snapshot of the
 * workspace's uncommitted work (snapshot.h), dropped files older than
 * the keep time released, the log compacted, every directory listed,
 * changes since the last run recorded as "host"), passes while the
 * Domain runs (the coordinator's watch on the shared .git and its
 * one-second timer decide when: lz_history_due; only directories whose
 * status changed are listed; changes recorded as "domain"; the walker,
 * below, runs at most every 20 times its last duration, and ref changes
 * found meanwhile wait for it while objects are kept at every pass), and
 * a pass at teardown once the sandbox is gone.
 *
 * Detections: a ref that moved so that some commit it reached is reached
 * by no ref any more (a reset, a rebase, a deleted branch), a deleted
 * tag, objects that left the repository and are in no pack it has, a
 * git directory that disappeared. Each is a line of the pass's log and
 * of Git Sentry's record for the next launch (gsreport.h), and the
 * latest becomes lz_history's note, which the coordinator hands to its
 * clients (the TUI's status line).
 *
 * Questions about commits (was anything lost, is it a fast-forward) are
 * libgit2's (histgit.h). Passes while the sandbox runs ask them in a
 * child, "lazaret __history-walk" (walker): libgit2 maps packs, which the
 * sandbox can truncate in place. The launch and teardown passes run
 * while no sandbox process can touch the repository and ask in process.
 */
#ifndef LZ_HISTORY_H
#define LZ_HISTORY_H

#include <stdint.h>

#include "core/histrefs.h"
#include "core/histstore.h"
#include "core/refset.h"
#include "core/tokens.h"
#include "core/util.h"

#define LZ_HISTORY_DIR "history"
#define LZ_HISTORY_GITDIR_FILE "gitdir"
#define LZ_HISTORY_KEEP_DEFAULT (7ll * 86400 * 1000)
#define LZ_HISTORY_PASS_MS 1000		/* a pass at least this often */
#define LZ_HISTORY_SOON_MS 20		/* after a .git event */
#define LZ_HISTORY_WALK_TIMEOUT_MS 60000

struct lz_histrepo {
	char *rel;			/* its path relative to the workspace */
	char *key;			/* its store's name under history/ */
	int storefd;
	struct lz_histstore objs;
	struct lz_refset known;		/* the log's state: what it holds */
	struct lz_histrefs_cache cache;
	struct lz_tokens said;		/* notes said once */
	int gone;			/* its git directory is gone (said) */
	int log_full;			/* LZ_HISTLOG_MAX reached (said) */
};

struct lz_history {
	char *ws;
	char *root;			/* Domain Root */
	int64_t keep_ms;
	const char *walker;		/* "lazaret" to run __history-walk */
	struct lz_histrepo *repos;
	size_t n, alloc;
	uint64_t last_pass;		/* the caller's monotonic clock, ms */
	uint64_t pass_ms;		/* the last pass's time, walker aside */
	uint64_t last_walk;		/* when the walker last ran */
	uint64_t walk_ms;		/* how long it took */
	uint64_t walk_ms_now;		/* in this pass */
	int deferred;			/* ref changes wait for the walker */
	struct lz_buf note;		/* the latest detection, or empty */
	unsigned detections;		/* since init */
	char *snapshot;			/* the launch snapshot's ref, or NULL */
};

/*
 * Opens a store for each repository of workspace (canonical; the census
 * skips isolated, relative paths, NULL for none) under domain_root, and
 * reads what each log holds. keep_ms: how long dropped objects stay;
 * copy_max: bytes of copies at most (0: LZ_HISTSTORE_COPY_MAX); walker:
 * the lazaret binary that answers in a child (NULL: in process always).
 * Warnings (a log line that does not parse) go to log.
 */
int lz_history_init(struct lz_history *h, const char *workspace,
    const char *domain_root, const struct lz_tokens *isolated,
    int64_t keep_ms, uint64_t copy_max, const char *walker,
    struct lz_buf *log, struct lz_err *err);
/*
 * The launch pass (see above); now_ms is the wall clock. One line per
 * thing done or found to log ('\n'-terminated, "Git history guard:"
 * first). Runs before any session: nothing else touches the
 * repositories.
 */
int lz_history_launch(struct lz_history *h, int64_t now_ms,
    struct lz_buf *log, struct lz_err *err);
/* 1 when a pass is due at mono_ms; poked: a .git event came. */
int lz_history_due(const struct lz_history *h, uint64_t mono_ms,
    int poked);
/*
 * A pass while the Domain runs (final: the teardown pass, every
 * directory, in process; also releases what expired). mono_ms: the
 * caller's monotonic clock when it started; now_ms the wall clock.
 * Returns the number of detections, or an error after doing what it
 * could. Safe on another thread than the caller's loop, one pass at a
 * time.
 */
int lz_history_pass(struct lz_history *h, int final, uint64_t mono_ms,
    int64_t now_ms, struct lz_buf *log, struct lz_err *err);
void lz_history_release(struct lz_history *h);

/*
 * The git directory rel of workspace ws, opened beneath it with no
 * symlink on the way (pathcheck.h's lz_open_beneath); -1 when it is not
 * there as a directory.
 */
int lz_history_gitdir(const char *ws, const char *rel);
/* The wall clock in milliseconds. */
int64_t lz_history_now_ms(void);
/* The store key of a git directory's path relative to the workspace. */
void lz_history_key(const char *rel, char key[17]);

#endif
