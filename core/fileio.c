/*
 * fileio.c: lz_file_replace (fileio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"

int
lz_file_replace(int dirfd, const char *name, const void *data, size_t len,
    mode_t mode, const char *shown, struct lz_err *err)
{
	char *tmp = lz_xasprintf(".%s.tmp", name);
	const char *p = data;
	ssize_t n;
	int fd, rc = 0, e;

	(void)unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, mode);
	if (fd < 0)
		goto fail;
	while (len > 0) {
		if ((n = write(fd, p, len)) < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (renameat(dirfd, tmp, dirfd, name) != 0 || fsync(dirfd) != 0)
		goto fail;
	goto out;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	(void)unlinkat(dirfd, tmp, 0);
	rc = lz_err_set(err, LZ_ESYS, "cannot write '%s': %s", shown,
	    strerror(e != 0 ? e : EIO));
out:
	free(tmp);
	return rc;
}
