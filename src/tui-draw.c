/*
 * tui-draw.c: one frame: the panes (their mirrors, or the scrollback in
 * copy mode; a pane inside a synchronized update as the last frame showed
 * it), the borders between them, the status line, then overlays on top
 * (escalation prompts over their panes, then help, session list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/tui.h"

struct border_ctx {
	struct tui *t;
	struct lz_rect active;
};

/* Whether (row, col) touches the active pane's rectangle. */
static int
touches(struct lz_rect a, int row, int col)
{
	return row >= a.row - 1 && row <= a.row + a.rows &&
	    col >= a.col - 1 && col <= a.col + a.cols;
}

/* Whether (row, col) borders a pane with an escalation waiting. */
static int
waiting(struct tui *t, int row, int col)
{
	int i;

	for (i = 0; i < t->npanes; i++)
		if (tui_prompt_up(t->panes[i]) && t->panes[i]->rect.rows > 0 &&
		    touches(t->panes[i]->rect, row, col))
			return 1;
	return 0;
}

static void
border(int vertical, int row, int col, int len, void *user)
{
	struct border_ctx *b = user;
	struct tui *t = b->t;
	struct lz_pen pen = { 0, 0, 0 };
	const char *ch;
	int i, r, c;

	ch = t->term.utf8 ? (vertical ? "\u2502" : "\u2500") :
	    (vertical ? "|" : "-");
	for (i = 0; i < len; i++) {
		r = vertical ? row + i : row;
		c = vertical ? col : col + i;
		pen.fg = t->conf->color[waiting(t, r, c) ?
		    LZ_TUI_WAITING_FG : touches(b->active, r, c) &&
		    t->npanes > 1 ? LZ_TUI_ACTIVE_BORDER_FG : LZ_TUI_BORDER_FG];
		lz_render_text(&t->r, r, c, 1, ch, &pen);
	}
}

/* "1:bash* 2:vim": the panes by number, the active one starred. */
static void
pane_tabs(struct tui *t, struct lz_buf *b)
{
	const char *name, *sp;
	int i, len;

	for (i = 0; i < t->npanes; i++) {
		struct tui_pane *p = t->panes[i];

		name = lz_pane_title(p->pane);
		if (name[0] == '\0')
			name = p->command ? p->command : p->session;
		sp = strchr(name, ' ');
		len = sp ? (int)(sp - name) : (int)strlen(name);
		/* A program's name, not its directory: /bin/bash is bash. */
		for (sp = name + len; sp > name && sp[-1] != '/'; sp--)
			;
		len -= (int)(sp - name);
		name = sp;
		if (len > 16)
			len = 16;
		/* "!": an escalation waits for its human in that pane. */
		lz_buf_addf(b, "%s%d:%.*s%s%s", i ? " " : "", i + 1, len, name,
		    i == t->active ? (t->layout.zoomed >= 0 ? "*Z" : "*") : "",
		    tui_prompt_up(p) ? "!" : "");
	}
}

static void
status(struct tui *t)
{
	struct lz_pen pen = { t->conf->color[LZ_TUI_STATUS_FG],
	    t->conf->color[LZ_TUI_STATUS_BG], 0 };
	struct lz_buf left = LZ_BUF_INIT, right = LZ_BUF_INIT;
	struct tui_pane *p = tui_active(t);
	size_t detached = 0, i, waiting_n;
	time_t now = time(NULL);
	int row = t->rows - 1, used;

	lz_render_clear(&t->r, (struct lz_rect){ row, 0, 1, t->cols }, pen.bg);
	if (t->c != NULL)
		lz_buf_addf(&left, " lazaret %s %.8s | ",
		    t->c->profile->name, t->c->domain.id);
	else
		lz_buf_adds(&left, " lazaret bench | ");
	/* Right after the name: a cut never takes it, nor a message. */
	if ((waiting_n = tui_prompts_waiting(t)) > 0)
		lz_buf_addf(&left, "%zu request%s waiting | ", waiting_n,
		    waiting_n == 1 ? "" : "s");
	if (t->mode == TUI_CONFIRM)
		lz_buf_adds(&left, t->question);
	else if (t->mode == TUI_SEARCH)
		lz_buf_addf(&left, "search %s: %.*s", t->search_up ? "up" :
		    "down", (int)t->search_len, t->search);
	else if (t->message[0] != '\0' && t->message_until >= now)
		lz_buf_adds(&left, t->message);
	else if (t->mode == TUI_COPY && p != NULL)
		lz_buf_addf(&left, "[copy] %zu/%zu back  q quit  / ? search  "
		    "Space select  Enter copy  u link", p->back,
		    lz_pane_scrollback_lines(p->pane));
	else {
		pane_tabs(t, &left);
		if (t->history_changed)
			lz_buf_adds(&left, "  [" TUI_HISTORY_NOTE "]");
	}
	for (i = 0; i < t->nlist; i++)
		detached += !t->list[i].attached;
	/* localtime once a minute, not once a frame. */
	if (now / 60 != t->clock_minute) {
		t->clock_minute = now / 60;
		strftime(t->clock, sizeof t->clock, "%H:%M", localtime(&now));
	}
	if (t->c != NULL) {
		lz_buf_addf(&right, " %zu session%s", t->nlist,
		    t->nlist == 1 ? "" : "s");
		if (detached > 0)
			lz_buf_addf(&right, " (%zu detached)", detached);
		lz_buf_addf(&right, " | sandbox %s", t->failed ?
		    "FAILED" : t->have_ctl ? "running" : "?");
		/* The clock goes first when the tabs would be cut. */
		if (left.len + right.len + 9 <= (size_t)t->cols)
			lz_buf_addf(&right, " | %s", t->clock);
		lz_buf_addch(&right, ' ');
	} else
		lz_buf_addf(&right, " %s ", t->clock);
	/*
	 * The right part stays whole and the left one is cut to fit, except
	 * for a question, a search or a message, which get the whole line.
	 */
	used = (int)right.len < t->cols / 2 ? (int)right.len : 0;
	if (t->mode == TUI_CONFIRM || t->mode == TUI_SEARCH ||
	    (t->message[0] != '\0' && t->message_until >= now))
		used = 0;
	if (used > 0)
		lz_render_text(&t->r, row, t->cols - used, used, right.buf,
		    &pen);
	lz_render_text(&t->r, row, 0, t->cols - used, left.buf ? left.buf :
	    "", &pen);
	lz_buf_release(&left);
	lz_buf_release(&right);
}

