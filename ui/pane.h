/*
 * pane.h: the pane emulator. One per Client Session, kept by the
 * coordinator (so a detached session keeps its screen) and read by the
 * renderer. It runs libvterm 0.1.4's state layer (parser, cursor, modes,
 * pen) with a grid and scrollback of the project's own (ui/grid.h): the
 * stock screen layer moves the whole buffer per scrolled line, the state
 * layer with row-pointer scrolling is several times faster (figures in
 * docs/journal.md). No ncurses, no I/O: bytes in, cells and callbacks out.
 *
 * Input. lz_pane_feed takes the raw bytes a session's pty produced, in any
 * chunking. A guard of its own runs in step with libvterm's parser and keeps
 * libvterm 0.1.4's faults away (see ui/vtfilter.h for the first two):
 *  - a CSI with more than 16 parameters or a parameter of more than 9
 *    digits is cancelled (libvterm writes past its argument array);
 *  - strings (OSC, DCS, APC, PM, SOS) never reach libvterm in pieces: the
 *    guard collects each one (at most LZ_PANE_STRING_MAX bytes, longer ones
 *    are dropped) and handles OSC itself; a DCS goes to libvterm whole in
 *    one write, and only when it is a DECRQSS libvterm answers (m, r, s,
 *    SP q, " q: its answer to any other reads a bad pointer, a crash seen
 *    here); APC, PM, SOS and every other DCS are dropped;
 *  - libvterm is written at most LZ_PANE_WRITE_MAX bytes at a time (its
 *    text path keeps an array the size of the write on the stack);
 *  - C1 controls encoded as UTF-8 (U+0080-U+009F: libvterm gives them width
 *    -1) are dropped;
 *  - a combining mark that joins the last glyph (the cursor stands right
 *    after it) is joined by the guard, not libvterm, which would keep
 *    every mark of a run across writes in a buffer it doubles and rescans
 *    (without bound); the result is libvterm's: the glyph put again, with
 *    the current pen, the marks after the third dropped;
 *  - REP (CSI b) prints the last glyph again, Ps times but at most to the
 *    right edge (as tmux), as text: libvterm 0.1.4 steps it without wrap
 *    and loops forever when its width is 0 (REP is then cancelled);
 *  - a DECSET/DECRST or SM/RM with several modes (CSI ? 12 ; 25 h) is
 *    written to libvterm one mode at a time (0.1.4 acts on the first only);
 *  - DECALN (ESC # 8) does what xterm does (origin mode off, margins and
 *    pen reset, single-width lines, unprotected E, cursor home); libvterm
 *    only fills, with the current pen, and leaves the cursor;
 *  - after a cursor restore the cursor is clamped into the screen, and
 *    into the margins in origin mode (libvterm does not clamp the saved
 *    cursor on resize, nor save DECOM with it).
 * So any bytes are safe to feed, and a pane is never fed the host output
 * filter's output (that filter drops the queries a pane must answer).
 *
 * What the pane implements: UTF-8; wide characters (a head cell and a
 * continuation cell, LZ_CELL_CONT) and combining marks (up to three per
 * cell; more are dropped); 16, 256 and 24-bit colour; bold, italic,
 * underline (single, double, curly), blink, reverse, strike (libvterm
 * 0.1.4 has no faint, conceal or overline); the alternate screen (1047,
 * 1049: entering clears it, leaving restores the primary screen and, for
 * 1049, the cursor; the alternate screen never feeds scrollback); scroll
 * regions (DECSTBM) and left/right margins (DECSLRM under DECLRMM, ?69);
 * insert/delete of characters and lines; cursor visibility and shape;
 * DECSCNM reverse screen; tab stops.
 *
 * Answers (pane-report.c): DA1, DA2, DSR 5 and DECRQSS are libvterm's;
 * the pane answers the rest itself: DSR 6 and DECXCPR (from the margins
 * in origin mode, as xterm), DECRQM for every mode it has, ANSI and DEC
 * (2026 included: synchronized output is advertised), window reports CSI
 * 11, 14, 15, 16, 18 and 19 t (the pane is the window and the screen;
 * pixels from the host's cell size), XTVERSION (lazaret(VERSION)), DA3,
 * and the colour queries OSC 4, 10, 11 and 12 (from lz_pane_host, or what
 * the program set with OSC 4, 10-12 until 104, 110-112 or RIS). Other
 * window operations are dropped. S8C1T makes every answer 8-bit.
 *
 * Modes the renderer and key encoder need are recorded in struct
 * lz_pane_props; the pane only records them. Synchronized output (?2026) is
 * recorded and advertised (DECRQM answers it, terminfo claims Sync): a
 * renderer honours it, holding frames only for a bounded time.
 *
 * OSC: 0 and 2 set the title (stored sanitised, at most LZ_PANE_TITLE_MAX
 * bytes; never forwarded anywhere by the pane); 8 opens and closes a
 * hyperlink (pane-link.c: the cells keep its number, lz_pane_link gives
 * its URI; at most 255 links a pane, URIs of printable ASCII only); colour
 * sets, resets and queries are pane-report.c's; 1 (icon name), 52
 * (clipboard) and every other OSC are dropped and counted in
 * lz_pane_props.dropped_osc.
 *
 * Resize reflows the primary screen and the scrollback when the width
 * changes (issue 18, as tmux does): the pane records where libvterm
 * wrapped text (soft wraps, lz_pane_wrapped), and lines are rejoined
 * there and wrapped again at the new width (lz_grid_reflow: wide
 * characters never split, pen and links kept, hard line ends kept), the
 * last rows becoming the screen, the rest the scrollback (whose caps then
 * drop the oldest rows). The cursor stays on its character, with
 * libvterm's pending wrap put back when it stands past a full row's last
 * one; the last glyph (what marks join) moves with its character, and
 * so, while the alternate screen is on, do the primary screen's cursor
 * and the save slot ?1049 restores it from. The alternate screen is not
 * reflowed: its columns are cut or padded on the right. Then, when rows
 * shrink, the rows above the cursor go to scrollback (primary screen) so
 * the cursor's row stays, and the rest are cut at the bottom; when rows
 * grow, lines come back from scrollback (primary screen) as far as there
 * are any, and blank rows fill the rest at the bottom. Every resize
 * resets the scroll region and margins (as xterm).
 *
 * Memory bound of one pane: a grid of rows x cols cells of 28 bytes
 * (rows <= LZ_PANE_MAX_ROWS, cols <= LZ_PANE_MAX_COLS), a second one
 * while the alternate screen is shown (made on entry, freed on exit: its
 * entry clears it anyway), the scrollback
 * (at most LZ_PANE_SB_MAX_LINES lines and LZ_PANE_SB_MAX_BYTES bytes of
 * encoded lines, plus 8 bytes a line of ring and up to three 64 KiB
 * blocks' slack, see grid.h), the title and string buffers and libvterm's
 * own state (a few KiB).
 */
