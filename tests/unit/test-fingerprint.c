/*
 * test-fingerprint.c: the Configuration Fingerprint ignores key order,
 * whitespace and comments, and changes with every value that changes
 * behaviour.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/config.h"
#include "core/fingerprint.h"

static void
fp_of(const char *text, const char *profile, char out[65])
{
	struct lz_config cfg;
	struct lz_err e = LZ_ERR_INIT;

	if (lz_config_load_buffer(&cfg, "c.ini", text, strlen(text), &e) != 0)
		fail_msg("config error: %s", e.msg);
	assert_int_equal(lz_profile_fingerprint(lz_config_profile(&cfg,
	    profile), out, NULL), 0);
	assert_int_equal(strlen(out), 64);
	lz_config_release(&cfg);
}

static const char base[] =
    "[profile a]\n"
    "image = img:1\n"
    "env = A\n"
    "env = B\n"
    "allow = 10.1.0.0/16\n"
    "deny = 8.8.0.0/16\n"
    "auto-approve = git fetch\n"
    "auto-approve = make ...\n";

static void
test_stable_under_layout(void **state)
{
	static const char shuffled[] =
	    "; comments do not count\n"
	    "[profile a]\n"
	    "auto-approve = make ...\n"
	    "deny=8.8.0.0/16\n"
	    "env = B\n"
	    "\n"
	    "allow =    10.1.0.0/16\n"
	    "# neither do these\n"
	    "image = img:1\n"
	    "auto-approve = git     fetch\n"
	    "env = A\n";
	char a[65], b[65];

	(void)state;
	fp_of(base, "a", a);
	fp_of(shuffled, "a", b);
	assert_string_equal(a, b);
}

static void
test_changes_with_behaviour(void **state)
{
	static const char *const variants[] = {
	    "image = img:2\n", "env = C\n", "allow = 10.2.0.0/16\n",
	    "auto-approve = git push\n", "command = /bin/sh\n",
	    "ignored-isolation = off\n", "escalation-timeout = 9\n",
	    "persist = /srv\n", "resolver = 1.1.1.1\n",
	    "volume = /tmp /t ro\n", "protect = none\n",
	    "protect = .vscode/tasks.json\n",
	    "trust-git-config = team.gitconfig\n",
	    "trust-hooks-path = yes\n",
	    "escalation-env = HOME\n",
	};
	char a[65], b[65], text[512];
	size_t i;

	(void)state;
	fp_of(base, "a", a);
	for (i = 0; i < sizeof variants / sizeof *variants; i++) {
		assert_true((size_t)snprintf(text, sizeof text, "%s%s", base,
		    strstr(variants[i], "image") ? "" : variants[i]) <
		    sizeof text);
		if (strstr(variants[i], "image"))
			snprintf(text, sizeof text, "[profile a]\n%s%s",
			    variants[i], strchr(base + 12, '\n') + 1);
		fp_of(text, "a", b);
		if (strcmp(a, b) == 0)
			fail_msg("'%s' did not change the fingerprint",
			    variants[i]);
	}
}

static void
test_command_order_matters(void **state)
{
	char a[65], b[65];

	(void)state;
	fp_of("[profile a]\ncommand = a b\n", "a", a);
	fp_of("[profile a]\ncommand = b a\n", "a", b);
	assert_string_not_equal(a, b);
	/* The profile name is part of what is fingerprinted. */
	fp_of("[profile b]\ncommand = a b\n", "b", b);
	assert_string_not_equal(a, b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable_under_layout),
		cmocka_unit_test(test_changes_with_behaviour),
		cmocka_unit_test(test_command_order_matters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
