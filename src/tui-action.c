/*
 * tui-action.c: what the bound keys do (core/keyspec.h names them), and
 * panes coming and going.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/tui.h"

/* Focuses panes[i], remembering the pane that had the focus. */
void
tui_focus(struct tui *t, int i)
{
	struct tui_pane *cur = tui_active(t);

	if (i < 0 || i >= t->npanes || i == t->active)
		return;
	if (cur != NULL)
		t->last_id = cur->id;
	t->active = i;
	/* A zoom follows the focus. */
	if (t->layout.zoomed >= 0)
		t->layout.zoomed = t->panes[i]->id;
	t->dirty = 1;
}

static void
activate(struct tui *t, int id)
{
	int i;

	for (i = 0; i < t->npanes; i++) {
		if (t->panes[i]->id == id) {
			tui_focus(t, i);
			return;
		}
	}
}

/*
 * Makes room for a pane beside the active one and opens it there at its
 * final size: the layout leaf comes first, so the session starts with
 * the size it will have.
 */
static struct tui_pane *
add_pane(struct tui *t, enum lz_dir dir, char **argv, int argc,
    const char *attach, int take, struct lz_err *err)
{
	struct tui_pane *cur = tui_active(t), *p;
	struct lz_rect r;
	int id = t->next_id;	/* the number pane_new gives the pane */

	if (t->npanes == TUI_MAX_PANES) {
		lz_err_set(err, LZ_EINVAL, "%d panes is the most",
		    TUI_MAX_PANES);
		return NULL;
	}
	if (lz_layout_split(&t->layout, cur ? cur->id : -1, id, dir) != 0) {
		lz_err_set(err, LZ_EINVAL, "no room for another pane there");
		return NULL;
	}
	lz_layout_rect(&t->layout, id, &r);
	if (t->bench)
		p = tui_pane_spawn(t, t->bench_argv, (unsigned)r.rows,
		    (unsigned)r.cols, err);
	else
		p = tui_pane_open(t, argv, argc, attach, take,
		    (unsigned)r.rows, (unsigned)r.cols, err);
	if (p == NULL) {
		lz_layout_remove(&t->layout, id);
		return NULL;
	}
	t->panes[t->npanes++] = p;
	tui_focus(t, t->npanes - 1);
	tui_layout(t);
	tui_pane_buffered(t, p);
	return p;
}

void
tui_new_pane(struct tui *t, int dir, const char *attach, int take)
{
	struct lz_err err = LZ_ERR_INIT;

	if (add_pane(t, (enum lz_dir)dir, NULL, 0, attach, take, &err) == NULL)
		tui_message(t, "%s", err.msg ? err.msg : "cannot open a pane");
	lz_err_release(&err);
}

void
tui_new_pane_argv(struct tui *t, char **argv, int argc, struct lz_err *err)
{
	add_pane(t, LZ_DIR_RIGHT, argv, argc, NULL, 0, err);
}

/* Removes the panes whose session ended, saying so. */
void
tui_remove_ended(struct tui *t)
{
	struct tui_pane *p;
	int i, j;

	for (i = 0; i < t->npanes;) {
		p = t->panes[i];
		if (!p->ended) {
			i++;
			continue;
		}
		if (t->message_until < time(NULL))
			tui_message(t, "session %.8s ended (exit %d)",
			    p->session, p->status);
		t->last_status = p->status;
		lz_layout_remove(&t->layout, p->id);
		tui_pane_free(p);
		for (j = i; j + 1 < t->npanes; j++)
			t->panes[j] = t->panes[j + 1];
		t->npanes--;
		/* The focus goes back to where it was before. */
		if (t->active == i) {
			t->active = -1;
			activate(t, t->last_id);
			if (t->active < 0 && t->npanes > 0)
				tui_focus(t, i < t->npanes ? i : t->npanes - 1);
		} else if (t->active > i)
			t->active--;
		if (t->mode == TUI_COPY || t->mode == TUI_SEARCH)
			t->mode = TUI_NORMAL;
		tui_layout(t);
	}
}

static void
close_yes(struct tui *t)
{
	struct tui_pane *p = tui_active(t);

	if (p != NULL)
		tui_pane_hangup(t, p);
}

static void
select_dir(struct tui *t, enum lz_dir dir)
{
	struct tui_pane *p = tui_active(t);
	int id;

	if (p == NULL)
		return;
	if ((id = lz_layout_neighbour(&t->layout, p->id, dir)) >= 0)
		activate(t, id);
}

