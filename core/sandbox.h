/*
 * sandbox.h: the Agent Sandbox's lifecycle through rootless podman:
 * start (State Anchors mounted, then "podman run -d"), stop (containers
 * removed, then anchors unmounted) and list (the containers labelled with
 * a Domain ID). Every call is blocking and goes through lz_spawn_capture
 * (argv only); a failure's message carries podman's own stderr. The
 * coordinator calls these from its start-up and teardown paths, and the
 * client's recovery calls lz_sandbox_stop for leftovers (FR-7).
 *
 * State Anchors are mounted by the runtime shim when podman has it create
 * the sandbox (anchor-annot.h: the sandbox's "podman run" carries them in
 * the "lazaret.anchors" annotation), over the container's own root: every
 * start mounts them afresh, so "podman system migrate", which takes the
 * pause process and its mounts away, needs nothing special. They are
 * unmounted by re-executing the running lazaret binary as
 *
 *   podman unshare SELF __anchor umount -u DIR
 *
 * (src/cmd-anchor-helper.c over core/anchor-mount.h).
 */
#ifndef LZ_SANDBOX_H
#define LZ_SANDBOX_H

#include <sys/types.h>

#include <stddef.h>

#include "core/sandbox-argv.h"
#include "core/sandbox-prep.h"
#include "core/spawn.h"
#include "core/util.h"

#define LZ_SANDBOX_PODMAN_FALLBACK "/usr/bin/podman"
#define LZ_SANDBOX_TIMEOUT_MS 120000
#define LZ_SANDBOX_SIDECAR_READY_MS 15000	/* "ready" must come by then */

struct lz_sandbox_ctx {
	char *podman;		/* absolute path of podman */
	char *self;		/* the lazaret binary run as "__anchor" */
	int timeout_ms;		/* for each podman call */
	/* The mailbox's tmpfs (core/mailbox-mount.h) to take off at stop,
	 * or NULL; set by the caller. */
	char *mailbox;
	/* Where lz_sandbox_stop says what it removed of other Domains (a
	 * line each), or NULL; set by the caller. */
	struct lz_buf *swept;
};

/*
 * Fills c. podman NULL: "podman" in $PATH, else /usr/bin/podman. self
 * NULL: the running executable (/proc/self/exe resolved now, so a rebuilt
 * binary is not picked up half-way). LZ_ENOTFOUND when podman is missing.
 */
int lz_sandbox_ctx_init(struct lz_sandbox_ctx *c, const char *podman,
    const char *self, struct lz_err *err);
void lz_sandbox_ctx_release(struct lz_sandbox_ctx *c);

/*
 * Starts Domain s->domain_id's sandbox: for every ANCHOR entry of s->plan,
 * prepares its directories under domain_root (lz_anchor_prepare; the
 * entry's source must be the anchor's merged directory) and mounts it,
 * then runs "podman run -d" (sandbox-argv.h). *container_id gets the new
 * container's ID (allocated). On failure everything made is undone with
 * lz_sandbox_stop (whose own failure is appended to the message) and the
 * message says why: a missing image gives "image 'X' not found; run
 * scripts/setup.sh or set image = ... in the profile" (LZ_ENOTFOUND).
 * A container of the same name left over makes podman fail: the caller
 * recovers (lz_sandbox_stop) first.
 */
int lz_sandbox_start(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    char **container_id, struct lz_err *err);
/* What lz_sandbox_start_net started, and what the next start can use. */
struct lz_sandbox_started {
	char *container_id;	/* the sandbox's (allocated) */
	char *sidecar_id;	/* the Network Sidecar's, or NULL */
	int sidecar_pidfd;	/* its process, checked alive; or -1 */
	/* The command lines a next start with this spec would run
	 * (sandbox-prep.h; empty without a sidecar). */
	struct lz_sandbox_plan next;
	/* Lines for the coordinator's log: whether a prepared pair was
	 * used, and why not. */
	struct lz_buf note;
};
void lz_sandbox_started_init(struct lz_sandbox_started *st);
/* Frees what st holds and closes its pidfd. */
void lz_sandbox_started_release(struct lz_sandbox_started *st);

