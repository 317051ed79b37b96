/*
 * spawn.h: the project's one way to start a process. Every fork and exec
 * of Lazaret goes through lz_spawn_child: a helper whose output is
 * captured (podman, runsc, git: lz_spawn_capture, lz_spawn_start/wait), a
 * session's command on a pty or three pipes, the relay that stands in a
 * session's child (a function run in the child instead of an exec), the
 * detached coordinator (a daemon), a bench pane's host command. Never a
 * shell: the program is an absolute path or found by an explicit PATH
 * walk, then execve'd.
 *
 * What every child gets (one prologue, core/spawn.c): default signal
 * dispositions, an empty signal mask, a process group of its own (or a
 * session of its own, with the pty as its controlling terminal), stdio as
 * asked (/dev/null where nothing is given), no other descriptor (every fd
 * above 2 is closed with close_range, except those listed in keep), the
 * working directory, optionally PR_SET_PDEATHSIG. A failure of any of
 * these or of execve is reported to the parent through a close-on-exec
 * pipe, as abduco does, so "not found" is an error, not an exit status of
 * 127.
 */
#ifndef LZ_SPAWN_H
#define LZ_SPAWN_H

#include <sys/ioctl.h>
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

#define LZ_SPAWN_MAX_OUTPUT_DEFAULT (1024 * 1024)
#define LZ_SPAWN_PATH_DEFAULT "/usr/local/bin:/usr/bin:/bin"

enum lz_spawn_stdio {
	LZ_SPAWN_CAPTURE,	/* stdin /dev/null; stdout, stderr: pipes */
	LZ_SPAWN_PIPES,		/* stdin, stdout, stderr: three pipes */
	LZ_SPAWN_PTY,		/* a new pty, the child's terminal (0-2) */
	LZ_SPAWN_NULL,		/* stdin /dev/null; stdout, stderr: log_fd */
	LZ_SPAWN_INHERIT,	/* stdin /dev/null; stdout, stderr: the
				 * caller's 1 and 2 (a supervisor's command) */
};

#define LZ_SPAWN_KEEP_MAX 4

/*
 * What one read of a pty (either side) gives at most: n_tty's buffer of
 * 4096 less one. A read that came back this full found more waiting, so
 * the readers of a pty read again before they poll (tui-pane.c read_pty,
 * the relay's dir_read, the coordinator's session_alloc through libuv),
 * a few times at most.
 */
#define LZ_PTY_READ 4095

struct lz_spawn_spec {
	const char *const *argv;	/* argv[0]: path or name in PATH */
	const char *file;		/* the program to run, when it is not
					 * argv[0] (a host command's resolved
					 * path); NULL: argv[0] in PATH */
	const char *const *envp;	/* NULL: the caller's environ */
	const char *path;		/* PATH to search; NULL: $PATH */
	const char *cwd;		/* NULL: the caller's */
	enum lz_spawn_stdio stdio;
	const struct winsize *ws;	/* LZ_SPAWN_PTY: its size (24x80) */
	int log_fd;			/* LZ_SPAWN_NULL */
	/* setsid() (required with a pty) instead of setpgid(0, 0). */
	int new_session;
	/* Descriptors (> 2) the child keeps, close-on-exec cleared. */
	int keep[LZ_SPAWN_KEEP_MAX];
	unsigned nkeep;
	/* Signal the child gets when its parent dies (0: none). */
	int pdeathsig;
	/* Double fork: the program is nobody's child (out->pid is -1). */
	int daemon;
	/*
	 * Run this in the child instead of an exec (the relay): after the
	 * prologue, with the report pipe, which it must close once what it
	 * starts is running, or hand an errno to lz_spawn_report. Never
	 * returns. argv is then not used.
	 */
	void (*run)(void *arg, int report);
	void *run_arg;
};

/* The parent's ends: in (pipe or pty master), out, err; -1 if none. */
struct lz_spawn_child {
	pid_t pid;
	int in, out, err;
};

/*
 * Starts a child as sp says and returns once it runs the program (execve
 * succeeded) or, with run, once run closed the report pipe. Every
 * descriptor in out is close-on-exec. For LZ_SPAWN_PTY, in is the master
 * and out a duplicate of it. On failure nothing is left running or open
 * and err says which step failed: LZ_ENOTFOUND (not in PATH, or execve's
 * ENOENT), the negated errno of a failed step, LZ_ESYS (pipe, pty, fork),
 * LZ_EINVAL (empty argv).
 */
int lz_spawn_child(const struct lz_spawn_spec *sp, struct lz_spawn_child *out,
    struct lz_err *err);

