/*
 * msg.c: encoding and decoding the typed control messages (msg.h). The
 * decoders trust nothing: every field is checked for type, range, length
 * and alphabet before the struct is filled. The field helpers at the top
 * are the only code that reads a control frame's JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "protocol/jfield.h"
#include "protocol/msg.h"

static json_t *body(const struct lz_frame *f, enum lz_frame_type type,
    struct lz_err *err);
static void add(struct lz_buf *b, enum lz_frame_type type, json_t *j);

static const char profile_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-_";
static const char code_chars[] = "abcdefghijklmnopqrstuvwxyz-";

int
lz_msg_hex_ok(const char *s, size_t n)
{
	return s != NULL && strlen(s) == n && lz_jf_word(s, lz_jf_hex_chars, n);
}

/* 1 when s is 1..max bytes, all from alphabet. */

/* The JSON object of a frame of the given type. */
static json_t *
body(const struct lz_frame *f, enum lz_frame_type type, struct lz_err *err)
{
	if (f->type != type) {
		lz_err_set(err, LZ_EINVAL, "expected a %s frame, got %s",
		    lz_frame_type_name(type), lz_frame_type_name(f->type));
		return NULL;
	}
	return lz_frame_json(f, err);
}




/* A hex identifier of exactly n digits into out (n + 1 bytes). */


static void
add(struct lz_buf *b, enum lz_frame_type type, json_t *j)
{
	if (j == NULL)
		LZ_BUG("cannot build a %s frame", lz_frame_type_name(type));
	lz_frame_add_json(b, type, j);
	json_decref(j);
}

void
lz_msg_hello_add(struct lz_buf *b, const struct lz_msg_hello *m)
{
	add(b, LZ_FRAME_HELLO, json_pack("{s:i,s:s,s:s,s:s,s:s}", "version",
	    (int)m->version, "domain", m->domain, "profile", m->profile,
	    "fingerprint", m->fingerprint, "key", m->key));
}

int
lz_msg_hello_decode(const struct lz_frame *f, struct lz_msg_hello *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_HELLO, err);
	const char *p = NULL, *k = NULL;
	long long v = 0;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_int(o, "HELLO frame", "version", 1, 1, 255, &v, err);
	if (rc == 0)
		rc = lz_jf_hex(o, "HELLO frame", "domain", 1, LZ_MSG_DOMAIN_HEX,
		    m->domain, err);
	if (rc == 0)
		rc = lz_jf_str(o, "HELLO frame", "profile", 1, LZ_MSG_PROFILE_MAX,
		    &p, err);
	if (rc == 0 && !lz_jf_word(p, profile_chars, LZ_MSG_PROFILE_MAX))
		rc = lz_err_set(err, LZ_EINVAL, "bad HELLO frame: 'profile' "
		    "must be 1-%d of a-z 0-9 - _", LZ_MSG_PROFILE_MAX);
	if (rc == 0)
		rc = lz_jf_hex(o, "HELLO frame", "fingerprint", 1,
		    LZ_MSG_FINGERPRINT_HEX, m->fingerprint, err);
	if (rc == 0)
		rc = lz_jf_str(o, "HELLO frame", "key", 1, LZ_MSG_KEY_B64, &k, err);
	if (rc == 0 && (strlen(k) != LZ_MSG_KEY_B64 || strspn(k,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
	    ) != LZ_MSG_KEY_B64))
		rc = lz_err_set(err, LZ_EINVAL, "bad HELLO frame: 'key' must "
		    "be an Ed25519 public key in base64 (%d characters)",
		    LZ_MSG_KEY_B64);
	if (rc == 0) {
		m->version = (unsigned)v;
		memcpy(m->profile, p, strlen(p) + 1);
		memcpy(m->key, k, LZ_MSG_KEY_B64 + 1);
	}
	json_decref(o);
	return rc;
}

void
lz_msg_welcome_add(struct lz_buf *b, const struct lz_msg_welcome *m)
{
	add(b, LZ_FRAME_WELCOME, json_pack("{s:i,s:s,s:s,s:s}", "version",
	    (int)m->version, "coordinator", m->coordinator, "client",
	    m->client, "cert", m->cert ? m->cert : ""));
}

int
lz_msg_welcome_decode(const struct lz_frame *f, struct lz_msg_welcome *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_WELCOME, err);
	const char *c = NULL;
	long long v = 0;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_int(o, "WELCOME frame", "version", 1, 1, 255, &v, err);
	if (rc == 0)
		rc = lz_jf_hex(o, "WELCOME frame", "coordinator", 1,
		    LZ_MSG_COORD_HEX, m->coordinator, err);
	if (rc == 0)
		rc = lz_jf_hex(o, "WELCOME frame", "client", 1, LZ_MSG_CLIENT_HEX,
		    m->client, err);
	if (rc == 0)
		rc = lz_jf_str(o, "WELCOME frame", "cert", 1, LZ_MSG_CERT_MAX, &c,
		    err);
	m->version = (unsigned)v;
	if (rc == 0)
		m->cert = lz_xstrdup(c);
	json_decref(o);
	return rc;
}

