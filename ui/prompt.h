/*
 * prompt.h: the escalation prompt (Host Escalation, item 3) as a model:
 * one request (a PROMPT frame), the keys the developer types, the
 * DECISION they make, and the text of the modal. No I/O: the TUI draws
 * it over the pane that asked (src/tui-prompt.c), a raw session over its
 * terminal (src/client-session.c), both with lz_prompt_draw, and the
 * unit test drives it directly.
 *
 * What it shows (every string from the sandbox through core/visible.h,
 * each argv element quoted, one a line, wrapped, never cut: the body
 * scrolls): the profile, the session (pane number and command), the host
 * directory it would run in, the argv, and the justification labelled as
 * the agent's words; the keys; the time left; "+N pending".
 *
 * Keys (main view):
 *   a            approve once
 *   s            approve this exact argv for the rest of the session
 *   r            save a rule: shows the exact config line and "applies to
 *                profile P in every project"; y saves (and runs), n or
 *                Escape goes back
 *   d            deny: a line for an optional message to the agent;
 *                Enter sends, Escape goes back
 *   e            edit: the argv element by element; Up/Down select,
 *                Enter edits the element (its escaped form: \\ \" \n \t
 *                \r \xHH \uHHHH \UHHHHHHHH; Enter keeps, Escape drops),
 *                i / o insert an empty element before / after, x or
 *                Delete removes one, y runs the argv exactly as shown
 *                (an edit that changed nothing is a plain approval),
 *                Escape goes back
 *   Up Down PageUp PageDown Home End   scroll the body
 * Keys typed within LZ_PROMPT_GUARD_MS of the prompt appearing are
 * dropped (the developer was typing into the pane) and counted.
 */
#ifndef LZ_PROMPT_H
#define LZ_PROMPT_H

#include <stdint.h>

#include "core/keyspec.h"
#include "core/util.h"
#include "protocol/msg.h"
#include "ui/layout.h"
#include "ui/render.h"

#define LZ_PROMPT_GUARD_MS 500
/* A pane smaller than this is zoomed while its prompt is up. */
#define LZ_PROMPT_MIN_ROWS 14
#define LZ_PROMPT_MIN_COLS 48
#define LZ_PROMPT_MAX_COLS 100

enum lz_prompt_view {
	LZ_PROMPT_MAIN,
	LZ_PROMPT_RULE,		/* the rule and its second confirmation */
	LZ_PROMPT_DENY,		/* the message to the agent */
	LZ_PROMPT_EDIT,		/* the argv, element by element */
	LZ_PROMPT_EDIT_LINE,	/* one element being edited */
};

enum lz_prompt_flags {
	LZ_PROMPT_ASCII = 1 << 0,	/* the terminal is not UTF-8 */
};

/* What the client knows beside the PROMPT frame. */
struct lz_prompt_ctx {
	int pane;		/* its number on the status line; 0: raw */
	const char *config;	/* where a saved rule goes (shown), or NULL */
	int flags;		/* enum lz_prompt_flags */
};

struct lz_prompt {
	struct lz_msg_prompt req;	/* the request (owned) */
	int pane;
	char *config;
	int flags;
	int64_t shown;			/* ms (caller's monotonic clock) */
	int64_t deadline;		/* shown + req.timeout_ms */
	unsigned ignored;		/* keys the guard dropped */
	unsigned pending;		/* more requests behind it (caller) */
	enum lz_prompt_view view;
	int scroll;			/* first body line shown */
	int page;			/* body lines of the last draw */
	struct lz_buf rule;		/* the config line, or "" */
	char *rule_err;			/* why it cannot be saved, or NULL */
	struct lz_buf msg;		/* a denial's message */
	struct lz_tokens edit;		/* the argv being edited (bytes) */
	int sel;			/* its selected element */
	struct lz_buf line;		/* the element being edited, escaped */
	size_t cur;			/* cursor: a byte offset in line */
	char err[160];			/* the editor's last complaint */
};

/* Takes m (m is left empty); now: the caller's clock in ms. */
void lz_prompt_init(struct lz_prompt *p, struct lz_msg_prompt *m,
    const struct lz_prompt_ctx *ctx, int64_t now);
void lz_prompt_release(struct lz_prompt *p);

/*
 * One key. Returns 1 when it decided: out is filled (id, decision, argv
 * for an edit, message for a denial; no env: the caller adds the
 * escalation-env values of approvals) and the caller sends it, releases
 * out and removes the prompt. Returns 0 otherwise (out untouched).
 */
int lz_prompt_key(struct lz_prompt *p, const struct lz_key *k, int64_t now,
    struct lz_msg_decision *out);

/* A line of the modal: its text and how it is drawn. */
enum lz_prompt_style {
	LZ_PROMPT_PLAIN,
	LZ_PROMPT_LABEL,	/* bold */
	LZ_PROMPT_SELECTED,	/* reverse */
	LZ_PROMPT_WARN,		/* bold, the warning colour */
};

struct lz_prompt_text {
	char *title;
	struct lz_tokens body;		/* wrapped to cols, never cut */
	int *body_style;
	struct lz_tokens foot;		/* keys, time left, scroll state */
	int *foot_style;
	int cursor_line, cursor_col;	/* in body; -1: no cursor */
};

/*
 * The modal's text for a box cols columns wide (inside its frame),
 * body_rows high (to say what is below), at time now.
 */
void lz_prompt_text(struct lz_prompt *p, int cols, int body_rows,
    int64_t now, struct lz_prompt_text *out);
void lz_prompt_text_release(struct lz_prompt_text *t);

struct lz_prompt_pens {
	struct lz_pen text, frame, warn;
};

/*
 * Draws the modal inside area (the pane's rectangle, or the whole screen
 * of a raw session): a framed box at most LZ_PROMPT_MAX_COLS wide, as tall
 * as it needs, centred. Returns the cursor position (row, col) the editor
 * wants, or row -1.
 */
void lz_prompt_draw(struct lz_prompt *p, struct lz_render *r,
    struct lz_rect area, const struct lz_prompt_pens *pens, int64_t now,
    int *cursor_row, int *cursor_col);

#endif
