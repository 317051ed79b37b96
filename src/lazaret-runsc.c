/*
 * lazaret-runsc.c: the runtime shim podman is given with
 * "--runtime /usr/local/bin/lazaret-runsc". It rewrites its arguments for
 * gVisor's runsc (core/runsc-argv.h: adds --ignore-cgroups --network=host,
 * drops the --tty conmon passes to "exec") and execs runsc in its place.
 * It is not a wrapper that stays around: after execv there is only runsc.
 *
 * On "create" it first waits at the gate the bundle's config.json names
 * in its "lazaret.gate" annotation until the coordinator says the
 * sandbox's Network Sidecar is verified, and refuses a sandbox in any
 * other network namespace than that sidecar's (core/gate.h). Then it
 * mounts the State Anchors the bundle's config.json
 * names in its "lazaret.anchors" annotation (core/anchor-annot.h): podman
 * runs it inside its rootless user and mount namespace with the
 * container's root mounted, which is where and when the overlays must be
 * made. A bundle without the annotation mounts nothing.
 *
 * The runsc binary is a fixed absolute path, LZ_RUNSC_PATH (default
 * /usr/bin/runsc, where Debian's bookworm-backports package puts it),
 * chosen at build time only, e.g. with
 * -DCMAKE_C_FLAGS='-DLZ_RUNSC_PATH=\"/opt/gvisor/runsc\"'. There is
 * deliberately no environment override: anything able to set the
 * coordinator's environment could then swap the sandbox's isolation
 * boundary for another program without a trace, and no test needs it (the
 * rewriting is a pure function under unit test).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/anchor-annot.h"
#include "core/gate.h"
#include "core/mailbox-mount.h"
#include "core/runsc-argv.h"

int
main(int argc, char **argv)
{
	struct lz_err err = LZ_ERR_INIT;
	const char *bundle;
	char **v = NULL;
	size_t n;
	int saved;

	bundle = lz_runsc_argv_bundle(argc, argv);
	/* Nothing of the sandbox before its verified sidecar (gate.h). */
	if (bundle != NULL && lz_gate_annot_wait(bundle, &err) != 0) {
		fprintf(stderr, "lazaret-runsc: %s\n", err.msg);
		lz_err_release(&err);
		return 125;
	}
	if (bundle != NULL && lz_anchor_annot_mount(bundle, &n, &err) != 0) {
		fprintf(stderr, "lazaret-runsc: State Anchors: %s\n", err.msg);
		lz_err_release(&err);
		return 125;
	}
	if (bundle != NULL && lz_mailbox_annot_mount(bundle, &err) != 0) {
		fprintf(stderr, "lazaret-runsc: mailbox: %s\n", err.msg);
		lz_err_release(&err);
		return 125;
	}
	if (lz_runsc_argv_build(argc, argv, LZ_RUNSC_PATH, &v, &err) != 0) {
		fprintf(stderr, "lazaret-runsc: %s\n", err.msg);
		lz_err_release(&err);
		return 125;
	}
	execv(LZ_RUNSC_PATH, v);
	saved = errno;
	fprintf(stderr, "lazaret-runsc: cannot execute '%s': %s (install "
	    "runsc from bookworm-backports: sudo scripts/setup.sh)\n",
	    LZ_RUNSC_PATH, strerror(saved));
	lz_runsc_argv_free(v);
	return saved == ENOENT ? 127 : 126;
}
