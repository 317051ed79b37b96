/*
 * client-tty.c: raw mode with restoration on every path, and the
 * self-pipe that turns signals into events for the relay loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "core/util.h"
#include "src/client-tty.h"

static struct termios saved;
static int saved_fd = -1;
static int sig_pipe[2] = { -1, -1 };
static char leave[256];
static size_t leave_len;

static void on_signal(int signum);

void
lz_tty_on_restore(const char *bytes, size_t len)
{
	leave_len = 0;
	if (len <= sizeof leave) {
		memcpy(leave, bytes, len);
		leave_len = len;
	}
}

void
lz_tty_restore(void)
{
	if (saved_fd >= 0) {
		/* Nothing better to do on the way out if it fails. */
		if (leave_len > 0)
			(void)lz_write_all(saved_fd, leave, leave_len);
		leave_len = 0;
		tcsetattr(saved_fd, TCSAFLUSH, &saved);
		saved_fd = -1;
	}
}

int
lz_tty_raw(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &saved) != 0)
		return -errno;
	t = saved;
	cfmakeraw(&t);
	saved_fd = fd;
	atexit(lz_tty_restore);
	if (tcsetattr(fd, TCSAFLUSH, &t) != 0) {
		saved_fd = -1;
		return -errno;
	}
	return 0;
}

void
lz_tty_size(int fd, unsigned *rows, unsigned *cols)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		return;
	}
	*rows = 24;
	*cols = 80;
}

void
lz_tty_cell(int fd, unsigned *w, unsigned *h)
{
	struct winsize ws;

	*w = *h = 0;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0 && ws.ws_xpixel > 0 && ws.ws_ypixel > 0 &&
	    ws.ws_xpixel / ws.ws_col > 0 && ws.ws_ypixel / ws.ws_row > 0 &&
	    ws.ws_xpixel / ws.ws_col <= 1000 &&
	    ws.ws_ypixel / ws.ws_row <= 1000) {
		*w = ws.ws_xpixel / ws.ws_col;
		*h = ws.ws_ypixel / ws.ws_row;
	}
}

static void
on_signal(int signum)
{
	unsigned char b = (unsigned char)signum;
	int saved_errno = errno;

	/* Restore now: if the loop never runs again the terminal is sane. */
	if (signum != SIGWINCH)
		lz_tty_restore();
	if (write(sig_pipe[1], &b, 1) < 0) {
		/* A full pipe already holds a wake-up. */
	}
	errno = saved_errno;
}

int
lz_tty_signal_pipe(void)
{
	static const int sigs[] = { SIGWINCH, SIGTERM, SIGHUP, SIGINT,
	    SIGQUIT };
	struct sigaction sa;
	size_t i;

	if (sig_pipe[0] >= 0)
		return sig_pipe[0];
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		return -errno;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	return sig_pipe[0];
}
