/*
 * util.h: the small helpers every layer shares: aborting allocators
 * (lz_xmalloc family), growing strings (struct lz_buf, modelled on git's
 * strbuf) and error reports (struct lz_err, like tmux's "char **cause").
 * Depends on libc only, so protocol/ and termdb/ may use it too.
 */
#ifndef LZ_UTIL_H
#define LZ_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Error codes: 0 is success, failures are negative. Where an errno value
 * says it, the code is its negation (libuv's rule); LZ_E* below 1000 carry
 * meanings errno has no word for.
 */
enum lz_error {
	LZ_OK = 0,
	LZ_EINVAL = -1000,	/* bad input: config, command line, record */
	LZ_EUNSAFE = -1001,	/* refused for safety: owner, mode, symlink, SR-2 */
	LZ_ENOTFOUND = -1002,	/* a named thing does not exist */
	LZ_ESYS = -1003,	/* a system call failed; the message says which */
	LZ_EBUSY = -1004,	/* held by someone else (lock, Domain) */
	LZ_ECONFLICT = -1005,	/* two sources contradict (policy, rules) */
	LZ_EAGAIN = -1006,	/* not now: try again (a Domain stopping) */
	LZ_EFAILED = -1007,	/* the Domain failed under the caller */
};

/*
 * An error report. A function that can fail takes a struct lz_err * and,
 * on failure, sets msg to an allocated message in git's style: lowercase,
 * no full stop, the failure first, the object in quotes, then the cause and
 * a next step. A NULL err is allowed and means "the caller does not care".
 */
struct lz_err {
	char *msg;
};
#define LZ_ERR_INIT { NULL }

/* Sets err->msg (replacing an earlier one) and returns code. */
int lz_err_set(struct lz_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefixes an existing message with "prefix: "; returns code. */
int lz_err_prefix(struct lz_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void lz_err_release(struct lz_err *err);

/* Allocators that abort on out-of-memory, like tmux's xmalloc.h. */
void *lz_xmalloc(size_t n);
void *lz_xcalloc(size_t n, size_t size);
void *lz_xrealloc(void *p, size_t n);
void *lz_xreallocarray(void *p, size_t n, size_t size);
/*
 * An array that is appended to: returns v with room for at least need
 * elements of size bytes, *alloc its capacity. It grows by half again, so
 * n appends copy O(n) elements in all (git's ALLOC_GROW); growing by one
 * each time copied the whole array per append wherever realloc cannot
 * extend in place (always under ASan: 60,000 appends took 150 s). A NULL v
 * has no capacity, whatever *alloc says.
 */
void *lz_xgrow(void *v, size_t need, size_t *alloc, size_t size);
char *lz_xstrdup(const char *s);
char *lz_xstrndup(const char *s, size_t n);
char *lz_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Broken invariant: reports file and line and aborts (git's BUG()). */
#define LZ_BUG(...) lz_bug_fl(__FILE__, __LINE__, __VA_ARGS__)
void lz_bug_fl(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/*
 * struct lz_buf: a growing byte string. buf is never NULL and always
 * NUL-terminated; len excludes the terminator. LZ_BUF_INIT makes an empty
 * one that owns nothing until the first add.
 */
struct lz_buf {
	char *buf;
	size_t len;
	size_t alloc;
};
extern char lz_buf_empty[];
#define LZ_BUF_INIT { lz_buf_empty, 0, 0 }

void lz_buf_init(struct lz_buf *b);
void lz_buf_grow(struct lz_buf *b, size_t extra);
void lz_buf_add(struct lz_buf *b, const void *data, size_t len);
void lz_buf_adds(struct lz_buf *b, const char *s);
void lz_buf_addch(struct lz_buf *b, char c);
void lz_buf_addf(struct lz_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lz_buf_vaddf(struct lz_buf *b, const char *fmt, va_list ap);
void lz_buf_reset(struct lz_buf *b);
/* Drops the first n bytes (n <= len): what is left moves to the front. */
void lz_buf_drop(struct lz_buf *b, size_t n);
/* Overwrites b's bytes (a key, a secret) before releasing it. */
void lz_buf_wipe(struct lz_buf *b);
/* Hands the string to the caller and leaves b empty. */
char *lz_buf_detach(struct lz_buf *b);
void lz_buf_release(struct lz_buf *b);

/*
 * Writes all len bytes to fd, blocking: retries EINTR, waits in poll(2) on
 * EAGAIN; a socket whose peer is gone gives -EPIPE, not SIGPIPE. Returns
 * 0, or the negated errno of the write that failed.
 * Async-signal-safe. The project's one write loop for blocking callers;
 * the coordinator's loop never blocks and uses libuv streams instead.
 */
int lz_write_all(int fd, const void *buf, size_t len);

/* Lower-case hex of len bytes into out (2*len+1 bytes). */
void lz_hex(const unsigned char *in, size_t len, char *out);
/* The value of hex digit c (either case), or -1. */
int lz_hex_digit(char c);

/*
 * struct lz_tokens: a NULL-terminated vector of allocated strings (an
 * argv, a list of names). The config syntax that produces them from text
 * is core/tokens.h.
 */
struct lz_tokens {
	char **v;		/* NULL-terminated */
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_TOKENS_INIT { NULL, 0, 0 }

/* Appends a copy of s. */
void lz_tokens_push(struct lz_tokens *t, const char *s);
/* Appends a formatted string. */
void lz_tokens_pushf(struct lz_tokens *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Copies src into dst (dst must be empty). */
void lz_tokens_copy(struct lz_tokens *dst, const struct lz_tokens *src);
void lz_tokens_release(struct lz_tokens *t);
/* Whether s is one of t's tokens. */
int lz_tokens_has(const struct lz_tokens *t, const char *s);

#endif
