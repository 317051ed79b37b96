/*
 * histrestore.h: "lazaret git restore" writing (issue 20): what a
 * repository's history store keeps brought back into the repository,
 * under the Domain's lifecycle lock (the caller takes it: no sandbox of
 * this Domain runs). In this order:
 *
 *   1. what the sandbox may have planted that would make git or libgit2
 *      block or read elsewhere is moved out of the way, renamed
 *      "lazaret-quarantine-<name>.<time>.<n>" beside itself (nothing is
 *      deleted): a ref, HEAD, packed-refs, index or
 *      objects/info/alternates that is not a regular file, an object or
 *      pack file that is a symlink, FIFO or other non-file; a
 *      packed-refs file git cannot read has its readable refs written
 *      as loose refs first;
 *   2. a git directory that is gone, or lost its objects/ and refs/,
 *      gets them again (and HEAD, from the plan or the log);
 *   3. every kept object and pack file the repository lacks is linked
 *      back (copied across file systems) and checked: a loose object
 *      must inflate to its name's hash, a pack must match its trailing
 *      checksum; one that does not is still put back (nothing better is
 *      kept) and counted as damaged;
 *   4. the kept small files it lacks (histfiles.h);
 *   5. refs (lz_histrestore_ref), each written only if it still holds
 *      what the plan saw (a compare-and-swap: libgit2's
 *      git_reference_create_matching), with "lazaret git restore" in its
 *      reflog;
 *   6. a missing index is made from HEAD's tree (what "git reset" does:
 *      the work tree is not touched), and every ref written is recorded
 *      in the ref log (WHO "restore").
 */
#ifndef LZ_HISTRESTORE_H
#define LZ_HISTRESTORE_H

#include "core/histview.h"

struct lz_histdone {
	size_t objects;			/* files brought back */
	size_t damaged;			/* of which do not match their name */
	size_t moved;			/* planted non-files moved away */
	size_t files;			/* small files written back */
	size_t refs;			/* refs written */
	int index;			/* the index was made from HEAD */
	struct lz_buf lines;		/* one line per thing done */
};
#define LZ_HISTDONE_INIT { 0, 0, 0, 0, 0, 0, LZ_BUF_INIT }

/* Steps 1 to 4. */
int lz_histrestore_objects(struct lz_histview *v, struct lz_histdone *d,
    struct lz_err *err);
/*
 * Step 5 for one entry of v's plan. LZ_ECONFLICT when the ref no longer
 * holds l->now (moved meanwhile), LZ_ENOTFOUND when its commit is not
 * kept (released, or never kept).
 */
int lz_histrestore_ref(struct lz_histview *v, const struct lz_histloss *l,
    struct lz_histdone *d, struct lz_err *err);
/* Step 6; done: the plan entries written. */
int lz_histrestore_finish(struct lz_histview *v,
    const struct lz_histloss *const *done, size_t n, struct lz_histdone *d,
    struct lz_err *err);
void lz_histdone_release(struct lz_histdone *d);

#endif
