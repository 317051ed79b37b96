/*
 * audit.c: the escalation audit log (see audit.h): one encoder and one
 * decoder for its records, the coordinator's appending writer with
 * rotation, and the reader behind `lazaret audit`.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "core/audit.h"
#include "core/pathcheck.h"
#include "core/tokens.h"
#include "core/visible.h"
#include "protocol/msg.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII)

static const char *const kinds[] = { "request", "decision", "result" };
static const char *const bys[] = { "human", "session-approval", "rule",
    "timeout", "no-terminal" };
static const char *const decisions[] = { "approve", "approve-session",
    "save-rule", "deny", "edit", "timeout" };
static const char *const outcomes[] = { "completed", "denied", "timed-out",
    "cancelled", "failed" };

static void	 argv_hash(const struct lz_tokens *t, char out[65]);
static json_t	*entry_json(const struct lz_audit_entry *e, size_t cut);
static int	 word_in(const char *w, const char *const *v, size_t n);
static int	 get_str(json_t *o, const char *key, int req, char **out,
		     struct lz_err *err);
static int	 get_int(json_t *o, const char *key, int req, long long min,
		     long long max, long long *out, struct lz_err *err);
static int	 read_file(int dirfd, const char *name,
		     int (*fn)(const struct lz_audit_entry *, void *),
		     void *ctx, struct lz_buf *warnings, int *stop,
		     struct lz_err *err);
#define NWORDS(v) (sizeof v / sizeof v[0])

const char *
lz_audit_kind_name(enum lz_audit_kind k)
{
	return (unsigned)k < NWORDS(kinds) ? kinds[k] : "?";
}

const char *
lz_audit_by_name(enum lz_audit_by b)
{
	return (unsigned)b < NWORDS(bys) ? bys[b] : "?";
}

static int
word_in(const char *w, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; w != NULL && i < n; i++)
		if (strcmp(w, v[i]) == 0)
			return (int)i;
	return -1;
}

static void
argv_hash(const struct lz_tokens *t, char out[65])
{
	json_t *a = lz_tokens_json(t, 0);
	char *text = json_dumps(a, JSON_FLAGS);
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hl = 0;

	if (text == NULL || EVP_Digest(text, strlen(text), h, &hl,
	    EVP_sha256(), NULL) != 1 || hl != 32)
		LZ_BUG("cannot hash an argv");
	lz_hex(h, 32, out);
	free(text);
	json_decref(a);
}

static void
set_str(json_t *o, const char *key, const char *v)
{
	json_t *s;

	if (v != NULL && (s = json_string(v)) != NULL)
		json_object_set_new(o, key, s);
	else if (v != NULL)
		json_object_set_new(o, key, json_string("(not UTF-8)"));
}

static json_t *
entry_json(const struct lz_audit_entry *e, size_t cut)
{
	json_t *o = json_pack("{s:i,s:s,s:I,s:s}", "v", 1, "kind",
	    lz_audit_kind_name(e->kind), "t", (json_int_t)e->t, "id", e->id);
	char hash[65];

	if (e->argv.n > 0 && (e->kind == LZ_AUDIT_REQUEST ||
	    e->kind == LZ_AUDIT_DECISION)) {
		json_object_set_new(o, "argv", lz_tokens_json(&e->argv, cut));
		/* A record read back keeps the hash of what was whole. */
		if (e->argv_sha256[0] == '\0')
			argv_hash(&e->argv, hash);
		json_object_set_new(o, "argv_sha256", json_string(
		    e->argv_sha256[0] ? e->argv_sha256 : hash));
		if (cut > 0 || e->cut)
			json_object_set_new(o, "cut", json_true());
	}
	switch (e->kind) {
	case LZ_AUDIT_REQUEST:
		set_str(o, "session", e->session);
		json_object_set_new(o, "pane", json_integer(e->pane));
		set_str(o, "profile", e->profile);
		set_str(o, "command", e->command);
		set_str(o, "cwd", e->cwd);
		set_str(o, "host_cwd", e->host_cwd);
		set_str(o, "why", e->why);
		break;
	case LZ_AUDIT_DECISION:
		json_object_set_new(o, "by", json_string(lz_audit_by_name(
		    e->by)));
		set_str(o, "decision", e->decision);
		set_str(o, "client", e->client);
		set_str(o, "rule", e->rule);
		json_object_set_new(o, "edited", json_boolean(e->edited));
		set_str(o, "message", e->message);
		break;
	case LZ_AUDIT_RESULT:
		set_str(o, "outcome", e->outcome);
		if (e->ran) {
			json_object_set_new(o, "status",
			    json_integer(e->status));
			json_object_set_new(o, "signal",
			    json_integer(e->signal));
		}
		json_object_set_new(o, "duration_ms",
		    json_integer(e->duration_ms));
		json_object_set_new(o, "stdout_bytes",
		    json_integer((json_int_t)e->stdout_bytes));
		json_object_set_new(o, "stderr_bytes",
		    json_integer((json_int_t)e->stderr_bytes));
		json_object_set_new(o, "truncated",
		    json_boolean(e->truncated));
		set_str(o, "reason", e->reason);
		break;
	}
	return o;
}

