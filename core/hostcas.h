/*
 * hostcas.h: the host's local certificate authorities as set-up copies
 * them into the default image (scripts/setup-image.sh): every *.crt below
 * a directory (the host's /usr/local/share/ca-certificates, what its
 * system store trusts beyond Debian's bundle), symlinks followed, as
 * update-ca-certificates finds them; each with the SHA-256 of its bytes
 * and its certificate's subject. The image's label org.lazaret.local-cas
 * lists, comma-separated, the SHA-256 of each local CA it carries.
 */
#ifndef LZ_HOSTCAS_H
#define LZ_HOSTCAS_H

#include <stddef.h>

#include "core/util.h"

#define LZ_HOSTCAS_DIR "/usr/local/share/ca-certificates"
#define LZ_HOSTCAS_LABEL "org.lazaret.local-cas"
/* Bounds of the walk: deeper, larger or more is an error, not a guess. */
#define LZ_HOSTCAS_MAX_DEPTH 8
#define LZ_HOSTCAS_MAX_FILES 1000
#define LZ_HOSTCAS_MAX_BYTES (1024 * 1024)

struct lz_hostca {
	char *name;		/* path below the directory, control bytes as '?' */
	char sha256[65];	/* lowercase hex of the file's bytes */
	char *subject;		/* the CN (else the whole subject) of its first
				 * PEM certificate, control bytes as '?';
				 * "not a PEM certificate" when there is none */
};

struct lz_hostcas {
	struct lz_hostca *v;	/* sorted by name */
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};

/*
 * Reads every *.crt below dir. A missing dir is no CA (0, n = 0); an
 * unreadable file or directory, a loop or a walk past the bounds above is
 * an error naming it.
 */
int lz_hostcas_read(const char *dir, struct lz_hostcas *out,
    struct lz_err *err);
void lz_hostcas_release(struct lz_hostcas *c);

/* 1 when the comma-separated label lists sha256 (64 hex digits). */
int lz_hostcas_label_has(const char *label, const char *sha256);

#endif
