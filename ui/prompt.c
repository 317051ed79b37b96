/*
 * prompt.c: the escalation prompt's model (prompt.h): keys to decisions,
 * the argv editor, and the text of each view, wrapped and escaped.
 * Drawing it is prompt-draw.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/utf8.h"
#include "core/visible.h"
#include "ui/keys.h"
#include "ui/prompt.h"

/* wrap()'s vis_flags: text as it is, exact; our own prose (breaks at
 * spaces); otherwise core/visible.h flags to escape the text with. */
#define EXACT (-1)
#define PROSE (-2)

/* A literal line (its length counted, never written by hand). */
#define pushs(t, style, st, s)	push((t), (style), (st), (s), strlen(s))
static void	push(struct lz_tokens *t, int **style, int st, const char *s,
		    size_t n);
static void	wrap(struct lz_tokens *t, int **style, int st,
		    const char *first, const char *cont, const char *text,
		    int cols, int vis_flags, size_t mark, int *mark_line,
		    int *mark_col);
static int	key_main(struct lz_prompt *p, const struct lz_key *k,
		    struct lz_msg_decision *out);
static int	key_edit(struct lz_prompt *p, const struct lz_key *k,
		    struct lz_msg_decision *out);
static void	key_line(struct lz_prompt *p, const struct lz_key *k);
static int	key_text(struct lz_buf *b, size_t *cur, const struct lz_key *k,
		    size_t max, int escape);
static void	decide(struct lz_prompt *p, enum lz_decision d,
		    struct lz_msg_decision *out);
static int	same_argv(const struct lz_tokens *a, const struct lz_tokens *b);

void
lz_prompt_init(struct lz_prompt *p, struct lz_msg_prompt *m,
    const struct lz_prompt_ctx *ctx, int64_t now)
{
	memset(p, 0, sizeof *p);
	p->req = *m;
	memset(m, 0, sizeof *m);
	p->pane = ctx->pane;
	p->config = ctx->config ? lz_xstrdup(ctx->config) : NULL;
	p->flags = ctx->flags;
	p->shown = now;
	p->deadline = now + (int64_t)p->req.timeout_ms;
	lz_buf_init(&p->rule);
	lz_buf_init(&p->msg);
	lz_buf_init(&p->line);
}

void
lz_prompt_release(struct lz_prompt *p)
{
	lz_msg_prompt_release(&p->req);
	free(p->config);
	lz_buf_release(&p->rule);
	free(p->rule_err);
	lz_buf_release(&p->msg);
	lz_tokens_release(&p->edit);
	lz_buf_release(&p->line);
	memset(p, 0, sizeof *p);
}

static void
decide(struct lz_prompt *p, enum lz_decision d, struct lz_msg_decision *out)
{
	memset(out, 0, sizeof *out);
	memcpy(out->id, p->req.id, sizeof out->id);
	out->decision = d;
	if (d == LZ_DECISION_EDIT)
		lz_tokens_copy(&out->argv, &p->edit);
	if (d == LZ_DECISION_DENY)
		out->message = lz_xstrdup(p->msg.buf);
}

static int
same_argv(const struct lz_tokens *a, const struct lz_tokens *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return 0;
	return 1;
}

/*
 * A line editor's key on b (cursor *cur, at most max bytes): printable
 * characters insert, Backspace and Delete remove, Left Right Home End C-a
 * C-e move, C-u clears. With escape, b holds an escaped form and a
 * character core/visible.h hides (pasted: a bidi override, a zero-width
 * space) goes in as its escape, so the editor shows all it holds.
 * Returns 1 when it was one of those.
 */
