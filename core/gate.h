/*
 * gate.h: the Agent Sandbox is created only in the verified Network
 * Sidecar's network namespace (SR-5, SR-12).
 *
 * The sandbox's command line carries the annotation "lazaret.gate=PATH",
 * a FIFO the coordinator makes anew in the runtime directory at every
 * start and holds open for the whole of the sandbox's "podman run" or
 * "podman start" (lz_gate_open). When podman has the runtime shim create
 * the sandbox, the shim, before it mounts or creates anything, opens PATH
 * and reads one line the coordinator writes (lz_gate_say): "go PID" once
 * the sidecar's readiness report was checked (policy digest, attachment
 * MAC) and its process PID seen alive after it, or "no REASON". It goes
 * on only after "go", and only when the network namespace podman created
 * the sandbox in is that process's (/proc/PID/ns/net): podman starts a
 * stopped dependency on its own, so a sandbox whose sidecar exited would
 * otherwise join a new sidecar nobody checked. Nobody holding the FIFO
 * (a "podman start" by hand, a coordinator killed meanwhile: end of file
 * at once) and no line within LZ_GATE_WAIT_MS are refusals too.
 *
 * This lets the coordinator start the sandbox's container before the
 * sidecar is verified (one "podman start" of a prepared sandbox starts its
 * sidecar as a dependency: sandbox-prep.h) and hold only its creation.
 */
#ifndef LZ_GATE_H
#define LZ_GATE_H

#include "core/util.h"

#define LZ_GATE_ANNOTATION "lazaret.gate"
#define LZ_GATE_WAIT_MS 60000
#define LZ_GATE_LINE_MAX 512

/*
 * The coordinator's side: makes the FIFO path (absolute) anew, mode 0600,
 * and opens it (read-write, so that no open waits for a peer and the
 * line written stays there until the shim reads it); the descriptor
 * (close-on-exec) is returned, or a negative LZ_* code. The caller closes
 * it once the podman that creates the sandbox has ended.
 */
int lz_gate_open(const char *path, struct lz_err *err);
/* Writes line and its newline (one line, shorter than PIPE_BUF) to fd. */
int lz_gate_say(int fd, const char *line, struct lz_err *err);

/*
 * The judgement of the shim (pure): 0 when line is "go PID" (PID a
 * positive decimal) and netns, the network namespace path of the
 * sandbox's config.json, is "/proc/PID/ns/net". Otherwise LZ_EUNSAFE with
 * the reason ("no ..." lines are the coordinator's).
 */
int lz_gate_judge(const char *line, const char *netns, struct lz_err *err);

/*
 * In the shim, for "create": when the bundle's config.json has the gate
 * annotation, waits for the line (LZ_GATE_WAIT_MS at most) and judges it
 * against the config's network namespace. 0 when there is no gate or it
 * said go for that namespace.
 */
int lz_gate_annot_wait(const char *bundle, struct lz_err *err);

#endif