void
lz_msg_welcome_release(struct lz_msg_welcome *m)
{
	free(m->cert);
	m->cert = NULL;
}

void
lz_msg_error_add(struct lz_buf *b, const char *code, const char *message)
{
	if (!lz_jf_word(code, code_chars, LZ_MSG_CODE_MAX))
		LZ_BUG("bad ERROR code '%s'", code);
	/* A message is text for a human: cut, never refused. */
	add(b, LZ_FRAME_ERROR, json_pack("{s:s,s:o}", "code", code,
	    "message", lz_jf_text(message, LZ_MSG_MESSAGE_MAX)));
}

int
lz_msg_error_decode(const struct lz_frame *f, struct lz_msg_error *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_ERROR, err);
	const char *c = NULL, *msg = NULL;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_str(o, "ERROR frame", "code", 1, LZ_MSG_CODE_MAX, &c, err);
	if (rc == 0 && !lz_jf_word(c, code_chars, LZ_MSG_CODE_MAX))
		rc = lz_err_set(err, LZ_EINVAL, "bad ERROR frame: 'code' must "
		    "be a word of a-z and '-'");
	if (rc == 0)
		rc = lz_jf_str(o, "ERROR frame", "message", 1, LZ_MSG_MESSAGE_MAX,
		    &msg, err);
	if (rc == 0) {
		memcpy(m->code, c, strlen(c) + 1);
		m->message = lz_xstrdup(msg);
	}
	json_decref(o);
	return rc;
}

void
lz_msg_error_release(struct lz_msg_error *m)
{
	free(m->message);
	m->message = NULL;
}

void
lz_msg_open_init(struct lz_msg_open *m)
{
	memset(m, 0, sizeof *m);
}




/* The host terminal's object (struct lz_msg_host), or nothing. */
static void
host_put(json_t *o, const struct lz_msg_host *h)
{
	json_t *v, *pal;
	char c[8];
	int i;

	if (!h->have)
		return;
	v = json_object();
#define HEX(x) (snprintf(c, sizeof c, "#%06x", (unsigned)((x) & 0xffffff)), \
	    json_string(c))
	json_object_set_new(v, "fg", HEX(h->fg));
	json_object_set_new(v, "bg", HEX(h->bg));
	json_object_set_new(v, "cursor", HEX(h->cursor));
	pal = json_array();
	for (i = 0; i < 16; i++)
		json_array_append_new(pal, HEX(h->palette[i]));
#undef HEX
	json_object_set_new(v, "palette", pal);
	json_object_set_new(v, "cell", json_pack("[ii]", (int)h->cell_w,
	    (int)h->cell_h));
	json_object_set_new(o, "host", v);
}

static int
host_colour(json_t *v, const char *frame, const char *what, uint32_t *out,
    struct lz_err *err)
{
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;

	if (s == NULL || strlen(s) != 7 || s[0] != '#' ||
	    !lz_jf_word(s + 1, "0123456789abcdef", 6))
		return lz_err_set(err, LZ_EINVAL, "bad %s frame: host %s must "
		    "be \"#rrggbb\" (lower-case hex)", frame, what);
	*out = (uint32_t)strtoul(s + 1, NULL, 16);
	return 0;
}

static int
host_get(json_t *o, const char *frame, struct lz_msg_host *h,
    struct lz_err *err)
{
	static const char *const keys[] = { "fg", "bg", "cursor", "palette",
	    "cell" };
	json_t *v = json_object_get(o, "host"), *pal, *cell;
	const char *k;
	size_t i, n = 0;
	int rc = 0;

	memset(h, 0, sizeof *h);
	if (v == NULL)
		return 0;
	if (!json_is_object(v))
		return lz_err_set(err, LZ_EINVAL, "bad %s frame: 'host' is not "
		    "an object", frame);
	json_object_foreach(v, k, pal) {
		for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (strcmp(k, keys[i]) == 0)
				break;
		if (i == sizeof keys / sizeof keys[0])
			return lz_err_set(err, LZ_EINVAL, "bad %s frame: "
			    "unknown host key '%.32s'", frame, k);
		n++;
	}
	pal = json_object_get(v, "palette");
	cell = json_object_get(v, "cell");
	if (n != 5 || !json_is_array(pal) || json_array_size(pal) != 16 ||
	    !json_is_array(cell) || json_array_size(cell) != 2)
		return lz_err_set(err, LZ_EINVAL, "bad %s frame: host needs fg, "
		    "bg, cursor, 16 palette colours and cell [w, h]", frame);
	rc = host_colour(json_object_get(v, "fg"), frame, "fg", &h->fg, err);
	if (rc == 0)
		rc = host_colour(json_object_get(v, "bg"), frame, "bg", &h->bg,
		    err);
	if (rc == 0)
		rc = host_colour(json_object_get(v, "cursor"), frame, "cursor",
		    &h->cursor, err);
	for (i = 0; rc == 0 && i < 16; i++)
		rc = host_colour(json_array_get(pal, i), frame, "palette",
		    &h->palette[i], err);
	for (i = 0; rc == 0 && i < 2; i++) {
		json_int_t x = json_is_integer(json_array_get(cell, i)) ?
		    json_integer_value(json_array_get(cell, i)) : 0;

		if (x < 1 || x > 1000)
			rc = lz_err_set(err, LZ_EINVAL, "bad %s frame: host "
			    "cell sides are 1..1000 pixels", frame);
		else if (i == 0)
			h->cell_w = (unsigned)x;
		else
			h->cell_h = (unsigned)x;
	}
	h->have = rc == 0;
	return rc;
}

