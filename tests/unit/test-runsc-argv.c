/*
 * test-runsc-argv.c: unit tests of core/runsc-argv.c, the runtime shim's
 * argument rewriting, with the exact argument lists podman 4.3 and conmon
 * 2.1.6 were seen passing (create, start, exec, exec -t, kill, delete).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/runsc-argv.h"

#define RUNSC "/usr/bin/runsc"

/* Rewrites in[] (NULL-terminated) and compares with want[]. */
static void
check(const char *const *in, const char *const *want)
{
	struct lz_err err = LZ_ERR_INIT;
	char **out = NULL;
	int argc = 0, i;

	while (in[argc] != NULL)
		argc++;
	assert_int_equal(lz_runsc_argv_build(argc, (char *const *)in, RUNSC,
	    &out, &err), 0);
	assert_null(err.msg);
	for (i = 0; want[i] != NULL; i++) {
		assert_non_null(out[i]);
		assert_string_equal(out[i], want[i]);
	}
	assert_null(out[i]);
	lz_runsc_argv_free(out);
}

static void
test_create(void **state)
{
	const char *in[] = { "lazaret-runsc", "create", "--bundle", "/b",
	    "--pid-file", "/p", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "create", "--bundle", "/b", "--pid-file", "/p", "ID", NULL };

	(void)state;
	check(in, want);
}

static void
test_exec_tty_dropped(void **state)
{
	const char *in[] = { "lazaret-runsc", "exec", "--pid-file", "/p",
	    "--process", "/f", "--detach", "--tty", "--console-socket",
	    "/tmp/conmon-term.X", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "--pid-file", "/p", "--process", "/f", "--detach",
	    "--console-socket", "/tmp/conmon-term.X", "ID", NULL };

	(void)state;
	check(in, want);
}

static void
test_exec_tty_spellings(void **state)
{
	const char *in[] = { "x", "exec", "-tty", "--tty=true", "-tty=false",
	    "--detach", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "--detach", "ID", NULL };

	(void)state;
	check(in, want);
}

/* Without -t conmon passes no --tty: nothing is dropped. */
static void
test_exec_no_tty(void **state)
{
	const char *in[] = { "x", "exec", "--pid-file", "/p", "--process",
	    "/f", "--detach", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "--pid-file", "/p", "--process", "/f", "--detach", "ID",
	    NULL };

	(void)state;
	check(in, want);
}

/* The command after the container ID keeps its own --tty. */
static void
test_exec_command_args_kept(void **state)
{
	const char *in[] = { "x", "exec", "--tty", "ID", "prog", "--tty",
	    "-tty", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "ID", "prog", "--tty", "-tty", NULL };

	(void)state;
	check(in, want);
}