static int
key_text(struct lz_buf *b, size_t *cur, const struct lz_key *k, size_t max,
    int escape)
{
	struct lz_buf e = LZ_BUF_INIT;
	size_t n;

	if (lz_key_is(k, "Left") || lz_key_is(k, "C-b")) {
		while (*cur > 0 && ((unsigned char)b->buf[--*cur] & 0xc0) ==
		    0x80)
			;
	} else if (lz_key_is(k, "Right") || lz_key_is(k, "C-f")) {
		if (*cur < b->len)
			*cur += lz_utf8_seq((const unsigned char *)b->buf +
			    *cur, b->len - *cur) ?: 1;
	} else if (lz_key_is(k, "Home") || lz_key_is(k, "C-a"))
		*cur = 0;
	else if (lz_key_is(k, "End") || lz_key_is(k, "C-e"))
		*cur = b->len;
	else if (lz_key_is(k, "C-u")) {
		lz_buf_reset(b);
		*cur = 0;
	} else if (lz_key_is(k, "BSpace") || (k->len == 1 && k->b[0] == 8)) {
		if (*cur == 0)
			return 1;
		n = *cur;
		while (*cur > 0 && ((unsigned char)b->buf[--*cur] & 0xc0) ==
		    0x80)
			;
		memmove(b->buf + *cur, b->buf + n, b->len - n + 1);
		b->len -= n - *cur;
	} else if (lz_key_is(k, "Delete")) {
		if (*cur >= b->len)
			return 1;
		n = lz_utf8_seq((const unsigned char *)b->buf + *cur,
		    b->len - *cur) ?: 1;
		memmove(b->buf + *cur, b->buf + *cur + n, b->len - *cur - n +
		    1);
		b->len -= n;
	} else if ((k->len == 1 && k->b[0] >= 0x20 && k->b[0] < 0x7f) ||
	    (k->len > 1 && k->b[0] >= 0xc2 && lz_utf8_seq(k->b, k->len) ==
	    k->len)) {
		/* Typed text: ASCII, or one whole UTF-8 character. */
		if (escape && k->len > 1)
			lz_visible_add(&e, (const char *)k->b, k->len, 0);
		else
			lz_buf_add(&e, k->b, k->len);
		if (b->len + e.len <= max) {
			lz_buf_grow(b, e.len);
			memmove(b->buf + *cur + e.len, b->buf + *cur, b->len -
			    *cur + 1);
			memcpy(b->buf + *cur, e.buf, e.len);
			b->len += e.len;
			*cur += e.len;
		}
		lz_buf_release(&e);
	} else
		return 0;
	return 1;
}

static int
key_main(struct lz_prompt *p, const struct lz_key *k,
    struct lz_msg_decision *out)
{
	struct lz_err err = LZ_ERR_INIT;

	if (lz_key_is(k, "a")) {
		decide(p, LZ_DECISION_APPROVE, out);
		return 1;
	}
	if (lz_key_is(k, "s")) {
		decide(p, LZ_DECISION_APPROVE_SESSION, out);
		return 1;
	}
	if (lz_key_is(k, "r")) {
		lz_buf_reset(&p->rule);
		free(p->rule_err);
		p->rule_err = NULL;
		if (lz_rule_line(&p->req.argv, &p->rule, &err) != 0)
			p->rule_err = lz_xstrdup(err.msg);
		lz_err_release(&err);
		p->view = LZ_PROMPT_RULE;
	} else if (lz_key_is(k, "d")) {
		p->view = LZ_PROMPT_DENY;
	} else if (lz_key_is(k, "e")) {
		lz_tokens_release(&p->edit);
		lz_tokens_copy(&p->edit, &p->req.argv);
		p->sel = 0;
		p->err[0] = '\0';
		p->view = LZ_PROMPT_EDIT;
	} else if (lz_key_is(k, "Up") || lz_key_is(k, "k"))
		p->scroll--;
	else if (lz_key_is(k, "Down") || lz_key_is(k, "j"))
		p->scroll++;
	else if (lz_key_is(k, "PageUp"))
		p->scroll -= p->page > 1 ? p->page - 1 : 1;
	else if (lz_key_is(k, "PageDown") || lz_key_is(k, "Space"))
		p->scroll += p->page > 1 ? p->page - 1 : 1;
	else if (lz_key_is(k, "Home") || lz_key_is(k, "g"))
		p->scroll = 0;
	else if (lz_key_is(k, "End") || lz_key_is(k, "G"))
		p->scroll = 1 << 20;	/* clamped when drawn */
	if (p->scroll < 0)
		p->scroll = 0;
	return 0;
}

