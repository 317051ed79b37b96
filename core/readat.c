/*
 * readat.c: bounded reads of files that may be hostile (readat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/readat.h"

const char *
lz_readat_kind(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISDIR(mode))
		return "a directory";
	return "not a regular file";
}

int
lz_readat_racy(const struct stat *st)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (now.tv_sec - st->st_ctim.tv_sec) * 1000000000ll +
	    (now.tv_nsec - st->st_ctim.tv_nsec) < LZ_READAT_RACY_NS;
}

int
lz_readat(int dirfd, const char *name, size_t max, struct lz_buf *out,
    struct stat *st)
{
	struct stat sb, *s = st != NULL ? st : &sb;
	ssize_t r;
	int fd, rc = LZ_READAT_OK;

	lz_buf_reset(out);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return LZ_READAT_MISSING;
		/* ELOOP: a symlink; ENXIO: a socket. */
		if (fstatat(dirfd, name, s, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(s->st_mode))
			return LZ_READAT_NOTFILE;
		return -errno;
	}
	if (fstat(fd, s) != 0)
		rc = -errno;
	else if (!S_ISREG(s->st_mode))
		rc = LZ_READAT_NOTFILE;
	else if ((size_t)s->st_size > max)
		rc = LZ_READAT_TOOBIG;
	while (rc == LZ_READAT_OK) {
		/* One byte more than max tells a file that grew. */
		lz_buf_grow(out, 65536);
		r = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (r == 0)
			break;
		out->len += (size_t)r;
		out->buf[out->len] = '\0';
		if (out->len > max)
			rc = LZ_READAT_TOOBIG;
	}
	close(fd);
	if (rc != LZ_READAT_OK)
		lz_buf_reset(out);
	return rc;
}
