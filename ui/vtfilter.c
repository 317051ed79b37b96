/*
 * vtfilter.c: the sandbox output filter of vtfilter.h. libvterm's parser
 * splits the bytes into text, controls, escapes, CSI, OSC and DCS; the
 * callbacks below decide and re-emit. A small tracker of our own runs in
 * step with the parser for what libvterm 0.1.4 gets wrong: it cancels a
 * CSI before its 17th parameter (libvterm would write past its array), it
 * keeps OSC payloads across writes (libvterm keeps only the last part),
 * and it sees CAN and SUB, which end APC strings but reach no callback.
 * The screen model (pane emulator) is elsewhere.
 */
#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "core/util.h"
#include "ui/vtfilter.h"
#include "ui/vtlimits.h"

/* libvterm's bounds (vtlimits.h): longer is not a real use. */
#define VTF_CSI_SEP_MAX (LZ_VT_CSI_ARGS_MAX - 1)
#define VTF_CSI_DIGIT_MAX LZ_VT_CSI_DIGIT_MAX
#define VTF_CSI_RAW_MAX 256
/* A CSI_ARG is below 2^31: ten digits at most. */
#define VTF_DECIMAL_MAX 10
/* A kept CSI rebuilt: one leader, 16 arguments and their separators, one
 * intermediate, the final byte. */
#define VTF_CSI_CANON_MAX (3 + (VTF_CSI_SEP_MAX + 1) * (VTF_DECIMAL_MAX + 1))

/* The tracker's view of libvterm's parser state (parser.c of 0.1.4). */
enum vtf_state {
	VTF_GROUND,
	VTF_ESC,
	VTF_CSI_LEADER,
	VTF_CSI_ARGS,
	VTF_CSI_INTERMED,
	VTF_STRING,
	VTF_STRING_ESC,
};

/* What feed does with the byte the tracker just saw. */
enum vtf_action {
	VTF_PASS,		/* part of the current segment */
	VTF_SYNC,		/* end the segment after it, then settle */
	VTF_CANCEL,		/* end the segment before it, cancel, skip it */
	VTF_SKIP,		/* end the segment before it and skip it */
};

struct lz_vtfilter {
	VTerm *vt;
	void (*out)(const char *, size_t, void *);
	void *user;
	struct lz_buf obuf;		/* output of the current feed */
	struct lz_vtfilter_stats st;

	enum vtf_state state;
	unsigned nsep;			/* CSI separators so far */
	unsigned ndigit;		/* digits of the current parameter */
	char raw[VTF_CSI_RAW_MAX];	/* the CSI's bytes after ESC [ */
	size_t rawlen;
	int rawlong;			/* raw overflowed: malformed */
	int discard;			/* dropping an overlong CSI */
	int swallow;			/* inside APC, PM or SOS */

	char str[LZ_VTFILTER_OSC_MAX];	/* payload of the current string */
	size_t strlen;
	int strlong;			/* payload exceeded str */
	int strbel;			/* ended by BEL rather than ESC \ */
	int held_esc;			/* ESC in a string, not yet fed */
	int pair;			/* feed the held ESC with this byte */
	int sync_can;			/* the sync byte was CAN or SUB */
	unsigned char sync_byte;

	unsigned char u8[4];		/* pending UTF-8 character */
	size_t u8len, u8need;
};

static int vtf_text(const char *bytes, size_t len, void *user);
static int vtf_control(unsigned char c, void *user);
static int vtf_escape(const char *bytes, size_t len, void *user);
static int vtf_csi(const char *leader, const long args[], int argcount,
    const char *intermed, char command, void *user);
static int vtf_osc(const char *command, size_t cmdlen, void *user);
static int vtf_dcs(const char *command, size_t cmdlen, void *user);
static void vtf_settle(struct lz_vtfilter *f);
static enum vtf_action vtf_track(struct lz_vtfilter *f, unsigned char c);
static enum vtf_action vtf_raw(struct lz_vtfilter *f, unsigned char c,
    enum vtf_action action);
