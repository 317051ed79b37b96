/*
 * bundle.c: an OCI bundle's config.json and its annotations (bundle.h).
 */
#include <stdlib.h>

#include <jansson.h>

#include "core/bundle.h"

json_t *
lz_bundle_load(const char *bundle, char **path, struct lz_err *err)
{
	json_error_t je;
	json_t *cfg;

	*path = lz_xasprintf("%s/config.json", bundle);
	if ((cfg = json_load_file(*path, 0, &je)) == NULL)
		lz_err_set(err, LZ_ESYS, "cannot read '%s': %s", *path,
		    je.text);
	return cfg;
}

const char *
lz_bundle_annotation(const json_t *cfg, const char *key)
{
	return json_string_value(json_object_get(json_object_get(cfg,
	    "annotations"), key));
}
