/*
 * test-hostcmd.c: approved host commands with real processes (core/
 * hostcmd.h): status, environment, no terminal, stdin /dev/null; the
 * whole tree killed on cancel and when the coordinator (a process of
 * this test standing in for it) is SIGKILLed, within a second; a
 * directory with a symlink planted on the way runs at the top level.
 * The commands are this test binary again with LZ_HOSTCMD_HELPER set (no
 * shell snippets).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/hostcmd.h"
#include "testlib.h"

extern char **environ;

static char self[PATH_MAX];
static char tmp[] = "/tmp/lz-hostcmd-XXXXXX";

/* The programs the tests run. */
static int
helper_main(const char *mode, int argc, char **argv)
{
	char cwd[PATH_MAX];
	struct stat st, null;
	pid_t kid;
	int i;

	if (strcmp(mode, "echo") == 0) {
		for (i = 0; i < argc; i++)
			printf("arg %s\n", argv[i]);
		for (i = 0; environ[i] != NULL; i++)
			printf("env %s\n", environ[i]);
		fprintf(stderr, "to stderr\n");
		return 3;
	}
	if (strcmp(mode, "pwd") == 0)
		return puts(getcwd(cwd, sizeof cwd) ? cwd : "?") < 0;
	if (strcmp(mode, "alone") == 0) {
		/* Its own group, not a session leader, no terminal. */
		fstat(0, &st);
		stat("/dev/null", &null);
		printf("group %d leader %d tty %d null %d\n",
		    getpgid(0) == getpid(), getsid(0) == getpid(),
		    open("/dev/tty", O_RDWR) >= 0 || errno != ENXIO,
		    st.st_rdev == null.st_rdev);
		return 0;
	}
	if (strcmp(mode, "signal") == 0) {
		raise(SIGTERM);
		return 1;
	}
	if (strcmp(mode, "grandchild") == 0 || strcmp(mode, "daemon") == 0) {
		if ((kid = fork()) == 0) {
			/* A daemon leaves the group and the session. */
			if (mode[0] == 'd' && (setsid() < 0 || fork() != 0))
				_exit(0);
			printf("%d\n", getpid());
			fflush(stdout);
			sleep(100);
			_exit(0);
		}
		printf("%d\n", getpid());
		fflush(stdout);
		sleep(100);
		return 0;
	}
	return 99;
}

static int
setup_group(void **state)
{
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0 || mkdtemp(tmp) == NULL)
		return -1;
	self[n] = '\0';
	return 0;
}

static int
teardown_group(void **state)
{
	(void)state;
	lz_test_rmrf(tmp);
	return 0;
}

/* Starts the helper in mode with the directory fd (or -1). */
static void
start(const char *mode, const char *const *extra_env, int dirfd,
    struct lz_hostcmd *h)
{
	const char *argv[] = { "helper", "two words", "\033[31m", NULL };
	const char *envp[8];
	struct lz_hostcmd_spec s;
	struct lz_err err = LZ_ERR_INIT;
	char mode_env[64];
	size_t i = 0;

	snprintf(mode_env, sizeof mode_env, "LZ_HOSTCMD_HELPER=%s", mode);
	envp[i++] = mode_env;
	while (extra_env != NULL && *extra_env != NULL && i < 7)
		envp[i++] = *extra_env++;
	envp[i] = NULL;
	memset(&s, 0, sizeof s);
	s.argv = argv;
	s.program = self;
	s.envp = envp;
	s.dirfd = dirfd;
	if (lz_hostcmd_start(&s, h, &err) != 0)
		fail_msg("%s", err.msg);
}

/* Everything on fd until EOF. */
static char *
slurp(int fd)
{
	struct lz_buf b = LZ_BUF_INIT;
	char chunk[4096];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof chunk)) > 0 ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			lz_buf_add(&b, chunk, (size_t)n);
	close(fd);
	return lz_buf_detach(&b);
}

/* One line of fd (a pid the helper printed). */
static pid_t
read_pid(int fd)
{
	char line[32];
	size_t n = 0;

	while (n < sizeof line - 1 && read(fd, line + n, 1) == 1 &&
	    line[n] != '\n')
		n++;
	line[n] = '\0';
	return (pid_t)atoi(line);
}

