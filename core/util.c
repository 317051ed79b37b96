/*
 * util.c: aborting allocators, struct lz_buf and struct lz_err. Nothing here
 * knows about Lazaret; it is the libc-only base of every other layer.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void *
lz_xgrow(void *v, size_t need, size_t *alloc, size_t size)
{
	size_t a;

	if (v == NULL)
		*alloc = 0;
	if (need <= *alloc)
		return v;
	a = *alloc < SIZE_MAX / 3 ? (*alloc + 16) * 3 / 2 : need;
	if (a < need)
		a = need;
	v = lz_xreallocarray(v, a, size);
	*alloc = a;
	return v;
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

void
lz_buf_drop(struct lz_buf *b, size_t n)
{
	if (n > b->len)
		LZ_BUG("dropping %zu bytes of a buffer of %zu", n, b->len);
	if (n == 0)
		return;
	memmove(b->buf, b->buf + n, b->len - n);
	b->len -= n;
	b->buf[b->len] = '\0';
}

void
lz_buf_wipe(struct lz_buf *b)
{
	/* volatile: the compiler must not drop a write nothing reads. */
	volatile char *p = b->buf;
	size_t i;

	for (i = 0; i < b->alloc; i++)
		p[i] = 0;
	lz_buf_release(b);
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
lz_hex_digit(char c)
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

void
lz_tokens_push(struct lz_tokens *t, const char *s)
{
	t->v = lz_xgrow(t->v, t->n + 2, &t->alloc, sizeof *t->v);
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
	t->v = lz_xgrow(t->v, t->n + 2, &t->alloc, sizeof *t->v);
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
	t->alloc = 0;
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

/*
 * The one write loop of the project's blocking callers (clients, the
 * relay, the coordinator's start-up report). Policy: EINTR is retried;
 * EAGAIN (a descriptor someone made non-blocking) waits in poll(2) until
 * the descriptor takes more, so the caller blocks as on a blocking one;
 * a socket whose peer left gives EPIPE, never SIGPIPE (send(2) with
 * MSG_NOSIGNAL; other descriptors get write(2)); any other error ends the
 * write. Only send, write and poll: safe in a signal handler and between
 * fork and exec.
 */
int
lz_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	struct pollfd pfd;
	int sock = 1;
	ssize_t n;

	while (len > 0) {
		n = sock ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
		if (n < 0 && sock && errno == ENOTSOCK) {
			sock = 0;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			pfd.revents = 0;
			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
