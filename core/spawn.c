/*
 * spawn.c: run a program from an argv and capture its output (spawn.h).
 * This is one of the few files that fork and exec: keep it short enough to
 * review in one sitting. No shell anywhere; everything the child does
 * between fork and execve is async-signal-safe.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/spawn.h"

extern char **environ;

/* What the child reports through the exec-error pipe. */
struct child_error {
	int stage;		/* CHILD_CHDIR or CHILD_EXEC */
	int error;		/* errno */
};
#define CHILD_CHDIR 1
#define CHILD_EXEC 2

static int	 fd_high(int fd);
static void	 child_run(const char *path, const char *const *argv,
		     const char *const *envp, const char *cwd, int in,
		     int out, int errfd, int report);
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

int
lz_spawn_find(const char *name, const char *path, char **out,
    struct lz_err *err)
{
	const char *p, *end;
	struct stat st;
	char *cand;

	*out = NULL;
	if (strchr(name, '/') != NULL) {
		*out = lz_xstrdup(name);
		return 0;
	}
	if (path == NULL)
		path = getenv("PATH");
	if (path == NULL)
		path = LZ_SPAWN_PATH_DEFAULT;
	for (p = path; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		cand = lz_xasprintf("%.*s/%s", (int)(end - p), p, name);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			*out = cand;
			return 0;
		}
		free(cand);
	}
	return lz_err_set(err, LZ_ENOTFOUND, "cannot run '%s': not found in "
	    "PATH (%s)", name, path);
}

/* Moves fd above 2 so the child's dup2 onto 0-2 cannot clobber it. */
static int
fd_high(int fd)
{
	int nfd;

	if (fd < 0 || fd > 2)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return nfd;
}

/* The child: only async-signal-safe calls until execve. */
static void
child_run(const char *path, const char *const *argv, const char *const *envp,
    const char *cwd, int in, int out, int errfd, int report)
{
	struct child_error ce;
	sigset_t none;
	int sig;
	ssize_t unused;

	setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(errfd, 2) == -1)
		_exit(127);
	/* Everything above 2 goes, except the close-on-exec report pipe. */
	if (report > 3)
		close_range(3, (unsigned int)report - 1, 0);
	close_range((unsigned int)report + 1, ~0U, 0);
	ce.stage = CHILD_CHDIR;
	if (cwd == NULL || chdir(cwd) == 0) {
		ce.stage = CHILD_EXEC;
		execve(path, (char *const *)argv, (char *const *)envp);
	}
	ce.error = errno;
	unused = write(report, &ce, sizeof ce);
	(void)unused;
	_exit(127);
}

int64_t
lz_spawn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
 * Forks and execs argv with pipes on stdout and stderr; p gets the child
 * and the read ends. On failure nothing is left running or open.
 */
int
lz_spawn_start(const char *const *argv, const struct lz_spawn_opts *opts,
    struct lz_spawn_proc *p, struct lz_err *err)
{
	static const struct lz_spawn_opts defaults;
	struct child_error ce;
	char *path = NULL;
	const char *const *envp;
	int p_out[2] = { -1, -1 }, p_err[2] = { -1, -1 };
	int p_rep[2] = { -1, -1 }, in = -1, rc = 0, status, saved;
	pid_t pid = -1;
	ssize_t n;

	memset(p, 0, sizeof *p);
	p->pid = -1;
	p->out = p->err = -1;
	if (opts == NULL)
		opts = &defaults;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
		return lz_err_set(err, LZ_EINVAL, "cannot run an empty "
		    "command");
	if ((rc = lz_spawn_find(argv[0], opts->path, &path, err)) != 0)
		goto out;
	envp = opts->envp != NULL ? opts->envp : (const char *const *)environ;

	if (pipe2(p_out, O_CLOEXEC) == -1 || pipe2(p_err, O_CLOEXEC) == -1 ||
	    pipe2(p_rep, O_CLOEXEC) == -1 ||
	    (in = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1) {
		rc = lz_err_set(err, LZ_ESYS, "cannot run '%s': pipe: %s",
		    argv[0], strerror(errno));
		goto out;
	}
	p_out[1] = fd_high(p_out[1]);
	p_err[1] = fd_high(p_err[1]);
	p_rep[1] = fd_high(p_rep[1]);
	in = fd_high(in);
	if (p_out[1] < 0 || p_err[1] < 0 || p_rep[1] < 0 || in < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot run '%s': fcntl: %s",
		    argv[0], strerror(errno));
		goto out;
	}

	if (opts->timeout_ms > 0)
		p->deadline = lz_spawn_now_ms() + opts->timeout_ms;
	pid = fork();
	if (pid == -1) {
		rc = lz_err_set(err, LZ_ESYS, "cannot run '%s': fork: %s",
		    argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0)
		child_run(path, argv, envp, opts->cwd, in, p_out[1], p_err[1],
		    p_rep[1]);

	close(p_out[1]);
	close(p_err[1]);
	close(p_rep[1]);
	close(in);
	p_out[1] = p_err[1] = p_rep[1] = in = -1;

	/* EOF here means execve succeeded (the pipe closed on exec). */
	do
		n = read(p_rep[0], &ce, sizeof ce);
	while (n == -1 && errno == EINTR);
	if (n == (ssize_t)sizeof ce) {
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		pid = -1;
		rc = ce.error == ENOENT ? LZ_ENOTFOUND : -ce.error;
		lz_err_set(err, rc, "cannot %s '%s': %s",
		    ce.stage == CHILD_CHDIR ? "change to directory" : "run",
		    ce.stage == CHILD_CHDIR ? opts->cwd : path,
		    strerror(ce.error));
		goto out;
	}
	fcntl(p_out[0], F_SETFL, O_NONBLOCK);
	fcntl(p_err[0], F_SETFL, O_NONBLOCK);
	p->pid = pid;
	p->out = p_out[0];
	p->err = p_err[0];
	p->cap = opts->max_output != 0 ? opts->max_output :
	    LZ_SPAWN_MAX_OUTPUT_DEFAULT;
	p->timeout_ms = opts->timeout_ms;
	p->name = lz_xstrdup(argv[0]);
	p_out[0] = p_err[0] = -1;
	pid = -1;

out:
	saved = errno;
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
	}
	if (in >= 0)
		close(in);
	for (n = 0; n < 2; n++) {
		if (p_out[n] >= 0)
			close(p_out[n]);
		if (p_err[n] >= 0)
			close(p_err[n]);
		if (p_rep[n] >= 0)
			close(p_rep[n]);
	}
	free(path);
	errno = saved;
	return rc;
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
