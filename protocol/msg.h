/*
 * msg.h: the typed control messages of the control socket (protocol/
 * wire.md section 1.3). Each JSON frame body has a struct, one encoder
 * that appends the whole frame to a buffer, and one decoder that checks
 * every field: types, ranges (rows and cols against the pane limits),
 * identifiers by length and alphabet, strings by byte limits. Nothing
 * outside this file reads or writes a JSON key of a control frame.
 *
 * Decoders take a decoded frame (frame.h) of the right type and fill the
 * struct, which the caller releases with the matching _release (also
 * after a failed decode). They fail with LZ_EINVAL and a message naming
 * the frame and the field: wrong type, missing required key, number out
 * of range, string too long or not the right alphabet, invalid UTF-8 or
 * duplicate keys (jansson refuses both). Unknown keys are ignored
 * (forward compatibility within a version).
 */
#ifndef LZ_MSG_H
#define LZ_MSG_H

#include <stdint.h>

#include "core/util.h"
#include "protocol/frame.h"

/* Identifiers: lower-case hex of these many characters. */
#define LZ_MSG_DOMAIN_HEX 16
#define LZ_MSG_COORD_HEX 16
#define LZ_MSG_CLIENT_HEX 16
#define LZ_MSG_SESSION_HEX 32
#define LZ_MSG_FINGERPRINT_HEX 64
#define LZ_MSG_PROFILE_MAX 32		/* a-z 0-9 - _ */

/* Limits of OPEN (and what SESSIONS reports of a session). */
#define LZ_MSG_ARGV_MAX 256		/* elements */
#define LZ_MSG_ARG_MAX 4096		/* bytes of one element */
#define LZ_MSG_PATH_MAX 4096		/* cwd, terminfo */
#define LZ_MSG_TERM_MAX 64		/* TERM: printable ASCII, no '/' */
#define LZ_MSG_ENV_MAX 64		/* variables */
#define LZ_MSG_ENV_NAME_MAX 128
#define LZ_MSG_ENV_VALUE_MAX 32768
#define LZ_MSG_ROWS_MAX 1000		/* = LZ_PANE_MAX_ROWS */
#define LZ_MSG_COLS_MAX 1000		/* = LZ_PANE_MAX_COLS */
#define LZ_MSG_HISTORY_MAX 1000000	/* = LZ_PANE_SB_MAX_LINES */
#define LZ_MSG_CODE_MAX 32		/* ERROR code: a-z and '-' */
#define LZ_MSG_MESSAGE_MAX 4096
#define LZ_MSG_COMMAND_MAX 65536	/* SESSIONS: a session's command */
#define LZ_MSG_SESSIONS_MAX 4096

#define LZ_MSG_KEY_B64 44			/* an Ed25519 public key */
#define LZ_MSG_CERT_MAX 8192		/* a certificate in PEM */

/*
 * HELLO (c->s): must be the first frame. key: the client's Ed25519 public
 * key (base64 of its 32 bytes), made by the client for this connection.
 */
struct lz_msg_hello {
	unsigned version;
	char domain[LZ_MSG_DOMAIN_HEX + 1];
	char profile[LZ_MSG_PROFILE_MAX + 1];
	char fingerprint[LZ_MSG_FINGERPRINT_HEX + 1];
	char key[LZ_MSG_KEY_B64 + 1];
};

/*
 * WELCOME (s->c). cert: the Client CLI's certificate (PEM) for the new
 * Client CLI ID, issued by the coordinator's Trust Anchor for key.
 */
struct lz_msg_welcome {
	unsigned version;
	char coordinator[LZ_MSG_COORD_HEX + 1];
	char client[LZ_MSG_CLIENT_HEX + 1];
	char *cert;
};

/* ERROR (s->c). message is allocated. */
struct lz_msg_error {
	char code[LZ_MSG_CODE_MAX + 1];
	char *message;
};

/* OPEN (c->s). env holds "NAME=value" strings. */
/*
 * The client's host terminal, for the pane's answers to a program's
 * queries (OSC 10/11/12/4, CSI 14/16 t): colours 0xRRGGBB and the cell's
 * size in pixels. have is 0 when the client sent none (the pane keeps
 * what it has). On the wire: {"fg": "#rrggbb", "bg", "cursor", "palette":
 * [16 of them], "cell": [w, h]} (each cell side 1..1000).
 */
struct lz_msg_host {
	int have;
	uint32_t fg, bg, cursor;
	uint32_t palette[16];
	unsigned cell_w, cell_h;
};

/* HOST (c->s): {"host": {...}}, the client's host terminal, once it is
 * known (after OPEN or ATTACH went with the defaults). */
void lz_msg_host_add(struct lz_buf *b, const struct lz_msg_host *h);
int lz_msg_host_decode(const struct lz_frame *f, struct lz_msg_host *h,
    struct lz_err *err);

struct lz_msg_open {
	struct lz_tokens argv;		/* empty: the profile's command */
	char *cwd;			/* relative to the workspace; "" top */
	int tty;
	unsigned rows, cols;		/* 0 when absent */
	char term[LZ_MSG_TERM_MAX + 1];	/* "" when absent */
	char *terminfo;			/* NULL when absent */
	struct lz_tokens env;
	struct lz_msg_host host;
};

