/*
 * spawn.c: the project's one way to start a process (spawn.h). Every fork
 * and exec of Lazaret is here: helpers whose output is captured
 * (spawn-capture.c), a session's command on a pty or three pipes, the
 * relay that stands in a session's child, the detached coordinator, a
 * bench pane's host command. One child prologue for all of them: signals
 * reset, mask cleared, a session or process group of its own, stdio set,
 * every other descriptor closed with close_range, the working directory,
 * then execve; a failure of any step comes back through a close-on-exec
 * pipe, as abduco does. No shell anywhere. Keep it short enough to review
 * in one sitting; everything between fork and execve is
 * async-signal-safe.
 */
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/spawn.h"

extern char **environ;

/* What the child reports through the exec-error pipe. */
struct child_error {
	int stage;		/* CHILD_* */
	int error;		/* errno */
};
#define CHILD_SETUP 1
#define CHILD_CHDIR 2
#define CHILD_EXEC 3

/* The descriptors a child is given, in the parent's numbering. */
struct child_fds {
	int in, out, err;	/* become 0, 1, 2 (-1: /dev/null) */
	int ctty;		/* the pty slave to make the terminal, or -1 */
	int report;		/* the close-on-exec error pipe */
};

static int	 fd_high(int fd);
static void	 child_fail(int report, int stage) __attribute__((noreturn));
static void	 child_close_rest(const struct lz_spawn_spec *sp, int report);
static void	 child_run(const struct lz_spawn_spec *sp, const char *path,
		     const char *const *envp, const struct child_fds *c)
		     __attribute__((noreturn));
static pid_t	 exec_child(const struct lz_spawn_spec *sp, const char *path,
		     const char *const *envp, const struct child_fds *c);
static int	 make_stdio(const struct lz_spawn_spec *sp, struct child_fds *c,
		     int parent[3], struct lz_err *err);
static int	 wait_report(pid_t pid, int rfd, const struct lz_spawn_spec *sp,
		     const char *path, struct lz_err *err);

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
		if (*p != '/')
			continue;	/* "", ".", "bin": the cwd's files */
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

int64_t
lz_spawn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
lz_spawn_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) ==
	    0 && si.si_pid == pid;
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

void
lz_spawn_report(int report, int error)
{
	errno = error;
	child_fail(report, CHILD_EXEC);
}

static void
child_fail(int report, int stage)
{
	struct child_error ce = { stage, errno };
	ssize_t unused;

	unused = write(report, &ce, sizeof ce);
	(void)unused;
	_exit(127);
}

/* Closes every descriptor above 2 but the report pipe and keep_fds. */
static void
child_close_rest(const struct lz_spawn_spec *sp, int report)
{
	unsigned int lo = 3, keep[LZ_SPAWN_KEEP_MAX + 1], n = 0, i, j, t;

	keep[n++] = (unsigned int)report;
	for (i = 0; i < sp->nkeep && i < LZ_SPAWN_KEEP_MAX; i++)
		keep[n++] = (unsigned int)sp->keep[i];
	for (i = 1; i < n; i++)		/* insertion sort: n is tiny */
		for (j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		if (keep[i] > lo)
			close_range(lo, keep[i] - 1, 0);
		if (keep[i] + 1 > lo)
			lo = keep[i] + 1;
	}
	close_range(lo, ~0U, 0);
}

