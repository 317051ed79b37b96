/*
 * esc-client.c: the sandbox's side of the Escalation Mailbox
 * (esc-client.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "core/esc-client.h"
#include "core/hmac.h"
#include "core/ids.h"
#include "core/trust.h"

int
lz_esc_slurp(const char *path, size_t max, struct lz_buf *b)
{
	char chunk[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	lz_buf_reset(b);
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if (b->len + (size_t)n > max) {
			close(fd);
			return -EFBIG;
		}
		lz_buf_add(b, chunk, (size_t)n);
	}
	close(fd);
	return n < 0 ? -errno : 0;
}

int64_t
lz_esc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
load_file(const char *dir, const char *name, size_t max, struct lz_buf *b,
    struct lz_err *err)
{
	char *path = lz_xasprintf("%s/%s", dir, name);
	int rc = lz_esc_slurp(path, max, b);

	if (rc != 0)
		rc = lz_err_set(err, LZ_ENOTFOUND, "no sandbox identity: "
		    "'%s': %s", path, strerror(-rc));
	free(path);
	return rc;
}

int
lz_esc_identity_load(struct lz_esc_identity *id, const char *dir,
    struct lz_err *err)
{
	const char *sess = getenv("LAZARET_SESSION");
	const char *anchor = getenv("LAZARET_SESSION_ANCHOR");
	struct lz_buf cert = LZ_BUF_INIT, pem = LZ_BUF_INIT, dom = LZ_BUF_INIT;
	unsigned v;
	int i, rc;

	memset(id, 0, sizeof *id);
	if (sess == NULL || strlen(sess) != LZ_MAILBOX_ID_HEX ||
	    strspn(sess, "0123456789abcdef") != LZ_MAILBOX_ID_HEX ||
	    anchor == NULL || strlen(anchor) != 64 ||
	    strspn(anchor, "0123456789abcdef") != 64)
		return lz_err_set(err, LZ_ENOTFOUND, "LAZARET_SESSION and "
		    "LAZARET_SESSION_ANCHOR are not set: run this in a Lazaret "
		    "session");
	memcpy(id->session, sess, LZ_MAILBOX_ID_HEX + 1);
	for (i = 0; i < 32; i++) {
		sscanf(anchor + 2 * i, "%2x", &v);
		id->anchor[i] = (unsigned char)v;
	}
	if ((rc = load_file(dir, "sandbox.crt", LZ_MAILBOX_CERT_MAX, &cert,
	    err)) != 0 || (rc = load_file(dir, "sandbox.key", 4096, &pem,
	    err)) != 0 || (rc = load_file(dir, "domain", 64, &dom, err)) != 0)
		goto out;
	if ((id->key = lz_key_from_pem(pem.buf, pem.len, err)) == NULL) {
		rc = LZ_EINVAL;
		goto out;
	}
	snprintf(id->domain, sizeof id->domain, "%.16s", dom.buf);
	id->cert = lz_buf_detach(&cert);
out:
	lz_buf_wipe(&pem);
	lz_buf_release(&cert);
	lz_buf_release(&dom);
	if (rc != 0)
		lz_esc_identity_release(id);
	return rc;
}

void
lz_esc_identity_release(struct lz_esc_identity *id)
{
	EVP_PKEY_free(id->key);
	free(id->cert);
	OPENSSL_cleanse(id->anchor, sizeof id->anchor);
	memset(id, 0, sizeof *id);
}

void
lz_esc_record(const struct lz_esc_identity *id, enum lz_record_kind kind,
    const char *request_id, struct lz_request *r)
{
	lz_request_init(r);
	r->kind = kind;
	if (request_id != NULL)
		snprintf(r->id, sizeof r->id, "%s", request_id);
	else
		lz_id_random(r->id, LZ_MAILBOX_ID_HEX / 2);
	lz_id_random(r->nonce, LZ_MAILBOX_ID_HEX / 2);
	snprintf(r->domain, sizeof r->domain, "%s", id->domain);
	snprintf(r->session, sizeof r->session, "%s", id->session);
	r->t = lz_esc_now_ms();
	if (kind != LZ_RECORD_ACK)
		r->cert = lz_xstrdup(id->cert);
}

int
lz_esc_seal(const struct lz_esc_identity *id, struct lz_request *r,
    struct lz_buf *out, struct lz_err *err)
{
	struct lz_buf sb = LZ_BUF_INIT, sig = LZ_BUF_INIT;
	int rc;

	if ((rc = lz_request_encode(r, &sb, NULL, err)) != 0)
		goto out;
	if (r->kind != LZ_RECORD_ACK) {
		if ((rc = lz_key_sign(id->key, sb.buf, sb.len, &sig,
		    err)) != 0)
			goto out;
		free(r->sig);
		r->sig = lz_buf_detach(&sig);
	}
	lz_hmac_hex(id->anchor, sizeof id->anchor, sb.buf, sb.len, r->mac);
	rc = lz_request_encode(r, &sb, out, err);
out:
	lz_buf_release(&sb);
	lz_buf_release(&sig);
	return rc;
}

int
lz_esc_post(const char *dir, const char *name, const struct lz_buf *rec,
    struct lz_err *err)
{
	char *tmp = lz_xasprintf("%s/%s.tmp", dir, name);
	char *dst = lz_xasprintf("%s/%s", dir, name);
	int fd, rc = 0, e = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		e = errno;
	else {
		if (lz_write_all(fd, rec->buf, rec->len) != 0 ||
		    fsync(fd) != 0)
			e = errno;
		/* Closed whatever happened; its error counts too. */
		if (close(fd) != 0 && e == 0)
			e = errno;
		if (e == 0 && rename(tmp, dst) != 0)
			e = errno;
		/* Only the tmp this call made is removed. */
		if (e != 0)
			(void)unlink(tmp);
	}
	if (e != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot write '%s': %s (the "
		    "mailbox is full or missing)", dst, strerror(e));
	free(tmp);
	free(dst);
	return rc;
}

int
lz_esc_result(const struct lz_esc_identity *id, const char *dir,
    const char *request_id, struct lz_result *r, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *name = lz_record_name(LZ_RECORD_RESULT, request_id);
	char *path = lz_xasprintf("%s/%s", dir, name);
	char mac[65];
	int rc;

	lz_result_init(r);
	/* Not there yet. The coordinator writes whole files by rename, so
	 * one that is there and cannot be read or decoded (too big, not a
	 * file) is an error, not a wait. */
	if ((rc = lz_esc_slurp(path, LZ_MAILBOX_RESULT_MAX, &b)) == -ENOENT)
		rc = 0;
	else if (rc != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot read the result '%s': %s",
		    path, strerror(-rc));
	else if ((rc = lz_result_decode(b.buf, b.len, r, err)) == 0) {
		lz_hmac_hex(id->anchor, sizeof id->anchor,
		    r->signed_bytes.buf, r->signed_bytes.len, mac);
		rc = strcmp(r->id, request_id) == 0 &&
		    lz_hmac_equal(mac, r->mac) ? 1 : lz_err_set(err, LZ_EINVAL,
		    "a result for request %.12s does not carry this "
		    "session's MAC: refused", request_id);
	}
	if (rc != 1)
		lz_result_release(r);
	lz_buf_release(&b);
	free(name);
	free(path);
	return rc;
}
