/*
 * layout.h: where panes go. A binary tree whose leaves are panes (named by
 * an int the caller chooses) and whose inner nodes split their rectangle
 * side by side or one above the other, with a one-cell border between the
 * two halves (tmux's layout, without windows). One leaf may be zoomed: it
 * then gets the whole area and the others are hidden. Pure geometry: no
 * I/O, no ncurses.
 */
#ifndef LZ_LAYOUT_H
#define LZ_LAYOUT_H

struct lz_rect {
	int row, col, rows, cols;
};

enum lz_dir {
	LZ_DIR_LEFT,
	LZ_DIR_RIGHT,
	LZ_DIR_UP,
	LZ_DIR_DOWN,
};

struct lz_lnode;

struct lz_layout {
	struct lz_lnode *root;
	int zoomed;		/* a leaf's id, or -1 */
	struct lz_rect area;	/* of the last lz_layout_arrange */
};

void lz_layout_init(struct lz_layout *l);
void lz_layout_free(struct lz_layout *l);
int lz_layout_count(const struct lz_layout *l);
/*
 * Adds leaf id: the first leaf fills the area; later ones split leaf at,
 * the new one going right of it (LZ_DIR_RIGHT) or below (LZ_DIR_DOWN).
 * Returns 0, or -1 when at is not a leaf or the half would be smaller than
 * 2x2 cells (after the last arrange). Unzooms.
 */
int lz_layout_split(struct lz_layout *l, int at, int id, enum lz_dir dir);
/* Removes leaf id; its sibling takes the parent's place. 0 or -1. */
int lz_layout_remove(struct lz_layout *l, int id);
/* Computes every leaf's rectangle inside area. */
void lz_layout_arrange(struct lz_layout *l, struct lz_rect area);
/*
 * The rectangle of leaf id after the last arrange. Returns 1 if the leaf
 * is shown, 0 if hidden by a zoom, -1 if no such leaf.
 */
int lz_layout_rect(const struct lz_layout *l, int id, struct lz_rect *r);
/*
 * Leaf ids in order (left to right, top to bottom of the tree), at most
 * max; returns how many there are.
 */
int lz_layout_leaves(const struct lz_layout *l, int *ids, int max);
/* The leaf beside id in direction dir (by geometry), or -1. */
int lz_layout_neighbour(const struct lz_layout *l, int id, enum lz_dir dir);
/*
 * Moves the border of leaf id that lies in direction dir by cells (the
 * nearest enclosing split of that orientation). Returns 0, or -1 when
 * there is no such border. Halves keep at least 2 cells.
 */
int lz_layout_resize(struct lz_layout *l, int id, enum lz_dir dir, int cells);
/*
 * The border under (row, col), after the last arrange: 1 if it is one
 * between panes above and below each other, 0 if between panes side by
 * side, -1 if none (or zoomed).
 */
int lz_layout_border_at(const struct lz_layout *l, int row, int col);
/*
 * Moves the border under (row, col) to row to (between panes above and
 * below) or column to (side by side), keeping 2 cells each side. Returns
 * where it went, or -1 when there is no border there.
 */
int lz_layout_move_border(struct lz_layout *l, int row, int col, int to);
/* Zooms leaf id, or unzooms when it is zoomed already. */
void lz_layout_zoom(struct lz_layout *l, int id);
/*
 * Calls fn for each border cell run of the last arrange: vertical borders
 * (vertical != 0) at column col from row to row + len - 1, horizontal ones
 * at row row from col to col + len - 1. Nothing while zoomed.
 */
void lz_layout_borders(const struct lz_layout *l,
    void (*fn)(int vertical, int row, int col, int len, void *user),
    void *user);

#endif