/* One key while an element is edited in its escaped form. */
static void
key_line(struct lz_prompt *p, const struct lz_key *k)
{
	struct lz_buf raw = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;

	p->err[0] = '\0';
	if (lz_key_is(k, "Escape")) {
		p->view = LZ_PROMPT_EDIT;
	} else if (lz_key_is(k, "Enter")) {
		if (lz_visible_unescape(p->line.buf, p->line.len, &raw,
		    &err) != 0)
			snprintf(p->err, sizeof p->err, "%s", err.msg);
		else if (memchr(raw.buf, '\0', raw.len) != NULL)
			snprintf(p->err, sizeof p->err, "an element cannot "
			    "hold a NUL (\\x00)");
		else if (!lz_utf8_valid(raw.buf, raw.len))
			snprintf(p->err, sizeof p->err, "the element would not "
			    "be UTF-8: give whole characters");
		else if (raw.len > LZ_MSG_ARG_MAX)
			snprintf(p->err, sizeof p->err, "an element holds at "
			    "most %d bytes", LZ_MSG_ARG_MAX);
		else {
			free(p->edit.v[p->sel]);
			p->edit.v[p->sel] = lz_buf_detach(&raw);
			p->view = LZ_PROMPT_EDIT;
		}
	} else
		key_text(&p->line, &p->cur, k, 8 * LZ_MSG_ARG_MAX, 1);
	lz_buf_release(&raw);
	lz_err_release(&err);
}

static int
key_edit(struct lz_prompt *p, const struct lz_key *k,
    struct lz_msg_decision *out)
{
	size_t i;
	int at;

	p->err[0] = '\0';
	if (lz_key_is(k, "Escape")) {
		p->view = LZ_PROMPT_MAIN;
	} else if (lz_key_is(k, "Up") || lz_key_is(k, "k")) {
		p->sel -= p->sel > 0;
	} else if (lz_key_is(k, "Down") || lz_key_is(k, "j")) {
		p->sel += p->sel + 1 < (int)p->edit.n;
	} else if ((lz_key_is(k, "Enter") || lz_key_is(k, "Tab")) &&
	    p->edit.n > 0) {
		lz_buf_reset(&p->line);
		lz_visible_add(&p->line, p->edit.v[p->sel],
		    strlen(p->edit.v[p->sel]), p->flags & LZ_PROMPT_ASCII ?
		    LZ_VISIBLE_ASCII : 0);
		p->cur = p->line.len;
		p->view = LZ_PROMPT_EDIT_LINE;
	} else if (lz_key_is(k, "i") || lz_key_is(k, "o")) {
		if (p->edit.n >= LZ_MSG_ARGV_MAX) {
			snprintf(p->err, sizeof p->err, "a command has at most "
			    "%d elements", LZ_MSG_ARGV_MAX);
			return 0;
		}
		at = p->edit.n == 0 ? 0 : p->sel + lz_key_is(k, "o");
		lz_tokens_push(&p->edit, "");
		for (i = p->edit.n - 1; i > (size_t)at; i--) {
			char *tmp = p->edit.v[i];

			p->edit.v[i] = p->edit.v[i - 1];
			p->edit.v[i - 1] = tmp;
		}
		p->sel = at;
		lz_buf_reset(&p->line);
		p->cur = 0;
		p->view = LZ_PROMPT_EDIT_LINE;
	} else if ((lz_key_is(k, "x") || lz_key_is(k, "Delete")) &&
	    p->edit.n > 0) {
		free(p->edit.v[p->sel]);
		memmove(p->edit.v + p->sel, p->edit.v + p->sel + 1,
		    (p->edit.n - (size_t)p->sel) * sizeof *p->edit.v);
		p->edit.n--;
		if (p->sel >= (int)p->edit.n && p->sel > 0)
			p->sel--;
	} else if (lz_key_is(k, "y")) {
		if (p->edit.n == 0 || p->edit.v[0][0] == '\0') {
			snprintf(p->err, sizeof p->err, "the command needs a "
			    "program as its first element");
			return 0;
		}
		decide(p, same_argv(&p->edit, &p->req.argv) ?
		    LZ_DECISION_APPROVE : LZ_DECISION_EDIT, out);
		return 1;
	}
	return 0;
}