/* A flag's separate value is never taken for a flag, even "--tty". */
static void
test_exec_value_not_dropped(void **state)
{
	const char *in[] = { "x", "exec", "--cwd", "--tty", "--env", "A=1",
	    "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "--cwd", "--tty", "--env", "A=1", "ID", NULL };

	(void)state;
	check(in, want);
}

/* Only exec loses --tty; "--" ends the exec flags. */
static void
test_tty_other_subcommands(void **state)
{
	const char *in1[] = { "x", "run", "--tty", "ID", NULL };
	const char *want1[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "run", "--tty", "ID", NULL };
	const char *in2[] = { "x", "exec", "--", "--tty", NULL };
	const char *want2[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "exec", "--", "--tty", NULL };

	(void)state;
	check(in1, want1);
	check(in2, want2);
}

/* Global flags given by the caller are not doubled. */
static void
test_globals_present(void **state)
{
	const char *in1[] = { "x", "--root", "/r", "-ignore-cgroups",
	    "--network", "none", "state", "ID", NULL };
	const char *want1[] = { RUNSC, "--root", "/r", "-ignore-cgroups",
	    "--network", "none", "state", "ID", NULL };
	const char *in2[] = { "x", "--network=sandbox", "delete", "ID", NULL };
	const char *want2[] = { RUNSC, "--ignore-cgroups",
	    "--network=sandbox", "delete", "ID", NULL };

	(void)state;
	check(in1, want1);
	check(in2, want2);
}

/* A global value flag's value is not taken for the subcommand. */
static void
test_global_value_then_exec(void **state)
{
	const char *in[] = { "x", "--root", "exec", "--debug", "exec",
	    "--tty", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "--root", "exec", "--debug", "exec", "ID", NULL };

	(void)state;
	check(in, want);
}

/* "--network" after the subcommand is the subcommand's, not global. */
static void
test_network_after_subcommand(void **state)
{
	const char *in[] = { "x", "create", "--network=none", "ID", NULL };
	const char *want[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "create", "--network=none", "ID", NULL };

	(void)state;
	check(in, want);
}

static void
test_no_subcommand(void **state)
{
	const char *in1[] = { "x", "--version", NULL };
	const char *want1[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    "--version", NULL };
	const char *in2[] = { "x", NULL };
	const char *want2[] = { RUNSC, "--ignore-cgroups", "--network=host",
	    NULL };

	(void)state;
	check(in1, want1);
	check(in2, want2);
}

static void
test_bad_input(void **state)
{
	struct lz_err err = LZ_ERR_INIT;
	char *in[] = { "x", NULL, NULL };
	char **out = (char **)&err;

	(void)state;
	assert_int_equal(lz_runsc_argv_build(0, in, RUNSC, &out, &err),
	    LZ_EINVAL);
	assert_null(out);
	assert_non_null(err.msg);
	lz_err_release(&err);
	assert_int_equal(lz_runsc_argv_build(2, in, RUNSC, &out, &err),
	    LZ_EINVAL);
	assert_non_null(strstr(err.msg, "NULL"));
	lz_err_release(&err);
	lz_runsc_argv_free(NULL);
}

/* The bundle of "create" (any spelling), for the shim's anchors. */
static void
test_bundle(void **state)
{
	const char *create[] = { "x", "--root", "/r", "create", "--bundle",
	    "/b", "--pid-file", "/p", "ID", NULL };
	const char *eq[] = { "x", "create", "-pid-file", "/p", "-bundle=/c",
	    "ID", NULL };
	const char *none[] = { "x", "create", "--pid-file", "/p", "ID", NULL };
	const char *cut[] = { "x", "create", "--bundle", NULL };
	const char *start[] = { "x", "start", "--bundle", "/b", "ID", NULL };
	const char *value[] = { "x", "create", "--console-socket", "--bundle",
	    "ID", NULL };

	(void)state;
	assert_string_equal(lz_runsc_argv_bundle(9, (char *const *)create),
	    "/b");
	assert_string_equal(lz_runsc_argv_bundle(6, (char *const *)eq), "/c");
	assert_string_equal(lz_runsc_argv_bundle(5, (char *const *)none), ".");
	assert_null(lz_runsc_argv_bundle(3, (char *const *)cut));
	assert_null(lz_runsc_argv_bundle(5, (char *const *)start));
	/* A flag's separate value is never taken for --bundle. */
	assert_string_equal(lz_runsc_argv_bundle(5, (char *const *)value),
	    ".");
	assert_null(lz_runsc_argv_bundle(0, NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_exec_tty_dropped),
		cmocka_unit_test(test_exec_tty_spellings),
		cmocka_unit_test(test_exec_no_tty),
		cmocka_unit_test(test_exec_command_args_kept),
		cmocka_unit_test(test_exec_value_not_dropped),
		cmocka_unit_test(test_tty_other_subcommands),
		cmocka_unit_test(test_globals_present),
		cmocka_unit_test(test_global_value_then_exec),
		cmocka_unit_test(test_network_after_subcommand),
		cmocka_unit_test(test_no_subcommand),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bundle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
