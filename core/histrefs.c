/*
 * histrefs.c: reading a git directory's refs without trusting it
 * (histrefs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/histrefs.h"
#include "core/readat.h"
#include "core/visible.h"

#define LOOSE_MAX 4096		/* a loose ref file: "OID\n" or "ref: X\n" */

struct walk {
	struct lz_refset *out;
	struct lz_buf *notes;
	struct lz_buf buf;
	size_t count;
	int full;		/* LZ_HISTREFS_MAX reached */
	const struct lz_histrefs_cache *was;	/* the last read */
	struct lz_histrefs_loose *now;		/* this read's */
	size_t nnow;
	size_t nowalloc;	/* lz_xgrow's */
};

static void loose_dir(struct walk *w, int dfd, const char *prefix,
    unsigned depth);
static void loose_file(struct walk *w, int dfd, const char *name,
    const char *ref, const struct stat *st);
static int cmp_loose(const void *a, const void *b);
static void loose_release(struct lz_histrefs_loose *v, size_t n);
static void head(int gitfd, struct lz_refset *out, struct lz_buf *notes);
static void packed(int gitfd, struct lz_histrefs_cache *c,
    struct lz_buf *notes, int *partial);

int
lz_refname_ok(const char *name)
{
	const char *p, *comp = name;
	size_t n;

	if (strcmp(name, "HEAD") == 0)
		return 1;
	if (strncmp(name, "refs/", 5) != 0)
		return 0;
	for (p = name; ; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '/' || c == '\0') {
			n = (size_t)(p - comp);
			if (n == 0 || comp[0] == '.' || (n >= 5 &&
			    memcmp(p - 5, ".lock", 5) == 0))
				return 0;
			if (c == '\0')
				break;
			comp = p + 1;
			continue;
		}
		if (c < 0x20 || c == 0x7f || strchr(" ~^:?*[\\", c) != NULL)
			return 0;
		if ((c == '.' && p[1] == '.') || (c == '@' && p[1] == '{'))
			return 0;
	}
	return p[-1] != '.';
}

char *
lz_ref_value_parse(const char *buf, size_t len)
{
	size_t n, end = len;
	char *v;

	while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == ' ' ||
	    buf[end - 1] == '\t' || buf[end - 1] == '\r'))
		end--;
	if (end > 5 && memcmp(buf, "ref: ", 5) == 0) {
		v = lz_xasprintf("ref:%.*s", (int)(end - 5), buf + 5);
		if (memchr(buf, '\0', end) == NULL && lz_refname_ok(v + 4))
			return v;
		free(v);
		return NULL;
	}
	for (n = 0; n < end && strchr("0123456789abcdef", buf[n]) != NULL &&
	    buf[n] != '\0'; n++)
		;
	if (n != end || (n != 40 && n != 64))
		return NULL;
	return lz_xstrndup(buf, n);
}

unsigned
lz_packed_refs_parse(const char *buf, size_t len, struct lz_refset *out,
    unsigned *first_bad)
{
	const char *p = buf, *end = buf + len, *nl, *sp;
	char *name, *oid;
	unsigned line = 0, bad = 0;
	int after_ref = 0;

	*first_bad = 0;
	for (; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (line == 1 && *p == '#') {
			after_ref = 0;
			continue;
		}
		/* "^OID": the peeled value of the ref just before. */
		if (*p == '^' && after_ref && (nl - p == 41 || nl - p == 65) &&
		    strspn(p + 1, "0123456789abcdef") >= (size_t)(nl - p - 1)) {
			after_ref = 0;
			continue;
		}
		after_ref = 0;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp != NULL && (sp - p == 40 || sp - p == 64) &&
		    memchr(p, '\0', (size_t)(nl - p)) == NULL) {
			oid = lz_xstrndup(p, (size_t)(sp - p));
			name = lz_xstrndup(sp + 1, (size_t)(nl - sp - 1));
			if (lz_ref_oid_ok(oid) && strcmp(name, "HEAD") != 0 &&
			    lz_refname_ok(name)) {
				lz_refset_push(out, name, oid);
				after_ref = 1;
			}
			free(oid);
			free(name);
			if (after_ref)
				continue;
		}
		if (bad++ == 0)
			*first_bad = line;
	}
	return bad;
}

static int
cmp_loose(const void *a, const void *b)
{
	return strcmp(((const struct lz_histrefs_loose *)a)->name,
	    ((const struct lz_histrefs_loose *)b)->name);
}