static int
reap(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* Reaps pid, failing the test when it has not ended within 2 s. */
static int
reap_soon(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int st = 0, i;

	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	reap(pid);
	fail_msg("the supervisor %d did not end within 2 s", (int)pid);
	return -1;
}

/* Waits up to ms for pid to be gone; returns 1 when it is. */
static int
gone_within(pid_t pid, int ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < ms / 10; i++) {
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return 1;
		nanosleep(&ts, NULL);
	}
	return kill(pid, 0) != 0 && errno == ESRCH;
}

static void
test_status_output(void **state)
{
	const char *keep[] = { "PATH=/usr/bin:/bin", NULL };
	struct lz_hostcmd h;
	char *out, *err;
	int status, sig;

	(void)state;
	start("echo", keep, -1, &h);
	out = slurp(h.out);
	err = slurp(h.err);
	lz_hostcmd_status(reap(h.pid), &status, &sig);
	assert_int_equal(status, 3);
	assert_int_equal(sig, 0);
	/* argv as given, argv[0] included; the environment as given. */
	assert_non_null(strstr(out, "arg helper\narg two words\n"
	    "arg \033[31m\n"));
	assert_non_null(strstr(out, "env PATH=/usr/bin:/bin\n"));
	assert_string_equal(err, "to stderr\n");
	free(out);
	free(err);
}

static void
test_signal_status(void **state)
{
	struct lz_hostcmd h;
	int status, sig;

	(void)state;
	start("signal", NULL, -1, &h);
	close(h.out);
	close(h.err);
	lz_hostcmd_status(reap(h.pid), &status, &sig);
	assert_int_equal(sig, SIGTERM);
	assert_int_equal(status, 128 + SIGTERM);
}

static void
test_alone(void **state)
{
	struct lz_hostcmd h;
	char *out;

	(void)state;
	start("alone", NULL, -1, &h);
	out = slurp(h.out);
	close(h.err);
	reap(h.pid);
	assert_string_equal(out, "group 1 leader 0 tty 0 null 1\n");
	free(out);
}

static void
test_env(void **state)
{
	struct lz_tokens names = LZ_TOKENS_INIT, given = LZ_TOKENS_INIT;
	struct lz_tokens env = LZ_TOKENS_INIT;
	size_t i;

	(void)state;
	lz_tokens_push(&names, "HOME");
	lz_tokens_push(&names, "SSH_AUTH_SOCK");
	lz_tokens_push(&names, "GIT_TERMINAL_PROMPT");
	lz_tokens_push(&names, "DISPLAY");
	lz_tokens_push(&given, "HOMEX=no");
	lz_tokens_push(&given, "HOME=/home/dev");
	lz_tokens_push(&given, "LD_PRELOAD=/evil.so");
	lz_tokens_push(&given, "SSH_AUTH_SOCK=/run/agent");
	lz_tokens_push(&given, "HOME=/second");
	lz_tokens_push(&given, "GIT_TERMINAL_PROMPT=1");
	lz_hostcmd_env(&names, &given, &env);
	assert_int_equal(env.n, 3);
	assert_string_equal(env.v[0], "HOME=/home/dev");
	assert_string_equal(env.v[1], "SSH_AUTH_SOCK=/run/agent");
	assert_string_equal(env.v[2], "GIT_TERMINAL_PROMPT=0");
	lz_tokens_release(&env);
	/* What a client sends: its own values for the names. */
	setenv("LZ_TEST_ESC", "v=1", 1);
	unsetenv("LZ_TEST_ABSENT");
	lz_tokens_release(&names);
	lz_tokens_push(&names, "LZ_TEST_ESC");
	lz_tokens_push(&names, "LZ_TEST_ABSENT");
	lz_hostcmd_env_collect(&names, getenv,
	    &env);
	assert_int_equal(env.n, 1);
	assert_string_equal(env.v[0], "LZ_TEST_ESC=v=1");
	for (i = 0; i < env.n; i++)
		assert_non_null(strchr(env.v[i], '='));
	lz_tokens_release(&env);
	lz_tokens_release(&names);
	lz_tokens_release(&given);
}

