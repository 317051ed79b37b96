/*
 * anchor-annot.h: State Anchors handed to the runtime shim (FR-4, DX-2).
 *
 * The sandbox's "podman run" carries the Domain's anchors in one OCI
 * annotation, "lazaret.anchors": base64 of a JSON array with one array
 * [PATH, UPPER, WORK, MERGED, LOWER_EMPTY] per anchor (podman splits
 * --annotation values at commas and quotes, which base64 has none of).
 * lazaret-runsc reads it back from the bundle's config.json when podman
 * asks it to "create" the container: it is then running inside podman's
 * rootless user and mount namespace with the container's root file system
 * mounted, so it mounts each anchor's overlay there (lower layer: the
 * container root's directory for PATH, found as anchor-mount.h says) and
 * then execs runsc, which binds MERGED in. No "podman unshare" and no
 * "podman image mount" on the start's critical path.
 */
#ifndef LZ_ANCHOR_ANNOT_H
#define LZ_ANCHOR_ANNOT_H

#include <jansson.h>

#include "core/tokens.h"
#include "core/util.h"

#define LZ_ANCHOR_ANNOTATION "lazaret.anchors"
#define LZ_ANCHOR_FIELDS 5	/* PATH UPPER WORK MERGED LOWER_EMPTY */
#define LZ_ANCHOR_MAX 64	/* more is a malformed annotation */

/*
 * An annotation's value for the JSON value j: base64 of its compact text
 * (allocated), and back (NULL with the reason, naming annotation name,
 * for anything but base64 of JSON). Shared with ws-view.h.
 */
char *lz_annot_encode(json_t *j);
json_t *lz_annot_decode(const char *value, const char *name,
    struct lz_err *err);

/*
 * Encodes fields (LZ_ANCHOR_FIELDS strings per anchor, in order) as the
 * annotation's value; allocated.
 */
char *lz_anchor_annot_encode(const struct lz_tokens *fields);

/*
 * Decodes an annotation value into fields (empty on entry). LZ_EINVAL,
 * naming what is wrong, for anything but base64 of an array of at most
 * LZ_ANCHOR_MAX arrays of LZ_ANCHOR_FIELDS absolute paths; fields is left
 * empty then.
 */
int lz_anchor_annot_decode(const char *value, struct lz_tokens *fields,
    struct lz_err *err);

/*
 * The shim's part: reads bundle/config.json and, when it carries the
 * annotation, mounts every anchor over the container's root file system
 * (root.path), replacing an overlay left at MERGED by an earlier start,
 * whose lower layer was another container's. *n gets the number mounted.
 * Then, when it carries "lazaret.view", it composes the workspace view
 * (ws-view.h). A bundle without either (plain "podman run --runtime
 * lazaret-runsc") mounts nothing.
 */
int lz_anchor_annot_mount(const char *bundle, size_t *n, struct lz_err *err);

#endif