void
lz_msg_host_add(struct lz_buf *b, const struct lz_msg_host *h)
{
	json_t *o = json_object();

	host_put(o, h);
	add(b, LZ_FRAME_HOST, o);
}

int
lz_msg_host_decode(const struct lz_frame *f, struct lz_msg_host *h,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_HOST, err);
	int rc;

	memset(h, 0, sizeof *h);
	if (o == NULL)
		return LZ_EINVAL;
	rc = host_get(o, "HOST", h, err);
	if (rc == 0 && (!h->have || json_object_size(o) != 1))
		rc = lz_err_set(err, LZ_EINVAL, "bad HOST frame: exactly one "
		    "key, 'host'");
	json_decref(o);
	return rc;
}

int
lz_msg_open_add(struct lz_buf *b, const struct lz_msg_open *m,
    struct lz_err *err)
{
	json_t *o = json_pack("{s:b}", "tty", m->tty), *v;
	int rc = LZ_EINVAL;

	if ((v = lz_jf_user(m->cwd ? m->cwd : "", LZ_MSG_PATH_MAX,
	    "the working directory", err)) == NULL)
		goto out;
	json_object_set_new(o, "cwd", v);
	if (lz_jf_put_argv(o, "argv", &m->argv, err) != 0 ||
	    lz_jf_put_env(o, "env", &m->env, err) != 0)
		goto out;
	if (m->rows > 0 && m->cols > 0) {
		json_object_set_new(o, "rows", json_integer(m->rows));
		json_object_set_new(o, "cols", json_integer(m->cols));
	}
	if (m->term[0] != '\0' && (v = json_string(m->term)) != NULL)
		json_object_set_new(o, "term", v);
	if (m->terminfo != NULL && (v = json_string(m->terminfo)) != NULL)
		json_object_set_new(o, "terminfo", v);
	host_put(o, &m->host);
	add(b, LZ_FRAME_OPEN, json_incref(o));
	rc = 0;
out:
	json_decref(o);
	return rc;
}



/* rows and cols: both or neither, each within the pane limits. */
static int
size_fields(json_t *o, const char *frame, unsigned *rows, unsigned *cols,
    struct lz_err *err)
{
	long long r = 0, c = 0;
	int rc;

	rc = lz_jf_int(o, frame, "rows", 0, 1, LZ_MSG_ROWS_MAX, &r, err);
	if (rc == 0)
		rc = lz_jf_int(o, frame, "cols", 0, 1, LZ_MSG_COLS_MAX, &c,
		    err);
	if (rc == 0 && (r == 0) != (c == 0))
		rc = lz_err_set(err, LZ_EINVAL, "bad %s frame: 'rows' and "
		    "'cols' go together", frame);
	*rows = (unsigned)r;
	*cols = (unsigned)c;
	return rc;
}

int
lz_msg_open_decode(const struct lz_frame *f, struct lz_msg_open *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_OPEN, err);
	const char *cwd = NULL, *term = NULL, *ti = NULL;
	int rc;

	lz_msg_open_init(m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_argv(o, "OPEN frame", "argv", 0, &m->argv, err);
	if (rc == 0)
		rc = lz_jf_str(o, "OPEN frame", "cwd", 0, LZ_MSG_PATH_MAX, &cwd, err);
	if (rc == 0)
		rc = lz_jf_bool(o, "OPEN frame", "tty", &m->tty, err);
	if (rc == 0)
		rc = size_fields(o, "OPEN", &m->rows, &m->cols, err);
	if (rc == 0)
		rc = lz_jf_str(o, "OPEN frame", "term", 0, LZ_MSG_TERM_MAX, &term,
		    err);
	if (rc == 0 && term != NULL && *term != '\0' && (strchr(term, '/') ||
	    !lz_jf_word(term, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
	    "VWXYZ0123456789-_.+", LZ_MSG_TERM_MAX)))
		rc = lz_err_set(err, LZ_EINVAL, "bad OPEN frame: 'term' must "
		    "be letters, digits and - _ . +");
	if (rc == 0)
		rc = lz_jf_str(o, "OPEN frame", "terminfo", 0, LZ_MSG_PATH_MAX, &ti,
		    err);
	if (rc == 0)
		rc = lz_jf_env(o, "OPEN frame", "env", &m->env, err);
	if (rc == 0)
		rc = host_get(o, "OPEN", &m->host, err);
	if (rc == 0) {
		m->cwd = lz_xstrdup(cwd ? cwd : "");
		if (term != NULL)
			memcpy(m->term, term, strlen(term) + 1);
		m->terminfo = ti ? lz_xstrdup(ti) : NULL;
	} else
		lz_msg_open_release(m);
	json_decref(o);
	return rc;
}

