/*
 * pane-history.h: a pane's scrollback as an ANSI stream, so a client that
 * attaches gets history to scroll back through, not only the screen. Fed
 * into an empty pane of the same width, the stream leaves the lines in
 * that pane's scrollback (oldest first) and a blank screen; the caller
 * then sends lz_pane_render_ansi's screen.
 */
#ifndef LZ_PANE_HISTORY_H
#define LZ_PANE_HISTORY_H

#include "ui/pane.h"

/* The newest max scrollback lines of p (all when fewer). */
void lz_pane_render_history(const struct lz_pane *p, size_t max,
    struct lz_buf *out);

#endif
