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
#include "src/client-setup.h"

/* The sandbox's PID file in the runtime directory (podman --pidfile). */
#define LZ_DOMAIN_SANDBOX_PID "sandbox.pid"

/*
 * self: this lazaret binary, re-executed inside podman's namespace. Lines
 * the developer must read at launch (a core.hooksPath inside the
 * workspace) are added to warnings. *container gets the sandbox's
 * container ID and *sidecar_pidfd a pidfd of the Network Sidecar's
 * process, checked alive after its readiness (the caller watches it and
 * closes it). podman writes the sandbox's own process ID to
 * LZ_DOMAIN_SANDBOX_PID in the runtime directory.
 */
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

int lz_domain_up(const struct lz_client *c, const char *self,
    const struct lz_domain_identity *id, char **container,
    int *sidecar_pidfd, struct lz_buf *warnings, struct lz_err *err);
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
int lz_domain_down(const struct lz_client *c, const char *self,
    struct lz_err *err);

/*
 * The marker "clean" in the runtime directory, written by a coordinator
 * after its teardown succeeded: op 1 writes it; op -1 tests and removes it,
 * returning whether it was there. Only the lifecycle lock's holder calls.
 */
int lz_domain_mark_clean(const struct lz_client *c, int op);

#endif
