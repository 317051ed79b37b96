/*
 * coordinator-relay.c: sessions through a direct "runsc exec" and the
 * relay that stands where conmon stood (coordinator-relay.h).
 *
 * What the session's process gets is what podman exec gave it: runsc
 * builds it from the container's own spec (user, supplementary groups,
 * capabilities, base environment), with the session's cwd and
 * environment on top; the mounts are the container's, so Git Sentry's
 * are unchanged. One difference: a command that cannot be started ends
 * with runsc's status 128 and message, where podman said 126 or 127.
 */
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "core/spawn.h"
#include "src/coordinator.h"
#include "src/coordinator-relay.h"
#include "src/domain-sandbox.h"

#define RELAY_ENV "LAZARET_SESSION_EXEC"
#define RELAY_BUF 16384
#define RELAY_DRAIN_MS 1000	/* output already written, after the end */

/* One direction of the copy; from and to are -1 once closed. */
struct relay_dir {
	int from, to;
	int input;		/* the session's stdin: EOF closes to */
	char buf[RELAY_BUF];
	size_t len, off;
};

static int	 relay_spawn(char *const *argv, int tty, int fds[3],
		     pid_t *pid);
static void	 relay_loop(struct relay_dir *d, size_t n, int sfd, int tty,
		     int master, pid_t pid) __attribute__((__noreturn__));
static int	 dir_read(struct relay_dir *d);
static void	 dir_write(struct relay_dir *d);
static void	 drain(struct relay_dir *d, size_t n, int sfd);
static void	 finish(int status) __attribute__((__noreturn__));

int
lz_relay_argv(const struct lz_sandbox_exec *x, struct lz_tokens *av)
{
	const char *how = getenv(RELAY_ENV);
	char *root, *state, *shim;
	int rc;

	if ((how != NULL && strcmp(how, "podman") == 0) ||
	    lz_coord.container == NULL)
		return -1;
	root = lz_xasprintf("%s/runsc", lz_coord.cfg.paths.xdg_runtime);
	/* runsc's own record of the sandbox (its state file's name). */
	state = lz_xasprintf("%s/%s_sandbox:%s.state", root,
	    lz_coord.container, lz_coord.container);
	shim = lz_domain_shim(lz_coord.self);
	rc = access(state, R_OK) != 0 ? -1 :
	    lz_sandbox_argv_runsc_exec(shim, root, lz_coord.container, x, av,
	    NULL);
	if (rc != 0)
		lz_tokens_release(av);
	free(root);
	free(state);
	free(shim);
	return rc;
}

/*
 * Starts argv on a new pty (tty; fds[0] gets the master) or on three new
 * pipes (fds[0] its stdin, fds[1] stdout, fds[2] stderr), in a session of
 * its own with that pty as its terminal, as runsc exec -d does for conmon.
 * The pty gets the size of the relay's own terminal. Returns 0, or the
 * errno of the step that failed.
 */
