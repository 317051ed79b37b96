/*
 * pane-int.h: the pane emulator's private state, shared by the files that
 * make up ui/pane.h's implementation: pane.c (libvterm's callbacks, the
 * guard, feeding, resizing), pane-snapshot.c (the ANSI snapshot) and
 * pane-report.c (answers to a program's queries). Nothing outside ui/pane*.c
 * includes it.
 *
 * What libvterm 0.1.4 keeps and does not show (scroll region and margins,
 * tab stops, character sets, modes, the saved cursor, the pending wrap)
 * is tracked here as libvterm's own code changes it (state.c of 0.1.4),
 * so that a snapshot can carry it and the answers can report it.
 */
#ifndef LZ_PANE_INT_H
#define LZ_PANE_INT_H

#include <stdint.h>

#include <vterm.h>

#include "ui/grid.h"
#include "ui/pane.h"
#include "ui/vtlimits.h"

/* The guard's bounds on a CSI: libvterm's (vtlimits.h). */
#define G_CSI_SEP_MAX (LZ_VT_CSI_ARGS_MAX - 1)
#define G_CSI_DIGIT_MAX LZ_VT_CSI_DIGIT_MAX
#define G_CSI_BYTES_MAX LZ_VT_CSI_BYTES_MAX
/* The raw bytes of a CSI in progress: leaders, arguments, intermediates. */
#define G_CSI_RAW_MAX (2 * G_CSI_BYTES_MAX + (G_CSI_SEP_MAX + 1) * \
	(G_CSI_DIGIT_MAX + 1))
#define G_DIRTY_WORDS ((LZ_PANE_MAX_ROWS + 63) / 64)
#define G_TAB_BYTES ((LZ_PANE_MAX_COLS + 7) / 8)
/* Code points of the last glyph kept (a cell shows LZ_CELL_CHARS). */
#define G_GLYPH_CHARS LZ_CELL_CHARS

enum g_state {
	G_GROUND,
	G_ESC,
	G_CSI_LEADER,
	G_CSI_ARGS,
	G_CSI_INTERMED,
	G_CSI_DISCARD,		/* cancelled CSI: skip to its final byte */
	G_STRING,
	G_STRING_ESC,
};

enum g_string {
	G_STR_OSC,
	G_STR_DCS,
	G_STR_IGNORE,		/* APC, PM, SOS */
};

/* libvterm's one save slot: DECSC (ESC 7), ?1048h and ?1049h write it. */
struct g_saved {
	int valid;		/* written (state_init writes it at once) */
	int row, col;
	struct lz_pen pen;
	int visible, blink, shape;
};

/*
 * The last glyph libvterm put, where and how wide: what a combining mark
 * joins (when the cursor stands right after it) and what REP repeats.
 * libvterm starts with an empty one at (0, 0) of width 0.
 */
struct g_glyph {
	int row, col;
	int16_t width, nch;		/* nch: code points kept in ch */
	/*
	 * Since this glyph (the glyph fast path stores 0 with width and
	 * nch, one constant): up-scrolls (low byte, G_SINCE_SCROLLS) and,
	 * from a cursor move on, G_SINCE_MOVED (the scrolls counted from
	 * there): what tells a glyph that libvterm wrapped to put it from
	 * one that was put there (pane.c soft_wrap).
	 */
	uint32_t since;
	/*
	 * libvterm's pending wrap (at_phantom), which only a glyph sets: 0
	 * none, 2 set, 1 set if col >= g_term.wrapcol (what the glyph fast
	 * path stores, not knowing wrapcol). lz_pane_wrap reads
	 * it; glyph_mode makes it 0 or 2 before wrapcol changes.
	 */
	int32_t wrap;
	uint32_t ch[G_GLYPH_CHARS];	/* as libvterm has them: no base */
};

