/*
 * mountplan.c: building the ordered sandbox mount list from a Domain and
 * its profile. Submodule, worktree and ignored-path entries join it with
 * the runtime (DESIGN.md steps 3 and 4).
 */
#include <stdlib.h>
#include <string.h>

#include "core/anchor.h"
#include "core/gitsentry.h"
#include "core/gsreport.h"
#include "core/mountplan.h"


void
lz_mountplan_add(struct lz_mountplan *mp, enum lz_mount_kind kind, const char *source,
    const char *target, int ro, const char *why)
{
	struct lz_mount *m;

	mp->v = lz_xgrow(mp->v, mp->n + 1, &mp->alloc, sizeof *mp->v);
	m = &mp->v[mp->n++];
	m->kind = kind;
	m->source = source ? lz_xstrdup(source) : NULL;
	m->target = lz_xstrdup(target);
	m->readonly = ro;
	m->why = lz_xstrdup(why);
}

const char *
lz_mount_kind_name(enum lz_mount_kind k)
{
	switch (k) {
	case LZ_MOUNT_BIND:
		return "bind";
	case LZ_MOUNT_TMPFS:
		return "tmpfs";
	case LZ_MOUNT_ANCHOR:
		return "anchor";
	}
	return "?";
}

int
lz_mountplan_build(struct lz_mountplan *mp, const struct lz_domain *d,
    const struct lz_profile *p, const struct lz_tokens *isolated,
    struct lz_buf *warnings, struct lz_err *err)
{
	char *src, *name;
	size_t i;
	int rc;

	lz_mountplan_add(mp, LZ_MOUNT_BIND, d->workspace, "/workspace", 0,
	    "Agent Workspace (FR-3)");
	rc = lz_gitsentry_plan(mp, d->workspace, p, isolated, warnings, err);
	if (rc != 0)
		goto out;
	if (warnings != NULL)
		lz_gsreport_read(d->root, warnings);
	for (i = 0; i < p->persist.n; i++) {
		name = lz_anchor_name(p->persist.v[i]);
		src = lz_xasprintf("%s/anchors/%s/merged", d->root, name);
		lz_mountplan_add(mp, LZ_MOUNT_ANCHOR, src, p->persist.v[i], 0,
		    "State Anchor (FR-4)");
		free(src);
		free(name);
	}
	for (i = 0; i < p->nvolumes; i++)
		lz_mountplan_add(mp, LZ_MOUNT_BIND, p->volumes[i].host,
		    p->volumes[i].container, p->volumes[i].readonly,
		    p->volumes[i].source);
	src = lz_xasprintf("%s/mailbox/requests", d->runtime);
	lz_mountplan_add(mp, LZ_MOUNT_BIND, src, "/run/lazaret/requests", 0,
	    "Escalation Mailbox requests");
	free(src);
	src = lz_xasprintf("%s/mailbox/results", d->runtime);
	lz_mountplan_add(mp, LZ_MOUNT_BIND, src, "/run/lazaret/results", 1,
	    "Escalation Mailbox results");
	free(src);
	src = lz_xasprintf("%s/terminfo", d->runtime);
	lz_mountplan_add(mp, LZ_MOUNT_BIND, src, "/run/lazaret/terminfo", 1,
	    "terminfo of the session's terminal");
	free(src);
	src = lz_xasprintf("%s/identity", d->runtime);
	lz_mountplan_add(mp, LZ_MOUNT_BIND, src, "/run/lazaret/identity", 1,
	    "the Agent Sandbox's identity of this start (SR-9)");
	free(src);
	src = lz_xasprintf("%s/" LZ_MOUNTPLAN_NOTICE, d->runtime);
	lz_mountplan_add(mp, LZ_MOUNT_BIND, src, "/run/lazaret/protected", 1,
	    "what Git Sentry protects, and which setting decides (SR-4)");
	free(src);
out:
	if (rc != 0)
		lz_mountplan_release(mp);
	return rc;
}

void
lz_mountplan_release(struct lz_mountplan *mp)
{
	size_t i;

	for (i = 0; i < mp->n; i++) {
		free(mp->v[i].source);
		free(mp->v[i].target);
		free(mp->v[i].why);
	}
	free(mp->v);
	mp->v = NULL;
	mp->n = 0;
}
