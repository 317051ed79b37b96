/*
 * spawn-capture.c: running a helper program and capturing its output
 * (spawn.h: lz_spawn_capture, lz_spawn_start, lz_spawn_wait), for the
 * short-lived tools Lazaret asks questions of (podman, runsc, git). The
 * child itself is started by lz_spawn_child (spawn.c).
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spawn.h"

static int	 read_into(int fd, struct lz_buf *b, size_t cap, int *trunc);
static int	 pump(pid_t pid, int out, int errfd, int64_t deadline,
		     size_t cap, struct lz_spawn_result *res);

void
lz_spawn_result_init(struct lz_spawn_result *res)
{
	memset(res, 0, sizeof *res);
	lz_buf_init(&res->out);
	lz_buf_init(&res->err);
}

void
lz_spawn_result_release(struct lz_spawn_result *res)
{
	lz_buf_release(&res->out);
	lz_buf_release(&res->err);
}

/* Reads what is there; returns 0 at EOF, 1 when more may come, -1 error. */
static int
read_into(int fd, struct lz_buf *b, size_t cap, int *trunc)
{
	char chunk[8192];
	ssize_t n;
	size_t keep;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 1 : -1;
		}
		keep = b->len < cap ? cap - b->len : 0;
		if ((size_t)n > keep)
			*trunc = 1;
		lz_buf_add(b, chunk, (size_t)n < keep ? (size_t)n : keep);
	}
}

/*
 * Reads both pipes until the child has ended (seen through a pidfd, so a
 * grandchild holding the pipes open cannot make this hang) and the pipes
 * are drained, or the deadline passes. Returns 1 on timeout, 0 when the
 * child ended, -errno on failure. The child is not reaped here.
 */
static int
pump(pid_t pid, int out, int errfd, int64_t deadline, size_t cap,
    struct lz_spawn_result *res)
{
	struct pollfd pfd[3];
	int pidfd, exited = 0, wait_ms, r, rc = 0, i;
	int open_fds[2] = { out, errfd };
	struct lz_buf *bufs[2] = { &res->out, &res->err };

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		for (i = 0; i < 2; i++) {
			pfd[i].fd = open_fds[i];
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		pfd[2].fd = exited ? -1 : pidfd;
		pfd[2].events = POLLIN;
		pfd[2].revents = 0;
		if (open_fds[0] < 0 && open_fds[1] < 0 && (exited || pidfd < 0))
			break;
		wait_ms = -1;
		if (deadline > 0) {
			wait_ms = (int)(deadline - lz_spawn_now_ms());
			if (wait_ms <= 0) {
				rc = 1;
				break;
			}
		}
		/* No pidfd (old kernel): look at the child every 100 ms. */
		if (pidfd < 0 && (wait_ms < 0 || wait_ms > 100))
			wait_ms = 100;
		r = poll(pfd, 3, wait_ms);
		if (r < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (pidfd >= 0 && (pfd[2].revents & POLLIN))
			exited = 1;
		if (pidfd < 0 && waitid(P_PID, (id_t)pid, &(siginfo_t){ 0 },
		    WEXITED | WNOHANG | WNOWAIT) == 0)
			exited = 1;
		for (i = 0; i < 2; i++) {
			if (open_fds[i] < 0 || (!exited && pfd[i].revents == 0))
				continue;
			if (read_into(open_fds[i], bufs[i], cap,
			    &res->truncated) != 1)
				open_fds[i] = -1;
			else if (exited)
				open_fds[i] = -1;	/* drained; stop */
		}
		if (exited && open_fds[0] < 0 && open_fds[1] < 0)
			break;
	}
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}

/*
 * Starts argv with pipes on stdout and stderr (lz_spawn_child); p gets the
 * child and the read ends. On failure nothing is left running or open.
 */
int
lz_spawn_start(const char *const *argv, const struct lz_spawn_opts *opts,
    struct lz_spawn_proc *p, struct lz_err *err)
{
	static const struct lz_spawn_opts defaults;
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	int rc;

	memset(p, 0, sizeof *p);
	p->pid = -1;
	p->out = p->err = -1;
	if (opts == NULL)
		opts = &defaults;
	memset(&sp, 0, sizeof sp);
	sp.argv = argv;
	sp.envp = opts->envp;
	sp.path = opts->path;
	sp.cwd = opts->cwd;
	sp.stdio = LZ_SPAWN_CAPTURE;
	if (opts->timeout_ms > 0)
		p->deadline = lz_spawn_now_ms() + opts->timeout_ms;
	if ((rc = lz_spawn_child(&sp, &c, err)) != 0)
		return rc;
	fcntl(c.out, F_SETFL, O_NONBLOCK);
	fcntl(c.err, F_SETFL, O_NONBLOCK);
	p->pid = c.pid;
	p->out = c.out;
	p->err = c.err;
	p->cap = opts->max_output != 0 ? opts->max_output :
	    LZ_SPAWN_MAX_OUTPUT_DEFAULT;
	p->timeout_ms = opts->timeout_ms;
	p->name = lz_xstrdup(argv[0]);
	return 0;
}

int
lz_spawn_wait(struct lz_spawn_proc *p, struct lz_spawn_result *res,
    struct lz_err *err)
{
	int rc = 0, status = 0, saved = 0, timed;

	lz_buf_reset(&res->out);
	lz_buf_reset(&res->err);
	res->status = res->signal = res->timed_out = res->truncated = 0;
	if (p->pid <= 0)
		LZ_BUG("lz_spawn_wait without a started child");
	timed = pump(p->pid, p->out, p->err, p->deadline, p->cap, res);
	if (timed != 0) {
		saved = timed < 0 ? -timed : 0;
		kill(-p->pid, SIGKILL);
		kill(p->pid, SIGKILL);
	}
	while (waitpid(p->pid, &status, 0) == -1) {
		if (errno != EINTR) {
			/* Not ours any more: nothing left to reap. */
			rc = lz_err_set(err, LZ_ESYS, "cannot wait for '%s': "
			    "%s", p->name, strerror(errno));
			goto out;
		}
	}
	if (WIFEXITED(status))
		res->status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		res->status = 128 + res->signal;
	}
	if (timed == 1) {
		res->timed_out = 1;
		rc = lz_err_set(err, -ETIMEDOUT, "'%s' timed out after %d ms "
		    "and was killed", p->name, p->timeout_ms);
	} else if (timed < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot read the output of "
		    "'%s': %s", p->name, strerror(saved));
	}
out:
	close(p->out);
	close(p->err);
	free(p->name);
	memset(p, 0, sizeof *p);
	p->pid = -1;
	p->out = p->err = -1;
	return rc;
}

int
lz_spawn_capture(const char *const *argv, const struct lz_spawn_opts *opts,
    struct lz_spawn_result *res, struct lz_err *err)
{
	struct lz_spawn_proc p;
	int rc;

	lz_buf_reset(&res->out);
	lz_buf_reset(&res->err);
	res->status = res->signal = res->timed_out = res->truncated = 0;
	if ((rc = lz_spawn_start(argv, opts, &p, err)) != 0)
		return rc;
	return lz_spawn_wait(&p, res, err);
}