/* The child: only async-signal-safe calls until execve. */
static void
child_run(const struct lz_spawn_spec *sp, const char *path,
    const char *const *envp, const struct child_fds *c)
{
	sigset_t none;
	int sig, i, null = -1;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sp->pdeathsig > 0 && prctl(PR_SET_PDEATHSIG, sp->pdeathsig) != 0)
		child_fail(c->report, CHILD_SETUP);
	if (sp->new_session ? setsid() < 0 : setpgid(0, 0) != 0)
		child_fail(c->report, CHILD_SETUP);
	if (c->ctty >= 0 && ioctl(c->ctty, TIOCSCTTY, 0) != 0)
		child_fail(c->report, CHILD_SETUP);
	if ((c->in < 0 || c->out < 0 || c->err < 0) &&
	    (null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		child_fail(c->report, CHILD_SETUP);
	if (dup2(c->in >= 0 ? c->in : null, 0) < 0 ||
	    dup2(c->out >= 0 ? c->out : null, 1) < 0 ||
	    dup2(c->err >= 0 ? c->err : null, 2) < 0)
		child_fail(c->report, CHILD_SETUP);
	/* dup2 onto itself keeps close-on-exec (LZ_SPAWN_INHERIT). */
	for (i = 0; i < 3; i++)
		if (fcntl(i, F_SETFD, 0) != 0)
			child_fail(c->report, CHILD_SETUP);
	for (i = 0; i < (int)sp->nkeep && i < LZ_SPAWN_KEEP_MAX; i++)
		if (fcntl(sp->keep[i], F_SETFD, 0) != 0)
			child_fail(c->report, CHILD_SETUP);
	child_close_rest(sp, c->report);
	if (sp->cwd != NULL && chdir(sp->cwd) != 0)
		child_fail(c->report, CHILD_CHDIR);
	if (sp->run != NULL)
		sp->run(sp->run_arg, c->report);	/* never returns */
	execve(path, (char *const *)sp->argv, (char *const *)envp);
	child_fail(c->report, CHILD_EXEC);
}

/*
 * A child that only execs, started with vfork: this process's memory is
 * not copied (fork's cost grows with it: page tables copied, then every
 * page the event loop writes faulted in again until the child execs; a
 * coordinator holding panes' scrollback, or built with ASan, pays tens of
 * milliseconds a spawn), and this thread waits until the child has
 * exec'd or failed. Every signal is blocked meanwhile, so no handler of
 * this process runs on the child's side of the shared memory; the child
 * sets each to its default before it unblocks them (child_run). Returns
 * the child's pid, or -1 (errno).
 */
static pid_t
exec_child(const struct lz_spawn_spec *sp, const char *path,
    const char *const *envp, const struct child_fds *c)
{
	sigset_t all, old;
	pid_t pid;
	int saved;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0)
		child_run(sp, path, envp, c);	/* never returns */
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return pid;
}

/*
 * The child's stdio for sp->stdio, and the parent's ends in parent[]
 * (-1 where there is none). Every descriptor is close-on-exec and above 2.
 */
static int
make_stdio(const struct lz_spawn_spec *sp, struct child_fds *c, int parent[3],
    struct lz_err *err)
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, master, i, saved;
	struct winsize ws = { 24, 80, 0, 0 };

	parent[0] = parent[1] = parent[2] = -1;
	c->in = c->out = c->err = c->ctty = -1;
	switch (sp->stdio) {
	case LZ_SPAWN_NULL:
		c->out = c->err = sp->log_fd;
		return 0;
	case LZ_SPAWN_INHERIT:
		c->out = 1;
		c->err = 2;
		return 0;
	case LZ_SPAWN_PTY:
		if (sp->ws != NULL)
			ws = *sp->ws;
		if (openpty(&master, &c->ctty, NULL, NULL, &ws) != 0)
			return lz_err_set(err, LZ_ESYS, "openpty: %s",
			    strerror(errno));
		fcntl(master, F_SETFD, FD_CLOEXEC);
		fcntl(c->ctty, F_SETFD, FD_CLOEXEC);
		parent[0] = fd_high(master);
		parent[1] = fcntl(parent[0], F_DUPFD_CLOEXEC, 3);
		c->ctty = fd_high(c->ctty);
		c->in = c->out = c->err = c->ctty;
		if (!sp->new_session)
			LZ_BUG("a pty child needs its own session");
		return parent[1] < 0 ? lz_err_set(err, LZ_ESYS, "dup: %s",
		    strerror(errno)) : 0;
	case LZ_SPAWN_CAPTURE:
	case LZ_SPAWN_PIPES:
		for (i = sp->stdio == LZ_SPAWN_CAPTURE ? 1 : 0; i < 3; i++) {
			if (pipe2(p[i], O_CLOEXEC) != 0) {
				saved = errno;
				while (--i >= 0) {
					close(p[i][0]);
					close(p[i][1]);
				}
				return lz_err_set(err, LZ_ESYS, "pipe: %s",
				    strerror(saved));
			}
			p[i][0] = fd_high(p[i][0]);
			p[i][1] = fd_high(p[i][1]);
		}
		/* stdin: the child reads p[0][0]; stdout, stderr: it writes. */
		c->in = p[0][0];
		parent[0] = p[0][1];
		c->out = p[1][1];
		parent[1] = p[1][0];
		c->err = p[2][1];
		parent[2] = p[2][0];
		return 0;
	}
	LZ_BUG("spawn stdio %d", (int)sp->stdio);
}

