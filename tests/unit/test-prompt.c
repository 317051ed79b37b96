/*
 * test-prompt.c: the escalation prompt's model and drawing (ui/prompt.h)
 * without a coordinator: each key's decision, the half-second guard, the
 * rule's second confirmation, the denial's message, the argv editor
 * (escapes, insert, delete, an edit that changes nothing), and what is
 * drawn: the sandbox's ANSI, OSC, bidi and zero-width characters and
 * newlines inert and escaped, a 100 KB argument complete across the
 * scrolled body, the footer saying what is off screen, "+N pending".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/utf8.h"
#include "core/visible.h"
#include "ui/keys.h"
#include "ui/prompt.h"

#define ID "0123456789abcdef0123456789abcdef"

static struct lz_buf big;

static void
request(struct lz_prompt *p, int with_big, int64_t now)
{
	struct lz_prompt_ctx ctx = { 2, "/home/dev/.config/lazaret/config.ini",
	    0 };
	struct lz_msg_prompt m;

	memset(&m, 0, sizeof m);
	memcpy(m.id, ID, sizeof m.id);
	memcpy(m.session, "00112233445566778899aabbccddeeff", 33);
	snprintf(m.profile, sizeof m.profile, "default");
	m.command = lz_xstrdup("bash -l");
	lz_tokens_push(&m.argv, "git");
	lz_tokens_push(&m.argv, "push");
	lz_tokens_push(&m.argv, "\033[2J\033]0;pwned\007origin\xe2\x80\xae"
	    "niam\xe2\x80\x8b");
	if (with_big)
		lz_tokens_push(&m.argv, big.buf);
	m.cwd = lz_xstrdup("/home/dev/proj");
	m.why = lz_xstrdup("push it\nProfile: trusted\n\033[32mSAFE");
	m.timeout_ms = 300000;
	lz_prompt_init(p, &m, &ctx, now);
}

/* Feeds the bytes of keys one key at a time; returns the last result. */
static int
type(struct lz_prompt *p, const char *keys, int64_t now,
    struct lz_msg_decision *d)
{
	const unsigned char *s = (const unsigned char *)keys;
	size_t n = strlen(keys), used;
	struct lz_key k;
	int rc = 0;

	while (n > 0 && rc == 0) {
		used = lz_key_take(s, n, &k);
		rc = lz_prompt_key(p, &k, now, d);
		s += used;
		n -= used;
	}
	return rc;
}

