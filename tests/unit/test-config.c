/*
 * test-config.c: config.ini parsing and validation: the built-in default,
 * every key, and one clear file:line error for each kind of bad input,
 * including what Debian's inih would otherwise cut silently.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/config.h"

static struct lz_config
load_ok(const char *text)
{
	struct lz_config cfg;
	struct lz_err e = LZ_ERR_INIT;

	if (lz_config_load_buffer(&cfg, "c.ini", text, strlen(text), &e) != 0)
		fail_msg("unexpected error: %s", e.msg);
	return cfg;
}

/* Each needle must appear in the error message, in order. */
static void
load_bad(const char *text, const char *needle)
{
	struct lz_config cfg;
	struct lz_err e = LZ_ERR_INIT;

	assert_int_not_equal(lz_config_load_buffer(&cfg, "c.ini", text,
	    strlen(text), &e), 0);
	assert_non_null(e.msg);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("error '%s' lacks '%s'", e.msg, needle);
	assert_int_equal(cfg.nprofiles, 0);
	lz_err_release(&e);
}

static void
test_builtin_default(void **state)
{
	struct lz_config cfg = load_ok("");
	const struct lz_profile *p;

	(void)state;
	assert_int_equal(cfg.nprofiles, 1);
	p = lz_config_profile(&cfg, "default");
	assert_non_null(p);
	assert_string_equal(cfg.default_profile, "default");
	assert_string_equal(p->image, LZ_PROFILE_DEFAULT_IMAGE);
	assert_string_equal(p->command.v[0], "/bin/bash");
	assert_true(p->ignored_isolation);
	assert_int_equal(p->nresolvers, 1);
	assert_int_equal(p->escalation_timeout, 300);
	assert_int_equal(p->history_keep, 7 * 86400);
	lz_config_release(&cfg);
}

static void
test_full_profile(void **state)
{
	static const char text[] =
	    "; a comment\n"
	    "# another\n"
	    "[lazaret]\n"
	    "default-profile = claude\n"
	    "\n"
	    "[profile claude]\n"
	    "image = localhost/lazaret/claude:1\n"
	    "command = claude --dangerously-skip-permissions\n"
	    "env = ANTHROPIC_API_KEY\n"
	    "env = TERM_PROGRAM\n"
	    "volume = /srv/data /data ro\n"
	    "volume = /srv/with%20space /cache\n"
	    "persist = /usr/local\n"
	    "persist = /root\n"
	    "ignored-isolation = off\n"
	    "allow = 10.1.0.0/16\n"
	    "deny = 198.18.0.0/15\n"
	    "resolver = 10.1.2.3\n"
	    "escalation-timeout = 60\n"
	    "auto-approve = git fetch\n"
	    "auto-approve = git log ...\n"
	    "auto-approve = make test%20all%3B%20echo\n"
	    "history-keep = 36h\n";
	struct lz_config cfg = load_ok(text);
	const struct lz_profile *p = lz_config_profile(&cfg, "claude");

	(void)state;
	assert_non_null(p);
	assert_string_equal(cfg.default_profile, "claude");
	assert_string_equal(p->source, "c.ini:6");
	assert_string_equal(p->image, "localhost/lazaret/claude:1");
	assert_int_equal(p->command.n, 2);
	assert_int_equal(p->env.n, 2);
	assert_int_equal(p->nvolumes, 2);
	assert_true(p->volumes[0].readonly);
	assert_string_equal(p->volumes[1].host, "/srv/with space");
	assert_false(p->volumes[1].readonly);
	assert_int_equal(p->persist.n, 2);	/* replaces the defaults */
	assert_false(p->ignored_isolation);
	assert_int_equal(p->rules.n, 2);
	assert_string_equal(p->rules.v[0].source, "c.ini:16");
	assert_int_equal(p->nresolvers, 1);	/* replaces 10.0.2.3 */
	assert_int_equal(p->escalation_timeout, 60);
	assert_int_equal(p->history_keep, 36 * 3600);
	assert_int_equal(p->napprove, 3);
	assert_true(p->approve[1].trailing);
	assert_string_equal(p->approve[2].argv.v[1], "test all; echo");
	assert_non_null(lz_config_profile(&cfg, "default"));
	/* "git log ..." and make (it runs the workspace's Makefile) are
	 * flagged at load, with file:line. */
	assert_non_null(strstr(cfg.warnings.buf, "c.ini:21: auto-approve "
	    "'git log ...': it allows any trailing arguments"));
	assert_non_null(strstr(cfg.warnings.buf, "c.ini:22: auto-approve "
	    "'make test%20all%3B%20echo': 'make' runs code it is given"));
	assert_null(strstr(cfg.warnings.buf, "c.ini:20"));
	lz_config_release(&cfg);
}

