/*
 * histlog.c: the ref log of the Git history guard (histlog.h): records
 * to and from text, the file read, appended and compacted, and the times
 * "lazaret git restore --to" takes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/histlog.h"
#include "core/readat.h"

#define TMP_FILE "refs.log.tmp"

static const char *const who_names[] = { "host", "domain", "restore" };
static const char hexu[] = "0123456789ABCDEF";

static int value_decode(const char *s, size_t n, char **out);
static void value_encode(struct lz_buf *b, const char *v);
static int hexval(char c);

const char *
lz_hist_who_name(enum lz_hist_who who)
{
	return who_names[who];
}

int
lz_hist_kind_ok(char k)
{
	return k != '\0' && strchr("+->!~?=", k) != NULL;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
lz_histname_encode(struct lz_buf *b, const char *name)
{
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p != '\0'; p++) {
		if (*p > ' ' && *p < 0x7f && *p != '%') {
			lz_buf_addch(b, (char)*p);
			continue;
		}
		lz_buf_addch(b, '%');
		lz_buf_addch(b, hexu[*p >> 4]);
		lz_buf_addch(b, hexu[*p & 15]);
	}
}

int
lz_histname_decode(const char *s, size_t n, char **out)
{
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;
	int hi, lo;

	*out = NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c != '%') {
			if (c <= ' ' || c >= 0x7f)
				goto bad;
			lz_buf_addch(&b, (char)c);
			continue;
		}
		if (n - i < 3)
			goto bad;
		hi = hexval(s[i + 1]);
		lo = hexval(s[i + 2]);
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			goto bad;
		/* Only bytes that must be escaped may be: one spelling. */
		c = (unsigned char)(hi << 4 | lo);
		if (c > ' ' && c < 0x7f && c != '%')
			goto bad;
		lz_buf_addch(&b, (char)c);
		i += 2;
	}
	if (b.len == 0)
		goto bad;
	*out = lz_buf_detach(&b);
	return 0;
bad:
	lz_buf_release(&b);
	return LZ_EINVAL;
}

static void
value_encode(struct lz_buf *b, const char *v)
{
	if (v == NULL)
		lz_buf_addch(b, '-');
	else if (strncmp(v, "ref:", 4) == 0) {
		lz_buf_adds(b, "ref:");
		lz_histname_encode(b, v + 4);
	} else
		lz_buf_adds(b, v);
}

static int
value_decode(const char *s, size_t n, char **out)
{
	char *name;

	*out = NULL;
	if (n == 1 && s[0] == '-')
		return 0;
	if (n > 4 && strncmp(s, "ref:", 4) == 0) {
		if (lz_histname_decode(s + 4, n - 4, &name) != 0)
			return LZ_EINVAL;
		*out = lz_xasprintf("ref:%s", name);
		free(name);
		return 0;
	}
	*out = lz_xstrndup(s, n);
	if (!lz_ref_oid_ok(*out)) {
		free(*out);
		*out = NULL;
		return LZ_EINVAL;
	}
	return 0;
}

void
lz_histrec_encode(struct lz_buf *b, const struct lz_histrec *r)
{
	lz_buf_addf(b, "%lld %s %c ", (long long)r->ms, who_names[r->who],
	    r->kind);
	lz_histname_encode(b, r->name);
	lz_buf_addch(b, ' ');
	value_encode(b, r->old);
	lz_buf_addch(b, ' ');
	value_encode(b, r->new);
	lz_buf_addch(b, '\n');
}

int
lz_histrec_decode(const char *line, size_t len, struct lz_histrec *r,
    struct lz_err *err)
{
	static const char *const what[6] = { "time", "who", "kind", "name",
	    "old value", "new value" };
	const char *f[6];
	size_t fl[6], i, k;
	const char *p = line, *end = line + len, *sp;
	long long ms = 0;

	memset(r, 0, sizeof *r);
	for (k = 0; k < 6; k++) {
		sp = k < 5 ? memchr(p, ' ', (size_t)(end - p)) : end;
		if (sp == NULL || sp == p)
			return lz_err_set(err, LZ_EINVAL, "%s missing", what[k]);
		f[k] = p;
		fl[k] = (size_t)(sp - p);
		p = sp + (k < 5);
	}
	if (memchr(f[5], ' ', fl[5]) != NULL)
		return lz_err_set(err, LZ_EINVAL, "more than six fields");
	if (fl[0] > 18 || (fl[0] > 1 && f[0][0] == '0'))
		return lz_err_set(err, LZ_EINVAL, "bad time");
	for (i = 0; i < fl[0]; i++) {
		if (f[0][i] < '0' || f[0][i] > '9')
			return lz_err_set(err, LZ_EINVAL, "bad time");
		ms = ms * 10 + (f[0][i] - '0');
	}
	r->ms = ms;
	for (i = 0; i < 3; i++)
		if (strlen(who_names[i]) == fl[1] &&
		    memcmp(who_names[i], f[1], fl[1]) == 0)
			break;
	if (i == 3)
		return lz_err_set(err, LZ_EINVAL, "bad who");
	r->who = (enum lz_hist_who)i;
	if (fl[2] != 1 || !lz_hist_kind_ok(f[2][0]))
		return lz_err_set(err, LZ_EINVAL, "bad kind");
	r->kind = f[2][0];
	if (lz_histname_decode(f[3], fl[3], &r->name) != 0)
		return lz_err_set(err, LZ_EINVAL, "bad name");
	if (value_decode(f[4], fl[4], &r->old) != 0 ||
	    value_decode(f[5], fl[5], &r->new) != 0) {
		lz_histrec_release(r);
		return lz_err_set(err, LZ_EINVAL, "bad value");
	}
	return 0;
}

