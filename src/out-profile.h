/*
 * out-profile.h: human-readable printing of an Agent Profile and of its
 * effective egress table, shared by "profile show", "domain show" and
 * "run --dry-run".
 */
#ifndef LZ_OUT_PROFILE_H
#define LZ_OUT_PROFILE_H

#include <stdio.h>

#include "core/profile.h"

/* Prints every setting with where it came from. */
void lz_out_profile(FILE *f, const struct lz_profile *p);
/* Prints the effective policy table (built-ins, resolvers, rules). */
void lz_out_policy(FILE *f, const struct lz_profile *p);
/* history-keep as the config spells it: "7d", "36h", "90m". */
void lz_out_keep(unsigned long seconds, char *buf, size_t size);

#endif
