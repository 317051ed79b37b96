/*
 * ws-view.h: the workspace as a sandbox with Ignored Workspace State sees
 * it (SR-13, DESIGN.md "Sandbox mounts" step 4). The sandbox's /workspace
 * is one bind of the Domain's view directory, <Domain Root>/view, which
 * the runtime shim composes inside podman's rootless user and mount
 * namespace when podman has it create the sandbox (as it mounts the State
 * Anchors, anchor-annot.h): the workspace bound there (recursively, as
 * podman's own bind would be), then each isolated path's storage
 * <Domain Root>/ignored/<name> bound over its place in it. runsc serves
 * the view through one gofer mount and follows the binds within it, so
 * the sandbox sees the storage, never the host's content, at each path.
 *
 * Why not one podman bind per path: runsc 0.0~20240729 fails to start a
 * sandbox given more than about 240 bind mounts ("unable to remap stdios,
 * FD 256 is already in use": each gofer mount is a descriptor below its
 * fixed stdio numbers), and a 200-package monorepo has 400 ignored
 * paths. Binds in podman's namespace have no such limit (journal.md).
 *
 * The view exists only in podman's namespace: host processes see the
 * workspace as it is. Teardown unmounts it ("__anchor umount -w VIEW").
 * The paths travel in a file of the Domain Root, <Domain Root>/view.json
 * (a JSON array of the isolated paths, ignored.h's spelling), written at
 * launch under the lifecycle lock; the annotation "lazaret.view" (base64
 * JSON [WORKSPACE, VIEW, STORAGE, LIST]) names it, because one podman
 * argument is limited to 128 KiB and the list is not.
 */
#ifndef LZ_WS_VIEW_H
#define LZ_WS_VIEW_H

#include <stddef.h>

#include "core/tokens.h"
#include "core/util.h"

#define LZ_VIEW_ANNOTATION "lazaret.view"
#define LZ_VIEW_DIR "view"
#define LZ_VIEW_LIST "view.json"

struct lz_view {
	char *workspace;	/* the host workspace */
	char *view;		/* <Domain Root>/view */
	char *storage;		/* <Domain Root>/ignored */
	char *list;		/* <Domain Root>/view.json */
};

/*
 * The storage name of an isolated path under <Domain Root>/ignored: the
 * path without a trailing '/', '%' written %25 and '/' written %2F
 * ("a/node_modules/" -> "a%2Fnode_modules"), appended to b.
 */
void lz_view_storage_name(struct lz_buf *b, const char *rel);

/* The annotation's value for v; allocated. */
char *lz_view_annot_encode(const struct lz_view *v);
/*
 * Decodes an annotation value (LZ_EINVAL, naming what is wrong, for
 * anything but base64 of an array of four absolute paths).
 */
int lz_view_annot_decode(const char *value, struct lz_view *v,
    struct lz_err *err);
void lz_view_release(struct lz_view *v);

/*
 * Reads the list file of v: the isolated paths (clean, relative, no ".."
 * or ".git", a directory ending with '/'), into rels.
 */
int lz_view_list_read(const struct lz_view *v, struct lz_tokens *rels,
    struct lz_err *err);

/*
 * The shim's part (inside podman's namespace): unmounts whatever is at or
 * beneath v->view (an earlier start's), binds v->workspace there
 * recursively, then each path of rels: its storage, opened beneath
 * v->storage, over its place, opened beneath the view; both with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) and bound through the
 * descriptors, so no symlink is followed. *n gets the paths bound. On
 * failure what was mounted is unmounted again.
 */
int lz_view_mount(const struct lz_view *v, const struct lz_tokens *rels,
    size_t *n, struct lz_err *err);
/*
 * Unmounts every mount at or beneath view, newest first (MNT_DETACH only
 * when a plain unmount is EBUSY). *n gets how many. A view that does not
 * exist is not an error.
 */
int lz_view_umount(const char *view, size_t *n, struct lz_err *err);

#endif