void
lz_histrec_release(struct lz_histrec *r)
{
	free(r->name);
	free(r->old);
	free(r->new);
	memset(r, 0, sizeof *r);
}

void
lz_histlog_push(struct lz_histlog *log, const struct lz_histrec *r)
{
	struct lz_histrec *c;

	log->v = lz_xgrow(log->v, log->n + 1, &log->alloc, sizeof *log->v);
	c = &log->v[log->n++];
	*c = *r;
	c->name = lz_xstrdup(r->name);
	c->old = r->old != NULL ? lz_xstrdup(r->old) : NULL;
	c->new = r->new != NULL ? lz_xstrdup(r->new) : NULL;
}

void
lz_histlog_release(struct lz_histlog *log)
{
	size_t i;

	for (i = 0; i < log->n; i++)
		lz_histrec_release(&log->v[i]);
	free(log->v);
	log->v = NULL;
	log->n = 0;
}

int
lz_histlog_parse(const char *buf, size_t len, struct lz_histlog *log,
    struct lz_buf *warnings, struct lz_err *err)
{
	struct lz_err why = LZ_ERR_INIT;
	struct lz_histrec r;
	const char *p, *nl, *end = buf + len;
	size_t hl = strlen(LZ_HISTLOG_HEADER);
	unsigned line = 1;

	memset(log, 0, sizeof *log);
	if (len == 0)
		return 0;
	if (len < hl || memcmp(buf, LZ_HISTLOG_HEADER, hl) != 0)
		return lz_err_set(err, LZ_EINVAL, "'%s' does not start with "
		    "'lazaret-history 1': not a ref log of this Lazaret",
		    LZ_HISTLOG_FILE);
	for (p = buf + hl; p < end; p = nl + 1) {
		line++;
		/* A last line without its newline: a write cut short. */
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		if (lz_histrec_decode(p, (size_t)(nl - p), &r, &why) != 0) {
			if (warnings != NULL)
				lz_buf_addf(warnings, "%s:%u: %s: line "
				    "skipped\n", LZ_HISTLOG_FILE, line,
				    why.msg);
			lz_err_release(&why);
			continue;
		}
		log->v = lz_xgrow(log->v, log->n + 1, &log->alloc,
		    sizeof *log->v);
		log->v[log->n++] = r;
	}
	return 0;
}

int
lz_histlog_read(int dirfd, struct lz_histlog *log, struct lz_buf *warnings,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	int rc;

	memset(log, 0, sizeof *log);
	rc = lz_readat(dirfd, LZ_HISTLOG_FILE, LZ_HISTLOG_MAX, &b, &st);
	if (rc == LZ_READAT_MISSING)
		rc = 0;
	else if (rc == LZ_READAT_NOTFILE)
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' in the history store is "
		    "%s; move it away", LZ_HISTLOG_FILE,
		    lz_readat_kind(st.st_mode));
	else if (rc == LZ_READAT_TOOBIG)
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is %lld bytes, over the "
		    "%lld a ref log may hold", LZ_HISTLOG_FILE,
		    (long long)st.st_size, LZ_HISTLOG_MAX);
	else if (rc < 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot read '%s': %s",
		    LZ_HISTLOG_FILE, strerror(-rc));
	else
		rc = lz_histlog_parse(b.buf, b.len, log, warnings, err);
	lz_buf_release(&b);
	return rc;
}

int
lz_histlog_append(int dirfd, const struct lz_histrec *v, size_t n,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	size_t i;
	int fd, rc = 0;

	if (n == 0)
		return 0;
	fd = openat(dirfd, LZ_HISTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT |
	    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    LZ_HISTLOG_FILE, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s' is not a regular file",
		    LZ_HISTLOG_FILE);
		goto out;
	}
	if (st.st_size == 0)
		lz_buf_adds(&b, LZ_HISTLOG_HEADER);
	for (i = 0; i < n; i++)
		lz_histrec_encode(&b, &v[i]);
	if ((long long)st.st_size + (long long)b.len > LZ_HISTLOG_MAX) {
		rc = 1;
		goto out;
	}
	if ((rc = lz_write_all(fd, b.buf, b.len)) != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot append to '%s': %s",
		    LZ_HISTLOG_FILE, strerror(-rc));
out:
	close(fd);
	lz_buf_release(&b);
	return rc;
}

void
lz_histlog_state(const struct lz_histlog *log, int64_t until_ms,
    struct lz_refset *out)
{
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < log->n && log->v[i].ms <= until_ms; i++)
		lz_refset_push(out, log->v[i].name, log->v[i].new);
	lz_refset_sort(out);
}

