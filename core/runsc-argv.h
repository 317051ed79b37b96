/*
 * runsc-argv.h: the argument rewriting of the runtime shim lazaret-runsc
 * (src/lazaret-runsc.c), kept here as a pure function so it is unit-tested
 * under the sanitizers. It is not for running anything: the shim execs.
 *
 * Podman is given the shim with "--runtime"; podman and conmon call it with
 * runc-style arguments, "[GLOBAL FLAGS] SUBCOMMAND [FLAGS] ID [ARGS]". The
 * rewrite makes them acceptable to gVisor's runsc on these hosts
 * (RUNTIME-NOTES.md):
 *
 * - "--ignore-cgroups" and "--network=host" are added as global flags, right
 *   after argv[0], unless the caller already gave them (any spelling: one or
 *   two dashes, "--network VALUE" or "--network=VALUE"). Go's flag package
 *   keeps the last value, so a caller's own later flag would win anyway.
 * - "--tty" (also "-tty", "--tty=BOOL") is dropped from the flags of the
 *   "exec" subcommand only, which is where conmon passes it for
 *   "podman exec -t" (conmon#483, podman#21140): runsc exec has no such flag
 *   and the pty comes through "--console-socket" anyway. Flags of other
 *   subcommands, and the command and arguments after the container ID,
 *   are never changed.
 *
 * Finding the subcommand needs to know which global flags take a separate
 * value; the table is runsc 20240729's ("runsc flags"). An unknown global
 * flag is taken as boolean, as runsc's own bool flags are the majority.
 */
#ifndef LZ_RUNSC_ARGV_H
#define LZ_RUNSC_ARGV_H

#include "core/util.h"

/*
 * The runsc the shim execs, fixed at build time (see src/lazaret-runsc.c):
 * Debian's bookworm-backports package installs it here. lazaret doctor
 * checks the same file.
 */
#ifndef LZ_RUNSC_PATH
#define LZ_RUNSC_PATH "/usr/bin/runsc"
#endif
/* Oldest runsc that works here: bookworm's 20221219 breaks coreutils. */
#define LZ_RUNSC_MIN_DATE 20240729L

/*
 * Builds the argv to exec runsc with. argc/argv are the shim's own (argv[0]
 * is its name); runsc becomes argv[0] of the result. On success *out is a
 * NULL-terminated array allocated with the lz_xmalloc family whose strings
 * are borrowed from argv or runsc, or static: release it with
 * lz_runsc_argv_free(). Fails with LZ_EINVAL when argc < 1 or argv has a
 * NULL entry before argc.
 */
int lz_runsc_argv_build(int argc, char *const argv[], const char *runsc,
    char ***out, struct lz_err *err);

/*
 * For a "create" call, the bundle directory ("--bundle DIR", any
 * spelling; runsc's default, ".", without one), borrowed from argv; NULL
 * for any other subcommand or a "--bundle" without its value.
 */
const char *lz_runsc_argv_bundle(int argc, char *const argv[]);
/* Frees an array from lz_runsc_argv_build (not the strings). NULL is ok. */
void lz_runsc_argv_free(char **v);

#endif
