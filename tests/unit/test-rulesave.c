/*
 * test-rulesave.c: a rule saved from a prompt (core/rulesave.h) is
 * appended to the config file the Domain loaded, under the right profile,
 * reads back as before plus that rule, matches the next identical request,
 * and gives the fingerprint a fresh load of the file gives (so new panes
 * are not refused). Refused with the file untouched: a symlink, another
 * owner, a mode others can write, a line over the parser's limit, a file
 * edited or replaced since it was loaded, a lock held elsewhere.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/hostcmd.h"
#include "core/rulesave.h"
#include "testlib.h"

static char tmp[] = "/tmp/lz-rulesave-XXXXXX";
static char cfgpath[128];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(tmp) == NULL)
		return -1;
	snprintf(cfgpath, sizeof cfgpath, "%s/config.ini", tmp);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(tmp);
	return 0;
}

static void
put(const char *text)
{
	unlink(cfgpath);
	lz_test_put(tmp, "config.ini", text);
	assert_int_equal(chmod(cfgpath, 0600), 0);
}

static char *
slurp(const char *path)
{
	struct lz_buf b = LZ_BUF_INIT;
	char chunk[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		lz_buf_add(&b, chunk, (size_t)n);
	close(fd);
	return lz_buf_detach(&b);
}

static void
load(struct lz_config *cfg, const char *path)
{
	struct lz_err e = LZ_ERR_INIT;

	if (lz_config_load(cfg, path, &e) != 0)
		fail_msg("%s", e.msg);
}

static void
argv_of(struct lz_tokens *t, const char *a, const char *b, const char *c)
{
	lz_tokens_push(t, a);
	if (b != NULL)
		lz_tokens_push(t, b);
	if (c != NULL)
		lz_tokens_push(t, c);
}

/*
 * Saves argv to profile and checks the file, the Domain's profile and the
 * fingerprint against a fresh load of the file.
 */
static void
save_ok(struct lz_config *cfg, const char *profile,
    const struct lz_tokens *argv, const char *tail)
{
	struct lz_config fresh;
	struct lz_err e = LZ_ERR_INIT;
	char fp[LZ_FINGERPRINT_HEX + 1], want[LZ_FINGERPRINT_HEX + 1];
	char *text, *program = NULL;
	size_t before = lz_config_profile(cfg, profile)->napprove;

	if (lz_rulesave(cfg, profile, argv, "/usr/bin:/bin", fp, &e) != 0)
		fail_msg("%s", e.msg);
	text = slurp(cfgpath);
	if (strlen(text) < strlen(tail) ||
	    strcmp(text + strlen(text) - strlen(tail), tail) != 0)
		fail_msg("the file ends '%s', not '%s'", text, tail);
	free(text);
	assert_int_equal(lz_config_profile(cfg, profile)->napprove,
	    before + 1);
	load(&fresh, cfgpath);
	assert_int_equal(lz_profile_fingerprint(lz_config_profile(&fresh,
	    profile), want, NULL), 0);
	assert_string_equal(fp, want);
	lz_config_release(&fresh);
	/* The next identical request is allowed by the Domain's rules. */
	assert_int_equal(lz_hostcmd_resolve(argv->v[0], "/usr/bin:/bin",
	    &program, NULL), 0);
	assert_non_null(lz_rules_find(lz_config_profile(cfg,
	    profile)->approve, before + 1, argv->v, argv->n, program));
	free(program);
}

/* A refusal leaves the file byte for byte and the Domain as they were. */
static void
save_bad(struct lz_config *cfg, const char *profile,
    const struct lz_tokens *argv, int code, const char *needle)
{
	struct lz_err e = LZ_ERR_INIT;
	char fp[LZ_FINGERPRINT_HEX + 1] = "", *before, *after;
	const struct lz_profile *p = lz_config_profile(cfg, profile);
	size_t n = p ? p->napprove : 0;
	struct stat st;

	before = lstat(cfgpath, &st) == 0 ? slurp(cfgpath) : NULL;
	assert_int_equal(lz_rulesave(cfg, profile, argv, NULL, fp, &e), code);
	assert_non_null(e.msg);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", e.msg, needle);
	assert_string_equal(fp, "");
	if (before != NULL) {
		after = slurp(cfgpath);
		assert_string_equal(after, before);
		free(after);
	}
	free(before);
	if (p != NULL)
		assert_int_equal(p->napprove, n);
	lz_err_release(&e);
}

static void
test_append_same_section(void **state)
{
	struct lz_tokens a = LZ_TOKENS_INIT, b = LZ_TOKENS_INIT;
	struct lz_config cfg;

	(void)state;
	put("[tui]\nhistory = 50\n[profile a]\nauto-approve = git fetch "
	    "origin\n");
	load(&cfg, cfgpath);
	argv_of(&a, "git", "push", "origin");
	save_ok(&cfg, "a", &a, "origin\n\n# saved from a Lazaret escalation "
	    "prompt\nauto-approve = git push origin\n");
	/* Again: still the last section, no header. */
	argv_of(&b, "git", "status", NULL);
	save_ok(&cfg, "a", &b, "push origin\n\n# saved from a Lazaret "
	    "escalation prompt\nauto-approve = git status\n");
	assert_string_equal(lz_config_profile(&cfg, "a")->approve[2].source +
	    strlen(cfgpath), ":10");
	lz_config_release(&cfg);
	lz_tokens_release(&a);
	lz_tokens_release(&b);
}

