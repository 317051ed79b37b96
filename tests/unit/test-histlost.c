/*
 * test-histlost.c: what "lazaret git restore" finds lost and what it
 * would do (histlost.h), with the questions about commits answered from
 * a table: a reset undone without asking, the same ref moved since by
 * the host (asked), a fast-forward (not asked), a deleted branch
 * (created), the host's own losses and restore's moves left out unless
 * the ref is named, HEAD only when missing, --to a time (refs made later
 * left alone), a named ref whose commits another ref reaches, short
 * names read as git reads them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/histlost.h"

#define A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"	/* top */
#define B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"	/* A~3 */
#define H "cccccccccccccccccccccccccccccccccccccccc"	/* on B, host */
#define C "dddddddddddddddddddddddddddddddddddddddd"	/* A + 1 */
#define T "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"	/* topic */

/* The table: how many commits each value has lost, what descends. */
static long lost_of_a = 3, lost_of_t = 1;

static long
q_lost(void *ctx, const char *v)
{
	(void)ctx;
	if (strcmp(v, A) == 0)
		return lost_of_a;
	if (strcmp(v, T) == 0)
		return lost_of_t;
	if (strcmp(v, H) == 0)
		return 1;
	return 0;
}

/* Ancestry: B < A < C, B < H. */
static int
q_ff(void *ctx, const char *from, const char *to)
{
	static const char *const pairs[][2] = { { B, A }, { B, C }, { A, C },
	    { B, H } };
	size_t i;

	(void)ctx;
	if (strcmp(from, to) == 0)
		return 1;
	for (i = 0; i < sizeof pairs / sizeof *pairs; i++)
		if (strcmp(pairs[i][0], from) == 0 &&
		    strcmp(pairs[i][1], to) == 0)
			return 1;
	return 0;
}

static const struct lz_histq q = { q_lost, q_ff, NULL };

static void
rec(struct lz_histlog *log, int64_t ms, enum lz_hist_who who, char kind,
    const char *name, const char *old, const char *new)
{
	struct lz_histrec r = { ms, who, kind, (char *)name, (char *)old,
	    (char *)new };

	lz_histlog_push(log, &r);
}

static void
base(struct lz_histlog *log)
{
	memset(log, 0, sizeof *log);
	rec(log, 1, LZ_HIST_HOST, '+', "HEAD", NULL, "ref:refs/heads/main");
	rec(log, 1, LZ_HIST_HOST, '+', "refs/heads/main", NULL, A);
	rec(log, 1, LZ_HIST_HOST, '+', "refs/heads/topic", NULL, T);
	rec(log, 1, LZ_HIST_HOST, '+', "refs/tags/v1", NULL, B);
}

static void
now_set(struct lz_refset *now, const char *main, const char *topic)
{
	memset(now, 0, sizeof *now);
	lz_refset_push(now, "HEAD", "ref:refs/heads/main");
	if (main != NULL)
		lz_refset_push(now, "refs/heads/main", main);
	if (topic != NULL)
		lz_refset_push(now, "refs/heads/topic", topic);
	lz_refset_push(now, "refs/tags/v1", B);
	lz_refset_sort(now);
}

/* reset --hard HEAD~3 inside: undone without a question. */
static void
test_reset(void **state)
{
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_DOMAIN, '!', "refs/heads/main", A, B);
	now_set(&now, B, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].name, "refs/heads/main");
	assert_string_equal(p.v[0].target, A);
	assert_string_equal(p.v[0].after, B);
	assert_int_equal(p.v[0].lost, 3);
	assert_int_equal(p.v[0].ask, 0);	/* a fast-forward anyway */
	assert_int_equal(p.v[0].action, LZ_HISTLOSS_MOVE);
	assert_true(p.v[0].ms == 10);
	lz_histplan_release(&p);
	lz_refset_release(&now);

	/* The host committed on top of the reset: asked. */
	rec(&log, 11, LZ_HIST_DOMAIN, '>', "refs/heads/main", B, H);
	now_set(&now, H, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].target, A);
	assert_string_equal(p.v[0].now, H);
	assert_int_equal(p.v[0].ask, 1);
	lz_histplan_release(&p);
	lz_refset_release(&now);

	/* Moved forward past the loss meanwhile: nothing is lost. */
	lost_of_a = 0;
	now_set(&now, C, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 0);
	lost_of_a = 3;
	lz_histplan_release(&p);
	lz_refset_release(&now);
	lz_histlog_release(&log);
}

/* A reset to something unrelated, and nothing happened since. */
static void
test_sideways(void **state)
{
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_DOMAIN, '!', "refs/heads/main", A, T);
	now_set(&now, T, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 1);
	/* Not a fast-forward, but exactly what the loss left: no question. */
	assert_int_equal(p.v[0].ask, 0);
	lz_histplan_release(&p);
	lz_refset_release(&now);
	lz_histlog_release(&log);
}

