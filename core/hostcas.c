/*
 * hostcas.c: the host's local CAs and the image label that lists them
 * (see hostcas.h).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "core/hostcas.h"

static int	 walk(const char *dir, const char *rel, int depth,
		     struct lz_hostcas *out, struct lz_err *err);
static int	 add_file(const char *path, const char *rel,
		     struct lz_hostcas *out, struct lz_err *err);
static int	 read_small(const char *path, struct lz_buf *b,
		     struct lz_err *err);
static char	*subject_of(const struct lz_buf *b);
static char	*shown(const char *s);
static int	 cmp_name(const void *a, const void *b);

/* A copy of s with control bytes made visible as '?' (it is printed). */
static char *
shown(const char *s)
{
	char *c = lz_xstrdup(s), *p;

	for (p = c; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
	return c;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct lz_hostca *)a)->name,
	    ((const struct lz_hostca *)b)->name);
}

static int
read_small(const char *path, struct lz_buf *b, struct lz_err *err)
{
	char chunk[8192];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot read '%s': %s", path,
		    strerror(errno));
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (b->len + (size_t)n > LZ_HOSTCAS_MAX_BYTES) {
			close(fd);
			return lz_err_set(err, LZ_EINVAL, "'%s' is larger than "
			    "%d bytes: not a CA certificate", path,
			    LZ_HOSTCAS_MAX_BYTES);
		}
		lz_buf_add(b, chunk, (size_t)n);
	}
	if (n < 0) {
		n = errno;
		close(fd);
		return lz_err_set(err, LZ_ESYS, "cannot read '%s': %s", path,
		    strerror((int)n));
	}
	close(fd);
	return 0;
}

static char *
subject_of(const struct lz_buf *b)
{
	BIO *bio;
	X509 *x = NULL;
	X509_NAME *name;
	X509_NAME_ENTRY *e;
	unsigned char *utf8 = NULL;
	char *s = NULL, *line;
	int i;

	if (b->len == 0)
		return lz_xstrdup("not a PEM certificate (empty)");
	bio = BIO_new_mem_buf(b->buf, (int)b->len);
	if (bio == NULL)
		LZ_BUG("BIO_new_mem_buf failed");
	x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (x == NULL)
		return lz_xstrdup("not a PEM certificate");
	name = X509_get_subject_name(x);
	i = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
	if (i >= 0 && (e = X509_NAME_get_entry(name, i)) != NULL &&
	    ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(e)) >= 0) {
		line = lz_xasprintf("CN=%s", (char *)utf8);
		OPENSSL_free(utf8);
	} else {
		line = X509_NAME_oneline(name, NULL, 0);
		if (line == NULL)
			LZ_BUG("X509_NAME_oneline failed");
		s = lz_xstrdup(line);
		OPENSSL_free(line);
		line = s;
	}
	X509_free(x);
	s = shown(line);
	free(line);
	return s;
}

static int
add_file(const char *path, const char *rel, struct lz_hostcas *out,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_hostca *ca;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	int rc;

	if (out->n >= LZ_HOSTCAS_MAX_FILES)
		return lz_err_set(err, LZ_EINVAL, "more than %d CA files below "
		    "'%s'", LZ_HOSTCAS_MAX_FILES, path);
	if ((rc = read_small(path, &b, err)) != 0) {
		lz_buf_release(&b);
		return rc;
	}
	if (EVP_Digest(b.len ? b.buf : "", b.len, md, &mdlen, EVP_sha256(),
	    NULL) != 1 || mdlen != 32)
		LZ_BUG("SHA-256 failed");
	out->v = lz_xgrow(out->v, out->n + 1, &out->alloc, sizeof *out->v);
	ca = &out->v[out->n++];
	ca->name = shown(rel);
	lz_hex(md, mdlen, ca->sha256);
	ca->subject = subject_of(&b);
	lz_buf_release(&b);
	return 0;
}

/* Walks dir/rel (rel "" at the top), following symlinks. */
static int
walk(const char *dir, const char *rel, int depth, struct lz_hostcas *out,
    struct lz_err *err)
{
	char *path = *rel ? lz_xasprintf("%s/%s", dir, rel) : lz_xstrdup(dir);
	char *sub, *full;
	struct dirent *de;
	struct stat st;
	size_t len;
	DIR *d;
	int rc = 0;

	if (depth > LZ_HOSTCAS_MAX_DEPTH) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is more than %d "
		    "directories deep (a symlink loop?)", path,
		    LZ_HOSTCAS_MAX_DEPTH);
		free(path);
		return rc;
	}
	d = opendir(path);
	if (d == NULL) {
		rc = lz_err_set(err, LZ_ESYS, "cannot read '%s': %s", path,
		    strerror(errno));
		free(path);
		return rc;
	}
	while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		sub = *rel ? lz_xasprintf("%s/%s", rel, de->d_name) :
		    lz_xstrdup(de->d_name);
		full = lz_xasprintf("%s/%s", dir, sub);
		if (stat(full, &st) != 0)
			rc = errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS,
			    "cannot use '%s': %s", full, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			rc = walk(dir, sub, depth + 1, out, err);
		else if (S_ISREG(st.st_mode) &&
		    (len = strlen(de->d_name)) >= 4 &&
		    strcmp(de->d_name + len - 4, ".crt") == 0)
			rc = add_file(full, sub, out, err);
		free(full);
		free(sub);
	}
	if (rc == 0 && errno != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot read '%s': %s", path,
		    strerror(errno));
	closedir(d);
	free(path);
	return rc;
}

int
lz_hostcas_read(const char *dir, struct lz_hostcas *out, struct lz_err *err)
{
	struct stat st;
	int rc;

	memset(out, 0, sizeof *out);
	if (stat(dir, &st) != 0 && errno == ENOENT)
		return 0;
	rc = walk(dir, "", 0, out, err);
	if (rc != 0) {
		lz_hostcas_release(out);
		return rc;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cmp_name);
	return 0;
}

void
lz_hostcas_release(struct lz_hostcas *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].subject);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

int
lz_hostcas_label_has(const char *label, const char *sha256)
{
	size_t n = strlen(sha256);
	const char *p = label, *end;

	if (label == NULL || n == 0)
		return 0;
	for (;;) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) == n && strncmp(p, sha256, n) == 0)
			return 1;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}
