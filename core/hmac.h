/*
 * hmac.h: SHA-256 and HMAC-SHA256 in hex and a constant-time comparison,
 * for the Session Anchors' MACs, the Network Sidecar's policy digest and
 * readiness report, and the prepared containers' fingerprint. Small
 * and libcrypto-only, so the static sidecar program links it too.
 */
#ifndef LZ_HMAC_H
#define LZ_HMAC_H

#include <stddef.h>

/* SHA-256 of data (len bytes), lower-case hex, into out. */
void lz_sha256_hex(const void *data, size_t len, char out[65]);
/* HMAC-SHA256 of data with key (klen bytes), lower-case hex, into out. */
void lz_hmac_hex(const unsigned char *key, size_t klen, const void *data,
    size_t len, char out[65]);
/* 1 when the NUL-terminated strings are equal, in time independent of
 * where they differ (for MACs). */
int lz_hmac_equal(const char *a, const char *b);

#endif
