/*
 * gsreport.c: Git Sentry's record in the Domain Root (gsreport.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gsreport.h"

#define OVERFLOW "Git Sentry (SR-4): more moves and reports than this " \
	"record keeps; the latest are in that run's coordinator log\n"

void
lz_gsreport_add(const char *domain_root, const char *lines)
{
	char *path = lz_xasprintf("%s/" LZ_GSREPORT_FILE, domain_root);
	size_t len = strlen(lines);
	struct stat st;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	free(path);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < LZ_GSREPORT_MAX) {
		if (st.st_size + (off_t)len > LZ_GSREPORT_MAX) {
			lines = OVERFLOW;
			len = strlen(lines);
		}
		(void)!write(fd, lines, len);
	}
	close(fd);
}

void
lz_gsreport_read(const char *domain_root, struct lz_buf *out)
{
	char *path = lz_xasprintf("%s/" LZ_GSREPORT_FILE, domain_root);
	char chunk[4096], *line, *save = NULL;
	struct lz_buf b = LZ_BUF_INIT;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return;
	while (b.len <= LZ_GSREPORT_MAX + sizeof OVERFLOW &&
	    (n = read(fd, chunk, sizeof chunk)) > 0)
		lz_buf_add(&b, chunk, (size_t)n);
	close(fd);
	for (line = b.len ? strtok_r(b.buf, "\n", &save) : NULL; line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		lz_buf_addf(out, "since the last launch: %s\n", line);
	lz_buf_release(&b);
}

void
lz_gsreport_clear(const char *domain_root)
{
	char *path = lz_xasprintf("%s/" LZ_GSREPORT_FILE, domain_root);

	(void)unlink(path);
	free(path);
}
