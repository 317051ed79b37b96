/*
 * hostcmd.h: running an approved Host Escalation command on the host
 * (SR-7, SR-8, OR-3; DESIGN.md "Escalation"). The coordinator calls it
 * once a human approved a request or a rule matched it; nothing here
 * decides whether a command may run.
 *
 * How a command runs, always:
 *   - through lz_spawn_child (core/spawn.c), from an argv, never a shell;
 *   - under a supervisor: a small process of the coordinator's (spawn's
 *     "run" mode) that is a session leader with no controlling terminal,
 *     a child subreaper, and has PR_SET_PDEATHSIG. The command is its
 *     child in a process group of its own inside that session (so it can
 *     never gain a controlling terminal), with stdin /dev/null and
 *     stdout and stderr on two pipes the caller reads;
 *   - the supervisor's exit status is the command's (its exit code, or
 *     the signal that killed it, raised again): lz_hostcmd_status;
 *   - on SIGTERM, SIGHUP or SIGINT to the supervisor (lz_hostcmd_kill,
 *     or the coordinator dying: PR_SET_PDEATHSIG), it SIGKILLs the
 *     command's process group and then every process left below it
 *     (descendants that left the group or the session are reparented to
 *     the supervisor, a subreaper, and killed in turn), reaps them all and
 *     exits 137: a `git push` and its `ssh` both go;
 *   - when the command exits by itself, the request is over: processes
 *     it left running on purpose (a browser it opened) are not killed.
 *
 * Working directory: the request's sandbox directory mapped beneath the
 * host workspace and opened with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS) when the request arrives (lz_hostcmd_dir_open);
 * the supervisor fchdirs to that descriptor, so what the prompt showed is
 * where the command runs even if the path changes meanwhile. A directory
 * outside /workspace, one that does not resolve that way (a symlink
 * planted on the way, a missing one) or one in a Git-ignored path the
 * sandbox has its own copy of is replaced by the workspace's top level,
 * and why says so.
 *
 * Environment: only the profile's escalation-env names, with values the
 * caller gives (the approving client's environment, or the coordinator's
 * for rules), never the sandbox's; plus GIT_TERMINAL_PROMPT=0.
 *
 * Ownership: the caller owns the pipes (read them, e.g. with libuv, and
 * close them), reaps the supervisor (its pid) and closes the directory.
 * The caller must be single-threaded (spawn.h).
 */
#ifndef LZ_HOSTCMD_H
#define LZ_HOSTCMD_H

#include <sys/types.h>

#include <stddef.h>

#include "core/tokens.h"
#include "core/util.h"

/* escalation-env when the profile does not set it. */
#define LZ_HOSTCMD_ENV_DEFAULT "HOME PATH USER LANG SSH_AUTH_SOCK DISPLAY " \
	"WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR"
/* Bytes kept of each of stdout and stderr (wire.md 2.2). */
#define LZ_HOSTCMD_OUTPUT_MAX (1024 * 1024)
/* The sandbox path of the workspace. */
#define LZ_HOSTCMD_SANDBOX_WORKSPACE "/workspace"

/*
 * The program argv[0] names, as an allocated absolute path: a name is
 * looked up in the absolute elements of path (NULL or "":
 * LZ_SPAWN_PATH_DEFAULT); a name with a '/' is returned as is (relative
 * ones are then found from the working directory). LZ_ENOTFOUND with a
 * message when no executable file has that name.
 */
int lz_hostcmd_resolve(const char *name, const char *path, char **out,
    struct lz_err *err);

struct lz_hostcmd_dir {
	int fd;			/* O_PATH directory; -1 before open */
	char *rel;		/* relative to the workspace; "" is the top */
	char *host;		/* the absolute host path (for the prompt) */
	const char *why;	/* NULL, or why the top level was taken */
};

/*
 * Maps sandbox_cwd ("/workspace/src") to its host directory beneath
 * workspace (the canonical host path) and opens it; isolated lists the
 * Git-ignored paths the sandbox has its own copy of (core/ignored.h
 * spelling: "node_modules/", ".env"). Falls back to the top level as
 * described above. Fails only when the workspace itself cannot be opened.
 */
int lz_hostcmd_dir_open(const char *workspace, const char *sandbox_cwd,
    const struct lz_tokens *isolated, struct lz_hostcmd_dir *d,
    struct lz_err *err);
void lz_hostcmd_dir_release(struct lz_hostcmd_dir *d);

/*
 * "NAME=value" for each of names that get() finds (a client's own
 * environment: getenv), appended to out: what a DECISION carries.
 */
void lz_hostcmd_env_collect(const struct lz_tokens *names,
    char *(*get)(const char *), struct lz_tokens *out);
/*
 * The command's environment, appended to envp: for each of names, the
 * first "NAME=value" of given that has it (others in given are ignored),
 * then GIT_TERMINAL_PROMPT=0 (there is no terminal to ask on).
 */
void lz_hostcmd_env(const struct lz_tokens *names,
    const struct lz_tokens *given, struct lz_tokens *envp);

struct lz_hostcmd_spec {
	const char *const *argv;	/* as approved (argv[0] as asked) */
	const char *program;		/* lz_hostcmd_resolve's; NULL: here */
	const char *const *envp;	/* lz_hostcmd_env's */
	int dirfd;			/* lz_hostcmd_dir's fd (borrowed) */
};

struct lz_hostcmd {
	pid_t pid;		/* the supervisor (its process group too) */
	int out, err;		/* read ends of stdout, stderr; close-on-exec */
};

/*
 * Starts the command under its supervisor and returns once it runs
 * (execve succeeded), or fails with nothing left running or open:
 * LZ_ENOTFOUND (no such program), the negated errno of the step that
 * failed (-EACCES ...) or LZ_ESYS, with the program named in err.
 */
int lz_hostcmd_start(const struct lz_hostcmd_spec *s, struct lz_hostcmd *h,
    struct lz_err *err);
/*
 * Cancel, timeout, session end, Domain failure: the supervisor kills the
 * command and everything below it, then exits 137. Reap it as usual.
 * Returns 0, or the negated errno of kill(2) (-ESRCH: already gone).
 */
int lz_hostcmd_kill(const struct lz_hostcmd *h);
/* The command's exit status (0-255; 128 + n when killed by signal n) and
 * the signal (or 0), from the supervisor's wait status. */
void lz_hostcmd_status(int wstatus, int *status, int *signal);

/*
 * Output kept up to LZ_HOSTCMD_OUTPUT_MAX bytes; what comes after is
 * counted in total and dropped, and truncated is set (the result says so).
 */
struct lz_hostcmd_output {
	struct lz_buf buf;
	size_t total;
	int truncated;
};
void lz_hostcmd_output_init(struct lz_hostcmd_output *o);
void lz_hostcmd_output_add(struct lz_hostcmd_output *o, const void *data,
    size_t len);
void lz_hostcmd_output_release(struct lz_hostcmd_output *o);

#endif
