/*
 * runsc-argv.c: the runtime shim's argument rewriting (see runsc-argv.h).
 * Pure: no I/O, no exec; src/lazaret-runsc.c does the exec.
 */
#include <stdlib.h>
#include <string.h>

#include "core/runsc-argv.h"

/* runsc 20240729 global flags that take a value ("runsc flags"). */
static const char *const global_value_flags[] = {
	"EXPERIMENTAL-xdp", "TESTONLY-autosave-image-path",
	"TESTONLY-test-name-env", "coverage-fd", "coverage-report", "dcache",
	"debug-command", "debug-log", "debug-log-fd", "debug-log-format",
	"fdlimit", "file-access", "file-access-mounts", "host-fifo",
	"host-uds", "log", "log-fd", "log-format", "metric-server", "network",
	"network-processors-per-channel", "num-network-channels",
	"nvproxy-driver-version", "overlay2", "panic-log", "panic-log-fd",
	"panic-signal", "pcap-log", "platform", "platform_device_path",
	"pod-init-config", "profile-block", "profile-cpu", "profile-heap",
	"profile-mutex", "profiling-metrics", "profiling-metrics-log",
	"profiling-metrics-rate-us", "qdisc", "ref-leak-mode", "root",
	"strace-log-size", "strace-syscalls", "trace", "traceback",
	"watchdog-action", NULL
};

/* Flags of "runsc exec" that take a value ("runsc help exec"). */
static const char *const exec_value_flags[] = {
	"additional-gids", "cap", "console-socket", "cwd", "env", "exec-fd",
	"internal-pid-file", "pass-fd", "pid-file", "process", "user", NULL
};

/* Flags of "runsc create" that take a value ("runsc help create"). */
static const char *const create_value_flags[] = {
	"bundle", "console-socket", "pid-file", "user-log", NULL
};

static int	 flag_parse(const char *arg, const char **name, size_t *len,
		     int *has_value);
static int	 in_table(const char *const *table, const char *name,
		     size_t len);
static int	 flag_is(const char *arg, const char *want);
static int	 takes_value(const char *arg);
static int	 skip_flags(int argc, char *const argv[], int i,
		     const char *const *value_flags);

/*
 * Splits a Go-style flag ("-x", "--x", "-x=v", "--x=v") into its name.
 * Returns 0 when arg is not a flag ("-", "--" or no leading dash).
 */
static int
flag_parse(const char *arg, const char **name, size_t *len, int *has_value)
{
	const char *eq;

	if (arg[0] != '-' || arg[1] == '\0')
		return 0;
	arg += (arg[1] == '-') ? 2 : 1;
	if (*arg == '\0' || *arg == '-' || *arg == '=')
		return 0;
	eq = strchr(arg, '=');
	*name = arg;
	*len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
	*has_value = eq != NULL;
	return 1;
}

static int
in_table(const char *const *table, const char *name, size_t len)
{
	for (; *table != NULL; table++) {
		if (strlen(*table) == len && strncmp(*table, name, len) == 0)
			return 1;
	}
	return 0;
}

/* True when arg is the flag want, in any spelling, with or without "=". */
static int
flag_is(const char *arg, const char *want)
{
	const char *name;
	size_t len;
	int has_value;

	if (!flag_parse(arg, &name, &len, &has_value))
		return 0;
	return strlen(want) == len && strncmp(want, name, len) == 0;
}

/* True when arg is an exec flag whose value is the next argument. */
static int
takes_value(const char *arg)
{
	const char *name;
	size_t len;
	int has_value;

	if (!flag_parse(arg, &name, &len, &has_value))
		return 0;
	return !has_value && in_table(exec_value_flags, name, len);
}

/*
 * Returns the index of the first argument at or after i that is not a flag
 * or a flag's separate value: the subcommand (for global flags) or the
 * container ID (for a subcommand's flags). A "--" ends the flags and is
 * itself the returned index.
 */
static int
skip_flags(int argc, char *const argv[], int i, const char *const *value_flags)
{
	const char *name;
	size_t len;
	int has_value;

	while (i < argc) {
		if (!flag_parse(argv[i], &name, &len, &has_value))
			break;
		if (!has_value && in_table(value_flags, name, len))
			i++;	/* the value is the next argument */
		i++;
	}
	return i < argc ? i : argc;
}

int
lz_runsc_argv_build(int argc, char *const argv[], const char *runsc,
    char ***out, struct lz_err *err)
{
	static char ignore_cgroups[] = "--ignore-cgroups";
	static char network_host[] = "--network=host";
	char **v = NULL;
	int i, n = 0, sub, id, have_cgroups = 0, have_network = 0;

	*out = NULL;
	if (argc < 1 || argv == NULL || runsc == NULL)
		return lz_err_set(err, LZ_EINVAL, "runsc shim called without "
		    "arguments (argc %d)", argc);
	for (i = 0; i < argc; i++) {
		if (argv[i] == NULL)
			return lz_err_set(err, LZ_EINVAL, "runsc shim "
			    "argument %d is NULL", i);
	}

	sub = skip_flags(argc, argv, 1, global_value_flags);
	for (i = 1; i < sub; i++) {
		if (flag_is(argv[i], "ignore-cgroups"))
			have_cgroups = 1;
		if (flag_is(argv[i], "network"))
			have_network = 1;
	}
	/* The exec flags end at the container ID (or "--"). */
	id = sub;
	if (sub < argc && strcmp(argv[sub], "exec") == 0)
		id = skip_flags(argc, argv, sub + 1, exec_value_flags);

	/* argv[0] replaced, up to two flags added, the NULL. */
	v = lz_xreallocarray(NULL, (size_t)argc + 3, sizeof *v);
	v[n++] = (char *)runsc;
	if (!have_cgroups)
		v[n++] = ignore_cgroups;
	if (!have_network)
		v[n++] = network_host;
	for (i = 1; i < argc; i++) {
		if (i > sub && i < id && flag_is(argv[i], "tty"))
			continue;
		v[n++] = argv[i];
		/* A flag's separate value is copied as is, even "--tty". */
		if (i > sub && i + 1 < id && takes_value(argv[i]))
			v[n++] = argv[++i];
	}
	v[n] = NULL;
	*out = v;
	return 0;
}

const char *
lz_runsc_argv_bundle(int argc, char *const argv[])
{
	const char *name, *bundle = ".";
	size_t len;
	int i, sub, has_value;

	if (argc < 1 || argv == NULL)
		return NULL;
	sub = skip_flags(argc, argv, 1, global_value_flags);
	if (sub >= argc || strcmp(argv[sub], "create") != 0)
		return NULL;
	for (i = sub + 1; i < argc; i++) {
		if (!flag_parse(argv[i], &name, &len, &has_value))
			break;
		if (len == 6 && strncmp(name, "bundle", 6) == 0)
			bundle = has_value ? name + 7 : i + 1 < argc ?
			    argv[i + 1] : NULL;
		if (!has_value && in_table(create_value_flags, name, len))
			i++;
	}
	return bundle;
}

void
lz_runsc_argv_free(char **v)
{
	free(v);
}