static int vtf_raw_matches(const struct lz_vtfilter *f, const char *canon,
    size_t len);
static void vtf_u8_byte(struct lz_vtfilter *f, unsigned char c);
static void vtf_u8_flush(struct lz_vtfilter *f);
static size_t vtf_decimal(char *p, long v);
static int vtf_csi_drop(struct lz_vtfilter *f, const char *leader,
    const long args[], int argcount, const char *intermed, char command);

static const VTermParserCallbacks vtf_callbacks = {
	.text = vtf_text,
	.control = vtf_control,
	.escape = vtf_escape,
	.csi = vtf_csi,
	.osc = vtf_osc,
	.dcs = vtf_dcs,
	.resize = NULL,
};

struct lz_vtfilter *
lz_vtfilter_new(void (*out)(const char *, size_t, void *), void *user)
{
	struct lz_vtfilter *f = lz_xcalloc(1, sizeof *f);

	f->vt = vterm_new(24, 80);
	if (f->vt == NULL)
		LZ_BUG("vterm_new failed");
	vterm_set_utf8(f->vt, 1);
	vterm_parser_set_callbacks(f->vt, &vtf_callbacks, f);
	f->out = out;
	f->user = user;
	lz_buf_init(&f->obuf);
	f->state = VTF_GROUND;
	return f;
}

void
lz_vtfilter_free(struct lz_vtfilter *f)
{
	if (f == NULL)
		return;
	vterm_free(f->vt);
	lz_buf_release(&f->obuf);
	free(f);
}

const struct lz_vtfilter_stats *
lz_vtfilter_stats(const struct lz_vtfilter *f)
{
	return &f->st;
}

unsigned long
lz_vtfilter_dropped(const struct lz_vtfilter *f)
{
	const struct lz_vtfilter_stats *s = &f->st;

	return s->query + s->window + s->clipboard + s->title + s->osc +
	    s->dcs + s->apc + s->overlong + s->malformed + s->utf8;
}

/*
 * Feeds libvterm in segments that end where the tracker must act: after a
 * string terminator (so the OSC callback sees this string's payload), at
 * CAN/SUB, and around a CSI that grows too long.
 */
void
lz_vtfilter_feed(struct lz_vtfilter *f, const char *buf, size_t len)
{
	enum vtf_action act;
	char two[2];
	size_t i, seg = 0;

	for (i = 0; i < len; i++) {
		/*
		 * Text in the ground state changes nothing the tracker keeps:
		 * skipped here in one go (vtf_track would say VTF_PASS).
		 */
		if (f->state == VTF_GROUND && !f->held_esc && !f->discard) {
			while (i < len && (unsigned char)buf[i] >= 0x20 &&
			    buf[i] != 0x7f)
				i++;
			if (i == len)
				break;
		}
		act = vtf_track(f, (unsigned char)buf[i]);
		if (f->pair) {
			/* The held ESC and this byte, in one write. */
			f->pair = 0;
			vterm_input_write(f->vt, buf + seg, i - seg);
			two[0] = '\033';
			two[1] = buf[i];
			vterm_input_write(f->vt, two, 2);
			seg = i + 1;
			if (act == VTF_SYNC)
				vtf_settle(f);
			continue;
		}
		switch (act) {
		case VTF_PASS:
			break;
		case VTF_SYNC:
			vterm_input_write(f->vt, buf + seg, i + 1 - seg);
			seg = i + 1;
			vtf_settle(f);
			break;
		case VTF_CANCEL:
			vterm_input_write(f->vt, buf + seg, i - seg);
			vterm_input_write(f->vt, "\030", 1);
			seg = i + 1;
			break;
		case VTF_SKIP:
			vterm_input_write(f->vt, buf + seg, i - seg);
			seg = i + 1;
			break;
		}
	}
	if (seg < len)
		vterm_input_write(f->vt, buf + seg, len - seg);
	if (f->obuf.len > 0) {
		f->out(f->obuf.buf, f->obuf.len, f->user);
		lz_buf_reset(&f->obuf);
	}
}

