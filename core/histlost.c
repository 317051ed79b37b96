/*
 * histlost.c: the restore plan (histlost.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/histlost.h"

/* One value a ref had, and the record that moved it away. */
struct cand {
	const char *value;
	const struct lz_histrec *left;	/* NULL: changed unseen */
	int64_t ms;
};

static int same(const char *a, const char *b);
static void add(struct lz_histplan *p, const char *name, const char *target,
    const char *now, const char *after, int64_t ms, enum lz_hist_who who,
    long lost, const struct lz_histq *q, int undo_ok);
static void lost_one(const struct lz_histlog *log, const char *name,
    const struct lz_refset *now, int named, const struct lz_histq *q,
    struct lz_histplan *out);
static int cmp_loss(const void *a, const void *b);

static int
same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void
add(struct lz_histplan *p, const char *name, const char *target,
    const char *now, const char *after, int64_t ms, enum lz_hist_who who,
    long lost, const struct lz_histq *q, int undo_ok)
{
	struct lz_histloss *l;

	p->v = lz_xgrow(p->v, p->n + 1, &p->alloc, sizeof *p->v);
	l = &p->v[p->n++];
	memset(l, 0, sizeof *l);
	l->name = lz_xstrdup(name);
	l->target = lz_xstrdup(target);
	l->now = now != NULL ? lz_xstrdup(now) : NULL;
	l->after = after != NULL ? lz_xstrdup(after) : NULL;
	l->ms = ms;
	l->who = who;
	l->lost = lost;
	l->action = now == NULL ? LZ_HISTLOSS_CREATE : LZ_HISTLOSS_MOVE;
	l->ask = now != NULL && q->ff(q->ctx, now, target) != 1 &&
	    !(undo_ok && who == LZ_HIST_DOMAIN && same(now, after));
}

/* The lost-mode entry of one ref (named: asked for by name). */
static void
lost_one(const struct lz_histlog *log, const char *name,
    const struct lz_refset *now, int named, const struct lz_histq *q,
    struct lz_histplan *out)
{
	const char *cur = lz_refset_get(now, name), *last = NULL;
	const struct lz_histrec *r, *last_rec = NULL;
	struct cand *c = NULL, *best = NULL;
	size_t i, j, nc = 0, alloc = 0;
	long lost, best_lost = 0;

	for (i = 0; i < log->n; i++) {
		r = &log->v[i];
		if (strcmp(r->name, name) != 0)
			continue;
		last = r->new;
		last_rec = r;
		/* The host's own moves and restore's: only when named. */
		if (r->old == NULL || r->kind == '>' || r->kind == '+' ||
		    r->kind == '=' || (!named && r->who != LZ_HIST_DOMAIN))
			continue;
		c = lz_xgrow(c, nc + 1, &alloc, sizeof *c);
		c[nc++] = (struct cand){ r->old, r, r->ms };
	}
	if (named && last != NULL && !same(last, cur)) {
		c = lz_xgrow(c, nc + 1, &alloc, sizeof *c);
		c[nc++] = (struct cand){ last, NULL, last_rec->ms };
	}
	/*
	 * HEAD: gone, it comes back as it was; on a branch, a checkout is
	 * no loss; detached, its detached values count as any ref's.
	 */
	if (strcmp(name, "HEAD") == 0 && cur == NULL) {
		if (last != NULL)
			add(out, name, last, NULL, NULL, last_rec->ms,
			    last_rec->who, 0, q, 0);
		else if (nc > 0)
			add(out, name, c[nc - 1].value, NULL, NULL,
			    c[nc - 1].ms, LZ_HIST_DOMAIN, 0, q, 0);
		free(c);
		return;
	}
	if (strcmp(name, "HEAD") == 0 && strncmp(cur, "ref:", 4) == 0) {
		free(c);
		return;
	}
	if (strcmp(name, "HEAD") == 0) {
		for (i = 0, j = 0; i < nc; i++)
			if (strncmp(c[i].value, "ref:", 4) != 0)
				c[j++] = c[i];
		nc = j;
	}
	/* The most recent value that is lost now. */
	for (i = nc; i-- > 0 && best == NULL; ) {
		if (same(c[i].value, cur))
			continue;
		lost = q->lost(q->ctx, c[i].value);
		if (lost != 0) {
			best = &c[i];
			best_lost = lost;
		}
	}
	if (best != NULL) {
		add(out, name, best->value, cur, best->left != NULL ?
		    best->left->new : cur, best->ms, best->left != NULL ?
		    best->left->who : LZ_HIST_HOST, best_lost, q, 1);
		/* Older losses the target does not contain. */
		for (i = 0; &c[i] < best; i++)
			if (!same(c[i].value, best->value) &&
			    q->ff(q->ctx, c[i].value, best->value) != 1 &&
			    q->lost(q->ctx, c[i].value) != 0) {
				out->v[out->n - 1].earlier++;
				if (out->v[out->n - 1].earlier_ms == 0)
					out->v[out->n - 1].earlier_ms =
					    c[i].ms;
			}
	}
	else if (named && cur == NULL && nc > 0)
		add(out, name, c[nc - 1].value, NULL, NULL, c[nc - 1].ms,
		    c[nc - 1].left != NULL ? c[nc - 1].left->who :
		    LZ_HIST_HOST, q->lost(q->ctx, c[nc - 1].value), q, 0);
	free(c);
}

