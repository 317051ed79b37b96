/*
 * ini.c: a line-counting, refusing reader in front of Debian's inih. The
 * parser proper is inih; this file only makes sure that every line inih sees
 * is one it reads whole, and that every error carries its line.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "core/ini.h"
#include "core/tokens.h"

struct reader {
	const char *name;
	const char *text;
	size_t len;
	size_t pos;
	unsigned line;		/* line last handed to inih */
	unsigned errors;
	unsigned last_error_line;
	lz_ini_handler handler;
	void *ctx;
	struct lz_buf *errs;
	char *section;		/* last section header seen by the reader */
};

static char *reader_next(char *str, int num, void *stream);
static int on_value(void *user, const char *section, const char *name,
    const char *value);
static void line_error(struct reader *r, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int check_line(struct reader *r, const char *s, size_t n);
static void call_handler(struct reader *r, const char *section,
    const char *key, const char *value);

static void
call_handler(struct reader *r, const char *section, const char *key,
    const char *value)
{
	struct lz_err e = LZ_ERR_INIT;

	if (r->handler(r->ctx, section, key, value, r->line, &e) != 0)
		line_error(r, r->line, "%s", e.msg ? e.msg : "invalid");
	lz_err_release(&e);
}

static void
line_error(struct reader *r, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (r->errs->len)
		lz_buf_addch(r->errs, '\n');
	lz_buf_addf(r->errs, "%s:%u: ", r->name, line);
	va_start(ap, fmt);
	lz_buf_vaddf(r->errs, fmt, ap);
	va_end(ap);
	r->errors++;
	r->last_error_line = line;
}

/* Returns 0 when inih may see the line, -1 when it was refused. */
static int
check_line(struct reader *r, const char *s, size_t n)
{
	size_t i = 0;

	if (memchr(s, '\0', n) != NULL) {
		line_error(r, r->line, "contains a NUL byte (is this a text "
		    "file?)");
		return -1;
	}
	if (!lz_utf8_valid(s, n)) {
		line_error(r, r->line, "is not valid UTF-8 (save the file as "
		    "UTF-8)");
		return -1;
	}
	if (n > LZ_INI_MAX_LINE) {
		line_error(r, r->line, "line is %zu bytes long, over the "
		    "limit of %d; split the value over several keys (list "
		    "keys may be repeated)", n, LZ_INI_MAX_LINE);
		return -1;
	}
	/* inih skips what isspace() says is space: so must we. */
	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i == n || s[i] == ';' || s[i] == '#')
		return 0;	/* blank line or whole-line comment */
	if (i > 0) {
		line_error(r, r->line, "line starts with whitespace, which "
		    "inih reads as a continuation of the previous value; "
		    "remove the indentation (list keys may be repeated)");
		return -1;
	}
	for (i = 1; i < n; i++) {
		if (s[i] == ';' && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
			line_error(r, r->line, "' ;' starts an inline comment "
			    "that would cut this line; put comments on a line "
			    "of their own, and write a ';' inside a value as "
			    "%%3B");
			return -1;
		}
	}
	if (s[0] == '[') {
		if (s[n - 1] != ']' && !(n >= 2 && s[n - 1] == '\r' &&
		    s[n - 2] == ']')) {
			line_error(r, r->line, "section header must end with "
			    "']' (e.g. '[profile default]')");
			return -1;
		}
		free(r->section);
		r->section = lz_xstrndup(s + 1, n - (s[n - 1] == ']' ? 2 : 3));
		call_handler(r, r->section, NULL, NULL);
	}
	return 0;
}

static char *
reader_next(char *str, int num, void *stream)
{
	struct reader *r = stream;
	const char *s, *nl;
	size_t n, take;

	if (r->pos >= r->len)
		return NULL;
	s = r->text + r->pos;
	nl = memchr(s, '\n', r->len - r->pos);
	n = nl ? (size_t)(nl - s) : r->len - r->pos;
	r->pos += n + (nl != NULL);
	r->line++;
	if (check_line(r, s, n) != 0 || (size_t)num < n + 2) {
		/* Hand inih an empty line: the error is already recorded. */
		str[0] = '\n';
		str[1] = '\0';
		return str;
	}
	take = n;
	memcpy(str, s, take);
	str[take] = '\n';
	str[take + 1] = '\0';
	return str;
}

static int
on_value(void *user, const char *section, const char *name,
    const char *value)
{
	struct reader *r = user;

	/* The reader and inih must agree on the section, or the key is lost. */
	if (strcmp(section, r->section ? r->section : "") != 0)
		line_error(r, r->line, "cannot tell which section '%s' "
		    "belongs to; write the section header on a line of its "
		    "own, starting with '['", name);
	else
		call_handler(r, section, name, value);
	return 1;	/* go on: every error of the file is reported at once */
}

int
lz_ini_parse(const char *name, const char *text, size_t len,
    lz_ini_handler handler, void *ctx, struct lz_err *err)
{
	struct lz_buf errs = LZ_BUF_INIT;
	struct reader r;
	int rc;

	memset(&r, 0, sizeof r);
	r.name = name;
	r.text = text;
	r.len = len;
	r.handler = handler;
	r.ctx = ctx;
	r.errs = &errs;
	rc = ini_parse_stream(reader_next, &r, on_value, &r);
	if (rc > 0 && (unsigned)rc != r.last_error_line)
		line_error(&r, (unsigned)rc, "not 'key = value', a "
		    "'[section]' or a comment");
	else if (rc < 0)
		line_error(&r, r.line, "cannot parse (inih error %d)", rc);
	free(r.section);
	if (r.errors == 0) {
		lz_buf_release(&errs);
		return 0;
	}
	lz_err_set(err, LZ_EINVAL, "%s", errs.buf);
	lz_buf_release(&errs);
	return LZ_EINVAL;
}
