/*
 * sandbox-argv.h: the podman command lines of the Agent Sandbox, built as
 * argument vectors (never a shell string) by pure functions, so every flag
 * is unit-tested. Running them is sandbox.c's job.
 *
 * "podman run -d" of the sandbox (lz_sandbox_argv_run) gives, in order:
 *
 *   PODMAN run -d --name lz-ID --label lazaret.domain=ID
 *     --label lazaret.role=sandbox [--annotation lazaret.anchors=VALUE]
 *     [--annotation lazaret.mailbox=DIR] [--annotation lazaret.view=VALUE]
 *     [--annotation lazaret.gate=FIFO]
 *     --runtime SHIM --pull=never
 *     --cgroupns=private --network=none --hostname lazaret --init
 *     [-e NAME=VALUE ...] [-e TERM=...] [-e TERMINFO=...]
 *     MOUNTS... -w /workspace IMAGE sleep infinity
 *
 * Decisions (docs/implementation-plan.md, "Agent Sandbox"):
 * - Capabilities: podman's default set, nothing added, nothing dropped.
 *   Root inside gVisor needs CHOWN, DAC_OVERRIDE, FOWNER, SETUID, SETGID
 *   and friends for apt-get, dpkg and useradd; every capability is one of
 *   the gVisor kernel's, not the host's, and the container's user
 *   namespace is the rootless user's. No --cap-add, no --privileged.
 * - SR-12: no --pid, --ipc, --uts, --userns or --cgroupns=host; cgroupns is
 *   set private explicitly because podman 4.3 on cgroup-v1 hosts otherwise
 *   joins the host's (RUNTIME-NOTES.md). No --security-opt: Debian has no
 *   SELinux, so "label=disable" would only weaken other hosts.
 * - --pull=never: the image is local (no registry is reachable); a missing
 *   image fails at once instead of trying a pull.
 * - --init: podman's catatonit (bound read-only from the host) is PID 1 and
 *   reaps the orphans of sessions; measured to work under runsc. The
 *   command is "sleep infinity" (coreutils, in the base image).
 * - Mounts in plan order: BIND gives "-v SRC:DST[:ro]", TMPFS gives
 *   "--mount type=tmpfs,destination=DST[,ro]", ANCHOR gives "-v MERGED:DST".
 *   A path that "-v" cannot say (one with ':' or ',', or a newline, or not
 *   absolute) is written as "--mount type=bind,source=...,destination=..."
 *   whose fields follow podman's CSV parser (Go encoding/csv): a field with
 *   ',', '"' or a newline is put in double quotes with '"' doubled. A
 *   carriage return is refused (encoding/csv drops the one before '\n').
 * - Environment: always "-e NAME=VALUE" (never a bare "-e NAME", which podman
 *   would read from its own environment, or a glob). Unset names are left
 *   out; invalid names are refused.
 */
#ifndef LZ_SANDBOX_ARGV_H
#define LZ_SANDBOX_ARGV_H

#include <stddef.h>

#include "core/mountplan.h"
#include "core/tokens.h"
#include "core/util.h"

#define LZ_SANDBOX_NAME_PREFIX "lz-"
#define LZ_SANDBOX_LABEL_DOMAIN "lazaret.domain"
#define LZ_SANDBOX_LABEL_ROLE "lazaret.role"
#define LZ_SANDBOX_ROLE_SANDBOX "sandbox"
#define LZ_SANDBOX_ROLE_SIDECAR "sidecar"
/* On containers created ahead for a Domain's next start (sandbox-prep.h):
 * the fingerprint of the command lines they were created with. */
#define LZ_SANDBOX_LABEL_PREPARED "lazaret.prepared"
/* Also on them: the Domain Root and the workspace of their Domain, so that
 * a pair whose Domain or project is gone is found and removed by another
 * Domain's teardown (lz_sandbox_stop). */
#define LZ_SANDBOX_LABEL_OWNER_ROOT "lazaret.domain-root"
#define LZ_SANDBOX_LABEL_OWNER_WORKSPACE "lazaret.workspace"
#define LZ_SANDBOX_WORKDIR "/workspace"
#define LZ_SANDBOX_HOSTNAME "lazaret"
#define LZ_SANDBOX_SIDECAR_SUFFIX "-net"
#define LZ_SANDBOX_SIDECAR_IMAGE "localhost/lazaret/netpolicy:" LZ_VERSION
#define LZ_SANDBOX_SIDECAR_PROGRAM "/lazaret-netpolicy"

