/*
 * rules.c: parsing, matching and printing auto-approval rules (SR-8).
 * Matching is exact and argument-wise: no globbing, no shell, no PATH.
 */
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"

int
lz_rule_parse(const char *value, const char *source, struct lz_rule *out,
    struct lz_err *err)
{
	size_t len = strlen(value);
	char *copy = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	copy = lz_xstrndup(value, len);
	if (len >= 3 && strcmp(copy + len - 3, "...") == 0 &&
	    (len == 3 || copy[len - 4] == ' ' || copy[len - 4] == '\t')) {
		out->trailing = 1;
		copy[len - 3] = '\0';
	}
	rc = lz_tokens_split(copy, &out->argv, err);
	if (rc != 0)
		goto out;
	if (out->argv.n == 0 || out->argv.v[0][0] == '\0') {
		rc = lz_err_set(err, LZ_EINVAL, "an auto-approve rule must "
		    "start with the program to run (e.g. 'auto-approve = "
		    "git fetch ...')");
		lz_tokens_release(&out->argv);
		goto out;
	}
	out->source = lz_xstrdup(source);
out:
	free(copy);
	if (rc != 0)
		out->trailing = 0;
	return rc;
}

int
lz_rule_match(const struct lz_rule *r, char *const *argv, size_t argc)
{
	size_t i;

	if (argc < r->argv.n || (argc > r->argv.n && !r->trailing))
		return 0;
	for (i = 0; i < r->argv.n; i++) {
		if (strcmp(r->argv.v[i], argv[i]) != 0)
			return 0;
	}
	return 1;
}

void
lz_rule_format(const struct lz_rule *r, struct lz_buf *b)
{
	size_t i;

	for (i = 0; i < r->argv.n; i++) {
		if (i > 0)
			lz_buf_addch(b, ' ');
		/* A literal "..." must not read back as the marker. */
		if (strcmp(r->argv.v[i], "...") == 0)
			lz_buf_adds(b, "%2E..");
		else
			lz_tokens_quote(b, r->argv.v[i]);
	}
	if (r->trailing)
		lz_buf_adds(b, " ...");
}

void
lz_rule_copy(struct lz_rule *dst, const struct lz_rule *src)
{
	memset(dst, 0, sizeof *dst);
	lz_tokens_copy(&dst->argv, &src->argv);
	dst->trailing = src->trailing;
	dst->source = lz_xstrdup(src->source);
}

void
lz_rule_release(struct lz_rule *r)
{
	lz_tokens_release(&r->argv);
	free(r->source);
	r->source = NULL;
}