int
lz_prompt_key(struct lz_prompt *p, const struct lz_key *k, int64_t now,
    struct lz_msg_decision *out)
{
	if (now < p->shown + LZ_PROMPT_GUARD_MS) {
		p->ignored++;
		return 0;
	}
	switch (p->view) {
	case LZ_PROMPT_MAIN:
		return key_main(p, k, out);
	case LZ_PROMPT_RULE:
		if (lz_key_is(k, "y") && p->rule_err == NULL) {
			decide(p, LZ_DECISION_SAVE_RULE, out);
			return 1;
		}
		if (lz_key_is(k, "n") || lz_key_is(k, "Escape"))
			p->view = LZ_PROMPT_MAIN;
		return 0;
	case LZ_PROMPT_DENY:
		if (lz_key_is(k, "Enter")) {
			decide(p, LZ_DECISION_DENY, out);
			return 1;
		}
		if (lz_key_is(k, "Escape"))
			p->view = LZ_PROMPT_MAIN;
		else {
			size_t cur = p->msg.len;

			key_text(&p->msg, &cur, k, LZ_MSG_DENY_MAX, 0);
		}
		return 0;
	case LZ_PROMPT_EDIT:
		return key_edit(p, k, out);
	case LZ_PROMPT_EDIT_LINE:
		key_line(p, k);
		return 0;
	}
	return 0;
}

/* Appends one line of n bytes with its style: the styles have room for
 * as many lines as t has (t->alloc), so they grow when t does. */
static void
push(struct lz_tokens *t, int **style, int st, const char *s, size_t n)
{
	size_t had = t->v != NULL ? t->alloc : 0;
	char *line = lz_xstrndup(s, n);

	lz_tokens_push(t, line);
	free(line);
	if (t->alloc != had)
		*style = lz_xreallocarray(*style, t->alloc, sizeof **style);
	(*style)[t->n - 1] = st;
}

/*
 * Appends text, escaped with vis_flags (or EXACT, PROSE), in lines of at
 * most cols columns: the first after first, the others after cont.
 * mark: a byte offset of the escaped text whose line and column are
 * reported (the editor's cursor), or (size_t)-1.
 */
static void
wrap(struct lz_tokens *t, int **style, int st, const char *first,
    const char *cont, const char *text, int cols, int vis_flags, size_t mark,
    int *mark_line, int *mark_col)
{
	struct lz_buf e = LZ_BUF_INIT, line = LZ_BUF_INIT;
	const char *prefix = first;
	size_t i = 0, len, space_i, space_len;
	uint32_t cp;
	int used, w;

	if (vis_flags >= 0)
		lz_visible_add(&e, text, strlen(text), vis_flags);
	else
		lz_buf_adds(&e, text);
	do {
		lz_buf_reset(&line);
		lz_buf_adds(&line, prefix);
		used = (int)strlen(prefix);
		space_i = space_len = 0;
		while (i <= e.len) {
			if (i == mark) {
				*mark_line = (int)t->n;
				*mark_col = used;
			}
			if (i == e.len)
				break;
			len = lz_utf8_seq((const unsigned char *)e.buf + i,
			    e.len - i) ?: 1;
			cp = (unsigned char)e.buf[i];
			if (len > 1)
				for (cp &= 0x7fu >> len, w = 1; w < (int)len;
				    w++)
					cp = cp << 6 | (e.buf[i + w] & 0x3f);
			w = lz_visible_width(cp);
			/* Always one character a line, whatever cols is. */
			if (used + w > cols && used > (int)strlen(prefix)) {
				/* Our own prose breaks between words; the
				 * sandbox's text anywhere, nothing dropped. */
				if (vis_flags == PROSE && space_len > 0) {
					line.len = space_len;
					line.buf[line.len] = '\0';
					i = space_i + 1;
				}
				break;
			}
			if (e.buf[i] == ' ' && vis_flags == PROSE) {
				space_i = i;
				space_len = line.len;
			}
			lz_buf_add(&line, e.buf + i, len);
			used += w;
			i += len;
		}
		push(t, style, st, line.buf, line.len);
		prefix = cont;
		/* Prose goes on after the spaces it broke at. */
		while (vis_flags == PROSE && i < e.len && e.buf[i] == ' ')
			i++;
	} while (i < e.len);
	lz_buf_release(&e);
	lz_buf_release(&line);
}

