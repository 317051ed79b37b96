/*
 * sandbox-prep.h: a Domain's next start made ahead (issue 19; pure parts:
 * core/sandbox.c runs podman, lz_sandbox_prepare). When a
 * Domain ends cleanly its coordinator creates ("podman create", never
 * started) the Network Sidecar and the Agent Sandbox containers its next
 * start would run, with the command lines of the start that just ended
 * (lz_sandbox_plan), and records their IDs (lz_sandbox_prepared) in the
 * runtime directory. The next start then only "podman start"s them
 * (core/sandbox.c), which takes podman's container creation off its
 * critical path, after checking that they are still exactly what it would
 * create (FR-7: found stale, they are removed and the start takes the
 * full path):
 *
 * - the fingerprint: SHA-256 of both command lines as this start builds
 *   them (policy text, mount plan, annotations with the anchors'
 *   generations, images by name, runtime, paths) equals the record's (the
 *   containers carry it as their "lazaret.prepared" label, and a
 *   container's configuration cannot change after "podman create");
 * - the images: each container was made from the image its name means
 *   now. podman's image store rewrites the file that lists its images
 *   (containers/storage's "<driver>-images/images.json") whenever an
 *   image is added, removed, tagged or untagged, and never for a
 *   container: when that file's stamp (device, inode, size, modification
 *   time) is the one taken around the pair's creation, no name can mean
 *   another image; otherwise (or when the file cannot be read) "podman
 *   inspect" of the sidecar and of both images, run while the start runs,
 *   must show the recorded IDs, name, labels and fingerprint and, if the
 *   sidecar runs, the process this start's podman wrote to the PID file
 *   the start emptied first;
 * - the sidecar: not running when the start begins (its last PID file
 *   names no live lazaret-netpolicy);
 * - the sandbox: its creation must pass this start's gate (gate.h): a
 *   "podman start" that returns without having read the gate's line
 *   found it running already.
 *
 * Nothing of a start is in these command lines: the sidecar's key and
 * component IDs are in its attachment file, the sandbox's identity in
 * files of the runtime directory, both written by the coordinator just
 * before the containers start (netpolicy.h); so prepared containers carry
 * no identity material of an earlier start.
 */
#ifndef LZ_SANDBOX_PREP_H
#define LZ_SANDBOX_PREP_H

#include <stddef.h>

#include "core/sandbox-argv.h"
#include "core/tokens.h"
#include "core/util.h"

/* The record's file name in the runtime directory. */
#define LZ_SANDBOX_PREP_RECORD "prepared"
/* Where the sidecar's ID goes in the sandbox's planned "--network". */
#define LZ_SANDBOX_PREP_PEER "lazaret-prepared-sidecar"

#define LZ_SANDBOX_PREP_PATH_MAX 1024
#define LZ_SANDBOX_PREP_STAMP_MAX 96

/*
 * A created pair: its fingerprint, the two 64-hex container IDs, the
 * images they were made from, and podman's image store as it was while
 * they were made: the file that lists its images (store, absolute, or
 * "-") and its stamp (lz_sandbox_prep_stamp, or "-").
 */
struct lz_sandbox_prepared {
	char fp[65];
	char sidecar[65];
	char sandbox[65];
	char sidecar_image[65];
	char sandbox_image[65];
	char stamp[LZ_SANDBOX_PREP_STAMP_MAX];
	char store[LZ_SANDBOX_PREP_PATH_MAX];
};

/*
 * The "podman create" command lines of a start's two containers, with
 * the label lazaret.prepared=FP; the sandbox's "--network" names
 * LZ_SANDBOX_PREP_PEER, replaced by the sidecar's ID when it is made.
 */
struct lz_sandbox_plan {
	char fp[65];
	struct lz_tokens sidecar;
	struct lz_tokens sandbox;
	/*
	 * The image list file of the pair this start used (its record's
	 * store), or "": lz_sandbox_prepare then waits for podman info
	 * before it creates anything; with it, podman info runs beside the
	 * creation and only confirms it.
	 */
	char store[LZ_SANDBOX_PREP_PATH_MAX];
};
#define LZ_SANDBOX_PLAN_INIT { "", LZ_TOKENS_INIT, LZ_TOKENS_INIT, "" }

/*
 * Fills p (empty) from s as a start with a sidecar uses it (s->anchors
 * set; s->netpolicy not NULL): fp is the SHA-256 of both command lines
 * without the label and without podman's own path. Pure.
 */
int lz_sandbox_plan_make(const char *podman, const struct lz_sandbox_spec *s,
    struct lz_sandbox_plan *p, struct lz_err *err);
void lz_sandbox_plan_release(struct lz_sandbox_plan *p);

/*
 * The record's text: "lazaret-prepared 1\n" then FP, SIDECAR, SANDBOX,
 * SIDECAR_IMAGE, SANDBOX_IMAGE, STAMP and STORE, a line each.
 */
void lz_sandbox_prep_format(const struct lz_sandbox_prepared *p,
    struct lz_buf *out);
/* Parses exactly that form; LZ_EINVAL otherwise. Pure. */
int lz_sandbox_prep_parse(const char *text, size_t len,
    struct lz_sandbox_prepared *p, struct lz_err *err);

/*
 * The stamp of the file at path: "DEV INO SIZE SEC NSEC" into out; -1
 * (out "-") when it cannot be read.
 */
int lz_sandbox_prep_stamp(const char *path, char out[LZ_SANDBOX_PREP_STAMP_MAX]);
/* 1 when p's image store has p's stamp now (no image can have changed). */
int lz_sandbox_prep_images_same(const struct lz_sandbox_prepared *p);

/*
 * Checks "podman inspect SIDECAR IMAGE SIDECAR_IMAGE"'s JSON (json) for
 * the pair p of Domain domain_id; pid is the process ID in the sidecar's
 * PID file now (0: none), which this start emptied before its "podman
 * start". 0 when the start can go on; otherwise LZ_EINVAL and err says
 * what differs ("... image changed ...", "... another start ...").
 * Pure.
 */
int lz_sandbox_prep_check(const char *json, const struct lz_sandbox_prepared *p,
    const char *domain_id, long pid, struct lz_err *err);

#endif
