/*
 * ids.h: runtime-unique identifiers (Coordinator ID, Client CLI ID, Session
 * ID), drawn from OpenSSL's CSPRNG and written as lower-case hex.
 */
#ifndef LZ_IDS_H
#define LZ_IDS_H

#include <stddef.h>

#define LZ_ID_COORDINATOR_BYTES 8
#define LZ_ID_CLIENT_BYTES 8
#define LZ_ID_SESSION_BYTES 16	/* the spec asks for a cryptographic ID */
#define LZ_ID_COMPONENT_BYTES 8	/* Network Sidecar ID, Agent Sandbox ID */

/* Fills out (2 * bytes + 1 chars) with bytes random bytes in hex. */
void lz_id_random(char *out, size_t bytes);

#endif