void
lz_prompt_text(struct lz_prompt *p, int cols, int body_rows, int64_t now,
    struct lz_prompt_text *out)
{
	const int vis = p->flags & LZ_PROMPT_ASCII ? LZ_VISIBLE_ASCII : 0;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_tokens *body = &out->body, *foot = &out->foot;
	int **bs = &out->body_style, **fs = &out->foot_style;
	int64_t left = p->deadline - now;
	char label[48];
	size_t i;
	int dummy;

	memset(out, 0, sizeof *out);
	out->cursor_line = out->cursor_col = -1;
	if (cols < 8)
		cols = 8;
	lz_buf_addf(&b, " host command requested by %s", p->pane > 0 ?
	    "pane" : "this session");
	if (p->pane > 0)
		lz_buf_addf(&b, " %d", p->pane);
	lz_buf_adds(&b, " ");
	if (p->pending > 0)
		lz_buf_addf(&b, " +%u pending ", p->pending);
	out->title = lz_buf_detach(&b);

	switch (p->view) {
	case LZ_PROMPT_MAIN:
		wrap(body, bs, LZ_PROMPT_PLAIN, "profile    ", "           ",
		    p->req.profile, cols, EXACT, (size_t)-1, &dummy, &dummy);
		lz_buf_reset(&b);
		if (p->pane > 0)
			lz_buf_addf(&b, "pane %d: ", p->pane);
		lz_visible_add(&b, p->req.command, strlen(p->req.command),
		    vis);
		lz_buf_addf(&b, "  (%.8s)", p->req.session);
		wrap(body, bs, LZ_PROMPT_PLAIN, "session    ", "           ",
		    b.buf, cols, EXACT, (size_t)-1, &dummy, &dummy);
		wrap(body, bs, LZ_PROMPT_PLAIN, "directory  ", "           ",
		    p->req.cwd, cols, vis, (size_t)-1, &dummy, &dummy);
		snprintf(label, sizeof label, "command, %zu element%s, one a "
		    "line:", p->req.argv.n, p->req.argv.n == 1 ? "" : "s");
		push(body, bs, LZ_PROMPT_LABEL, label, strlen(label));
		for (i = 0; i < p->req.argv.n; i++) {
			snprintf(label, sizeof label, "%4zu ", i);
			wrap(body, bs, LZ_PROMPT_PLAIN, label, "     ",
			    p->req.argv.v[i], cols, vis | LZ_VISIBLE_QUOTE,
			    (size_t)-1, &dummy, &dummy);
		}
		pushs(body, bs, LZ_PROMPT_LABEL, "the agent's words (not "
		    "checked by anyone):");
		if (p->req.why[0] == '\0')
			pushs(body, bs, LZ_PROMPT_PLAIN, "     (none given)");
		else
			wrap(body, bs, LZ_PROMPT_PLAIN, "     ", "     ",
			    p->req.why, cols, vis | LZ_VISIBLE_QUOTE,
			    (size_t)-1, &dummy, &dummy);
		wrap(foot, fs, LZ_PROMPT_LABEL, "", "", "a approve once   s "
		    "approve for this session   r save as a rule   d deny   "
		    "e edit", cols, PROSE, (size_t)-1, &dummy, &dummy);
		break;
	case LZ_PROMPT_RULE:
		if (p->rule_err != NULL) {
			wrap(body, bs, LZ_PROMPT_WARN, "", "", p->rule_err,
			    cols, PROSE, (size_t)-1, &dummy, &dummy);
			wrap(foot, fs, LZ_PROMPT_LABEL, "", "", "n or Escape: "
			    "back", cols, PROSE, (size_t)-1, &dummy, &dummy);
			break;
		}
		wrap(body, bs, LZ_PROMPT_LABEL, "", "", "Save this rule? From "
		    "now on this exact command runs without asking:", cols,
		    PROSE, (size_t)-1, &dummy, &dummy);
		wrap(body, bs, LZ_PROMPT_PLAIN, "  ", "  ", p->rule.buf, cols,
		    vis, (size_t)-1, &dummy, &dummy);
		lz_buf_reset(&b);
		lz_buf_addf(&b, "applies to profile %s in every project",
		    p->req.profile);
		wrap(body, bs, LZ_PROMPT_WARN, "", "", b.buf, cols, PROSE,
		    (size_t)-1, &dummy, &dummy);
		if (p->config != NULL)
			wrap(body, bs, LZ_PROMPT_PLAIN, "appended to ", "  ",
			    p->config, cols, vis, (size_t)-1, &dummy, &dummy);
		wrap(foot, fs, LZ_PROMPT_LABEL, "", "", "y save the rule and "
		    "run the command   n back", cols, PROSE, (size_t)-1, &dummy,
		    &dummy);
		break;
	case LZ_PROMPT_DENY:
		wrap(body, bs, LZ_PROMPT_LABEL, "", "", "Deny. A message for "
		    "the agent (optional):", cols, PROSE, (size_t)-1, &dummy,
		    &dummy);
		lz_buf_reset(&b);
		lz_visible_add(&b, p->msg.buf, p->msg.len, vis);
		wrap(body, bs, LZ_PROMPT_PLAIN, "> ", "  ", b.buf, cols, EXACT,
		    b.len, &out->cursor_line, &out->cursor_col);
		wrap(foot, fs, LZ_PROMPT_LABEL, "", "", "Enter deny and send   "
		    "Escape back", cols, PROSE, (size_t)-1, &dummy, &dummy);
		break;
	case LZ_PROMPT_EDIT:
	case LZ_PROMPT_EDIT_LINE:
		wrap(body, bs, LZ_PROMPT_LABEL, "", "", "Edit the command: it "
		    "runs exactly as shown.", cols, PROSE, (size_t)-1, &dummy,
		    &dummy);
		for (i = 0; i < p->edit.n; i++) {
			snprintf(label, sizeof label, "%s%3zu ", (int)i ==
			    p->sel ? ">" : " ", i);
			if ((int)i == p->sel && p->view == LZ_PROMPT_EDIT_LINE)
				wrap(body, bs, LZ_PROMPT_SELECTED, label,
				    "     ", p->line.buf, cols, EXACT, p->cur,
				    &out->cursor_line, &out->cursor_col);
			else
				wrap(body, bs, (int)i == p->sel ?
				    LZ_PROMPT_SELECTED : LZ_PROMPT_PLAIN, label,
				    "     ", p->edit.v[i], cols, vis |
				    LZ_VISIBLE_QUOTE, (size_t)-1, &dummy,
				    &dummy);
		}
		if (p->edit.n == 0)
			pushs(body, bs, LZ_PROMPT_WARN, "  (no elements)");
		if (p->err[0] != '\0')
			wrap(body, bs, LZ_PROMPT_WARN, "", "  ", p->err, cols,
			    PROSE, (size_t)-1, &dummy, &dummy);
		wrap(foot, fs, LZ_PROMPT_LABEL, "", "", p->view ==
		    LZ_PROMPT_EDIT ? "Enter edit   i/o insert before/after   x "
		    "delete   y run as shown   Escape back" : "escapes: \\\\ "
		    "\\\" \\n \\t \\r \\xHH \\uHHHH   Enter keep   Escape drop",
		    cols, PROSE, (size_t)-1, &dummy, &dummy);
		break;
	}

