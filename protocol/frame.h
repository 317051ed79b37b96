/*
 * frame.h: control-socket frames between the lazaret client and the
 * Session Coordinator (protocol/wire.md, "Control socket"). Encoding and
 * decoding only: no I/O. A frame is a 10-byte header and a payload:
 *
 *   0  'L' 'Z'        magic
 *   2  version        LZ_FRAME_VERSION
 *   3  type           enum lz_frame_type
 *   4  flags          u16, big-endian: LZ_FRAME_FLAG_MORE on ATTACHED and
 *                     SNAPSHOT, 0 otherwise (any other bit is an error)
 *   6  length         u32, big-endian, payload bytes, <= LZ_FRAME_MAX
 *
 * Control payloads are one JSON object (UTF-8, jansson); data payloads
 * (INPUT, OUTPUT, STDERR) are raw bytes; RESIZE and RESIZED four u16.
 * Every connection starts with HELLO, answered by WELCOME or ERROR, so a
 * version mismatch is found before anything else (tmux's PROTOCOL_VERSION).
 * Change LZ_FRAME_VERSION in the same commit as any change here.
 */
#ifndef LZ_FRAME_H
#define LZ_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/util.h"

#define LZ_FRAME_VERSION 4
#define LZ_FRAME_HEADER 10
#define LZ_FRAME_MAX (1024 * 1024)
/*
 * A pane's screen (ATTACHED, SNAPSHOT) longer than LZ_FRAME_MAX goes in
 * several frames of its type: every one but the last has this flag. The
 * receiver takes them as one screen (a mirror stays in its restore).
 */
#define LZ_FRAME_FLAG_MORE 0x0001

enum lz_frame_type {
	LZ_FRAME_HELLO = 0x01,		/* c->s JSON: version, fingerprint, ... */
	LZ_FRAME_WELCOME = 0x02,	/* s->c JSON: coordinator, client ids */
	LZ_FRAME_ERROR = 0x03,		/* s->c JSON: code, message */
	LZ_FRAME_OPEN = 0x10,		/* c->s JSON: argv, cwd, tty, size, env */
	LZ_FRAME_OPENED = 0x11,		/* s->c JSON: session */
	LZ_FRAME_INPUT = 0x12,		/* c->s bytes; empty = end of input */
	LZ_FRAME_OUTPUT = 0x13,		/* s->c bytes: stdout or the pty */
	LZ_FRAME_STDERR = 0x14,		/* s->c bytes */
	LZ_FRAME_RESIZE = 0x15,		/* c->s size (struct lz_frame_size) */
	LZ_FRAME_EXIT = 0x16,		/* s->c JSON: status, signal */
	LZ_FRAME_DETACH = 0x17,		/* c->s empty: unbind, keep running */
	LZ_FRAME_ATTACH = 0x18,		/* c->s JSON: session, rows, cols */
	LZ_FRAME_ATTACHED = 0x19,	/* s->c bytes: the pane's screen */
	LZ_FRAME_HANGUP = 0x1a,		/* c->s empty: end the bound session */
	LZ_FRAME_ACK = 0x1b,		/* s->c u32: INPUT bytes written */
	LZ_FRAME_SNAPSHOT = 0x1c,	/* s->c bytes: reset the mirror, feed */
	LZ_FRAME_RESIZED = 0x1d,	/* s->c size: the pane resized here */
	LZ_FRAME_HOST = 0x1e,		/* c->s JSON: the host terminal */
	LZ_FRAME_REDRAW = 0x1f,		/* c->s empty: send me a SNAPSHOT */
	LZ_FRAME_LIST = 0x20,		/* c->s empty */
	LZ_FRAME_SESSIONS = 0x21,	/* s->c JSON: sessions array */
	LZ_FRAME_TRUST = 0x22,		/* c->s empty */
	LZ_FRAME_TRUSTED = 0x23,	/* s->c JSON: Trust Anchor, identities */
	LZ_FRAME_PROMPT = 0x30,		/* s->c JSON: an escalation request */
	LZ_FRAME_DECISION = 0x31,	/* c->s JSON: the developer's answer */
	LZ_FRAME_WITHDRAWN = 0x32,	/* s->c JSON: a prompt is gone */
};

struct lz_frame {
	enum lz_frame_type type;
	unsigned flags;			/* LZ_FRAME_FLAG_MORE or 0 */
	const unsigned char *payload;	/* points into the decoded buffer */
	uint32_t len;
};

/* 1 when t is a type this version knows. */
int lz_frame_type_known(unsigned t);
const char *lz_frame_type_name(unsigned t);

/* Appends a frame with a raw payload to b. len must be <= LZ_FRAME_MAX. */
void lz_frame_add(struct lz_buf *b, enum lz_frame_type type,
    const void *payload, size_t len);
/*
 * Appends len bytes of a pane's screen as frames of type (ATTACHED or
 * SNAPSHOT) of at most LZ_FRAME_MAX each, all but the last flagged
 * LZ_FRAME_FLAG_MORE; one empty frame when len is 0.
 */
void lz_frame_add_screen(struct lz_buf *b, enum lz_frame_type type,
    const void *buf, size_t len);
/* Appends a frame whose payload is j (compact JSON). Does not steal j. */
void lz_frame_add_json(struct lz_buf *b, enum lz_frame_type type,
    const json_t *j);

/*
 * Decodes one frame from the start of buf. Returns 1 with *f filled and
 * *used set when a whole frame is there; 0 when more bytes are needed;
 * LZ_EINVAL with a message for a bad magic, version, type, flags (other
 * than LZ_FRAME_FLAG_MORE on ATTACHED or SNAPSHOT), or a length over
 * LZ_FRAME_MAX (the peer must then be disconnected: nothing
 * after a bad header can be trusted). Nothing is allocated.
 */
int lz_frame_decode(const unsigned char *buf, size_t len, struct lz_frame *f,
    size_t *used, struct lz_err *err);

/*
 * Parses a control payload as a JSON object. Returns a new reference or
 * NULL with LZ_EINVAL in err (not JSON, not an object, embedded NUL).
 */
json_t *lz_frame_json(const struct lz_frame *f, struct lz_err *err);

/*
 * RESIZE (the client's terminal) and RESIZED (where in the output stream
 * the coordinator's pane took that size) payloads: four u16, big-endian:
 * rows, cols (1..LZ_FRAME_ROWS_MAX, 1..LZ_FRAME_COLS_MAX) and the host
 * terminal's cell width and height in pixels (0: not known, 1..1000).
 */
#define LZ_FRAME_ROWS_MAX 1000
#define LZ_FRAME_COLS_MAX 1000
#define LZ_FRAME_CELL_MAX 1000
struct lz_frame_size {
	unsigned rows, cols;
	unsigned cell_w, cell_h;
};
void lz_frame_add_size(struct lz_buf *b, enum lz_frame_type type,
    const struct lz_frame_size *s);
int lz_frame_size(const struct lz_frame *f, struct lz_frame_size *s,
    struct lz_err *err);

#endif
