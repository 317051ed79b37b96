/*
 * tui-prompt.c: escalation prompts in the TUI (Host Escalation, items 3
 * and 5). A PROMPT on a pane's connection becomes a modal over that pane
 * (ui/prompt.h); several queue behind it ("+N pending"). The keys typed
 * while that pane has the focus go to the modal, never to its program;
 * other panes keep running and taking keys. A DECISION goes back on the
 * pane's connection behind its queued input, and the pane gets its keys
 * back when no prompt is left. A pane too small for the modal is zoomed
 * while it has the focus and a prompt. A waiting pane is marked (border,
 * status line) and the host terminal is told (client-attention.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/spawn.h"
#include "core/visible.h"
#include "src/client-prompt.h"
#include "src/tui.h"

static struct lz_prompt	*head(struct tui_pane *p);
static void		 drop_head(struct tui *t, struct tui_pane *p);
static void		 send_decision(struct tui *t, struct tui_pane *p,
			     struct lz_msg_decision *d);

static struct lz_prompt *
head(struct tui_pane *p)
{
	return p->nprompts > 0 ? &p->prompts[0] : NULL;
}

int
tui_prompt_up(const struct tui_pane *p)
{
	return p->nprompts > 0;
}

/* Shown here, or queued in the coordinator behind a pane's modal. */
size_t
tui_prompts_waiting(const struct tui *t)
{
	const struct tui_pane *p;
	size_t n = 0, behind;
	int i;

	for (i = 0; i < t->npanes; i++) {
		p = t->panes[i];
		if (p->nprompts == 0)
			continue;
		behind = p->prompts[0].req.pending;
		n += p->nprompts > behind + 1 ? p->nprompts : behind + 1;
	}
	return n;
}

/* The head is answered or gone: the next one shows, guarded afresh. */
static void
drop_head(struct tui *t, struct tui_pane *p)
{
	lz_prompt_release(&p->prompts[0]);
	memmove(p->prompts, p->prompts + 1, (p->nprompts - 1) *
	    sizeof *p->prompts);
	p->nprompts--;
	if (p->nprompts > 0)
		p->prompts[0].shown = lz_spawn_now_ms();
	t->dirty = 1;
}

void
tui_prompt_add(struct tui *t, struct tui_pane *p, const struct lz_frame *f)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_prompt_ctx ctx;
	struct lz_msg_prompt m;
	size_t i;

	if (lz_msg_prompt_decode(f, &m, &err) != 0) {
		tui_message(t, "pane %d: %s", tui_pane_number(t, p), err.msg);
		lz_err_release(&err);
		return;
	}
	for (i = 0; i < p->nprompts; i++) {
		if (strcmp(p->prompts[i].req.id, m.id) == 0) {
			/* Sent again with the number queued behind it now
			 * (more asked, or one of those went): the newest
			 * counts. */
			p->prompts[i].req.pending = m.pending;
			lz_msg_prompt_release(&m);
			t->dirty = 1;
			return;
		}
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.pane = tui_pane_number(t, p);
	if (t->c != NULL)
		ctx.config = t->c->cfg.named ? t->c->cfg.named :
		    t->c->paths.config_file;
	ctx.flags = t->term.utf8 ? 0 : LZ_PROMPT_ASCII;
	if (lz_attention_raise(&t->attention, t->conf, &m, ctx.pane, &t->out,
	    &err) != 0) {
		tui_message(t, "%s", err.msg);
		lz_err_release(&err);
	}
	p->prompts = lz_xgrow(p->prompts, p->nprompts + 1, &p->prompts_alloc,
	    sizeof *p->prompts);
	lz_prompt_init(&p->prompts[p->nprompts++], &m, &ctx,
	    lz_spawn_now_ms());
	t->dirty = 1;
}

void
tui_prompt_withdrawn(struct tui *t, struct tui_pane *p,
    const struct lz_frame *f)
{
	struct lz_buf prog = LZ_BUF_INIT;
	struct lz_msg_withdrawn w;
	const char *a0;
	size_t i;

	if (lz_msg_withdrawn_decode(f, &w, NULL) != 0)
		return;
	for (i = 0; i < p->nprompts; i++) {
		if (strcmp(p->prompts[i].req.id, w.id) != 0)
			continue;
		/* The program's name is the sandbox's: escaped. */
		a0 = p->prompts[i].req.argv.v[0];
		lz_visible_add(&prog, a0, strnlen(a0, 40), LZ_VISIBLE_ASCII);
		if (strcmp(w.why, "decided") != 0)
			tui_message(t, "pane %d: the request for '%s' is gone "
			    "(%s)", tui_pane_number(t, p), prog.buf, w.why);
		lz_buf_release(&prog);
		if (i == 0) {
			drop_head(t, p);
		} else {
			lz_prompt_release(&p->prompts[i]);
			memmove(p->prompts + i, p->prompts + i + 1,
			    (p->nprompts - i - 1) * sizeof *p->prompts);
			p->nprompts--;
		}
		break;
	}
	t->dirty = 1;
}

/* The developer's answer to the head prompt, signed, with this client's
 * escalation-env values (lz_conn_decide). */