void
lz_msg_open_release(struct lz_msg_open *m)
{
	lz_tokens_release(&m->argv);
	lz_tokens_release(&m->env);
	free(m->cwd);
	free(m->terminfo);
	lz_msg_open_init(m);
}

void
lz_msg_opened_add(struct lz_buf *b, const struct lz_msg_opened *m)
{
	add(b, LZ_FRAME_OPENED, json_pack("{s:s}", "session", m->session));
}

int
lz_msg_opened_decode(const struct lz_frame *f, struct lz_msg_opened *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_OPENED, err);
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "OPENED frame", "session", 1, LZ_MSG_SESSION_HEX,
	    m->session, err);
	json_decref(o);
	return rc;
}

void
lz_msg_exit_add(struct lz_buf *b, const struct lz_msg_exit *m)
{
	json_t *o = json_pack("{s:i,s:i}", "status", (int)m->status,
	    "signal", (int)m->signal);

	if (m->reason != NULL)
		json_object_set_new(o, "reason", lz_jf_text(m->reason,
		    LZ_MSG_MESSAGE_MAX));
	add(b, LZ_FRAME_EXIT, o);
}

int
lz_msg_exit_decode(const struct lz_frame *f, struct lz_msg_exit *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_EXIT, err);
	const char *r = NULL;
	long long st = 0, sig = 0;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_int(o, "EXIT frame", "status", 1, 0, 255, &st, err);
	if (rc == 0)
		rc = lz_jf_int(o, "EXIT frame", "signal", 1, 0, 64, &sig, err);
	if (rc == 0)
		rc = lz_jf_str(o, "EXIT frame", "reason", 0, LZ_MSG_MESSAGE_MAX, &r,
		    err);
	if (rc == 0) {
		m->status = (unsigned)st;
		m->signal = (unsigned)sig;
		m->reason = r ? lz_xstrdup(r) : NULL;
	}
	json_decref(o);
	return rc;
}

void
lz_msg_exit_release(struct lz_msg_exit *m)
{
	free(m->reason);
	m->reason = NULL;
}

void
lz_msg_attach_add(struct lz_buf *b, const struct lz_msg_attach *m)
{
	json_t *o = json_pack("{s:s,s:b,s:I}", "session", m->session,
	    "takeover", m->takeover, "history", (json_int_t)m->history);

	if (m->rows > 0 && m->cols > 0) {
		json_object_set_new(o, "rows", json_integer(m->rows));
		json_object_set_new(o, "cols", json_integer(m->cols));
	}
	host_put(o, &m->host);
	add(b, LZ_FRAME_ATTACH, o);
}

int
lz_msg_attach_decode(const struct lz_frame *f, struct lz_msg_attach *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_ATTACH, err);
	long long h = 0;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "ATTACH frame", "session", 1, LZ_MSG_SESSION_HEX,
	    m->session, err);
	if (rc == 0)
		rc = size_fields(o, "ATTACH", &m->rows, &m->cols, err);
	if (rc == 0)
		rc = lz_jf_bool(o, "ATTACH frame", "takeover", &m->takeover, err);
	if (rc == 0)
		rc = lz_jf_int(o, "ATTACH frame", "history", 0, 0,
		    LZ_MSG_HISTORY_MAX, &h, err);
	if (rc == 0)
		rc = host_get(o, "ATTACH", &m->host, err);
	m->history = (unsigned long)h;
	json_decref(o);
	return rc;
}

/*
 * The entries take at most LZ_MSG_SESSIONS_BUDGET bytes of the frame
 * (counted as lz_frame_add_json writes them); the rest of the frame is
 * for the object around them, "omitted" and the history note.
 */
#define LZ_MSG_SESSIONS_BUDGET (LZ_FRAME_MAX - 16 * 1024)

void
lz_msg_sessions_add(struct lz_buf *b, const struct lz_msg_sessions *m)
{
	json_t *a = json_array(), *e;
	size_t i, used = 0, n, omitted = 0;
	char *s;

	for (i = 0; i < m->n; i++) {
		e = json_pack("{s:s,s:o,s:o,s:b,s:s,s:I,s:i}", "session",
		    m->v[i].session, "command", lz_jf_text(m->v[i].command,
		    LZ_MSG_COMMAND_MAX), "cwd", lz_jf_text(m->v[i].cwd,
		    LZ_MSG_PATH_MAX), "tty", m->v[i].tty, "state",
		    m->v[i].running ? "running" : "exited", "started",
		    (json_int_t)m->v[i].started, "pending",
		    (int)m->v[i].pending);
		if (e == NULL)
			LZ_BUG("cannot build a SESSIONS entry");
		if (m->v[i].client[0] != '\0')
			json_object_set_new(e, "client",
			    json_string(m->v[i].client));
		s = json_dumps(e, JSON_COMPACT | JSON_ENSURE_ASCII);
		n = s != NULL ? strlen(s) + 1 : SIZE_MAX;
		free(s);
		if (a == NULL || json_array_size(a) == LZ_MSG_SESSIONS_MAX ||
		    n > LZ_MSG_SESSIONS_BUDGET - used) {
			omitted++;
			json_decref(e);
			continue;
		}
		used += n;
		json_array_append_new(a, e);
	}
	e = json_pack("{s:o}", "sessions", a);
	if (omitted > 0)
		json_object_set_new(e, "omitted", json_integer((json_int_t)
		    omitted));
	if (m->history != NULL)
		json_object_set_new(e, "history", lz_jf_text(m->history,
		    LZ_MSG_HISTORY_NOTE_MAX));
	add(b, LZ_FRAME_SESSIONS, e);
}

