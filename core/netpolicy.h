/*
 * netpolicy.h: the egress policy as the Network Sidecar receives it. The
 * coordinator compiles the effective table (policy.h, after the conflict
 * check) and the Domain's resolvers into one canonical text, passes it as
 * the single argument of /lazaret-netpolicy, and compares the SHA-256 of
 * that text with the digest the sidecar prints once it has installed and
 * verified the policy ("ready <64 hex digits>"). The sidecar parses the
 * same text with lz_netpolicy_parse, which accepts only the canonical
 * spelling, so the digest of what it parsed is the digest of what it got.
 * Pure: libc and libcrypto only (this file is linked into the static
 * sidecar program too, with core/cidr.c and core/util.c).
 *
 * The wire form, version 1 (every line ends in '\n', no other spaces):
 *
 *   lazaret-netpolicy 1
 *   allow 0.0.0.0/0
 *   deny 10.0.0.0/8
 *   deny 10.0.2.0/24
 *   allow 10.0.2.3/32
 *   ...
 *   resolver 10.0.2.3
 *
 * Rules are sorted by address, then prefix length (lz_cidr_compare), with
 * no prefix twice; resolvers follow in the profile's order, each one an
 * address the table allows. An address no rule covers is denied.
 */
#ifndef LZ_NETPOLICY_H
#define LZ_NETPOLICY_H

#include <stddef.h>
#include <stdint.h>

#include "core/cidr.h"
#include "core/policy.h"
#include "core/util.h"

#define LZ_NETPOLICY_HEADER "lazaret-netpolicy 1"
#define LZ_NETPOLICY_MAX_RULES 1024
#define LZ_NETPOLICY_MAX_RESOLVERS 8
#define LZ_NETPOLICY_MAX_TEXT 65536
#define LZ_NETPOLICY_DIGEST_LEN 64	/* hex digits of SHA-256 */

/*
 * The slirp4netns network the sidecar's netns is attached to: tap0 with
 * 10.0.2.100/24, gateway (and host loopback path) 10.0.2.2, DNS forwarder
 * 10.0.2.3. Allowed prefixes inside that /24 are on-link routes on tap0;
 * every other allowed prefix goes via the gateway (onlink).
 */
/*
 * Network attachment (SR-9): the sidecar gets this start's attachment in
 * a file bound read-only at LZ_NETPOLICY_KEY_PATH: the per-start key (64
 * hex digits; never in argv or the environment, which podman stores) and
 * the IDs of itself and of the sandbox that will join it (lz_netpolicy_
 * attach_format), and the Domain ID as its argument; its readiness line
 * is "ready <digest> <mac>" with lz_netpolicy_attach_mac. Nothing of a
 * start is in the container's configuration, so a container created
 * ahead (core/sandbox-prep.h) learns it only when it starts.
 */
#define LZ_NETPOLICY_KEY_PATH "/lazaret-attach.key"
#define LZ_NETPOLICY_KEY_BYTES 32

#define LZ_NETPOLICY_DEV "tap0"
#define LZ_NETPOLICY_SLIRP_NET 0x0a000200u	/* 10.0.2.0 */
#define LZ_NETPOLICY_SLIRP_LEN 24
#define LZ_NETPOLICY_GATEWAY 0x0a000202u	/* 10.0.2.2 */

struct lz_netpolicy_rule {
	struct lz_cidr prefix;
	int allow;
};

struct lz_netpolicy {
	struct lz_netpolicy_rule *rules;
	size_t nrules, rules_alloc;
	uint32_t *resolvers;		/* host byte order */
	size_t nresolvers, resolvers_alloc;
};
#define LZ_NETPOLICY_INIT { NULL, 0, 0, NULL, 0, 0 }

/* An address the sidecar asks the kernel about (RTM_GETROUTE). */
struct lz_netpolicy_probe {
	uint32_t addr;			/* host byte order */
	int allow;			/* the decision the table gives */
	int via_gateway;		/* allowed and outside the slirp /24 */
	const char *why;		/* "rule", "gateway", "resolver", ... */
	size_t rule;			/* index of the deciding rule, or nrules */
};