/* A profile's section again, adding rules: what a saved rule appends. */
static void
test_repeated_section_adds_rules(void **state)
{
	struct lz_config cfg = load_ok("[profile a]\nauto-approve = git "
	    "fetch origin\n[tui]\nhistory = 5\n[profile a]\nauto-approve = "
	    "git push origin main\n[profile default]\n[profile default]\n"
	    "auto-approve = git status\n");
	const struct lz_profile *p = lz_config_profile(&cfg, "a");

	(void)state;
	assert_int_equal(p->napprove, 2);
	assert_string_equal(p->approve[1].source, "c.ini:6");
	assert_string_equal(p->source, "c.ini:1");
	p = lz_config_profile(&cfg, "default");
	assert_int_equal(p->napprove, 1);
	assert_string_equal(p->source, "c.ini:7");
	assert_int_equal(cfg.tui.history, 5);
	lz_config_release(&cfg);
}

static void
test_escalation_env(void **state)
{
	struct lz_config cfg = load_ok("[profile a]\n"
	    "escalation-env = HOME PATH\n"
	    "escalation-env = SSH_AUTH_SOCK HOME\n"
	    "[profile b]\n"
	    "escalation-env =\n");
	const struct lz_profile *p;

	(void)state;
	p = lz_config_profile(&cfg, "default");
	assert_int_equal(p->escalation_env.n, 9);
	assert_string_equal(p->escalation_env.v[0], "HOME");
	assert_true(lz_tokens_has(&p->escalation_env, "SSH_AUTH_SOCK"));
	assert_true(lz_tokens_has(&p->escalation_env,
	    "DBUS_SESSION_BUS_ADDRESS"));
	p = lz_config_profile(&cfg, "a");
	assert_int_equal(p->escalation_env.n, 3);
	assert_string_equal(p->escalation_env.v[2], "SSH_AUTH_SOCK");
	p = lz_config_profile(&cfg, "b");
	assert_int_equal(p->escalation_env.n, 0);
	lz_config_release(&cfg);
	load_bad("[profile a]\nescalation-env = HOME 1X\n", "c.ini:2: "
	    "escalation-env '1X' is not a variable name");
}

static void
test_default_section_adjusts_builtin(void **state)
{
	struct lz_config cfg = load_ok("[profile default]\n"
	    "escalation-timeout = 30\n");

	(void)state;
	assert_int_equal(cfg.nprofiles, 1);
	assert_int_equal(cfg.profiles[0].escalation_timeout, 30);
	assert_string_equal(cfg.profiles[0].source, "c.ini:1");
	lz_config_release(&cfg);
}

