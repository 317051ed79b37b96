/*
 * util.c: aborting allocators, struct lz_buf and struct lz_err. Nothing here
 * knows about Lazaret; it is the libc-only base of every other layer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

char lz_buf_empty[1];

static void oom(size_t n) __attribute__((noreturn));

static void
oom(size_t n)
{
	fprintf(stderr, "lazaret: out of memory allocating %zu bytes\n", n);
	abort();
}

void *
lz_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
lz_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
lz_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return q;
}

void *
lz_xreallocarray(void *p, size_t n, size_t size)
{
	void *q = reallocarray(p, n ? n : 1, size ? size : 1);

	if (q == NULL)
		oom(n * size);
	return q;
}

char *
lz_xstrdup(const char *s)
{
	return lz_xstrndup(s, strlen(s));
}

char *
lz_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom(n);
	return p;
}

char *
lz_xasprintf(const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return lz_buf_detach(&b);
}

void
lz_bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "lazaret: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int
lz_err_set(struct lz_err *err, int code, const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	if (err == NULL)
		return code;
	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(err->msg);
	err->msg = lz_buf_detach(&b);
	return code;
}

int
lz_err_prefix(struct lz_err *err, int code, const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	if (err == NULL)
		return code;
	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (err->msg != NULL) {
		lz_buf_adds(&b, ": ");
		lz_buf_adds(&b, err->msg);
		free(err->msg);
	}
	err->msg = lz_buf_detach(&b);
	return code;
}

void
lz_err_release(struct lz_err *err)
{
	if (err == NULL)
		return;
	free(err->msg);
	err->msg = NULL;
}

void
lz_buf_init(struct lz_buf *b)
{
	b->buf = lz_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void
lz_buf_grow(struct lz_buf *b, size_t extra)
{
	size_t want;

	if (extra > SIZE_MAX - b->len - 1)
		oom(SIZE_MAX);
	want = b->len + extra + 1;
	if (want <= b->alloc)
		return;
	if (b->alloc == 0)
		b->buf = NULL;
	if (want < b->alloc * 2)
		want = b->alloc * 2;
	if (want < 64)
		want = 64;
	b->buf = lz_xrealloc(b->buf, want);
	if (b->alloc == 0)
		b->buf[0] = '\0';
	b->alloc = want;
}

void
lz_buf_add(struct lz_buf *b, const void *data, size_t len)
{
	if (len == 0)
		return;
	lz_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void
lz_buf_adds(struct lz_buf *b, const char *s)
{
	lz_buf_add(b, s, strlen(s));
}

void
lz_buf_addch(struct lz_buf *b, char c)
{
	lz_buf_add(b, &c, 1);
}

void
lz_buf_vaddf(struct lz_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		LZ_BUG("vsnprintf failed for format '%s'", fmt);
	lz_buf_grow(b, (size_t)n);
	if (vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap) != n)
		LZ_BUG("vsnprintf changed its mind for format '%s'", fmt);
	b->len += (size_t)n;
}

void
lz_buf_addf(struct lz_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lz_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
lz_buf_reset(struct lz_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->buf[0] = '\0';
}

char *
lz_buf_detach(struct lz_buf *b)
{
	char *s;

	if (b->alloc == 0)
		s = lz_xstrdup("");
	else
		s = b->buf;
	lz_buf_init(b);
	return s;
}

void
lz_buf_release(struct lz_buf *b)
{
	if (b->alloc)
		free(b->buf);
	lz_buf_init(b);
}

int
lz_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
lz_hex(const unsigned char *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}
