/*
 * render.h: the TUI's frame. Panes, borders and the status line are drawn
 * into a back buffer of cells (ui/grid.h's struct lz_cell); lz_render_flush
 * compares it with what the terminal shows (the front buffer) and writes
 * only the cells that changed, through the host's terminfo (ui/term.h),
 * then swaps. So a flood of output costs one diff per frame, whatever came
 * in between, and one write(2) per frame.
 *
 * Overlays (escalation prompts, the help and session list) are drawn into
 * the back buffer after the panes, before the flush: whatever is drawn
 * last is on top.
 */
#ifndef LZ_RENDER_H
#define LZ_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "ui/grid.h"
#include "ui/layout.h"
#include "ui/pane.h"
#include "ui/term.h"

/* The renderer's hyperlinks: its own numbers for the panes' (grid.h). */
#define LZ_RENDER_LINKS 255

struct lz_render {
	const struct lz_term *t;
	/*
	 * Hyperlinks: policy (lz_render_links) says what the host may see of
	 * a pane's URI; link[i - 1] is the host's URI of number i.
	 */
	int (*policy)(const char *uri, struct lz_buf *out, void *user);
	void *policy_user;
	char *link[LZ_RENDER_LINKS];
	int nlink;
	int at_link;			/* the link open on the terminal */
	int rows, cols;
	struct lz_cell *front, *back;
	int full;			/* next flush redraws everything */
	int cur_row, cur_col, cur_visible;	/* wanted cursor */
	/* What the terminal has now (for the diff's output). */
	int at_row, at_col;		/* -1: unknown */
	struct lz_pen pen;
	int pen_known;
	int shown_visible;
};

void lz_render_init(struct lz_render *r, const struct lz_term *t, int rows,
    int cols);
void lz_render_free(struct lz_render *r);
/*
 * Draws the panes' hyperlinks with OSC 8 when the terminal takes them
 * (lz_term.hyperlinks): policy(uri, out, user) appends the URI the host
 * may see and returns 1, or returns 0 to draw the text unlinked.
 */
void lz_render_links(struct lz_render *r,
    int (*policy)(const char *uri, struct lz_buf *out, void *user),
    void *user);
/* New size: everything is drawn again at the next flush. */
void lz_render_resize(struct lz_render *r, int rows, int cols);
/* Draw everything again at the next flush (after a redraw key). */
void lz_render_invalidate(struct lz_render *r);

/* The back buffer's cell, or NULL outside. */
struct lz_cell *lz_render_at(struct lz_render *r, int row, int col);
/* Blanks a rectangle with background bg. */
void lz_render_clear(struct lz_render *r, struct lz_rect rect, uint32_t bg);
/*
 * Writes UTF-8 text at (row, col) in at most maxcols columns with the pen;
 * control characters are shown as '?'. Returns the columns used.
 */
int lz_render_text(struct lz_render *r, int row, int col, int maxcols,
    const char *text, const struct lz_pen *pen);
/*
 * Copies pane p into rect: with back > 0 the view is scrolled back that
 * many lines into the scrollback. A wide character cut by the right edge
 * becomes a blank.
 */
void lz_render_pane(struct lz_render *r, const struct lz_pane *p,
    struct lz_rect rect, size_t back);
void lz_render_cursor(struct lz_render *r, int row, int col, int visible);

/* What enters the TUI's screen (alternate screen, no autowrap). */
void lz_render_enter(const struct lz_term *t, struct lz_buf *out);
/* What leaves it: pen reset, cursor shown, autowrap on, primary screen. */
void lz_render_leave(const struct lz_term *t, struct lz_buf *out);
/* Appends the changes since the last flush to out and swaps. */
void lz_render_flush(struct lz_render *r, struct lz_buf *out);

#endif
