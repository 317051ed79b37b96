/*
 * histlog.h: the Git history guard's ref log (history.h, issue 20): for
 * each git directory the guard keeps, an append-only text file
 * "refs.log" in its store in the Domain Root, one line per change of a
 * ref's value, oldest first. The coordinator appends while the Domain
 * runs; "lazaret git restore" reads it (and appends what it restored),
 * under the lifecycle lock, so there is one writer at a time.
 *
 * Format: the first line is "lazaret-history 1"; then one record a line,
 * six fields separated by single spaces:
 *
 *   MS WHO KIND NAME OLD NEW
 *
 *   MS    Unix time in milliseconds when the change was seen (decimal,
 *         no sign, no leading zero)
 *   WHO   who changed it, as far as the guard can tell: "host" (seen by
 *         the pass at launch: this Domain's sandbox was not running),
 *         "domain" (seen while it ran: the sandbox, or the host at the
 *         same time; the watch cannot tell them apart), "restore"
 *         (lazaret git restore)
 *   KIND  '+' created, '-' deleted (no commit lost), '>' fast-forward,
 *         '!' commits lost (no ref reaches some commit the old value
 *         reached), '~' moved without losing a commit, '?' not known
 *         (objects missing), '=' the value known at MS (the starting
 *         point of a compacted log)
 *   NAME  the ref ("HEAD", "refs/heads/main"), every byte outside '!'
 *         to '~' and '%' itself written "%XX" (upper-case hex)
 *   OLD, NEW  "-" for absent, an object name (40 or 64 lower-case hex),
 *         or "ref:" and an encoded name (a symbolic ref)
 *
 * A line that does not parse is skipped with a warning naming it; a last
 * line without its newline (a write cut short) is ignored. The file is
 * kept under LZ_HISTLOG_MAX: past it, appends stop (the caller says so
 * once); at launch, records older than the keep time are folded into
 * '=' records (lz_histlog_compact).
 */
#ifndef LZ_HISTLOG_H
#define LZ_HISTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "core/refset.h"
#include "core/util.h"

#define LZ_HISTLOG_FILE "refs.log"
#define LZ_HISTLOG_HEADER "lazaret-history 1\n"
#define LZ_HISTLOG_MAX (64ll * 1024 * 1024)

enum lz_hist_who {
	LZ_HIST_HOST,
	LZ_HIST_DOMAIN,
	LZ_HIST_RESTORE,
};

struct lz_histrec {
	int64_t ms;
	enum lz_hist_who who;
	char kind;		/* + - > ! ~ ? = */
	char *name;
	char *old;		/* NULL: absent */
	char *new;		/* NULL: absent */
};

struct lz_histlog {
	struct lz_histrec *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_HISTLOG_INIT { NULL, 0, 0 }

/* "host", "domain", "restore". */
const char *lz_hist_who_name(enum lz_hist_who who);
/* 1 when k is one of the kinds above. */
int lz_hist_kind_ok(char k);

/* Appends name's encoded form (see NAME above) to b. */
void lz_histname_encode(struct lz_buf *b, const char *name);
/*
 * Decodes n bytes at s; 0 and an allocated name, or LZ_EINVAL (a byte
 * that must be escaped, a bad escape, an escaped NUL, empty).
 */
int lz_histname_decode(const char *s, size_t n, char **out);

/* Appends r's line, newline included. */
void lz_histrec_encode(struct lz_buf *b, const struct lz_histrec *r);
/*
 * Parses one line (len bytes, no newline) into r (allocated fields);
 * LZ_EINVAL with the field at fault in err.
 */
int lz_histrec_decode(const char *line, size_t len, struct lz_histrec *r,
    struct lz_err *err);
void lz_histrec_release(struct lz_histrec *r);

/*
 * Reads dirfd/refs.log (no symlink followed, a regular file of at most
 * LZ_HISTLOG_MAX bytes) into log. A missing file is an empty log. Lines
 * that do not parse are skipped, one "refs.log:N: why" line each in
 * warnings. Fails (log empty) when the file is not a log of this
 * version.
 */
int lz_histlog_read(int dirfd, struct lz_histlog *log,
    struct lz_buf *warnings, struct lz_err *err);
/* Parses a log's text (what lz_histlog_read reads) into log. */
int lz_histlog_parse(const char *buf, size_t len, struct lz_histlog *log,
    struct lz_buf *warnings, struct lz_err *err);
/*
 * Appends n records to dirfd/refs.log in one write (created 0600 with its
 * header when missing). Returns 0, 1 when the file would pass
 * LZ_HISTLOG_MAX (nothing written), or an error.
 */
int lz_histlog_append(int dirfd, const struct lz_histrec *v, size_t n,
    struct lz_err *err);
/*
 * Rewrites dirfd/refs.log with the records after cutoff_ms only, the
 * state at cutoff_ms first as '=' records (each keeping the time and
 * WHO of the record that set it). Written to a temporary file, synced,
 * renamed over. Nothing is done when no record is older than cutoff_ms.
 */
int lz_histlog_compact(int dirfd, int64_t cutoff_ms, struct lz_err *err);
/* Copies r onto the end of log. */
void lz_histlog_push(struct lz_histlog *log, const struct lz_histrec *r);
void lz_histlog_release(struct lz_histlog *log);

/* The refs and their values after every record up to until_ms. */
void lz_histlog_state(const struct lz_histlog *log, int64_t until_ms,
    struct lz_refset *out);

/*
 * A time for "lazaret git restore --to": "@SECONDS" (Unix time),
 * "N" followed by s, m, h, d or w (that long before now_ms), or
 * "YYYY-MM-DD" with an optional "THH:MM[:SS]" (or a space instead of
 * T), local time unless it ends in "Z" (UTC). Into *out_ms.
 */
int lz_hist_time_parse(const char *s, int64_t now_ms, int64_t *out_ms,
    struct lz_err *err);
/* "YYYY-MM-DD HH:MM:SS" in local time, into buf (at least 20 bytes). */
void lz_hist_time_fmt(int64_t ms, char *buf, size_t size);

#endif