/*
 * Network attachment (SR-9): the per-start attachment file the sidecar
 * gets (bound read-only at LZ_NETPOLICY_KEY_PATH; it holds the key and
 * both component IDs, netpolicy.h), the same key in hex for the
 * coordinator's check, and the runtime component IDs the readiness MAC
 * binds with the Domain ID. Only keyfile's path is on a command line.
 */
struct lz_sidecar_attach {
	const char *keyfile;		/* host path, absolute, no ':' or ',' */
	const char *key_hex;		/* what the coordinator checks with */
	const char *sidecar_id;		/* Network Sidecar ID */
	const char *sandbox_id;		/* Agent Sandbox ID */
};

struct lz_sandbox_use;

/* What "podman run" of one Domain's sandbox needs; every string borrowed. */
struct lz_sandbox_spec {
	const char *domain_id;		/* 16 hex digits */
	const char *runtime;		/* the lazaret-runsc shim (absolute) */
	const char *image;
	const struct lz_mountplan *plan;
	/* Host variable names passed through (profile "env"); each is read
	 * with getenv_fn (NULL: getenv(3)); unset ones are skipped. */
	const struct lz_tokens *env;
	const char *(*getenv_fn)(const char *);
	const char *term;		/* TERM inside, or NULL */
	const char *terminfo;		/* TERMINFO inside, or NULL */
	const char *network;		/* "--network" value; NULL: "none" */
	/*
	 * The Network Sidecar. netpolicy not NULL: lz_sandbox_start runs the
	 * sidecar first, with this canonical policy text (netpolicy.h), waits
	 * for its "ready <digest>", checks it, and gives the sandbox
	 * "--network=container:<sidecar ID>" (network is then ignored).
	 * netpolicy_sent, when not NULL, is the text actually passed (a test
	 * hook that makes the digests differ). sidecar_image NULL:
	 * LZ_SANDBOX_SIDECAR_IMAGE.
	 */
	const char *netpolicy;
	const char *netpolicy_sent;
	const char *sidecar_image;
	/* The sidecar's log file (removed first, then read for "ready");
	 * NULL: "podman logs" is asked. */
	const char *sidecar_log;
	/* The State Anchors for the runtime shim to mount: the value of
	 * the "lazaret.anchors" annotation (anchor-annot.h), or NULL. */
	const char *anchors;
	/* The workspace view for the shim to compose: the value of the
	 * "lazaret.view" annotation (ws-view.h), or NULL. */
	const char *view;
	/* Where podman writes the sidecar's process ID ("--pidfile", removed
	 * first; absolute). */
	const char *sidecar_pidfile;
	/* The same for the sandbox (its gVisor process), or NULL. */
	const char *sandbox_pidfile;
	/* With the sidecar: its attachment, checked with its readiness. */
	const struct lz_sidecar_attach *attach;
	/* The sidecar's seccomp profile (sidecar-seccomp.h): the file
	 * (absolute, no comma) and its SHA-256 (hex) for the label. */
	const char *sidecar_seccomp;
	const char *sidecar_seccomp_sha;
	/* The mailbox request directory the shim mounts a tmpfs on
	 * (annotation lazaret.mailbox, core/mailbox-mount.h), or NULL. */
	const char *mailbox;
	/*
	 * NULL: "podman run -d". Otherwise "podman create", labelled
	 * lazaret.prepared=VALUE unless VALUE is "" (a set created ahead
	 * for the next start, sandbox-prep.h; the value is its fingerprint,
	 * 64 hex digits).
	 */
	const char *prepared;
	/* The FIFO the runtime shim waits at before it creates the sandbox
	 * (annotation lazaret.gate, core/gate.h), or NULL. */
	const char *gate;
	/* A pair created ahead for this start and its inspection under
	 * way (sandbox.h, lz_sandbox_use_begin), or NULL. */
	struct lz_sandbox_use *use;
};

/* What "podman exec" of one session needs; every string borrowed. */
struct lz_sandbox_exec {
	const char *domain_id;
	int tty;			/* adds -t (and disables detach keys) */
	const char *cwd;		/* NULL: /workspace */
	const struct lz_tokens *env;	/* "NAME=VALUE" entries, or NULL */
	char *const *argv;		/* the command, NULL-terminated */
};

/* The container name "lz-<domain_id>" (allocated). */
char *lz_sandbox_name(const char *domain_id);
/* The sidecar's container name "lz-<domain_id>-net" (allocated). */
char *lz_sandbox_sidecar_name(const char *domain_id);

