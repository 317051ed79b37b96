/*
 * trust.h: the Trust Anchor (spec 3.2, SR-9): an ephemeral certificate
 * authority per coordinator instance, made in memory at start (OpenSSL 3,
 * Ed25519) and gone with the process, and the role-bound certificates it
 * issues to the Domain's protocol peers: the coordinator itself, each
 * Client CLI (one per connection), the Network Sidecar and the Agent
 * Sandbox of one start. A certificate binds role, Agent Profile, Domain ID
 * and runtime component ID; lz_trust_verify checks every one of them in
 * code (the certificate profile is in protocol/wire.md section 3), so a
 * certificate of another role, profile, Domain, component or coordinator
 * instance is refused. Also the Ed25519 keys of the peers and the Session
 * Anchors (HMAC-SHA256 keys) of the sessions. No I/O.
 */
#ifndef LZ_TRUST_H
#define LZ_TRUST_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <openssl/evp.h>

#include "core/util.h"

enum lz_role {
	LZ_ROLE_COORDINATOR,
	LZ_ROLE_CLIENT,
	LZ_ROLE_SIDECAR,
	LZ_ROLE_SANDBOX,
};

/* "coordinator", "client", "sidecar", "sandbox". */
const char *lz_role_name(enum lz_role r);

/* A certificate's validity: generous, so a suspended laptop keeps its
 * Domain; it ends with the coordinator anyway (the CA key dies with it). */
#define LZ_TRUST_VALID_SECONDS (7 * 24 * 3600)
/* Accepted clock difference for notBefore. */
#define LZ_TRUST_SKEW_SECONDS 300
#define LZ_TRUST_COMPONENT_MAX 64	/* component IDs: a-z 0-9 - */
#define LZ_TRUST_ANCHOR_BYTES 32	/* a Session Anchor key */
#define LZ_TRUST_PEM_MAX 8192		/* a certificate in PEM */

/* What domain show lists of an issued certificate (never a key). */
struct lz_trust_issued {
	enum lz_role role;
	char component[LZ_TRUST_COMPONENT_MAX + 1];
	char serial[33];		/* hex */
	long long not_after;		/* Unix seconds */
	char fingerprint[65];		/* SHA-256 of the DER, hex */
};

struct lz_trust;

/*
 * A new Trust Anchor for (domain, profile) of coordinator instance
 * coordinator_id: a fresh Ed25519 CA key and self-signed certificate.
 */
struct lz_trust *lz_trust_new(const char *domain, const char *profile,
    const char *coordinator_id, struct lz_err *err);
/* Frees the CA (its key is wiped by OpenSSL's free). */
void lz_trust_free(struct lz_trust *t);
/* SHA-256 of the CA certificate's DER, hex. */
const char *lz_trust_fingerprint(const struct lz_trust *t);
/* The CA certificate in PEM. */
const char *lz_trust_ca_pem(const struct lz_trust *t);
/*
 * The certificates issued, oldest first: at most LZ_TRUST_LIST_MAX; past
 * it the oldest client identities are forgotten (*forgotten counts them).
 */
#define LZ_TRUST_LIST_MAX 1024
const struct lz_trust_issued *lz_trust_list(const struct lz_trust *t,
    size_t *n, unsigned long *forgotten);

/*
 * Issues a certificate for pub (an Ed25519 public key) binding role,
 * this Trust Anchor's Domain and profile, and component (1-64 of a-z, 0-9,
 * '-'). Appends its PEM to pem; records it for lz_trust_list.
 */
int lz_trust_issue(struct lz_trust *t, enum lz_role role,
    const char *component, EVP_PKEY *pub, struct lz_buf *pem,
    struct lz_err *err);
/*
 * The same with every bound field given: what a wrong certificate of this
 * CA would say. For tests only (the coordinator never issues another
 * Domain's or profile's certificate).
 */
int lz_trust_issue_fields(struct lz_trust *t, enum lz_role role,
    const char *domain, const char *profile, const char *component,
    EVP_PKEY *pub, time_t not_before, time_t not_after, struct lz_buf *pem,
    struct lz_err *err);

/*
 * Verifies a certificate (PEM, len bytes, at most LZ_TRUST_PEM_MAX): it
 * chains to this Trust Anchor, is valid at now (0: the current time), is
 * a leaf (not a CA) for digital signatures, and its one URI name binds
 * exactly role, this Domain, this profile and component. On success *pub
 * (when pub is not NULL) gets its public key (the caller frees it).
 * LZ_EINVAL with which check failed.
 */
int lz_trust_verify(const struct lz_trust *t, const char *pem, size_t len,
    enum lz_role role, const char *component, time_t now, EVP_PKEY **pub,
    struct lz_err *err);

/* Ed25519 keys and signatures. */
EVP_PKEY *lz_key_new(struct lz_err *err);
/* The raw 32-byte public key, base64 (44 characters), into out. */
int lz_key_public_b64(EVP_PKEY *k, struct lz_buf *out);
/* A public key from its base64 raw form; NULL with a message if bad. */
EVP_PKEY *lz_key_from_b64(const char *b64, struct lz_err *err);
/* The private key in PEM (PKCS#8), for the sandbox's identity file. */
int lz_key_private_pem(EVP_PKEY *k, struct lz_buf *out, struct lz_err *err);
/* A private key from its PEM (the sandbox's identity file). */
EVP_PKEY *lz_key_from_pem(const char *pem, size_t len, struct lz_err *err);
/* Signs data (64-byte signature, base64 into out). */
int lz_key_sign(EVP_PKEY *k, const void *data, size_t len,
    struct lz_buf *out, struct lz_err *err);
/* 0 when sig_b64 is k's signature of data, else LZ_EINVAL. */
int lz_key_verify(EVP_PKEY *k, const void *data, size_t len,
    const char *sig_b64, struct lz_err *err);

#endif
