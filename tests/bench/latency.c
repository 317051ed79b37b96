/*
 * latency.c: keystroke echo latency through a terminal program, seen from
 * the terminal's side (issue 6). Opens a pty of 80x24, runs the command
 * given after "--" in it (its controlling terminal, TERM=xterm-256color),
 * waits until its output has been quiet for a while, then types printable
 * keys one at a time, one every 20 ms, and times each from the write of
 * the key to the moment that key's character shows up as text in the
 * pty's output (escape sequences are skipped, so a program that redraws
 * with cursor moves and SGR is measured by the character itself).
 * Prints the median, p90, p99 and worst in microseconds; -o FILE also
 * appends every sample to FILE, one a line.
 *
 * Usage:
 *   latency [-n KEYS] [-i MS] [-s MS] [-t MS] [-r ROWS] [-c COLS] -- CMD...
 *     -n KEYS  keys to type (500)
 *     -i MS    interval between keys (20)
 *     -s MS    the output must have been quiet this long before the first
 *              key (500; the command gets at most 10 s to settle)
 *     -t MS    a key not echoed within this is counted as lost (1000)
 *     -r, -c   pty size (24 x 80)
 *
 * Examples (pin to one CPU to compare; see latency.sh):
 *   taskset -c 1 latency -- cat
 *   taskset -c 1 latency -- tmux -L lzlat -f /dev/null new -x 80 -y 24 cat
 *       (then: tmux -L lzlat kill-server)
 *   taskset -c 1 latency -- lazaret run -- cat     (the Lazaret TUI)
 *
 * Keys cycle through a-z, so consecutive keys differ and a late echo is not
 * taken for the next key's; no Enter is typed (a line of 500 characters
 * stays under the tty's 4095-byte canonical limit). The harness answers
 * the primary device attributes query (CSI c, as a VT100 with AVO) and
 * the status report (CSI 5 n), as programs may wait for those; it does not
 * track the cursor, so it never answers a cursor position report. At the
 * end it closes the pty (a hangup for the command) and waits for the
 * command, killing its process group after 2 s. Not a test.
 */
#include <sys/ioctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A tiny parser: just enough to tell text from escape sequences. */
enum pstate {
	P_TEXT,
	P_ESC,
	P_CSI,
	P_STRING,		/* OSC, DCS, APC, PM, SOS: up to BEL or ST */
	P_STRING_ESC,
};

struct term {
	int fd;
	enum pstate ps;
	char csi[32];		/* the CSI being read, for the queries */
	size_t ncsi;
	unsigned long bytes;
};

static long
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void
answer(struct term *t, const char *s)
{
	size_t n = strlen(s);

	if (write(t->fd, s, n) != (ssize_t)n)
		perror("write answer");
}

/* A CSI ended with final byte c: answer the queries we answer. */
static void
csi_done(struct term *t, char c)
{
	t->csi[t->ncsi < sizeof t->csi ? t->ncsi : sizeof t->csi - 1] = '\0';
	if (c == 'c' && (t->csi[0] == '\0' || strcmp(t->csi, "0") == 0))
		answer(t, "\033[?1;2c");
	else if (c == 'n' && strcmp(t->csi, "5") == 0)
		answer(t, "\033[0n");
}

/*
 * Runs the parser over buf; returns 1 when the text in it contains want
 * (want 0: never).
 */
static int
scan(struct term *t, const unsigned char *buf, size_t len, int want)
{
	int seen = 0;
	size_t i;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = buf[i];
		switch (t->ps) {
		case P_TEXT:
			if (c == 0x1b)
				t->ps = P_ESC;
			else if (want != 0 && c == want)
				seen = 1;
			break;
		case P_ESC:
			if (c == '[') {
				t->ps = P_CSI;
				t->ncsi = 0;
			} else if (c == ']' || c == 'P' || c == '_' ||
			    c == '^' || c == 'X')
				t->ps = P_STRING;
			else if (c >= 0x30 && c <= 0x7e)
				t->ps = P_TEXT;
			/* intermediates keep us in P_ESC */
			break;
		case P_CSI:
			if (c >= 0x40 && c <= 0x7e) {
				t->ps = P_TEXT;
				csi_done(t, (char)c);
			} else if (c == 0x1b)
				t->ps = P_ESC;
			else if (t->ncsi < sizeof t->csi)
				t->csi[t->ncsi++] = (char)c;
			break;
		case P_STRING:
			if (c == 0x07)
				t->ps = P_TEXT;
			else if (c == 0x1b)
				t->ps = P_STRING_ESC;
			break;
		case P_STRING_ESC:
			t->ps = c == '\\' ? P_TEXT : P_STRING;
			break;
		}
	}
	return seen;
}

/*
 * Reads what is there until deadline (us); returns 1 as soon as want shows
 * up as text, 0 at the deadline, -1 when the pty is closed.
 */
