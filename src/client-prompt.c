/*
 * client-prompt.c: escalation prompts drawn by a raw session's client
 * (see client-prompt.h).
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spawn.h"
#include "src/client-prompt.h"
#include "src/cmd.h"
#include "ui/keys.h"

static void		 drop(struct lz_raw_prompt *rp, size_t i);

void
lz_raw_prompt_init(struct lz_raw_prompt *rp, struct lz_conn_client *cc,
    const struct lz_client *c, int fd, unsigned rows, unsigned cols)
{
	memset(rp, 0, sizeof *rp);
	rp->cc = cc;
	rp->c = c;
	rp->fd = fd;
	rp->rows = rows ? rows : 24;
	rp->cols = cols ? cols : 80;
}

void
lz_raw_prompt_release(struct lz_raw_prompt *rp)
{
	size_t i;

	for (i = 0; i < rp->n; i++)
		lz_prompt_release(&rp->q[i]);
	free(rp->q);
	rp->n = 0;
	/* Leaving with a prompt on the screen (a detach): clear it away. */
	if (rp->shown && lz_raw_prompt_draw(rp) == 1 &&
	    rp->term.clear != NULL)
		lz_write_all(rp->fd, rp->term.clear, strlen(rp->term.clear));
	if (rp->have_term) {
		lz_render_free(&rp->r);
		lz_term_release(&rp->term);
	}
	lz_attention_release(&rp->attention);
	memset(rp, 0, sizeof *rp);
}

int
lz_raw_prompt_up(const struct lz_raw_prompt *rp)
{
	return rp->n > 0;
}

static void
drop(struct lz_raw_prompt *rp, size_t i)
{
	lz_prompt_release(&rp->q[i]);
	memmove(rp->q + i, rp->q + i + 1, (rp->n - i - 1) * sizeof *rp->q);
	rp->n--;
	if (i == 0 && rp->n > 0)
		rp->q[0].shown = lz_spawn_now_ms();
}

void
lz_raw_prompt_frame(struct lz_raw_prompt *rp, const struct lz_frame *f)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_prompt_ctx ctx;
	struct lz_msg_withdrawn w;
	struct lz_msg_prompt m;
	size_t i;

	if (f->type == LZ_FRAME_WITHDRAWN) {
		if (lz_msg_withdrawn_decode(f, &w, NULL) != 0)
			return;
		for (i = 0; i < rp->n; i++)
			if (strcmp(rp->q[i].req.id, w.id) == 0) {
				drop(rp, i);
				break;
			}
		return;
	}
	if (lz_msg_prompt_decode(f, &m, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		lz_err_release(&err);
		return;
	}
	for (i = 0; i < rp->n; i++)
		if (strcmp(rp->q[i].req.id, m.id) == 0) {
			/* Sent again: the number queued behind it now. */
			rp->q[i].req.pending = m.pending;
			lz_msg_prompt_release(&m);
			return;
		}
	if (!rp->have_term) {
		/* Widths and the UTF-8 test follow the user's locale. */
		setlocale(LC_CTYPE, "");
		if (!isatty(rp->fd))
			lz_err_set(&err, LZ_EINVAL, "standard output is not a "
			    "terminal");
		if (err.msg != NULL || lz_term_load(&rp->term, NULL, rp->fd,
		    &err) != 0) {
			/* No way to draw: the coordinator's timeout decides. */
			lz_cmd_error("cannot show an escalation prompt: %s",
			    err.msg);
			lz_err_release(&err);
			lz_msg_prompt_release(&m);
			return;
		}
		lz_render_init(&rp->r, &rp->term, (int)rp->rows,
		    (int)rp->cols);
		rp->have_term = 1;
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.config = rp->c->cfg.named ? rp->c->cfg.named :
	    rp->c->paths.config_file;
	ctx.flags = rp->term.utf8 ? 0 : LZ_PROMPT_ASCII;
	if (lz_attention_raise(&rp->attention, &rp->c->cfg.tui, &m, 0, &out,
	    &err) != 0) {
		lz_cmd_error("%s", err.msg);
		lz_err_release(&err);
	}
	lz_write_all(rp->fd, out.buf, out.len);
	lz_buf_release(&out);
	rp->q = lz_xgrow(rp->q, rp->n + 1, &rp->alloc, sizeof *rp->q);
	lz_prompt_init(&rp->q[rp->n++], &m, &ctx, lz_spawn_now_ms());
}

void
lz_raw_prompt_keys(struct lz_raw_prompt *rp, const unsigned char *buf,
    size_t n, struct lz_buf *frames)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_msg_decision d;
	struct lz_key k;
	size_t used;

	while (n > 0 && rp->n > 0) {
		used = lz_key_take(buf, n, &k);
		if (lz_prompt_key(&rp->q[0], &k, lz_spawn_now_ms(), &d) == 1) {
			if (lz_conn_decide(rp->cc, rp->c, rp->q[0].req.session,
			    &rp->q[0].req.argv, &d, frames, &err) != 0) {
				lz_cmd_error("%s", err.msg);
				lz_err_release(&err);
			}
			lz_msg_decision_release(&d);
			drop(rp, 0);
		}
		buf += used;
		n -= used;
	}
}

