/*
 * frame.c: encoding and decoding control-socket frames (see frame.h and
 * protocol/wire.md). The decoder trusts nothing: every header field is
 * checked before the payload length is believed.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/frame.h"

static const struct {
	unsigned type;
	const char *name;
} types[] = {
	{ LZ_FRAME_HELLO, "HELLO" },
	{ LZ_FRAME_WELCOME, "WELCOME" },
	{ LZ_FRAME_ERROR, "ERROR" },
	{ LZ_FRAME_OPEN, "OPEN" },
	{ LZ_FRAME_OPENED, "OPENED" },
	{ LZ_FRAME_INPUT, "INPUT" },
	{ LZ_FRAME_OUTPUT, "OUTPUT" },
	{ LZ_FRAME_STDERR, "STDERR" },
	{ LZ_FRAME_RESIZE, "RESIZE" },
	{ LZ_FRAME_RESIZED, "RESIZED" },
	{ LZ_FRAME_HOST, "HOST" },
	{ LZ_FRAME_EXIT, "EXIT" },
	{ LZ_FRAME_DETACH, "DETACH" },
	{ LZ_FRAME_ATTACH, "ATTACH" },
	{ LZ_FRAME_ATTACHED, "ATTACHED" },
	{ LZ_FRAME_HANGUP, "HANGUP" },
	{ LZ_FRAME_ACK, "ACK" },
	{ LZ_FRAME_SNAPSHOT, "SNAPSHOT" },
	{ LZ_FRAME_REDRAW, "REDRAW" },
	{ LZ_FRAME_LIST, "LIST" },
	{ LZ_FRAME_SESSIONS, "SESSIONS" },
	{ LZ_FRAME_TRUST, "TRUST" },
	{ LZ_FRAME_TRUSTED, "TRUSTED" },
	{ LZ_FRAME_PROMPT, "PROMPT" },
	{ LZ_FRAME_DECISION, "DECISION" },
	{ LZ_FRAME_WITHDRAWN, "WITHDRAWN" },
};

int
lz_frame_type_known(unsigned t)
{
	return strcmp(lz_frame_type_name(t), "?") != 0;
}

const char *
lz_frame_type_name(unsigned t)
{
	size_t i;

	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (types[i].type == t)
			return types[i].name;
	}
	return "?";
}

static void
frame_add(struct lz_buf *b, enum lz_frame_type type, unsigned flags,
    const void *payload, size_t len)
{
	unsigned char h[LZ_FRAME_HEADER];

	if (len > LZ_FRAME_MAX)
		LZ_BUG("frame of %zu bytes", len);
	h[0] = 'L';
	h[1] = 'Z';
	h[2] = LZ_FRAME_VERSION;
	h[3] = (unsigned char)type;
	h[4] = (unsigned char)(flags >> 8);
	h[5] = (unsigned char)flags;
	h[6] = (unsigned char)(len >> 24);
	h[7] = (unsigned char)(len >> 16);
	h[8] = (unsigned char)(len >> 8);
	h[9] = (unsigned char)len;
	lz_buf_add(b, h, sizeof h);
	lz_buf_add(b, payload, len);
}

void
lz_frame_add(struct lz_buf *b, enum lz_frame_type type, const void *payload,
    size_t len)
{
	frame_add(b, type, 0, payload, len);
}

void
lz_frame_add_screen(struct lz_buf *b, enum lz_frame_type type,
    const void *buf, size_t len)
{
	const char *s = buf;
	size_t n;

	if (type != LZ_FRAME_ATTACHED && type != LZ_FRAME_SNAPSHOT)
		LZ_BUG("a screen in a %s frame", lz_frame_type_name(type));
	do {
		n = len < LZ_FRAME_MAX ? len : LZ_FRAME_MAX;
		frame_add(b, type, len > n ? LZ_FRAME_FLAG_MORE : 0, s, n);
		s += n;
		len -= n;
	} while (len > 0);
}

void
lz_frame_add_json(struct lz_buf *b, enum lz_frame_type type, const json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);

	if (s == NULL)
		LZ_BUG("cannot encode a %s frame", lz_frame_type_name(type));
	lz_frame_add(b, type, s, strlen(s));
	free(s);
}

int
lz_frame_decode(const unsigned char *buf, size_t len, struct lz_frame *f,
    size_t *used, struct lz_err *err)
{
	uint32_t n;

	*used = 0;
	if (len >= 1 && buf[0] != 'L')
		goto bad_magic;
	if (len >= 2 && buf[1] != 'Z')
		goto bad_magic;
	if (len >= 3 && buf[2] != LZ_FRAME_VERSION)
		return lz_err_set(err, LZ_EINVAL, "peer speaks control "
		    "protocol version %u, this lazaret speaks %u (stop the "
		    "Domain's other lazaret processes, or use one version)",
		    buf[2], LZ_FRAME_VERSION);
	if (len >= 4 && !lz_frame_type_known(buf[3]))
		return lz_err_set(err, LZ_EINVAL, "unknown frame type 0x%02x",
		    buf[3]);
	if (len >= 6 && (buf[4] != 0 || (buf[5] != 0 && !(buf[5] ==
	    LZ_FRAME_FLAG_MORE && (buf[3] == LZ_FRAME_ATTACHED ||
	    buf[3] == LZ_FRAME_SNAPSHOT)))))
		return lz_err_set(err, LZ_EINVAL, "frame flags 0x%02x%02x are "
		    "not allowed on %s frames", buf[4], buf[5],
		    lz_frame_type_name(buf[3]));
	if (len < LZ_FRAME_HEADER)
		return 0;
	n = (uint32_t)buf[6] << 24 | (uint32_t)buf[7] << 16 |
	    (uint32_t)buf[8] << 8 | buf[9];
	if (n > LZ_FRAME_MAX)
		return lz_err_set(err, LZ_EINVAL, "frame of %u bytes is over "
		    "the limit of %d", n, LZ_FRAME_MAX);
	if (len - LZ_FRAME_HEADER < n)
		return 0;
	f->type = buf[3];
	f->flags = buf[5];
	f->payload = buf + LZ_FRAME_HEADER;
	f->len = n;
	*used = LZ_FRAME_HEADER + n;
	return 1;
bad_magic:
	return lz_err_set(err, LZ_EINVAL, "not a lazaret control frame (bad "
	    "magic)");
}

json_t *
lz_frame_json(const struct lz_frame *f, struct lz_err *err)
{
	json_error_t je;
	json_t *j;

	j = json_loadb((const char *)f->payload, f->len, JSON_REJECT_DUPLICATES,
	    &je);
	if (j == NULL) {
		lz_err_set(err, LZ_EINVAL, "bad %s frame: %s",
		    lz_frame_type_name(f->type), je.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		lz_err_set(err, LZ_EINVAL, "bad %s frame: not a JSON object",
		    lz_frame_type_name(f->type));
		return NULL;
	}
	return j;
}

void
lz_frame_add_size(struct lz_buf *b, enum lz_frame_type type,
    const struct lz_frame_size *s)
{
	unsigned v[4] = { s->rows, s->cols, s->cell_w, s->cell_h };
	unsigned char p[8];
	int i;

	for (i = 0; i < 4; i++) {
		p[2 * i] = (unsigned char)(v[i] >> 8);
		p[2 * i + 1] = (unsigned char)v[i];
	}
	lz_frame_add(b, type, p, sizeof p);
}

int
lz_frame_size(const struct lz_frame *f, struct lz_frame_size *s,
    struct lz_err *err)
{
	const char *name = lz_frame_type_name(f->type);

	if ((f->type != LZ_FRAME_RESIZE && f->type != LZ_FRAME_RESIZED) ||
	    f->len != 8)
		return lz_err_set(err, LZ_EINVAL, "bad %s frame (%u bytes, 8 "
		    "expected)", name, (unsigned)f->len);
	s->rows = (unsigned)f->payload[0] << 8 | f->payload[1];
	s->cols = (unsigned)f->payload[2] << 8 | f->payload[3];
	s->cell_w = (unsigned)f->payload[4] << 8 | f->payload[5];
	s->cell_h = (unsigned)f->payload[6] << 8 | f->payload[7];
	if (s->rows == 0 || s->cols == 0 || s->rows > LZ_FRAME_ROWS_MAX ||
	    s->cols > LZ_FRAME_COLS_MAX)
		return lz_err_set(err, LZ_EINVAL, "%s to %ux%u (1..%d rows, "
		    "1..%d columns)", name, s->rows, s->cols,
		    LZ_FRAME_ROWS_MAX, LZ_FRAME_COLS_MAX);
	if (s->cell_w > LZ_FRAME_CELL_MAX || s->cell_h > LZ_FRAME_CELL_MAX ||
	    (s->cell_w == 0) != (s->cell_h == 0))
		return lz_err_set(err, LZ_EINVAL, "%s with a cell of %ux%u "
		    "pixels (both 0, or 1..%d)", name, s->cell_w, s->cell_h,
		    LZ_FRAME_CELL_MAX);
	return 0;
}