static void
loose_release(struct lz_histrefs_loose *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

/* One loose ref file; ref is its full name, st its status. */
static void
loose_file(struct walk *w, int dfd, const char *name, const char *raw,
    const struct stat *was)
{
	struct lz_histrefs_loose key, *hit = NULL, *e;
	struct stat st;
	char *v = NULL, *ref = lz_visible_str(raw, LZ_VISIBLE_ASCII);
	int rc;

	if (!lz_refname_ok(raw)) {
		lz_buf_addf(w->notes, "'%s' is not a name git takes for a "
		    "ref: left out\n", ref);
		goto out;
	}
	/* Unchanged since the last read: its value stands, unopened. */
	key.name = (char *)raw;
	if (S_ISREG(was->st_mode) && w->was->nloose > 0)
		hit = bsearch(&key, w->was->loose, w->was->nloose,
		    sizeof key, cmp_loose);
	if (hit != NULL && !hit->racy && hit->ino == was->st_ino &&
	    hit->dev == was->st_dev && hit->size == was->st_size &&
	    hit->mtime.tv_sec == was->st_mtim.tv_sec &&
	    hit->mtime.tv_nsec == was->st_mtim.tv_nsec &&
	    hit->ctime.tv_sec == was->st_ctim.tv_sec &&
	    hit->ctime.tv_nsec == was->st_ctim.tv_nsec) {
		v = lz_xstrdup(hit->value);
		st = *was;
		goto found;
	}
	rc = lz_readat(dfd, name, LOOSE_MAX, &w->buf, &st);
	if (rc == LZ_READAT_MISSING)
		goto out;	/* gone meanwhile (git renamed it) */
	if (rc == LZ_READAT_NOTFILE) {
		lz_buf_addf(w->notes, "ref '%s' is %s: not read, left out\n",
		    ref, lz_readat_kind(st.st_mode));
		goto out;
	}
	if (rc != LZ_READAT_OK) {
		lz_buf_addf(w->notes, "ref '%s' %s: left out\n", ref,
		    rc == LZ_READAT_TOOBIG ? "is too large for a ref" :
		    "cannot be read");
		goto out;
	}
	if ((v = lz_ref_value_parse(w->buf.buf, w->buf.len)) == NULL) {
		lz_buf_addf(w->notes, "ref '%s' holds neither an object name "
		    "nor 'ref: NAME': left out\n", ref);
		goto out;
	}
found:
	if (++w->count > LZ_HISTREFS_MAX) {
		w->full = 1;
		goto out;
	}
	lz_refset_push(w->out, raw, v);
	w->now = lz_xgrow(w->now, w->nnow + 1, &w->nowalloc, sizeof *w->now);
	e = &w->now[w->nnow++];
	e->name = lz_xstrdup(raw);
	e->value = v;
	v = NULL;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->size = st.st_size;
	e->mtime = st.st_mtim;
	e->ctime = st.st_ctim;
	e->racy = lz_readat_racy(&st);
out:
	free(v);
	free(ref);
}

static void
loose_dir(struct walk *w, int dfd, const char *prefix, unsigned depth)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char *ref;
	int fd, sub;
	size_t len;

	if ((fd = dup(dfd)) < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (!w->full && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		len = strlen(de->d_name);
		if (len >= 5 && strcmp(de->d_name + len - 5, ".lock") == 0)
			continue;
		ref = lz_xasprintf("%s/%s", prefix, de->d_name);
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			free(ref);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < LZ_HISTREFS_DEPTH) {
			sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY |
			    O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				loose_dir(w, sub, ref, depth + 1);
				close(sub);
			}
		} else if (S_ISDIR(st.st_mode))
			lz_buf_addf(w->notes, "a directory under refs/ lies "
			    "deeper than %d levels: left out\n",
			    LZ_HISTREFS_DEPTH);
		else
			loose_file(w, dfd, de->d_name, ref, &st);
		free(ref);
	}
	closedir(d);
}

/* HEAD: a file, or (old git) a symlink to a ref. */
static void
head(int gitfd, struct lz_refset *out, struct lz_buf *notes)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	char target[256], *v = NULL;
	ssize_t n;
	int rc;

	rc = lz_readat(gitfd, "HEAD", LOOSE_MAX, &b, &st);
	if (rc == LZ_READAT_OK)
		v = lz_ref_value_parse(b.buf, b.len);
	else if (rc == LZ_READAT_NOTFILE && S_ISLNK(st.st_mode) &&
	    (n = readlinkat(gitfd, "HEAD", target, sizeof target - 1)) > 0) {
		target[n] = '\0';
		if (lz_refname_ok(target) && strcmp(target, "HEAD") != 0)
			v = lz_xasprintf("ref:%s", target);
	}
	if (v != NULL)
		lz_refset_push(out, "HEAD", v);
	else if (rc != LZ_READAT_MISSING)
		lz_buf_addf(notes, "HEAD holds neither an object name nor "
		    "'ref: NAME': left out\n");
	free(v);
	lz_buf_release(&b);
}

