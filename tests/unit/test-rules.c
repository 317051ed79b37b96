/*
 * test-rules.c: auto-approval rules match complete argument vectors, and
 * trailing arguments only with the explicit "..." marker (SR-8); the
 * program is pinned to the host path it resolved to at load; rules with
 * "..." or a program that runs code are flagged; the line a saved rule
 * appends.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/hostcmd.h"
#include "core/ini.h"
#include "core/rules.h"
#include "testlib.h"

static char tmp[] = "/tmp/lz-rules-XXXXXX";
static char dir_a[64], dir_b[64], path_a[160], path_ba[160];
static char git_a[80], git_b[80];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(tmp) == NULL)
		return -1;
	/* Two directories with a program called git each. */
	snprintf(dir_a, sizeof dir_a, "%s/a", tmp);
	snprintf(dir_b, sizeof dir_b, "%s/b", tmp);
	lz_test_put(tmp, "a/git", "#!/bin/false\n");
	lz_test_put(tmp, "b/git", "#!/bin/false\n");
	snprintf(git_a, sizeof git_a, "%s/git", dir_a);
	snprintf(git_b, sizeof git_b, "%s/git", dir_b);
	if (chmod(git_a, 0755) != 0 || chmod(git_b, 0755) != 0)
		return -1;
	snprintf(path_a, sizeof path_a, "%s:/usr/bin:/bin", dir_a);
	snprintf(path_ba, sizeof path_ba, "%s:%s:/usr/bin:/bin", dir_b,
	    dir_a);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(tmp);
	return 0;
}

/* Where a request's "git" resolves now, in PATH path. */
static int
resolve_git(const char *path, char **out)
{
	return lz_hostcmd_resolve("git", path, out, NULL);
}

/* Parses and resolves a rule in PATH path; warnings into w if given. */
static void
rule(const char *text, const char *path, struct lz_rule *r,
    struct lz_buf *w)
{
	struct lz_buf none = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;

	if (lz_rule_parse(text, "c.ini:3", r, &e) != 0)
		fail_msg("%s", e.msg);
	lz_rule_resolve(r, path, w ? w : &none);
	lz_buf_release(&none);
}

static void
test_exact(void **state)
{
	struct lz_rule r;
	char *ok[] = { "git", "fetch" };
	char *more[] = { "git", "fetch", "--all" };
	char *less[] = { "git" };
	char *other[] = { "/usr/bin/git", "fetch" };

	(void)state;
	rule("git fetch", path_a, &r, NULL);
	assert_false(r.trailing);
	assert_string_equal(r.program, git_a);
	assert_int_equal(r.flags, 0);
	assert_true(lz_rule_match(&r, ok, 2, git_a));
	assert_false(lz_rule_match(&r, more, 3, git_a));
	assert_false(lz_rule_match(&r, less, 1, git_a));
	assert_false(lz_rule_match(&r, other, 2, git_a));
	assert_false(lz_rule_match(&r, ok, 2, NULL));
	lz_rule_release(&r);
}

static void
test_trailing(void **state)
{
	struct lz_rule r;
	char *ok[] = { "git", "log" };
	char *more[] = { "git", "log", "-n", "3" };
	char *wrong[] = { "git", "push" };

	(void)state;
	rule("git log ...", path_a, &r, NULL);
	assert_true(r.trailing);
	assert_int_equal(r.argv.n, 2);
	assert_int_equal(r.flags, LZ_RULE_OPTIONS);
	assert_true(lz_rule_match(&r, ok, 2, git_a));
	assert_true(lz_rule_match(&r, more, 4, git_a));
	assert_false(lz_rule_match(&r, wrong, 2, git_a));
	lz_rule_release(&r);
}

static void
test_literal_dots_and_spaces(void **state)
{
	struct lz_rule r, back;
	struct lz_buf b = LZ_BUF_INIT;
	char *dots[] = { "ls", "..." };
	char *dots_more[] = { "ls", "...", "x" };
	char *spaced[] = { "make", "test all; rm" };

	(void)state;
	rule("ls %2E..", "/usr/bin:/bin", &r, NULL);
	assert_false(r.trailing);
	assert_true(lz_rule_match(&r, dots, 2, r.program));
	assert_false(lz_rule_match(&r, dots_more, 3, r.program));
	lz_rule_format(&r, &b);
	assert_string_equal(b.buf, "ls %2E..");
	lz_rule_release(&r);

	rule("make test%20all%3B%20rm", "/usr/bin:/bin", &r, NULL);
	assert_true(lz_rule_match(&r, spaced, 2, r.program));
	lz_buf_reset(&b);
	lz_rule_format(&r, &b);
	rule(b.buf, "/usr/bin:/bin", &back, NULL);
	assert_true(lz_rule_match(&back, spaced, 2, r.program));
	lz_rule_release(&back);
	lz_rule_release(&r);
	lz_buf_release(&b);
}

