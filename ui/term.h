/*
 * term.h: the host terminal as the TUI draws on it: capability strings
 * from ncurses' terminfo layer (setupterm, tigetstr, tiparm) for the
 * host's $TERM, and the colour depth the renderer may use. Colours never
 * degrade silently: lz_term.colour_why says what was chosen and why, and
 * the renderer maps a colour the terminal lacks to the nearest one it has
 * (24-bit to the 256-colour cube, 256 to 16, 16 to 8).
 *
 * Direct colour (24-bit SGR 38;2 / 48;2) is written by the renderer itself
 * (curses' colour pairs cannot carry it) when terminfo says RGB or Tc, or
 * COLORTERM is "truecolor" or "24bit" and the entry has 256 colours.
 */
#ifndef LZ_TERM_H
#define LZ_TERM_H

#include <stdint.h>

#include "core/util.h"

struct lz_term {
	char *name;
	/* Capability strings (NULL when the entry lacks one). */
	char *cup, *sgr0, *bold, *sitm, *smul, *rev, *blink, *smxx, *civis,
	    *cnorm, *smcup, *rmcup, *clear, *el, *setaf, *setab, *op, *rmam,
	    *smam, *home;
	int colors;		/* 0, 8, 16, 256: indexed colours */
	int rgb;		/* direct colour path on */
	char colour_why[96];	/* e.g. "24-bit (terminfo RGB)" */
	int utf8;		/* the locale's codeset is UTF-8 */
	int osc52;		/* takes OSC 52 clipboard writes */
	int hyperlinks;		/* takes OSC 8 hyperlinks */
};

/*
 * Reads the entry of term (NULL: $TERM) for output on fd. Fails when the
 * entry is missing or cannot address the cursor (no cup): the message
 * says to use a raw session then.
 */
int lz_term_load(struct lz_term *t, const char *term, int fd,
    struct lz_err *err);
void lz_term_release(struct lz_term *t);

/* Appends the cursor motion to (row, col), 0-based. */
void lz_term_goto(const struct lz_term *t, struct lz_buf *out, int row,
    int col);
/*
 * Appends what switches to colours fg/bg (ui/grid.h encoding) from the
 * default pen: the caller has reset the pen with sgr0 first.
 */
void lz_term_colours(const struct lz_term *t, struct lz_buf *out,
    uint32_t fg, uint32_t bg);
/* The nearest 256-colour index of 0xRRGGBB, and of an index in 0-15. */
int lz_colour_rgb_to_256(uint32_t rgb);
int lz_colour_256_to_16(int index);

#endif