/*
 * lz_sandbox_start with the Network Sidecar (s->netpolicy not NULL), and
 * what st says. The order is: the sidecar (its readiness, "ready <digest>
 * <mac>" in its log file s->sidecar_log, or "podman logs", within
 * LZ_SANDBOX_SIDECAR_READY_MS, the digest compared with the SHA-256 of
 * s->netpolicy, the MAC with s->attach, and its process, from
 * s->sidecar_pidfile and held as a pidfd, still alive after "ready");
 * then the sandbox with "--network=container:<sidecar ID>", and the
 * sidecar's process checked alive once more after it (podman starts a
 * dependency that has stopped on its own, which would be a sidecar
 * nobody checked). A sidecar that exits, times out or reports another
 * digest fails the start before the sandbox exists, and the message says
 * why (with the sidecar's own error line).
 *
 * The sandbox's creation waits at the gate s->gate (gate.h) until the
 * sidecar passed those checks, and only in that sidecar's network.
 *
 * With s->use (a pair created ahead, sandbox-prep.h, and its inspection,
 * lz_sandbox_use_begin) whose fingerprint is this spec's: one "podman
 * start" of the prepared sandbox, which starts its sidecar first; while
 * the sandbox waits at the gate, the inspection must pass
 * lz_sandbox_prep_check and the sidecar the readiness checks, then "go";
 * the sandbox's creation must have read it. Anything found stale or
 * failing on that way is said in st->note; whatever of the Domain exists
 * is then removed (lz_sandbox_stop) and the start runs in full ("podman
 * run -d" of both).
 */
int lz_sandbox_start_net(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    struct lz_sandbox_started *st, struct lz_err *err);

/*
 * A pair created ahead (sandbox-prep.h), podman's inspection of it and,
 * once launched, the "podman start" of its sandbox held at the gate.
 */
struct lz_sandbox_use {
	struct lz_sandbox_prepared p;
	struct lz_spawn_proc inspect;
	int running;			/* inspect not reaped yet */
	int inspected;			/* images checked by inspect */
	struct lz_spawn_proc start;	/* "podman start" of the sandbox */
	int launched;			/* start not reaped yet */
	int gate;			/* the gate (gate.h) while launched */
};
/*
 * Prepares the use of pair p: when podman's image store changed since p
 * was made (lz_sandbox_prep_images_same), starts "podman inspect" of p's
 * sidecar, of image (the sandbox's) and of sidecar_image (NULL:
 * LZ_SANDBOX_SIDECAR_IMAGE), to run while the caller sets the start up
 * and while the start runs; lz_sandbox_start_net judges it (with s->use =
 * u) before it lets the sandbox be created. lz_sandbox_use_end reaps it
 * when the start did not get that far (harmless otherwise).
 */
int lz_sandbox_use_begin(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_prepared *p, const char *image,
    const char *sidecar_image, struct lz_sandbox_use *u, struct lz_err *err);
/*
 * Starts the pair early: one "podman start" of the prepared sandbox, which
 * starts its sidecar first, while the caller is still setting the start
 * up. Needs only s's gate, sidecar log and PID file: the sandbox's
 * creation waits at the gate, which says "go" only in
 * lz_sandbox_start_net, after the spec's fingerprint matched the pair's,
 * the inspection passed and the sidecar was verified. Nothing in the
 * sandbox runs before that; the sidecar runs the policy the pair was made
 * with, which the fingerprint and the readiness report's digest check.
 * Idempotent; lz_sandbox_start_net launches a pair not launched yet. On
 * failure nothing was started.
 */
int lz_sandbox_use_launch(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, struct lz_sandbox_use *u,
    struct lz_err *err);
/*
 * Gives the pair up when the start did not use it: a launched start is
 * told "no WHY" at the gate (no sandbox is created) and reaped, the
 * inspection reaped. Harmless after use. The sidecar a launch started is
 * left running: the caller removes the Domain's containers
 * (lz_sandbox_stop), as after any failed start. 1 when a launched start
 * was refused, 0 otherwise.
 */
int lz_sandbox_use_end(struct lz_sandbox_use *u, const char *why);

/*
 * Creates plan's containers (sandbox-prep.h), the sidecar first (the
 * sandbox's "--network" needs its ID), into out, both labelled with
 * domain_root and workspace (LZ_SANDBOX_LABEL_OWNER_ROOT, _WORKSPACE; not
 * part of the fingerprint). On failure whatever was made is removed
 * (lz_sandbox_stop) and out is zeroed.
 */
int lz_sandbox_prepare(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_plan *plan, const char *domain_id,
    const char *domain_root, const char *workspace,
    struct lz_sandbox_prepared *out, struct lz_err *err);

/*
 * Splits conmon's k8s-file log text ("TIME STREAM F|P TEXT" lines; P is
 * a partial line) into the stdout and stderr text (pure). An unfinished
 * last line is left out.
 */
void lz_sandbox_log_split(const char *text, struct lz_buf *out,
    struct lz_buf *err);