static void
test_errors_name_line_and_fix(void **state)
{
	(void)state;
	load_bad("[profile a]\nimgae = x\n", "c.ini:2: unknown key 'imgae'");
	load_bad("[profle a]\n", "c.ini:1: unknown section '[profle a]'");
	load_bad("[profile A!]\n", "c.ini:1: profile name 'A!'");
	load_bad("[profile a]\nallow = 10.0.0.1/8\n",
	    "c.ini:2: '10.0.0.1/8' has host bits set (did you mean "
	    "10.0.0.0/8?)");
	load_bad("[profile a]\nallow = 10.0.0.0/8\n",
	    "c.ini:2: allow 10.0.0.0/8 conflicts with deny 10.0.0.0/8 "
	    "(built-in: RFC 1918");
	load_bad("[profile a]\ndeny = 10.0.2.3/32\n",
	    "c.ini:2: deny 10.0.2.3/32 conflicts with allow 10.0.2.3/32 "
	    "(built-in: slirp4netns DNS: route to DNS resolver)");
	load_bad("[profile a]\nresolver = 10.9.9.9\ndeny = 10.9.9.9/32\n",
	    "c.ini:3: deny 10.9.9.9/32 conflicts with allow 10.9.9.9/32 "
	    "(c.ini:2: route to DNS resolver)");
	load_bad("[profile a]\nimage = x\nimage = y\n",
	    "c.ini:3: 'image' is set twice");
	load_bad("[profile a]\nescalation-timeout = 0\n",
	    "c.ini:2: escalation-timeout must be");
	load_bad("[profile a]\nescalation-timeout = 10s\n", "not '10s'");
	load_bad("[profile a]\nhistory-keep = 7\n",
	    "c.ini:2: history-keep must be a number of days, hours or "
	    "minutes from 1m to 365d, like 'history-keep = 7d', not '7'");
	load_bad("[profile a]\nhistory-keep = 366d\n", "not '366d'");
	load_bad("[profile a]\nhistory-keep = 0m\n", "not '0m'");
	load_bad("[profile a]\nhistory-keep = 7 d\n", "not '7 d'");
	load_bad("[profile a]\nhistory-keep = -1d\n", "not '-1d'");
	load_bad("[profile a]\nhistory-keep = 7dd\n", "not '7dd'");
	load_bad("[profile a]\nhistory-keep = 99999999999999999999d\n",
	    "history-keep must be");
	load_bad("[profile a]\nhistory-keep = 1d\nhistory-keep = 2d\n",
	    "c.ini:3: 'history-keep' is set twice");
	load_bad("[profile a]\nignored-isolation = maybe\n",
	    "c.ini:2: ignored-isolation must be");
	load_bad("[profile a]\nenv = A=B\n", "c.ini:2: env 'A=B'");
	load_bad("[profile a]\nvolume = /a\n", "c.ini:2: volume must be");
	load_bad("[profile a]\nvolume = rel /x\n", "not absolute");
	load_bad("[profile a]\nvolume = /a /workspace/x\n",
	    "which Lazaret manages");
	load_bad("[profile a]\npersist = /usr\npersist = /usr/local\n",
	    "persist '/usr/local' lies inside persist '/usr'");
	load_bad("[profile a]\npersist = /a/../b\n", "not normalised");
	load_bad("[profile a]\nauto-approve = ...\n", "c.ini:2: an "
	    "auto-approve rule must start with the program");
	load_bad("[lazaret]\ndefault-profile = nope\n",
	    "default-profile 'nope' is not defined");
	load_bad("image = x\n", "c.ini:1: 'image' is outside any section");
	load_bad("[profile a]\n[profile a]\nimage = x\n", "c.ini:3: profile "
	    "'a' is defined twice");
	load_bad("[profile default]\n[tui]\n[profile default]\ncommand = "
	    "x\n", "c.ini:4: profile 'default' is defined twice");
	load_bad("[profile a]\nthis is not a pair\n", "c.ini:2: not 'key = "
	    "value'");
	load_bad("[profile a\n", "c.ini:1: section header must end");
	load_bad("[profile a]\nresolver = 10.0.0.0/8\n", "must be one "
	    "address");
}

static void
test_inih_traps(void **state)
{
	char line[400];

	(void)state;
	/* An inline comment would cut the value: refused, never accepted. */
	load_bad("[profile a]\ncommand = echo a ;b\n",
	    "c.ini:2: ' ;' starts an inline comment");
	/* Indentation would make a continuation line. */
	load_bad("[profile a]\nenv = A\n  env = B\n",
	    "c.ini:3: line starts with whitespace");
	/* Over-long line: inih 55 would split it and cut the value. */
	snprintf(line, sizeof line, "[profile a]\ncommand = echo %0250d\n", 0);
	load_bad(line, "c.ini:2: line is 265 bytes long, over the limit");
	load_bad("[profile a]\ncommand = echo \xff\n", "c.ini:2: is not "
	    "valid UTF-8");
	{
		static const char nul[] = "[profile a]\nimage = a\0b\n";
		struct lz_config cfg;
		struct lz_err e = LZ_ERR_INIT;

		assert_int_equal(lz_config_load_buffer(&cfg, "c.ini", nul,
		    sizeof nul - 1, &e), LZ_EINVAL);
		assert_non_null(strstr(e.msg, "c.ini:2: contains a NUL"));
		lz_err_release(&e);
	}
	/* Several errors are reported at once, each with its line. */
	{
		struct lz_config cfg;
		struct lz_err e = LZ_ERR_INIT;
		static const char two[] = "[profile a]\nfoo = 1\nbar = 2\n";

		assert_int_equal(lz_config_load_buffer(&cfg, "c.ini", two,
		    sizeof two - 1, &e), LZ_EINVAL);
		assert_non_null(strstr(e.msg, "c.ini:2: unknown key 'foo'"));
		assert_non_null(strstr(e.msg, "c.ini:3: unknown key 'bar'"));
		lz_err_release(&e);
	}
}