static int
cmp_loss(const void *a, const void *b)
{
	return strcmp(((const struct lz_histloss *)a)->name,
	    ((const struct lz_histloss *)b)->name);
}

void
lz_histplan_make(const struct lz_histlog *log, const struct lz_refset *now,
    const char *only, int64_t to_ms, const struct lz_histq *q,
    struct lz_histplan *out)
{
	struct lz_refset names = LZ_REFSET_INIT, then;
	const struct lz_histrec *r;
	const char *cur;
	size_t i, j;

	memset(out, 0, sizeof *out);
	if (to_ms >= 0) {
		lz_histlog_state(log, to_ms, &then);
		for (i = 0; i < then.n; i++) {
			if (only != NULL && strcmp(then.v[i].name, only) != 0)
				continue;
			cur = lz_refset_get(now, then.v[i].name);
			if (same(cur, then.v[i].value) ||
			    (strcmp(then.v[i].name, "HEAD") == 0 &&
			    cur != NULL && only == NULL))
				continue;
			/* The record that gave it that value. */
			for (j = 0, r = NULL; j < log->n &&
			    log->v[j].ms <= to_ms; j++)
				if (strcmp(log->v[j].name, then.v[i].name) == 0)
					r = &log->v[j];
			add(out, then.v[i].name, then.v[i].value, cur, NULL,
			    r != NULL ? r->ms : to_ms, r != NULL ? r->who :
			    LZ_HIST_HOST, q->lost(q->ctx, then.v[i].value), q,
			    0);
		}
		lz_refset_release(&then);
		return;
	}
	/* Every name the log knows, once. */
	for (i = 0; i < log->n; i++)
		if (only == NULL || strcmp(log->v[i].name, only) == 0)
			lz_refset_push(&names, log->v[i].name, "");
	lz_refset_sort(&names);
	for (i = 0; i < names.n; i++)
		lost_one(log, names.v[i].name, now, only != NULL, q, out);
	lz_refset_release(&names);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_loss);
}

void
lz_histplan_release(struct lz_histplan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].target);
		free(p->v[i].now);
		free(p->v[i].after);
	}
	free(p->v);
	memset(p, 0, sizeof *p);
}

const char *
lz_histplan_ref(const struct lz_histlog *log, const struct lz_refset *now,
    const char *arg, struct lz_buf *buf)
{
	static const char *const forms[] = { "%s", "refs/%s", "refs/tags/%s",
	    "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD" };
	size_t f, i;

	for (f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		lz_buf_reset(buf);
		lz_buf_addf(buf, forms[f], arg);
		if (lz_refset_get(now, buf->buf) != NULL)
			return buf->buf;
		for (i = 0; i < log->n; i++)
			if (strcmp(log->v[i].name, buf->buf) == 0)
				return buf->buf;
	}
	return NULL;
}
