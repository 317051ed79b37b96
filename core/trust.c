/*
 * trust.c: the Trust Anchor and the peers' keys (trust.h). Certificates
 * are X.509 v3, Ed25519, made with OpenSSL 3 in memory; the profile
 * (fields, extensions) is in protocol/wire.md section 3. The verifier
 * trusts nothing but this instance's CA certificate and checks every bound
 * field itself: no name constraints are needed with one throwaway CA per
 * Domain and coordinator instance.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "core/trust.h"

struct lz_trust {
	char domain[17];
	char profile[33];
	char coordinator[17];
	EVP_PKEY *key;
	X509 *ca;
	char *ca_pem;
	char fingerprint[65];
	struct lz_trust_issued *issued;
	size_t nissued, issued_alloc;
	unsigned long forgotten;
};

static const char *const roles[] = {
	[LZ_ROLE_COORDINATOR] = "coordinator",
	[LZ_ROLE_CLIENT] = "client",
	[LZ_ROLE_SIDECAR] = "sidecar",
	[LZ_ROLE_SANDBOX] = "sandbox",
};

static int ssl_err(struct lz_err *err, const char *what);
static int component_ok(const char *s);
static X509 *make_cert(EVP_PKEY *signer, X509 *issuer, EVP_PKEY *pub,
    const char *cn, const char *san, int ca, time_t nb, time_t na,
    struct lz_err *err);
static int to_pem(X509 *x, struct lz_buf *out);
static void fingerprint(X509 *x, char out[65]);
static int add_ext(X509 *x, X509 *issuer, int nid, const char *value);

const char *
lz_role_name(enum lz_role r)
{
	return (unsigned)r < sizeof roles / sizeof roles[0] ? roles[r] : "?";
}

/* err gets what with OpenSSL's queue drained into it. */
static int
ssl_err(struct lz_err *err, const char *what)
{
	struct lz_buf b = LZ_BUF_INIT;
	char line[256];
	unsigned long e;

	while ((e = ERR_get_error()) != 0) {
		ERR_error_string_n(e, line, sizeof line);
		lz_buf_addf(&b, "%s%s", b.len ? "; " : "", line);
	}
	lz_err_set(err, LZ_EINVAL, "%s%s%s", what, b.len ? ": " : "", b.buf);
	lz_buf_release(&b);
	return LZ_EINVAL;
}

static int
component_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= LZ_TRUST_COMPONENT_MAX &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static int
add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *e;
	int ok;

	X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
	if ((e = X509V3_EXT_conf_nid(NULL, &ctx, nid, value)) == NULL)
		return 0;
	ok = X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	return ok;
}

/* A certificate for pub signed by signer (issuer NULL: self-signed). */
static X509 *
make_cert(EVP_PKEY *signer, X509 *issuer, EVP_PKEY *pub, const char *cn,
    const char *san, int ca, time_t nb, time_t na, struct lz_err *err)
{
	unsigned char serial[16];
	X509 *x = X509_new();
	X509_NAME *name = X509_NAME_new();
	BIGNUM *bn = NULL;
	int ok;

	ok = x != NULL && name != NULL && RAND_bytes(serial, sizeof serial) == 1;
	serial[0] &= 0x7f;	/* a positive INTEGER */
	ok = ok && (bn = BN_bin2bn(serial, sizeof serial, NULL)) != NULL &&
	    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != NULL &&
	    X509_set_version(x, 2) &&
	    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
	    (const unsigned char *)cn, -1, -1, 0) &&
	    X509_set_subject_name(x, name) &&
	    X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) :
	    name) &&
	    X509_time_adj_ex(X509_getm_notBefore(x), 0, 0, &nb) != NULL &&
	    X509_time_adj_ex(X509_getm_notAfter(x), 0, 0, &na) != NULL &&
	    X509_set_pubkey(x, pub);
	if (ok && ca)
		ok = add_ext(x, x, NID_basic_constraints,
		    "critical,CA:TRUE,pathlen:0") &&
		    add_ext(x, x, NID_key_usage, "critical,keyCertSign") &&
		    add_ext(x, x, NID_subject_key_identifier, "hash");
	else if (ok)
		ok = add_ext(x, issuer, NID_basic_constraints,
		    "critical,CA:FALSE") &&
		    add_ext(x, issuer, NID_key_usage,
		    "critical,digitalSignature") &&
		    add_ext(x, issuer, NID_subject_alt_name, san) &&
		    add_ext(x, issuer, NID_authority_key_identifier,
		    "keyid:always");
	ok = ok && X509_sign(x, signer, NULL) > 0;
	BN_free(bn);
	X509_NAME_free(name);
	if (!ok) {
		ssl_err(err, "cannot make a certificate");
		X509_free(x);
		return NULL;
	}
	return x;
}