static void
send_decision(struct tui *t, struct tui_pane *p, struct lz_msg_decision *d)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf frame = LZ_BUF_INIT;

	if (lz_conn_decide(&p->cc, t->c, head(p)->req.session,
	    &head(p)->req.argv, d, &frame, &err) != 0) {
		tui_message(t, "pane %d: %s", tui_pane_number(t, p), err.msg);
		lz_err_release(&err);
		lz_buf_release(&frame);
		return;
	}
	tui_message(t, "pane %d: %s sent", tui_pane_number(t, p),
	    lz_decision_name(d->decision));
	tui_pane_control(t, p, &frame);
}

void
tui_prompt_keys(struct tui *t, struct tui_pane *p, const unsigned char *buf,
    size_t n)
{
	struct lz_msg_decision d;
	struct lz_key k;
	size_t used;

	while (n > 0 && head(p) != NULL) {
		used = lz_key_take(buf, n, &k);
		if (lz_prompt_key(head(p), &k, lz_spawn_now_ms(), &d) == 1) {
			send_decision(t, p, &d);
			lz_msg_decision_release(&d);
			drop_head(t, p);
		}
		buf += used;
		n -= used;
	}
	t->dirty = 1;
}

void
tui_prompt_paste(struct tui *t, struct tui_pane *p, const char *text,
    size_t n)
{
	struct lz_prompt *h = head(p);
	const unsigned char *s = (const unsigned char *)text;
	struct lz_msg_decision d;
	struct lz_key k;
	size_t used;

	if (h == NULL || (h->view != LZ_PROMPT_DENY &&
	    h->view != LZ_PROMPT_EDIT_LINE)) {
		tui_message(t, "a prompt takes pasted text only into a "
		    "message or an element being edited");
		return;
	}
	/* Characters only: a newline or Escape in it ends nothing. */
	while (n > 0) {
		used = lz_key_take(s, n, &k);
		if ((k.len == 1 && k.b[0] >= 0x20 && k.b[0] < 0x7f) ||
		    (k.len > 1 && k.b[0] >= 0xc2))
			if (lz_prompt_key(h, &k, lz_spawn_now_ms(), &d) == 1)
				LZ_BUG("a character decided a prompt");
		s += used;
		n -= used;
	}
	t->dirty = 1;
}

/*
 * Zooms the focused pane while it shows a prompt and is too small for
 * it, and undoes that zoom once the prompt is gone or the focus moved.
 */
void
tui_prompt_fit(struct tui *t)
{
	struct tui_pane *act = tui_active(t);
	int want;

	want = act != NULL && tui_prompt_up(act) && t->layout.zoomed < 0 &&
	    (act->rect.rows < LZ_PROMPT_MIN_ROWS ||
	    act->rect.cols < LZ_PROMPT_MIN_COLS) && t->npanes > 1;
	if (t->prompt_zoom >= 0 && (act == NULL || act->id !=
	    t->prompt_zoom || !tui_prompt_up(act))) {
		if (t->layout.zoomed >= 0)
			lz_layout_zoom(&t->layout, t->layout.zoomed);
		t->prompt_zoom = -1;
		tui_layout(t);
		return;
	}
	if (want) {
		lz_layout_zoom(&t->layout, act->id);
		t->prompt_zoom = act->id;
		tui_layout(t);
	}
}

/*
 * Milliseconds until a prompt's look changes (its guard ends), or -1. A
 * prompt drawn in its guard whose guard is over makes the TUI dirty: its
 * footer must stop saying that keys are ignored.
 */
int
tui_prompt_wake(struct tui *t)
{
	int64_t now = lz_spawn_now_ms(), left;
	int i, best = lz_attention_tick(&t->attention);
	struct tui_pane *p;

	for (i = 0; i < t->npanes; i++) {
		p = t->panes[i];
		if (!tui_prompt_up(p))
			continue;
		left = p->prompts[0].shown + LZ_PROMPT_GUARD_MS - now;
		if (left > 0 && (best < 0 || left < best))
			best = (int)left;
		if (left <= 0 && p->guard_drawn) {
			p->guard_drawn = 0;
			t->dirty = 1;
		}
	}
	return best;
}

void
tui_prompt_draw(struct tui *t, struct tui_pane *p)
{
	struct lz_prompt_pens pens;
	struct lz_prompt *h = head(p);
	int64_t now;
	int row, col;

	if (h == NULL || p->rect.rows < 1)
		return;
	/* Numbers change as panes close: the one on the status line now. */
	h->pane = tui_pane_number(t, p);
	memset(&pens, 0, sizeof pens);
	pens.frame.fg = t->conf->color[LZ_TUI_WAITING_FG];
	pens.warn.fg = t->conf->color[LZ_TUI_WAITING_FG];
	h->pending = (unsigned)(p->nprompts - 1) > h->req.pending ?
	    (unsigned)(p->nprompts - 1) : h->req.pending;
	now = lz_spawn_now_ms();
	p->guard_drawn = now < h->shown + LZ_PROMPT_GUARD_MS;
	lz_prompt_draw(h, &t->r, p->rect, &pens, now, &row, &col);
	if (p == tui_active(t))
		lz_render_cursor(&t->r, row < 0 ? 0 : row, col < 0 ? 0 : col,
		    row >= 0);
}

void
tui_prompt_free(struct tui_pane *p)
{
	size_t i;

	for (i = 0; i < p->nprompts; i++)
		lz_prompt_release(&p->prompts[i]);
	free(p->prompts);
	p->prompts = NULL;
	p->nprompts = 0;
}