static int
session_entry(json_t *e, size_t i, struct lz_msg_session *s,
    struct lz_err *err)
{
	const char *cmd = NULL, *cwd = NULL, *st = NULL;
	long long started = 0, pending = 0;
	int rc;

	memset(s, 0, sizeof *s);
	if (!json_is_object(e))
		return lz_err_set(err, LZ_EINVAL, "bad SESSIONS frame: entry "
		    "%zu is not an object", i);
	rc = lz_jf_hex(e, "SESSIONS frame", "session", 1, LZ_MSG_SESSION_HEX,
	    s->session, err);
	if (rc == 0)
		rc = lz_jf_str(e, "SESSIONS frame", "command", 1, LZ_MSG_COMMAND_MAX,
		    &cmd, err);
	if (rc == 0)
		rc = lz_jf_str(e, "SESSIONS frame", "cwd", 1, LZ_MSG_PATH_MAX, &cwd,
		    err);
	if (rc == 0)
		rc = lz_jf_bool(e, "SESSIONS frame", "tty", &s->tty, err);
	if (rc == 0)
		rc = lz_jf_str(e, "SESSIONS frame", "state", 1, 16, &st, err);
	if (rc == 0 && strcmp(st, "running") != 0 && strcmp(st, "exited"))
		rc = lz_err_set(err, LZ_EINVAL, "bad SESSIONS frame: 'state' "
		    "must be running or exited");
	if (rc == 0)
		rc = lz_jf_int(e, "SESSIONS frame", "started", 1, 0, INT64_MAX / 2,
		    &started, err);
	if (rc == 0)
		rc = lz_jf_hex(e, "SESSIONS frame", "client", 0, LZ_MSG_CLIENT_HEX,
		    s->client, err);
	if (rc == 0)
		rc = lz_jf_int(e, "SESSIONS frame", "pending", 0, 0, 1 << 20,
		    &pending, err);
	if (rc == 0) {
		s->pending = (unsigned)pending;
		s->command = lz_xstrdup(cmd);
		s->cwd = lz_xstrdup(cwd);
		s->running = strcmp(st, "running") == 0;
		s->started = started;
	}
	return rc;
}

int
lz_msg_sessions_decode(const struct lz_frame *f, struct lz_msg_sessions *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_SESSIONS, err), *a, *e;
	const char *note = NULL;
	struct lz_msg_session s;
	long long omitted = 0;
	size_t i;
	int rc = 0;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	a = json_object_get(o, "sessions");
	if (!json_is_array(a) || json_array_size(a) > LZ_MSG_SESSIONS_MAX)
		rc = lz_err_set(err, LZ_EINVAL, "bad SESSIONS frame: "
		    "'sessions' must be an array of at most %d entries",
		    LZ_MSG_SESSIONS_MAX);
	for (i = 0; rc == 0 && i < json_array_size(a); i++) {
		e = json_array_get(a, i);
		if ((rc = session_entry(e, i, &s, err)) != 0)
			break;
		m->v = lz_xgrow(m->v, m->n + 1, &m->alloc, sizeof *m->v);
		m->v[m->n++] = s;
	}
	if (rc == 0)
		rc = lz_jf_int(o, "SESSIONS frame", "omitted", 0, 0,
		    LZ_MSG_SESSIONS_OMITTED_MAX, &omitted, err);
	if (rc == 0)
		m->omitted = (size_t)omitted;
	if (rc == 0)
		rc = lz_jf_str(o, "SESSIONS frame", "history", 0,
		    LZ_MSG_HISTORY_NOTE_MAX, &note, err);
	if (rc == 0 && note != NULL)
		m->history = lz_xstrdup(note);
	if (rc != 0)
		lz_msg_sessions_release(m);
	json_decref(o);
	return rc;
}

void
lz_msg_sessions_push(struct lz_msg_sessions *m,
    const struct lz_msg_session *e)
{
	m->v = lz_xgrow(m->v, m->n + 1, &m->alloc, sizeof *m->v);
	m->v[m->n] = *e;
	m->v[m->n].command = lz_xstrdup(e->command);
	m->v[m->n].cwd = lz_xstrdup(e->cwd);
	m->n++;
}

void
lz_msg_sessions_release(struct lz_msg_sessions *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].command);
		free(m->v[i].cwd);
	}
	free(m->v);
	free(m->history);
	m->v = NULL;
	m->n = 0;
	m->history = NULL;
}

