/*
 * histgit.h: what the Git history guard asks about commits (history.h,
 * histlost.h), answered by libgit2 over an object database of the
 * guard's own choosing: the history store's objects/ directories (and,
 * for "lazaret git restore", the repository's objects/), each added as a
 * loose and a pack backend. Never the repository's configuration, its
 * alternates or its refs: the questions name their commits.
 *
 *   lost   how many commits a value reached that none of a set of values
 *          (the refs a repository has now) reaches; with their names and
 *          subjects for the listing
 *   ff     whether one value is another or an ancestor of it (a
 *          fast-forward)
 *
 * libgit2 maps pack files, and a pack the sandbox truncates in place
 * while it is mapped raises SIGBUS; a crafted object can also cost
 * memory. So the coordinator never asks these in its own process while
 * the sandbox runs: it writes the questions to a file and runs "lazaret
 * __history-walk FILE" (src/cmd-history-walk.c, lz_histgit_answer), whose
 * death only costs the answers ("not known"). The request file:
 *
 *   lazaret-history-walk 1
 *   objects ABSOLUTE-PATH        (one or more)
 *   hide OID                     (zero or more: the refs of now)
 *   check OLD NEW                (OID or "-"; one answer line each)
 *
 * and each answer line is "LOST FF": LOST the commits lost (at most
 * LZ_HISTGIT_LOST_MAX, -1 when not known), FF 1, 0 or -1 (not known).
 * Object names of 64 hex digits (SHA-256 repositories) are "not known":
 * libgit2 1.5 reads SHA-1 repositories only.
 */
#ifndef LZ_HISTGIT_H
#define LZ_HISTGIT_H

#include "core/refset.h"
#include "core/util.h"

#define LZ_HISTGIT_LOST_MAX 100000L
#define LZ_HISTGIT_REQUEST_MAX (256u * 1024 * 1024)

struct lz_histgit;

/* A commit a lost() walk found: its name and the first line of its
 * message (the repository's bytes: escape before showing them). */
typedef int (*lz_histgit_commit_fn)(void *ctx, const char *oid,
    const char *subject, long long when);

/* An object database of the n objects/ directories. */
int lz_histgit_open(struct lz_histgit **out, const char *const *objdirs,
    size_t n, struct lz_err *err);
void lz_histgit_free(struct lz_histgit *g);
/*
 * The commits value (an OID; a tag is peeled) reaches and none of hide's
 * values reaches (symbolic values are skipped, and refs under
 * refs/lazaret/: a snapshot's parent is HEAD, so a branch moved back is
 * a loss even while a snapshot still holds its commits), at most max;
 * fn (may be
 * NULL) is called for each, newest first, while it returns 0. 0 for a
 * value that is not a commit; -1 when an object is missing or broken.
 */
long lz_histgit_lost(struct lz_histgit *g, const char *value,
    const struct lz_refset *hide, long max, lz_histgit_commit_fn fn,
    void *ctx);
/* 1 when from is to or an ancestor of it, 0 when not, -1 not known. */
int lz_histgit_ff(struct lz_histgit *g, const char *from, const char *to);
/* The subject of commit value (peeled) into b; 0, or -1. */
int lz_histgit_subject(struct lz_histgit *g, const char *value,
    struct lz_buf *b);

/* Answers a request's text (format above) into out. */
int lz_histgit_answer(const char *req, size_t len, struct lz_buf *out,
    struct lz_err *err);

#endif
