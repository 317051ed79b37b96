/*
 * tokens.c: splitting and quoting config argument vectors (see tokens.h for
 * the syntax). Used for commands, auto-approval rules and volumes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/tokens.h"

/* jansson refuses invalid UTF-8 when making a string: use it as the check. */
int
lz_utf8_valid(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);

	json_decref(j);
	return j != NULL;
}

void
lz_tokens_push(struct lz_tokens *t, const char *s)
{
	t->v = lz_xreallocarray(t->v, t->n + 2, sizeof *t->v);
	t->v[t->n++] = lz_xstrdup(s);
	t->v[t->n] = NULL;
}

void
lz_tokens_pushf(struct lz_tokens *t, const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	t->v = lz_xreallocarray(t->v, t->n + 2, sizeof *t->v);
	t->v[t->n++] = lz_buf_detach(&b);
	t->v[t->n] = NULL;
}

void
lz_tokens_copy(struct lz_tokens *dst, const struct lz_tokens *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		lz_tokens_push(dst, src->v[i]);
}

void
lz_tokens_release(struct lz_tokens *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

int
lz_tokens_has(const struct lz_tokens *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i], s) == 0)
			return 1;
	}
	return 0;
}

int
lz_tokens_split(const char *value, struct lz_tokens *out, struct lz_err *err)
{
	struct lz_buf tok = LZ_BUF_INIT;
	const unsigned char *p = (const unsigned char *)value;
	int in_token = 0, hi, lo, rc = 0;

	for (;; p++) {
		if (*p == '\0' || *p == ' ' || *p == '\t') {
			if (in_token && !lz_utf8_valid(tok.buf, tok.len)) {
				rc = lz_err_set(err, LZ_EINVAL, "escapes in "
				    "'%s' decode to bytes that are not UTF-8",
				    value);
				goto out;
			}
			if (in_token)
				lz_tokens_push(out, tok.buf);
			lz_buf_reset(&tok);
			in_token = 0;
			if (*p == '\0')
				break;
			continue;
		}
		if (!in_token && p[0] == '\'' && p[1] == '\'' &&
		    (p[2] == '\0' || p[2] == ' ' || p[2] == '\t')) {
			lz_tokens_push(out, "");
			p++;
			continue;
		}
		in_token = 1;
		if (*p < 0x20 || *p == 0x7f) {
			rc = lz_err_set(err, LZ_EINVAL, "control character 0x%02x "
			    "in value (write it as %%%02X)", *p, *p);
			goto out;
		}
		if (*p == '\'') {
			rc = lz_err_set(err, LZ_EINVAL, "a quote is not "
			    "syntax here; write a literal ' as %%27 (an empty "
			    "argument is written '')");
			goto out;
		}
		if (*p != '%') {
			lz_buf_addch(&tok, (char)*p);
			continue;
		}
		hi = p[1] ? lz_hexval((char)p[1]) : -1;
		lo = hi >= 0 && p[2] ? lz_hexval((char)p[2]) : -1;
		if (hi < 0 || lo < 0) {
			rc = lz_err_set(err, LZ_EINVAL, "bad escape '%.3s' "
			    "(a '%%' must be followed by two hex digits; "
			    "write a literal '%%' as %%25)", (const char *)p);
			goto out;
		}
		if (hi == 0 && lo == 0) {
			rc = lz_err_set(err, LZ_EINVAL,
			    "escape '%%00' is not allowed (arguments cannot "
			    "contain NUL)");
			goto out;
		}
		lz_buf_addch(&tok, (char)(hi << 4 | lo));
		p += 2;
	}
out:
	lz_buf_release(&tok);
	if (rc != 0)
		lz_tokens_release(out);
	return rc;
}

void
lz_tokens_quote(struct lz_buf *b, const char *s)
{
	const unsigned char *p;

	if (*s == '\0') {
		lz_buf_adds(b, "''");
		return;
	}
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= ' ' || *p == 0x7f || *p == '%' || *p == ';' ||
		    *p == '#' || *p == '"' || *p == '\'')
			lz_buf_addf(b, "%%%02X", *p);
		else
			lz_buf_addch(b, (char)*p);
	}
}

void
lz_tokens_join(struct lz_buf *b, const struct lz_tokens *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (i > 0)
			lz_buf_addch(b, ' ');
		lz_tokens_quote(b, t->v[i]);
	}
}
