/*
 * histlost.h: what "lazaret git restore" finds lost in one repository and
 * what it would do about it (issue 20), from the repository's ref log
 * (histlog.h) and its refs now. Pure: the two questions about commits go
 * through callbacks (histgit.h answers them; the unit test from a
 * table).
 *
 * Without a time (to_ms < 0), a ref is in the plan when a value it had
 * while the Domain ran is lost now: no ref of now (outside refs/lazaret/)
 * reaches some commit of it. The values looked at are the old value of
 * every record with WHO "domain" that moved the ref other than forward,
 * or deleted it. The most recent lost value is the target (the undo of
 * the last loss; older lost values it does not contain are counted in
 * earlier, for "--to"). The host's
 * own moves (seen by the launch pass) and restore's are the developer's
 * decisions: they count only for a ref asked for by name. HEAD: when it
 * is missing, its last value; on a branch, never (a checkout is no
 * loss); detached (a submodule's usually is), its detached values like
 * any ref's.
 *
 * With a time (lz_histplan_make's to_ms >= 0), every ref the log says
 * existed then gets the value it had then; refs made later are left
 * alone (never deleted); HEAD only when missing.
 *
 * With a name (only), just that ref, every record of it whoever made
 * it, and its last recorded value when it holds another now (moved
 * where the guard did not see it: after the last teardown); and when
 * nothing of it is lost but it is missing now, its last value (a deleted
 * branch whose commits another ref still reaches comes back by name).
 *
 * The rule that keeps the developer's own moves (ask): moving a ref that
 * exists now to a value that is not a descendant of what it holds needs
 * a yes, except to undo a loss the guard saw while the Domain ran when
 * the ref still holds exactly what that loss left. Creating a missing
 * ref, or a fast-forward, needs none.
 */
#ifndef LZ_HISTLOST_H
#define LZ_HISTLOST_H

#include <stdint.h>

#include "core/histlog.h"
#include "core/refset.h"

struct lz_histq {
	/* Commits value reaches that no ref of now reaches: > 0, 0, or -1
	 * (not known). */
	long (*lost)(void *ctx, const char *value);
	/* 1 when from is to or an ancestor of it, 0 when not, -1. */
	int (*ff)(void *ctx, const char *from, const char *to);
	void *ctx;
};

enum lz_histloss_action {
	LZ_HISTLOSS_CREATE,		/* the ref is missing now */
	LZ_HISTLOSS_MOVE,		/* it holds another value now */
};

struct lz_histloss {
	char *name;
	char *target;			/* the value to bring back */
	char *now;			/* its value now, NULL when missing */
	char *after;			/* what the loss left (NULL: deleted) */
	int64_t ms;			/* when it left target (or had it) */
	enum lz_hist_who who;		/* who moved it away */
	long lost;			/* commits of target lost, -1 */
	/* Older lost values of the ref that target does not contain (two
	 * losses in a row): --to before earlier_ms goes back to them. */
	unsigned earlier;
	int64_t earlier_ms;
	int ask;			/* needs the developer's yes */
	enum lz_histloss_action action;
};

struct lz_histplan {
	struct lz_histloss *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_HISTPLAN_INIT { NULL, 0, 0 }

/*
 * The plan for the repository whose log is log and whose refs are now:
 * to_ms < 0 for what is lost, else the state at to_ms; only NULL for
 * every ref, else one full ref name (lz_histplan_ref).
 */
void lz_histplan_make(const struct lz_histlog *log,
    const struct lz_refset *now, const char *only, int64_t to_ms,
    const struct lz_histq *q, struct lz_histplan *out);
void lz_histplan_release(struct lz_histplan *p);

/*
 * The full name arg stands for, as git reads a short name: arg itself,
 * then refs/ARG, refs/tags/ARG, refs/heads/ARG, refs/remotes/ARG,
 * refs/remotes/ARG/HEAD, the first the log or now knows. NULL when none.
 */
const char *lz_histplan_ref(const struct lz_histlog *log,
    const struct lz_refset *now, const char *arg, struct lz_buf *buf);

#endif