int
lz_histlog_compact(int dirfd, int64_t cutoff_ms, struct lz_err *err)
{
	struct lz_histlog log = LZ_HISTLOG_INIT;
	struct lz_refset set = LZ_REFSET_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_histrec base;
	const struct lz_histrec *r;
	size_t i, first, fold = 0;
	char num[32];
	int fd = -1, rc;

	if ((rc = lz_histlog_read(dirfd, &log, NULL, err)) != 0)
		return rc;
	for (first = 0; first < log.n && log.v[first].ms <= cutoff_ms; first++)
		fold += log.v[first].kind != '=';
	if (fold == 0)
		goto out;
	/* Which record gave each ref its value at the cutoff. */
	for (i = 0; i < first; i++) {
		snprintf(num, sizeof num, "%zu", i);
		lz_refset_push(&set, log.v[i].name, log.v[i].new != NULL ?
		    num : NULL);
	}
	lz_refset_sort(&set);
	lz_buf_adds(&b, LZ_HISTLOG_HEADER);
	for (i = 0; i < set.n; i++) {
		r = &log.v[strtoul(set.v[i].value, NULL, 10)];
		base = *r;
		base.kind = '=';
		base.old = NULL;
		lz_histrec_encode(&b, &base);
	}
	for (i = first; i < log.n; i++)
		lz_histrec_encode(&b, &log.v[i]);
	(void)unlinkat(dirfd, TMP_FILE, 0);
	fd = openat(dirfd, TMP_FILE, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0 || (rc = lz_write_all(fd, b.buf, b.len)) != 0 ||
	    fsync(fd) != 0 || renameat(dirfd, TMP_FILE, dirfd,
	    LZ_HISTLOG_FILE) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot rewrite '%s': %s",
		    LZ_HISTLOG_FILE, strerror(rc < 0 ? -rc : errno));
		(void)unlinkat(dirfd, TMP_FILE, 0);
	}
out:
	if (fd >= 0)
		close(fd);
	lz_buf_release(&b);
	lz_refset_release(&set);
	lz_histlog_release(&log);
	return rc;
}

int
lz_hist_time_parse(const char *s, int64_t now_ms, int64_t *out_ms,
    struct lz_err *err)
{
	static const struct { char c; int64_t ms; } units[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 },
		{ 'd', 86400000 }, { 'w', 7 * 86400000ll },
	};
	struct tm tm;
	char *end, tail[4];
	long long n;
	int y, mo, d, h = 0, mi = 0, sec = 0, used = 0, k;
	size_t i, len = strlen(s);
	time_t t;

	if (s[0] == '@' && s[1] >= '0' && s[1] <= '9') {
		errno = 0;
		n = strtoll(s + 1, &end, 10);
		if (*end == '\0' && errno == 0 && n < 1000000000000ll) {
			*out_ms = (int64_t)n * 1000;
			return 0;
		}
	} else if (len >= 2 && s[0] >= '0' && s[0] <= '9' &&
	    strspn(s, "0123456789") == len - 1) {
		n = strtoll(s, NULL, 10);
		for (i = 0; i < sizeof units / sizeof units[0]; i++)
			if (units[i].c == s[len - 1] && n < 100000) {
				*out_ms = now_ms - n * units[i].ms;
				return 0;
			}
	} else if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &used) == 3 &&
	    used == 10) {
		k = 0;
		if (s[10] == 'T' || s[10] == ' ')
			k = sscanf(s + 11, "%2d:%2d%n", &h, &mi, &used) == 2 ?
			    11 + used : -1;
		if (k > 0 && s[k] == ':')
			k = sscanf(s + k + 1, "%2d%n", &sec, &used) == 1 &&
			    used == 2 ? k + 3 : -1;
		if (k == 0)
			k = 10;
		snprintf(tail, sizeof tail, "%s", k > 0 ? s + k : "?");
		if (k > 0 && (tail[0] == '\0' || strcmp(tail, "Z") == 0) &&
		    mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 &&
		    mi <= 59 && sec <= 60 && y >= 1970) {
			memset(&tm, 0, sizeof tm);
			tm.tm_year = y - 1900;
			tm.tm_mon = mo - 1;
			tm.tm_mday = d;
			tm.tm_hour = h;
			tm.tm_min = mi;
			tm.tm_sec = sec;
			tm.tm_isdst = -1;
			t = tail[0] == 'Z' ? timegm(&tm) : mktime(&tm);
			if (t != (time_t)-1 && tm.tm_mday == d) {
				*out_ms = (int64_t)t * 1000;
				return 0;
			}
		}
	}
	return lz_err_set(err, LZ_EINVAL, "'%s' is not a time: give "
	    "'2026-12-01T10:30' (local time; 'Z' at the end for UTC), "
	    "'@UNIX-SECONDS', or how long ago, like '90m', '2h' or '3d'", s);
}

void
lz_hist_time_fmt(int64_t ms, char *buf, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, size, "@%lld", (long long)t);
}
