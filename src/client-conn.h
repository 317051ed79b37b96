/*
 * client-conn.h: the client end of the Domain's control socket: connecting
 * to a running coordinator, or taking the lifecycle lock, recovering what
 * a dead one left and starting a new one (FR-7), then the HELLO exchange;
 * and blocking frame I/O for the relay loop.
 */
#ifndef LZ_CLIENT_CONN_H
#define LZ_CLIENT_CONN_H

#include <jansson.h>
#include <openssl/evp.h>

#include "core/registry.h"
#include "protocol/frame.h"
#include "protocol/msg.h"
#include "src/client-setup.h"

struct lz_conn_client {
	int fd;
	struct lz_buf in;		/* received */
	size_t in_off;			/* in's bytes before it: decoded */
	char client_id[LZ_MSG_CLIENT_HEX + 1];		/* from WELCOME */
	char coordinator_id[LZ_MSG_COORD_HEX + 1];
	/*
	 * The Client CLI's identity on this connection: its own Ed25519 key
	 * (made for HELLO, never sent anywhere) and the certificate WELCOME
	 * returned for it. Decisions on escalation prompts are signed with it.
	 */
	EVP_PKEY *key;
	char *cert;
	/*
	 * INPUT bytes this client may still send: the window
	 * (LZ_REG_INPUT_WINDOW) less what the coordinator has not yet
	 * acknowledged (ACK). Set when a session is opened or attached.
	 */
	size_t credit;
};

enum lz_conn_flags {
	LZ_CONN_START = 1 << 0,	/* start the Domain when none runs */
	LZ_CONN_QUIET = 1 << 1,	/* print nothing (the TUI's full screen) */
};

/*
 * Connects to the Domain's coordinator, or, with LZ_CONN_START, starts
 * one when none runs; a client that arrives while another starts or
 * stops the Domain waits (up to 3 minutes, saying so after a second) and
 * joins, or starts it anew. self is the path of this lazaret binary. On
 * failure the message in err says what to do; LZ_EBUSY means another
 * configuration runs the Domain (exit code 6).
 */
int lz_conn_open(struct lz_conn_client *cc, const struct lz_client *c,
    const char *self, int flags, struct lz_err *err);
void lz_conn_close(struct lz_conn_client *cc);
/* Sends frames (blocking). */
int lz_conn_send(struct lz_conn_client *cc, struct lz_buf *frames,
    struct lz_err *err);
/*
 * Reads whatever the socket has (one read) into cc->in. Returns bytes
 * read, 0 on end of file, or a negative code.
 */
int lz_conn_fill(struct lz_conn_client *cc, struct lz_err *err);
/*
 * Takes the next whole frame from cc->in into f, copying its payload into
 * payload (reset first). Returns 1, 0 when none is complete, or LZ_EINVAL.
 */
int lz_conn_next(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err);
/* 1 when cc->in holds bytes lz_conn_next has not taken yet. */
int lz_conn_buffered(const struct lz_conn_client *cc);
/*
 * An ERROR frame as an error: its message in err, and LZ_EBUSY
 * (fingerprint), LZ_EAGAIN (stopping), LZ_EFAILED (domain-failure) or
 * LZ_EINVAL.
 */
int lz_conn_error(const struct lz_frame *f, struct lz_err *err);
/* Waits for one frame (blocking); fails on EOF or an ERROR frame. */
int lz_conn_wait(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err);

/* LIST, and its SESSIONS answer into out (released by the caller). */
int lz_conn_list(struct lz_conn_client *cc, struct lz_msg_sessions *out,
    struct lz_err *err);

/* TRUST, and its TRUSTED answer into out (released by the caller). */
/*
 * The developer's answer d to the PROMPT that asked argv in session of
 * Domain domain, as a DECISION frame appended to frames: unless it is a
 * denial, with this client's values of the profile's escalation-env
 * names; signed with this connection's key over the whole session
 * control tuple (lz_msg_decision_signed).
 */
int lz_conn_decide(struct lz_conn_client *cc, const struct lz_client *c,
    const char *session, const struct lz_tokens *argv,
    struct lz_msg_decision *d, struct lz_buf *frames, struct lz_err *err);
int lz_conn_trusted(struct lz_conn_client *cc, struct lz_msg_trusted *out,
    struct lz_err *err);

#endif