static int
to_pem(X509 *x, struct lz_buf *out)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p;
	long n;
	int ok = b != NULL && PEM_write_bio_X509(b, x) == 1;

	if (ok && (n = BIO_get_mem_data(b, &p)) > 0)
		lz_buf_add(out, p, (size_t)n);
	BIO_free(b);
	return ok ? 0 : LZ_EINVAL;
}

static void
fingerprint(X509 *x, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (X509_digest(x, EVP_sha256(), md, &n) != 1 || n != 32)
		LZ_BUG("cannot hash a certificate");
	lz_hex(md, n, out);
}

struct lz_trust *
lz_trust_new(const char *domain, const char *profile,
    const char *coordinator_id, struct lz_err *err)
{
	struct lz_trust *t = lz_xcalloc(1, sizeof *t);
	struct lz_buf cn = LZ_BUF_INIT, pem = LZ_BUF_INIT;
	time_t now = time(NULL);

	snprintf(t->domain, sizeof t->domain, "%s", domain);
	snprintf(t->profile, sizeof t->profile, "%s", profile);
	snprintf(t->coordinator, sizeof t->coordinator, "%s", coordinator_id);
	lz_buf_addf(&cn, "Lazaret Trust Anchor %s %s", domain, coordinator_id);
	if ((t->key = lz_key_new(err)) == NULL ||
	    (t->ca = make_cert(t->key, NULL, t->key, cn.buf, NULL, 1,
	    now - LZ_TRUST_SKEW_SECONDS, now + LZ_TRUST_VALID_SECONDS,
	    err)) == NULL || to_pem(t->ca, &pem) != 0) {
		lz_buf_release(&cn);
		lz_buf_release(&pem);
		lz_trust_free(t);
		return NULL;
	}
	t->ca_pem = lz_buf_detach(&pem);
	fingerprint(t->ca, t->fingerprint);
	lz_buf_release(&cn);
	return t;
}

void
lz_trust_free(struct lz_trust *t)
{
	if (t == NULL)
		return;
	EVP_PKEY_free(t->key);
	X509_free(t->ca);
	free(t->ca_pem);
	free(t->issued);
	free(t);
}

const char *
lz_trust_fingerprint(const struct lz_trust *t)
{
	return t->fingerprint;
}

const char *
lz_trust_ca_pem(const struct lz_trust *t)
{
	return t->ca_pem;
}

const struct lz_trust_issued *
lz_trust_list(const struct lz_trust *t, size_t *n, unsigned long *forgotten)
{
	*n = t->nissued;
	if (forgotten != NULL)
		*forgotten = t->forgotten;
	return t->issued;
}

int
lz_trust_issue_fields(struct lz_trust *t, enum lz_role role,
    const char *domain, const char *profile, const char *component,
    EVP_PKEY *pub, time_t not_before, time_t not_after, struct lz_buf *pem,
    struct lz_err *err)
{
	struct lz_buf san = LZ_BUF_INIT, cn = LZ_BUF_INIT;
	struct lz_trust_issued *e;
	ASN1_INTEGER *sn;
	size_t i;
	BIGNUM *bn;
	char *hex;
	X509 *x;
	int rc = 0;

