/*
 * vtfilter.h: the output filter between sandbox output and the host
 * terminal (DESIGN.md "Terminals"). Raw sessions (`lazaret run`,
 * `lazaret attach --raw`) put every byte the sandbox writes through it
 * before it reaches the host terminal. The multiplexer does not: its panes
 * (ui/pane.h) are fed the raw bytes, because they must see the queries
 * this filter drops in order to answer them, and the TUI writes only cells
 * to the host terminal, never sandbox bytes. It is built on libvterm
 * 0.1.4's parser layer; it keeps no screen.
 *
 * Policy. Kept units are re-emitted byte for byte (see "Exactness" below);
 * dropped ones vanish whole, and a counter in struct lz_vtfilter_stats says
 * which class they fell in.
 *
 *   Text          passes when it is valid UTF-8. An invalid or truncated
 *                 sequence becomes U+FFFD (EF BF BD), so no byte in
 *                 0x80-0x9f ever leaves except inside a complete UTF-8
 *                 character: a terminal that takes 8-bit C1 controls cannot
 *                 be handed a CSI that way. The filter assumes the host
 *                 terminal runs in UTF-8.
 *   C0 controls   pass, except ENQ (0x05: answerback) which is dropped. NUL
 *                 and DEL are eaten by libvterm's parser (terminals ignore
 *                 them too).
 *   ESC sequences pass (ESC 7, ESC ( B, ESC M, ESC # 8, ESC c ...), except
 *                 DECID (ESC Z), which makes the terminal answer.
 *   CSI           pass, except those that make the terminal answer:
 *                 DA1/DA2/DA3 (CSI c, CSI > c, CSI = c), DSR and DEC DSR
 *                 (CSI n, CSI ? n; CSI > n sets key modifiers and passes),
 *                 DECRQM (CSI $ p, CSI ? $ p), DECREQTPARM (CSI x),
 *                 XTVERSION (CSI > q), XTSMGRAPHICS (CSI ? S), XTQMODKEYS
 *                 (CSI ? m), kitty keyboard query (CSI ? u), DECRQTSR
 *                 (CSI $ u), DECRQPSR (CSI $ w), DECRQCRA (CSI * y: it
 *                 would read the host screen), DECRQLP (CSI ' |) and
 *                 XTREPORTSGR (CSI # |).
 *                 Window operations (CSI Ps t, no leader or intermediate)
 *                 are all dropped (reports 11-21 and the moves, resizes,
 *                 raises and iconifies of 1-9 and 24+), except 22 and 23,
 *                 push and pop of the title stack, which vim uses and which
 *                 can only restore a title the host set, since every title
 *                 change from the sandbox is dropped.
 *                 A CSI with more than 16 parameters, or a parameter of
 *                 more than 9 digits, is dropped whole ("overlong"):
 *                 libvterm 0.1.4 writes past its argument array on the
 *                 17th parameter (a crash, seen here), so the filter
 *                 cancels such a CSI before libvterm sees the rest. A CSI
 *                 with several leader bytes (CSI ? > c) or several
 *                 intermediates is dropped too ("malformed"): terminals
 *                 disagree on what it means.
 *   OSC           dropped, except colour sets and resets: 4, 10, 11, 12, 17
 *                 and 19 whose payload holds no '?' (a '?' is a query, which
 *                 the terminal answers) and 104, 110, 111, 112. Such a kept
 *                 OSC must be printable ASCII and at most
 *                 LZ_VTFILTER_OSC_MAX bytes. Dropped, with their own
 *                 counters: 52 (clipboard), 0/1/2 (title and icon name);
 *                 and as "osc": 7 (cwd), 8 (hyperlinks: the visible text
 *                 passes, the link target does not, so a link cannot point
 *                 somewhere other than it reads), 9 and 777
 *                 (notifications), colour queries and every unknown OSC.
 *                 A kept OSC keeps its terminator (BEL or ESC \).
 *   DCS           all dropped (DECRQSS "DCS $ q", XTGETTCAP "DCS + q",
 *                 sixel, tmux passthrough, ...).
 *   APC, PM, SOS  dropped with everything up to their end: ST (ESC \),
 *                 CAN or SUB, or any new ESC sequence (which the host
 *                 terminal would also take as the end).
 *
 * Mouse and focus reporting modes (CSI ? 1000 h ...) pass: the terminal
 * then sends events on user input, which the sandbox program asked for.
 * Colour sets pass, so a raw session should reset colours (OSC 104, 110,
 * 111, 112) when it ends.
 *
 * Exactness. A kept unit is re-emitted byte for byte: a CSI as the raw
 * bytes that came in (checked against libvterm's parse, so what is sent is
 * what was judged), an OSC with its own terminator (BEL or ESC \). What
 * changes: NUL and DEL vanish; a C0 control inside an escape sequence or
 * string comes out before it (libvterm executes it there, and so does a
 * terminal); invalid UTF-8 becomes U+FFFD. Sequences split across
 * lz_vtfilter_feed calls, down to one byte a call, work: the parser keeps
 * its state, and the filter keeps the CSI and OSC bytes itself, because
 * libvterm 0.1.4 loses the parts of a string that came in earlier writes.
 */
#ifndef LZ_VTFILTER_H
#define LZ_VTFILTER_H

#include <stddef.h>

/* The longest OSC payload kept; a longer one is dropped as "osc". */
#define LZ_VTFILTER_OSC_MAX 512

/* What was dropped, for tests and diagnostics ("lazaret doctor"). */
struct lz_vtfilter_stats {
	unsigned long query;		/* would make the terminal answer */
	unsigned long window;		/* window operations (CSI t) */
	unsigned long clipboard;	/* OSC 52 */
	unsigned long title;		/* OSC 0, 1, 2 */
	unsigned long osc;		/* every other dropped OSC */
	unsigned long dcs;		/* every DCS */
	unsigned long apc;		/* APC, PM and SOS strings */
	unsigned long overlong;		/* CSI: > 16 parameters, or > 9 digits */
	unsigned long malformed;	/* CSI: several leaders or intermediates */
	unsigned long utf8;		/* invalid UTF-8 replaced by U+FFFD */
};

struct lz_vtfilter;

/*
 * Makes a filter that hands what it keeps to out(buf, len, user). out is
 * called only from inside lz_vtfilter_feed, at most once per call, with
 * len > 0; it must not call back into the filter.
 */
struct lz_vtfilter *lz_vtfilter_new(void (*out)(const char *buf, size_t len,
    void *user), void *user);
/* Filters len bytes of sandbox output. Never fails. */
void lz_vtfilter_feed(struct lz_vtfilter *f, const char *buf, size_t len);
/* Counters so far. */
const struct lz_vtfilter_stats *lz_vtfilter_stats(const struct lz_vtfilter *f);
/* The sum of all counters. */
unsigned long lz_vtfilter_dropped(const struct lz_vtfilter *f);
/* Frees f; an incomplete sequence or UTF-8 character is discarded. */
void lz_vtfilter_free(struct lz_vtfilter *f);

#endif
