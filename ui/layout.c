/*
 * layout.c: the pane tree (see layout.h). Each inner node keeps the size
 * of its first half in cells as a fraction (per mille) of its own size,
 * so a resize of the outer terminal keeps the proportions.
 */
#include <stdlib.h>

#include "core/util.h"
#include "ui/layout.h"

struct lz_lnode {
	int id;				/* leaf: the pane; inner: -1 */
	int vertical;			/* inner: a above b (1) or left (0) */
	int permille;			/* inner: a's share */
	struct lz_lnode *a, *b, *parent;
	struct lz_rect r;
};

static struct lz_lnode *
leaf_new(int id)
{
	struct lz_lnode *n = lz_xcalloc(1, sizeof *n);

	n->id = id;
	return n;
}

static void
node_free(struct lz_lnode *n)
{
	if (n == NULL)
		return;
	node_free(n->a);
	node_free(n->b);
	free(n);
}

static struct lz_lnode *
find(struct lz_lnode *n, int id)
{
	struct lz_lnode *f;

	if (n == NULL)
		return NULL;
	if (n->a == NULL)
		return n->id == id ? n : NULL;
	if ((f = find(n->a, id)) != NULL)
		return f;
	return find(n->b, id);
}

void
lz_layout_init(struct lz_layout *l)
{
	l->root = NULL;
	l->zoomed = -1;
	l->area = (struct lz_rect){ 0, 0, 24, 80 };
}

void
lz_layout_free(struct lz_layout *l)
{
	node_free(l->root);
	lz_layout_init(l);
}

int
lz_layout_count(const struct lz_layout *l)
{
	return lz_layout_leaves(l, NULL, 0);
}

int
lz_layout_split(struct lz_layout *l, int at, int id, enum lz_dir dir)
{
	struct lz_lnode *old, *inner;
	int vertical = dir == LZ_DIR_DOWN || dir == LZ_DIR_UP;

	if (l->root == NULL) {
		l->root = leaf_new(id);
		l->root->r = l->area;
		return 0;
	}
	if ((old = find(l->root, at)) == NULL || find(l->root, id) != NULL)
		return -1;
	/* Both halves and the border must fit: 2 + 1 + 2 cells. */
	if ((vertical ? old->r.rows : old->r.cols) < 5)
		return -1;
	inner = lz_xcalloc(1, sizeof *inner);
	inner->id = -1;
	inner->vertical = vertical;
	inner->permille = 500;
	inner->r = old->r;
	inner->parent = old->parent;
	if (old->parent == NULL)
		l->root = inner;
	else if (old->parent->a == old)
		old->parent->a = inner;
	else
		old->parent->b = inner;
	inner->a = old;
	inner->b = leaf_new(id);
	old->parent = inner->b->parent = inner;
	l->zoomed = -1;
	lz_layout_arrange(l, l->area);
	return 0;
}

int
lz_layout_remove(struct lz_layout *l, int id)
{
	struct lz_lnode *n = find(l->root, id), *p, *sib;

	if (n == NULL)
		return -1;
	if (l->zoomed == id)
		l->zoomed = -1;
	p = n->parent;
	if (p == NULL) {
		free(n);
		l->root = NULL;
		return 0;
	}
	sib = p->a == n ? p->b : p->a;
	sib->parent = p->parent;
	if (p->parent == NULL)
		l->root = sib;
	else if (p->parent->a == p)
		p->parent->a = sib;
	else
		p->parent->b = sib;
	free(n);
	free(p);
	lz_layout_arrange(l, l->area);
	return 0;
}

/* Size of the first half of a span of len cells (one border between). */
static int
first_half(int len, int permille)
{
	int a = (int)((long)(len - 1) * permille / 1000);

	if (a < 1)
		a = 1;
	if (a > len - 2)
		a = len - 2;
	return a < 1 ? 1 : a;
}

static void
arrange(struct lz_lnode *n, struct lz_rect r)
{
	struct lz_rect ra = r, rb = r;
	int a;

	n->r = r;
	if (n->a == NULL)
		return;
	if (n->vertical) {
		a = first_half(r.rows, n->permille);
		ra.rows = a;
		rb.row = r.row + a + 1;
		rb.rows = r.rows - a - 1;
	} else {
		a = first_half(r.cols, n->permille);
		ra.cols = a;
		rb.col = r.col + a + 1;
		rb.cols = r.cols - a - 1;
	}
	if (rb.rows < 1)
		rb.rows = 1;
	if (rb.cols < 1)
		rb.cols = 1;
	arrange(n->a, ra);
	arrange(n->b, rb);
}

void
lz_layout_arrange(struct lz_layout *l, struct lz_rect area)
{
	l->area = area;
	if (l->root != NULL)
		arrange(l->root, area);
}

int
lz_layout_rect(const struct lz_layout *l, int id, struct lz_rect *r)
{
	struct lz_lnode *n = find(l->root, id);

	if (n == NULL)
		return -1;
	if (l->zoomed >= 0) {
		*r = l->area;
		return l->zoomed == id;
	}
	*r = n->r;
	return 1;
}

static void
leaves(const struct lz_lnode *n, int *ids, int max, int *count)
{
	if (n == NULL)
		return;
	if (n->a == NULL) {
		if (*count < max && ids != NULL)
			ids[*count] = n->id;
		(*count)++;
		return;
	}
	leaves(n->a, ids, max, count);
	leaves(n->b, ids, max, count);
}

int
lz_layout_leaves(const struct lz_layout *l, int *ids, int max)
{
	int count = 0;

	leaves(l->root, ids, max, &count);
	return count;
}