static void
test_bad(void **state)
{
	struct lz_rule r;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_rule_parse("...", "t:6", &r, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "program"));
	lz_err_release(&e);
	assert_int_equal(lz_rule_parse("", "t:7", &r, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_rule_parse("git %zz", "t:8", &r, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "hex"));
	lz_err_release(&e);
	/* "a..." is an argument, not the marker. */
	assert_int_equal(lz_rule_parse("echo a...", "t:9", &r, NULL), 0);
	assert_false(r.trailing);
	assert_string_equal(r.argv.v[1], "a...");
	lz_rule_release(&r);
	/* A relative program would be a file of the workspace. */
	assert_int_equal(lz_rule_parse("./deploy.sh prod", "t:10", &r, &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "relative path"));
	lz_err_release(&e);
	assert_int_equal(lz_rule_parse("bin/tool", "t:11", &r, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
}

/*
 * The program is resolved at load: a git put earlier in PATH later (the
 * request now resolves to it) does not match; the one the rule recorded
 * does; one not found matches nothing and says so.
 */
static void
test_program_pinned(void **state)
{
	struct lz_buf w = LZ_BUF_INIT;
	const struct lz_rule *found;
	struct lz_rule r[2];
	char *req[] = { "git", "push" };
	char *now_b = NULL, *now_a = NULL;

	(void)state;
	rule("git push", path_a, &r[0], &w);
	assert_string_equal(w.buf, "");
	rule("lz-not-installed x", path_a, &r[1], &w);
	assert_null(r[1].program);
	assert_non_null(strstr(w.buf, "c.ini:3: auto-approve "
	    "'lz-not-installed x': 'lz-not-installed' is not found in PATH"));
	assert_int_equal(resolve_git(path_ba, &now_b), 0);
	assert_string_equal(now_b, git_b);
	assert_null(lz_rules_find(r, 2, req, 2, now_b));
	assert_int_equal(resolve_git(path_a, &now_a), 0);
	found = lz_rules_find(r, 2, req, 2, now_a);
	assert_ptr_equal(found, &r[0]);
	free(now_a);
	free(now_b);
	lz_rule_release(&r[0]);
	lz_rule_release(&r[1]);
	lz_buf_release(&w);
}

/* Flagged rules: "...", a shell, an interpreter, a runner, a build tool. */
static void
test_flags(void **state)
{
	static const struct {
		const char *text;
		int flags;
	} cases[] = {
		{ "git fetch origin", 0 },
		{ "git fetch ...", LZ_RULE_OPTIONS },
		{ "bash -c true", LZ_RULE_RUNS_CODE },
		{ "/bin/sh -c true", LZ_RULE_RUNS_CODE },
		{ "python3.11 tool.py", LZ_RULE_RUNS_CODE },
		{ "env FOO=1 git status", LZ_RULE_RUNS_CODE },
		{ "make test", LZ_RULE_RUNS_CODE },
		{ "npm ...", LZ_RULE_RUNS_CODE | LZ_RULE_OPTIONS },
		{ "shellcheck x", 0 },
		{ "makeself x", 0 },
	};
	struct lz_buf w = LZ_BUF_INIT;
	struct lz_rule r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lz_buf_reset(&w);
		rule(cases[i].text, "/usr/bin:/bin", &r, &w);
		if (r.flags != cases[i].flags)
			fail_msg("'%s': flags %d", cases[i].text, r.flags);
		if (cases[i].flags & LZ_RULE_OPTIONS)
			assert_non_null(strstr(w.buf, "--upload-pack=CMD"));
		if (cases[i].flags & LZ_RULE_RUNS_CODE)
			assert_non_null(strstr(w.buf, "runs code it is given"));
		if (cases[i].flags == 0 && r.program != NULL)
			assert_string_equal(w.buf, "");
		lz_rule_release(&r);
	}
	lz_buf_release(&w);
}

/* The line a saved rule appends: exact, escaped, within the limit. */
static void
test_line(void **state)
{
	struct lz_tokens argv = LZ_TOKENS_INIT, back = LZ_TOKENS_INIT;
	struct lz_buf line = LZ_BUF_INIT, big = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	(void)state;
	lz_tokens_push(&argv, "git");
	lz_tokens_push(&argv, "commit");
	lz_tokens_push(&argv, "-m");
	lz_tokens_push(&argv, "fix it; now \xe2\x80\xae");
	lz_tokens_push(&argv, "...");
	assert_int_equal(lz_rule_line(&argv, &line, NULL), 0);
	assert_string_equal(line.buf, "auto-approve = git commit -m "
	    "fix%20it%3B%20now%20%E2%80%AE %2E..");
	assert_int_equal(lz_tokens_split(line.buf + 15, &back, NULL), 0);
	assert_int_equal(back.n, argv.n);
	for (i = 0; i < argv.n; i++)
		assert_string_equal(back.v[i], argv.v[i]);
	lz_tokens_release(&back);
	/* Over inih's line: refused, saying so. */
	while (big.len < LZ_INI_MAX_LINE)
		lz_buf_adds(&big, "x");
	lz_tokens_push(&argv, big.buf);
	lz_buf_reset(&line);
	assert_int_equal(lz_rule_line(&argv, &line, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "over the limit of 198"));
	assert_int_equal(line.len, 0);
	lz_err_release(&e);
	lz_tokens_release(&argv);
	lz_tokens_push(&argv, "./local");
	assert_int_equal(lz_rule_line(&argv, &line, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_tokens_release(&argv);
	lz_buf_release(&line);
	lz_buf_release(&big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_literal_dots_and_spaces),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_program_pinned),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