/* Cancel: the command and a grandchild (in or out of its group) go. */
static void
kill_tree(const char *mode)
{
	struct lz_hostcmd h;
	pid_t cmd, kid;
	int status, sig;

	start(mode, NULL, -1, &h);
	cmd = read_pid(h.out);
	kid = read_pid(h.out);
	assert_true(cmd > 0 && kid > 0);
	assert_int_equal(kill(kid, 0), 0);
	assert_int_equal(lz_hostcmd_kill(&h), 0);
	lz_hostcmd_status(reap_soon(h.pid), &status, &sig);
	assert_int_equal(status, 137);
	assert_true(gone_within(cmd, 1000));
	assert_true(gone_within(kid, 1000));
	close(h.out);
	close(h.err);
}

static void
test_kill_grandchild(void **state)
{
	(void)state;
	kill_tree("grandchild");
}

static void
test_kill_daemon(void **state)
{
	(void)state;
	kill_tree("daemon");
}

/*
 * The coordinator SIGKILLed: a process of this test starts the command
 * and passes its pids on, then is killed; both must be gone within a
 * second, for a grandchild in the group and for one that left it.
 */
static void
coordinator_killed(const char *mode)
{
	struct lz_hostcmd h;
	pid_t coord, cmd, kid;
	int p[2];

	assert_int_equal(pipe(p), 0);
	if ((coord = fork()) == 0) {
		close(p[0]);
		start(mode, NULL, -1, &h);
		cmd = read_pid(h.out);
		kid = read_pid(h.out);
		dprintf(p[1], "%d\n%d\n", cmd, kid);
		pause();
		_exit(0);
	}
	close(p[1]);
	cmd = read_pid(p[0]);
	kid = read_pid(p[0]);
	close(p[0]);
	assert_true(cmd > 0 && kid > 0);
	assert_int_equal(kill(cmd, 0), 0);
	assert_int_equal(kill(coord, SIGKILL), 0);
	reap(coord);
	assert_true(gone_within(cmd, 1000));
	assert_true(gone_within(kid, 1000));
}

static void
test_coordinator_killed(void **state)
{
	(void)state;
	coordinator_killed("grandchild");
	coordinator_killed("daemon");
}