static void
test_file_checks(void **state)
{
	char dir[] = "/tmp/lz-test-config-XXXXXX", path[64];
	struct lz_config cfg;
	struct lz_err e = LZ_ERR_INIT;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/config.ini", dir);
	/* Missing file: built-in profiles. */
	assert_int_equal(lz_config_load(&cfg, path, &e), 0);
	assert_null(cfg.path);
	lz_config_release(&cfg);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[profile x]\nimage = y\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(lz_config_load(&cfg, path, &e), 0);
	assert_non_null(cfg.path);
	assert_non_null(lz_config_profile(&cfg, "x"));
	lz_config_release(&cfg);

	/* Errors from a file name the file's path and line. */
	f = fopen(path, "w");
	fputs("[profile x]\nbogus = 1\n", f);
	fclose(f);
	assert_int_equal(lz_config_load(&cfg, path, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "config.ini:2: unknown key"));
	lz_err_release(&e);

	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(lz_config_load(&cfg, path, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "writable by group or others"));
	lz_err_release(&e);

	assert_int_equal(chmod(path, 0600), 0);
	if (geteuid() == 0) {
		/* Another user's file: refused even when readable. */
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(lz_config_load(&cfg, path, &e), LZ_EUNSAFE);
		assert_non_null(strstr(e.msg, "not to you"));
		lz_err_release(&e);
	}
	unlink(path);
	/* A directory where the file should be. */
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_not_equal(lz_config_load(&cfg, path, &e), 0);
	assert_non_null(e.msg);
	lz_err_release(&e);
	rmdir(path);
	rmdir(dir);
}

/* protect (SR-4): defaults, replacing, none, bad paths; trust-git-config. */
static void
test_protect(void **state)
{
	struct lz_config cfg;
	const struct lz_profile *p;

	(void)state;
	cfg = load_ok("");
	p = lz_config_profile(&cfg, "default");
	assert_true(lz_tokens_has(&p->protect, ".vscode/tasks.json"));
	assert_true(lz_tokens_has(&p->protect,
	    ".devcontainer/devcontainer.json"));
	assert_string_equal(p->protect_source, "built-in");
	assert_int_equal(p->trust_git_config.n, 0);
	lz_config_release(&cfg);

	cfg = load_ok("[profile a]\nprotect = .vscode/launch.json tools/*.sh\n"
	    "protect = .x\ntrust-git-config = team.gitconfig\n"
	    "trust-git-config = cfg/local.gitconfig\n");
	p = lz_config_profile(&cfg, "a");
	assert_int_equal(p->protect.n, 3);
	assert_string_equal(p->protect.v[0], ".vscode/launch.json");
	assert_string_equal(p->protect.v[1], "tools/*.sh");
	assert_string_equal(p->protect.v[2], ".x");
	assert_string_equal(p->protect_source, "c.ini:2");
	assert_int_equal(p->trust_git_config.n, 2);
	lz_config_release(&cfg);

	cfg = load_ok("[profile a]\nprotect = none\n");
	p = lz_config_profile(&cfg, "a");
	assert_int_equal(p->protect.n, 0);
	assert_string_equal(p->protect_source, "c.ini:2");
	lz_config_release(&cfg);

	load_bad("[profile a]\nprotect = none .x\n", "'none' alone");
	load_bad("[profile a]\nprotect = .x\nprotect = none\n",
	    "cannot be combined");
	load_bad("[profile a]\nprotect = none\nprotect = .x\n",
	    "cannot be combined");
	load_bad("[profile a]\nprotect = ../x\n", "relative to the workspace");
	load_bad("[profile a]\nprotect = /etc/x\n",
	    "relative to the workspace");
	load_bad("[profile a]\nprotect = a//b\n", "relative to the workspace");
	load_bad("[profile a]\nprotect = .git/config\n",
	    "Git Sentry protects on its own");
	load_bad("[profile a]\nprotect = [ab].json\n", "has a '['");
	load_bad("[profile a]\ntrust-git-config = *.gitconfig\n",
	    "without wildcards");
	load_bad("[profile a]\ntrust-git-config = ./x\n",
	    "relative to the workspace");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_default),
		cmocka_unit_test(test_full_profile),
		cmocka_unit_test(test_default_section_adjusts_builtin),
		cmocka_unit_test(test_escalation_env),
		cmocka_unit_test(test_repeated_section_adds_rules),
		cmocka_unit_test(test_errors_name_line_and_fix),
		cmocka_unit_test(test_inih_traps),
		cmocka_unit_test(test_file_checks),
		cmocka_unit_test(test_protect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