#ifndef LZ_PANE_H
#define LZ_PANE_H

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"
#include "ui/grid.h"

#define LZ_PANE_MAX_ROWS 1000
#define LZ_PANE_MAX_COLS 1000
_Static_assert(LZ_PANE_MAX_COLS <= LZ_SB_MAX_COLS,
    "a row of the widest pane fits a scrollback line");
/* A larger scrollback_lines is clamped to this. */
#define LZ_PANE_SB_MAX_LINES 1000000
/* Encoded scrollback bytes: the oldest lines go past this. */
#define LZ_PANE_SB_MAX_BYTES (32u << 20)
#define LZ_PANE_TITLE_MAX 256
#define LZ_PANE_STRING_MAX 1024
#define LZ_PANE_WRITE_MAX 4096

/* lz_pane_dirty bits. */
#define LZ_PANE_DIRTY_CELLS 0x01	/* some row changed: see row_dirty */
#define LZ_PANE_DIRTY_CURSOR 0x02	/* cursor moved or changed look */
#define LZ_PANE_DIRTY_PROPS 0x04	/* title, modes or screen changed */
#define LZ_PANE_DIRTY_BELL 0x08		/* the bell rang */

enum lz_pane_cursor_shape {
	LZ_CURSOR_BLOCK = 1,
	LZ_CURSOR_UNDERLINE,
	LZ_CURSOR_BAR,
};

/* Mouse tracking (?9, ?1000, ?1002, ?1003) and encoding (?1005/6, 1015). */
enum lz_pane_mouse {
	LZ_MOUSE_NONE = 0,
	LZ_MOUSE_X10 = 9,
	LZ_MOUSE_CLICK = 1000,
	LZ_MOUSE_DRAG = 1002,
	LZ_MOUSE_MOVE = 1003,
};
enum lz_pane_mouse_enc {
	LZ_MOUSE_ENC_X10 = 0,
	LZ_MOUSE_ENC_UTF8 = 1005,
	LZ_MOUSE_ENC_SGR = 1006,
	LZ_MOUSE_ENC_URXVT = 1015,
};

