/*
 * domain-meta.h: what the Domain Root records about its Domain, for
 * "lazaret state" (FR-11): <Domain Root>/domain.json, written at every
 * launch by the coordinator (temporary file, fsync, rename):
 *
 *   {"version": 1, "domain_id": ID, "profile": P, "workspace": W,
 *    "image": IMAGE, "created": UNIX, "last_used": UNIX}
 *
 * "created" is kept from the earlier file; the first write takes the
 * Domain Root's birth time (statx), or now. The Domain Root is host-only
 * (0700, never mounted into the sandbox), so this is trusted host
 * metadata; it is still checked: profile and workspace must hash to the
 * directory's ID (domain.h), or the record is ignored. Domains made before
 * this file existed have none: their profile and workspace are unknown
 * until their next launch.
 *
 * Also here: listing the user's Domains (the IDs under <Storage
 * Root>/domains) and opening one Domain Root named by ID, never creating
 * it.
 */
#ifndef LZ_DOMAIN_META_H
#define LZ_DOMAIN_META_H

#include "core/domain.h"
#include "core/tokens.h"
#include "core/util.h"

#define LZ_DOMAIN_META_FILE "domain.json"

struct lz_domain_meta {
	char id[LZ_DOMAIN_ID_LEN + 1];
	char *profile;		/* NULL: unknown */
	char *workspace;	/* NULL: unknown */
	char *image;		/* NULL: unknown */
	long long created;	/* unix seconds; 0: unknown */
	long long last_used;	/* 0: unknown */
	char *problem;		/* why the record was not taken, or NULL */
};

/*
 * Writes d's record with image, at now (unix seconds). d->root must
 * exist.
 */
int lz_domain_meta_write(const struct lz_domain *d, const char *image,
    long long now, struct lz_err *err);
/*
 * Reads the record of the Domain Root open at rootfd, whose ID is id. A
 * missing file leaves everything unknown and returns 0; so does a bad one,
 * with the reason in m->problem (the rest of "state" goes on without it).
 */
void lz_domain_meta_read(int rootfd, const char *id,
    struct lz_domain_meta *m);
void lz_domain_meta_release(struct lz_domain_meta *m);

/* 1 when s is a Domain ID: LZ_DOMAIN_ID_LEN lower-case hex digits. */
int lz_domain_id_valid(const char *s);
/*
 * The IDs of the Domain Roots under storage_root/domains, sorted, into ids
 * (empty when there is none). Entries that are not Domain IDs are skipped.
 */
int lz_domain_list(const char *storage_root, struct lz_tokens *ids,
    struct lz_err *err);
/*
 * Opens the Domain Root of id under storage_root (private, by descriptor;
 * nothing created). LZ_EINVAL for a malformed ID, LZ_ENOTFOUND when the
 * user has no such Domain: the message names "lazaret state list".
 */
int lz_domain_root_open(const char *storage_root, const char *id,
    struct lz_err *err);

#endif
