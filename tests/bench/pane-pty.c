/*
 * pane-pty.c: the host bench mode of issue 6's throughput figure. Runs
 * `cat FILE` on a fresh pty of rows x cols (200x50 by default, the
 * kernel's default termios, so LF goes out as CR LF as in a tmux pane),
 * reads the master with a plain read loop and feeds every chunk to an
 * lz_pane with 10,000 lines of scrollback, as the coordinator does with a
 * session's output. Times from the fork to the master's EOF (EIO), so the
 * figure includes cat, the pty and the reads, all on whatever CPUs the
 * caller allows (pin with taskset to compare with tmux, see
 * pane-throughput.sh). Prints one line a run:
 *   run N: BYTES bytes read, SECONDS s, MB/s (of FILE's size, 10^6 bytes)
 *
 * Usage: pane-pty FILE [runs [rows cols]]
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "ui/pane.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Forks cat on a new pty; returns the master, sets *pid. */
static int
spawn_cat(const char *file, int rows, int cols, pid_t *pid)
{
	struct winsize ws = { .ws_row = (unsigned short)rows,
	    .ws_col = (unsigned short)cols };
	int master, slave;

	if (openpty(&master, &slave, NULL, NULL, &ws) != 0) {
		perror("openpty");
		exit(1);
	}
	if ((*pid = fork()) == -1) {
		perror("fork");
		exit(1);
	}
	if (*pid == 0) {
		close(master);
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		execlp("cat", "cat", file, (char *)NULL);
		_exit(127);
	}
	close(slave);
	return master;
}

static double
run(const char *file, size_t size, int rows, int cols, size_t *got)
{
	static char buf[65536];
	struct lz_pane *p;
	double t0, t;
	ssize_t n;
	pid_t pid;
	int master, status;

	p = lz_pane_new((unsigned)rows, (unsigned)cols, 10000, NULL, NULL);
	*got = 0;
	t0 = now();
	master = spawn_cat(file, rows, cols, &pid);
	for (;;) {
		n = read(master, buf, sizeof buf);
		if (n > 0) {
			lz_pane_feed(p, buf, (size_t)n);
			*got += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		break;		/* EIO: the slave side is closed, all read */
	}
	t = now() - t0;
	close(master);
	waitpid(pid, &status, 0);
	lz_pane_free(p);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "cat failed\n");
		exit(1);
	}
	return (double)size / 1e6 / t;
}

int
main(int argc, char **argv)
{
	struct stat st;
	int runs = argc > 2 ? atoi(argv[2]) : 1;
	int rows = argc > 4 ? atoi(argv[3]) : 50;
	int cols = argc > 4 ? atoi(argv[4]) : 200;
	size_t got;
	double mbs, t0;
	int i;

	if (argc < 2 || runs < 1 || rows < 1 || cols < 1) {
		fprintf(stderr, "usage: pane-pty FILE [runs [rows cols]]\n");
		return 2;
	}
	if (stat(argv[1], &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < runs; i++) {
		t0 = now();
		mbs = run(argv[1], (size_t)st.st_size, rows, cols, &got);
		printf("run %d: %zu bytes read, %.3f s, %.1f MB/s\n", i + 1,
		    got, now() - t0, mbs);
		fflush(stdout);
	}
	return 0;
}
