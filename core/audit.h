/*
 * audit.h: the escalation audit log of a Domain (Host Escalation, item
 * 8): who asked for what, who decided, what ran and how it ended. JSON
 * lines in the Domain Root, written by the coordinator only (OR-1), read
 * by `lazaret audit`.
 *
 * Files: <Domain Root>/audit.jsonl, and audit.jsonl.1, the previous one.
 * Bounded: when a line would take audit.jsonl past LZ_AUDIT_FILE_MAX it
 * is renamed to audit.jsonl.1 (replacing the older one) and a new file
 * begins, so the log holds the newest records within 2 x
 * LZ_AUDIT_FILE_MAX bytes. Every file is opened beneath the Domain Root
 * with openat2 (no symlinks), created 0600, appended with O_APPEND.
 *
 * Records (one a line, canonical JSON: compact, sorted keys, ASCII with
 * \uXXXX), every one with "v": 1, "kind", "t" (Unix ms) and "id":
 *   request   session, pane (0: not known), profile, command (the
 *             session's), argv (proposed), cwd (the sandbox's), host_cwd
 *             (where it would run), why (the agent's words), argv_sha256
 *   decision  by ("human", "session-approval", "rule", "timeout",
 *             "no-terminal"), decision ("approve", "approve-session",
 *             "save-rule", "deny", "edit", or "timeout"), client (by
 *             human: the Client CLI's identity as the coordinator knows
 *             it), rule (by rule, or what save-rule saved: "SOURCE:
 *             RULE"), argv (to execute, after an edit; absent when
 *             nothing runs), edited, message (a denial's), argv_sha256
 *   result    outcome ("completed", "denied", "timed-out", "cancelled",
 *             "failed"), status and signal (when a command ran),
 *             duration_ms (from acceptance), stdout_bytes, stderr_bytes,
 *             truncated, reason
 * Never an environment value, a key or a command's output. argv_sha256 is
 * the SHA-256 of the argv's canonical JSON array: when a record would be
 * over LZ_AUDIT_LINE_MAX its argv elements are cut to
 * LZ_AUDIT_ARG_CUT bytes and "cut": true is set, and the hash still names
 * exactly what was asked or run.
 */
#ifndef LZ_AUDIT_H
#define LZ_AUDIT_H

#include <sys/types.h>

#include <stddef.h>

#include "core/util.h"

#define LZ_AUDIT_FILE "audit.jsonl"
#define LZ_AUDIT_OLD "audit.jsonl.1"
#define LZ_AUDIT_FILE_MAX (4 * 1024 * 1024)
#define LZ_AUDIT_LINE_MAX (512 * 1024)
#define LZ_AUDIT_ARG_CUT 256

enum lz_audit_kind {
	LZ_AUDIT_REQUEST,
	LZ_AUDIT_DECISION,
	LZ_AUDIT_RESULT,
};

enum lz_audit_by {
	LZ_AUDIT_BY_HUMAN,
	LZ_AUDIT_BY_SESSION,		/* "session-approval" */
	LZ_AUDIT_BY_RULE,
	LZ_AUDIT_BY_TIMEOUT,
	LZ_AUDIT_BY_NO_TERMINAL,
};

/*
 * One record. Strings are borrowed when writing (NULL: absent) and
 * allocated when read (lz_audit_entry_release frees them).
 */
struct lz_audit_entry {
	enum lz_audit_kind kind;
	long long t;			/* Unix ms; 0: now (writing) */
	char id[33];
	/* request */
	char *session;
	unsigned pane;
	char *profile;
	char *command;
	struct lz_tokens argv;		/* request: proposed; decision: run */
	char *cwd;
	char *host_cwd;
	char *why;
	char argv_sha256[65];		/* "" when writing: computed */
	int cut;
	/* decision */
	enum lz_audit_by by;
	char *decision;
	char *client;
	char *rule;
	int edited;
	char *message;
	/* result */
	char *outcome;
	int ran;			/* a command ran: status, signal */
	int status, signal;
	long long duration_ms;
	unsigned long long stdout_bytes, stderr_bytes;
	int truncated;
	char *reason;
};

/* "request", "decision", "result"; "human", "session-approval", ... */
const char *lz_audit_kind_name(enum lz_audit_kind k);
const char *lz_audit_by_name(enum lz_audit_by b);

/* The coordinator's writer. */
struct lz_audit {
	int dirfd;			/* the Domain Root, O_PATH */
	int fd;				/* audit.jsonl, -1 until first write */
	off_t size;
};

/* Opens the Domain Root (not a symlink) for the log; creates nothing. */
int lz_audit_open(struct lz_audit *a, const char *domain_root,
    struct lz_err *err);
/*
 * Appends e as one line (rotating first when needed). e->t 0 means now.
 * Fails with LZ_ESYS (open, write) or LZ_EINVAL (a kind's required field
 * is missing: id, outcome...).
 */
int lz_audit_append(struct lz_audit *a, const struct lz_audit_entry *e,
    struct lz_err *err);
void lz_audit_close(struct lz_audit *a);

/* The line of e, without the newline (what lz_audit_append writes). */
int lz_audit_encode(const struct lz_audit_entry *e, struct lz_buf *line,
    struct lz_err *err);
/* One line back into e (strict: types, kinds, known words). */
int lz_audit_decode(const char *line, size_t len, struct lz_audit_entry *e,
    struct lz_err *err);
void lz_audit_entry_release(struct lz_audit_entry *e);
/*
 * The human form of e for `lazaret audit`: a header line with the local
 * time, then indented lines; every string that came from the sandbox or
 * a person (argv, cwd, why, command, message) through core/visible.h
 * with vis_flags (LZ_VISIBLE_ASCII for a terminal that is not UTF-8), so
 * it is shown inert and whole.
 */
void lz_audit_describe(const struct lz_audit_entry *e, int vis_flags,
    struct lz_buf *out);

/*
 * Calls fn for every record of the Domain's log, oldest first (audit.
 * jsonl.1, then audit.jsonl). A line that does not decode is skipped and
 * named in warnings ("audit.jsonl:N: ...\n"). A Domain Root or log that
 * does not exist is an empty log. fn returning non-zero stops the walk.
 */
int lz_audit_read(const char *domain_root,
    int (*fn)(const struct lz_audit_entry *e, void *ctx), void *ctx,
    struct lz_buf *warnings, struct lz_err *err);

#endif
