/*
 * domain-busy.h: proving that nothing uses a Domain Root before "lazaret
 * state reset" or "verify" changes or judges it (SR-14): no mount and no
 * process may hold anything beneath it. The caller runs inside podman's
 * rootless namespace (its mounts are where the anchors were mounted) and
 * holds the Domain's lifecycle lock, having found no coordinator and no
 * container (sandbox.h); these two checks catch the rest: an overlay left
 * mounted, a bind of an upper layer somewhere else, a shell of the
 * developer's sitting in an upper layer, a process of a dying sandbox.
 */
#ifndef LZ_DOMAIN_BUSY_H
#define LZ_DOMAIN_BUSY_H

#include "core/anchor-mount.h"
#include "core/sandbox.h"
#include "core/tokens.h"
#include "core/util.h"

/*
 * Appends to out one line per mount of mi that uses dir (a canonical
 * absolute path): its mount point is dir or beneath it; it names a layer
 * beneath dir in its lowerdir, upperdir or workdir option; or it shows
 * a directory beneath dir elsewhere (a bind: the file system of dir, with
 * a root beneath dir's place in it).
 */
void lz_busy_mounts(const struct lz_mountinfo *mi, const char *dir,
    struct lz_tokens *out);
/*
 * Appends to out one line per process (this one excepted) whose working
 * directory, root, open files or memory mappings lie beneath dir, as far
 * as /proc lets this process see (the user's own and the namespace's
 * processes: the ones that can reach a private Domain Root).
 */
int lz_busy_procs(const char *dir, struct lz_tokens *out,
    struct lz_err *err);

/* 1 when a coordinator accepts connections on the control socket path. */
int lz_busy_socket(const char *path);

/* What lz_domain_quiesce found and did. */
struct lz_quiet {
	int lockfd;			/* the lifecycle lock, held; -1: none */
	struct lz_tokens recovered;	/* leftovers it removed */
	struct lz_tokens busy;		/* what uses the Domain */
};
#define LZ_QUIET_INIT { -1, LZ_TOKENS_INIT, LZ_TOKENS_INIT }

/*
 * SR-14's proof that Domain id (Domain Root droot, canonical; runtime
 * directory xdg_runtime/lazaret/<id>) is inactive, for a reset or a
 * verify: takes its lifecycle lock without waiting (the caller has waited
 * for an ending Domain), then finds no coordinator on the control socket;
 * removes containers of the Domain, and its anchor overlays and workspace
 * view, left by a coordinator that died (what every starter does, FR-7;
 * named in q->recovered) and checks that no container is left; then that
 * no mount (namespace mountinfo) and no process uses droot. On LZ_EBUSY q->busy says what is in the way and the lock is
 * released; on success the caller holds q->lockfd until it is done.
 */
int lz_domain_quiesce(const char *xdg_runtime, const char *id,
    const char *droot, const struct lz_sandbox_ctx *ctx, struct lz_quiet *q,
    struct lz_err *err);
void lz_quiet_release(struct lz_quiet *q);

#endif