	if (!component_ok(component))
		return lz_err_set(err, LZ_EINVAL, "component ID '%s' is not "
		    "1-%d of a-z, 0-9, '-'", component, LZ_TRUST_COMPONENT_MAX);
	lz_buf_addf(&san, "URI:lazaret://%s/%s/%s?profile=%s", domain,
	    lz_role_name(role), component, profile);
	lz_buf_addf(&cn, "%s %s", lz_role_name(role), component);
	x = make_cert(t->key, t->ca, pub, cn.buf, san.buf, 0, not_before,
	    not_after, err);
	if (x == NULL || to_pem(x, pem) != 0) {
		rc = x == NULL ? LZ_EINVAL : ssl_err(err, "cannot write a "
		    "certificate");
		goto out;
	}
	/* Bounded: past the limit the oldest client identity is forgotten. */
	if (t->nissued == LZ_TRUST_LIST_MAX) {
		for (i = 0; i < t->nissued && t->issued[i].role !=
		    LZ_ROLE_CLIENT; i++)
			;
		if (i == t->nissued)
			i = 0;
		memmove(&t->issued[i], &t->issued[i + 1], (t->nissued - i - 1) *
		    sizeof *t->issued);
		t->nissued--;
		t->forgotten++;
	}
	t->issued = lz_xgrow(t->issued, t->nissued + 1, &t->issued_alloc,
	    sizeof *t->issued);
	e = &t->issued[t->nissued++];
	memset(e, 0, sizeof *e);
	e->role = role;
	snprintf(e->component, sizeof e->component, "%s", component);
	sn = X509_get_serialNumber(x);
	bn = ASN1_INTEGER_to_BN(sn, NULL);
	hex = bn != NULL ? BN_bn2hex(bn) : NULL;
	snprintf(e->serial, sizeof e->serial, "%s", hex ? hex : "?");
	for (char *p = e->serial; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' : *p);
	OPENSSL_free(hex);
	BN_free(bn);
	e->not_after = (long long)not_after;
	fingerprint(x, e->fingerprint);
out:
	X509_free(x);
	lz_buf_release(&san);
	lz_buf_release(&cn);
	return rc;
}

int
lz_trust_issue(struct lz_trust *t, enum lz_role role, const char *component,
    EVP_PKEY *pub, struct lz_buf *pem, struct lz_err *err)
{
	time_t now = time(NULL);

	return lz_trust_issue_fields(t, role, t->domain, t->profile,
	    component, pub, now - LZ_TRUST_SKEW_SECONDS,
	    now + LZ_TRUST_VALID_SECONDS, pem, err);
}

/* The one URI name of x, or NULL. */
static char *
uri_of(X509 *x)
{
	GENERAL_NAMES *names = X509_get_ext_d2i(x, NID_subject_alt_name, NULL,
	    NULL);
	const GENERAL_NAME *g;
	char *uri = NULL;
	int i, n = 0;

	for (i = 0; names != NULL && i < sk_GENERAL_NAME_num(names); i++) {
		g = sk_GENERAL_NAME_value(names, i);
		n++;
		if (g->type == GEN_URI && uri == NULL)
			uri = lz_xstrndup((const char *)ASN1_STRING_get0_data(
			    g->d.uniformResourceIdentifier),
			    (size_t)ASN1_STRING_length(
			    g->d.uniformResourceIdentifier));
	}
	GENERAL_NAMES_free(names);
	if (n != 1) {
		free(uri);
		return NULL;
	}
	return uri;
}

int
lz_trust_verify(const struct lz_trust *t, const char *pem, size_t len,
    enum lz_role role, const char *component, time_t now, EVP_PKEY **pub,
    struct lz_err *err)
{
	struct lz_buf want = LZ_BUF_INIT;
	X509_STORE *store = NULL;
	X509_STORE_CTX *ctx = NULL;
	X509 *x = NULL;
	BIO *b = NULL;
	char *uri = NULL;
	int rc = LZ_EINVAL, e;

	if (pub != NULL)
		*pub = NULL;
	if (len == 0 || len > LZ_TRUST_PEM_MAX) {
		lz_err_set(err, LZ_EINVAL, "certificate of %zu bytes (at most "
		    "%d)", len, LZ_TRUST_PEM_MAX);
		goto out;
	}
	if ((b = BIO_new_mem_buf(pem, (int)len)) == NULL ||
	    (x = PEM_read_bio_X509(b, NULL, NULL, NULL)) == NULL) {
		ssl_err(err, "not a certificate in PEM");
		goto out;
	}
	store = X509_STORE_new();
	ctx = X509_STORE_CTX_new();
	if (store == NULL || ctx == NULL || X509_STORE_add_cert(store,
	    t->ca) != 1 || X509_STORE_CTX_init(ctx, store, x, NULL) != 1) {
		ssl_err(err, "cannot set up a certificate check");
		goto out;
	}
	if (now != 0)
		X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(ctx), now);
	if (X509_verify_cert(ctx) != 1) {
		e = X509_STORE_CTX_get_error(ctx);
		lz_err_set(err, LZ_EINVAL, "certificate refused: %s (not "
		    "issued by this coordinator's Trust Anchor, or outside "
		    "its validity)", X509_verify_cert_error_string(e));
		goto out;
	}
	/* X509_verify_cert checked the chain; the leaf must be one. */
	if (X509_check_ca(x) != 0 || !(X509_get_key_usage(x) &
	    KU_DIGITAL_SIGNATURE)) {
		lz_err_set(err, LZ_EINVAL, "certificate refused: not a leaf "
		    "for signatures");
		goto out;
	}
	lz_buf_addf(&want, "lazaret://%s/%s/%s?profile=%s", t->domain,
	    lz_role_name(role), component, t->profile);
	if ((uri = uri_of(x)) == NULL || strcmp(uri, want.buf) != 0) {
		lz_err_set(err, LZ_EINVAL, "certificate refused: it names "
		    "'%s', this peer must be '%s' (role, Domain, profile and "
		    "component must all match)", uri ? uri : "(no single URI)",
		    want.buf);
		goto out;
	}
	if (pub != NULL && (*pub = X509_get_pubkey(x)) == NULL) {
		ssl_err(err, "certificate without a public key");
		goto out;
	}
	rc = 0;
out:
	free(uri);
	lz_buf_release(&want);
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(store);
	X509_free(x);
	BIO_free(b);
	ERR_clear_error();
	return rc;
}