/* How far b lies from a in direction dir, or -1 when not beside it. */
static long
distance(struct lz_rect a, struct lz_rect b, enum lz_dir dir)
{
	int overlap;

	switch (dir) {
	case LZ_DIR_LEFT:
	case LZ_DIR_RIGHT:
		overlap = (a.row < b.row + b.rows) && (b.row < a.row + a.rows);
		if (!overlap)
			return -1;
		if (dir == LZ_DIR_RIGHT && b.col > a.col + a.cols - 1)
			return (long)(b.col - (a.col + a.cols)) * 10000 +
			    labs((long)b.row - a.row);
		if (dir == LZ_DIR_LEFT && b.col + b.cols - 1 < a.col)
			return (long)(a.col - (b.col + b.cols)) * 10000 +
			    labs((long)b.row - a.row);
		return -1;
	default:
		overlap = (a.col < b.col + b.cols) && (b.col < a.col + a.cols);
		if (!overlap)
			return -1;
		if (dir == LZ_DIR_DOWN && b.row > a.row + a.rows - 1)
			return (long)(b.row - (a.row + a.rows)) * 10000 +
			    labs((long)b.col - a.col);
		if (dir == LZ_DIR_UP && b.row + b.rows - 1 < a.row)
			return (long)(a.row - (b.row + b.rows)) * 10000 +
			    labs((long)b.col - a.col);
		return -1;
	}
}

int
lz_layout_neighbour(const struct lz_layout *l, int id, enum lz_dir dir)
{
	struct lz_lnode *n = find(l->root, id), *o;
	int ids[256], count, i, best = -1;
	long d, bestd = -1;

	if (n == NULL || l->zoomed >= 0)
		return -1;
	count = lz_layout_leaves(l, ids, 256);
	for (i = 0; i < count && i < 256; i++) {
		if (ids[i] == id || (o = find(l->root, ids[i])) == NULL)
			continue;
		d = distance(n->r, o->r, dir);
		if (d >= 0 && (bestd < 0 || d < bestd)) {
			bestd = d;
			best = ids[i];
		}
	}
	return best;
}

/*
 * Gives the first half of split p a cells (kept so that each half has at
 * least 2), and arranges p again. Returns 0, or -1 when p is too small.
 */
static int
set_first(struct lz_lnode *p, int a)
{
	int len = p->vertical ? p->r.rows : p->r.cols;

	if (a < 2)
		a = 2;
	if (a > len - 3)
		a = len - 3;
	if (a < 1)
		return -1;
	/* Round up so first_half gives back exactly a. */
	p->permille = (int)(((long)a * 1000 + (len - 2)) / (len - 1));
	if (p->permille > 1000)
		p->permille = 1000;
	arrange(p, p->r);
	return 0;
}

int
lz_layout_resize(struct lz_layout *l, int id, enum lz_dir dir, int cells)
{
	struct lz_lnode *n = find(l->root, id), *p;
	int vertical = dir == LZ_DIR_UP || dir == LZ_DIR_DOWN;
	int len, sign = (dir == LZ_DIR_RIGHT || dir == LZ_DIR_DOWN) ? 1 : -1;

	if (n == NULL)
		return -1;
	/*
	 * The nearest split of this orientation above n: moving its border
	 * moves the edge of n that lies on it, whichever side n is on.
	 */
	for (p = n->parent; p != NULL; p = p->parent) {
		if (p->vertical == vertical)
			break;
	}
	if (p == NULL)
		return -1;
	len = vertical ? p->r.rows : p->r.cols;
	return set_first(p, first_half(len, p->permille) + sign * cells);
}

/* The split whose border holds (row, col). */
static struct lz_lnode *
border_at(struct lz_lnode *n, int row, int col)
{
	struct lz_lnode *f;

	if (n == NULL || n->a == NULL)
		return NULL;
	if (n->vertical ? row == n->a->r.row + n->a->r.rows &&
	    col >= n->r.col && col < n->r.col + n->r.cols :
	    col == n->a->r.col + n->a->r.cols && row >= n->r.row &&
	    row < n->r.row + n->r.rows)
		return n;
	if ((f = border_at(n->a, row, col)) != NULL)
		return f;
	return border_at(n->b, row, col);
}

int
lz_layout_border_at(const struct lz_layout *l, int row, int col)
{
	struct lz_lnode *n = l->zoomed < 0 ? border_at(l->root, row, col) :
	    NULL;

	return n == NULL ? -1 : n->vertical;
}

int
lz_layout_move_border(struct lz_layout *l, int row, int col, int to)
{
	struct lz_lnode *n = l->zoomed < 0 ? border_at(l->root, row, col) :
	    NULL;

	if (n == NULL || set_first(n, to - (n->vertical ? n->r.row :
	    n->r.col)) != 0)
		return -1;
	return n->vertical ? n->a->r.row + n->a->r.rows :
	    n->a->r.col + n->a->r.cols;
}

void
lz_layout_zoom(struct lz_layout *l, int id)
{
	if (find(l->root, id) == NULL)
		return;
	l->zoomed = l->zoomed == id ? -1 : id;
}

static void
borders(const struct lz_lnode *n,
    void (*fn)(int, int, int, int, void *), void *user)
{
	if (n == NULL || n->a == NULL)
		return;
	if (n->vertical)
		fn(0, n->a->r.row + n->a->r.rows, n->r.col, n->r.cols, user);
	else
		fn(1, n->r.row, n->a->r.col + n->a->r.cols, n->r.rows, user);
	borders(n->a, fn, user);
	borders(n->b, fn, user);
}

void
lz_layout_borders(const struct lz_layout *l,
    void (*fn)(int vertical, int row, int col, int len, void *user),
    void *user)
{
	if (l->zoomed < 0)
		borders(l->root, fn, user);
}
