/*
 * test-protect.c: the protected host tool files (protect.h): the
 * built-in list, pattern checks, expanding patterns over a real tree
 * without following anything, and the launch checks of one file (a
 * symlink, FIFO, directory, huge or unreadable file), with no blocking.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/protect.h"
#include "tests/unit/testlib.h"

#define put(rel, text) lz_test_put(ws, rel, text)

static char ws[] = "/tmp/lz-test-protect-XXXXXX";

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(ws) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(ws);
	return 0;
}

static void
test_patterns(void **state)
{
	static const char *const ok[] = { ".vscode/tasks.json", "*.xml",
	    ".idea/runConfigurations/*.xml", "a/*/b?.json", ".gitignore",
	    ".github/x" };
	static const char *const bad[] = { "", "/abs", "a//b", "a/./b",
	    "../x", "a/..", "x/", ".git", ".git/config", "a[b]", "a\\b" };
	struct lz_err e = LZ_ERR_INIT;
	struct lz_tokens t = LZ_TOKENS_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof *ok; i++)
		assert_int_equal(lz_protect_pattern_valid(ok[i], 1, "protect",
		    NULL), 0);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_protect_pattern_valid(bad[i], 1, "protect",
		    &e), LZ_EINVAL);
		assert_non_null(strstr(e.msg, "protect '"));
		lz_err_release(&e);
	}
	assert_int_equal(lz_protect_pattern_valid("*.gitconfig", 0, "trust",
	    &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "without wildcards"));
	lz_err_release(&e);
	/* Every built-in pattern passes its own check. */
	lz_protect_defaults(&t);
	assert_true(t.n >= 10);
	for (i = 0; i < t.n; i++)
		assert_int_equal(lz_protect_pattern_valid(t.v[i], 1, "protect",
		    NULL), 0);
	lz_tokens_release(&t);
}

static void
test_expand(void **state)
{
	struct lz_protect_set s = LZ_PROTECT_SET_INIT;
	struct lz_tokens pat = LZ_TOKENS_INIT, skip = LZ_TOKENS_INIT;
	char p[512];
	int fd;

	(void)state;
	put(".vscode/tasks.json", "{}");
	put(".vscode/launch.json", "{}");
	put(".idea/runConfigurations/a.xml", "");
	put(".idea/runConfigurations/b.xml", "");
	put(".idea/runConfigurations/c.txt", "");
	put(".devcontainer/one/devcontainer.json", "{}");
	put("x.code-workspace", "{}");
	put("ignored/.vscode/tasks.json", "{}");
	snprintf(p, sizeof p, "%s/.run", ws);
	assert_int_equal(symlink("/etc", p), 0);
	lz_tokens_push(&pat, ".vscode/tasks.json");
	lz_tokens_push(&pat, ".vscode/settings.json");
	lz_tokens_push(&pat, ".idea/runConfigurations/*.xml");
	lz_tokens_push(&pat, ".devcontainer/*/devcontainer.json");
	lz_tokens_push(&pat, "*.code-workspace");
	lz_tokens_push(&pat, ".run/*.run.xml");
	lz_tokens_push(&pat, "ignored/.vscode/tasks.json");
	lz_tokens_push(&pat, ".vscode/tasks.json");
	lz_tokens_push(&skip, "ignored/");
	fd = open(ws, O_RDONLY | O_DIRECTORY);
	lz_protect_expand(fd, &pat, &skip, &s);
	close(fd);
	assert_int_equal(s.n, 6);
	/* Sorted, no duplicate, the symlink at its own path. */
	assert_string_equal(s.v[0].path, ".devcontainer/one/devcontainer.json");
	assert_string_equal(s.v[1].path, ".idea/runConfigurations/a.xml");
	assert_string_equal(s.v[2].path, ".idea/runConfigurations/b.xml");
	assert_string_equal(s.v[3].path, ".run");
	assert_int_equal(s.v[3].kind, 'l');
	assert_string_equal(s.v[4].path, ".vscode/tasks.json");
	assert_int_equal(s.v[4].kind, 'f');
	assert_string_equal(s.v[5].path, "x.code-workspace");
	assert_non_null(lz_protect_find(&s, ".vscode/tasks.json"));
	assert_null(lz_protect_find(&s, ".vscode/settings.json"));
	lz_protect_release(&s);
	lz_tokens_release(&pat);
	lz_tokens_release(&skip);
}

static void
test_inspect(void **state)
{
	struct lz_buf w = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char p[512];
	int fd, wsfd;

	(void)state;
	wsfd = open(ws, O_RDONLY | O_DIRECTORY);
	put("i/ok", "x");
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/ok", 1, "FIX", &w,
	    &e), 'f');
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/none", 1, "FIX", &w,
	    &e), 0);
	snprintf(p, sizeof p, "%s/i/link", ws);
	assert_int_equal(symlink("ok", p), 0);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/link", 0, "FIX", &w,
	    &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "i/link' is a symbolic link"));
	assert_non_null(strstr(e.msg, "; FIX"));
	lz_err_release(&e);
	snprintf(p, sizeof p, "%s/i/linkdir", ws);
	assert_int_equal(symlink(".", p), 0);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/linkdir/ok", 0,
	    "FIX", &w, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "without following a symbolic link"));
	lz_err_release(&e);
	/* A FIFO is never opened for reading: this would block. */
	snprintf(p, sizeof p, "%s/i/fifo", ws);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/fifo", 1, "FIX", &w,
	    &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "is a FIFO"));
	lz_err_release(&e);
	snprintf(p, sizeof p, "%s/i/dir", ws);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/dir", 0, "FIX", &w,
	    &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "is a directory"));
	lz_err_release(&e);
	/* Huge: refused when git reads it, a warning otherwise. */
	snprintf(p, sizeof p, "%s/i/huge", ws);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_int_equal(ftruncate(fd, LZ_PROTECT_MAX_SIZE + 1), 0);
	close(fd);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/huge", 1, "FIX", &w,
	    &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "over Lazaret's limit of 16 MiB"));
	lz_err_release(&e);
	assert_int_equal(lz_protect_inspect(wsfd, ws, "i/huge", 0, "FIX", &w,
	    &e), 'f');
	assert_non_null(strstr(w.buf, "i/huge' is 16777217 bytes, unusually "
	    "large"));
	lz_buf_reset(&w);
	/* Unreadable (root reads everything: only as another user). */
	if (geteuid() != 0) {
		put("i/locked", "x");
		snprintf(p, sizeof p, "%s/i/locked", ws);
		assert_int_equal(chmod(p, 0), 0);
		assert_int_equal(lz_protect_inspect(wsfd, ws, "i/locked", 1,
		    "FIX", &w, &e), LZ_EUNSAFE);
		assert_non_null(strstr(e.msg, "cannot read"));
		lz_err_release(&e);
		assert_int_equal(lz_protect_inspect(wsfd, ws, "i/locked", 0,
		    "FIX", &w, &e), 'f');
		assert_non_null(strstr(w.buf, "cannot be read"));
	}
	close(wsfd);
	lz_buf_release(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_inspect),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