void
lz_raw_prompt_resize(struct lz_raw_prompt *rp, unsigned rows, unsigned cols)
{
	rp->rows = rows ? rows : rp->rows;
	rp->cols = cols ? cols : rp->cols;
	if (rp->have_term)
		lz_render_resize(&rp->r, (int)rp->rows, (int)rp->cols);
}

int
lz_raw_prompt_draw(struct lz_raw_prompt *rp)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_prompt_pens pens;
	int row, col;

	if (rp->n == 0 && !rp->shown)
		return 0;
	if (rp->n == 0) {
		/* Back to the session: its SNAPSHOT repaints the screen. */
		if (rp->term.sgr0 != NULL)
			lz_buf_adds(&out, rp->term.sgr0);
		if (rp->term.cnorm != NULL)
			lz_buf_adds(&out, rp->term.cnorm);
		if (rp->term.smam != NULL)
			lz_buf_adds(&out, rp->term.smam);
		lz_write_all(rp->fd, out.buf, out.len);
		lz_buf_release(&out);
		rp->shown = 0;
		return 1;
	}
	if (!rp->shown) {
		/* The session's screen is not known here: draw it all. */
		if (rp->term.sgr0 != NULL)
			lz_buf_adds(&out, rp->term.sgr0);
		if (rp->term.rmam != NULL)
			lz_buf_adds(&out, rp->term.rmam);
		lz_render_invalidate(&rp->r);
		rp->shown = 1;
	}
	memset(&pens, 0, sizeof pens);
	pens.frame.fg = rp->c->cfg.tui.color[LZ_TUI_WAITING_FG];
	pens.warn.fg = pens.frame.fg;
	rp->q[0].pending = (unsigned)(rp->n - 1) > rp->q[0].req.pending ?
	    (unsigned)(rp->n - 1) : rp->q[0].req.pending;
	lz_render_clear(&rp->r, (struct lz_rect){ 0, 0, (int)rp->rows,
	    (int)rp->cols }, 0);
	lz_prompt_draw(&rp->q[0], &rp->r, (struct lz_rect){ 0, 0,
	    (int)rp->rows, (int)rp->cols }, &pens, lz_spawn_now_ms(), &row,
	    &col);
	lz_render_cursor(&rp->r, row < 0 ? 0 : row, col < 0 ? 0 : col,
	    row >= 0);
	lz_render_flush(&rp->r, &out);
	lz_write_all(rp->fd, out.buf, out.len);
	lz_buf_release(&out);
	return 0;
}

int
lz_raw_prompt_timeout(struct lz_raw_prompt *rp)
{
	int64_t left;
	int att = lz_attention_tick(&rp->attention);

	if (rp->n == 0)
		return att;
	/* The countdown, and the end of the keys guard. */
	left = rp->q[0].shown + LZ_PROMPT_GUARD_MS - lz_spawn_now_ms();
	if (left > 0 && left < 1000)
		return (int)left;
	return att >= 0 && att < 1000 ? att : 1000;
}
