/*
 * mountplan.h: the ordered list of sandbox mounts of DESIGN.md "Sandbox
 * mounts": the workspace, the Git Sentry binds over .git, the State
 * Anchors, the developer's volumes and Lazaret's fixed control mounts
 * under /run/lazaret. The runtime turns it into podman arguments; "run
 * --dry-run" prints it. Order matters: a later mount lies over an earlier
 * one.
 */
#ifndef LZ_MOUNTPLAN_H
#define LZ_MOUNTPLAN_H

#include <stddef.h>

#include "core/domain.h"
#include "core/profile.h"

/* In the runtime directory; bound at /run/lazaret/protected. */
#define LZ_MOUNTPLAN_NOTICE "protected"

enum lz_mount_kind {
	LZ_MOUNT_BIND,
	LZ_MOUNT_TMPFS,
	LZ_MOUNT_ANCHOR,	/* overlay merged on the host, then bound */
};

struct lz_mount {
	enum lz_mount_kind kind;
	char *source;		/* host path; NULL for tmpfs */
	char *target;		/* path in the sandbox */
	int readonly;
	char *why;		/* "Git Sentry (SR-4)", "State Anchor", ... */
};

struct lz_mountplan {
	struct lz_mount *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_MOUNTPLAN_INIT { NULL, 0, 0 }

/*
 * Builds the plan for Domain d and profile p: workspace, Git Sentry
 * (gitsentry.h), State Anchors, volumes, control mounts. Lines for the
 * user (a core.hooksPath inside the workspace, what Git Sentry's record
 * holds from the last run, gsreport.h) are added to warnings (may be
 * NULL). isolated: the Git-ignored paths the sandbox will see as its own
 * (ignored.h), which Git Sentry leaves alone; NULL for none. Ignored
 * Workspace State is added by lz_ignored_prepare, which creates
 * directories, so a dry run does not call it.
 */
int lz_mountplan_build(struct lz_mountplan *mp, const struct lz_domain *d,
    const struct lz_profile *p, const struct lz_tokens *isolated,
    struct lz_buf *warnings, struct lz_err *err);
/* Appends one mount (copies every string; source NULL for tmpfs). */
void lz_mountplan_add(struct lz_mountplan *mp, enum lz_mount_kind kind,
    const char *source, const char *target, int readonly, const char *why);
void lz_mountplan_release(struct lz_mountplan *mp);
const char *lz_mount_kind_name(enum lz_mount_kind k);

#endif
