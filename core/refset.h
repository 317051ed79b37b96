/*
 * refset.h: a set of Git refs and their values, sorted by name, for the
 * Git history guard (history.h): what a repository holds now
 * (histrefs.h), what its ref log says it held (histlog.h), and the
 * changes from one to the other.
 *
 * A value is a string: an object name (40 or 64 lower-case hex digits),
 * or "ref:" and a ref name for a symbolic ref (HEAD). An absent ref has
 * no entry (a NULL value in the functions below).
 */
#ifndef LZ_REFSET_H
#define LZ_REFSET_H

#include <stddef.h>

#include "core/util.h"

struct lz_ref {
	char *name;
	char *value;
};

struct lz_refset {
	struct lz_ref *v;	/* sorted by name (strcmp), names unique */
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_REFSET_INIT { NULL, 0, 0 }

/*
 * Adds name = value (copies) without keeping the order: for building a
 * set in bulk, then lz_refset_sort. NULL value is allowed there (it
 * removes the name when sorted: see below).
 */
void lz_refset_push(struct lz_refset *s, const char *name,
    const char *value);
/*
 * Sorts what lz_refset_push added; of entries with the same name the one
 * pushed last wins, and a winner with a NULL value removes the name. So
 * replaying changes in order, or pushing packed refs before loose ones,
 * gives the right set.
 */
void lz_refset_sort(struct lz_refset *s);
/*
 * Moves src's entries after dst's, as if pushed after them (so they win
 * in lz_refset_sort), and leaves src empty.
 */
void lz_refset_append(struct lz_refset *dst, struct lz_refset *src);
/* The value of name, or NULL (s sorted). */
const char *lz_refset_get(const struct lz_refset *s, const char *name);
/* Sets or (value NULL) removes name, keeping s sorted. */
void lz_refset_set(struct lz_refset *s, const char *name,
    const char *value);
void lz_refset_copy(struct lz_refset *dst, const struct lz_refset *src);
void lz_refset_release(struct lz_refset *s);

/*
 * Calls fn for every name whose value differs between a and b (both
 * sorted), in name order: old is a's value, new b's, either NULL. Stops
 * and returns fn's value when it is not 0.
 */
int lz_refset_diff(const struct lz_refset *a, const struct lz_refset *b,
    int (*fn)(void *ctx, const char *name, const char *old, const char *new),
    void *ctx);

/* 1 when s is an object name: 40 or 64 lower-case hex digits. */
int lz_ref_oid_ok(const char *s);

#endif