/* What libvterm 0.1.4's state layer keeps that the pane must know. */
struct g_term {
	int insert;		/* IRM (4) */
	int newline;		/* LNM (20) */
	int origin;		/* DECOM (?6) */
	int autowrap;		/* DECAWM (?7) */
	int lrmm;		/* DECLRMM (?69) */
	int s8c1t;		/* answers with 8-bit C1 (ESC SP G) */
	int protect;		/* DECSCA: new glyphs are protected */
	/* DECSTBM and DECSLRM as libvterm stores them: -1 is unbounded. */
	int top, bottom, left, right;
	uint8_t tabs[G_TAB_BYTES];
	char gset[4];		/* G0-G3: 'B' (ASCII), '0' (DEC), 'A' (UK) */
	int gl, gr, ss;		/* shifts; ss: a pending SS2 or SS3 */
	struct g_saved saved;
	struct g_glyph lg;
	int dwl;		/* some row was made double width */
	/* For the glyph fast path (glyph_mode): */
	int wrapcol;		/* a glyph here sets the pending wrap */
	int margined;		/* a scroll region or ?69: xterm's moves */
	const unsigned char *plain;	/* pane.c's g_plain or g_plain_lr */
	uint32_t fastmax;	/* c - 1 below it: 0 under DECALN or once */
				/* a line is double width */
	int vrow, vcol;		/* libvterm's cursor, unclamped */
};

/* Colours a program set (OSC 4, 10, 11, 12), for the answers. */
struct g_colors {
	uint32_t pal[256];
	uint8_t set[32];		/* bit i: pal[i] was set */
	uint32_t dyn[3];		/* foreground, background, cursor */
	int dynset;			/* bit k: dyn[k] was set */
};

/*
 * Hyperlinks (OSC 8) the program made: the URL of link i (1-255) is
 * url[i - 1]; the pen's and the cells' attr carry i (LZ_ATTR_LINK). The
 * same URL with the same id parameter is the same link; past 255 links a
 * pane keeps the text and drops the link (counted).
 */
#define G_LINKS 255
struct g_links {
	char *url[G_LINKS];
	char *id[G_LINKS];
	int n;
};

struct lz_pane {
	VTerm *vt;
	VTermState *vts;
	struct lz_pane_cb cb;
	void *user;

	struct lz_grid scr[2];		/* primary, alternate */
	int alt;			/* scr[alt] is shown */
	int rows, cols;
	struct lz_sb sb;
	struct lz_pen pen;
	struct lz_pane_props props;
	char title[LZ_PANE_TITLE_MAX + 1];
	int saved_row, saved_col;	/* primary cursor while alt is on */
	VTermPos resize_delta;
	struct lz_buf reply;
	struct g_term t;
	struct lz_pane_host host;
	struct g_colors colors;
	struct g_links links;

	unsigned dirty;
	uint64_t rowdirty[G_DIRTY_WORDS];
	unsigned long scrolled;

	/* The guard: libvterm's parser state as the guard sees it. */
	enum g_state gs;
	int esc_ninter;
	char esc_inter[G_CSI_BYTES_MAX];
	int csi_leader, csi_nleader, csi_inter, csi_ninter;
	int csi_argi, csi_ndigit;
	long csi_args[G_CSI_SEP_MAX + 1];
	char csi_raw[G_CSI_RAW_MAX];	/* after ESC [, for a snapshot */
	int csi_rawlen;
	enum g_string str_kind;
	char str[LZ_PANE_STRING_MAX];
	size_t str_len;
	int str_long;

	/* UTF-8 of the text, so partial characters can be held or cut. */
	unsigned char u8held[8];	/* part of a character fed before */
	int u8nheld;
	int u8need, u8total;
	uint32_t u8cp;
	size_t u8start;			/* its first byte in this feed's buf */
	int decaln;			/* putglyph calls come from DECALN */
	/*
	 * The glyph a write of stand-ins stands for (pane.c vwrite_glyph):
	 * libvterm's putglyph of it puts these nstand characters instead.
	 */
	uint32_t stand[G_GLYPH_CHARS];
	int nstand;
	int restoring;			/* lz_pane_restore: private strings */
	int hidden;			/* callbacks leave the grid alone */