/* After a sync point has gone through libvterm. */
static void
vtf_settle(struct lz_vtfilter *f)
{
	if (f->sync_can) {
		/* CAN and SUB pass and end APC strings. */
		vtf_u8_flush(f);
		f->swallow = 0;
		lz_buf_addch(&f->obuf, (char)f->sync_byte);
		f->sync_can = 0;
	}
	f->strlen = 0;
	f->strlong = 0;
}

/*
 * Follows libvterm 0.1.4's parser state machine one byte at a time. An ESC
 * inside a string is held back and fed together with the byte after it:
 * libvterm 0.1.4 computes the string's length as -1, and reads past the
 * buffer, when a write starts right after that ESC or a NUL or DEL lies
 * between the ESC and its '\\' (found by fuzzing). NUL, DEL and other C0
 * controls after a held ESC are dropped.
 */
static enum vtf_action
vtf_track(struct lz_vtfilter *f, unsigned char c)
{
	if (f->held_esc) {
		if (c == 0x00 || c == 0x7f || (c < 0x20 && c != 0x18 &&
		    c != 0x1a && c != 0x1b))
			return VTF_SKIP;
		f->held_esc = 0;
		f->pair = 1;
		f->state = VTF_STRING_ESC;
	}
	if (f->discard) {
		/* ESC, CAN and SUB start over as libvterm would. */
		if (c != 0x1b && c != 0x18 && c != 0x1a) {
			if (c < 0x20 || c == 0x7f)
				return VTF_SKIP;
			if (f->state == VTF_CSI_ARGS && ((c >= '0' &&
			    c <= '9') || c == ':' || c == ';'))
				return VTF_SKIP;
			if (c >= 0x20 && c <= 0x2f) {
				f->state = VTF_CSI_INTERMED;
				return VTF_SKIP;
			}
			/* The final (or an invalid) byte ends it. */
			f->state = VTF_GROUND;
			f->discard = 0;
			return VTF_SKIP;
		}
		f->discard = 0;
	}
	if (c == 0x00 || c == 0x7f)
		return VTF_PASS;
	if (c == 0x18 || c == 0x1a) {
		f->state = VTF_GROUND;
		f->sync_can = 1;
		f->sync_byte = c;
		return VTF_SYNC;
	}
	if (c == 0x1b) {
		if (f->state == VTF_STRING) {
			f->held_esc = 1;
			return VTF_SKIP;
		}
		f->state = VTF_ESC;
		return VTF_PASS;
	}
	if (c == 0x07 && f->state == VTF_STRING) {
		f->state = VTF_GROUND;
		f->strbel = 1;
		return VTF_SYNC;
	}
	if (c < 0x20)
		return VTF_PASS;	/* executed in place, state unchanged */

	switch (f->state) {
	case VTF_STRING_ESC:
		if (c == '\\') {
			f->state = VTF_GROUND;
			f->strbel = 0;
			return VTF_SYNC;
		}
		f->state = VTF_ESC;
		/* FALLTHROUGH */
	case VTF_ESC:
		if (c == 'P' || c == ']') {
			f->state = VTF_STRING;
			f->strlen = 0;
			f->strlong = 0;
		} else if (c == '[') {
			f->state = VTF_CSI_LEADER;
			f->nsep = f->ndigit = 0;
			f->rawlen = 0;
			f->rawlong = 0;
		} else if ((c >= 0x20 && c <= 0x2f) || c >= 0x80)
			;	/* intermediate, or ignored: still ESC */
		else
			f->state = VTF_GROUND;
		return VTF_PASS;
	case VTF_CSI_LEADER:
		if (c >= 0x3c && c <= 0x3f)
			return vtf_raw(f, c, VTF_PASS);
		f->state = VTF_CSI_ARGS;
		/* FALLTHROUGH */
	case VTF_CSI_ARGS:
		if (c >= '0' && c <= '9') {
			if (++f->ndigit > VTF_CSI_DIGIT_MAX)
				goto overlong;
			return vtf_raw(f, c, VTF_PASS);
		}
		if (c == ':' || c == ';') {
			if (++f->nsep > VTF_CSI_SEP_MAX)
				goto overlong;
			f->ndigit = 0;
			return vtf_raw(f, c, VTF_PASS);
		}
		f->state = VTF_CSI_INTERMED;
		/* FALLTHROUGH */
	case VTF_CSI_INTERMED:
		if (c >= 0x20 && c <= 0x2f)
			return vtf_raw(f, c, VTF_PASS);
		f->state = VTF_GROUND;
		/* The final byte: libvterm calls back now, with raw complete. */
		if (c >= 0x40 && c <= 0x7e)
			return vtf_raw(f, c, VTF_SYNC);
		return VTF_PASS;
	case VTF_STRING:
		if (f->strlen < sizeof f->str)
			f->str[f->strlen++] = (char)c;
		else
			f->strlong = 1;
		return VTF_PASS;
	case VTF_GROUND:
		return VTF_PASS;
	}
	return VTF_PASS;
overlong:
	f->st.overlong++;
	f->discard = 1;
	return VTF_CANCEL;
}

