/*
 * out-domain.h: the description of a resolved Domain, in human and JSON
 * form, shared by "domain show" and "run --dry-run".
 */
#ifndef LZ_OUT_DOMAIN_H
#define LZ_OUT_DOMAIN_H

#include <stdio.h>

#include <jansson.h>

#include "protocol/msg.h"
#include "src/client-setup.h"

/* "running" when the Domain's control socket exists, else "absent". */
const char *lz_out_domain_state(const struct lz_client *c);
/* trust: a running Domain's identities (TRUSTED), or NULL. */
void lz_out_domain(FILE *f, const struct lz_client *c,
    const struct lz_msg_trusted *trust);
/* A new JSON object describing the Domain (policy table included). */
json_t *lz_out_domain_json(const struct lz_client *c,
    const struct lz_msg_trusted *trust);

#endif