void
lz_msg_ack_add(struct lz_buf *b, uint32_t bytes)
{
	unsigned char p[4];

	p[0] = (unsigned char)(bytes >> 24);
	p[1] = (unsigned char)(bytes >> 16);
	p[2] = (unsigned char)(bytes >> 8);
	p[3] = (unsigned char)bytes;
	lz_frame_add(b, LZ_FRAME_ACK, p, sizeof p);
}

int
lz_msg_ack_decode(const struct lz_frame *f, uint32_t *bytes,
    struct lz_err *err)
{
	if (f->type != LZ_FRAME_ACK || f->len != 4)
		return lz_err_set(err, LZ_EINVAL, "bad ACK frame");
	*bytes = (uint32_t)f->payload[0] << 24 | (uint32_t)f->payload[1] << 16 |
	    (uint32_t)f->payload[2] << 8 | f->payload[3];
	return 0;
}

static const char *const decisions[] = {
	[LZ_DECISION_APPROVE] = "approve",
	[LZ_DECISION_APPROVE_SESSION] = "approve-session",
	[LZ_DECISION_SAVE_RULE] = "save-rule",
	[LZ_DECISION_DENY] = "deny",
	[LZ_DECISION_EDIT] = "edit",
};

const char *
lz_decision_name(enum lz_decision d)
{
	return (unsigned)d < sizeof decisions / sizeof decisions[0] ?
	    decisions[d] : "?";
}

void
lz_msg_prompt_add(struct lz_buf *b, const struct lz_msg_prompt *m)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:I,s:i}", "id", m->id,
	    "session", m->session, "profile", m->profile, "command",
	    lz_jf_text(m->command ? m->command : "", LZ_MSG_COMMAND_MAX), "cwd",
	    lz_jf_text(m->cwd ? m->cwd : "", LZ_MSG_PATH_MAX), "why",
	    lz_jf_text(m->why ? m->why : "", LZ_MSG_WHY_MAX), "timeout_ms",
	    (json_int_t)m->timeout_ms, "pending", (int)m->pending);
	json_t *a = json_array();
	size_t i;

	/* The coordinator checked the record: every element is UTF-8. */
	for (i = 0; i < m->argv.n; i++)
		json_array_append_new(a, lz_jf_text(m->argv.v[i], LZ_MSG_ARG_MAX));
	json_object_set_new(o, "argv", a);
	add(b, LZ_FRAME_PROMPT, o);
}

int
lz_msg_prompt_decode(const struct lz_frame *f, struct lz_msg_prompt *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_PROMPT, err);
	const char *p = NULL, *cmd = NULL, *cwd = NULL, *why = NULL;
	long long t = 0, pend = 0;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "PROMPT frame", "id", 1, LZ_MSG_REQUEST_HEX, m->id, err);
	if (rc == 0)
		rc = lz_jf_hex(o, "PROMPT frame", "session", 1, LZ_MSG_SESSION_HEX,
		    m->session, err);
	if (rc == 0)
		rc = lz_jf_str(o, "PROMPT frame", "profile", 1, LZ_MSG_PROFILE_MAX,
		    &p, err);
	if (rc == 0 && !lz_jf_word(p, profile_chars, LZ_MSG_PROFILE_MAX))
		rc = lz_err_set(err, LZ_EINVAL, "bad PROMPT frame: 'profile'");
	if (rc == 0)
		rc = lz_jf_argv(o, "PROMPT frame", "argv", 1, &m->argv, err);
	if (rc == 0 && m->argv.n == 0)
		rc = lz_err_set(err, LZ_EINVAL, "bad PROMPT frame: 'argv' is "
		    "empty");
	if (rc == 0)
		rc = lz_jf_str(o, "PROMPT frame", "command", 1, LZ_MSG_COMMAND_MAX,
		    &cmd, err);
	if (rc == 0)
		rc = lz_jf_str(o, "PROMPT frame", "cwd", 1, LZ_MSG_PATH_MAX, &cwd,
		    err);
	if (rc == 0)
		rc = lz_jf_str(o, "PROMPT frame", "why", 1, LZ_MSG_WHY_MAX, &why,
		    err);
	if (rc == 0)
		rc = lz_jf_int(o, "PROMPT frame", "timeout_ms", 1, 0, 86400000LL,
		    &t, err);
	if (rc == 0)
		rc = lz_jf_int(o, "PROMPT frame", "pending", 0, 0, 100000, &pend,
		    err);
	if (rc == 0) {
		memcpy(m->profile, p, strlen(p) + 1);
		m->command = lz_xstrdup(cmd);
		m->cwd = lz_xstrdup(cwd);
		m->why = lz_xstrdup(why);
		m->timeout_ms = (unsigned long)t;
		m->pending = (unsigned)pend;
	} else
		lz_msg_prompt_release(m);
	json_decref(o);
	return rc;
}

void
lz_msg_prompt_release(struct lz_msg_prompt *m)
{
	lz_tokens_release(&m->argv);
	free(m->command);
	free(m->cwd);
	free(m->why);
	m->command = m->cwd = m->why = NULL;
}