int
lz_audit_encode(const struct lz_audit_entry *e, struct lz_buf *line,
    struct lz_err *err)
{
	json_t *o;
	char *text;
	size_t cut = 0;

	if (!lz_msg_hex_ok(e->id, 32) || (unsigned)e->kind >= NWORDS(kinds) ||
	    (e->kind == LZ_AUDIT_DECISION && (word_in(e->decision, decisions,
	    NWORDS(decisions)) < 0 || (unsigned)e->by >= NWORDS(bys))) ||
	    (e->kind == LZ_AUDIT_RESULT && word_in(e->outcome, outcomes,
	    NWORDS(outcomes)) < 0))
		return lz_err_set(err, LZ_EINVAL, "bad audit record for "
		    "request '%s': id, decision, by or outcome", e->id);
	for (;;) {
		o = entry_json(e, cut);
		text = json_dumps(o, JSON_FLAGS);
		json_decref(o);
		if (text == NULL)
			LZ_BUG("cannot encode an audit record");
		if (strlen(text) <= LZ_AUDIT_LINE_MAX || cut > 0)
			break;
		free(text);
		cut = LZ_AUDIT_ARG_CUT;
	}
	lz_buf_adds(line, text);
	free(text);
	return 0;
}

static int
get_str(json_t *o, const char *key, int req, char **out, struct lz_err *err)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL && !req)
		return 0;
	if (!json_is_string(v))
		return lz_err_set(err, LZ_EINVAL, "'%s' is %s", key,
		    v ? "not a string" : "missing");
	*out = lz_xstrdup(json_string_value(v));
	return 0;
}

static int
get_int(json_t *o, const char *key, int req, long long min, long long max,
    long long *out, struct lz_err *err)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (v == NULL && !req)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min ||
	    json_integer_value(v) > max)
		return lz_err_set(err, LZ_EINVAL, "'%s' is %s", key,
		    v ? "not an integer in range" : "missing");
	*out = json_integer_value(v);
	return 0;
}

int
lz_audit_decode(const char *line, size_t len, struct lz_audit_entry *e,
    struct lz_err *err)
{
	json_error_t je;
	json_t *o, *a, *v;
	char *s = NULL, *id = NULL;
	long long n;
	size_t i;
	int rc, k;

