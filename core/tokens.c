/*
 * tokens.c: splitting and quoting config argument vectors (see tokens.h for
 * the syntax). Used for commands, auto-approval rules and volumes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/tokens.h"
#include "core/utf8.h"
#include "core/visible.h"

static size_t hidden_at(const unsigned char *p, uint32_t *cp);
/* jansson refuses invalid UTF-8 when making a string: use it as the check. */
int
lz_utf8_valid(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);

	json_decref(j);
	return j != NULL;
}

/*
 * The length of the UTF-8 character at p when it is one that
 * core/visible.h hides (a bidi control, a zero-width character, a C1
 * control...), with its code point in *cp; else 0.
 */
static size_t
hidden_at(const unsigned char *p, uint32_t *cp)
{
	size_t len = lz_utf8_seq(p, strnlen((const char *)p, 4)), k;

	if (len < 2)
		return 0;
	*cp = p[0] & (0x7fu >> len);
	for (k = 1; k < len; k++)
		*cp = *cp << 6 | (p[k] & 0x3f);
	return lz_visible_hidden(*cp) ? len : 0;
}


int
lz_tokens_split(const char *value, struct lz_tokens *out, struct lz_err *err)
{
	struct lz_buf tok = LZ_BUF_INIT;
	const unsigned char *p = (const unsigned char *)value;
	int in_token = 0, hi, lo, rc = 0;
	uint32_t cp;

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
		if (hidden_at(p, &cp) > 0) {
			rc = lz_err_set(err, LZ_EINVAL, "invisible character "
			    "U+%04X in value (write its bytes as %%XX escapes: "
			    "what is not seen cannot be checked)", (unsigned)cp);
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
		hi = p[1] ? lz_hex_digit((char)p[1]) : -1;
		lo = hi >= 0 && p[2] ? lz_hex_digit((char)p[2]) : -1;
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
	size_t hid = 0;
	uint32_t cp;

	if (*s == '\0') {
		lz_buf_adds(b, "''");
		return;
	}
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		/* An invisible character is spelt in escapes, every byte. */
		if (hid == 0 && *p >= 0x80)
			hid = hidden_at(p, &cp);
		if (hid > 0 || *p <= ' ' || *p == 0x7f || *p == '%' ||
		    *p == ';' || *p == '#' || *p == '"' || *p == '\'')
			lz_buf_addf(b, "%%%02X", *p);
		else
			lz_buf_addch(b, (char)*p);
		if (hid > 0)
			hid--;
	}
}

json_t *
lz_tokens_json(const struct lz_tokens *t, size_t cut)
{
	json_t *a = json_array(), *s;
	size_t i, n;

	for (i = 0; i < t->n; i++) {
		n = strlen(t->v[i]);
		if (cut > 0 && n > cut)
			for (n = cut; n > 0 && ((unsigned char)t->v[i][n] &
			    0xc0) == 0x80; n--)
				;
		s = json_stringn(t->v[i], n);
		json_array_append_new(a, s ? s : json_string(""));
	}
	return a;
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