/* OPENED (s->c). */
struct lz_msg_opened {
	char session[LZ_MSG_SESSION_HEX + 1];
};

/* EXIT (s->c). reason is allocated, NULL when absent. */
struct lz_msg_exit {
	unsigned status;		/* 0..255 */
	unsigned signal;		/* 0..64 */
	char *reason;			/* why Lazaret ended it, if it did */
};

/* ATTACH (c->s). */
struct lz_msg_attach {
	char session[LZ_MSG_SESSION_HEX + 1];
	unsigned rows, cols;		/* 0 when absent */
	int takeover;
	unsigned long history;		/* lines of scrollback wanted */
	struct lz_msg_host host;	/* this client's replaces the last */
};

/* One entry of SESSIONS (s->c). */
struct lz_msg_session {
	char session[LZ_MSG_SESSION_HEX + 1];
	char *command;
	char *cwd;
	int tty;
	int running;			/* "running", else "exited" */
	long long started;		/* Unix seconds */
	char client[LZ_MSG_CLIENT_HEX + 1];	/* "" when detached */
	unsigned pending;		/* escalation requests waiting */
};

/*
 * SESSIONS (s->c). history: the Git history guard's latest detection
 * (core/history.h), human text of at most LZ_MSG_HISTORY_NOTE_MAX bytes,
 * or NULL when it saw none: the TUI's status line says "history
 * changed".
 */
#define LZ_MSG_HISTORY_NOTE_MAX 512
/*
 * The coordinator lists what fits in one frame (each command and cwd
 * cut at LZ_MSG_COMMAND_MAX and LZ_MSG_PATH_MAX, at most
 * LZ_MSG_SESSIONS_MAX entries) and counts the rest in omitted.
 */
#define LZ_MSG_SESSIONS_OMITTED_MAX (1 << 30)
struct lz_msg_sessions {
	struct lz_msg_session *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
	size_t omitted;			/* sessions not listed */
	char *history;
};
#define LZ_MSG_SESSIONS_INIT { NULL, 0, 0, 0, NULL }

void lz_msg_hello_add(struct lz_buf *b, const struct lz_msg_hello *m);
int lz_msg_hello_decode(const struct lz_frame *f, struct lz_msg_hello *m,
    struct lz_err *err);

void lz_msg_welcome_add(struct lz_buf *b, const struct lz_msg_welcome *m);
int lz_msg_welcome_decode(const struct lz_frame *f, struct lz_msg_welcome *m,
    struct lz_err *err);
void lz_msg_welcome_release(struct lz_msg_welcome *m);

/* Appends an ERROR frame; code is a word of wire.md's list. */
void lz_msg_error_add(struct lz_buf *b, const char *code,
    const char *message);
int lz_msg_error_decode(const struct lz_frame *f, struct lz_msg_error *m,
    struct lz_err *err);
void lz_msg_error_release(struct lz_msg_error *m);

void lz_msg_open_init(struct lz_msg_open *m);
/*
 * Fails with LZ_EINVAL, appending nothing, when a string the user gave
 * (an argument, the directory, a passed value) is not UTF-8 or over its
 * limit: the message names it.
 */
int lz_msg_open_add(struct lz_buf *b, const struct lz_msg_open *m,
    struct lz_err *err);
int lz_msg_open_decode(const struct lz_frame *f, struct lz_msg_open *m,
    struct lz_err *err);
void lz_msg_open_release(struct lz_msg_open *m);

void lz_msg_opened_add(struct lz_buf *b, const struct lz_msg_opened *m);
int lz_msg_opened_decode(const struct lz_frame *f, struct lz_msg_opened *m,
    struct lz_err *err);

void lz_msg_exit_add(struct lz_buf *b, const struct lz_msg_exit *m);
int lz_msg_exit_decode(const struct lz_frame *f, struct lz_msg_exit *m,
    struct lz_err *err);
void lz_msg_exit_release(struct lz_msg_exit *m);

void lz_msg_attach_add(struct lz_buf *b, const struct lz_msg_attach *m);
int lz_msg_attach_decode(const struct lz_frame *f, struct lz_msg_attach *m,
    struct lz_err *err);

void lz_msg_sessions_add(struct lz_buf *b, const struct lz_msg_sessions *m);
int lz_msg_sessions_decode(const struct lz_frame *f,
    struct lz_msg_sessions *m, struct lz_err *err);
/* Appends a copy of e (its strings copied). */
void lz_msg_sessions_push(struct lz_msg_sessions *m,
    const struct lz_msg_session *e);
void lz_msg_sessions_release(struct lz_msg_sessions *m);

/* Escalation prompts (wire.md 1.5). */
#define LZ_MSG_REQUEST_HEX 32		/* Escalation Request ID */
#define LZ_MSG_WHY_MAX 2048		/* a justification */
#define LZ_MSG_DENY_MAX 1024		/* a denial's message to the agent */

