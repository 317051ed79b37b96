/*
 * ids.c: random identifiers. A failing CSPRNG is a broken invariant: no
 * identifier is ever made from a weaker source.
 */
#include <openssl/rand.h>

#include "core/ids.h"
#include "core/util.h"

void
lz_id_random(char *out, size_t bytes)
{
	unsigned char raw[64];

	if (bytes > sizeof raw || RAND_bytes(raw, (int)bytes) != 1)
		LZ_BUG("cannot draw %zu random bytes", bytes);
	lz_hex(raw, bytes, out);
}
