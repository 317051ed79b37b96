/*
 * hostcmd.c: an approved host command under its supervisor (hostcmd.h):
 * starting it, killing it with everything it started, and its status.
 * Where it runs and with which environment is hostcmd-dir.c. The
 * supervisor is a child of the coordinator made by lz_spawn_child's run
 * mode; it starts the command with lz_spawn_child too (the one spawn
 * path), then only waits and, when told or orphaned, kills.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hostcmd.h"
#include "core/spawn.h"

struct sup_arg {
	const struct lz_hostcmd_spec *s;
	const char *program;
	pid_t parent;
};

static void	supervise(void *arg, int report) __attribute__((noreturn));
static void	exit_like(int wstatus) __attribute__((noreturn));
static int	kill_children(void);
static void	kill_all(pid_t cmd);
static pid_t	ppid_of(const char *pid);

/* The parent's pid as /proc/PID/stat gives it, or -1. */
static pid_t
ppid_of(const char *pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof path, "/proc/%s/stat", pid) >=
	    (int)sizeof path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold anything but the last
	 * ')' ends it. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ' || p[2] == '\0' ||
	    p[3] != ' ')
		return -1;
	return (pid_t)strtol(p + 4, NULL, 10);
}

/*
 * SIGKILLs every child of this process (found in /proc: a subreaper's
 * children include the orphans of what it started). Returns how many.
 */
static int
kill_children(void)
{
	pid_t self = getpid(), pid;
	struct dirent *e;
	DIR *d;
	int n = 0;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)strtol(e->d_name, NULL, 10);
		if (pid != self && ppid_of(e->d_name) == self) {
			kill(pid, SIGKILL);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * Kills the command's process group, then, until nothing is left, every
 * child this subreaper has: a process that left the group (setsid, a
 * daemon) is reparented here when its parent dies and killed next round.
 */
static void
kill_all(pid_t cmd)
{
	pid_t r;

	killpg(cmd, SIGKILL);
	kill_children();
	for (;;) {
		r = waitpid(-1, NULL, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;		/* ECHILD: nothing left */
		kill_children();
	}
}

/* Ends the supervisor the way the command ended. */
static void
exit_like(int wstatus)
{
	sigset_t set;
	int sig;

	if (WIFEXITED(wstatus))
		_exit(WEXITSTATUS(wstatus));
	sig = WTERMSIG(wstatus);
	prctl(PR_SET_DUMPABLE, 0);	/* the command dumped already, or not */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/*
 * The supervisor (spawn's run mode: signals default, mask empty, a
 * session of its own, PR_SET_PDEATHSIG SIGTERM, stdout and stderr the
 * caller's pipes, dirfd kept).
 */
static void
supervise(void *arg, int report)
{
	static const char *const none[] = { NULL };
	const struct sup_arg *a = arg;
	const struct lz_hostcmd_spec *s = a->s;
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	sigset_t set;
	pid_t r;
	int st, sig, rc;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* A parent gone before PR_SET_PDEATHSIG was set sends nothing. */
	if (getppid() != a->parent)
		_exit(137);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		lz_spawn_report(report, errno);
	if (s->dirfd >= 0 && fchdir(s->dirfd) != 0)
		lz_spawn_report(report, errno);
	if (s->dirfd >= 0)
		close(s->dirfd);
	memset(&sp, 0, sizeof sp);
	sp.argv = s->argv;
	sp.file = a->program;
	sp.envp = s->envp != NULL ? s->envp : none;
	sp.stdio = LZ_SPAWN_INHERIT;
	/* Should the supervisor itself be killed, the command goes too. */
	sp.pdeathsig = SIGKILL;
	rc = lz_spawn_child(&sp, &c, NULL);
	if (rc != 0)
		lz_spawn_report(report, rc == LZ_ENOTFOUND ? ENOENT :
		    rc > -1000 && rc < 0 ? -rc : EIO);
	close(report);		/* it runs: the caller's start returns */
	for (;;) {
		while ((r = waitpid(-1, &st, WNOHANG)) > 0)
			if (r == c.pid)
				exit_like(st);	/* the request is over */
		if (r < 0 && errno != EINTR)
			_exit(137);		/* cannot happen: c.pid */
		sig = sigwaitinfo(&set, NULL);
		if (sig == SIGTERM || sig == SIGHUP || sig == SIGINT) {
			kill_all(c.pid);
			_exit(137);
		}
	}
}

int
lz_hostcmd_start(const struct lz_hostcmd_spec *s, struct lz_hostcmd *h,
    struct lz_err *err)
{
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	struct sup_arg a;
	const char *path = NULL;
	char *program = NULL;
	size_t i;
	int rc;

	h->pid = -1;
	h->out = h->err = -1;
	if (s->argv == NULL || s->argv[0] == NULL || s->argv[0][0] == '\0')
		return lz_err_set(err, LZ_EINVAL, "cannot run an empty "
		    "command");
	for (i = 0; s->envp != NULL && s->envp[i] != NULL; i++)
		if (strncmp(s->envp[i], "PATH=", 5) == 0)
			path = s->envp[i] + 5;
	if (s->program != NULL)
		program = lz_xstrdup(s->program);
	else if ((rc = lz_hostcmd_resolve(s->argv[0], path, &program,
	    err)) != 0)
		return rc;
	memset(&sp, 0, sizeof sp);
	a.s = s;
	a.program = program;
	a.parent = getpid();
	sp.run = supervise;
	sp.run_arg = &a;
	sp.stdio = LZ_SPAWN_CAPTURE;
	sp.new_session = 1;
	sp.pdeathsig = SIGTERM;
	if (s->dirfd >= 0) {
		sp.keep[0] = s->dirfd;
		sp.nkeep = 1;
	}
	rc = lz_spawn_child(&sp, &c, NULL);
	if (rc != 0)
		lz_err_set(err, rc, "cannot run '%s': %s", program,
		    strerror(rc == LZ_ENOTFOUND ? ENOENT : rc > -1000 &&
		    rc < 0 ? -rc : EIO));
	else {
		h->pid = c.pid;
		h->out = c.out;
		h->err = c.err;
	}
	free(program);
	return rc;
}

int
lz_hostcmd_kill(const struct lz_hostcmd *h)
{
	if (h->pid <= 0)
		return -ESRCH;
	return kill(h->pid, SIGTERM) == 0 ? 0 : -errno;
}

void
lz_hostcmd_status(int wstatus, int *status, int *signal)
{
	*signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + *signal;
}
