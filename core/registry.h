/*
 * registry.h: the Session Coordinator's session registry (spec 3.2, the
 * Client Sessions of protocol/Lazaret.tla): connections (one Client CLI
 * ID each), sessions (one Session ID each), which connection a session is
 * bound to, and the rules of binding: one client per session (FR-10),
 * takeover, detach, the end of a session, the end of the last one (FR-6),
 * and the input window of each connection. Plain functions over plain
 * data: each returns what the coordinator's loop must do (send these
 * frames to that connection, close it, hang up that session, stop the
 * Domain) as a list of actions, and never does I/O itself, so it is
 * unit-tested without libuv (tests/unit/test-registry.c). The libuv glue
 * (src/coordinator-*.c) carries the actions out.
 *
 * Objects are owned by the registry; glue points back at the loop's own
 * object (a uv handle's owner) and is never touched here.
 */
#ifndef LZ_REGISTRY_H
#define LZ_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "core/trust.h"
#include "core/util.h"
#include "protocol/msg.h"

/*
 * The input window: INPUT bytes a client may have sent that the
 * coordinator has not yet written to the session (and acknowledged with
 * ACK). A client that goes past it broke the protocol.
 */
#define LZ_REG_INPUT_WINDOW (256u * 1024)
/* ACK once this much was written, or when the queue ran dry while
 * the client had used half its window or more. */
#define LZ_REG_ACK_STEP (16u * 1024)

struct lz_reg_session;

struct lz_reg_conn {
	char client_id[LZ_MSG_CLIENT_HEX + 1];
	int hello;			/* HELLO accepted */
	EVP_PKEY *key;			/* the Client CLI's public key */
	int closing;			/* a CLOSE action was given */
	struct lz_reg_session *session;	/* bound session, at most one */
	size_t in_flight;		/* INPUT received, not acknowledged */
	size_t ack_pending;		/* written, not yet acknowledged */
	void *glue;
	struct lz_reg_conn *next;
};

enum lz_reg_state {
	LZ_REG_RUNNING,
	LZ_REG_EXITED,		/* process gone, output draining */
};

struct lz_reg_session {
	char id[LZ_MSG_SESSION_HEX + 1];
	/*
	 * The Session Anchor (FR-10): an ephemeral key of this session and
	 * this coordinator instance, made at registration; it survives
	 * detach, reattach and takeover and dies with the coordinator.
	 */
	unsigned char anchor[LZ_TRUST_ANCHOR_BYTES];
	int tty;
	enum lz_reg_state state;
	unsigned status, signal;	/* once EXITED */
	char *reason;			/* why Lazaret ended it, or NULL */
	char *command;			/* for SESSIONS */
	char *cwd;
	long long started;
	struct lz_reg_conn *conn;	/* attached client, or NULL */
	void *glue;
	struct lz_reg_session *next;
};

enum lz_act_kind {
	LZ_DO_SEND,		/* frames to conn */
	LZ_DO_CLOSE,		/* close conn once its queued frames left */
	LZ_DO_HANGUP,		/* SIGHUP to session's process group */
	LZ_DO_RESIZE,		/* session's terminal to rows x cols */
	LZ_DO_SCREEN,		/* send conn session's screen (history) */
	LZ_DO_FREE,		/* the session left the registry: free glue */
	LZ_DO_STOP,		/* no session left: stop the Domain (FR-6) */
};

struct lz_act {
	enum lz_act_kind kind;
	struct lz_reg_conn *conn;
	struct lz_reg_session *session;
	struct lz_buf frames;		/* LZ_DO_SEND */
	unsigned rows, cols;		/* LZ_DO_RESIZE */
	unsigned long history;		/* LZ_DO_SCREEN */
};

struct lz_acts {
	struct lz_act *v;
	size_t n, alloc;
};
#define LZ_ACTS_INIT { NULL, 0, 0 }

/* Releases the actions' frames and empties the list. */
void lz_acts_release(struct lz_acts *a);

#define LZ_REG_EARLIER_MAX 64

struct lz_registry {
	struct lz_trust *trust;		/* borrowed; NULL: no certificates */
	char domain[LZ_MSG_DOMAIN_HEX + 1];
	char coordinator[LZ_MSG_COORD_HEX + 1];
	char fingerprint[LZ_MSG_FINGERPRINT_HEX + 1];
	/* The fingerprints it had before rules were adopted (lz_reg_adopt),
	 * oldest first: a client started before a rule was saved (the TUI
	 * that saved it, opening its next pane) still joins. */
	char earlier[LZ_REG_EARLIER_MAX][LZ_MSG_FINGERPRINT_HEX + 1];
	unsigned nearlier;
	struct lz_reg_conn *conns;
	struct lz_reg_session *sessions;
	unsigned nsessions;
	int stopping;			/* teardown began: no new session */
};

void lz_registry_init(struct lz_registry *r, const char *domain,
    const char *coordinator, const char *fingerprint);
/* Frees every object (the glue must already be gone). */
void lz_registry_release(struct lz_registry *r);
/*
 * The Domain adopted a rule saved from a prompt: fingerprint is its
 * configuration now. Clients with the one before (their configuration
 * lacks only rules the Domain adopted) are still let in; past
 * LZ_REG_EARLIER_MAX adoptions the oldest is forgotten.
 */