/* Records byte c of a CSI and returns action. */
static enum vtf_action
vtf_raw(struct lz_vtfilter *f, unsigned char c, enum vtf_action action)
{
	if (f->rawlen < sizeof f->raw)
		f->raw[f->rawlen++] = (char)c;
	else
		f->rawlong = 1;
	return action;
}

/* Text: everything up to the next C0 control or DEL. */
static int
vtf_text(const char *bytes, size_t len, void *user)
{
	struct lz_vtfilter *f = user;
	size_t i = 0, run;
	unsigned char c;

	while (i < len) {
		c = (unsigned char)bytes[i];
		if (c < 0x20 || c == 0x7f)
			break;
		if (!f->swallow && c < 0x80 && f->u8need == 0) {
			/* A run of printable ASCII goes out in one piece. */
			for (run = i + 1; run < len &&
			    (unsigned char)bytes[run] >= 0x20 &&
			    (unsigned char)bytes[run] < 0x7f; run++)
				;
			lz_buf_add(&f->obuf, bytes + i, run - i);
			i = run;
			continue;
		}
		if (!f->swallow)
			vtf_u8_byte(f, c);
		i++;
	}
	return (int)i;
}

/*
 * One byte of text through a UTF-8 validator (RFC 3629 ranges): complete
 * characters are emitted as they were, anything else as U+FFFD.
 */
static void
vtf_u8_byte(struct lz_vtfilter *f, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (f->u8need == 0) {
		if (c < 0x80) {
			lz_buf_addch(&f->obuf, (char)c);
			return;
		}
		if (c >= 0xc2 && c <= 0xdf)
			f->u8need = 2;
		else if (c >= 0xe0 && c <= 0xef)
			f->u8need = 3;
		else if (c >= 0xf0 && c <= 0xf4)
			f->u8need = 4;
		else {
			f->st.utf8++;
			lz_buf_adds(&f->obuf, "\xef\xbf\xbd");
			return;
		}
		f->u8[0] = c;
		f->u8len = 1;
		return;
	}
	if (f->u8len == 1) {
		switch (f->u8[0]) {
		case 0xe0: lo = 0xa0; break;
		case 0xed: hi = 0x9f; break;
		case 0xf0: lo = 0x90; break;
		case 0xf4: hi = 0x8f; break;
		}
	}
	if (c < lo || c > hi) {
		vtf_u8_flush(f);
		vtf_u8_byte(f, c);
		return;
	}
	f->u8[f->u8len++] = c;
	if (f->u8len == f->u8need) {
		lz_buf_add(&f->obuf, f->u8, f->u8len);
		f->u8len = f->u8need = 0;
	}
}

/* An incomplete character before anything that is not text: U+FFFD. */
static void
vtf_u8_flush(struct lz_vtfilter *f)
{
	if (f->u8need == 0)
		return;
	f->st.utf8++;
	lz_buf_adds(&f->obuf, "\xef\xbf\xbd");
	f->u8len = f->u8need = 0;
}

