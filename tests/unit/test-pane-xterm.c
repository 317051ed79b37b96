/*
 * test-pane-xterm.c: control functions against xterm's documented
 * results, one table row each: cursor movement with and without a scroll
 * region, left/right margins and origin mode, erase, insert and delete,
 * scrolling, tabs, wrap, character sets, SGR, REP, DECALN and the resets.
 * The expected cursor and rows are xterm's (xterm 410's ctlseqs.txt and
 * cursor.c/charproc.c, and vttest's expectations, read for this test);
 * where libvterm 0.1.4 alone does otherwise, the row says so and the
 * guard in ui/pane.c is what makes it pass. A row that differs from
 * xterm on purpose says why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "ui/pane.h"

struct row {
	const char *name;
	int rows, cols;
	const char *in;		/* fed to a new pane */
	int crow, ccol;		/* the cursor after, 0-based */
	const char *screen;	/* "N=text;..." rows to check, or NULL */
	const char *source;	/* where the result is documented */
};

/* Fills the pane with a known pattern: row r is 'a' + r, cols wide. */
#define FILL4 "\033[1;1Haaaaaaaaaa\033[2;1Hbbbbbbbbbb\033[3;1Hcccccccccc" \
	"\033[4;1Hdddddddddd"

static const struct row table[] = {
	/* Cursor movement, no margins. */
	{ "CUU stops at the top", 5, 10, "\033[3;3H\033[9A", 0, 2, NULL,
	    "ctlseqs CUU; cursor.c CursorUp" },
	{ "CUD stops at the bottom", 5, 10, "\033[9B", 4, 0, NULL,
	    "ctlseqs CUD; cursor.c CursorDown" },
	{ "CUF stops at the right edge", 5, 10, "\033[99C", 0, 9, NULL,
	    "ctlseqs CUF; cursor.c CursorForward" },
	{ "CUB stops at the left edge", 5, 10, "\033[1;5H\033[9D", 0, 0,
	    NULL, "ctlseqs CUB; cursor.c CursorBack" },
	{ "CUx with 0 moves one", 5, 10, "\033[3;3H\033[0A\033[0C", 1, 3,
	    NULL, "ctlseqs: default 1 (one_if_default)" },
	{ "CNL goes down to column 1", 5, 10, "\033[2;5H\033[2E", 3, 0,
	    NULL, "ctlseqs CNL" },
	{ "CPL goes up to column 1", 5, 10, "\033[4;5H\033[2F", 1, 0, NULL,
	    "ctlseqs CPL" },
	{ "CHA", 5, 10, "\033[2;2H\033[7G", 1, 6, NULL, "ctlseqs CHA" },
	{ "HPA", 5, 10, "\033[2;2H\033[7`", 1, 6, NULL, "ctlseqs HPA" },
	{ "HPR", 5, 10, "\033[2;2H\033[3a", 1, 4, NULL, "ctlseqs HPR" },
	{ "VPA", 5, 10, "\033[2;2H\033[4d", 3, 1, NULL, "ctlseqs VPA" },
	{ "VPR", 5, 10, "\033[2;2H\033[2e", 3, 1, NULL, "ctlseqs VPR" },
	{ "CUP clamps", 5, 10, "\033[99;99H", 4, 9, NULL, "ctlseqs CUP" },
	{ "HVP", 5, 10, "\033[3;4f", 2, 3, NULL, "ctlseqs HVP" },
	{ "BS stops at column 1", 5, 10, "\033[1;2H\b\b", 0, 0, NULL,
	    "ctlseqs BS (no reverse wrap)" },
	{ "HT to the next stop", 5, 20, "\033[1;2H\t", 0, 8, NULL,
	    "ctlseqs HT: stops every 8" },
	{ "HT stops at the right edge", 5, 20, "\033[1;18H\t\t", 0, 19,
	    NULL, "ctlseqs HT" },
	{ "CHT and CBT", 5, 30, "\033[1;2H\033[2I\033[Z", 0, 8, NULL,
	    "ctlseqs CHT, CBT" },
	{ "IND at the bottom scrolls", 3, 10, "a\033[3;1Hz\033D", 2, 1,
	    "0=;2=", "ctlseqs IND" },
	{ "RI at the top scrolls down", 3, 10, "a\033M", 0, 1, "0=;1=a",
	    "ctlseqs RI" },
	{ "NEL", 3, 10, "\033[1;5HNEL\033Ex", 1, 1, "1=x", "ctlseqs NEL" },
	{ "LF keeps the column", 3, 10, "ab\ncd", 1, 4, "1=  cd",
	    "ctlseqs LF (LNM reset)" },
	{ "LNM: LF is CR LF", 3, 10, "\033[20hab\ncd", 1, 2, "1=cd",
	    "ctlseqs LNM" },

	/* With a scroll region (DECSTBM 3;6 on 10 rows). */
	{ "CUD stops at the bottom margin", 10, 20,
	    "\033[3;6r\033[4;1H\033[9B", 5, 0, NULL,
	    "cursor.c CursorDown; libvterm 0.1.4 goes to row 10: guard" },
	{ "CUD below the region goes on", 10, 20,
	    "\033[3;6r\033[8;1H\033[9B", 9, 0, NULL, "cursor.c CursorDown" },
	{ "CUD above the region stops at its bottom", 10, 20,
	    "\033[3;6r\033[1;1H\033[9B", 5, 0, NULL,
	    "cursor.c CursorDown (max is bot_marg unless below it)" },
	{ "CUU stops at the top margin", 10, 20,
	    "\033[3;6r\033[5;1H\033[9A", 2, 0, NULL,
	    "cursor.c CursorUp; libvterm 0.1.4 goes to row 1: guard" },
	{ "CUU above the region goes on", 10, 20,
	    "\033[3;6r\033[2;1H\033[9A", 0, 0, NULL, "cursor.c CursorUp" },
	{ "CNL stops at the bottom margin", 10, 20,
	    "\033[3;6r\033[4;5H\033[9E", 5, 0, NULL,
	    "charproc.c CNL = CursorDown + CR; libvterm: guard" },
	{ "CPL stops at the top margin", 10, 20,
	    "\033[3;6r\033[5;5H\033[9F", 2, 0, NULL,
	    "charproc.c CPL = CursorUp + CR; libvterm: guard" },
	{ "DECSTBM homes the cursor", 10, 20, "\033[5;5H\033[3;6r", 0, 0,
	    NULL, "ctlseqs DECSTBM" },
	{ "LF at the bottom margin scrolls the region", 6, 10,
	    FILL4 "\033[2;3r\033[3;1H\n", 2, 0,
	    "0=aaaaaaaaaa;1=cccccccccc;2=;3=dddddddddd", "ctlseqs DECSTBM" },
	{ "RI at the top margin scrolls the region down", 6, 10,
	    FILL4 "\033[2;3r\033[2;1H\033M", 1, 0,
	    "0=aaaaaaaaaa;1=;2=bbbbbbbbbb;3=dddddddddd", "ctlseqs RI" },
	{ "SU scrolls the region", 6, 10, FILL4 "\033[2;3r\033[S", 0, 0,
	    "1=cccccccccc;2=;3=dddddddddd", "ctlseqs SU" },
	{ "SD scrolls the region down", 6, 10, FILL4 "\033[2;3r\033[T", 0, 0,
	    "1=;2=bbbbbbbbbb;3=dddddddddd", "ctlseqs SD" },
	{ "IL inside the region", 6, 10, FILL4 "\033[2;3r\033[2;1H\033[L",
	    1, 0, "1=;2=bbbbbbbbbb;3=dddddddddd", "ctlseqs IL" },
	{ "DL inside the region", 6, 10, FILL4 "\033[2;3r\033[2;1H\033[M",
	    1, 0, "1=cccccccccc;2=;3=dddddddddd", "ctlseqs DL" },
	{ "IL outside the region does nothing", 6, 10,
	    FILL4 "\033[2;3r\033[4;1H\033[L", 3, 0, "3=dddddddddd",
	    "ctlseqs IL (cursor outside the margins)" },

	/* Origin mode. */
	{ "DECOM homes to the region", 10, 20, "\033[3;6r\033[?6h", 2, 0,
	    NULL, "ctlseqs DECOM" },
	{ "CUP is relative in origin mode", 10, 20,
	    "\033[3;6r\033[?6h\033[2;5H", 3, 4, NULL, "ctlseqs DECOM" },
	{ "CUP stays in the region in origin mode", 10, 20,
	    "\033[3;6r\033[?6h\033[9;1H", 5, 0, NULL, "ctlseqs DECOM" },
	{ "VPA is relative in origin mode", 10, 20,
	    "\033[3;6r\033[?6h\033[2d", 3, 0, NULL, "cursor.c CursorSet" },
	{ "HPA in origin mode without margins", 10, 20,
	    "\033[3;6r\033[?6h\033[5`", 2, 4, NULL, "cursor.c CursorSet" },
	{ "DSR CPR is relative in origin mode", 10, 20, NULL, 0, 0, NULL,
	    "covered by test_cpr_origin" },

	/* Left and right margins (DECLRMM, DECSLRM 5;15). */
	{ "HPA counts from the left margin in origin mode", 5, 20,
	    "\033[?69h\033[5;15s\033[?6h\033[3`", 0, 6, NULL,
	    "cursor.c CursorSet (col += lft_marg under DECOM); vttest "
	    "tst_HPA: VT510 honors DECOM; libvterm counts from column 1: "
	    "guard" },
	{ "CHA counts from the left margin in origin mode", 5, 20,
	    "\033[?69h\033[5;15s\033[?6h\033[3G", 0, 6, NULL,
	    "charproc.c CHA is CASE_HPA; libvterm: guard" },
	{ "HPA stops at the right margin in origin mode", 5, 20,
	    "\033[?69h\033[5;15s\033[?6h\033[99`", 0, 14, NULL,
	    "cursor.c CursorSet" },
	{ "CUF stops at the right margin", 5, 20,
	    "\033[?69h\033[5;15s\033[1;7H\033[99C", 0, 14, NULL,
	    "cursor.c CursorForward; libvterm goes to column 20: guard" },
	{ "CUF right of the margin goes on", 5, 20,
	    "\033[?69h\033[5;15s\033[1;17H\033[99C", 0, 19, NULL,
	    "cursor.c CursorForward" },
	{ "CUB stops at the left margin", 5, 20,
	    "\033[?69h\033[5;15s\033[1;9H\033[99D", 0, 4, NULL,
	    "cursor.c CursorBack; libvterm goes to column 1: guard" },
	{ "CUB left of the margin goes on", 5, 20,
	    "\033[?69h\033[5;15s\033[1;3H\033[99D", 0, 0, NULL,
	    "cursor.c CursorBack" },
	{ "CR returns to the left margin", 5, 20,
	    "\033[?69h\033[5;15s\033[1;9H\r", 0, 4, NULL,
	    "cursor.c CarriageReturn; libvterm goes to column 1: guard" },
	{ "CR left of the margin goes to column 1", 5, 20,
	    "\033[?69h\033[5;15s\033[1;3H\r", 0, 0, NULL,
	    "cursor.c CarriageReturn" },
	{ "CR right of the margin returns to it", 5, 20,
	    "\033[?69h\033[5;15s\033[1;18H\r", 0, 4, NULL,
	    "cursor.c CarriageReturn (cur_col >= left)" },
	{ "NEL returns to the left margin", 5, 20,
	    "\033[?69h\033[5;15s\033[1;9H\033E", 1, 4, NULL,
	    "charproc.c NEL = Index + CarriageReturn; libvterm: guard" },
	{ "ICH inside the margins", 3, 20,
	    "abcdefghijklmnopqrst\033[?69h\033[5;10s\033[1;6H\033[2@", 0, 5,
	    "0=abcde  fghklmnopqrst", "ctlseqs ICH (what passes the right "
	    "margin is lost)" },
	{ "DCH inside the margins", 3, 20,
	    "abcdefghijklmnopqrst\033[?69h\033[5;10s\033[1;6H\033[2P", 0, 5,
	    "0=abcdehij  klmnopqrst", "ctlseqs DCH (right margin)" },
	{ "DECSLRM without DECLRMM moves nothing", 3, 20,
	    "\033[1;9H\033[5;15s\033[1;9H\033[99D", 0, 0, NULL,
	    "ctlseqs DECSLRM needs DECLRMM" },

	/* Erase. */
	{ "ED 0", 3, 10, "aaaaaaaaaa\033[2;1Hbbbbbbbbbb\033[1;5H\033[J", 0, 4,
	    "0=aaaa;1=", "ctlseqs ED" },
	{ "ED 1", 3, 10, "aaaaaaaaaa\033[2;1Hbbbbbbbbbb\033[2;5H\033[1J", 1, 4,
	    "0=;1=     bbbbb", "ctlseqs ED" },
	{ "ED 2 keeps the cursor", 3, 10, "aaaaaaaaaa\033[2;5H\033[2J", 1, 4,
	    "0=", "ctlseqs ED" },
	{ "EL 0", 3, 10, "aaaaaaaaaa\033[1;5H\033[K", 0, 4, "0=aaaa",
	    "ctlseqs EL" },
	{ "EL 1", 3, 10, "aaaaaaaaaa\033[1;5H\033[1K", 0, 4, "0=     aaaaa",
	    "ctlseqs EL" },
	{ "EL 2", 3, 10, "aaaaaaaaaa\033[1;5H\033[2K", 0, 4, "0=",
	    "ctlseqs EL" },
	{ "ECH does not move", 3, 10, "aaaaaaaaaa\033[1;3H\033[4X", 0, 2,
	    "0=aa    aaaa", "ctlseqs ECH" },
	{ "DECSED keeps protected cells", 3, 10,
	    "a\033[1\"qb\033[0\"qc\033[1;1H\033[?2J", 0, 0, "0= b",
	    "ctlseqs DECSED, DECSCA" },
	{ "ED erases protected cells too", 3, 10,
	    "a\033[1\"qb\033[0\"qc\033[1;1H\033[2J", 0, 0, "0=",
	    "ctlseqs ED (DECSCA only guards DECSED/DECSEL)" },

	/* Insert and delete. */
	{ "ICH", 3, 10, "abcdefghij\033[1;3H\033[2@", 0, 2, "0=ab  cdefgh",
	    "ctlseqs ICH" },
	{ "DCH", 3, 10, "abcdefghij\033[1;3H\033[2P", 0, 2, "0=abefghij",
	    "ctlseqs DCH" },
	{ "IRM inserts", 3, 10, "abcdef\033[1;3H\033[4hXY", 0, 4,
	    "0=abXYcdef", "ctlseqs IRM" },
	{ "IRM inserts two columns for a wide character", 3, 10,
	    "abcdef\033[1;3H\033[4h\xe4\xb8\xadZ", 0, 5,
	    "0=ab\xe4\xb8\xadZcdef", "xterm and tmux 3.3a (screen-write.c "
	    "inserts the character's width); libvterm 0.1.4 shifts by one" },
	{ "IRM and REP of a wide character", 3, 10,
	    "abcdef\033[1;1H\033[4h\xe4\xb8\xad\033[b", 0, 4,
	    "0=\xe4\xb8\xad\xe4\xb8\xad" "abcdef", "as above, REP prints it again" },
	{ "No autowrap: REP of a wide character stops at the edge", 3, 5,
	    "\033[?7la\xe4\xb8\xad\033[9b", 0, 4,
	    "0=a\xe4\xb8\xad\xe4\xb8\xad;1=", "as the rows of DECAWM" },
	{ "IRM and a wide character whose width libvterm counts as one", 3,
	    10, "abcdef\033[1;3H\033[4h\xf0\x9f\xa5\xb0Z", 0, 5,
	    "0=ab\xf0\x9f\xa5\xb0Zcdef", "as above (U+1F970: ui/vtchar.c)" },
	{ "IL and DL", 4, 10, "a\r\nb\r\nc\033[2;1H\033[L\033[4;1H\033[M",
	    3, 0,
	    "0=a;1=;2=b;3=", "ctlseqs IL, DL" },
	{ "DECIC and DECDC", 3, 10,
	    "abcdef\r\nghijkl\033[1;2H\033[1'}\033[1;4H\033['~", 0, 3,
	    "0=a bdef;1=g hjkl", "ctlseqs DECIC, DECDC" },

	/* Wrap. */
	{ "Autowrap: a pending wrap at the edge", 3, 5, "abcde", 0, 4,
	    "0=abcde", "ctlseqs DECAWM (last column flag)" },
	{ "The next character wraps", 3, 5, "abcdef", 1, 1,
	    "0=abcde;1=f", "ctlseqs DECAWM" },
	{ "CR cancels the pending wrap", 3, 5, "abcde\rX", 0, 1,
	    "0=Xbcde", "ctlseqs DECAWM" },
	{ "CUP to the same cell cancels it", 3, 5, "abcde\033[1;5HX", 0, 4,
	    "0=abcdX;1=", "cursor.c CursorSet: ResetWrap" },
	{ "No autowrap: overwrite the last column", 3, 5,
	    "\033[?7labcdefg", 0, 4, "0=abcdg;1=", "ctlseqs DECAWM" },
	{ "No autowrap: a wide character ending the row leaves the cursor "
	    "on its second column", 3, 5, "\033[?7labc\xe4\xb8\xad", 0, 4,
	    "0=abc\xe4\xb8\xad;1=", "xterm and tmux 3.3a (screen-write.c: "
	    "the cursor sticks at the last column); libvterm 0.1.4 leaves it "
	    "on the first" },
	{ "No autowrap: the next character replaces its second half", 3, 5,
	    "\033[?7labc\xe4\xb8\xadX", 0, 4, "0=abc X;1=",
	    "xterm and tmux 3.3a" },
	{ "No autowrap: a wide character that does not fit is dropped", 3, 5,
	    "\033[?7labcd\xe4\xb8\xadX", 0, 4, "0=abcdX;1=",
	    "tmux 3.3a screen-write.c: \"If this character doesn't fit, "
	    "ignore it\"; libvterm 0.1.4 wraps it" },
	{ "No autowrap, origin mode (not the fast path): the same", 3, 5,
	    "\033[?6h\033[?7lab\033[Hab\xe4\xb8\xad\xe4\xb8\xadX\xe4\xb8\xad",
	    0, 4, "0=ab\xe4\xb8\xadX;1=", "as the three rows above" },
	{ "No autowrap: a mark joins the glyph in the last column", 3, 5,
	    "\033[?7labcde\xcc\x81", 0, 4, "0=abcde\xcc\x81;1=",
	    "xterm: a mark joins the last character written; libvterm 0.1.4 "
	    "makes it a glyph of its own" },
	{ "A wide character that does not fit wraps whole", 3, 5,
	    "abcd\xe4\xb8\xad", 1, 2, "0=abcd;1=\xe4\xb8\xad",
	    "xterm: a double-width character never splits" },
	{ "Wrap at the bottom scrolls", 2, 5, "\033[2;1Habcdefg", 1, 2,
	    "0=abcde;1=fg", "ctlseqs DECAWM" },

	/* Tabs. */
	{ "HTS and TBC 0", 3, 30, "\033[1;5H\033H\033[1;9H\033[g\033[1;1H\t\t",
	    0, 16, NULL, "ctlseqs HTS, TBC" },
	{ "TBC 3 clears all", 3, 30, "\033[3g\033[1;1H\t", 0, 29, NULL,
	    "ctlseqs TBC" },

	/* Character sets. */
	{ "DEC line drawing in G0", 3, 10, "\033(0lqk\033(Bq", 0, 4,
	    "0=\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90q", "ctlseqs SCS, vttest "
	    "character sets" },
	{ "SO shifts to G1", 3, 10, "\033)0q\016q\017q", 0, 3,
	    "0=q\xe2\x94\x80q", "ctlseqs SO/SI" },
	{ "SS2 for one character", 3, 10, "\033*0\033Nqq", 0, 2,
	    "0=\xe2\x94\x80q", "ctlseqs SS2" },
	{ "UK set: # is a pound sign", 3, 10, "\033(A#", 0, 1,
	    "0=\xc2\xa3", "ctlseqs SCS A" },

	/* REP. */
	{ "REP prints the last character again", 3, 10, "x\033[3b", 0, 4,
	    "0=xxxx", "ctlseqs REP" },
	{ "REP stops at the edge (tmux)", 3, 5, "x\033[9b", 0, 4,
	    "0=xxxxx;1=", "tmux input.c caps Ps at the columns left; "
	    "xterm would wrap: tmux's bound, on purpose" },
	{ "REP of a wide character", 3, 10, "\xe4\xb8\xad\033[2b", 0, 6,
	    "0=\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad",
	    "ctlseqs REP (libvterm 0.1.4 steps without writing text: guard)" },

	/* DECALN and resets. */
	{ "DECALN fills and homes", 3, 4, "\033[2;3HDECALN\033#8", 0, 0,
	    "0=EEEE;1=EEEE;2=EEEE", "charproc.c CASE_DECALN (CursorSet 0,0); "
	    "libvterm leaves the cursor: guard" },
	{ "DECALN resets the margins", 5, 4,
	    "\033[2;3r\033[?6h\033#8\033[5;1H", 4, 0, NULL,
	    "charproc.c CASE_DECALN: origin off, margins reset" },
	{ "DECSTR resets origin mode and margins", 10, 20,
	    "\033[3;6r\033[?6h\033[4;4H\033[!p\033[9;1H", 8, 0, NULL,
	    "charproc.c ReallyReset (soft); libvterm 0.1.4 never recognises "
	    "DECSTR: guard" },
	{ "DECSTR keeps the cursor", 5, 20, "\033[3;7H\033[!p", 2, 6, NULL,
	    "charproc.c ReallyReset (soft) moves nothing" },
	{ "DECSTR makes DECRC go home", 5, 20,
	    "\033[3;7H\0337\033[!p\033[2;2H\0338", 0, 0, NULL,
	    "charproc.c ReallyReset (soft): sc row and col 0" },
	{ "RIS homes and clears", 3, 10, "abc\033c", 0, 0, "0=",
	    "ctlseqs RIS" },
	{ "DECRC before DECSC goes home", 5, 20, "\033[3;7H\0338", 0, 0, NULL,
	    "DEC STD 070: no saved state restores the defaults" },
	{ "DECSC and DECRC", 5, 20, "\033[3;7H\0337\033[1;1H\0338", 2, 6,
	    NULL, "ctlseqs DECSC/DECRC" },
	{ "DECRC in origin mode stays in the margins", 10, 20,
	    "\033[1;1H\0337\033[3;6r\033[?6h\0338", 2, 0, NULL,
	    "xterm saves DECOM with the cursor (CursorSave); libvterm does "
	    "not, and restores above the region: the guard clamps" },
};

