/*
 * rules.h: auto-approval rules for Host Escalation (SR-7, SR-8). A rule is
 * a complete argument vector in the tokens.h syntax; it matches a request
 * only when every argument is byte-for-byte equal. A rule whose last raw
 * token is the bare word "..." also matches any trailing arguments: that
 * is the one explicit marker that grants them. A literal "..." argument is
 * written %2E.. so it never reads as the marker.
 */
#ifndef LZ_RULES_H
#define LZ_RULES_H

#include <stddef.h>

#include "core/tokens.h"
#include "core/util.h"

struct lz_rule {
	struct lz_tokens argv;	/* the fixed part */
	int trailing;		/* "..." given: extra arguments allowed */
	char *source;		/* "config.ini:14" */
};

/* Parses one rule value; fails on bad escapes or a rule with no program. */
int lz_rule_parse(const char *value, const char *source, struct lz_rule *out,
    struct lz_err *err);
/* 1 when argv (argc entries) is allowed by r. */
int lz_rule_match(const struct lz_rule *r, char *const *argv, size_t argc);
/* Appends the rule in config syntax (what lz_rule_parse reads back). */
void lz_rule_format(const struct lz_rule *r, struct lz_buf *b);
void lz_rule_copy(struct lz_rule *dst, const struct lz_rule *src);
void lz_rule_release(struct lz_rule *r);

#endif