static void
test_not_found(void **state)
{
	const char *argv[] = { "lz-no-such-program", NULL };
	const char *envp[] = { "PATH=/nonexistent:/also-not", NULL };
	struct lz_err err = LZ_ERR_INIT;
	struct lz_hostcmd_spec s;
	struct lz_hostcmd h;
	char path[PATH_MAX];

	(void)state;
	memset(&s, 0, sizeof s);
	s.argv = argv;
	s.envp = envp;
	s.dirfd = -1;
	assert_int_equal(lz_hostcmd_start(&s, &h, &err), LZ_ENOTFOUND);
	assert_non_null(strstr(err.msg, "lz-no-such-program"));
	assert_int_equal(h.pid, -1);
	lz_err_release(&err);
	/* Not executable: the supervisor reports execve's error. */
	snprintf(path, sizeof path, "%s/plain", tmp);
	lz_test_put(tmp, "plain", "data\n");
	s.program = path;
	assert_int_equal(lz_hostcmd_start(&s, &h, &err), -EACCES);
	assert_non_null(strstr(err.msg, path));
	assert_int_equal(h.out, -1);
	lz_err_release(&err);
	/* Nothing was left to reap. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void
dir_case(const char *ws, const char *cwd, const struct lz_tokens *iso,
    const char *rel, int top_why)
{
	struct lz_hostcmd_dir d;
	struct lz_err err = LZ_ERR_INIT;

	if (lz_hostcmd_dir_open(ws, cwd, iso, &d, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(d.rel, rel);
	if (top_why)
		assert_non_null(d.why);
	else
		assert_null(d.why);
	assert_true(d.fd >= 0);
	lz_hostcmd_dir_release(&d);
}

static void
test_dir(void **state)
{
	struct lz_tokens iso = LZ_TOKENS_INIT;
	struct lz_hostcmd_dir d;
	struct lz_hostcmd h;
	char ws[512], outside[512], want[PATH_MAX], *out;

	(void)state;
	snprintf(ws, sizeof ws, "%s/ws", tmp);
	snprintf(outside, sizeof outside, "%s/outside", tmp);
	assert_int_equal(mkdir(ws, 0700), 0);
	lz_test_put(ws, "sub/deeper/f", "x");
	lz_test_put(ws, "node_modules/pkg/f", "x");
	lz_test_put(tmp, "outside/secret", "x");
	assert_int_equal(symlink(outside, strcat(strcpy(want, ws), "/link")),
	    0);
	assert_int_equal(symlink(outside, strcat(strcpy(want, ws),
	    "/sub/inner")), 0);
	lz_tokens_push(&iso, "node_modules/");
	lz_tokens_push(&iso, ".env");
	dir_case(ws, "/workspace", &iso, "", 0);
	dir_case(ws, "/workspace/", &iso, "", 0);
	dir_case(ws, "/workspace/sub", &iso, "sub", 0);
	dir_case(ws, "/workspace//sub/./deeper/", &iso, "sub/deeper", 0);
	dir_case(ws, "/workspace/link", &iso, "", 1);
	dir_case(ws, "/workspace/sub/inner", &iso, "", 1);
	dir_case(ws, "/workspace/sub/../..", &iso, "", 1);
	dir_case(ws, "/workspace/missing", &iso, "", 1);
	dir_case(ws, "/workspace/node_modules/pkg", &iso, "", 1);
	dir_case(ws, "/workspace/node_modules", &iso, "", 1);
	dir_case(ws, "/workspacefoo", &iso, "", 1);
	dir_case(ws, "/tmp", &iso, "", 1);
	/* The planted symlink: the command runs at the top level. */
	assert_int_equal(lz_hostcmd_dir_open(ws, "/workspace/sub/inner", &iso,
	    &d, NULL), 0);
	assert_string_equal(d.host, ws);
	start("pwd", NULL, d.fd, &h);
	out = slurp(h.out);
	close(h.err);
	reap(h.pid);
	snprintf(want, sizeof want, "%s\n", ws);
	assert_string_equal(out, want);
	free(out);
	lz_hostcmd_dir_release(&d);
	/* A directory that resolves: the command runs there. */
	assert_int_equal(lz_hostcmd_dir_open(ws, "/workspace/sub/deeper",
	    &iso, &d, NULL), 0);
	start("pwd", NULL, d.fd, &h);
	out = slurp(h.out);
	close(h.err);
	reap(h.pid);
	snprintf(want, sizeof want, "%s/sub/deeper\n", ws);
	assert_string_equal(out, want);
	snprintf(want, sizeof want, "%s/sub/deeper", ws);
	assert_string_equal(d.host, want);
	free(out);
	lz_hostcmd_dir_release(&d);
	lz_tokens_release(&iso);
}

static void
test_output_cap(void **state)
{
	struct lz_hostcmd_output o;
	static char chunk[300 * 1024];

	(void)state;
	memset(chunk, 'x', sizeof chunk);
	lz_hostcmd_output_init(&o);
	lz_hostcmd_output_add(&o, chunk, sizeof chunk);
	assert_false(o.truncated);
	while (o.total < 2 * LZ_HOSTCMD_OUTPUT_MAX)
		lz_hostcmd_output_add(&o, chunk, sizeof chunk);
	assert_true(o.truncated);
	assert_int_equal(o.buf.len, LZ_HOSTCMD_OUTPUT_MAX);
	assert_true(o.total >= 2 * LZ_HOSTCMD_OUTPUT_MAX);
	lz_hostcmd_output_release(&o);
}

static void
test_resolve(void **state)
{
	char *p = NULL;

	(void)state;
	assert_int_equal(lz_hostcmd_resolve("sh", "relative:/bin", &p, NULL),
	    0);
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_int_equal(lz_hostcmd_resolve("/usr/bin/env", NULL, &p, NULL),
	    0);
	assert_string_equal(p, "/usr/bin/env");
	free(p);
	assert_int_equal(lz_hostcmd_resolve("sh", ".", &p, NULL),
	    LZ_ENOTFOUND);
}

int
main(int argc, char **argv)
{
	const char *mode = getenv("LZ_HOSTCMD_HELPER");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_output),
		cmocka_unit_test(test_signal_status),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_kill_grandchild),
		cmocka_unit_test(test_kill_daemon),
		cmocka_unit_test(test_coordinator_killed),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_output_cap),
		cmocka_unit_test(test_resolve),
	};

	if (mode != NULL)
		return helper_main(mode, argc, argv);
	return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