static int
relay_spawn(char *const *argv, int tty, int fds[3], pid_t *pid)
{
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	struct winsize ws;
	int rc;

	memset(&sp, 0, sizeof sp);
	memset(&ws, 0, sizeof ws);
	sp.argv = (const char *const *)argv;
	sp.new_session = 1;
	/* runsc exec goes when the relay goes (a hangup that came to kill). */
	sp.pdeathsig = SIGKILL;
	sp.stdio = tty ? LZ_SPAWN_PTY : LZ_SPAWN_PIPES;
	if (tty && ioctl(0, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0)
		sp.ws = &ws;
	if ((rc = lz_spawn_child(&sp, &c, NULL)) != 0)
		return rc == LZ_ENOTFOUND ? ENOENT : rc < 0 && rc > -1000 ?
		    -rc : EIO;
	*pid = c.pid;
	if (tty) {
		close(c.out);	/* the master once is enough here */
		fds[0] = c.in;
		fds[1] = fds[2] = -1;
	} else {
		fds[0] = c.in;
		fds[1] = c.out;
		fds[2] = c.err;
	}
	return 0;
}

void
lz_relay_run(char *const *argv, int tty, int report)
{
	static const int sigs[] = { SIGCHLD, SIGWINCH, SIGHUP, SIGTERM,
	    SIGINT, SIGQUIT };
	struct relay_dir d[3];
	struct termios t;
	sigset_t set;
	size_t i, n;
	pid_t pid = -1;
	int fds[3] = { -1, -1, -1 }, sfd, e;

	/* The coordinator's handlers (libuv's) must not run here. */
	sigemptyset(&set);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		signal(sigs[i], SIG_DFL);
		sigaddset(&set, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	/*
	 * A reader that left (runsc exec's stdin once its command ended)
	 * is an EPIPE for dir_write, not the relay's death: the session's
	 * status is its command's.
	 */
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	e = sfd < 0 ? errno : relay_spawn(argv, tty, fds, &pid);
	if (e != 0)
		lz_spawn_report(report, e);
	close(report);
	/* As podman exec -t: the outer terminal is raw, the inner one cooks. */
	if (tty && tcgetattr(0, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(0, TCSANOW, &t);
	}
	memset(d, 0, sizeof d);
	d[0].from = 0;
	/* A pty's master carries both ways: each direction its own fd. */
	d[0].to = tty ? dup(fds[0]) : fds[0];
	d[0].input = !tty;	/* a pty gets no EOF by closing */
	d[1].from = tty ? fds[0] : fds[1];
	d[1].to = 1;
	n = 2;
	if (!tty) {
		d[2].from = fds[2];
		d[2].to = 2;
		n = 3;
	}
	for (i = 0; i < n; i++) {
		fcntl(d[i].from, F_SETFL, fcntl(d[i].from, F_GETFL) |
		    O_NONBLOCK);
		fcntl(d[i].to, F_SETFL, fcntl(d[i].to, F_GETFL) | O_NONBLOCK);
	}
	relay_loop(d, n, sfd, tty, fds[0], pid);
}

/*
 * Copies until the child has ended, then drains. Signals come through
 * sfd: a window-size change goes to the inner pty (whose session, runsc
 * exec, passes it into the sandbox), the others to runsc exec.
 */
static void
relay_loop(struct relay_dir *d, size_t n, int sfd, int tty, int master,
    pid_t pid)
{
	struct pollfd pfd[7];
	struct signalfd_siginfo si;
	struct winsize ws;
	size_t i, k;
	int st = 0, done = 0;

	while (!done) {
		k = 0;
		pfd[k].fd = sfd;
		pfd[k++].events = POLLIN;
		for (i = 0; i < n; i++) {
			pfd[k].fd = d[i].len == 0 ? d[i].from : -1;
			pfd[k++].events = POLLIN;
			pfd[k].fd = d[i].len > 0 ? d[i].to : -1;
			pfd[k++].events = POLLOUT;
		}
		if (poll(pfd, k, -1) < 0 && errno != EINTR)
			break;
		/* What was read is written at once; POLLOUT for the rest. */
		for (i = 0; i < n; i++) {
			if (pfd[1 + 2 * i].revents != 0 && dir_read(&d[i]) > 0)
				dir_write(&d[i]);
			else if (pfd[2 + 2 * i].revents != 0)
				dir_write(&d[i]);
		}
		while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
			if (si.ssi_signo == SIGWINCH && tty) {
				if (ioctl(0, TIOCGWINSZ, &ws) == 0)
					ioctl(master, TIOCSWINSZ, &ws);
			} else if (si.ssi_signo == SIGCHLD) {
				if (waitpid(pid, &st, WNOHANG) == pid)
					done = 1;
			} else
				kill(pid, (int)si.ssi_signo);
		}
	}
	if (!done) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	drain(d, n, sfd);
	finish(st);
}

/*
 * Fills d's buffer from its source, reading on while a read came back as
 * full as a pty gives (LZ_PTY_READ) and there is room; -1 at EOF or error
 * (source closed).
 */
static int
dir_read(struct relay_dir *d)
{
	ssize_t r;

	if (d->from < 0 || d->len > 0)
		return 0;
	d->off = 0;
	do {
		while ((r = read(d->from, d->buf + d->len,
		    sizeof d->buf - d->len)) < 0 && errno == EINTR)
			;
		if (r > 0)
			d->len += (size_t)r;
	} while (r >= LZ_PTY_READ && sizeof d->buf - d->len >= LZ_PTY_READ);
	if (d->len > 0)
		return 1;
	if (r < 0 && errno == EAGAIN)
		return 0;
	/* EOF, or EIO from a pty whose other side is gone. */
	close(d->from);
	d->from = -1;
	if (d->input && d->to >= 0) {
		close(d->to);
		d->to = -1;
	}
	return -1;
}

/* Writes what d holds; a reader that went away loses the rest. */
static void
dir_write(struct relay_dir *d)
{
	ssize_t r;

	if (d->to < 0) {
		d->len = 0;
		return;
	}
	while ((r = write(d->to, d->buf + d->off, d->len - d->off)) < 0 &&
	    errno == EINTR)
		;
	if (r < 0 && errno == EAGAIN)
		return;
	if (r < 0) {
		d->len = 0;
		return;
	}
	d->off += (size_t)r;
	if (d->off == d->len)
		d->len = 0;
}

/*
 * After the child ended: what the output sources hold now goes out. A
 * process left behind may write on, so a source is left at its first
 * empty read, and reading stops after RELAY_DRAIN_MS; time spent waiting
 * for the coordinator to take the bytes (a slow client holds it back) does
 * not count, so nothing already written is lost. A hangup or termination
 * signal ends the drain.
 */
static void
drain(struct relay_dir *d, size_t n, int sfd)
{
	int64_t until = lz_spawn_now_ms() + RELAY_DRAIN_MS, t0;
	struct signalfd_siginfo si;
	struct pollfd p[2];
	size_t i;

	/* d[0] is the input. */
	for (i = 1; i < n; i++) {
		for (;;) {
			if (d[i].len > 0) {
				p[0].fd = d[i].to;
				p[0].events = POLLOUT;
				p[1].fd = sfd;
				p[1].events = POLLIN;
				t0 = lz_spawn_now_ms();
				if (p[0].fd < 0 || poll(p, 2, -1) < 0) {
					d[i].len = 0;
					break;
				}
				until += lz_spawn_now_ms() - t0;
				while (read(sfd, &si, sizeof si) ==
				    (ssize_t)sizeof si)
					if (si.ssi_signo != SIGCHLD &&
					    si.ssi_signo != SIGWINCH)
						return;
				if (p[0].revents != 0)
					dir_write(&d[i]);
				continue;
			}
			if (lz_spawn_now_ms() >= until || dir_read(&d[i]) <= 0)
				break;
		}
	}
}

/* Ends the relay as the child ended: its exit code, or its signal. */
static void
finish(int status)
{
	sigset_t set;
	int sig;

	if (!WIFSIGNALED(status))
		_exit(WEXITSTATUS(status));
	sig = WTERMSIG(status);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);
}