	/* The feed in progress: buf[seg..] not yet written to libvterm. */
	const char *fbuf;
	size_t fseg;
	/*
	 * The last thing in buf[seg..] that touches the pending wrap is a
	 * cursor move (K_MOVE in pane.c): libvterm clears the wrap there even
	 * where the cursor does not move, which no callback shows.
	 */
	int seg_move;

	/*
	 * The fast path (pane-fast.c): on unless lz_pane_set_fast turned it
	 * off; what libvterm has not seen of its work (G_STALE_*), brought
	 * up to date by lz_pane_vt_sync before libvterm reads a byte.
	 */
	int fast_off;
	unsigned vstale;
	int font;		/* SGR 10-19 as libvterm has it (0: none) */
};

#define G_STALE_POS 1u		/* the cursor and the pending wrap */
#define G_STALE_GLYPH 2u	/* the last glyph (libvterm's combine state) */
#define G_STALE_PEN 4u
#define G_STALE_VISIBLE 8u	/* the cursor's visibility (?25) */

#define G_SINCE_SCROLLS 0xffu
#define G_SINCE_MOVED 0x100u

/* Argument k of the CSI the guard holds, as libvterm's CSI_ARG_OR. */
static inline long
lz_pane_csi_arg(const struct lz_pane *p, int k, long def)
{
	if (k > p->csi_argi || p->csi_args[k] < 0)
		return def;
	return p->csi_args[k];
}

/* Whether libvterm has a pending wrap (see struct g_glyph). */
static inline int
lz_pane_wrap(const struct lz_pane *p)
{
	return p->t.lg.wrap == 2 ||
	    (p->t.lg.wrap == 1 && p->t.lg.col >= p->t.wrapcol);
}

static inline void
lz_pane_mark(struct lz_pane *p, unsigned bits)
{
	p->dirty |= bits;
}

/*
 * Marks one row dirty: the per-glyph case, kept small to inline. No test
 * of r: a row out of range (none is) would set a bit in the bitmap's
 * unused tail, which lz_pane_row_dirty never reads.
 */
static inline void
lz_pane_mark_row(struct lz_pane *p, int r)
{
	p->dirty |= LZ_PANE_DIRTY_CELLS;
	p->rowdirty[((unsigned)r >> 6) % G_DIRTY_WORDS] |= 1ull << (r & 63);
}

/* What the glyph fast path keeps of a glyph (the grid has it). */
static inline void
lz_pane_fast_glyph(struct lz_pane *p, uint32_t c, VTermPos pos)
{
	p->t.lg.row = pos.row;
	p->t.lg.col = pos.col;
	p->t.lg.width = 1;
	p->t.lg.nch = 1;
	p->t.lg.wrap = 1;
	p->t.lg.since = 0;
	p->t.lg.ch[0] = c;
	lz_pane_mark_row(p, pos.row);
}

/* pane.c */
void lz_pane_vwrite(struct lz_pane *p, const char *s, size_t n);
/* Tells libvterm what the fast path did (G_STALE_*), if anything. */
void lz_pane_vt_sync(struct lz_pane *p);
/*
 * libvterm's state callbacks, which the fast path calls as libvterm
 * would (their arguments are libvterm's).
 */
int lz_pane_cb_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user);
int lz_pane_cb_movecursor(VTermPos pos, VTermPos oldpos, int visible,
    void *user);
int lz_pane_cb_scrollrect(VTermRect rect, int downward, int rightward,
    void *user);
int lz_pane_cb_moverect(VTermRect dest, VTermRect src, void *user);
int lz_pane_cb_erase(VTermRect rect, int selective, void *user);
int lz_pane_cb_settermprop(VTermProp prop, VTermValue *val, void *user);
int lz_pane_cb_bell(void *user);
/*
 * Puts a glyph (chars[0..n), base first) at (row, col) with the current
 * pen, as libvterm gives one (width 0: marks alone, a space as base).
 */
void lz_pane_put_chars(struct lz_pane *p, const uint32_t *chars, int n,
    int width, int row, int col, int protect);

