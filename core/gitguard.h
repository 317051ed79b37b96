/*
 * gitguard.h: what Git Sentry checks while a Domain runs (SR-4), for the
 * coordinator's watch (src/coordinator-gitwatch.c), which only decides
 * when. No mount can stop the sandbox from creating a file where none
 * was at launch; these checks find what it created and make it inert or
 * say so:
 *
 *   - a "commondir" in a git directory that had none (the workspace's
 *     .git, a submodule gitdir: host git would take config and hooks from
 *     where it points) and a "gitdir" in a worktree directory that had
 *     none: moved to "lazaret-quarantine-<name>.<unix time>.<n>" beside
 *     it (quarantine.h), a name git never reads, kept for the developer;
 *   - a repository anywhere in the workspace that was not there at
 *     launch (repos.h): its ".git" moved away, or its HEAD when it is a
 *     git directory itself, with the same kind of name;
 *   - a file the profile's protect list names (protect.h) that was not a
 *     regular file there at launch: reported (nothing is moved: the
 *     developer may have made it, and no editor runs it until opened).
 *
 * Each action is one log line ("Git Sentry (SR-4): ..."), also appended
 * to the Domain's record (gsreport.h) for the next launch.
 *
 * Cost: the checks of named files run every time; the census walks the
 * workspace, so it runs at most every LZ_GITGUARD_WALK_MS, or 20 times
 * as long as the last walk took when that is longer (a huge workspace is
 * walked less often rather than holding up the coordinator's loop).
 */
#ifndef LZ_GITGUARD_H
#define LZ_GITGUARD_H

#include <stdint.h>

#include "core/protect.h"
#include "core/repos.h"
#include "core/tokens.h"

#define LZ_GITGUARD_WALK_MS 1000

struct lz_gitguard {
	char *ws;
	char *root;			/* Domain Root: the record */
	struct lz_tokens isolated;
	struct lz_tokens protect;
	struct lz_repos launch;		/* the census at start */
	struct lz_tokens sentinels;	/* absolute paths that stay absent */
	struct lz_protect_set files;	/* protected paths at start */
	struct lz_tokens reported;	/* protected paths already reported */
	uint64_t last_walk;		/* the caller's clock, ms */
	uint64_t walk_ms;		/* how long the last walk took */
};

/*
 * Takes the launch snapshot of workspace (canonical) and starts a new
 * record in domain_root. isolated (ignored paths the sandbox sees as its
 * own; NULL for none) is left out of every check; protect is the
 * profile's list. now_ms: the caller's monotonic clock.
 */
int lz_gitguard_init(struct lz_gitguard *g, const char *workspace,
    const char *domain_root, const struct lz_tokens *isolated,
    const struct lz_tokens *protect, uint64_t now_ms, struct lz_err *err);

/*
 * Runs the checks (the census when due, or always when force). Appends
 * one line per action to log and to the record. Returns the number of
 * actions, or an error after doing what it could.
 */
int lz_gitguard_check(struct lz_gitguard *g, uint64_t now_ms, int force,
    struct lz_buf *log, struct lz_err *err);

void lz_gitguard_release(struct lz_gitguard *g);

#endif