static void
packed(int gitfd, struct lz_histrefs_cache *c, struct lz_buf *notes,
    int *partial)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct stat st;
	int rc;

	if (fstatat(gitfd, "packed-refs", &st, AT_SYMLINK_NOFOLLOW) != 0) {
		/* None: every ref is loose (git pack-refs never ran). */
		lz_refset_release(&c->packed);
		c->valid = 1;
		c->ino = 0;
		c->bad = 0;
		return;
	}
	if (c->valid && !c->racy && c->ino == st.st_ino &&
	    c->dev == st.st_dev && c->size == st.st_size &&
	    c->mtime.tv_sec == st.st_mtim.tv_sec &&
	    c->mtime.tv_nsec == st.st_mtim.tv_nsec &&
	    c->ctime.tv_sec == st.st_ctim.tv_sec &&
	    c->ctime.tv_nsec == st.st_ctim.tv_nsec)
		return;
	rc = lz_readat(gitfd, "packed-refs", LZ_HISTREFS_PACKED_MAX, &b, &st);
	if (rc == LZ_READAT_MISSING) {
		lz_refset_release(&c->packed);
		c->valid = 1;
		c->ino = 0;
	} else if (rc != LZ_READAT_OK) {
		*partial = 1;
		if (rc == LZ_READAT_TOOBIG)
			lz_buf_addf(notes, "packed-refs is %lld bytes, over the "
			    "%u the guard reads: changes to the refs in it are "
			    "not recorded until it is smaller\n",
			    (long long)st.st_size, LZ_HISTREFS_PACKED_MAX);
		else
			lz_buf_addf(notes, "packed-refs is %s: not read (the "
			    "refs last read from it stand)\n",
			    rc == LZ_READAT_NOTFILE ?
			    lz_readat_kind(st.st_mode) : "unreadable");
	} else {
		lz_refset_release(&c->packed);
		c->bad = lz_packed_refs_parse(b.buf, b.len, &c->packed,
		    &c->first_bad);
		lz_refset_sort(&c->packed);
		c->valid = 1;
		c->dev = st.st_dev;
		c->ino = st.st_ino;
		c->size = st.st_size;
		c->mtime = st.st_mtim;
		c->ctime = st.st_ctim;
		c->racy = lz_readat_racy(&st);
	}
	if (c->valid && c->ino != 0 && c->bad > 0)
		lz_buf_addf(notes, "packed-refs has %u line%s git cannot "
		    "read (the first is line %u): host git refuses the whole "
		    "file until it is fixed ('lazaret git restore' writes the "
		    "refs again)\n", c->bad, c->bad == 1 ? "" : "s",
		    c->first_bad);
	lz_buf_release(&b);
}

int
lz_histrefs_read(int gitfd, struct lz_histrefs_cache *cache,
    struct lz_refset *out, struct lz_buf *notes, int *partial,
    struct lz_err *err)
{
	struct lz_refset loose = LZ_REFSET_INIT;
	struct walk w = { &loose, notes, LZ_BUF_INIT, 0, 0, cache, NULL, 0,
	    0 };
	size_t i;
	int fd;

	memset(out, 0, sizeof *out);
	*partial = 0;
	/*
	 * Loose refs first, packed-refs after, as git's files backend reads
	 * them: "git pack-refs" writes packed-refs, then deletes the loose
	 * files, so a read of packed-refs before that write and of refs/
	 * after it would see those refs in neither place (and record them
	 * as deleted). In this order a ref is in one or the other.
	 */
	fd = openat(gitfd, "refs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd >= 0) {
		loose_dir(&w, fd, "refs", 1);
		close(fd);
	} else if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP) {
		lz_buf_release(&w.buf);
		loose_release(w.now, w.nnow);
		lz_refset_release(&loose);
		return lz_err_set(err, LZ_ESYS, "cannot list refs/: %s",
		    strerror(errno));
	} else if (errno != ENOENT)
		lz_buf_adds(notes, "refs/ is not a directory: its refs are "
		    "not read\n");
	if (w.full)
		lz_buf_addf(notes, "more than %u loose refs: the rest are not "
		    "recorded\n", LZ_HISTREFS_MAX);
	packed(gitfd, cache, notes, partial);
	if (cache->valid)
		for (i = 0; i < cache->packed.n; i++)
			lz_refset_push(out, cache->packed.v[i].name,
			    cache->packed.v[i].value);
	lz_refset_append(out, &loose);	/* a loose ref wins over its line */
	head(gitfd, out, notes);
	lz_refset_sort(out);
	lz_buf_release(&w.buf);
	/* This read's loose refs are what the next one compares with. */
	if (w.nnow > 1)
		qsort(w.now, w.nnow, sizeof *w.now, cmp_loose);
	loose_release(cache->loose, cache->nloose);
	cache->loose = w.now;
	cache->nloose = w.nnow;
	return 0;
}

void
lz_histrefs_cache_release(struct lz_histrefs_cache *cache)
{
	loose_release(cache->loose, cache->nloose);
	lz_refset_release(&cache->packed);
	memset(cache, 0, sizeof *cache);
}
