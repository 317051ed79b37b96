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
 *   - a file the profile's protect list names (protect.h), or one a hook
 *     framework the host runs reads (hooks.h), that was not a regular
 *     file there at launch: reported (nothing is moved: the developer
 *     may have made it, and no editor runs it until opened).
 *
 * Each action is one log line ("Git Sentry (SR-4): ..."), also appended
 * to the Domain's record (gsreport.h) for the next launch.
 *
 * Cost: the checks of named files are cheap (lz_gitguard_check). The
 * census walks the workspace (lz_gitguard_census): it is due at most
 * every LZ_GITGUARD_WALK_MS, or every 20 times as long as the last walk
 * took when that is longer, so a huge workspace is walked less often
 * rather than taking more than 5% of a CPU; and it touches nothing but
 * the workspace and the launch snapshot, so the coordinator runs it off
 * its event loop (a 20,000-directory tree takes 0.4 s).
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
 * The cheap checks: files that must stay absent, protected files that
 * appeared. Appends one line per action to log and to the record.
 * Returns the number of actions, or an error after doing what it could.
 */
int lz_gitguard_check(struct lz_gitguard *g, struct lz_buf *log,
    struct lz_err *err);

/* 1 when the census is due at now_ms (the caller's clock). */
int lz_gitguard_census_due(const struct lz_gitguard *g, uint64_t now_ms);

/*
 * The census: moves what appeared (repos.h), as lz_gitguard_check says
 * it. now_ms: the caller's clock when it was started. Safe on another
 * thread, one census at a time, while lz_gitguard_check runs (they write
 * nothing the other reads) and nothing else touches g.
 */
int lz_gitguard_census(struct lz_gitguard *g, uint64_t now_ms,
    struct lz_buf *log, struct lz_err *err);

void lz_gitguard_release(struct lz_gitguard *g);

#endif