/* What the renderer and the key encoder need to know. */
struct lz_pane_props {
	int cursor_row, cursor_col;	/* 0-based, inside the screen */
	int cursor_visible;		/* ?25 */
	int cursor_blink;		/* ?12, DECSCUSR */
	int cursor_shape;		/* enum lz_pane_cursor_shape */
	int altscreen;			/* the alternate screen is shown */
	int reverse;			/* DECSCNM (?5) */
	int app_cursor;			/* DECCKM (?1) */
	int app_keypad;			/* DECKPAM (ESC =) or DECNKM (?66) */
	int bracketed_paste;		/* ?2004 */
	int mouse;			/* enum lz_pane_mouse */
	int mouse_enc;			/* enum lz_pane_mouse_enc */
	int focus_events;		/* ?1004 */
	int sync;			/* ?2026 set (see above) */
	unsigned long bells;		/* BEL count since lz_pane_new */
	unsigned long dropped_osc;	/* OSC the pane does not keep */
	unsigned long dropped_links;	/* OSC 8 past 255 links, or bad */
	unsigned long dropped_strings;	/* DCS/APC/PM/SOS dropped, overlong */
	unsigned long cancelled_csi;	/* CSI cut by the guard */
};

struct lz_pane_cb {
	/*
	 * Answers the pane gives the program (DA, DSR cursor position,
	 * DECRQM, DECRQSS): write them to the session's pty. Called from
	 * inside lz_pane_feed, at most once per call, len > 0.
	 */
	void (*reply)(const char *buf, size_t len, void *user);
	/*
	 * The pane went from clean to dirty (lz_pane_dirty() was 0): schedule
	 * one redraw for the next frame. Called from inside lz_pane_feed or
	 * lz_pane_resize, at most once until lz_pane_clear_dirty.
	 */
	void (*damage)(void *user);
};

/*
 * The host terminal a client shows the pane on, for the answers to a
 * program's queries (colours, cell size in pixels). A new pane has
 * lz_pane_host_default's: xterm's 16 colours, foreground and cursor
 * #e5e5e5 on #000000, cells of 8x16 pixels.
 */
struct lz_pane_host {
	uint32_t fg, bg, cursor;	/* 0xRRGGBB */
	uint32_t palette[16];		/* ANSI colours 0-15 */
	unsigned cell_w, cell_h;	/* pixels; 0: the default's */
};

struct lz_pane;

/*
 * Makes a pane of rows x cols (clamped to 1..LZ_PANE_MAX_ROWS/COLS) with a
 * scrollback of scrollback_lines (clamped to LZ_PANE_SB_MAX_LINES; 0 for
 * none). cb may be NULL, as may each of its members; cb is copied. Aborts
 * only on out-of-memory.
 */
struct lz_pane *lz_pane_new(unsigned rows, unsigned cols,
    size_t scrollback_lines, const struct lz_pane_cb *cb, void *user);
void lz_pane_free(struct lz_pane *p);
/* Feeds len bytes of pty output. Never fails. Callbacks must not re-enter. */
void lz_pane_feed(struct lz_pane *p, const char *buf, size_t len);
/* Resizes (clamped as in lz_pane_new); see "Resize" above. */
void lz_pane_resize(struct lz_pane *p, unsigned rows, unsigned cols);
/*
 * The fast path (on in a new pane): the pane takes text, the C0
 * controls, SGR, cursor moves, erases and scrolls itself, with libvterm's
 * rules, and leaves the rest to libvterm (pane-fast.c). Off, every byte
 * goes through libvterm: the reference the fast path is tested against
 * (tests/fuzz/fuzz-fast.c) and the "before" of the benches. Either way
 * the pane shows the same.
 */
void lz_pane_set_fast(struct lz_pane *p, int on);
unsigned lz_pane_rows(const struct lz_pane *p);
unsigned lz_pane_cols(const struct lz_pane *p);

/* The visible cell at (row, col), or NULL out of range. */
const struct lz_cell *lz_pane_cell(const struct lz_pane *p, int row, int col);
/* Lines in scrollback; line 0 is the one just above the screen. */
size_t lz_pane_scrollback_lines(const struct lz_pane *p);
/* Encoded bytes held by the scrollback (see grid.h). */
size_t lz_pane_scrollback_bytes(const struct lz_pane *p);
/*
 * Cell col of scrollback line (0 = newest), NULL when out of range;
 * beyond the line's stored width it is blank. Valid until the next call
 * into the pane.
 */
const struct lz_cell *lz_pane_scrollback_cell(const struct lz_pane *p,
    size_t line, int col);
/*
 * Whether the screen's row was soft-wrapped into the next one (libvterm
 * wrapped text there), and whether scrollback line (0 = newest) was, into
 * the next newer one or, for line 0, the screen's top row.
 */