EVP_PKEY *
lz_key_new(struct lz_err *err)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");

	if (k == NULL)
		ssl_err(err, "cannot make an Ed25519 key");
	return k;
}

int
lz_key_public_b64(EVP_PKEY *k, struct lz_buf *out)
{
	unsigned char raw[32], enc[64];
	size_t n = sizeof raw;

	if (EVP_PKEY_get_raw_public_key(k, raw, &n) != 1 || n != 32)
		return LZ_EINVAL;
	lz_buf_add(out, enc, (size_t)EVP_EncodeBlock(enc, raw, 32));
	return 0;
}

EVP_PKEY *
lz_key_from_b64(const char *b64, struct lz_err *err)
{
	unsigned char raw[48];
	EVP_PKEY *k;

	if (strlen(b64) != 44 || EVP_DecodeBlock(raw, (const unsigned char *)
	    b64, 44) != 33 || b64[43] != '=' || b64[42] == '=') {
		lz_err_set(err, LZ_EINVAL, "not an Ed25519 public key (base64 "
		    "of 32 bytes)");
		return NULL;
	}
	if ((k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, raw,
	    32)) == NULL)
		ssl_err(err, "not an Ed25519 public key");
	return k;
}

int
lz_key_private_pem(EVP_PKEY *k, struct lz_buf *out, struct lz_err *err)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p;
	long n;
	int ok = b != NULL && PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0,
	    NULL, NULL) == 1;

	if (ok && (n = BIO_get_mem_data(b, &p)) > 0)
		lz_buf_add(out, p, (size_t)n);
	BIO_free(b);
	return ok ? 0 : ssl_err(err, "cannot write a private key");
}

EVP_PKEY *
lz_key_from_pem(const char *pem, size_t len, struct lz_err *err)
{
	BIO *b = BIO_new_mem_buf(pem, (int)len);
	EVP_PKEY *k = b != NULL ? PEM_read_bio_PrivateKey(b, NULL, NULL,
	    NULL) : NULL;

	BIO_free(b);
	if (k == NULL || EVP_PKEY_get_id(k) != EVP_PKEY_ED25519) {
		EVP_PKEY_free(k);
		ssl_err(err, "not an Ed25519 private key in PEM");
		return NULL;
	}
	return k;
}

int
lz_key_sign(EVP_PKEY *k, const void *data, size_t len, struct lz_buf *out,
    struct lz_err *err)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char sig[64], enc[96];
	size_t n = sizeof sig;
	int ok = c != NULL && EVP_DigestSignInit(c, NULL, NULL, NULL, k) == 1 &&
	    EVP_DigestSign(c, sig, &n, data, len) == 1 && n == 64;

	EVP_MD_CTX_free(c);
	if (!ok)
		return ssl_err(err, "cannot sign");
	lz_buf_add(out, enc, (size_t)EVP_EncodeBlock(enc, sig, 64));
	return 0;
}

int
lz_key_verify(EVP_PKEY *k, const void *data, size_t len, const char *sig_b64,
    struct lz_err *err)
{
	unsigned char sig[72];
	EVP_MD_CTX *c;
	int ok;

	if (strlen(sig_b64) != 88 || sig_b64[86] != '=' || sig_b64[87] != '=' ||
	    EVP_DecodeBlock(sig, (const unsigned char *)sig_b64, 88) != 66)
		return lz_err_set(err, LZ_EINVAL, "not an Ed25519 signature "
		    "(base64 of 64 bytes)");
	c = EVP_MD_CTX_new();
	ok = c != NULL && EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) == 1 &&
	    EVP_DigestVerify(c, sig, 64, data, len) == 1;
	EVP_MD_CTX_free(c);
	ERR_clear_error();
	return ok ? 0 : lz_err_set(err, LZ_EINVAL, "signature does not match");
}
