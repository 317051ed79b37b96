/*
 * prompt-latency.c: how long after a request record's rename its prompt
 * is on the screen (issue 15's figure). Watches DIR (the mailbox's request
 * directory, seen through podman's namespace: /proc/PAUSE/root/...) for
 * IN_MOVED_TO of a "request-" name, then polls the screen of tmux pane
 * TARGET on server SOCK (`tmux -L SOCK capture-pane -p -t TARGET`) every
 * 2 ms until a line holds TEXT, and prints the milliseconds between the
 * two, one line a request, COUNT times. Bench code: not part of Lazaret.
 *
 *   prompt-latency DIR SOCK TARGET TEXT COUNT
 *
 * Between requests it waits for TEXT to leave the screen (the bench
 * answers each prompt).
 */
#include <sys/inotify.h>
#include <sys/wait.h>

#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* 1 when the pane's screen holds text. */
static int
on_screen(char *sock, char *target, const char *text)
{
	char *argv[] = { "tmux", "-L", sock, "capture-pane", "-p", "-t",
	    target, NULL };
	static char buf[1 << 20];
	posix_spawn_file_actions_t fa;
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2], st, found;

	if (pipe(p) != 0)
		return 0;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	if (posix_spawnp(&pid, "tmux", &fa, NULL, argv, environ) != 0) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	while (len < sizeof buf - 1 &&
	    (n = read(p[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	close(p[0]);
	waitpid(pid, &st, 0);
	buf[len] = '\0';
	found = strstr(buf, text) != NULL;
	return found;
}

int
main(int argc, char **argv)
{
	char ev[sizeof(struct inotify_event) + NAME_MAX + 1];
	struct inotify_event *e;
	double t0;
	int fd, count, i;
	ssize_t n;

	if (argc != 6) {
		fprintf(stderr, "usage: prompt-latency DIR SOCK TARGET TEXT "
		    "COUNT\n");
		return 2;
	}
	count = atoi(argv[5]);
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(fd, argv[1], IN_MOVED_TO) < 0) {
		perror("inotify");
		return 1;
	}
	for (i = 0; i < count; i++) {
		/* The next request's rename. */
		for (;;) {
			if ((n = read(fd, ev, sizeof ev)) <= 0)
				return 1;
			e = (struct inotify_event *)ev;
			if (e->len > 0 && strncmp(e->name, "request-", 8) == 0)
				break;
		}
		t0 = now_ms();
		while (!on_screen(argv[2], argv[3], argv[4]))
			poll(NULL, 0, 2);
		printf("%.1f\n", now_ms() - t0);
		fflush(stdout);
		/* Answered by the bench: gone before the next. */
		while (on_screen(argv[2], argv[3], argv[4]))
			poll(NULL, 0, 10);
	}
	return 0;
}