static int
vtf_control(unsigned char c, void *user)
{
	struct lz_vtfilter *f = user;

	vtf_u8_flush(f);
	if (c < 0x20) {
		if (f->swallow)
			return 1;
		if (c == 0x05) {	/* ENQ: answerback */
			f->st.query++;
			return 1;
		}
		lz_buf_addch(&f->obuf, (char)c);
		return 1;
	}
	/* 0x80-0x9f: libvterm's name for ESC 0x40-0x5f. */
	switch (c) {
	case 0x9c:		/* ST: ends APC, PM, SOS */
		if (f->swallow) {
			f->swallow = 0;
			return 1;
		}
		break;
	case 0x98:		/* SOS */
	case 0x9e:		/* PM */
	case 0x9f:		/* APC */
		f->swallow = 1;
		f->st.apc++;
		return 1;
	case 0x9a:		/* DECID */
		f->swallow = 0;
		f->st.query++;
		return 1;
	}
	f->swallow = 0;
	lz_buf_addch(&f->obuf, '\033');
	lz_buf_addch(&f->obuf, (char)(c - 0x40));
	return 1;
}

static int
vtf_escape(const char *bytes, size_t len, void *user)
{
	struct lz_vtfilter *f = user;

	vtf_u8_flush(f);
	f->swallow = 0;
	lz_buf_addch(&f->obuf, '\033');
	lz_buf_add(&f->obuf, bytes, len);
	return 1;
}

/* 1 when the CSI makes the terminal answer or moves its window. */
static int
vtf_csi_drop(struct lz_vtfilter *f, const char *leader, const long args[],
    int argcount, const char *intermed, char command)
{
	char l = leader != NULL ? leader[0] : '\0';
	char i = intermed != NULL ? intermed[0] : '\0';
	long a0;

	if (i == '\0') {
		switch (command) {
		case 'c':		/* DA1, DA2, DA3 */
			goto query;
		case 'n':		/* DSR, DEC DSR */
			if (l == '\0' || l == '?')
				goto query;
			return 0;
		case 'x':		/* DECREQTPARM */
			if (l == '\0')
				goto query;
			return 0;
		case 'q':		/* XTVERSION */
			if (l == '>')
				goto query;
			return 0;
		case 'S':		/* XTSMGRAPHICS */
		case 'm':		/* XTQMODKEYS */
		case 'u':		/* kitty keyboard flags */
			if (l == '?')
				goto query;
			return 0;
		case 't':
			if (l != '\0')
				return 0;
			a0 = argcount > 0 ? CSI_ARG(args[0]) : CSI_ARG_MISSING;
			if (a0 == 22 || a0 == 23)
				return 0;	/* title stack */
			if (a0 >= 11 && a0 <= 21)
				goto query;
			f->st.window++;
			return 1;
		}
		return 0;
	}
	if ((i == '$' && (command == 'p' || command == 'u' ||
	    command == 'w')) || (i == '*' && command == 'y') ||
	    ((i == '\'' || i == '#') && command == '|'))
		goto query;
	return 0;
query:
	f->st.query++;
	return 1;
}

/*
 * A kept CSI is rebuilt from libvterm's parse (canonical form: parameters
 * without leading zeros) and emitted as its raw bytes when those say the
 * same, so "01;34" stays "01;34" and what is emitted always means what was
 * judged.
 */
