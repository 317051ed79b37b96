/*
 * hmac.c: SHA-256 and HMAC-SHA256 in hex (hmac.h).
 */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "core/hmac.h"
#include "core/util.h"

void
lz_sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_Digest(len > 0 ? data : "", len, md, &n, EVP_sha256(),
	    NULL) != 1 || n != 32)
		LZ_BUG("SHA-256 failed");
	lz_hex(md, n, out);
}

void
lz_hmac_hex(const unsigned char *key, size_t klen, const void *data,
    size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (HMAC(EVP_sha256(), key, (int)klen, data, len, md, &n) == NULL ||
	    n != 32)
		LZ_BUG("HMAC-SHA256 failed");
	lz_hex(md, n, out);
}

int
lz_hmac_equal(const char *a, const char *b)
{
	size_t n = strlen(a);

	return n == strlen(b) && CRYPTO_memcmp(a, b, n) == 0;
}
