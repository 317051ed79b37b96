/*
 * domain-sandbox.h: bringing a Domain's transient resources up and down:
 * the mount plan (workspace, Git Sentry, Ignored Workspace State, State
 * Anchors, volumes, control mounts), the anchors' overlays in podman's
 * rootless namespace, and the Agent Sandbox container. Down removes
 * whatever carries the Domain's label, in FR-7 order (sandbox, sidecar,
 * anchors), and is also the recovery of a dead coordinator's leftovers.
 */
#ifndef LZ_DOMAIN_SANDBOX_H
#define LZ_DOMAIN_SANDBOX_H

#include "core/mountplan.h"
#include "core/sandbox.h"
#include "src/client-setup.h"

/* The sandbox's PID file in the runtime directory (podman --pidfile). */
#define LZ_DOMAIN_SANDBOX_PID "sandbox.pid"
/*
 * In the runtime directory while a start waits for the lifecycle lock
 * (lz_conn_open): a coordinator ending then skips preparing the next
 * start's containers (half a second or more under the lock) so that the
 * waiting start begins at once, on the full path. Only a hint: a stale
 * one costs one preparation.
 */
#define LZ_DOMAIN_START_WAITING "start-waiting"

/*
 * What one start binds its sidecar and sandbox to (SR-9), made by the
 * coordinator's Trust Anchor: the runtime component IDs, the sidecar's
 * attachment key (hex) and the sandbox's identity (PEM).
 */
struct lz_domain_identity {
	const char *sidecar_id, *sandbox_id;
	const char *attach_key;
	const char *ca_pem, *cert_pem, *key_pem;
};

/*
 * self: this lazaret binary, re-executed inside podman's
 * namespace. Lines the developer must read at launch (a core.hooksPath
 * inside the workspace) are added to warnings. st (initialised by the
 * caller) gets the sandbox's container ID, a pidfd of the Network
 * Sidecar's process, checked alive after its readiness (the caller
 * watches it), the command lines to prepare the next start with
 * (lz_domain_prepare) and lines for the log: a pair prepared when the
 * Domain last ended is used when it passes the checks of
 * core/sandbox-prep.h, and otherwise removed (and why logged) before the
 * full start. podman writes the sandbox's own process ID to
 * LZ_DOMAIN_SANDBOX_PID in the runtime directory.
 */
int lz_domain_up(const struct lz_client *c, const char *self,
    const struct lz_domain_identity *id, struct lz_sandbox_started *st,
    struct lz_buf *warnings, struct lz_err *err);
/*
 * After a teardown that succeeded (the caller holds the lifecycle lock):
 * empties this start's identity material in the runtime directory, then
 * creates the next start's containers with next's command lines
 * (lz_sandbox_prepare) and records them (LZ_SANDBOX_PREP_RECORD) for the
 * next lz_domain_up, which takes the record (only one start can) and
 * checks them before use. A line for the log goes to note. On failure
 * nothing is prepared and nothing is left.
 */
int lz_domain_prepare(const struct lz_client *c, const char *self,
    const struct lz_sandbox_plan *next, struct lz_buf *note,
    struct lz_err *err);
/* The runtime directories the mount plan binds (mailbox, terminfo,
 * identity), 0700, made when missing. */
int lz_domain_dirs(const struct lz_client *c, struct lz_err *err);
/* The mailbox's request directory (runtime dir); allocated. */
char *lz_domain_mailbox(const struct lz_client *c);
/*
 * Writes /run/lazaret/protected's file (lz_gitsentry_notice) for plan mp
 * into the runtime directory.
 */
int lz_domain_notice(const struct lz_client *c, const struct lz_mountplan *mp,
    struct lz_err *err);
/* Program name beside self (setup installs them together); allocated. */
char *lz_domain_sibling(const char *self, const char *name);
/* The runtime shim beside self; allocated. */
#define lz_domain_shim(self) lz_domain_sibling((self), "lazaret-runsc")
/*
 * The Domain's containers removed (its prepared pair and record too) and
 * its anchors unmounted (lz_sandbox_stop); the prepared containers of
 * other Domains whose Domain Root or workspace is gone go with them, said
 * in swept (may be NULL), a line each.
 */
int lz_domain_down(const struct lz_client *c, const char *self,
    struct lz_buf *swept, struct lz_err *err);

/*
 * The marker "clean" in the runtime directory, written by a coordinator
 * after its teardown succeeded: op 1 writes it; op -1 tests and removes it,
 * returning whether it was there. Only the lifecycle lock's holder calls.
 */
int lz_domain_mark_clean(const struct lz_client *c, int op);

#endif