static int
pump(struct term *t, long deadline, int want)
{
	unsigned char buf[65536];
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
	long left;
	ssize_t n;
	int r;

	for (;;) {
		left = deadline - now_us();
		if (left < 0)
			left = 0;
		r = poll(&pfd, 1, (int)((left + 999) / 1000));
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0) {
			if (now_us() >= deadline)
				return 0;
			continue;	/* poll rounds to milliseconds */
		}
		n = read(t->fd, buf, sizeof buf);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		t->bytes += (unsigned long)n;
		if (scan(t, buf, (size_t)n, want))
			return 1;
		if (now_us() >= deadline)
			return 0;
	}
}

/* Waits until the output has been quiet for quiet_us (at most 10 s). */
static int
settle(struct term *t, long quiet_us)
{
	long give_up = now_us() + 10000000;
	unsigned long before;

	for (;;) {
		before = t->bytes;
		if (pump(t, now_us() + quiet_us, 0) == -1)
			return -1;
		if (t->bytes == before)
			return 0;
		if (now_us() > give_up) {
			fprintf(stderr, "latency: output never settled\n");
			return 0;
		}
	}
}

static pid_t
spawn(char **argv, int rows, int cols, int *master)
{
	struct winsize ws = { .ws_row = (unsigned short)rows,
	    .ws_col = (unsigned short)cols };
	pid_t pid;
	int slave;

	if (openpty(master, &slave, NULL, NULL, &ws) != 0) {
		perror("openpty");
		exit(1);
	}
	if ((pid = fork()) == -1) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		close(*master);
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		setenv("TERM", "xterm-256color", 1);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	close(slave);
	return pid;
}

static void
reap(pid_t pid)
{
	long until = now_us() + 2000000;
	int status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_us() > until) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			return;
		}
		usleep(10000);
	}
}

static int
cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static long
pct(const long *v, int n, int p)
{
	int i = (n * p + 99) / 100 - 1;

	return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

static void
usage(void)
{
	fprintf(stderr, "usage: latency [-n keys] [-i ms] [-s ms] [-t ms] "
	    "[-r rows] [-c cols] [-o file] -- command [args...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct term t = { .ps = P_TEXT };
	int keys = 500, interval = 20, quiet = 500, timeout = 1000;
	int rows = 24, cols = 80, o, k, got = 0, lost = 0, r;
	long *lat, t0, next;
	const char *samples = NULL;
	FILE *f;
	pid_t pid;
	char key;

	while ((o = getopt(argc, argv, "n:i:s:t:r:c:o:")) != -1) {
		switch (o) {
		case 'o':
			samples = optarg;
			break;
		case 'n':
			keys = atoi(optarg);
			break;
		case 'i':
			interval = atoi(optarg);
			break;
		case 's':
			quiet = atoi(optarg);
			break;
		case 't':
			timeout = atoi(optarg);
			break;
		case 'r':
			rows = atoi(optarg);
			break;
		case 'c':
			cols = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || keys < 1 || interval < 1 || rows < 1 || cols < 1)
		usage();
	signal(SIGPIPE, SIG_IGN);
	lat = calloc((size_t)keys, sizeof *lat);
	pid = spawn(argv + optind, rows, cols, &t.fd);
	if (settle(&t, (long)quiet * 1000) == -1) {
		fprintf(stderr, "latency: the command closed the pty\n");
		return 1;
	}
	next = now_us();
	for (k = 0; k < keys; k++) {
		/* Keep reading until this key's slot. */
		if (pump(&t, next, 0) == -1)
			break;
		key = (char)('a' + k % 26);
		t0 = now_us();
		if (write(t.fd, &key, 1) != 1) {
			perror("write");
			break;
		}
		r = pump(&t, t0 + (long)timeout * 1000, key);
		if (r == 1)
			lat[got++] = now_us() - t0;
		else if (r == 0)
			lost++;
		else
			break;
		next = t0 + (long)interval * 1000;
	}
	close(t.fd);
	reap(pid);
	if (got == 0) {
		fprintf(stderr, "latency: no echo seen\n");
		return 1;
	}
	/* Every sample, in microseconds, for pooling rounds (-o). */
	if (samples != NULL && (f = fopen(samples, "a")) != NULL) {
		for (k = 0; k < got; k++)
			fprintf(f, "%ld\n", lat[k]);
		fclose(f);
	}
	qsort(lat, (size_t)got, sizeof *lat, cmp);
	printf("keys %d echoed %d lost %d  median %ld us  p90 %ld us  "
	    "p99 %ld us  max %ld us\n", keys, got, lost, pct(lat, got, 50),
	    pct(lat, got, 90), pct(lat, got, 99), lat[got - 1]);
	free(lat);
	return lost > 0 || got < keys;
}