static void
test_append_new_section(void **state)
{
	struct lz_tokens a = LZ_TOKENS_INIT;
	struct lz_config cfg;

	(void)state;
	/* The last section is another one, and there is no final newline. */
	put("[profile a]\nimage = img:1\n[profile b]\ncommand = sh");
	load(&cfg, cfgpath);
	argv_of(&a, "git", "commit", "-m");
	lz_tokens_push(&a, "fix \xe2\x80\xae; x");
	save_ok(&cfg, "a", &a, "sh\n\n# saved from a Lazaret escalation "
	    "prompt\n[profile a]\nauto-approve = git commit -m "
	    "fix%20%E2%80%AE%3B%20x\n");
	lz_config_release(&cfg);
	lz_tokens_release(&a);
}

static void
test_no_file_yet(void **state)
{
	struct lz_tokens a = LZ_TOKENS_INIT;
	struct lz_config cfg;
	struct stat st;

	(void)state;
	unlink(cfgpath);
	load(&cfg, cfgpath);
	argv_of(&a, "git", "fetch", NULL);
	save_ok(&cfg, "default", &a, "# saved from a Lazaret escalation "
	    "prompt\n[profile default]\nauto-approve = git fetch\n");
	assert_int_equal(stat(cfgpath, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_non_null(cfg.path);
	lz_config_release(&cfg);
	lz_tokens_release(&a);
}

static void
test_refusals(void **state)
{
	struct lz_tokens a = LZ_TOKENS_INIT, big = LZ_TOKENS_INIT;
	struct lz_buf longarg = LZ_BUF_INIT;
	struct lz_config cfg;
	char real[160];
	int fd;

	(void)state;
	argv_of(&a, "git", "push", NULL);
	/* A symlink (a dotfile manager's) is not written through. */
	snprintf(real, sizeof real, "%s/real.ini", tmp);
	lz_test_put(tmp, "real.ini", "[profile a]\n");
	assert_int_equal(chmod(real, 0600), 0);
	unlink(cfgpath);
	assert_int_equal(symlink(real, cfgpath), 0);
	load(&cfg, cfgpath);
	save_bad(&cfg, "a", &a, LZ_EUNSAFE, "is a symlink");
	save_bad(&cfg, "a", &a, LZ_EUNSAFE, "by hand: auto-approve = git "
	    "push");
	lz_config_release(&cfg);
	/* Group-writable; another owner. */
	put("[profile a]\n");
	load(&cfg, cfgpath);
	assert_int_equal(chmod(cfgpath, 0620), 0);
	save_bad(&cfg, "a", &a, LZ_EUNSAFE, "only you can write");
	assert_int_equal(chmod(cfgpath, 0600), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(cfgpath, 65534, 65534), 0);
		save_bad(&cfg, "a", &a, LZ_EUNSAFE, "that you own");
		assert_int_equal(chown(cfgpath, 0, 0), 0);
	} else
		print_message("not root: the other-owner case is skipped\n");
	/* A line over inih's limit. */
	while (longarg.len < 200)
		lz_buf_adds(&longarg, "long");
	argv_of(&big, "echo", longarg.buf, NULL);
	save_bad(&cfg, "a", &big, LZ_EINVAL, "over the limit of 198");
	save_bad(&cfg, "nope", &a, LZ_EINVAL, "no profile 'nope'");
	/* Locked by another process (another open file description). */
	fd = open(cfgpath, O_RDONLY);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	save_bad(&cfg, "a", &a, LZ_EBUSY, "locked");
	close(fd);
	/* Edited since the Domain loaded it. */
	lz_test_put(tmp, "config.ini", "[profile a]\nimage = other\n");
	save_bad(&cfg, "a", &a, LZ_ECONFLICT, "was edited since");
	lz_config_release(&cfg);
	/* Replaced by another file with the same text (an editor's save). */
	put("[profile a]\n");
	load(&cfg, cfgpath);
	lz_test_put(tmp, "new.ini", "[profile a]\n");
	snprintf(real, sizeof real, "%s/new.ini", tmp);
	assert_int_equal(chmod(real, 0600), 0);
	assert_int_equal(rename(real, cfgpath), 0);
	save_bad(&cfg, "a", &a, LZ_ECONFLICT, "not the file this Domain "
	    "loaded");
	lz_config_release(&cfg);
	lz_buf_release(&longarg);
	lz_tokens_release(&a);
	lz_tokens_release(&big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_same_section),
		cmocka_unit_test(test_append_new_section),
		cmocka_unit_test(test_no_file_yet),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
