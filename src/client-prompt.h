/*
 * client-prompt.h: escalation prompts in a raw session (`lazaret run` or
 * `lazaret attach --raw` on a terminal; Host Escalation, item 4). The
 * client draws the prompt itself over the whole terminal with the TUI's
 * drawing (ui/prompt.h, ui/render.h); while one is up the keys go to it
 * and the session's output is not written (the coordinator's pane keeps
 * it). Afterwards the screen comes back from the coordinator's pane: once
 * the last prompt is gone (after the DECISION, or WITHDRAWN) the client
 * sends REDRAW, and writes the SNAPSHOT that answers as it writes any
 * SNAPSHOT. A session without a terminal gets no
 * prompt: the coordinator decides for it ("no-terminal").
 */
#ifndef LZ_CLIENT_PROMPT_H
#define LZ_CLIENT_PROMPT_H

#include "src/client-attention.h"
#include "src/client-conn.h"
#include "src/client-setup.h"
#include "ui/prompt.h"
#include "ui/render.h"
#include "ui/term.h"

struct lz_raw_prompt {
	struct lz_conn_client *cc;	/* the session's connection */
	const struct lz_client *c;
	int fd;				/* the terminal (1) */
	struct lz_prompt *q;		/* the shown one first */
	size_t n, alloc;
	int shown;			/* the screen holds a prompt */
	int have_term;
	struct lz_term term;
	struct lz_render r;
	unsigned rows, cols;
	struct lz_attention attention;
};

void lz_raw_prompt_init(struct lz_raw_prompt *rp, struct lz_conn_client *cc,
    const struct lz_client *c, int fd, unsigned rows, unsigned cols);
void lz_raw_prompt_release(struct lz_raw_prompt *rp);
/* A PROMPT or a WITHDRAWN frame of the session. */
void lz_raw_prompt_frame(struct lz_raw_prompt *rp, const struct lz_frame *f);
/* Whether a prompt is up: keys go to it, output is not written. */
int lz_raw_prompt_up(const struct lz_raw_prompt *rp);
/* Keys typed while one is up; a DECISION is appended to frames. */
void lz_raw_prompt_keys(struct lz_raw_prompt *rp, const unsigned char *buf,
    size_t n, struct lz_buf *frames);
void lz_raw_prompt_resize(struct lz_raw_prompt *rp, unsigned rows,
    unsigned cols);
/*
 * Draws the shown prompt, or, when the last one just went, gives the
 * terminal back (pen, cursor, autowrap) and returns 1: the caller then
 * sends REDRAW and starts its output filter afresh for the SNAPSHOT that
 * answers.
 */
int lz_raw_prompt_draw(struct lz_raw_prompt *rp);
/* Milliseconds the caller's poll may sleep (-1: no limit). */
int lz_raw_prompt_timeout(struct lz_raw_prompt *rp);

#endif
