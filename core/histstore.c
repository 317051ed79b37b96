/*
 * histstore.c: the objects the Git history guard keeps (histstore.h):
 * hard links, copies where links are refused, marks on what the
 * repository dropped, and their release.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/histstore.h"
#include "core/readat.h"

#define TMP_PREFIX ".lazaret-tmp."

static int cmp_str(const void *a, const void *b);
static void keep(struct lz_histstore *s, int src, int dst, const char *dir,
    const char *name, struct lz_histsync *out);
static int copy_into(struct lz_histstore *s, int fd, const struct stat *st,
    int dst, const char *name);
static void mark(int dst, const char *name, const struct stat *st,
    int64_t now_ms);
static void unmark(int dst, const char *name, const struct stat *st);
static void gone(struct lz_histsync *out, const char *dir,
    const char *name);
static int sync_dir(struct lz_histstore *s, int objs, int i, int full,
    int64_t now_ms, struct lz_histsync *out, struct lz_err *err);
static int walk_store(struct lz_histstore *s, int storeobjs, int gitfd,
    int modify, int64_t now_ms, int64_t keep_ms, struct lz_histspace *sp,
    struct lz_err *err);

int
lz_histstore_loose_name(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return name[n] == '\0' && (n == 38 || n == 62);
}

int
lz_histstore_pack_name(const char *name)
{
	static const char *const ext[] = { "pack", "idx", "rev", "bitmap",
	    "mtimes", "promisor", "keep" };
	size_t n, i;

	if (strncmp(name, "pack-", 5) != 0)
		return 0;
	n = strspn(name + 5, "0123456789abcdef");
	if ((n != 40 && n != 64) || name[5 + n] != '.')
		return 0;
	for (i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (strcmp(name + 6 + n, ext[i]) == 0)
			return 1;
	return 0;
}

void
lz_histstore_dir_name(int i, char name[8])
{
	if (i == LZ_HISTSTORE_PACK)
		snprintf(name, 8, "pack");
	else
		snprintf(name, 8, "%02x", (unsigned)i);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
lz_histstore_list(int dfd, int pack, struct lz_tokens *out)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if ((fd = dup(dfd)) < 0)
		return -errno;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return -errno;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		if (pack ? lz_histstore_pack_name(de->d_name) :
		    lz_histstore_loose_name(de->d_name))
			lz_tokens_push(out, de->d_name);
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_str);
	return 0;
}

static void
gone(struct lz_histsync *out, const char *dir, const char *name)
{
	size_t n = strlen(name);

	out->dropped++;
	if (strcmp(dir, "pack") != 0)
		lz_tokens_pushf(&out->gone_loose, "%s%s", dir, name);
	else if (n > 4 && strcmp(name + n - 4, ".idx") == 0)
		lz_tokens_push(&out->gone_packs, name);
}

static void
mark(int dst, const char *name, const struct stat *st, int64_t now_ms)
{
	struct timespec ts[2] = { { 0, UTIME_OMIT },
	    { now_ms / 1000, (now_ms % 1000) * 1000000 } };

	(void)fchmodat(dst, name, (st->st_mode & 07777) | S_ISVTX, 0);
	(void)utimensat(dst, name, ts, AT_SYMLINK_NOFOLLOW);
}

static void
unmark(int dst, const char *name, const struct stat *st)
{
	(void)fchmodat(dst, name, st->st_mode & 07777 & ~S_ISVTX, 0);
}

/*
 * A copy of the regular file fd (st) as dst/name: a temporary name,
 * exactly st_size bytes, mode 0444, then renamed without replacing.
 */
