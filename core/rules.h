/*
 * rules.h: auto-approval rules for Host Escalation (SR-7, SR-8). A rule is
 * a complete argument vector in the tokens.h syntax; it matches a request
 * only when every argument is byte-for-byte equal and the request's
 * program resolves to the host path the rule's program resolved to when
 * the config was loaded (so a different binary put earlier on PATH later
 * does not match). A rule whose last raw token is the bare word "..."
 * also matches any trailing arguments: that is the one explicit marker
 * that grants them. A literal "..." argument is written %2E.. so it never
 * reads as the marker.
 *
 * Two kinds of rule are allowed but flagged (a load-time warning, a mark
 * in `profile show`), because the sandbox can make them run anything:
 * one with "...", since options can run commands (`git fetch
 * --upload-pack=CMD`, `git log --output=FILE`), and one whose program
 * runs code it is given: a shell, an interpreter, a command runner
 * (env, xargs, sudo...) or a build tool that reads the workspace the
 * sandbox writes (make, npm, cargo...).
 */
#ifndef LZ_RULES_H
#define LZ_RULES_H

#include <stddef.h>

#include "core/tokens.h"
#include "core/util.h"

enum lz_rule_flags {
	LZ_RULE_OPTIONS = 1 << 0,	/* "...": options can run commands */
	LZ_RULE_RUNS_CODE = 1 << 1,	/* the program runs code it is given */
};

struct lz_rule {
	struct lz_tokens argv;	/* the fixed part */
	int trailing;		/* "..." given: extra arguments allowed */
	char *source;		/* "config.ini:14" */
	char *program;		/* argv[0] resolved at load; NULL: not found */
	int flags;		/* enum lz_rule_flags */
};

/*
 * Parses one rule value; fails on bad escapes, a rule with no program, or
 * a program given as a relative path ("./deploy.sh" would name a file of
 * whatever directory the command runs in: the workspace).
 */
int lz_rule_parse(const char *value, const char *source, struct lz_rule *out,
    struct lz_err *err);
/*
 * Resolves the rule's program in the absolute elements of path (the
 * coordinator's PATH at load), recording it in r->program, and appends a
 * warning line for each flag and for a program that is not found, each
 * "SOURCE: auto-approve 'RULE': ..." and '\n'-terminated.
 */
void lz_rule_resolve(struct lz_rule *r, const char *path,
    struct lz_buf *warnings);
/* Appends one line ('\n'-terminated) per concern about r, unprefixed. */
void lz_rule_concerns(const struct lz_rule *r, struct lz_buf *b);
/*
 * 1 when the request argv (argc entries), whose argv[0] resolves to
 * program on the host now, is allowed by r.
 */
int lz_rule_match(const struct lz_rule *r, char *const *argv, size_t argc,
    const char *program);
/* The first of the n rules at v that allows the request, or NULL. */
const struct lz_rule *lz_rules_find(const struct lz_rule *v, size_t n,
    char *const *argv, size_t argc, const char *program);
/* Appends the rule in config syntax (what lz_rule_parse reads back). */
void lz_rule_format(const struct lz_rule *r, struct lz_buf *b);
/*
 * The config line that saves argv as an exact rule ("auto-approve = ...",
 * no newline), the one the prompt shows and core/rulesave.c appends.
 * Fails with LZ_EINVAL when the line is over the parser's limit
 * (LZ_INI_MAX_LINE) or the argv cannot be a rule, saying so.
 */
int lz_rule_line(const struct lz_tokens *argv, struct lz_buf *line,
    struct lz_err *err);
void lz_rule_copy(struct lz_rule *dst, const struct lz_rule *src);
void lz_rule_release(struct lz_rule *r);

#endif