static int
vtf_csi(const char *leader, const long args[], int argcount,
    const char *intermed, char command, void *user)
{
	struct lz_vtfilter *f = user;
	char canon[VTF_CSI_CANON_MAX];
	size_t n = 0;
	int i;

	vtf_u8_flush(f);
	f->swallow = 0;
	if (f->rawlong || (leader != NULL && leader[1] != '\0') ||
	    (intermed != NULL && intermed[1] != '\0') ||
	    argcount > VTF_CSI_SEP_MAX + 1) {
		/* Terminals disagree on these: judged unsafe. */
		f->st.malformed++;
		return 1;
	}
	if (vtf_csi_drop(f, leader, args, argcount, intermed, command))
		return 1;
	/* A CSI per cell is common (colours): no allocation, no printf. */
	if (leader != NULL && leader[0] != '\0')
		canon[n++] = leader[0];
	for (i = 0; i < argcount; i++) {
		if (!CSI_ARG_IS_MISSING(args[i]))
			n += vtf_decimal(canon + n, CSI_ARG(args[i]));
		if (i + 1 < argcount)
			canon[n++] = CSI_ARG_HAS_MORE(args[i]) ? ':' : ';';
	}
	if (intermed != NULL && intermed[0] != '\0')
		canon[n++] = intermed[0];
	canon[n++] = command;
	lz_buf_add(&f->obuf, "\033[", 2);
	if (vtf_raw_matches(f, canon, n))
		lz_buf_add(&f->obuf, f->raw, f->rawlen);
	else
		lz_buf_add(&f->obuf, canon, n);
	return 1;
}

/* The decimal digits of v (0 <= v < 2^31) at p; returns how many. */
static size_t
vtf_decimal(char *p, long v)
{
	char t[VTF_DECIMAL_MAX];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && n < sizeof t);
	for (i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

/* 1 when the recorded raw CSI is canon once leading zeros are dropped. */
static int
vtf_raw_matches(const struct lz_vtfilter *f, const char *canon, size_t len)
{
	size_t i, j = 0;
	int indigits = 0;
	char c;

	for (i = 0; i < f->rawlen; i++) {
		c = f->raw[i];
		if (c >= '0' && c <= '9') {
			if (!indigits && c == '0' && i + 1 < f->rawlen &&
			    f->raw[i + 1] >= '0' && f->raw[i + 1] <= '9')
				continue;
			indigits = 1;
		} else
			indigits = 0;
		if (j >= len || canon[j] != c)
			return 0;
		j++;
	}
	return j == len;
}

/*
 * OSC: the payload is the tracker's copy (f->str), complete even when it
 * came in several writes; libvterm's argument is only the last part.
 */
static int
vtf_osc(const char *command, size_t cmdlen, void *user)
{
	struct lz_vtfilter *f = user;
	const char *p = f->str, *end = f->str + f->strlen;
	long n = 0;
	int digits = 0, reset;
	size_t k;

	(void)command;
	(void)cmdlen;
	vtf_u8_flush(f);
	f->swallow = 0;
	while (p < end && *p >= '0' && *p <= '9' && digits < 6) {
		n = n * 10 + (*p++ - '0');
		digits++;
	}
	if (digits == 0 || (p < end && *p != ';')) {
		f->st.osc++;
		return 1;
	}
	switch (n) {
	case 52:
		f->st.clipboard++;
		return 1;
	case 0:
	case 1:
	case 2:
		f->st.title++;
		return 1;
	case 4: case 10: case 11: case 12: case 17: case 19:
		reset = 0;
		break;
	case 104: case 110: case 111: case 112:
		reset = 1;
		break;
	default:
		f->st.osc++;
		return 1;
	}
	if (f->strlong || (!reset && p == end)) {
		f->st.osc++;
		return 1;
	}
	for (k = 0; k < f->strlen; k++) {
		if (f->str[k] < 0x20 || f->str[k] > 0x7e || f->str[k] == '?') {
			f->st.osc++;
			return 1;
		}
	}
	lz_buf_adds(&f->obuf, "\033]");
	lz_buf_add(&f->obuf, f->str, f->strlen);
	lz_buf_adds(&f->obuf, f->strbel ? "\007" : "\033\\");
	return 1;
}

static int
vtf_dcs(const char *command, size_t cmdlen, void *user)
{
	struct lz_vtfilter *f = user;

	(void)command;
	(void)cmdlen;
	vtf_u8_flush(f);
	f->swallow = 0;
	f->st.dcs++;
	return 1;
}