/* EOF on the report pipe: execve succeeded (or the daemon's did). */
static int
wait_report(pid_t pid, int rfd, const struct lz_spawn_spec *sp,
    const char *path, struct lz_err *err)
{
	static const char *const stages[] = { "", "set up the child for",
	    "change to the directory of", "run" };
	struct child_error ce;
	ssize_t n;
	int rc;

	do
		n = read(rfd, &ce, sizeof ce);
	while (n == -1 && errno == EINTR);
	if (n != (ssize_t)sizeof ce)
		return 0;
	while (pid > 0 && waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
	rc = ce.error == ENOENT ? LZ_ENOTFOUND : -ce.error;
	if (ce.stage == CHILD_CHDIR)
		return lz_err_set(err, rc, "cannot change to directory '%s': "
		    "%s", sp->cwd, strerror(ce.error));
	return lz_err_set(err, rc, "cannot %s '%s': %s",
	    stages[ce.stage >= 1 && ce.stage <= 3 ? ce.stage : 3], path,
	    strerror(ce.error));
}

int
lz_spawn_child(const struct lz_spawn_spec *sp, struct lz_spawn_child *out,
    struct lz_err *err)
{
	struct child_fds c;
	const char *const *envp;
	char *path = NULL;
	int rep[2] = { -1, -1 }, parent[3], rc, i, saved;
	pid_t pid = -1, mid;

	out->pid = -1;
	out->in = out->out = out->err = -1;
	for (i = 0; i < (int)sp->nkeep; i++)
		if (sp->keep[i] <= 2 || i >= LZ_SPAWN_KEEP_MAX)
			LZ_BUG("spawn: cannot keep descriptor %d", sp->keep[i]);
	if (sp->run == NULL && (sp->argv == NULL || sp->argv[0] == NULL ||
	    sp->argv[0][0] == '\0'))
		return lz_err_set(err, LZ_EINVAL, "cannot run an empty "
		    "command");
	if (sp->run == NULL && sp->file != NULL)
		path = lz_xstrdup(sp->file);
	else if (sp->run == NULL &&
	    (rc = lz_spawn_find(sp->argv[0], sp->path, &path, err)) != 0)
		return rc;
	envp = sp->envp != NULL ? sp->envp : (const char *const *)environ;
	rc = make_stdio(sp, &c, parent, err);
	if (rc == 0 && pipe2(rep, O_CLOEXEC) != 0)
		rc = lz_err_set(err, LZ_ESYS, "pipe: %s", strerror(errno));
	c.report = rep[1] = fd_high(rep[1]);
	/*
	 * A child that runs code of ours (sp->run: the relay, a supervisor)
	 * needs malloc and stdio, which only fork leaves usable in the child
	 * of a threaded process (the coordinator has libuv's thread pool for
	 * the Git Sentry census). A child that only execs gets _Fork: no
	 * atfork handlers. libuv's would remake its signal pipe in the child
	 * under whatever low descriptor numbers are free, after closing the
	 * ones it remembers, and in a process forked before (the relay) those
	 * numbers are now its own pty's: the exec'd child lost its terminal
	 * (TIOCSCTTY: ENOTTY). After fork, child_run closes libuv's new pipe
	 * with the rest. A child that only execs, and is no daemon, is
	 * started by exec_child without copying this process at all.
	 */
	if (rc == 0 && sp->run == NULL && !sp->daemon)
		pid = exec_child(sp, path, envp, &c);
	else if (rc == 0)
		pid = sp->run != NULL ? fork() : _Fork();
	if (rc == 0 && pid < 0)
		rc = lz_err_set(err, LZ_ESYS, "fork: %s", strerror(errno));
	if (rc == 0 && pid == 0) {
		/* A daemon is a grandchild: nobody's child, no terminal. */
		if (sp->daemon && (mid = sp->run != NULL ? fork() :
		    _Fork()) != 0)
			_exit(mid < 0 ? 127 : 0);
		child_run(sp, path, envp, &c);
	}
	saved = errno;
	if (rep[1] >= 0)
		close(rep[1]);
	if (c.ctty >= 0)
		close(c.ctty);
	if (sp->stdio == LZ_SPAWN_CAPTURE || sp->stdio == LZ_SPAWN_PIPES) {
		if (c.in >= 0)
			close(c.in);
		close(c.out);
		close(c.err);
	}
	if (rc == 0) {
		if (sp->daemon)
			while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
				;
		rc = wait_report(sp->daemon ? -1 : pid, rep[0], sp,
		    path ? path : "the child", err);
	}
	if (rep[0] >= 0)
		close(rep[0]);
	if (rc != 0) {
		for (i = 0; i < 3; i++)
			if (parent[i] >= 0)
				close(parent[i]);
	} else {
		out->pid = sp->daemon ? -1 : pid;
		out->in = parent[0];
		out->out = parent[1];
		out->err = parent[2];
	}
	free(path);
	errno = saved;
	return rc;
}