/* A deleted branch, then .git gone: HEAD and every ref created. */
static void
test_deleted(void **state)
{
	struct lz_histlog log;
	struct lz_refset now = LZ_REFSET_INIT;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_DOMAIN, '!', "refs/heads/topic", T, NULL);
	now_set(&now, A, NULL);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].name, "refs/heads/topic");
	assert_int_equal(p.v[0].action, LZ_HISTLOSS_CREATE);
	assert_int_equal(p.v[0].ask, 0);
	assert_null(p.v[0].now);
	lz_histplan_release(&p);
	lz_refset_release(&now);

	rec(&log, 20, LZ_HIST_DOMAIN, '-', "HEAD", "ref:refs/heads/main",
	    NULL);
	rec(&log, 20, LZ_HIST_DOMAIN, '!', "refs/heads/main", A, NULL);
	rec(&log, 20, LZ_HIST_DOMAIN, '!', "refs/tags/v1", B, NULL);
	memset(&now, 0, sizeof now);
	lost_of_a = 4;
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	/* main and topic lost commits; HEAD is missing; v1 (B) reaches
	 * nothing lost in the table: a tag deletion is restored by name. */
	assert_int_equal(p.n, 3);
	assert_string_equal(p.v[0].name, "HEAD");
	assert_string_equal(p.v[0].target, "ref:refs/heads/main");
	assert_string_equal(p.v[1].name, "refs/heads/main");
	assert_string_equal(p.v[2].name, "refs/heads/topic");
	lz_histplan_release(&p);
	lz_histplan_make(&log, &now, "refs/tags/v1", -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].target, B);
	assert_int_equal(p.v[0].action, LZ_HISTLOSS_CREATE);
	lost_of_a = 3;
	lz_histplan_release(&p);
	lz_histlog_release(&log);
}

/* The host's own losses and restore's moves: only when named. */
static void
test_who(void **state)
{
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_HOST, '!', "refs/heads/main", A, B);
	rec(&log, 11, LZ_HIST_RESTORE, '~', "refs/heads/topic", H, T);
	now_set(&now, B, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 0);
	lz_histplan_release(&p);
	lz_histplan_make(&log, &now, "refs/heads/main", -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.v[0].who, LZ_HIST_HOST);
	assert_int_equal(p.v[0].ask, 0);	/* B < A: forward */
	lz_histplan_release(&p);
	lz_histplan_make(&log, &now, "refs/heads/topic", -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].target, H);
	assert_int_equal(p.v[0].ask, 1);	/* T is not under H */
	lz_histplan_release(&p);
	lz_refset_release(&now);

	/* Changed after the last teardown (unseen): named only, asked. */
	now_set(&now, H, T);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 0);
	lz_histplan_release(&p);
	lz_histplan_make(&log, &now, "refs/heads/main", -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].target, A);
	assert_int_equal(p.v[0].ask, 1);
	lz_histplan_release(&p);
	lz_refset_release(&now);
	lz_histlog_release(&log);
}

/* HEAD: a checkout is no loss. */
static void
test_head(void **state)
{
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_DOMAIN, '~', "HEAD", "ref:refs/heads/main",
	    "ref:refs/heads/topic");
	now_set(&now, A, T);
	lz_refset_set(&now, "HEAD", "ref:refs/heads/topic");
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 0);
	lz_histplan_release(&p);
	/* Detached, and moved back off commits: like any ref. */
	rec(&log, 20, LZ_HIST_DOMAIN, '~', "HEAD", "ref:refs/heads/topic", A);
	rec(&log, 30, LZ_HIST_DOMAIN, '!', "HEAD", A, B);
	lz_refset_set(&now, "HEAD", B);
	lz_histplan_make(&log, &now, NULL, -1, &q, &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].name, "HEAD");
	assert_string_equal(p.v[0].target, A);
	assert_int_equal(p.v[0].action, LZ_HISTLOSS_MOVE);
	lz_histplan_release(&p);
	lz_refset_release(&now);
	lz_histlog_release(&log);
}

/* --to: the state then; refs made later stay; non-forward asks. */
static void
test_to(void **state)
{
	struct lz_histlog log;
	struct lz_refset now;
	struct lz_histplan p;

	(void)state;
	base(&log);
	rec(&log, 10, LZ_HIST_DOMAIN, '>', "refs/heads/main", A, C);
	rec(&log, 20, LZ_HIST_DOMAIN, '+', "refs/heads/new", NULL, H);
	rec(&log, 30, LZ_HIST_DOMAIN, '!', "refs/heads/topic", T, NULL);
	now_set(&now, C, NULL);
	lz_refset_set(&now, "refs/heads/new", H);
	lz_histplan_make(&log, &now, NULL, 5, &q, &p);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.v[0].name, "refs/heads/main");
	assert_string_equal(p.v[0].target, A);
	assert_int_equal(p.v[0].ask, 1);	/* C would lose a commit */
	assert_string_equal(p.v[1].name, "refs/heads/topic");
	assert_int_equal(p.v[1].action, LZ_HISTLOSS_CREATE);
	lz_histplan_release(&p);
	lz_histplan_make(&log, &now, "refs/heads/topic", 5, &q, &p);
	assert_int_equal(p.n, 1);
	lz_histplan_release(&p);
	lz_refset_release(&now);
	lz_histlog_release(&log);
}

static void
test_short_names(void **state)
{
	struct lz_histlog log;
	struct lz_refset now = LZ_REFSET_INIT;
	struct lz_buf b = LZ_BUF_INIT;

	(void)state;
	base(&log);
	rec(&log, 2, LZ_HIST_HOST, '+', "refs/tags/topic", NULL, B);
	assert_string_equal(lz_histplan_ref(&log, &now, "main", &b),
	    "refs/heads/main");
	/* As git: refs/tags/X before refs/heads/X. */
	assert_string_equal(lz_histplan_ref(&log, &now, "topic", &b),
	    "refs/tags/topic");
	assert_string_equal(lz_histplan_ref(&log, &now, "heads/topic", &b),
	    "refs/heads/topic");
	assert_string_equal(lz_histplan_ref(&log, &now, "HEAD", &b), "HEAD");
	assert_null(lz_histplan_ref(&log, &now, "nothing", &b));
	lz_buf_release(&b);
	lz_histlog_release(&log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_sideways),
		cmocka_unit_test(test_deleted),
		cmocka_unit_test(test_who),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_to),
		cmocka_unit_test(test_short_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