	/* What is not on the screen is said, never silently cut. */
	lz_buf_reset(&b);
	if (body_rows > 0 && (int)body->n > body_rows)
		lz_buf_addf(&b, "lines %d-%d of %zu (Up/Down PgUp/PgDn)   ",
		    p->scroll + 1, p->scroll + body_rows < (int)body->n ?
		    p->scroll + body_rows : (int)body->n, body->n);
	if (left < 0)
		left = 0;
	lz_buf_addf(&b, "times out in %d:%02d", (int)(left / 60000),
	    (int)(left / 1000 % 60));
	if (now < p->shown + LZ_PROMPT_GUARD_MS)
		lz_buf_adds(&b, "   (keys ignored for half a second)");
	else if (p->ignored > 0)
		lz_buf_addf(&b, "   (%u key%s typed too early ignored)",
		    p->ignored, p->ignored == 1 ? "" : "s");
	wrap(foot, fs, LZ_PROMPT_PLAIN, "", "", b.buf, cols, PROSE, (size_t)-1,
	    &dummy, &dummy);
	lz_buf_release(&b);
}

void
lz_prompt_text_release(struct lz_prompt_text *t)
{
	free(t->title);
	lz_tokens_release(&t->body);
	lz_tokens_release(&t->foot);
	free(t->body_style);
	free(t->foot_style);
	memset(t, 0, sizeof *t);
}
