/*
 * grid-int.h: what grid.c and grid-reflow.c share of the scrollback's
 * encoding (not for other files: ui/grid.h is the interface).
 */
#ifndef LZ_GRID_INT_H
#define LZ_GRID_INT_H

#include <stddef.h>
#include <stdint.h>

#include "ui/grid.h"

/*
 * Scrollback encoding: text as UTF-8, and tags in bytes UTF-8 never uses
 * (lz_utf8_put writes no lead byte above 0xf4). A pen record comes only where
 * the pen changes and names only what changed, so a line of colour runs
 * costs about a byte a cell; a colour per character costs two (SB_RUN)
 * for ASCII, three or more for the rest.
 */
#define SB_PEN 0xff		/* a mask byte (SB_M_*), then its fields */
#define SB_COMB 0xfe		/* a combining code point follows */
#define SB_WIDE 0xfd		/* the next character is a wide head */
#define SB_BLANK 0xfc		/* a blank cell */
#define SB_BLANKS 0xfb		/* a count byte (2-255): as many blanks */
#define SB_FG 0xfa		/* an index byte: only fg changed, indexed */
/*
 * A run of cells that each change only the foreground, to a colour of
 * one kind, and hold plain ASCII (a rainbow, a colour per character): a
 * count byte (2-255), then per cell its colour (an index byte; R, G, B)
 * and its character. Two bytes a cell instead of three (indexed), four
 * instead of six (RGB); the pen's foreground is the last cell's after it.
 */
#define SB_RUN 0xf9		/* indexed colours */
#define SB_RUNRGB 0xf8		/* RGB colours */
/* Colour bytes per cell of a run (tag SB_RUN or SB_RUNRGB). */
#define SB_RUN_CS(tag) ((tag) == SB_RUN ? 1u : 3u)
/*
 * Pen mask: three bits for fg (bits 0-2) and for bg (bits 3-5), one for
 * attr (bit 6, two bytes LE follow). Colour fields, in that order: none
 * (unchanged), none (default), one byte (indexed), three bytes (RGB, R
 * first), four bytes LE (anything else, kept as it is).
 */
#define SB_C_SAME 0
#define SB_C_DEFAULT 1
#define SB_C_INDEXED 2
#define SB_C_RGB 3
#define SB_C_RAW 4
#define SB_M_BG_SHIFT 3
#define SB_M_ATTR 0x40
#define SB_PEN_MAX (2 + 4 + 4 + 2)
/* The most one cell can take: pen, wide mark, base, three combining. */
#define SB_CELL_MAX (SB_PEN_MAX + 1 + 4 + (LZ_CELL_CHARS - 1) * 5)

/*
 * A line's header: 4 bytes. LZ_SB_MAX_COLS cells of at most SB_CELL_MAX
 * bytes each fit its 16-bit length (a reflowed row too: a pen record
 * and a character a cell at most, a run costs less).
 */
struct lz_sbline {
	uint16_t len;		/* bytes of data */
	uint16_t ncells;	/* cells encoded, continuation cells included */
	unsigned char data[];
};
_Static_assert(LZ_SB_MAX_COLS * SB_CELL_MAX <= UINT16_MAX,
    "a scrollback line's length fits its header");
/* In ncells: the line was soft-wrapped into the next one. */
#define SB_WRAPPED 0x8000u
#define SB_NCELLS(l) ((l)->ncells & ~SB_WRAPPED)

/* The colour of a run's cell at p (cs colour bytes: SB_RUN_CS). */
static inline uint32_t
lz_sbi_run_color(const unsigned char *p, unsigned cs)
{
	return cs == 1 ? LZ_COLOR_INDEXED(p[0]) : LZ_COLOR_RGB(p[0], p[1], p[2]);
}

/* The record of run (1-255) blanks of one pen at p; returns its size. */
static inline size_t
lz_sbi_put_blanks(unsigned char *p, int run)
{
	if (run == 1) {
		p[0] = SB_BLANK;
		return 1;
	}
	p[0] = SB_BLANKS;
	p[1] = (unsigned char)run;
	return 2;
}

/* grid.c */
/* Every row's enc dropped (its cells were written directly). */
void lz_sbi_enc_drop_all(struct lz_grid *g);
/* Decodes what lz_utf8_put wrote; *pos moves past it. */
uint32_t lz_sbi_get_utf8(const unsigned char *p, size_t len, size_t *pos);
/* The pen record from pen (fg, bg, attr) to c's; returns its size. */
size_t lz_sbi_put_pen(unsigned char *p, uint32_t fg, uint32_t bg,
    uint16_t attr, const struct lz_cell *c);
/* Reads the pen record at p[*pos] (past its tag); -1 when cut short. */
int lz_sbi_get_pen(const unsigned char *p, size_t len, size_t *pos,
    struct lz_pen *pen);
/*
 * Encodes cells[0..ncols) into *buf (grown as needed); returns the size
 * and sets *ncells to the cells it covers (trailing plain blanks dropped).
 */
size_t lz_sbi_encode(const struct lz_cell *cells, int ncols,
    unsigned char **buf, size_t *bufalloc, int *ncells);
/* Decodes the line p[0..len) into out[0..ncols); the rest is blank. */
void lz_sbi_decode(const unsigned char *p, size_t len, struct lz_cell *out,
    int ncols);
/* Appends an encoded line (n bytes at data) as the newest. */
void lz_sbi_push(struct lz_sb *sb, const unsigned char *data, size_t n,
    int ncells, int wrapped);
void lz_sbi_drop_oldest(struct lz_sb *sb);
/* n plain blanks (all zero but for the width). */
void lz_sbi_blank_plain(struct lz_cell *c, int n);

#endif
