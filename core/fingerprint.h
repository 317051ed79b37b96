/*
 * fingerprint.h: the canonical form of a validated Agent Profile and its
 * Configuration Fingerprint. The canonical form is a JSON object (jansson,
 * JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII) whose lists are sorted
 * wherever their order does not change behaviour (env, persist, resolvers,
 * volumes by sandbox path, auto-approve rules, the effective policy table)
 * and kept in order where it does (the command's argv). The fingerprint is
 * hex(SHA-256("lazaret-config-v1\n" || canonical JSON)). Key order,
 * whitespace and comments in config.ini therefore do not change it; every
 * value that changes behaviour does. docs/implementation-plan.md lists the
 * fields.
 */
#ifndef LZ_FINGERPRINT_H
#define LZ_FINGERPRINT_H

#include <jansson.h>

#include "core/profile.h"
#include "core/util.h"

#define LZ_FINGERPRINT_HEX 64

/*
 * The canonical JSON object of p (a new reference). With sources, each
 * entry also names where it came from (for "profile show"); the
 * fingerprint uses the form without sources.
 */
json_t *lz_profile_json(const struct lz_profile *p, int sources,
    struct lz_err *err);
/* Computes the fingerprint into out. Fails only on a policy conflict. */
int lz_profile_fingerprint(const struct lz_profile *p,
    char out[LZ_FINGERPRINT_HEX + 1], struct lz_err *err);

#endif
