/*
 * coordinator-relay.h: Client Sessions opened with "runsc exec" directly
 * (through the lazaret-runsc shim) instead of "podman exec": about 0.1 s
 * instead of 0.3-0.5 s per session (RUNTIME-NOTES.md), on the cold start's
 * critical path and on every warm one. podman exec stays the fallback.
 *
 * runsc exec hands its own stdin, stdout and stderr to the sandboxed
 * process (gVisor imports them as host descriptors), so anything the
 * session leaves running ("sleep 9 &") would hold the session's pty or
 * pipes and the session would not end with its process. conmon avoids that
 * for podman exec by sitting in between; the relay does the same job in
 * the session's own child: it gives runsc exec a pty (or pipes) of its
 * own, copies bytes both ways, passes window-size changes and signals on,
 * and ends when runsc exec ends, after draining what is already written.
 */
#ifndef LZ_COORDINATOR_RELAY_H
#define LZ_COORDINATOR_RELAY_H

#include "core/sandbox-argv.h"
#include "core/tokens.h"

/*
 * Builds x's direct "runsc exec" argv into av (empty) and returns 0, or
 * returns non-zero (av left empty) when podman exec must be used: the
 * environment asks for it (LAZARET_SESSION_EXEC=podman), runsc keeps no
 * state for the sandbox where Lazaret looks (its root under
 * $XDG_RUNTIME_DIR/runsc), or an env value has a comma.
 */
int lz_relay_argv(const struct lz_sandbox_exec *x, struct lz_tokens *av);

/*
 * In a session's child, after the pty or pipes are on fds 0-2 and every
 * other descriptor but report is closed: starts argv under the relay and
 * never returns. A failure to start argv is handed to lz_spawn_report
 * (core/spawn.h), which tells the coordinator's lz_spawn_child; once argv
 * runs, report is closed. The exit status is argv's (its signal re-raised).
 */
void lz_relay_run(char *const *argv, int tty, int report)
    __attribute__((__noreturn__));

#endif