/*
 * Tears Domain domain_id down, in FR-7's order: removes ("podman rm -f -t
 * 0") every container labelled lazaret.domain=ID with role "sandbox" and
 * the container named lz-ID (which a podman killed during "run" may have
 * left unlabelled in storage), then those with role "sidecar" and the one
 * named lz-ID-net, then any other with the label. The containers are
 * found with one "podman ps -a --external" (lz_sandbox_list_select), so
 * a step with nothing to remove runs no podman; when that listing fails,
 * the label listing is used and both names are removed blindly. Once
 * the sandbox's removal has been tried, it unmounts every anchor overlay
 * under domain_root/anchors while the sidecar is being removed: nothing
 * but the sandbox uses the anchors. Assumes nothing is gone: each step runs whatever happened before,
 * and every step is tried even when an earlier one failed (the first
 * failure is returned). Running it on a stopped Domain changes nothing
 * and returns 0.
 * With the full listing it also removes, sandboxes first, the containers
 * prepared for other Domains (created, never run) whose Domain Root or
 * workspace, as their labels name them, no longer exists: no start will
 * claim them (lz_sandbox_entry_orphan). What it removed so goes to
 * c->swept; a failure there is only said there.
 */
int lz_sandbox_stop(const struct lz_sandbox_ctx *c, const char *domain_id,
    const char *domain_root, struct lz_err *err);

struct lz_sandbox_entry {
	char *id;
	char *name;		/* first name, or "" */
	char *role;		/* lazaret.role label, or "" */
	char *domain;		/* lazaret.domain label, or "" */
	char *state;		/* "running", "exited", "created", ... */
	char *prepared;		/* lazaret.prepared label, or "" */
	char *owner_root;	/* lazaret.domain-root label, or "" */
	char *owner_workspace;	/* lazaret.workspace label, or "" */
};
/* 1 for a container prepared for a next start that never ran. */
int lz_sandbox_entry_prepared(const struct lz_sandbox_entry *e);
/*
 * For a prepared container (lz_sandbox_entry_prepared) of another Domain
 * than domain_id: 1 when the Domain Root its label names does not exist
 * (lstat: ENOENT or ENOTDIR), 2 when the workspace does not; 0 otherwise,
 * and when it has no such labels (made before them) or it cannot be told.
 */
int lz_sandbox_entry_orphan(const struct lz_sandbox_entry *e,
    const char *domain_id);

struct lz_sandbox_list {
	struct lz_sandbox_entry *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_SANDBOX_LIST_INIT { NULL, 0, 0 }

/*
 * Every container of the account, storage-only ones included ("podman ps
 * -a --external"), into out ("lazaret state list" counts the prepared
 * ones per Domain).
 */
int lz_sandbox_list_all(const struct lz_sandbox_ctx *c,
    struct lz_sandbox_list *out, struct lz_err *err);

/*
 * Lists the containers labelled lazaret.domain=domain_id ("podman ps -a
 * --filter label=... --format json"), appended to out.
 */
int lz_sandbox_list(const struct lz_sandbox_ctx *c, const char *domain_id,
    struct lz_sandbox_list *out, struct lz_err *err);
/*
 * Every container of Domain domain_id, those podman keeps in storage only
 * included ("podman ps -a --external", then lz_sandbox_list_select; the
 * label listing when that fails), appended to out. "lazaret state"
 * proves with it that no sandbox or sidecar of a Domain exists (SR-14).
 */
int lz_sandbox_list_domain(const struct lz_sandbox_ctx *c,
    const char *domain_id, struct lz_sandbox_list *out, struct lz_err *err);
/* Parses podman's "ps --format json" output (pure; unit-tested). */
int lz_sandbox_list_parse(const char *json, struct lz_sandbox_list *out,
    struct lz_err *err);
void lz_sandbox_list_release(struct lz_sandbox_list *l);
/*
 * Appends to out the entries of all (a "podman ps -a --external" listing,
 * which includes containers left in storage only) that belong to Domain
 * domain_id: those labelled with it, and those named lz-ID or lz-ID-net
 * whatever their labels (a podman killed during "run" may leave one
 * unlabelled); such an unlabelled one gets the role its name implies.
 * Pure (unit-tested).
 */
void lz_sandbox_list_select(const struct lz_sandbox_list *all,
    const char *domain_id, struct lz_sandbox_list *out);

/*
 * The process of a container podman started with --pidfile pidfile, as a
 * pidfd (so its exit cannot be mistaken for another process's); what
 * names it in messages; *pid (when not NULL) gets the process ID. LZ_ESYS
 * when the file holds no process ID or the process is gone.
 */
int lz_sandbox_pidfd(const char *pidfile, const char *what, int *pidfd,
    pid_t *pid, struct lz_err *err);

#endif
