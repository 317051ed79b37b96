/*
 * objcheck.c: kept object files checked against their names
 * (objcheck.h), with zlib and OpenSSL's SHA-1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "core/objcheck.h"
#include "core/packidx.h"
#include "core/util.h"

#define CHUNK 65536

static int open_file(int dfd, const char *name, struct stat *st);

static int
open_file(int dfd, const char *name, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC);

	if (fd >= 0 && (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))) {
		close(fd);
		return -1;
	}
	return fd;
}

int
lz_objcheck_loose(int dfd, const char *name, const char *hex)
{
	unsigned char in[CHUNK], out[CHUNK], md[EVP_MAX_MD_SIZE], want[20];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = NULL;
	z_stream z;
	struct stat st;
	ssize_t r;
	int fd, zr = Z_OK, rc = LZ_OBJCHECK_UNKNOWN;
	unsigned long long total = 0;

	if (strlen(hex) != 40 || lz_unhex(hex, 20, want) != 0)
		return LZ_OBJCHECK_UNKNOWN;
	if ((fd = open_file(dfd, name, &st)) < 0)
		return LZ_OBJCHECK_UNKNOWN;
	memset(&z, 0, sizeof z);
	if (inflateInit(&z) != Z_OK || (ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) != 1)
		goto out;
	rc = LZ_OBJCHECK_DAMAGED;
	while (zr != Z_STREAM_END) {
		if ((r = read(fd, in, sizeof in)) < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto out;	/* cut short */
		z.next_in = in;
		z.avail_in = (uInt)r;
		while (z.avail_in > 0 && zr != Z_STREAM_END) {
			z.next_out = out;
			z.avail_out = sizeof out;
			zr = inflate(&z, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END)
				goto out;
			total += sizeof out - z.avail_out;
			if (total > LZ_OBJCHECK_LOOSE_MAX) {
				rc = LZ_OBJCHECK_UNKNOWN;
				goto out;
			}
			EVP_DigestUpdate(ctx, out, sizeof out - z.avail_out);
		}
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == 20)
		rc = memcmp(md, want, 20) == 0 ? LZ_OBJCHECK_OK :
		    LZ_OBJCHECK_DAMAGED;
out:
	inflateEnd(&z);
	EVP_MD_CTX_free(ctx);
	close(fd);
	return rc;
}

int
lz_objcheck_pack(int dfd, const char *name)
{
	unsigned char buf[CHUNK], tail[20], md[EVP_MAX_MD_SIZE], want[20];
	char hex[41];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = NULL;
	struct stat st;
	size_t n = strlen(name), keep = 0;
	off_t left;
	ssize_t r;
	int fd, pack, rc = LZ_OBJCHECK_UNKNOWN;

	pack = n > 5 && strcmp(name + n - 5, ".pack") == 0;
	if (!pack && !(n > 4 && strcmp(name + n - 4, ".idx") == 0))
		return LZ_OBJCHECK_OK;
	if (n != 5 + 40 + (pack ? 5 : 4))
		return LZ_OBJCHECK_UNKNOWN;	/* SHA-256 */
	if ((fd = open_file(dfd, name, &st)) < 0)
		return LZ_OBJCHECK_UNKNOWN;
	rc = LZ_OBJCHECK_DAMAGED;
	if (st.st_size < 20 || (ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) != 1)
		goto out;
	left = st.st_size - 20;
	while (left > 0) {
		r = read(fd, buf, left < CHUNK ? (size_t)left : CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto out;
		EVP_DigestUpdate(ctx, buf, (size_t)r);
		left -= r;
	}
	while (keep < 20) {
		r = read(fd, tail + keep, 20 - keep);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto out;
		keep += (size_t)r;
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 || mdlen != 20 ||
	    memcmp(md, tail, 20) != 0)
		goto out;
	rc = LZ_OBJCHECK_OK;
	/* A pack is named after its checksum. */
	if (pack) {
		memcpy(hex, name + 5, 40);
		hex[40] = '\0';
		if (lz_unhex(hex, 20, want) != 0 || memcmp(want, tail, 20) != 0)
			rc = LZ_OBJCHECK_DAMAGED;
	}
out:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return rc;
}