int
lz_msg_decision_add(struct lz_buf *b, const struct lz_msg_decision *m,
    struct lz_err *err)
{
	json_t *o = json_pack("{s:s,s:s}", "id", m->id, "decision",
	    lz_decision_name(m->decision)), *v;
	int rc = LZ_EINVAL;

	if (m->decision == LZ_DECISION_EDIT &&
	    lz_jf_put_argv(o, "argv", &m->argv, err) != 0)
		goto out;
	if (m->decision == LZ_DECISION_DENY && m->message != NULL) {
		if ((v = lz_jf_user(m->message, LZ_MSG_DENY_MAX, "the "
		    "message", err)) == NULL)
			goto out;
		json_object_set_new(o, "message", v);
	}
	if (m->decision != LZ_DECISION_DENY &&
	    lz_jf_put_env(o, "env", &m->env, err) != 0)
		goto out;
	json_object_set_new(o, "sig", json_string(m->sig));
	add(b, LZ_FRAME_DECISION, json_incref(o));
	rc = 0;
out:
	json_decref(o);
	return rc;
}

int
lz_msg_decision_decode(const struct lz_frame *f, struct lz_msg_decision *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_DECISION, err);
	const char *d = NULL, *msg = NULL, *sig = NULL;
	size_t i;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "DECISION frame", "id", 1, LZ_MSG_REQUEST_HEX, m->id,
	    err);
	if (rc == 0)
		rc = lz_jf_str(o, "DECISION frame", "decision", 1, 32, &d, err);
	for (i = 0; rc == 0 && i < sizeof decisions / sizeof decisions[0];
	    i++)
		if (strcmp(d, decisions[i]) == 0)
			break;
	if (rc == 0 && i == sizeof decisions / sizeof decisions[0])
		rc = lz_err_set(err, LZ_EINVAL, "bad DECISION frame: "
		    "'decision' must be approve, approve-session, save-rule, "
		    "deny or edit");
	m->decision = (enum lz_decision)i;
	if (rc == 0)
		rc = lz_jf_argv(o, "DECISION frame", "argv", m->decision ==
		    LZ_DECISION_EDIT, &m->argv, err);
	if (rc == 0 && m->decision == LZ_DECISION_EDIT && m->argv.n == 0)
		rc = lz_err_set(err, LZ_EINVAL, "bad DECISION frame: an "
		    "edited 'argv' is empty");
	if (rc == 0)
		rc = lz_jf_str(o, "DECISION frame", "message", 0, LZ_MSG_DENY_MAX,
		    &msg, err);
	if (rc == 0)
		rc = lz_jf_env(o, "DECISION frame", "env", &m->env, err);
	if (rc == 0)
		rc = lz_jf_str(o, "DECISION frame", "sig", 1, 88, &sig, err);
	if (rc == 0 && (strlen(sig) != 88 || strspn(sig, "ABCDEFGHIJKLMNOPQR"
	    "STUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != 88))
		rc = lz_err_set(err, LZ_EINVAL, "bad DECISION frame: 'sig' "
		    "must be an Ed25519 signature in base64");
	if (rc == 0) {
		m->message = msg ? lz_xstrdup(msg) : NULL;
		memcpy(m->sig, sig, 89);
	}
	else
		lz_msg_decision_release(m);
	json_decref(o);
	return rc;
}

/* Appends s with a 4-byte big-endian length before it. */
static void
prefixed(struct lz_buf *b, const char *s)
{
	size_t n = strlen(s);
	unsigned char l[4] = { (unsigned char)(n >> 24),
	    (unsigned char)(n >> 16), (unsigned char)(n >> 8),
	    (unsigned char)n };

	lz_buf_add(b, l, 4);
	lz_buf_add(b, s, n);
}

void
lz_msg_decision_signed(const struct lz_msg_decision *m, const char *domain,
    const char *coordinator, const char *client, const char *session,
    const struct lz_tokens *argv, struct lz_buf *out)
{
	char n[16];
	size_t i;

	lz_buf_reset(out);
	prefixed(out, "lazaret-decision-v1");
	prefixed(out, domain);
	prefixed(out, coordinator);
	prefixed(out, client);
	prefixed(out, session);
	prefixed(out, m->id);
	prefixed(out, lz_decision_name(m->decision));
	snprintf(n, sizeof n, "%zu", argv->n);
	prefixed(out, n);
	for (i = 0; i < argv->n; i++)
		prefixed(out, argv->v[i]);
	prefixed(out, m->message ? m->message : "");
	snprintf(n, sizeof n, "%zu", m->env.n);
	prefixed(out, n);
	for (i = 0; i < m->env.n; i++)
		prefixed(out, m->env.v[i]);
}

void
lz_msg_decision_release(struct lz_msg_decision *m)
{
	lz_tokens_release(&m->argv);
	lz_tokens_release(&m->env);
	free(m->message);
	m->message = NULL;
}

void
lz_msg_withdrawn_add(struct lz_buf *b, const struct lz_msg_withdrawn *m)
{
	add(b, LZ_FRAME_WITHDRAWN, json_pack("{s:s,s:s}", "id", m->id, "why",
	    m->why));
}

int
lz_msg_withdrawn_decode(const struct lz_frame *f, struct lz_msg_withdrawn *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_WITHDRAWN, err);
	const char *w = NULL;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "WITHDRAWN frame", "id", 1, LZ_MSG_REQUEST_HEX, m->id,
	    err);
	if (rc == 0)
		rc = lz_jf_str(o, "WITHDRAWN frame", "why", 1, sizeof m->why - 1, &w,
		    err);
	if (rc == 0 && !lz_jf_word(w, code_chars, sizeof m->why - 1))
		rc = lz_err_set(err, LZ_EINVAL, "bad WITHDRAWN frame: 'why'");
	if (rc == 0)
		memcpy(m->why, w, strlen(w) + 1);
	json_decref(o);
	return rc;
}