/*
 * PROMPT (s->c): a verified request for the developer, sent only to the
 * connection bound to its session (FR-5). Every string is the sandbox's
 * (untrusted) except profile, command and cwd. pending: how many more
 * requests of the same session wait behind this one.
 */
struct lz_msg_prompt {
	char id[LZ_MSG_REQUEST_HEX + 1];
	char session[LZ_MSG_SESSION_HEX + 1];
	char profile[LZ_MSG_PROFILE_MAX + 1];
	char *command;			/* the session's command, for the title */
	struct lz_tokens argv;		/* what the sandbox asks to run */
	char *cwd;			/* the host directory it would run in */
	char *why;			/* the agent's justification */
	unsigned long timeout_ms;	/* left until it times out */
	unsigned pending;
};

enum lz_decision {
	LZ_DECISION_APPROVE,		/* this once */
	LZ_DECISION_APPROVE_SESSION,	/* this exact argv, rest of session */
	LZ_DECISION_SAVE_RULE,		/* approve and save an exact rule */
	LZ_DECISION_DENY,		/* with an optional message */
	LZ_DECISION_EDIT,		/* run argv as edited */
};

/*
 * DECISION (c->s): the developer's answer to a PROMPT, accepted only from
 * the connection the PROMPT went to while it is bound to that session.
 * argv: the edited command (EDIT only); message: the denial's words for
 * the agent (DENY only, may be empty); env: "NAME=value" of the
 * profile's escalation-env names, from the approving client's
 * environment (approvals only).
 */
struct lz_msg_decision {
	char id[LZ_MSG_REQUEST_HEX + 1];
	enum lz_decision decision;
	struct lz_tokens argv;
	char *message;
	struct lz_tokens env;
	/* The Client CLI's Ed25519 signature (base64) over
	 * lz_msg_decision_signed's bytes; kept in the audit log. */
	char sig[89];
};

/*
 * What a DECISION's signature covers: the whole session control tuple
 * (Domain, Coordinator, Client CLI, Session), the request ID, the
 * decision, the argv that runs (the edited one, else the PROMPT's), the
 * message and the escalation-env values, each length-prefixed, after
 * "lazaret-decision-v1": everything that decides what runs on the host.
 */
void lz_msg_decision_signed(const struct lz_msg_decision *m,
    const char *domain, const char *coordinator, const char *client,
    const char *session, const struct lz_tokens *argv, struct lz_buf *out);

/* WITHDRAWN (s->c): the prompt is gone (why: "timed-out", "cancelled",
 * "detached", "decided"). */
struct lz_msg_withdrawn {
	char id[LZ_MSG_REQUEST_HEX + 1];
	char why[16];
};

void lz_msg_prompt_add(struct lz_buf *b, const struct lz_msg_prompt *m);
int lz_msg_prompt_decode(const struct lz_frame *f, struct lz_msg_prompt *m,
    struct lz_err *err);
void lz_msg_prompt_release(struct lz_msg_prompt *m);

/* Fails like lz_msg_open_add when an edited argument is not UTF-8. */
int lz_msg_decision_add(struct lz_buf *b, const struct lz_msg_decision *m,
    struct lz_err *err);
int lz_msg_decision_decode(const struct lz_frame *f,
    struct lz_msg_decision *m, struct lz_err *err);
void lz_msg_decision_release(struct lz_msg_decision *m);
/* "approve", "approve-session", "save-rule", "deny", "edit". */
const char *lz_decision_name(enum lz_decision d);

void lz_msg_withdrawn_add(struct lz_buf *b, const struct lz_msg_withdrawn *m);
int lz_msg_withdrawn_decode(const struct lz_frame *f,
    struct lz_msg_withdrawn *m, struct lz_err *err);

/*
 * TRUSTED (s->c), the answer to TRUST: the Trust Anchor's fingerprint and
 * every identity it issued (never a key). The sidecar's identity is its
 * attachment key, so it has no certificate fields.
 */
struct lz_msg_identity {
	char role[16];			/* coordinator, client, sidecar, sandbox */
	char component[65];
	char serial[33];		/* "" without a certificate */
	long long not_after;		/* 0 without a certificate */
	char fingerprint[65];		/* "" without a certificate */
};

struct lz_msg_trusted {
	char anchor[65];		/* SHA-256 of the CA certificate */
	struct lz_msg_identity *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};

void lz_msg_trusted_add(struct lz_buf *b, const struct lz_msg_trusted *m);
int lz_msg_trusted_decode(const struct lz_frame *f, struct lz_msg_trusted *m,
    struct lz_err *err);
void lz_msg_trusted_release(struct lz_msg_trusted *m);

/*
 * ACK (s->c, 4 bytes: u32 big-endian): the coordinator wrote that many
 * more bytes of this connection's INPUT to its session; the client may
 * send that many more (wire.md 1.4, "Input window").
 */
void lz_msg_ack_add(struct lz_buf *b, uint32_t bytes);
int lz_msg_ack_decode(const struct lz_frame *f, uint32_t *bytes,
    struct lz_err *err);

/* 1 when s is exactly n lower-case hex digits. */
int lz_msg_hex_ok(const char *s, size_t n);

#endif