/*
 * Builds np from an effective table (lz_profile_policy's output: checked
 * and normalised) and the resolvers' addresses (/32 prefixes, in order).
 * LZ_EINVAL for a table with an equal-prefix conflict, too many rules or
 * resolvers, or a resolver the table does not allow.
 */
int lz_netpolicy_compile(struct lz_netpolicy *np, const struct lz_policy *p,
    const struct lz_cidr *resolvers, size_t nresolvers, struct lz_err *err);
/* Appends the canonical text of np to out. */
void lz_netpolicy_format(const struct lz_netpolicy *np, struct lz_buf *out);
/*
 * Parses the canonical text (len bytes, no NUL inside) into np (empty).
 * Anything but the canonical spelling is LZ_EINVAL with the line number.
 */
int lz_netpolicy_parse(const char *text, size_t len, struct lz_netpolicy *np,
    struct lz_err *err);
/* Lower-case hex SHA-256 of text into out (LZ_NETPOLICY_DIGEST_LEN + 1). */
int lz_netpolicy_digest(const char *text, size_t len, char *out,
    struct lz_err *err);
/*
 * The longest-prefix decision for addr: 1 allow, 0 deny (also when no rule
 * covers it). *rule (if not NULL) gets the deciding rule's index, or
 * nrules.
 */
int lz_netpolicy_lookup(const struct lz_netpolicy *np, uint32_t addr,
    size_t *rule);
/* 1 when addr lies in the slirp4netns network (10.0.2.0/24). */
int lz_netpolicy_in_slirp(uint32_t addr);
/*
 * The addresses that prove the installed routes: for every rule one
 * address that the rule itself decides (none when more specific rules
 * cover all of it), then the gateway, 169.254.169.254 and each resolver.
 * Addresses the kernel treats specially (0/8, 127/8, 224/3) are never
 * chosen. *v is allocated.
 */
void lz_netpolicy_probes(const struct lz_netpolicy *np,
    struct lz_netpolicy_probe **v, size_t *n);
void lz_netpolicy_release(struct lz_netpolicy *np);

/*
 * The readiness report's MAC: HMAC-SHA256 with key over
 * "lazaret-attach-v1\n" digest "\n" domain "\n" sidecar "\n" sandbox "\n",
 * in hex into out. Both the sidecar and the coordinator compute it.
 */
void lz_netpolicy_attach_mac(const unsigned char *key, size_t klen,
    const char *digest, const char *domain, const char *sidecar,
    const char *sandbox, char out[65]);
/* A key's text (64 hex digits, a newline allowed) into key[32]. */
int lz_netpolicy_key_parse(const char *text, size_t len,
    unsigned char key[LZ_NETPOLICY_KEY_BYTES], struct lz_err *err);
/* Hex digits of a runtime component ID (Network Sidecar, Agent Sandbox). */
#define LZ_NETPOLICY_ID_LEN 16
/*
 * The attachment file: "KEY\nSIDECAR-ID SANDBOX-ID\n" (the key as 64 hex
 * digits, each ID as LZ_NETPOLICY_ID_LEN), appended to out. LZ_EINVAL
 * when a part is not of that form (out unchanged).
 */
int lz_netpolicy_attach_format(const char *key_hex, const char *sidecar,
    const char *sandbox, struct lz_buf *out, struct lz_err *err);
/*
 * Parses an attachment file (len bytes) into key, sidecar and sandbox
 * (each ID NUL-terminated). Anything but lz_netpolicy_attach_format's
 * exact output is LZ_EINVAL.
 */
int lz_netpolicy_attach_parse(const char *text, size_t len,
    unsigned char key[LZ_NETPOLICY_KEY_BYTES],
    char sidecar[LZ_NETPOLICY_ID_LEN + 1],
    char sandbox[LZ_NETPOLICY_ID_LEN + 1], struct lz_err *err);

#endif
