/*
 * pty-drain.c: the floor of the pane benches. Runs a command on a fresh
 * pty of rows x cols (the kernel's default termios, as pane-pty.c) and
 * reads the master to EOF, throwing the bytes away: what the writer, the
 * pty and a reader that does nothing cost, so that a figure can be read
 * against what no multiplexer can beat on the same CPU. Prints the bytes
 * read and the seconds from the fork to EOF.
 *
 * Usage: pty-drain [-r ROWS -c COLS] -- COMMAND [ARG...]
 */
#include <sys/wait.h>

#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static char buf[65536];
	struct winsize ws = { .ws_row = 50, .ws_col = 200 };
	struct timespec t0, t1;
	long long total = 0;
	ssize_t n;
	pid_t pid;
	int ch, master, status;

	while ((ch = getopt(argc, argv, "+r:c:")) != -1) {
		if (ch == 'r')
			ws.ws_row = (unsigned short)atoi(optarg);
		else if (ch == 'c')
			ws.ws_col = (unsigned short)atoi(optarg);
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = forkpty(&master, NULL, NULL, &ws)) == -1) {
		perror("forkpty");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	for (;;) {
		n = read(master, buf, sizeof buf);
		if (n > 0)
			total += n;
		else if (n < 0 && errno == EINTR)
			continue;
		else
			break;		/* EIO: the slave side is closed */
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pty-drain: %s failed\n", argv[optind]);
		return 1;
	}
	printf("%lld bytes %.6f s\n", total, (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
usage:
	fprintf(stderr, "usage: pty-drain [-r ROWS -c COLS] -- COMMAND [ARG...]\n");
	return 2;
}