/* pane-fast.c */
/* Whether the fast path may take the ground state's bytes now. */
int lz_pane_fast_ok(const struct lz_pane *p);
/*
 * Takes bytes from u[i] on (the guard in its ground state, libvterm's
 * pending bytes written): returns the index of the first it leaves to
 * the guard and libvterm, len when it took them all.
 */
size_t lz_pane_fast(struct lz_pane *p, const unsigned char *u, size_t i,
    size_t len);
int lz_pane_tab_at(const struct lz_pane *p, int col);
/*
 * Whether a combining mark now joins the last glyph (pane.c u8_mark, the
 * fast path's join): the cursor right after it, on it with a pending
 * wrap, or, autowrap off, on its last column at the row's end (xterm).
 */
int lz_pane_joins(const struct lz_pane *p);
/*
 * Autowrap off, a glyph of w columns at the cursor: 1 when it does not
 * fit before the row's end (it is dropped, as tmux does), 2 when it is
 * wide and ends there (the cursor goes to its last column, as in xterm
 * and tmux; libvterm 0.1.4 leaves it on the first), else 0; and 0 with a
 * wrap pending from before autowrap went off (libvterm wraps then).
 */
int lz_pane_nowrap_edge(const struct lz_pane *p, int w);
/* Row width libvterm wraps at: half on a double-width line. */
int lz_pane_row_width(const struct lz_pane *p, int row);

/* pane-report.c */
/* Whether the CSI just parsed is a query the pane answers itself. */
int lz_pane_query_csi(const struct lz_pane *p, unsigned char final);
void lz_pane_answer_csi(struct lz_pane *p, unsigned char final);
/*
 * An OSC (s[0..n), without its introducer) that sets, resets or asks for
 * a colour: handled (1), or not one (0). bel: it ended with BEL.
 */
int lz_pane_osc_color(struct lz_pane *p, const char *s, size_t n, int bel);
/* Back to the host's palette (and foreground, background, cursor). */
void lz_pane_colors_reset(struct lz_pane *p, int dynamic_too);
/* Colour i (0-255) as the program sees it: its own, or the host's. */
uint32_t lz_pane_palette(const struct lz_pane *p, int i);

/* pane-link.c */
/* An OSC 8 (s[0..n), after "8;"): the pen's link changes. */
void lz_pane_osc_link(struct lz_pane *p, const char *s, size_t n);
void lz_pane_links_free(struct lz_pane *p);

/*
 * pane-snapshot.c: a line of cells r[0..cols) from the cursor on (blanks
 * skipped or erased, trailing ones left out), leaving no pen.
 */
void lz_pane_render_line(const struct lz_pane *p, const struct lz_cell *r,
    int cols, struct lz_buf *out);
/*
 * pane-snapshot.c: what puts libvterm's last glyph (where it joins a
 * combining mark) where no cursor can stand after it, to be written in
 * hidden mode with margins and origin mode off: an 'x' at the last row's
 * last column, the row single-width for it. It stays out of reach until
 * the columns change: lz_pane_resize parks it again.
 */
void lz_pane_park_seq(const struct lz_pane *p, struct lz_buf *out);
/* The private strings of lz_pane_restore. */
#define LZ_PANE_PRIVATE_HIDE "lazaret;hide"
#define LZ_PANE_PRIVATE_SHOW "lazaret;show"
/* Sets the last glyph: ";ROW;COL;WIDTH" and ";HEX" a code point. */
#define LZ_PANE_PRIVATE_GLYPH "lazaret;glyph"
/*
 * ";ROW": that row of the screen was soft-wrapped; ";-N": scrollback
 * line N - 1 (0 the newest). What a snapshot and the history
 * (pane-history.c) say of soft-wrapped rows.
 */
#define LZ_PANE_PRIVATE_WRAP "lazaret;wrap"
/* ";N": struct g_term's since (moved, and up-scrolls: 0, 1 or 2). */
#define LZ_PANE_PRIVATE_SINCE "lazaret;since"

#endif