static void
check_row(const struct lz_pane *p, int r, const char *want, size_t len,
    const char *name)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_pane_line_text(p, r, &b);
	if (strlen(b.buf) != len || memcmp(b.buf, want, len) != 0)
		fail_msg("%s: row %d is '%s', want '%.*s'", name, r, b.buf,
		    (int)len, want);
	lz_buf_release(&b);
}

static void
test_table(void **state)
{
	const struct row *t;
	struct lz_pane *p;
	const char *s, *semi;
	size_t k;
	int r;

	(void)state;
	for (k = 0; k < sizeof table / sizeof *table; k++) {
		t = &table[k];
		if (t->in == NULL)
			continue;
		p = lz_pane_new((unsigned)t->rows, (unsigned)t->cols, 0, NULL,
		    NULL);
		lz_pane_feed(p, t->in, strlen(t->in));
		if (lz_pane_props(p)->cursor_row != t->crow ||
		    lz_pane_props(p)->cursor_col != t->ccol)
			fail_msg("%s: cursor %d,%d, want %d,%d (%s)", t->name,
			    lz_pane_props(p)->cursor_row,
			    lz_pane_props(p)->cursor_col, t->crow, t->ccol,
			    t->source);
		for (s = t->screen; s != NULL && *s != '\0'; s = semi ?
		    semi + 1 : NULL) {
			r = *s - '0';
			semi = strchr(s, ';');
			check_row(p, r, s + 2, semi ? (size_t)(semi - s - 2) :
			    strlen(s + 2), t->name);
		}
		lz_pane_free(p);
	}
}

static void
on_reply(const char *buf, size_t len, void *user)
{
	lz_buf_add(user, buf, len);
}

/*
 * DSR 6 in origin mode counts from the margins (charproc.c CASE_CPR);
 * libvterm 0.1.4 counts from the screen's corner: the guard answers.
 */
static void
test_cpr_origin(void **state)
{
	struct lz_pane_cb cb = { on_reply, NULL };
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_pane *p = lz_pane_new(10, 20, 0, &cb, &b);
	const char *in = "\033[3;6r\033[?6h\033[2;5H\033[6n";

	(void)state;
	lz_pane_feed(p, in, strlen(in));
	assert_string_equal(b.buf, "\033[2;5R");
	lz_pane_free(p);
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_cpr_origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
