/*
 * bundle.h: an OCI bundle's config.json as the runtime shim reads it
 * (src/lazaret-runsc.c): Lazaret's annotations on it: the gate's
 * (core/gate.h), the State Anchors' and the workspace view's
 * (core/anchor-annot.h), the mailbox's (core/mailbox-mount.h).
 */
#ifndef LZ_BUNDLE_H
#define LZ_BUNDLE_H

#include <jansson.h>

#include "core/util.h"

/*
 * Loads BUNDLE/config.json; NULL with err set (the path and jansson's
 * reason) when it cannot be read or parsed. *path gets the file's name,
 * allocated, for the caller's messages. json_decref the result.
 */
json_t *lz_bundle_load(const char *bundle, char **path, struct lz_err *err);

/* The string value of annotation key in cfg, or NULL when it has none. */
const char *lz_bundle_annotation(const json_t *cfg, const char *key);

#endif