void lz_reg_adopt(struct lz_registry *r, const char *fingerprint);

/* A new connection with a fresh random Client CLI ID. */
struct lz_reg_conn *lz_reg_conn_new(struct lz_registry *r, void *glue);
/*
 * The connection is gone (its handle closed): it leaves the registry and
 * is freed. Its session, if any, is detached first (lz_reg_detach, which
 * the glue calls as soon as it decides to close, so that nothing is
 * routed to a connection on its way out).
 */
void lz_reg_conn_gone(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a);

/*
 * Whether a frame of type t may come from c now (HELLO first and once):
 * 0, or LZ_EINVAL with an ERROR "order" and CLOSE in a.
 */
int lz_reg_order(struct lz_registry *r, struct lz_reg_conn *c, unsigned t,
    struct lz_acts *a);

/*
 * HELLO: WELCOME with the Client CLI's certificate for m->key (issued by
 * r->trust for this connection's Client CLI ID), or ERROR (domain,
 * fingerprint, stopping, identity: a key that is not one) and CLOSE.
 */
void lz_reg_hello(struct lz_registry *r, struct lz_reg_conn *c,
    const struct lz_msg_hello *m, struct lz_acts *a);

/*
 * Before an OPEN starts a process: 0 when c may open a session, else
 * LZ_EINVAL / LZ_EBUSY with the reason (an ERROR frame in a).
 */
int lz_reg_may_open(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a);
/*
 * A session about to be started for c: a new random Session ID and
 * Session Anchor, not yet registered (its process needs both in its
 * environment). command and cwd are copied. Then lz_reg_session_start
 * once the process runs, or lz_reg_session_free when it could not start.
 */
struct lz_reg_session *lz_reg_session_new(struct lz_reg_conn *c, int tty,
    const char *command, const char *cwd, long long now, void *glue);
/* Registers s, binds it to its connection, sends OPENED. */
void lz_reg_session_start(struct lz_registry *r, struct lz_reg_session *s,
    struct lz_acts *a);
/* The Session Anchor in hex (the session's LAZARET_SESSION_ANCHOR). */
void lz_reg_anchor_hex(const struct lz_reg_session *s,
    char out[2 * LZ_TRUST_ANCHOR_BYTES + 1]);

/*
 * Session control is authorised against the whole current tuple (spec
 * 3.2, SR-9): this Domain, this coordinator instance, the Client CLI ID
 * of the connection that asks, and the Session ID it is bound to, never
 * against one of them alone. 0, or LZ_EINVAL with which part differs.
 */
int lz_reg_authorize(const struct lz_registry *r, const struct lz_reg_conn *c,
    const char *domain, const char *coordinator, const char *client,
    const char *session, struct lz_err *err);

/*
 * ATTACH: binds c to the running pty session m->session. Refused (ERROR
 * "open" in a, c kept) when there is none, it has no terminal, or another
 * client has it and m->takeover is not set (FR-10). With takeover the
 * other connection first gets ERROR "taken" and is closed (its session
 * keeps running), so a session never has two clients. Then RESIZE (when
 * m gives a size) and SCREEN for c.
 */
int lz_reg_attach(struct lz_registry *r, struct lz_reg_conn *c,
    const struct lz_msg_attach *m, struct lz_acts *a);

/*
 * c lets its session go (DETACH, or the connection ended). A pty session
 * keeps running; a pipe session, which has no screen to come back to, is
 * hung up. c is unbound.
 */
void lz_reg_detach(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a);

/* HANGUP from c: its session's process group gets SIGHUP. */
void lz_reg_hangup(struct lz_registry *r, struct lz_reg_conn *c,
    struct lz_acts *a);

/*
 * INPUT of len bytes from c: 1 when it may be written to c's session, 0
 * when c has no running session (the bytes are dropped), LZ_EINVAL when
 * it goes past the input window (ERROR "window" and CLOSE in a).
 */
int lz_reg_input(struct lz_registry *r, struct lz_reg_conn *c, size_t len,
    struct lz_acts *a);
/*
 * n bytes of s's input queue were written to its process: ACK to the
 * client bound now (never more than it has in flight), once
 * LZ_REG_ACK_STEP is reached, or when the queue is empty (empty set) and
 * the client has half its window or more in flight.
 */
void lz_reg_input_written(struct lz_registry *r, struct lz_reg_session *s,
    size_t n, int empty, struct lz_acts *a);

/* The session's process ended; its output is still draining. */
void lz_reg_exited(struct lz_registry *r, struct lz_reg_session *s,
    unsigned status, unsigned signal, const char *reason);
/*
 * The session's output is drained too: EXIT to its client, CLOSE, the
 * session leaves (FREE); STOP when it was the last one (FR-6).
 */
void lz_reg_finished(struct lz_registry *r, struct lz_reg_session *s,
    struct lz_acts *a);

/* Teardown begins: every running session is hung up. */
void lz_reg_stop(struct lz_registry *r, struct lz_acts *a);

/* SESSIONS for LIST. */
void lz_reg_list(struct lz_registry *r, struct lz_msg_sessions *out);

struct lz_reg_session *lz_reg_find(struct lz_registry *r, const char *id);
/* Frees a session that left (after LZ_DO_FREE was carried out). */
void lz_reg_session_free(struct lz_reg_session *s);

#endif
