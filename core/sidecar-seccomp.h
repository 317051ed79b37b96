/*
 * sidecar-seccomp.h: the Network Sidecar's own seccomp profile (issue 19).
 *
 * The sidecar (src/lazaret-netpolicy.c under crun, NET_ADMIN in its
 * netns) used podman's default profile: some 370 system calls allowed,
 * which crun compiles with libseccomp at every start (13 ms of CPU, 15-25
 * ms on the cold start's critical path: journal, 2026-12-02). This profile
 * allows only what the program and crun's last steps before it are seen
 * to call (execve, close; every call of a run, SCMP_ACT_LOG, listed in the
 * journal), plus the error paths of a static glibc (abort, exit, mmap for
 * a large policy); ioctl only with SIOCGIFINDEX (if_nametoindex). Anything
 * else fails with EPERM, so the sidecar, which stops at its first failure,
 * says which call was refused in its log. Native architecture only: the
 * 32-bit and x32 entry points are refused by libseccomp's default.
 *
 * podman reads the file when it creates the container ("--security-opt
 * seccomp=FILE") and keeps the profile in the container's configuration;
 * the start writes the file anew each time (the Domain's runtime
 * directory), and the sidecar carries the profile's SHA-256 as its
 * "lazaret.seccomp" label, so a prepared sidecar made with another
 * profile has another fingerprint (sandbox-prep.h) and is not used.
 */
#ifndef LZ_SIDECAR_SECCOMP_H
#define LZ_SIDECAR_SECCOMP_H

#include "core/util.h"

/* The profile's file name in a Domain's runtime directory. */
#define LZ_SIDECAR_SECCOMP_FILE "sidecar-seccomp.json"
/* The sidecar's label that carries the profile's SHA-256 (hex). */
#define LZ_SIDECAR_SECCOMP_LABEL "lazaret.seccomp"

/* The profile (OCI / containers-common seccomp JSON, one line) into out. */
void lz_sidecar_seccomp_json(struct lz_buf *out);

#endif