void
lz_msg_trusted_add(struct lz_buf *b, const struct lz_msg_trusted *m)
{
	json_t *a = json_array(), *e;
	size_t i;

	for (i = 0; i < m->n; i++) {
		e = json_pack("{s:s,s:s}", "role", m->v[i].role, "component",
		    m->v[i].component);
		if (m->v[i].fingerprint[0] != '\0') {
			json_object_set_new(e, "serial",
			    json_string(m->v[i].serial));
			json_object_set_new(e, "not_after",
			    json_integer(m->v[i].not_after));
			json_object_set_new(e, "fingerprint",
			    json_string(m->v[i].fingerprint));
		}
		json_array_append_new(a, e);
	}
	add(b, LZ_FRAME_TRUSTED, json_pack("{s:s,s:o}", "anchor", m->anchor,
	    "identities", a));
}

static int
identity_entry(json_t *e, struct lz_msg_identity *id, struct lz_err *err)
{
	static const char *const roles = "coordinator client sidecar sandbox";
	const char *r = NULL, *c = NULL;
	long long na = 0;
	int rc;

	memset(id, 0, sizeof *id);
	if (!json_is_object(e))
		return lz_err_set(err, LZ_EINVAL, "bad TRUSTED frame: an "
		    "identity is not an object");
	rc = lz_jf_str(e, "TRUSTED frame", "role", 1, sizeof id->role - 1, &r, err);
	if (rc == 0 && (!lz_jf_word(r, code_chars, sizeof id->role - 1) ||
	    strstr(roles, r) == NULL))
		rc = lz_err_set(err, LZ_EINVAL, "bad TRUSTED frame: 'role'");
	if (rc == 0)
		rc = lz_jf_str(e, "TRUSTED frame", "component", 1,
		    sizeof id->component - 1, &c, err);
	if (rc == 0 && !lz_jf_word(c, "abcdefghijklmnopqrstuvwxyz0123456789-",
	    sizeof id->component - 1))
		rc = lz_err_set(err, LZ_EINVAL, "bad TRUSTED frame: "
		    "'component'");
	if (rc == 0 && json_object_get(e, "fingerprint") != NULL) {
		rc = lz_jf_hex(e, "TRUSTED frame", "fingerprint", 1, 64,
		    id->fingerprint, err);
		if (rc == 0)
			rc = lz_jf_int(e, "TRUSTED frame", "not_after", 1, 0,
			    INT64_MAX / 2, &na, err);
		if (rc == 0) {
			const char *s = NULL;

			rc = lz_jf_str(e, "TRUSTED frame", "serial", 1, 32, &s, err);
			if (rc == 0 && !lz_jf_word(s, lz_jf_hex_chars, 32))
				rc = lz_err_set(err, LZ_EINVAL, "bad TRUSTED "
				    "frame: 'serial'");
			if (rc == 0)
				memcpy(id->serial, s, strlen(s) + 1);
		}
	}
	if (rc == 0) {
		memcpy(id->role, r, strlen(r) + 1);
		memcpy(id->component, c, strlen(c) + 1);
		id->not_after = na;
	}
	return rc;
}

int
lz_msg_trusted_decode(const struct lz_frame *f, struct lz_msg_trusted *m,
    struct lz_err *err)
{
	json_t *o = body(f, LZ_FRAME_TRUSTED, err), *a;
	struct lz_msg_identity id;
	size_t i;
	int rc;

	memset(m, 0, sizeof *m);
	if (o == NULL)
		return LZ_EINVAL;
	rc = lz_jf_hex(o, "TRUSTED frame", "anchor", 1, 64, m->anchor, err);
	a = json_object_get(o, "identities");
	if (rc == 0 && (!json_is_array(a) || json_array_size(a) >
	    LZ_MSG_SESSIONS_MAX * 2))
		rc = lz_err_set(err, LZ_EINVAL, "bad TRUSTED frame: "
		    "'identities' must be an array");
	for (i = 0; rc == 0 && i < json_array_size(a); i++) {
		if ((rc = identity_entry(json_array_get(a, i), &id, err)) != 0)
			break;
		m->v = lz_xgrow(m->v, m->n + 1, &m->alloc, sizeof *m->v);
		m->v[m->n++] = id;
	}
	if (rc != 0)
		lz_msg_trusted_release(m);
	json_decref(o);
	return rc;
}

void
lz_msg_trusted_release(struct lz_msg_trusted *m)
{
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