	memset(e, 0, sizeof *e);
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(o)) {
		json_decref(o);
		return lz_err_set(err, LZ_EINVAL, "not a JSON object (%s)",
		    je.text);
	}
	rc = get_int(o, "v", 1, 1, 1, &n, err);
	if (rc == 0)
		rc = get_str(o, "kind", 1, &s, err);
	if (rc == 0 && (k = word_in(s, kinds, NWORDS(kinds))) < 0)
		rc = lz_err_set(err, LZ_EINVAL, "unknown kind");
	if (rc == 0)
		e->kind = (enum lz_audit_kind)k;
	free(s);
	s = NULL;
	if (rc == 0)
		rc = get_int(o, "t", 1, 0, 1LL << 53, &e->t, err);
	if (rc == 0)
		rc = get_str(o, "id", 1, &id, err);
	if (rc == 0 && !lz_msg_hex_ok(id, 32))
		rc = lz_err_set(err, LZ_EINVAL, "'id' is not 32 hex digits");
	if (rc == 0)
		memcpy(e->id, id, 33);
	free(id);
	a = json_object_get(o, "argv");
	for (i = 0; rc == 0 && a != NULL && i < json_array_size(a) + 1; i++) {
		if (!json_is_array(a) || (i < json_array_size(a) &&
		    !json_is_string(json_array_get(a, i))))
			rc = lz_err_set(err, LZ_EINVAL, "'argv' is not an "
			    "array of strings");
		else if (i < json_array_size(a))
			lz_tokens_push(&e->argv, json_string_value(
			    json_array_get(a, i)));
	}
	if (rc == 0 && (v = json_object_get(o, "argv_sha256")) != NULL) {
		if (!json_is_string(v) || strlen(json_string_value(v)) != 64)
			rc = lz_err_set(err, LZ_EINVAL, "bad 'argv_sha256'");
		else
			memcpy(e->argv_sha256, json_string_value(v), 65);
	}
	e->cut = json_is_true(json_object_get(o, "cut"));
	switch (rc == 0 ? (int)e->kind : -1) {
	case LZ_AUDIT_REQUEST:
		rc = get_str(o, "session", 0, &e->session, err);
		if (rc == 0)
			rc = get_int(o, "pane", 0, 0, 1000000, &n, err);
		e->pane = (unsigned)n;
		if (rc == 0)
			rc = get_str(o, "profile", 0, &e->profile, err);
		if (rc == 0)
			rc = get_str(o, "command", 0, &e->command, err);
		if (rc == 0)
			rc = get_str(o, "cwd", 0, &e->cwd, err);
		if (rc == 0)
			rc = get_str(o, "host_cwd", 0, &e->host_cwd, err);
		if (rc == 0)
			rc = get_str(o, "why", 0, &e->why, err);
		break;
	case LZ_AUDIT_DECISION:
		rc = get_str(o, "by", 1, &s, err);
		if (rc == 0 && (k = word_in(s, bys, NWORDS(bys))) < 0)
			rc = lz_err_set(err, LZ_EINVAL, "unknown 'by'");
		else if (rc == 0)
			e->by = (enum lz_audit_by)k;
		free(s);
		if (rc == 0)
			rc = get_str(o, "decision", 1, &e->decision, err);
		if (rc == 0 && word_in(e->decision, decisions,
		    NWORDS(decisions)) < 0)
			rc = lz_err_set(err, LZ_EINVAL, "unknown 'decision'");
		if (rc == 0)
			rc = get_str(o, "client", 0, &e->client, err);
		if (rc == 0)
			rc = get_str(o, "rule", 0, &e->rule, err);
		if (rc == 0)
			rc = get_str(o, "message", 0, &e->message, err);
		e->edited = json_is_true(json_object_get(o, "edited"));
		break;
	case LZ_AUDIT_RESULT:
		rc = get_str(o, "outcome", 1, &e->outcome, err);
		if (rc == 0 && word_in(e->outcome, outcomes,
		    NWORDS(outcomes)) < 0)
			rc = lz_err_set(err, LZ_EINVAL, "unknown 'outcome'");
		e->ran = json_object_get(o, "status") != NULL;
		if (rc == 0)
			rc = get_int(o, "status", 0, 0, 255, &n, err);
		e->status = (int)n;
		if (rc == 0)
			rc = get_int(o, "signal", 0, 0, 64, &n, err);
		e->signal = (int)n;
		if (rc == 0)
			rc = get_int(o, "duration_ms", 0, 0, 1LL << 53,
			    &e->duration_ms, err);
		if (rc == 0)
			rc = get_int(o, "stdout_bytes", 0, 0, 1LL << 53, &n,
			    err);
		e->stdout_bytes = (unsigned long long)n;
		if (rc == 0)
			rc = get_int(o, "stderr_bytes", 0, 0, 1LL << 53, &n,
			    err);
		e->stderr_bytes = (unsigned long long)n;
		e->truncated = json_is_true(json_object_get(o, "truncated"));
		if (rc == 0)
			rc = get_str(o, "reason", 0, &e->reason, err);
		break;
	}
	json_decref(o);
	if (rc != 0)
		lz_audit_entry_release(e);
	return rc;
}

