/*
 * tui-overlay.c: what is drawn over the panes: the help (prefix ?), the
 * Domain's session list (prefix s), and y/n questions on the status line.
 * The session list comes from the control connection (LIST, SESSIONS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/tui.h"

static char pending[33];	/* the session a question is about */

void
tui_ask(struct tui *t, const char *question, void (*on_yes)(struct tui *))
{
	snprintf(t->question, sizeof t->question, "%s", question);
	t->on_yes = on_yes;
	t->mode = TUI_CONFIRM;
	t->dirty = 1;
}

void
tui_list_refresh(struct tui *t)
{
	struct lz_buf b = LZ_BUF_INIT;

	if (!t->have_ctl)
		return;
	lz_frame_add(&b, LZ_FRAME_LIST, NULL, 0);
	if (lz_conn_send(&t->ctl, &b, NULL) != 0) {
		lz_conn_close(&t->ctl);
		t->have_ctl = 0;
	}
	lz_buf_release(&b);
}

static int
shown_here(struct tui *t, const char *id)
{
	int i;

	for (i = 0; i < t->npanes; i++) {
		if (strcmp(t->panes[i]->session, id) == 0)
			return i;
	}
	return -1;
}

static void
take_sessions(struct tui *t, const struct lz_msg_sessions *l)
{
	const struct lz_msg_session *s;
	struct tui_listent *e;
	size_t i;
	int pane;

	for (i = 0; i < t->nlist; i++)
		free(t->list[i].command);
	t->nlist = 0;
	t->list = lz_xreallocarray(t->list, l->n + 1, sizeof *t->list);
	for (i = 0; i < l->n; i++) {
		s = &l->v[i];
		if (!s->tty)
			continue;
		e = &t->list[t->nlist++];
		snprintf(e->session, sizeof e->session, "%s", s->session);
		e->command = lz_xstrdup(s->command);
		e->running = s->running;
		e->attached = s->client[0] != '\0';
		pane = shown_here(t, s->session);
		e->here = pane >= 0;
		/* An attached pane learns its command from the list. */
		if (e->here && t->panes[pane]->command == NULL)
			t->panes[pane]->command = lz_xstrdup(e->command);
	}
	if (t->list_sel >= (int)t->nlist)
		t->list_sel = t->nlist > 0 ? (int)t->nlist - 1 : 0;
	/* The Git history guard saw a loss (core/history.h). */
	if (l->history != NULL && !t->history_changed)
		tui_message(t, TUI_HISTORY_NOTE);
	t->history_changed = l->history != NULL;
}

void
tui_ctl_read(struct tui *t)
{
	struct lz_buf payload = LZ_BUF_INIT;
	struct lz_msg_sessions l;
	struct lz_frame f;
	int rc;

	rc = lz_conn_fill(&t->ctl, NULL);
	if (rc <= 0) {
		lz_conn_close(&t->ctl);
		t->have_ctl = 0;
		t->dirty = 1;
		return;
	}
	while (lz_conn_next(&t->ctl, &f, &payload, NULL) == 1) {
		if (f.type != LZ_FRAME_SESSIONS ||
		    lz_msg_sessions_decode(&f, &l, NULL) != 0)
			continue;
		take_sessions(t, &l);
		lz_msg_sessions_release(&l);
		t->dirty = 1;
	}
	lz_buf_release(&payload);
}

static void
take_yes(struct tui *t)
{
	tui_new_pane(t, LZ_DIR_RIGHT, pending, 1);
}

static void
list_enter(struct tui *t)
{
	struct tui_listent *e;
	char q[160];
	int i;

	if (t->list_sel < 0 || t->list_sel >= (int)t->nlist)
		return;
	e = &t->list[t->list_sel];
	t->mode = TUI_NORMAL;
	if ((i = shown_here(t, e->session)) >= 0) {
		tui_focus(t, i);
		tui_layout(t);
		return;
	}
	snprintf(pending, sizeof pending, "%s", e->session);
	if (e->attached) {
		snprintf(q, sizeof q, "session %.8s is shown by another "
		    "client: take it over? (y/n)", e->session);
		tui_ask(t, q, take_yes);
		return;
	}
	tui_new_pane(t, LZ_DIR_RIGHT, e->session, 0);
	tui_list_refresh(t);
}

void
tui_overlay_key(struct tui *t, const struct lz_key *k)
{
	switch (t->mode) {
	case TUI_CONFIRM:
		t->mode = TUI_NORMAL;
		if ((lz_key_is(k, "y") || lz_key_is(k, "Y")) &&
		    t->on_yes != NULL)
			t->on_yes(t);
		t->on_yes = NULL;
		break;
	case TUI_LIST:
		if (lz_key_is(k, "Up") || lz_key_is(k, "k"))
			t->list_sel -= t->list_sel > 0;
		else if (lz_key_is(k, "Down") || lz_key_is(k, "j"))
			t->list_sel += t->list_sel + 1 < (int)t->nlist;
		else if (lz_key_is(k, "Enter"))
			list_enter(t);
		else if (lz_key_is(k, "q") || lz_key_is(k, "Escape"))
			t->mode = TUI_NORMAL;
		break;
	default:
		t->mode = TUI_NORMAL;	/* help: any key closes it */
		break;
	}
	t->dirty = 1;
}