static void
step(struct tui *t, int by)
{
	if (t->npanes > 0) {
		tui_focus(t, (t->active + by + t->npanes) % t->npanes);
		tui_layout(t);
	}
}

static void
grow(struct tui *t, enum lz_dir dir)
{
	struct tui_pane *p = tui_active(t);

	if (p != NULL && lz_layout_resize(&t->layout, p->id, dir, 2) == 0)
		tui_layout(t);
}

static void
paste(struct tui *t)
{
	struct tui_pane *p = tui_active(t);
	int bracketed;

	if (p == NULL || t->paste.len == 0)
		return;
	/* A prompt up: the text goes to it, into a line only. */
	if (tui_prompt_up(p)) {
		tui_prompt_paste(t, p, t->paste.buf, t->paste.len);
		return;
	}
	bracketed = lz_pane_props(p->pane)->bracketed_paste;
	if (bracketed)
		tui_pane_input(t, p, "\033[200~", 6);
	tui_pane_input(t, p, t->paste.buf, t->paste.len);
	if (bracketed)
		tui_pane_input(t, p, "\033[201~", 6);
}

void
tui_action(struct tui *t, enum lz_action a)
{
	struct tui_pane *p = tui_active(t);
	char q[160];

	switch (a) {
	case LZ_ACT_NONE:
	case LZ_ACT_COUNT:
		return;
	case LZ_ACT_NEW_PANE:
		/* Along the longer side (a cell is about 2.5 times as high). */
		tui_new_pane(t, p != NULL &&
		    p->rect.rows * 5 > p->rect.cols * 2 ? LZ_DIR_DOWN :
		    LZ_DIR_RIGHT, NULL, 0);
		break;
	case LZ_ACT_SPLIT_RIGHT:
		tui_new_pane(t, LZ_DIR_RIGHT, NULL, 0);
		break;
	case LZ_ACT_SPLIT_DOWN:
		tui_new_pane(t, LZ_DIR_DOWN, NULL, 0);
		break;
	case LZ_ACT_NEXT:
		step(t, 1);
		break;
	case LZ_ACT_PREV:
		step(t, -1);
		break;
	case LZ_ACT_LEFT:
		select_dir(t, LZ_DIR_LEFT);
		break;
	case LZ_ACT_RIGHT:
		select_dir(t, LZ_DIR_RIGHT);
		break;
	case LZ_ACT_UP:
		select_dir(t, LZ_DIR_UP);
		break;
	case LZ_ACT_DOWN:
		select_dir(t, LZ_DIR_DOWN);
		break;
	case LZ_ACT_GROW_LEFT:
		grow(t, LZ_DIR_LEFT);
		break;
	case LZ_ACT_GROW_RIGHT:
		grow(t, LZ_DIR_RIGHT);
		break;
	case LZ_ACT_GROW_UP:
		grow(t, LZ_DIR_UP);
		break;
	case LZ_ACT_GROW_DOWN:
		grow(t, LZ_DIR_DOWN);
		break;
	case LZ_ACT_ZOOM:
		if (p != NULL) {
			lz_layout_zoom(&t->layout, p->id);
			tui_layout(t);
		}
		break;
	case LZ_ACT_CLOSE:
		if (p != NULL) {
			snprintf(q, sizeof q, "end session %.8s (%s)? (y/n)",
			    p->session, p->command ? p->command : "attached");
			tui_ask(t, q, close_yes);
		}
		break;
	case LZ_ACT_DETACH:
		t->quit = 1;
		t->detached = 1;
		break;
	case LZ_ACT_LIST:
		tui_list_refresh(t);
		t->list_sel = 0;
		t->mode = TUI_LIST;
		break;
	case LZ_ACT_COPY_MODE:
		tui_copy_enter(t);
		break;
	case LZ_ACT_PASTE:
		paste(t);
		break;
	case LZ_ACT_HELP:
		t->mode = TUI_HELP;
		break;
	case LZ_ACT_SEND_PREFIX:
		if (p != NULL && !tui_prompt_up(p))
			tui_pane_input(t, p, t->conf->prefix.b,
			    t->conf->prefix.len);
		break;
	case LZ_ACT_REDRAW:
		lz_render_invalidate(&t->r);
		break;
	}
	t->dirty = 1;
}