static int
copy_into(struct lz_histstore *s, int fd, const struct stat *st, int dst,
    const char *name)
{
	char *tmp = lz_xasprintf(TMP_PREFIX "%s", name), buf[65536];
	off_t left = st->st_size;
	ssize_t r;
	int out, rc = 0;

	(void)unlinkat(dst, tmp, 0);
	out = openat(dst, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (out < 0) {
		rc = -errno;
		goto done;
	}
	while (left > 0) {
		r = copy_file_range(fd, NULL, out, NULL, (size_t)left, 0);
		if (r < 0 && (errno == EXDEV || errno == ENOSYS ||
		    errno == EINVAL || errno == EOPNOTSUPP)) {
			r = read(fd, buf, left < (off_t)sizeof buf ?
			    (size_t)left : sizeof buf);
			if (r > 0 && lz_write_all(out, buf, (size_t)r) != 0)
				r = -1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r == 0 ? -EIO : -errno;	/* cut short */
			break;
		}
		left -= r;
	}
	if (rc == 0 && fchmod(out, 0444) != 0)
		rc = -errno;
	close(out);
	if (rc == 0 && renameat2(dst, tmp, dst, name, RENAME_NOREPLACE) != 0 &&
	    errno != EEXIST)
		rc = -errno;
	if (rc == 0 && s != NULL)
		s->copied += (uint64_t)st->st_size;
done:
	(void)unlinkat(dst, tmp, 0);
	free(tmp);
	return rc;
}

/* Keeps src/name as dst/name (dir: "xx" or "pack", for messages). */
static void
keep(struct lz_histstore *s, int src, int dst, const char *dir,
    const char *name, struct lz_histsync *out)
{
	struct stat st, got;
	char proc[32];
	int fd, rc = 0;

	fd = openat(src, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return;		/* gone meanwhile */
		if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(st.st_mode))
			lz_buf_addf(&out->notes, "objects/%s/%s is %s: never "
			    "followed or read, not kept\n", dir, name,
			    lz_readat_kind(st.st_mode));
		else
			lz_buf_addf(&out->notes, "objects/%s/%s cannot be "
			    "opened (%s): not kept\n", dir, name,
			    strerror(errno));
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		lz_buf_addf(&out->notes, "objects/%s/%s is %s: never followed "
		    "or read, not kept\n", dir, name,
		    lz_readat_kind(st.st_mode));
		goto out;
	}
	/* That very inode: linkat through /proc/self/fd (no capability). */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (!s->cross && linkat(AT_FDCWD, proc, dst, name,
	    AT_SYMLINK_FOLLOW) == 0) {
		out->kept++;
		goto out;
	}
	if (!s->cross && errno == EEXIST)
		goto out;
	if (!s->cross) {
		if (errno != ENOENT && errno != EXDEV && errno != EPERM &&
		    errno != EMLINK && errno != EACCES && errno != ENOTDIR)
			lz_buf_addf(&out->notes, "cannot link objects/%s/%s "
			    "through its descriptor: %s\n", dir, name,
			    strerror(errno));
		/* No /proc: by name, then checked to be that inode. */
		if (linkat(src, name, dst, name, 0) == 0) {
			/* The very inode checked above, or none of it. */
			if (fstatat(dst, name, &got, AT_SYMLINK_NOFOLLOW) != 0 ||
			    got.st_ino != st.st_ino || got.st_dev != st.st_dev) {
				(void)unlinkat(dst, name, 0);
				lz_buf_addf(&out->notes, "objects/%s/%s was "
				    "replaced while it was kept: not kept\n",
				    dir, name);
			} else
				out->kept++;
			goto out;
		}
		if (errno == EEXIST)
			goto out;
		if (errno == EXDEV) {
			s->cross = 1;
			lz_buf_addf(&out->notes, "the repository is on another "
			    "file system than the Domain Root: objects cannot "
			    "be hard-linked, so each is copied (its size again "
			    "in the Domain Root, and the time to copy it; at "
			    "most %llu MiB)\n",
			    (unsigned long long)(s->copy_max >> 20));
		} else if (errno != EPERM && errno != EMLINK &&
		    errno != EACCES) {
			lz_buf_addf(&out->notes, "cannot link objects/%s/%s "
			    "into the history store: %s\n", dir, name,
			    strerror(errno));
			goto out;
		}
	}
	if (s->copied + (uint64_t)st.st_size > s->copy_max) {
		if (!s->copy_full)
			lz_buf_addf(&out->notes, "the history store holds "
			    "%llu MiB that only it has (copies: the "
			    "repository cannot be hard-linked into the Domain "
			    "Root; and what the repository dropped); past its "
			    "cap of %llu MiB, objects that need a copy are "
			    "not kept\n",
			    (unsigned long long)(s->copied >> 20),
			    (unsigned long long)(s->copy_max >> 20));
		s->copy_full = 1;
		goto out;
	}
	if ((rc = copy_into(s, fd, &st, dst, name)) == 0) {
		out->kept++;
		out->copies++;
		out->copy_bytes += (uint64_t)st.st_size;
	} else
		lz_buf_addf(&out->notes, "cannot copy objects/%s/%s into the "
		    "history store: %s\n", dir, name, strerror(-rc));
out:
	close(fd);
}