static void
test_guard_and_approvals(void **state)
{
	struct lz_msg_decision d;
	struct lz_prompt p;

	(void)state;
	request(&p, 0, 1000);
	/* The developer was typing into the pane: dropped, counted. */
	assert_int_equal(type(&p, "aaa", 1100, &d), 0);
	assert_int_equal(type(&p, "s", 1499, &d), 0);
	assert_int_equal(p.ignored, 4);
	assert_int_equal(type(&p, "a", 1500, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_APPROVE);
	assert_string_equal(d.id, ID);
	assert_int_equal(d.argv.n, 0);
	lz_msg_decision_release(&d);
	assert_int_equal(type(&p, "s", 2000, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_APPROVE_SESSION);
	lz_msg_decision_release(&d);
	/* Other keys decide nothing. */
	assert_int_equal(type(&p, "qzy\r\033", 2000, &d), 0);
	lz_prompt_release(&p);
}

static void
test_rule(void **state)
{
	struct lz_msg_decision d;
	struct lz_prompt p;

	(void)state;
	request(&p, 0, 0);
	assert_int_equal(type(&p, "r", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_RULE);
	assert_null(p.rule_err);
	assert_string_equal(p.rule.buf, "auto-approve = git push "
	    "%1B[2J%1B]0%3Bpwned%07origin%E2%80%AEniam%E2%80%8B");
	assert_int_equal(type(&p, "n", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_MAIN);
	assert_int_equal(type(&p, "ry", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_SAVE_RULE);
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
	/* Too long for a config line: said, and y does nothing. */
	request(&p, 1, 0);
	assert_int_equal(type(&p, "r", 600, &d), 0);
	assert_non_null(p.rule_err);
	assert_non_null(strstr(p.rule_err, "over the limit"));
	assert_int_equal(type(&p, "y", 600, &d), 0);
	assert_int_equal(type(&p, "\033", 600, &d), 0);
	assert_int_equal(type(&p, "a", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_APPROVE);
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
}

static void
test_deny(void **state)
{
	struct lz_msg_decision d;
	struct lz_prompt p;

	(void)state;
	request(&p, 0, 0);
	assert_int_equal(type(&p, "d", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_DENY);
	/* Escape goes back without deciding; the message is kept. */
	assert_int_equal(type(&p, "use the gh CLIx\x7f", 600, &d), 0);
	assert_int_equal(type(&p, "\033", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_MAIN);
	assert_int_equal(type(&p, "d \xc3\xa9\r", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_DENY);
	assert_string_equal(d.message, "use the gh CLI \xc3\xa9");
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
	/* An empty message is a denial too. */
	request(&p, 0, 0);
	assert_int_equal(type(&p, "d\r", 600, &d), 1);
	assert_string_equal(d.message, "");
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
}

static void
test_edit(void **state)
{
	struct lz_msg_decision d;
	struct lz_prompt p;

	(void)state;
	request(&p, 0, 0);
	/* No change: a plain approval, not an edit. */
	assert_int_equal(type(&p, "ey", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_APPROVE);
	lz_msg_decision_release(&d);
	/* Element 2 replaced, "--dry-run" inserted after it, element 1
	 * replaced by an escaped 'A' + tab, then run as edited. */
	assert_int_equal(type(&p, "e\033[B\033[B\r\x15main\r", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_EDIT);
	assert_string_equal(p.edit.v[2], "main");
	assert_int_equal(type(&p, "o--dry-run\r", 600, &d), 0);
	assert_int_equal(p.edit.n, 4);
	assert_string_equal(p.edit.v[3], "--dry-run");
	assert_int_equal(type(&p, "\033[A\033[A\r\x15\\x41\\t\r", 600, &d),
	    0);
	assert_string_equal(p.edit.v[1], "A\t");
	/* A bad escape stays in the line with a complaint. */
	assert_int_equal(type(&p, "\r\\q\r", 600, &d), 0);
	assert_int_equal(p.view, LZ_PROMPT_EDIT_LINE);
	assert_non_null(strstr(p.err, "unknown escape"));
	assert_int_equal(type(&p, "\033", 600, &d), 0);
	assert_string_equal(p.edit.v[1], "A\t");
	assert_int_equal(type(&p, "\r\x15\\x00\r", 600, &d), 0);
	assert_non_null(strstr(p.err, "NUL"));
	assert_int_equal(type(&p, "\033", 600, &d), 0);
	/* The editor shows what it holds: the element's escaped form. */
	assert_int_equal(type(&p, "\r", 600, &d), 0);
	assert_string_equal(p.line.buf, "A\\t");
	assert_int_equal(type(&p, "\033", 600, &d), 0);
	assert_int_equal(type(&p, "y", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_EDIT);
	assert_int_equal(d.argv.n, 4);
	assert_string_equal(d.argv.v[0], "git");
	assert_string_equal(d.argv.v[1], "A\t");
	assert_string_equal(d.argv.v[2], "main");
	assert_string_equal(d.argv.v[3], "--dry-run");
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
	/* Deleting everything: refused, nothing decided. */
	request(&p, 0, 0);
	assert_int_equal(type(&p, "exxxxy", 600, &d), 0);
	assert_non_null(strstr(p.err, "needs a program"));
	/* A pasted bidi override goes in as its escape. */
	assert_int_equal(type(&p, "ix\xe2\x80\xae", 600, &d), 0);
	assert_string_equal(p.line.buf, "x\\u202e");
	assert_int_equal(type(&p, "\ry", 600, &d), 1);
	assert_int_equal(d.decision, LZ_DECISION_EDIT);
	assert_string_equal(d.argv.v[0], "x\xe2\x80\xae");
	lz_msg_decision_release(&d);
	lz_prompt_release(&p);
}

/* Every body line of element i, prefixes dropped, gives its escape. */
static void
assert_complete(struct lz_prompt *p, size_t i, int cols)
{
	struct lz_prompt_text t;
	struct lz_buf got = LZ_BUF_INIT;
	char *want, label[16];
	size_t l;

	lz_prompt_text(p, cols, 10, 5000, &t);
	snprintf(label, sizeof label, "%4zu ", i);
	for (l = 0; l < t.body.n; l++)
		if (strncmp(t.body.v[l], label, 5) == 0)
			break;
	assert_true(l < t.body.n);
	lz_buf_adds(&got, t.body.v[l++] + 5);
	while (l < t.body.n && strncmp(t.body.v[l], "     ", 5) == 0 &&
	    got.buf[got.len - 1] != '"')
		lz_buf_adds(&got, t.body.v[l++] + 5);
	want = lz_visible_str(p->req.argv.v[i], LZ_VISIBLE_QUOTE);
	assert_string_equal(got.buf, want);
	free(want);
	lz_buf_release(&got);
	lz_prompt_text_release(&t);
}

static void
test_text_complete(void **state)
{
	struct lz_buf foot = LZ_BUF_INIT;
	struct lz_prompt_text t;
	struct lz_prompt p;
	size_t l;
	int why = 0, i;

	(void)state;
	request(&p, 1, 0);
	p.pending = 2;
	lz_prompt_text(&p, 76, 10, 100, &t);
	assert_non_null(strstr(t.title, "pane 2"));
	assert_non_null(strstr(t.title, "+2 pending"));
	assert_string_equal(t.body.v[0], "profile    default");
	assert_string_equal(t.body.v[1], "session    pane 2: bash -l  "
	    "(00112233)");
	assert_string_equal(t.body.v[2], "directory  /home/dev/proj");
	assert_string_equal(t.body.v[3], "command, 4 elements, one a line:");
	assert_string_equal(t.body.v[4], "   0 \"git\"");
	assert_string_equal(t.body.v[6], "   2 \"\\x1b[2J\\x1b]0;pwned\\x07"
	    "origin\\u202eniam\\u200b\"");
	for (l = 0; l < t.body.n; l++) {
		if (strcmp(t.body.v[l], "     \"push it\\nProfile: trusted\\n"
		    "\\x1b[32mSAFE\"") == 0)
			why++;
		/* Its label whole (a length written by hand cut it once). */
		if (strcmp(t.body.v[l], "the agent's words (not checked by "
		    "anyone):") == 0)
			why++;
	}
	assert_int_equal(why, 2);
	for (l = 0; l < t.foot.n; l++)
		lz_buf_adds(&foot, t.foot.v[l]);
	assert_non_null(strstr(foot.buf, "lines 1-10 of "));
	assert_non_null(strstr(foot.buf, "times out in 4:59"));
	assert_non_null(strstr(foot.buf, "keys ignored"));
	lz_buf_release(&foot);
	lz_prompt_text_release(&t);
	assert_complete(&p, 2, 76);
	assert_complete(&p, 3, 76);
	assert_complete(&p, 3, 13);
	/* Our own prose, wrapped: no line starts with the spaces it broke
	 * at (the keys line at 40 columns broke after "session" once). */
	for (i = 30; i < 80; i++) {
		lz_prompt_text(&p, i, 10, 100, &t);
		for (l = 0; l < t.foot.n; l++)
			if (t.foot.v[l][0] == ' ')
				fail_msg("%d columns: '%s'", i, t.foot.v[l]);
		lz_prompt_text_release(&t);
	}
	lz_prompt_release(&p);
}

static void
load(struct lz_term *t)
{
	struct lz_err err = LZ_ERR_INIT;

	if (lz_term_load(t, "xterm-256color", -1, &err) != 0)
		fail_msg("%s", err.msg);
	t->utf8 = 1;
}

/* The row's code points as UTF-8 (wide characters once). */
static void
row_text(struct lz_render *r, int row, struct lz_buf *out)
{
	struct lz_cell *c;
	int col;

	lz_buf_reset(out);
	for (col = 0; col < r->cols; col++) {
		c = lz_render_at(r, row, col);
		if (c->ch[0] == LZ_CELL_CONT)
			continue;
		lz_buf_add_utf8(out, c->ch[0] ? c->ch[0] : ' ');
	}
}

/* The footer's "lines A-B of N" on the screen; 0 when there is none. */
static int
footer_lines(struct lz_render *r, int rows, int *first, int *last,
    int *total)
{
	struct lz_buf row = LZ_BUF_INIT;
	const char *s;
	int i, found = 0;

	for (i = 0; i < rows && !found; i++) {
		row_text(r, i, &row);
		if ((s = strstr(row.buf, "lines ")) != NULL)
			found = sscanf(s, "lines %d-%d of %d", first, last,
			    total) == 3;
	}
	lz_buf_release(&row);
	return found;
}

static void
test_draw(void **state)
{
	struct lz_prompt_pens pens = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } };
	struct lz_render r;
	struct lz_term term;
	struct lz_prompt p;
	struct lz_buf row = LZ_BUF_INIT, all = LZ_BUF_INIT;
	int i, col, crow, ccol, seen_end = 0, pages, first, last, total;

	(void)state;
	load(&term);
	lz_render_init(&r, &term, 30, 90);
	request(&p, 1, 0);
	lz_prompt_draw(&p, &r, (struct lz_rect){ 0, 0, 30, 90 }, &pens, 1000,
	    &crow, &ccol);
	assert_int_equal(crow, -1);
	for (i = 0; i < 30; i++) {
		row_text(&r, i, &row);
		lz_buf_adds(&all, row.buf);
		lz_buf_addch(&all, '\n');
		/* Nothing hidden or controlling reached a cell. */
		for (col = 0; col < 90; col++) {
			uint32_t cp = lz_render_at(&r, i, col)->ch[0];

			if (cp != 0 && cp != LZ_CELL_CONT && cp != ' ')
				assert_false(lz_visible_hidden(cp));
		}
	}
	assert_non_null(strstr(all.buf, "host command requested by pane 2"));
	assert_non_null(strstr(all.buf, "\"\\x1b[2J\\x1b]0;pwned\\x07origin"
	    "\\u202eniam\\u200b\""));
	assert_non_null(strstr(all.buf, "a approve once"));
	assert_non_null(strstr(all.buf, "lines 1-"));
	/* Paging reaches the end of the body: the agent's words. */
	for (pages = 0; pages < 200 && !seen_end; pages++) {
		type(&p, "\033[6~", 1000, NULL);
		lz_render_clear(&r, (struct lz_rect){ 0, 0, 30, 90 }, 0);
		lz_prompt_draw(&p, &r, (struct lz_rect){ 0, 0, 30, 90 },
		    &pens, 1000, &crow, &ccol);
		for (i = 0; i < 30 && !seen_end; i++) {
			row_text(&r, i, &row);
			seen_end = strstr(row.buf, "SAFE\"") != NULL;
		}
	}
	assert_true(seen_end);
	assert_true(pages > 10);	/* 100 KB escaped is many pages */
	/* End, then PageDown past it: the footer names lines that exist,
	 * in the very frame drawn after the key. */
	for (i = 0; i < 2; i++) {
		type(&p, i == 0 ? "G" : "\033[6~", 1000, NULL);
		lz_render_clear(&r, (struct lz_rect){ 0, 0, 30, 90 }, 0);
		lz_prompt_draw(&p, &r, (struct lz_rect){ 0, 0, 30, 90 },
		    &pens, 1000, &crow, &ccol);
		assert_true(footer_lines(&r, 30, &first, &last, &total));
		assert_int_equal(last, total);
		assert_true(first >= 1 && first <= last);
	}
	type(&p, "g", 1000, NULL);
	lz_render_clear(&r, (struct lz_rect){ 0, 0, 30, 90 }, 0);
	lz_prompt_draw(&p, &r, (struct lz_rect){ 0, 0, 30, 90 }, &pens, 1000,
	    &crow, &ccol);
	assert_true(footer_lines(&r, 30, &first, &last, &total));
	assert_int_equal(first, 1);
	/* A tiny area: still a frame, nothing drawn outside it. */
	lz_render_clear(&r, (struct lz_rect){ 0, 0, 30, 90 }, 0);
	lz_prompt_draw(&p, &r, (struct lz_rect){ 5, 5, 6, 20 }, &pens, 1000,
	    &crow, &ccol);
	row_text(&r, 4, &row);
	assert_null(strchr(row.buf + 0, '-'));
	assert_null(strstr(row.buf, "\xe2\x94\x80"));
	lz_prompt_release(&p);
	lz_render_free(&r);
	lz_term_release(&term);
	lz_buf_release(&row);
	lz_buf_release(&all);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_and_approvals),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_deny),
		cmocka_unit_test(test_edit),
		cmocka_unit_test(test_text_complete),
		cmocka_unit_test(test_draw),
	};
	int rc;

	/* 100 KB of everything a prompt must not let through. */
	while (big.len < 100 * 1024)
		lz_buf_adds(&big, "\033[31mx\xe2\x80\xae\n\xc2\x9b ");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	lz_buf_release(&big);
	return rc;
}
