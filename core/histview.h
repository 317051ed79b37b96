/*
 * histview.h: one repository's kept history as "lazaret git restore"
 * sees it (issue 20): which stores a Domain Root has (history.h), and
 * for one of them its ref log, the repository's refs now, the restore
 * plan (histlost.h), the lost commits with their subjects and the space
 * the store holds. Read only, except that the repository's objects of
 * now are first linked into the store (what the coordinator's passes do;
 * it makes libgit2 read the store alone, never the repository's
 * objects/, where the sandbox may have left a FIFO).
 *
 * Also: finding the Domain when the work tree's .git is gone (Git can
 * then no longer find the top level of the work tree).
 */
#ifndef LZ_HISTVIEW_H
#define LZ_HISTVIEW_H

#include <stdint.h>

#include "core/domain.h"
#include "core/histgit.h"
#include "core/histlog.h"
#include "core/histlost.h"
#include "core/histrefs.h"
#include "core/histstore.h"
#include "core/refset.h"
#include "core/util.h"

struct lz_histview {
	char *ws;
	char *rel;			/* the git directory, from the workspace */
	char *key;
	char *store;			/* its store, absolute */
	int storefd;
	int gitfd;			/* the git directory, -1 when gone */
	int missing;			/* gone, or no HEAD and no objects/ */
	int partial;			/* packed-refs could not be read */
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histrefs_cache cache;	/* packed-refs as read */
	struct lz_histplan plan;
	struct lz_histspace space;
	struct lz_histgit *git;		/* over the store's objects */
	struct lz_buf warnings;		/* log lines skipped, refs left out */
};

/* The keys and git directories of domain_root's stores, sorted by path. */
int lz_histview_stores(const char *domain_root, struct lz_tokens *keys,
    struct lz_tokens *rels, struct lz_err *err);

/*
 * Opens the store key of domain_root for the workspace ws: reads its log
 * and the repository's refs (after linking its objects into the store),
 * and makes the plan for only (a ref's full or short name, NULL for all)
 * at to_ms (-1: what is lost). LZ_ENOTFOUND when only names no ref.
 */
int lz_histview_open(struct lz_histview *v, const char *ws,
    const char *domain_root, const char *key, const char *only,
    int64_t to_ms, struct lz_err *err);
/* The commits l's target reaches that no ref of now reaches. */
long lz_histview_commits(struct lz_histview *v, const struct lz_histloss *l,
    long max, lz_histgit_commit_fn fn, void *ctx);
void lz_histview_release(struct lz_histview *v);

/*
 * The Domain of profile whose workspace is dir's nearest ancestor (dir
 * itself included) that has a history store in its Domain Root; d is
 * filled as lz_domain_resolve fills it. LZ_ENOTFOUND when none has.
 */
int lz_histview_domain(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *dir, struct lz_err *err);

#endif