/*
 * One directory of objects/ (fan-out i, or pack/): kept what is new,
 * marked what went. objs is the repository's objects/, -1 when it has
 * none.
 */
static int
sync_dir(struct lz_histstore *s, int objs, int i, int full, int64_t now_ms,
    struct lz_histsync *out, struct lz_err *err)
{
	struct lz_histfan *f = &s->fan[i];
	struct lz_tokens names = LZ_TOKENS_INIT, mine = LZ_TOKENS_INIT;
	struct stat st, kst;
	char dir[8];
	int src = -1, dst = -1, rc = 0, have, c;
	size_t a, b;

	lz_histstore_dir_name(i, dir);
	have = objs >= 0 && fstatat(objs, dir, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode);
	if (have && !full && f->seen && !f->racy && st.st_ino == f->ino &&
	    st.st_mtim.tv_sec == f->mtime.tv_sec &&
	    st.st_mtim.tv_nsec == f->mtime.tv_nsec)
		return 0;
	if (!have && !full && f->seen && !f->had)
		return 0;
	f->seen = 1;
	f->had = have;
	if (have) {
		f->ino = st.st_ino;
		f->mtime = st.st_mtim;
		f->racy = lz_readat_racy(&st);
		src = openat(objs, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (src < 0 || lz_histstore_list(src, i == LZ_HISTSTORE_PACK,
		    &names) != 0) {
			f->racy = 1;	/* try again next time */
			goto out;
		}
	}
	dst = openat(s->fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dst < 0 && errno == ENOENT && names.n > 0 &&
	    (mkdirat(s->fd, dir, 0700) == 0 || errno == EEXIST))
		dst = openat(s->fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (dst < 0) {
		if (names.n > 0)
			rc = lz_err_set(err, LZ_ESYS, "cannot open the history "
			    "store's objects/%s: %s", dir, strerror(errno));
		goto out;
	}
	/*
	 * Both listings sorted: a name only the repository has is kept, one
	 * only the store has is marked gone (once). No stat per object:
	 * a launch pass over 100,000 loose objects reads two listings.
	 */
	if (lz_histstore_list(dst, i == LZ_HISTSTORE_PACK, &mine) != 0)
		goto out;
	for (a = b = 0; a < names.n || b < mine.n; ) {
		c = a == names.n ? 1 : b == mine.n ? -1 : strcmp(names.v[a],
		    mine.v[b]);
		if (c < 0)
			keep(s, src, dst, dir, names.v[a++], out);
		else if (c > 0) {
			if (fstatat(dst, mine.v[b], &kst,
			    AT_SYMLINK_NOFOLLOW) == 0 &&
			    !(kst.st_mode & S_ISVTX)) {
				mark(dst, mine.v[b], &kst, now_ms);
				gone(out, dir, mine.v[b]);
			}
			b++;
		} else {
			a++;
			b++;
		}
	}
out:
	if (src >= 0)
		close(src);
	if (dst >= 0)
		close(dst);
	lz_tokens_release(&names);
	lz_tokens_release(&mine);
	return rc;
}

int
lz_histstore_copy(int src, int dst, const char *name)
{
	struct stat st;
	int fd, rc;

	fd = openat(src, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = fstat(fd, &st) != 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL :
	    copy_into(NULL, fd, &st, dst, name);
	close(fd);
	return rc;
}

int
lz_histstore_open(struct lz_histstore *s, int storefd, uint64_t copy_max,
    struct lz_err *err)
{
	memset(s, 0, sizeof *s);
	s->copy_max = copy_max ? copy_max : LZ_HISTSTORE_COPY_MAX;
	if (mkdirat(storefd, "objects", 0700) != 0 && errno != EEXIST)
		return lz_err_set(err, LZ_ESYS, "cannot create the history "
		    "store's objects/: %s", strerror(errno));
	s->fd = openat(storefd, "objects", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open the history "
		    "store's objects/: %s", strerror(errno));
	return 0;
}

int
lz_histstore_sync(struct lz_histstore *s, int gitfd, int full,
    int64_t now_ms, struct lz_histsync *out, struct lz_err *err)
{
	int objs = -1, i, rc = 0;

	if (gitfd >= 0)
		objs = openat(gitfd, "objects", O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
	out->objects_gone = objs < 0;
	for (i = 0; i <= LZ_HISTSTORE_PACK && rc == 0; i++)
		rc = sync_dir(s, objs, i, full, now_ms, out, err);
	if (objs >= 0)
		close(objs);
	return rc;
}

void
lz_histsync_release(struct lz_histsync *r)
{
	lz_tokens_release(&r->gone_loose);
	lz_tokens_release(&r->gone_packs);
	lz_buf_release(&r->notes);
	memset(r, 0, sizeof *r);
}

/* Every file of the store against the repository (expire and space). */
static int
walk_store(struct lz_histstore *s, int storeobjs, int gitfd, int modify,
    int64_t now_ms, int64_t keep_ms, struct lz_histspace *sp,
    struct lz_err *err)
{
	struct lz_tokens mine = LZ_TOKENS_INIT;
	struct stat st, rst;
	char dir[8];
	int objs = -1, src, dst, i, present;
	int64_t drop_ms;
	size_t k;

	(void)err;
	memset(sp, 0, sizeof *sp);
	if (gitfd >= 0)
		objs = openat(gitfd, "objects", O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
	for (i = 0; i <= LZ_HISTSTORE_PACK; i++) {
		lz_histstore_dir_name(i, dir);
		dst = openat(storeobjs, dir, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (dst < 0)
			continue;
		src = objs >= 0 ? openat(objs, dir, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC) : -1;
		lz_tokens_release(&mine);
		(void)lz_histstore_list(dst, i == LZ_HISTSTORE_PACK, &mine);
		for (k = 0; k < mine.n; k++) {
			if (fstatat(dst, mine.v[k], &st,
			    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			sp->files++;
			if (st.st_nlink > 1) {
				/* Shared: with the repository (or another
				 * Domain's store, which then holds it too). */
				sp->shared++;
				continue;
			}
			sp->held += (uint64_t)st.st_blocks * 512;
			if (!(st.st_mode & S_ISVTX)) {
				/* Not marked: the syncs found it present. */
				sp->copies++;
				sp->copy_bytes += (uint64_t)st.st_size;
				continue;
			}
			/* Marked gone; back in the repository since? */
			present = src >= 0 && fstatat(src, mine.v[k], &rst,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(rst.st_mode);
			if (present) {
				if (modify)
					unmark(dst, mine.v[k], &st);
				sp->copies++;
				sp->copy_bytes += (uint64_t)st.st_size;
				continue;
			}
			drop_ms = (int64_t)st.st_mtim.tv_sec * 1000 +
			    st.st_mtim.tv_nsec / 1000000;
			if (modify && keep_ms >= 0 &&
			    drop_ms < now_ms - keep_ms &&
			    unlinkat(dst, mine.v[k], 0) == 0) {
				sp->released++;
				sp->released_bytes += (uint64_t)st.st_size;
				sp->held -= (uint64_t)st.st_blocks * 512;
				sp->files--;
				continue;
			}
			sp->dropped++;
			sp->dropped_bytes += (uint64_t)st.st_size;
			if (sp->oldest_drop_ms == 0 ||
			    drop_ms < sp->oldest_drop_ms)
				sp->oldest_drop_ms = drop_ms;
		}
		if (src >= 0)
			close(src);
		close(dst);
		if (modify && mine.n > 0)
			(void)unlinkat(storeobjs, dir, AT_REMOVEDIR);
	}
	lz_tokens_release(&mine);
	if (objs >= 0)
		close(objs);
	if (s != NULL)
		s->copied = sp->held;
	return 0;
}

int
lz_histstore_expire(struct lz_histstore *s, int gitfd, int64_t now_ms,
    int64_t keep_ms, struct lz_histspace *sp, struct lz_err *err)
{
	return walk_store(s, s->fd, gitfd, 1, now_ms, keep_ms, sp, err);
}

int
lz_histstore_space(int storefd, int gitfd, struct lz_histspace *sp,
    struct lz_err *err)
{
	int objs, rc;

	memset(sp, 0, sizeof *sp);
	objs = openat(storefd, "objects", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (objs < 0)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS,
		    "cannot open the history store's objects/: %s",
		    strerror(errno));
	rc = walk_store(NULL, objs, gitfd, 0, 0, -1, sp, err);
	close(objs);
	return rc;
}

void
lz_histstore_close(struct lz_histstore *s)
{
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
}
