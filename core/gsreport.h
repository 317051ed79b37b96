/*
 * gsreport.h: Git Sentry's record of what the coordinator did while a
 * Domain ran (SR-4): each repository or commondir it moved out of host
 * git's way and each protected editor or tool file that appeared
 * (gitguard.h). The coordinator's log says it at once; the record, in the
 * Domain Root (host-private, never mounted), carries it to the next
 * launch, which shows every line as a warning (mountplan.h), and to
 * "lazaret domain show". The coordinator starts a new record once the
 * launch has read the old one.
 */
#ifndef LZ_GSREPORT_H
#define LZ_GSREPORT_H

#include "core/util.h"

#define LZ_GSREPORT_FILE "git-sentry-report"
/* Bytes kept; past them one line points at the coordinator's log. */
#define LZ_GSREPORT_MAX (64 * 1024)

/* Appends lines ('\n'-terminated) to the record; best effort. */
void lz_gsreport_add(const char *domain_root, const char *lines);
/*
 * Appends every recorded line to out, each prefixed with "since the last
 * launch: ". Nothing when there is no record.
 */
void lz_gsreport_read(const char *domain_root, struct lz_buf *out);
/* Starts a new, empty record. */
void lz_gsreport_clear(const char *domain_root);

#endif
