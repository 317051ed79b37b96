/*
 * refset.c: sorted sets of refs (refset.h). Built by appending and one
 * sort, so replaying a long ref log stays O(n log n).
 */
#include <stdlib.h>
#include <string.h>

#include "core/refset.h"

/* Order of the bulk sort: name, then the order the entries were pushed. */
struct keyed {
	struct lz_ref r;
	size_t seq;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->r.name, y->r.name);

	if (c != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct lz_ref *)elem)->name);
}

void
lz_refset_push(struct lz_refset *s, const char *name, const char *value)
{
	s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
	s->v[s->n].name = lz_xstrdup(name);
	s->v[s->n].value = value != NULL ? lz_xstrdup(value) : NULL;
	s->n++;
}

void
lz_refset_append(struct lz_refset *dst, struct lz_refset *src)
{
	if (src->n == 0)
		return;
	dst->v = lz_xgrow(dst->v, dst->n + src->n, &dst->alloc,
	    sizeof *dst->v);
	memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
	dst->n += src->n;
	free(src->v);
	src->v = NULL;
	src->n = src->alloc = 0;
}

void
lz_refset_sort(struct lz_refset *s)
{
	struct keyed *k;
	size_t i, j, n = 0;

	if (s->n == 0)
		return;
	k = lz_xreallocarray(NULL, s->n, sizeof *k);
	for (i = 0; i < s->n; i++) {
		k[i].r = s->v[i];
		k[i].seq = i;
	}
	qsort(k, s->n, sizeof *k, cmp_keyed);
	for (i = 0; i < s->n; i = j) {
		/* The last of a run of equal names wins. */
		for (j = i + 1; j < s->n &&
		    strcmp(k[j].r.name, k[i].r.name) == 0; j++)
			;
		while (i < j - 1) {
			free(k[i].r.name);
			free(k[i].r.value);
			i++;
		}
		if (k[i].r.value == NULL)
			free(k[i].r.name);
		else
			s->v[n++] = k[i].r;
	}
	s->n = n;
	free(k);
}

const char *
lz_refset_get(const struct lz_refset *s, const char *name)
{
	const struct lz_ref *r;

	if (s->n == 0)
		return NULL;
	r = bsearch(name, s->v, s->n, sizeof *s->v, cmp_name);
	return r != NULL ? r->value : NULL;
}

void
lz_refset_set(struct lz_refset *s, const char *name, const char *value)
{
	size_t lo = 0, hi = s->n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, s->v[mid].name);
		if (c == 0) {
			free(s->v[mid].value);
			if (value != NULL) {
				s->v[mid].value = lz_xstrdup(value);
				return;
			}
			free(s->v[mid].name);
			memmove(&s->v[mid], &s->v[mid + 1],
			    (s->n - mid - 1) * sizeof *s->v);
			s->n--;
			return;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (value == NULL)
		return;
	s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
	memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof *s->v);
	s->v[lo].name = lz_xstrdup(name);
	s->v[lo].value = lz_xstrdup(value);
	s->n++;
}

void
lz_refset_copy(struct lz_refset *dst, const struct lz_refset *src)
{
	size_t i;

	dst->v = src->n ? lz_xreallocarray(NULL, src->n, sizeof *dst->v) :
	    NULL;
	dst->alloc = src->n;
	for (i = 0; i < src->n; i++) {
		dst->v[i].name = lz_xstrdup(src->v[i].name);
		dst->v[i].value = lz_xstrdup(src->v[i].value);
	}
	dst->n = src->n;
}

void
lz_refset_release(struct lz_refset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].value);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int
lz_refset_diff(const struct lz_refset *a, const struct lz_refset *b,
    int (*fn)(void *ctx, const char *name, const char *old, const char *new),
    void *ctx)
{
	size_t i = 0, j = 0;
	int c, rc;

	while (i < a->n || j < b->n) {
		if (i == a->n)
			c = 1;
		else if (j == b->n)
			c = -1;
		else
			c = strcmp(a->v[i].name, b->v[j].name);
		if (c < 0)
			rc = fn(ctx, a->v[i].name, a->v[i].value, NULL);
		else if (c > 0)
			rc = fn(ctx, b->v[j].name, NULL, b->v[j].value);
		else if (strcmp(a->v[i].value, b->v[j].value) != 0)
			rc = fn(ctx, a->v[i].name, a->v[i].value,
			    b->v[j].value);
		else
			rc = 0;
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
lz_ref_oid_ok(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return s[n] == '\0' && (n == 40 || n == 64);
}