void
lz_audit_entry_release(struct lz_audit_entry *e)
{
	free(e->session);
	free(e->profile);
	free(e->command);
	lz_tokens_release(&e->argv);
	free(e->cwd);
	free(e->host_cwd);
	free(e->why);
	free(e->decision);
	free(e->client);
	free(e->rule);
	free(e->message);
	free(e->outcome);
	free(e->reason);
	memset(e, 0, sizeof *e);
}

/* "label: "QUOTED" "ARGS"" with each element escaped. */
static void
describe_argv(struct lz_buf *out, const char *label,
    const struct lz_audit_entry *e, int vis)
{
	size_t i;

	lz_buf_addf(out, "    %s:", label);
	for (i = 0; i < e->argv.n; i++) {
		lz_buf_addch(out, ' ');
		lz_visible_add(out, e->argv.v[i], strlen(e->argv.v[i]),
		    vis | LZ_VISIBLE_QUOTE);
	}
	if (e->cut)
		lz_buf_addf(out, "  (each cut to %d bytes; sha256 %s)",
		    LZ_AUDIT_ARG_CUT, e->argv_sha256);
	lz_buf_addch(out, '\n');
}

/* "    label: TEXT" escaped, when text is set. */
static void
describe_str(struct lz_buf *out, const char *label, const char *text,
    int flags)
{
	if (text == NULL)
		return;
	lz_buf_addf(out, "    %s: ", label);
	lz_visible_add(out, text, strlen(text), flags);
	lz_buf_addch(out, '\n');
}

void
lz_audit_describe(const struct lz_audit_entry *e, int vis,
    struct lz_buf *out)
{
	time_t sec = (time_t)(e->t / 1000);
	struct tm tm;
	char when[32];

	localtime_r(&sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	lz_buf_addf(out, "%s  %-8s %s", when, lz_audit_kind_name(e->kind),
	    e->id);
	switch (e->kind) {
	case LZ_AUDIT_REQUEST:
		lz_buf_adds(out, "  profile ");
		lz_visible_add(out, e->profile ? e->profile : "?",
		    e->profile ? strlen(e->profile) : 1, vis);
		lz_buf_adds(out, "  session ");
		lz_visible_add(out, e->session ? e->session : "?",
		    e->session ? strnlen(e->session, 12) : 1, vis);
		if (e->pane > 0)
			lz_buf_addf(out, " (pane %u)", e->pane);
		lz_buf_addch(out, '\n');
		describe_argv(out, "argv", e, vis);
		describe_str(out, "cwd", e->cwd, vis);
		describe_str(out, "runs in", e->host_cwd, vis);
		describe_str(out, "why (the agent's words)", e->why,
		    vis | LZ_VISIBLE_QUOTE);
		describe_str(out, "session command", e->command, vis);
		break;
	case LZ_AUDIT_DECISION:
		/* decision and outcome are words of a known list. */
		lz_buf_addf(out, "  %s by %s%s\n", e->decision,
		    lz_audit_by_name(e->by), e->edited ? " (edited)" : "");
		describe_str(out, "client", e->client, vis);
		describe_str(out, "rule", e->rule, vis);
		if (e->argv.n > 0)
			describe_argv(out, "runs", e, vis);
		describe_str(out, "message", e->message,
		    vis | LZ_VISIBLE_QUOTE);
		break;
	case LZ_AUDIT_RESULT:
		lz_buf_addf(out, "  %s", e->outcome);
		if (e->ran && e->signal > 0)
			lz_buf_addf(out, ", killed by signal %d", e->signal);
		else if (e->ran)
			lz_buf_addf(out, ", exit %d", e->status);
		lz_buf_addf(out, ", %lld ms, stdout %llu B, stderr %llu B%s\n",
		    e->duration_ms, e->stdout_bytes, e->stderr_bytes,
		    e->truncated ? " (output truncated)" : "");
		describe_str(out, "reason", e->reason, vis);
		break;
	}
}

int
lz_audit_open(struct lz_audit *a, const char *domain_root,
    struct lz_err *err)
{
	a->fd = -1;
	a->size = 0;
	a->dirfd = open(domain_root, O_PATH | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (a->dirfd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open the Domain Root "
		    "'%s' for the audit log: %s", domain_root,
		    strerror(errno));
	return 0;
}

void
lz_audit_close(struct lz_audit *a)
{
	if (a->fd >= 0)
		close(a->fd);
	if (a->dirfd >= 0)
		close(a->dirfd);
	a->fd = a->dirfd = -1;
}

int
lz_audit_append(struct lz_audit *a, const struct lz_audit_entry *e,
    struct lz_err *err)
{
	struct lz_audit_entry copy = *e;
	struct lz_buf line = LZ_BUF_INIT;
	struct timespec ts;
	struct stat st;
	int rc;