/* A framed box in the middle of the screen; returns its inside. */
static struct lz_rect
box(struct tui *t, int want_rows, int want_cols, const char *title)
{
	struct lz_pen pen = { 0, LZ_COLOR_DEFAULT, 0 };
	struct lz_rect r;
	int i;

	r.rows = want_rows + 2 < t->rows - 1 ? want_rows + 2 : t->rows - 1;
	r.cols = want_cols + 4 < t->cols ? want_cols + 4 : t->cols;
	r.row = (t->rows - 1 - r.rows) / 2;
	r.col = (t->cols - r.cols) / 2;
	lz_render_clear(&t->r, r, LZ_COLOR_DEFAULT);
	pen.fg = t->conf->color[LZ_TUI_ACTIVE_BORDER_FG];
	for (i = 0; i < r.cols; i++) {
		lz_render_text(&t->r, r.row, r.col + i, 1, t->term.utf8 ?
		    "\u2500" : "-", &pen);
		lz_render_text(&t->r, r.row + r.rows - 1, r.col + i, 1,
		    t->term.utf8 ? "\u2500" : "-", &pen);
	}
	for (i = 1; i < r.rows - 1; i++) {
		lz_render_text(&t->r, r.row + i, r.col, 1, t->term.utf8 ?
		    "\u2502" : "|", &pen);
		lz_render_text(&t->r, r.row + i, r.col + r.cols - 1, 1,
		    t->term.utf8 ? "\u2502" : "|", &pen);
	}
	pen.attr = LZ_ATTR_BOLD;
	lz_render_text(&t->r, r.row, r.col + 2, r.cols - 4, title, &pen);
	return (struct lz_rect){ r.row + 1, r.col + 2, r.rows - 2,
	    r.cols - 4 };
}

static void
draw_help(struct tui *t)
{
	struct lz_pen pen = { 0, 0, 0 };
	struct lz_buf line = LZ_BUF_INIT, keys = LZ_BUF_INIT;
	struct lz_rect in;
	char name[32], title[96];
	size_t i;
	int a, row = 0;

	lz_key_name(&t->conf->prefix, name, sizeof name);
	snprintf(title, sizeof title, " keys after the prefix %s (any key "
	    "closes) ", name);
	in = box(t, LZ_ACT_COUNT + 2, 76, title);
	for (a = 1; a < LZ_ACT_COUNT && row < in.rows; a++) {
		lz_buf_reset(&keys);
		for (i = 0; i < t->conf->nbinds; i++) {
			if ((int)t->conf->binds[i].action != a ||
			    lz_tui_conf_lookup(t->conf,
			    &t->conf->binds[i].key) != (enum lz_action)a)
				continue;
			lz_key_name(&t->conf->binds[i].key, name, sizeof name);
			lz_buf_addf(&keys, "%s%s", keys.len ? " " : "", name);
		}
		if (a == LZ_ACT_SEND_PREFIX) {
			lz_key_name(&t->conf->prefix, name, sizeof name);
			lz_buf_addf(&keys, "%s%s", keys.len ? " " : "", name);
		}
		if (keys.len == 0)
			continue;
		lz_buf_reset(&line);
		lz_buf_addf(&line, "%-16s %s", keys.buf,
		    lz_action_help((enum lz_action)a));
		lz_render_text(&t->r, in.row + row++, in.col, in.cols, line.buf,
		    &pen);
	}
	/* What this terminal gets: never a silent downgrade. */
	lz_buf_reset(&line);
	lz_buf_addf(&line, "%-16s %s (TERM=%s)", "colours", t->term.colour_why,
	    t->term.name ? t->term.name : "?");
	if (row < in.rows)
		lz_render_text(&t->r, in.row + row++, in.col, in.cols, line.buf,
		    &pen);
	/* The mouse, and the way to the terminal's own selection. */
	lz_buf_reset(&line);
	lz_buf_addf(&line, "%-16s %s", "mouse", t->conf->mouse ? "on: click "
	    "focuses, drag a border, wheel scrolls back, drag copies; Shift "
	    "for the terminal's own" : "off ([tui] mouse = on)");
	if (row < in.rows)
		lz_render_text(&t->r, in.row + row, in.col, in.cols, line.buf,
		    &pen);
	lz_buf_release(&line);
	lz_buf_release(&keys);
}

static void
draw_list(struct tui *t)
{
	struct lz_pen pen = { 0, 0, 0 };
	struct lz_buf line = LZ_BUF_INIT;
	struct lz_rect in;
	size_t i;

	in = box(t, t->nlist > 0 ? (int)t->nlist : 1, 72, " sessions "
	    "(Enter: show in a pane, q: close) ");
	if (t->nlist == 0)
		lz_render_text(&t->r, in.row, in.col, in.cols, t->have_ctl ?
		    "no terminal sessions" : "no connection to the coordinator",
		    &pen);
	for (i = 0; i < t->nlist && (int)i < in.rows; i++) {
		const struct tui_listent *e = &t->list[i];

		lz_buf_reset(&line);
		lz_buf_addf(&line, "%s %.12s  %-8s %-9s %s",
		    (int)i == t->list_sel ? ">" : " ", e->session,
		    e->running ? "running" : "exited", e->here ? "here" :
		    e->attached ? "elsewhere" : "detached", e->command);
		pen.attr = (int)i == t->list_sel ? LZ_ATTR_REVERSE : 0;
		lz_render_text(&t->r, in.row + (int)i, in.col, in.cols,
		    line.buf, &pen);
	}
	lz_buf_release(&line);
}

void
tui_overlay_draw(struct tui *t)
{
	if (t->mode == TUI_HELP)
		draw_help(t);
	else if (t->mode == TUI_LIST)
		draw_list(t);
}