/*
 * Builds the Network Sidecar's "podman run -d" into out (empty), from
 * s's domain_id, sidecar_image, netpolicy (netpolicy_sent when not NULL),
 * sidecar_log, sidecar_pidfile, attach and sidecar_seccomp:
 *
 *   PODMAN run -d --name lz-ID-net [--log-driver k8s-file --log-opt path=LOG]
 *     [--pidfile PIDFILE] --label lazaret.domain=ID
 *     --label lazaret.role=sidecar --label lazaret.seccomp=SHA256
 *     --runtime crun --pull=never
 *     --network slirp4netns:allow_host_loopback=false,enable_ipv6=false
 *     --cap-drop all --cap-add NET_ADMIN
 *     --sysctl net.ipv6.conf.all.disable_ipv6=1
 *     --sysctl net.ipv6.conf.default.disable_ipv6=1
 *     --read-only --security-opt no-new-privileges
 *     --security-opt seccomp=SECCOMP --hostname lazaret
 *     [-v ATTACHFILE:/lazaret-attach.key:ro]
 *     --entrypoint /lazaret-netpolicy IMAGE POLICY-TEXT [DOMAIN-ID]
 *
 * With prepared not NULL it is "PODMAN create" and, unless prepared is
 * "", "--label lazaret.prepared=PREPARED" after the verb, as for the
 * sandbox. The policy travels as the program's argument (visible in
 * "podman inspect", which holds nothing secret); with attach, the Domain
 * ID follows it, and this start's key and component IDs are in the
 * attachment file, read when the container starts. The log, when not
 * NULL, is the file conmon writes the sidecar's output to, which the
 * start reads directly (a "podman logs" call is 0.1-0.15 s on the
 * critical path); the PID file, when not NULL, the file podman writes the
 * sidecar's process ID to before it returns (a "podman inspect" would
 * cost as much). LZ_EINVAL for a bad Domain ID, an empty policy, a
 * relative PID file, a log path that is relative or has a comma (podman
 * splits --log-opt at commas), or a missing or relative seccomp profile.
 */
int lz_sandbox_argv_sidecar(const char *podman,
    const struct lz_sandbox_spec *s, const char *prepared,
    struct lz_tokens *out, struct lz_err *err);

/*
 * Builds "PODMAN run -d ..." (above) into out, which must be empty.
 * LZ_EINVAL with a message for a bad domain ID, environment name, a path
 * that cannot be expressed (a carriage return or NUL-free but relative
 * target) or a missing field; out is left empty then.
 */
int lz_sandbox_argv_run(const char *podman, const struct lz_sandbox_spec *s,
    struct lz_tokens *out, struct lz_err *err);

/*
 * Builds "PODMAN exec -i [-t --detach-keys=] -w DIR [-e K=V ...] lz-ID
 * ARGV..." into out (empty). "--detach-keys=" keeps podman from eating
 * Ctrl-P in a terminal session. LZ_EINVAL for an empty command, a relative
 * cwd or an env entry without '='.
 */
int lz_sandbox_argv_exec(const char *podman, const struct lz_sandbox_exec *x,
    struct lz_tokens *out, struct lz_err *err);

/*
 * Builds a session's direct "runsc exec" (through the shim, which adds
 * its flags and execs runsc) into out (empty):
 *
 *   SHIM --root ROOT exec --cwd DIR [--env K=V ...] CONTAINER_ID ARGV...
 *
 * runsc takes the user, capabilities and base environment from the
 * container's own spec, as podman exec does, and the later of two equal
 * names wins. The checks of lz_sandbox_argv_exec, and LZ_EINVAL for a
 * container ID that is not 64 hex digits, relative paths, or an env
 * value with a comma (runsc's --env splits at commas: the caller then
 * uses podman exec).
 */
int lz_sandbox_argv_runsc_exec(const char *shim, const char *root,
    const char *container_id, const struct lz_sandbox_exec *x,
    struct lz_tokens *out, struct lz_err *err);

/*
 * Appends one field of podman's "--mount" CSV to b: as is, or quoted when
 * it contains ',', '"' or '\n' (or starts with a space). LZ_EINVAL when it
 * contains '\r', which the CSV reader would not give back.
 */
int lz_sandbox_csv_field(struct lz_buf *b, const char *field,
    struct lz_err *err);

/* 1 when a name is a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*). */
int lz_sandbox_env_name_valid(const char *name);

#endif