	if (copy.t == 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		copy.t = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	if ((rc = lz_audit_encode(&copy, &line, err)) != 0)
		goto out;
	lz_buf_addch(&line, '\n');
	if (a->fd >= 0 && a->size + (off_t)line.len > LZ_AUDIT_FILE_MAX) {
		/* Rotate: the current file becomes the previous one. */
		if (renameat(a->dirfd, LZ_AUDIT_FILE, a->dirfd,
		    LZ_AUDIT_OLD) != 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot rotate the audit "
			    "log: %s", strerror(errno));
			goto out;
		}
		close(a->fd);
		a->fd = -1;
	}
	if (a->fd < 0) {
		a->fd = lz_open_beneath(a->dirfd, LZ_AUDIT_FILE, O_WRONLY |
		    O_APPEND | O_CREAT | O_NONBLOCK, 0600);
		if (a->fd < 0 || fstat(a->fd, &st) != 0 ||
		    !S_ISREG(st.st_mode)) {
			rc = lz_err_set(err, LZ_ESYS, "cannot open the audit "
			    "log '%s': %s", LZ_AUDIT_FILE, a->fd < 0 ?
			    strerror(errno) : "not a regular file");
			if (a->fd >= 0)
				close(a->fd);
			a->fd = -1;
			goto out;
		}
		a->size = st.st_size;
	}
	if ((rc = lz_write_all(a->fd, line.buf, line.len)) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot write the audit log: %s",
		    strerror(-rc));
		goto out;
	}
	a->size += (off_t)line.len;
out:
	lz_buf_release(&line);
	return rc;
}

/* Walks one file of the log; *stop set when fn asked to stop. */
static int
read_file(int dirfd, const char *name,
    int (*fn)(const struct lz_audit_entry *, void *), void *ctx,
    struct lz_buf *warnings, int *stop, struct lz_err *err)
{
	struct lz_buf text = LZ_BUF_INIT;
	struct lz_audit_entry e;
	struct lz_err le = LZ_ERR_INIT;
	char chunk[65536], *p, *nl;
	unsigned lineno = 0;
	ssize_t n;
	int fd;

	fd = lz_open_beneath(dirfd, name, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot read the audit log "
		    "'%s': %s", name, strerror(errno));
	while ((n = read(fd, chunk, sizeof chunk)) > 0 ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			lz_buf_add(&text, chunk, (size_t)n);
	close(fd);
	for (p = text.buf; *stop == 0 && p < text.buf + text.len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text.buf + text.len - p));
		if (nl == NULL)
			nl = text.buf + text.len;
		lineno++;
		if (lz_audit_decode(p, (size_t)(nl - p), &e, &le) != 0) {
			lz_buf_addf(warnings, "%s:%u: %s\n", name, lineno,
			    le.msg);
			lz_err_release(&le);
			continue;
		}
		*stop = fn(&e, ctx);
		lz_audit_entry_release(&e);
	}
	lz_buf_release(&text);
	return 0;
}

int
lz_audit_read(const char *domain_root,
    int (*fn)(const struct lz_audit_entry *e, void *ctx), void *ctx,
    struct lz_buf *warnings, struct lz_err *err)
{
	int dirfd, rc, stop = 0;

	dirfd = open(domain_root, O_PATH | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dirfd < 0 && errno == ENOENT)
		return 0;
	if (dirfd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open the Domain Root "
		    "'%s': %s", domain_root, strerror(errno));
	rc = read_file(dirfd, LZ_AUDIT_OLD, fn, ctx, warnings, &stop, err);
	if (rc == 0 && !stop)
		rc = read_file(dirfd, LZ_AUDIT_FILE, fn, ctx, warnings, &stop,
		    err);
	close(dirfd);
	return rc;
}