/* For a run function: reports error (an errno) to the parent and exits. */
void lz_spawn_report(int report, int error) __attribute__((noreturn));

struct lz_spawn_opts {
	/* The child's environment; NULL passes the caller's environ. */
	const char *const *envp;
	/* The PATH searched when argv[0] has no '/'; NULL: the caller's
	 * $PATH, or LZ_SPAWN_PATH_DEFAULT when that is unset. */
	const char *path;
	/* Working directory of the child; NULL keeps the caller's. */
	const char *cwd;
	/* Bytes kept of each of stdout and stderr; the rest is read and
	 * dropped (so the child never blocks) and truncated is set.
	 * 0 means LZ_SPAWN_MAX_OUTPUT_DEFAULT. */
	size_t max_output;
	/* Milliseconds before the child's process group is killed; 0 or
	 * less waits for ever. */
	int timeout_ms;
};

struct lz_spawn_result {
	/* The exit code, or 128 + the signal number when it was killed. */
	int status;
	int signal;		/* the signal that ended it, else 0 */
	int timed_out;		/* killed because timeout_ms passed */
	int truncated;		/* out or err reached max_output */
	struct lz_buf out;
	struct lz_buf err;
};

void lz_spawn_result_init(struct lz_spawn_result *res);
void lz_spawn_result_release(struct lz_spawn_result *res);

/*
 * Runs argv (NULL-terminated, argv[0] the program) and waits for it.
 * Returns 0 once the program ran and ended, whatever its exit status: read
 * res->status. res must have been initialised; its buffers are reset
 * first. Failures, each with a message in err:
 *   LZ_ENOTFOUND  argv[0] not found in PATH, or the path does not exist
 *   -EACCES etc.  execve or chdir failed in the child (negated errno)
 *   -ETIMEDOUT    timeout_ms passed; the child was killed and reaped, and
 *                 res holds what it wrote (res->timed_out is set)
 *   LZ_EINVAL     empty argv
 *   LZ_ESYS       pipe, fork, poll or waitpid failed
 * The child is always reaped before this returns. Output is read once the
 * child has ended even if a grandchild keeps the pipes open.
 */
int lz_spawn_capture(const char *const *argv, const struct lz_spawn_opts *opts,
    struct lz_spawn_result *res, struct lz_err *err);

/*
 * The same in two halves, so that several children can run at once (the
 * sandbox start overlaps the Network Sidecar's start with the State Anchor
 * helper). lz_spawn_start forks and execs argv as lz_spawn_capture does and
 * returns once execve succeeded; its failures are lz_spawn_capture's
 * (except -ETIMEDOUT), and then nothing is left running or open and p
 * needs no lz_spawn_wait. After a 0 return the caller must call
 * lz_spawn_wait(p) exactly once, on every path: it reads the output, kills
 * the child's process group when timeout_ms (counted from the start) has
 * passed, reaps the child and closes p's descriptors; it returns what
 * lz_spawn_capture would. Until then the output is not read: a child that
 * writes more than a pipe holds (64 KiB on Linux) waits for lz_spawn_wait,
 * so keep it to children that print little.
 */
struct lz_spawn_proc {
	pid_t pid;		/* -1 when there is no child */
	int out, err;		/* read ends, O_NONBLOCK and close-on-exec */
	int64_t deadline;	/* CLOCK_MONOTONIC ms, 0 for none */
	size_t cap;
	int timeout_ms;
	char *name;		/* argv[0], for messages */
};

int lz_spawn_start(const char *const *argv, const struct lz_spawn_opts *opts,
    struct lz_spawn_proc *p, struct lz_err *err);
int lz_spawn_wait(struct lz_spawn_proc *p, struct lz_spawn_result *res,
    struct lz_err *err);

/* CLOCK_MONOTONIC in milliseconds (the clock of lz_spawn_proc.deadline). */
int64_t lz_spawn_now_ms(void);
/* 1 when child pid (of this process) has ended; it is not reaped. */
int lz_spawn_ended(pid_t pid);

/*
 * Finds name in the colon-separated search path, returning an allocated
 * absolute path of the first regular file that is executable. Only
 * absolute elements are searched: an empty or relative one ("", ".",
 * "bin") would name a file in the working directory, which may be the
 * workspace the sandbox writes. A name with a '/' is returned as is.
 * Returns LZ_ENOTFOUND with a message when there is none.
 */
int lz_spawn_find(const char *name, const char *path, char **out,
    struct lz_err *err);

#endif
