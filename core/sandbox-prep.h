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
 *   generations, images by name, runtime, paths) equals the record's and
 *   the containers' "lazaret.prepared" label;
 * - "podman inspect" of both containers and both images: the containers
 *   exist under the recorded IDs and names with the Domain's labels, were
 *   never started ("created"), the sandbox joins the recorded sidecar's
 *   network, and each was made from the image its name means now.
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

/* A created pair: its fingerprint and the two 64-hex container IDs. */
struct lz_sandbox_prepared {
	char fp[65];
	char sidecar[65];
	char sandbox[65];
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
};
#define LZ_SANDBOX_PLAN_INIT { "", LZ_TOKENS_INIT, LZ_TOKENS_INIT }

/*
 * Fills p (empty) from s as a start with a sidecar uses it (s->anchors
 * set; s->netpolicy not NULL): fp is the SHA-256 of both command lines
 * without the label and without podman's own path. Pure.
 */
int lz_sandbox_plan_make(const char *podman, const struct lz_sandbox_spec *s,
    struct lz_sandbox_plan *p, struct lz_err *err);
void lz_sandbox_plan_release(struct lz_sandbox_plan *p);

/* The record's text: "lazaret-prepared 1\nFP\nSIDECAR\nSANDBOX\n". */
void lz_sandbox_prep_format(const struct lz_sandbox_prepared *p,
    struct lz_buf *out);
/* Parses exactly that form; LZ_EINVAL otherwise. Pure. */
int lz_sandbox_prep_parse(const char *text, size_t len,
    struct lz_sandbox_prepared *p, struct lz_err *err);

/*
 * Checks "podman inspect SIDECAR SANDBOX IMAGE SIDECAR_IMAGE"'s JSON
 * (json) against p for Domain domain_id: 0 when the pair can be started;
 * otherwise LZ_EINVAL and err says what differs ("the sandbox's image
 * ... is now ...", "... was started before", ...). Pure.
 */
int lz_sandbox_prep_check(const char *json, const struct lz_sandbox_prepared *p,
    const char *domain_id, struct lz_err *err);

#endif
