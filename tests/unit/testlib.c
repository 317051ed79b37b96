/*
 * testlib.c: shared helpers of the unit tests (see testlib.h).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/testlib.h"

static int spawn_wait(char *const argv[]);

/* Returns the exit status, or -1 when it did not exit normally. */
static int
spawn_wait(char *const argv[])
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

void
lz_test_run(char *const argv[])
{
	assert_int_equal(spawn_wait(argv), 0);
}

void
lz_test_put(const char *base, const char *rel, const char *text)
{
	char path[1024], *p;
	FILE *fp;

	assert_true((size_t)snprintf(path, sizeof path, "%s/%s", base, rel) <
	    sizeof path);
	for (p = path + strlen(base) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

int
lz_test_git_home(const char *base)
{
	char home[1024];

	if ((size_t)snprintf(home, sizeof home, "%s/home", base) >=
	    sizeof home || mkdir(home, 0700) != 0)
		return -1;
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	return 0;
}

void
lz_test_rmrf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	(void)spawn_wait(argv);
}

int
lz_test_rnd(unsigned long *seed, int n)
{
	*seed = *seed * 6364136223846793005ul + 1442695040888963407ul;
	return (int)((*seed >> 33) % (unsigned long)n);
}