int lz_pane_wrapped(const struct lz_pane *p, int row);
int lz_pane_scrollback_wrapped(const struct lz_pane *p, size_t line);
/*
 * Appends the text of a screen row (line >= 0) or of scrollback line
 * -1 - line as UTF-8 to out: blanks as spaces, trailing blanks dropped,
 * continuation cells skipped. For tests, copy and search.
 */
void lz_pane_line_text(const struct lz_pane *p, long line, struct lz_buf *out);

const struct lz_pane_props *lz_pane_props(const struct lz_pane *p);

void lz_pane_host_default(struct lz_pane_host *h);
/*
 * Sets what the pane answers for the host (the attaching client's, which
 * replace the previous ones) and reads it back. Colours 16-255 are
 * xterm's cube and grey ramp; a program's own colour sets (OSC 4, 10-12)
 * come first until it resets them.
 */
void lz_pane_set_host(struct lz_pane *p, const struct lz_pane_host *h);
const struct lz_pane_host *lz_pane_host(const struct lz_pane *p);
/*
 * A colour as xterm's XParseColor reads one: rgb:R/G/B with 1 to 4 hex
 * digits each (scaled), or #RGB to #RRRRGGGGBBBB (high bits). Returns 0
 * with *rgb = 0xRRGGBB, or -1 (names are not known).
 */
int lz_pane_parse_color(const char *s, size_t n, uint32_t *rgb);
/* The window title ("" if none): sanitised UTF-8, no control characters. */
const char *lz_pane_title(const struct lz_pane *p);
/* The URI of the pane's link k (a cell's LZ_ATTR_LINK), or NULL. */
const char *lz_pane_link(const struct lz_pane *p, int k);

/*
 * Damage: LZ_PANE_DIRTY_* bits since the last lz_pane_clear_dirty, and
 * whether a row changed. A flood of output sets bits, it queues nothing, so
 * the renderer draws once per frame whatever came in between.
 */
unsigned lz_pane_dirty(const struct lz_pane *p);
int lz_pane_row_dirty(const struct lz_pane *p, int row);
/* Lines scrolled up on the visible screen since the last clear. */
unsigned long lz_pane_scrolled(const struct lz_pane *p);
void lz_pane_clear_dirty(struct lz_pane *p);

/*
 * Appends a snapshot of the pane: an ANSI stream that takes a new pane of
 * the same size (or one reset with lz_pane_restore_begin) to the same
 * state, so that feeding both the same bytes afterwards keeps them the
 * same. It carries the cells of the primary screen and, if it is shown,
 * of the alternate one and which rows were soft-wrapped; line sizes
 * (DECDWL/DECDHL), tab stops, the title, the colours the program set, the
 * save slot (DECSC), scroll region and left/right margins, the last glyph
 * (what REP repeats and a combining mark joins) and the pending wrap,
 * what tells the next wrap from a line feed (soft wraps), origin mode,
 * the cursor, every mode (insert, newline, autowrap,
 * cursor keys, keypad, reverse screen, bracketed paste, mouse tracking and
 * encoding, focus events, synchronized output, left/right margin mode),
 * the cursor's look, DECSCA protection, S8C1T, the pen, the character
 * sets (G0-G3, GL, GR and a pending single shift), and the escape
 * sequence, string or UTF-8 character the pane is in the middle of. Not
 * carried: the scrollback (pane-history.h) and the counters of struct
 * lz_pane_props.
 *
 * Two things only text can set in libvterm, the last glyph and the
 * pending wrap, are written as text between two private strings
 * (APC lazaret;hide / lazaret;show) that keep it off the grid: such a
 * stream must be fed between lz_pane_restore_begin and _end. lz_pane_feed
 * drops the strings and would draw that glyph again at its place.
 */
void lz_pane_render_ansi(const struct lz_pane *p, struct lz_buf *out);
/*
 * Resets p to a new pane's state (same size; the scrollback is kept) and
 * takes the private strings of a snapshot in the feeds that follow, until
 * lz_pane_restore_end. The reset marks everything dirty.
 */
void lz_pane_restore_begin(struct lz_pane *p);
void lz_pane_restore_end(struct lz_pane *p);
/*
 * Appends the SGR that sets this pen and font (SGR 10 + font; 0: the
 * default) from nothing (it resets first): one CSI, or two when one would
 * carry more arguments than libvterm keeps (ui/vtlimits.h).
 */
void lz_pane_sgr(struct lz_buf *out, uint32_t fg, uint32_t bg, uint16_t attr,
    int font);

#endif