void
tui_sync_release(struct tui_pane *p)
{
	free(p->hold);
	p->hold = NULL;
}

long
tui_sync_wait(struct tui *t)
{
	long left, min = -1;
	int i;

	for (i = 0; i < t->npanes; i++) {
		if (t->panes[i]->hold == NULL)
			continue;
		left = TUI_SYNC_MS - tui_ms_since(&t->panes[i]->hold_since);
		if (left < 0)
			left = 0;
		if (min < 0 || left < min)
			min = left;
	}
	return min;
}

/*
 * Synchronized output (?2026): while the program updates, the pane is
 * drawn as the last frame showed it (the renderer's front buffer), cursor
 * included; the update shows whole when the program ends it, or after
 * TUI_SYNC_MS if it never does (as tmux). Returns whether p is held.
 */
static int
hold(struct tui *t, struct tui_pane *p)
{
	const struct lz_pane_props *pr = lz_pane_props(p->pane);
	struct lz_rect r = p->rect;
	struct lz_cell *c;
	int y;

	if (!pr->sync || p->back > 0) {
		tui_sync_release(p);
		if (!pr->sync)
			p->sync_expired = 0;
		return 0;
	}
	if (p->hold != NULL && (memcmp(&p->hold_rect, &r, sizeof r) != 0 ||
	    tui_ms_since(&p->hold_since) >= TUI_SYNC_MS)) {
		tui_sync_release(p);
		p->sync_expired = 1;
	}
	if (p->sync_expired)
		return 0;
	if (p->hold == NULL) {
		if (t->r.rows < r.row + r.rows || t->r.cols < r.col + r.cols)
			return 0;
		p->hold = lz_xreallocarray(NULL,
		    (size_t)r.rows * (size_t)r.cols, sizeof *p->hold);
		for (y = 0; y < r.rows; y++)
			memcpy(p->hold + (size_t)y * (size_t)r.cols,
			    t->r.front + (size_t)(r.row + y) *
			    (size_t)t->r.cols + (size_t)r.col,
			    (size_t)r.cols * sizeof *p->hold);
		p->hold_rect = r;
		p->hold_crow = t->r.cur_row - r.row;
		p->hold_ccol = t->r.cur_col - r.col;
		p->hold_cvis = t->r.shown_visible == 1 && t->active >= 0 &&
		    t->panes[t->active] == p;
		clock_gettime(CLOCK_MONOTONIC, &p->hold_since);
	}
	for (y = 0; y < r.rows; y++) {
		if ((c = lz_render_at(&t->r, r.row + y, r.col)) != NULL)
			memcpy(c, p->hold + (size_t)y * (size_t)r.cols,
			    (size_t)r.cols * sizeof *c);
	}
	return 1;
}

void
tui_draw(struct tui *t)
{
	struct border_ctx b = { t, { 0, 0, 0, 0 } };
	const struct lz_pane_props *pr;
	struct tui_pane *p, *act = tui_active(t);
	int i;

	lz_render_clear(&t->r, (struct lz_rect){ 0, 0, t->rows, t->cols }, 0);
	for (i = 0; i < t->npanes; i++) {
		p = t->panes[i];
		if (p->rect.rows < 1)
			continue;	/* hidden by a zoom */
		if (!hold(t, p))
			lz_render_pane(&t->r, p->pane, p->rect, p->back);
		if (p == act && (t->mode == TUI_COPY || t->mode == TUI_SEARCH))
			tui_copy_draw(t, p);
	}
	if (act != NULL)
		b.active = act->rect;
	lz_layout_borders(&t->layout, border, &b);
	status(t);
	lz_render_cursor(&t->r, 0, 0, 0);
	if (act != NULL && act->rect.rows > 0 && !tui_prompt_up(act)) {
		pr = lz_pane_props(act->pane);
		if (t->mode == TUI_COPY || t->mode == TUI_SEARCH)
			lz_render_cursor(&t->r, act->rect.row + act->cy,
			    act->rect.col + act->cx, 1);
		else if (act->hold != NULL)
			lz_render_cursor(&t->r, act->rect.row + act->hold_crow,
			    act->rect.col + act->hold_ccol, act->hold_cvis);
		else if (act->back == 0)
			lz_render_cursor(&t->r, act->rect.row + pr->cursor_row,
			    act->rect.col + pr->cursor_col, pr->cursor_visible);
	}
	/* Escalation prompts over their panes, under help and lists. */
	for (i = 0; i < t->npanes; i++)
		tui_prompt_draw(t, t->panes[i]);
	tui_overlay_draw(t);
}
