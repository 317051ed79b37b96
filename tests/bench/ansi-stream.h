/*
 * ansi-stream.h: the deterministic streams of the pane benches. Each kind
 * is what one sort of program writes to a terminal of 200x50 (issue 19:
 * "a stream you did not tune for"); a fixed LCG seed, so every program and
 * every run gets the same bytes. Header-only so each bench stays one
 * source file.
 *
 *   ls        coloured "ls -l"-like lines, about five SGR sequences each
 *             (16, 256 and 24-bit colours, bold), some CJK file names and
 *             emoji, CR LF (issue 6's stream, the default)
 *   sgr24     a 24-bit foreground SGR before every character, a 24-bit
 *             background before one in four, lines of 60-190 columns
 *   wide      CJK, Hangul, fullwidth forms and emoji mixed with ASCII
 *             words, lines of 10-400 columns (wide characters meet the
 *             right edge), colour runs
 *   combining Latin, Greek and Cyrillic words with one to three combining
 *             marks on two letters in five (U+0300-U+036F, U+1AB0-U+1AFF,
 *             U+20D0-U+20F0), lines of 30-180 columns
 *   long      lines of 300-20,000 columns without a line end until the
 *             last (soft wraps), words with a colour run now and then,
 *             tabs
 *   small     a build log: compiler lines, a progress bar redrawn after
 *             CR, coloured warnings; meant to be written in small pieces
 *             (chunkcat)
 *   redraw    full-screen redraws on the alternate screen, as top and an
 *             editor do: every frame moves the cursor to each row (CUP),
 *             writes it with SGR runs and erases the rest (EL); top-like
 *             tables and editor views with line numbers, syntax colours
 *             and a reverse status line take turns, in synchronized
 *             updates (?2026)
 *   scroll    a scroll region (DECSTBM) under a title and above a status
 *             line, as a pager or a chat client: lines written at its
 *             bottom scroll it (LF), reverse index at its top, IL and DL
 *             in it, SU and SD, the status line redrawn every few lines
 *   attrs     every SGR attribute in the forms programs write, one SGR
 *             before each word: bold, faint, italic, underlines (4, 4:N,
 *             21), blink, reverse, conceal, strike, overline and their
 *             resets, 256 and 24-bit colours with ';' and ':' (38:2::R:G:B),
 *             underline colours (58), fonts; the pen is reset only now and
 *             then, so it often holds most of them at once (such a pen
 *             handed back to libvterm in one CSI overran its parser)
 *   edit      a shell's line editing as readline redraws it: a coloured
 *             prompt and command, then cursor moves (CUB, CUF), inserts
 *             (ICH and the text), deletes (DCH) and erases (ECH, EL)
 *             inside the line, CR LF
 */
#ifndef LZ_BENCH_ANSI_STREAM_H
#define LZ_BENCH_ANSI_STREAM_H

#include <stdint.h>
#include <string.h>

#include "core/utf8.h"
#include "core/util.h"

struct ansi_rng {
	uint32_t seed;
};

static uint32_t
ansi_rnd(struct ansi_rng *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return g->seed >> 8;
}

/* A number in [lo, hi]. */
static uint32_t
ansi_in(struct ansi_rng *g, uint32_t lo, uint32_t hi)
{
	return lo + ansi_rnd(g) % (hi - lo + 1);
}

static const char *const ansi_words[] = {
	"main.c", "util.h", "README.md", "node_modules", "build", ".git",
	"\xe6\x96\x87\xe6\xa1\xa3.txt", "\xe6\xb5\x8b\xe8\xaf\x95_data",
	"\xf0\x9f\x9a\x80launch.sh", "Makefile", "src",
	"photo_\xf0\x9f\x93\xb7.jpg", "libvterm-0.1.4.tar.gz",
	"CMakeLists.txt", "test-pane.c",
};
#define ANSI_NWORDS (sizeof ansi_words / sizeof *ansi_words)

static const char *const ansi_text[] = {
	"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
	"static", "int", "return", "struct", "pane", "buffer", "if", "else",
	"for", "while", "size_t", "const", "char", "void", "NULL", "error",
	"value", "count", "index", "length", "result", "status", "(", ")",
	"{", "}", ";", "=", "==", "+", "->", "0", "1", "42", "4096",
};
#define ANSI_NTEXT (sizeof ansi_text / sizeof *ansi_text)

static void
ansi_utf8(struct lz_buf *b, uint32_t cp)
{
	unsigned char u[4];

	lz_buf_add(b, u, lz_utf8_put(u, cp));
}

/* One "ls -l" line (the ls kind). */
static void
ansi_ls_line(struct lz_buf *b, struct ansi_rng *g)
{
	static const char *const month[] = { "Jan", "Feb", "Mar", "Nov" };
	static const int colour[] = { 34, 32, 36, 35, 33, 31 };
	uint32_t r = ansi_rnd(g);

	lz_buf_addf(b, "\033[0;%dm%c%s\033[0m %3u \033[33muser%u\033[0m "
	    "\033[38;5;%umstaff\033[0m %9u %s %2u %02u:%02u "
	    "\033[1;%dm%s\033[0m",
	    r % 3 == 0 ? 34 : 0, r % 3 == 0 ? 'd' : '-',
	    r % 2 ? "rwxr-xr-x" : "rw-r--r--", r % 40 + 1, r % 7,
	    16 + r % 200, ansi_rnd(g) % 100000000, month[r % 4],
	    ansi_rnd(g) % 28 + 1, ansi_rnd(g) % 24,
	    ansi_rnd(g) % 60, colour[r % 6],
	    ansi_words[ansi_rnd(g) % ANSI_NWORDS]);
	if (r % 5 == 0)
		lz_buf_addf(b, " -> \033[38;2;%u;%u;%um%s\033[0m",
		    ansi_rnd(g) % 256, ansi_rnd(g) % 256,
		    ansi_rnd(g) % 256,
		    ansi_words[ansi_rnd(g) % ANSI_NWORDS]);
	lz_buf_adds(b, "\r\n");
}

static void
ansi_sgr24_line(struct lz_buf *b, struct ansi_rng *g)
{
	uint32_t n = ansi_in(g, 60, 190), k, c;

	for (k = 0; k < n; k++) {
		lz_buf_addf(b, "\033[38;2;%u;%u;%um", ansi_rnd(g) % 256,
		    ansi_rnd(g) % 256, ansi_rnd(g) % 256);
		if (k % 4 == 0)
			lz_buf_addf(b, "\033[48;2;%u;%u;%um",
			    ansi_rnd(g) % 256, ansi_rnd(g) % 256,
			    ansi_rnd(g) % 256);
		c = ansi_in(g, 0x20, 0x7e);
		lz_buf_addch(b, (char)c);
	}
	lz_buf_adds(b, "\033[m\r\n");
}

/* A wide character: CJK, Hangul, fullwidth ASCII or an emoji. */
static uint32_t
ansi_wide_char(struct ansi_rng *g)
{
	switch (ansi_rnd(g) % 4) {
	case 0:
		return ansi_in(g, 0x4e00, 0x9fa5);
	case 1:
		return ansi_in(g, 0xac00, 0xd7a3);
	case 2:
		return ansi_in(g, 0xff01, 0xff5e);
	default:
		return ansi_in(g, 0x1f300, 0x1f64f);
	}
}

static void
ansi_wide_line(struct lz_buf *b, struct ansi_rng *g)
{
	uint32_t width = ansi_in(g, 10, 400), w = 0, k, n;

	while (w < width) {
		if (ansi_rnd(g) % 8 == 0)
			lz_buf_addf(b, "\033[%um", ansi_in(g, 30, 37));
		if (ansi_rnd(g) % 3 == 0) {
			lz_buf_adds(b, ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
			w += 4;
		} else {
			n = ansi_in(g, 1, 12);
			for (k = 0; k < n; k++)
				ansi_utf8(b, ansi_wide_char(g));
			w += 2 * n;
		}
		if (ansi_rnd(g) % 8 == 0)
			lz_buf_adds(b, "\033[m");
		lz_buf_addch(b, ' ');
		w++;
	}
	lz_buf_adds(b, "\033[m\r\n");
}

static uint32_t
ansi_mark(struct ansi_rng *g)
{
	switch (ansi_rnd(g) % 3) {
	case 0:
	case 1:
		return ansi_in(g, 0x300, 0x36f);
	default:
		return ansi_rnd(g) % 2 ? ansi_in(g, 0x1ab0, 0x1abd) :
		    ansi_in(g, 0x20d0, 0x20f0);
	}
}

static void
ansi_combining_line(struct lz_buf *b, struct ansi_rng *g)
{
	uint32_t width = ansi_in(g, 30, 180), w = 0, n, k, m, c;

	while (w < width) {
		n = ansi_in(g, 2, 9);
		for (k = 0; k < n; k++) {
			switch (ansi_rnd(g) % 3) {
			case 0:
				c = ansi_in(g, 'a', 'z');
				break;
			case 1:
				c = ansi_in(g, 0x3b1, 0x3c9);
				break;
			default:
				c = ansi_in(g, 0x430, 0x44f);
				break;
			}
			ansi_utf8(b, c);
			if (ansi_rnd(g) % 5 < 2) {
				for (m = ansi_in(g, 1, 3); m > 0; m--)
					ansi_utf8(b, ansi_mark(g));
			}
		}
		if (ansi_rnd(g) % 10 == 0)
			lz_buf_addf(b, "\033[%um", ansi_in(g, 31, 36));
		else if (ansi_rnd(g) % 10 == 0)
			lz_buf_adds(b, "\033[m");
		lz_buf_addch(b, ' ');
		w += n + 1;
	}
	lz_buf_adds(b, "\033[m\r\n");
}

static void
ansi_long_line(struct lz_buf *b, struct ansi_rng *g)
{
	uint32_t width = ansi_rnd(g) % 4 == 0 ? ansi_in(g, 2000, 20000) :
	    ansi_in(g, 300, 2000);
	size_t start = b->len;

	while (b->len - start < width) {
		if (ansi_rnd(g) % 16 == 0)
			lz_buf_addf(b, "\033[%u;%um", ansi_rnd(g) % 2,
			    ansi_in(g, 31, 37));
		else if (ansi_rnd(g) % 16 == 0)
			lz_buf_adds(b, "\033[m");
		lz_buf_adds(b, ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
		lz_buf_addch(b, ansi_rnd(g) % 30 == 0 ? '\t' : ' ');
	}
	lz_buf_adds(b, "\033[m\r\n");
}

static void
ansi_small_line(struct lz_buf *b, struct ansi_rng *g)
{
	static const char *const dirs[] = { "src", "core", "ui", "tests",
	    "lib/net", "vendor/zlib" };
	uint32_t r = ansi_rnd(g) % 10, k, n, pct, x;

	if (r < 5) {
		lz_buf_addf(b, "[%3u%%] \033[32mBuilding C object "
		    "CMakeFiles/lz.dir/%s/%s%u.c.o\033[0m\r\n",
		    ansi_rnd(g) % 101, dirs[ansi_rnd(g) % 6],
		    ansi_text[ansi_rnd(g) % 24], ansi_rnd(g) % 100);
	} else if (r < 7) {
		lz_buf_addf(b, "\033[1m%s/%s.c:%u:%u: \033[1;35mwarning: "
		    "\033[0m\033[1munused variable '%s'\033[0m\r\n",
		    dirs[ansi_rnd(g) % 6], ansi_text[ansi_rnd(g) % 24],
		    ansi_in(g, 1, 3000), ansi_in(g, 1, 80),
		    ansi_text[ansi_rnd(g) % 24]);
	} else if (r < 9) {
		/* A progress bar redrawn after CR, then finished. */
		n = ansi_in(g, 5, 30);
		for (k = 0; k <= n; k++) {
			pct = k * 100 / n;
			lz_buf_addf(b, "\r%-20s [", ansi_text[n]);
			for (x = 0; x < 40; x++)
				lz_buf_addch(b, x < pct * 40 / 100 ? '#' : ' ');
			lz_buf_addf(b, "] %3u%% %u.%u MB/s", pct,
			    ansi_rnd(g) % 100, ansi_rnd(g) % 10);
		}
		lz_buf_adds(b, "\r\n");
	} else
		lz_buf_addf(b, "\033[1;34m==>\033[0m \033[1m%s %s\033[0m\r\n",
		    ansi_text[ansi_rnd(g) % ANSI_NTEXT],
		    ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
}

static void
ansi_attrs_line(struct lz_buf *b, struct ansi_rng *g)
{
	static const char *const set[] = { "1", "2", "3", "4", "4:3", "4:2",
	    "21", "5", "7", "8", "9", "53", "12", "1;3;5", "7;9;4:3" };
	static const char *const unset[] = { "22", "23", "24", "4:0", "25",
	    "27", "28", "29", "55", "10", "39", "49", "59", "" };
	uint32_t n = ansi_in(g, 8, 40), k, r;

	for (k = 0; k < n; k++) {
		r = ansi_rnd(g) % 16;
		if (r < 6)
			lz_buf_addf(b, "\033[%sm", set[ansi_rnd(g) % (sizeof
			    set / sizeof *set)]);
		else if (r < 8)
			lz_buf_addf(b, "\033[%u;5;%um", ansi_rnd(g) % 2 ? 38 : 48,
			    ansi_rnd(g) % 256);
		else if (r < 10)
			lz_buf_addf(b, "\033[%u;2;%u;%u;%um", ansi_rnd(g) % 2 ?
			    38 : 48, ansi_rnd(g) % 256, ansi_rnd(g) % 256,
			    ansi_rnd(g) % 256);
		else if (r < 11)
			lz_buf_addf(b, "\033[%u:2::%u:%u:%um", ansi_rnd(g) % 2 ?
			    38 : 48, ansi_rnd(g) % 256, ansi_rnd(g) % 256,
			    ansi_rnd(g) % 256);
		else if (r < 12)
			lz_buf_addf(b, "\033[58;5;%um", ansi_rnd(g) % 256);
		else if (r < 13)
			lz_buf_addf(b, "\033[%sm", unset[ansi_rnd(g) % (sizeof
			    unset / sizeof *unset)]);
		lz_buf_adds(b, ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
		lz_buf_addch(b, ' ');
	}
	lz_buf_adds(b, "\r\n");
}

/* One edited command line (the edit kind). */
static void
ansi_edit_line(struct lz_buf *b, struct ansi_rng *g)
{
	/* CUB, CUF, ICH, DCH, ECH: each one's final byte and largest count. */
	static const struct {
		char final;
		uint32_t hi;
	} op[] = { { 'D', 12 }, { 'C', 12 }, { '@', 4 }, { 'P', 6 },
	    { 'X', 6 } };
	uint32_t n = ansi_in(g, 4, 30), k, r, t;

	lz_buf_addf(b, "\r\033[K\033[1;32muser@host\033[m:\033[1;34m~/src"
	    "\033[m$ \033[33m%s\033[m %s %s", ansi_text[ansi_rnd(g) %
	    ANSI_NTEXT], ansi_text[ansi_rnd(g) % ANSI_NTEXT],
	    ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
	for (k = 0; k < n; k++) {
		r = ansi_rnd(g) % 6;
		/* Text, or after an insert the text it made room for. */
		t = r == 2 || r == 5 ? ansi_rnd(g) % ANSI_NTEXT : 0;
		if (r < 5)
			lz_buf_addf(b, "\033[%u%c", ansi_in(g, 1, op[r].hi),
			    op[r].final);
		if (r == 2 || r == 5)
			lz_buf_adds(b, ansi_text[t]);
	}
	lz_buf_adds(b, "\033[K\r\n");
}

/* One row of a redraw frame: text with SGR runs, cols wide at most. */
static void
ansi_row_text(struct lz_buf *b, struct ansi_rng *g, uint32_t cols)
{
	uint32_t w = 0, n;
	const char *s;

	while (w + 10 < cols) {
		if (ansi_rnd(g) % 4 == 0) {
			if (ansi_rnd(g) % 3 == 0)
				lz_buf_addf(b, "\033[38;2;%u;%u;%um",
				    ansi_rnd(g) % 256, ansi_rnd(g) % 256,
				    ansi_rnd(g) % 256);
			else
				lz_buf_addf(b, "\033[%u;38;5;%um",
				    ansi_rnd(g) % 2, ansi_rnd(g) % 256);
		}
		s = ansi_text[ansi_rnd(g) % ANSI_NTEXT];
		n = (uint32_t)strlen(s);
		lz_buf_adds(b, s);
		lz_buf_addch(b, ' ');
		w += n + 1;
		if (ansi_rnd(g) % 5 == 0)
			lz_buf_adds(b, "\033[m");
	}
}

static void
ansi_redraw_frame(struct lz_buf *b, struct ansi_rng *g, int rows, int cols)
{
	int top = ansi_rnd(g) % 2, r, k;

	lz_buf_adds(b, "\033[?2026h\033[?25l");
	if (ansi_rnd(g) % 16 == 0)
		lz_buf_adds(b, "\033[H\033[2J");
	for (r = 1; r <= rows; r++) {
		lz_buf_addf(b, "\033[%d;1H", r);
		if (top && r <= 5) {
			lz_buf_addf(b, "\033[1mtop - %02u:%02u:%02u up %u days, "
			    "load average: %u.%02u, %u.%02u\033[m",
			    ansi_rnd(g) % 24, ansi_rnd(g) % 60,
			    ansi_rnd(g) % 60, ansi_rnd(g) % 300,
			    ansi_rnd(g) % 9, ansi_rnd(g) % 100,
			    ansi_rnd(g) % 9, ansi_rnd(g) % 100);
		} else if (top && r == 6) {
			lz_buf_adds(b, "\033[7m    PID USER      PR  NI    VIRT"
			    "    RES    SHR S  %CPU  %MEM     TIME+ COMMAND");
			for (k = 73; k < cols; k++)
				lz_buf_addch(b, ' ');
			lz_buf_adds(b, "\033[m");
		} else if (top) {
			lz_buf_addf(b, "%s%7u user%-5u %2u %3d %7u %6u %6u %c "
			    "%5u.%u %5u.%u %6u:%02u.%02u %s\033[m",
			    ansi_rnd(g) % 8 == 0 ? "\033[1m" : "",
			    ansi_rnd(g) % 4000000, ansi_rnd(g) % 40,
			    ansi_rnd(g) % 40, (int)(ansi_rnd(g) % 40) - 20,
			    ansi_rnd(g) % 9000000, ansi_rnd(g) % 900000,
			    ansi_rnd(g) % 90000, "SRDIZ"[ansi_rnd(g) % 5],
			    ansi_rnd(g) % 100, ansi_rnd(g) % 10,
			    ansi_rnd(g) % 100, ansi_rnd(g) % 10,
			    ansi_rnd(g) % 1000, ansi_rnd(g) % 60,
			    ansi_rnd(g) % 100,
			    ansi_text[ansi_rnd(g) % ANSI_NTEXT]);
		} else if (r == rows) {
			lz_buf_addf(b, "\033[7m %s.c [+] %u,%u %u%%",
			    ansi_text[ansi_rnd(g) % ANSI_NTEXT],
			    ansi_rnd(g) % 3000, ansi_rnd(g) % 80,
			    ansi_rnd(g) % 100);
			for (k = 30; k < cols; k++)
				lz_buf_addch(b, ' ');
			lz_buf_adds(b, "\033[m");
		} else {
			lz_buf_addf(b, "\033[33m%5u \033[m", ansi_rnd(g) % 9999);
			ansi_row_text(b, g, (uint32_t)cols - 6 -
			    ansi_rnd(g) % (uint32_t)(cols - 6));
			lz_buf_adds(b, "\033[m");
		}
		lz_buf_adds(b, "\033[K");
	}
	lz_buf_addf(b, "\033[%u;%uH\033[?25h\033[?2026l",
	    ansi_in(g, 1, (uint32_t)rows), ansi_in(g, 1, (uint32_t)cols));
}

/* Some lines of the scroll kind; the region is rows 2 to rows - 1. */
static void
ansi_scroll_step(struct lz_buf *b, struct ansi_rng *g, int rows, int cols)
{
	uint32_t r = ansi_rnd(g) % 16, n;

	switch (r) {
	case 0:		/* reverse index at the top of the region */
		lz_buf_adds(b, "\033[2;1H\033M");
		ansi_row_text(b, g, (uint32_t)cols);
		lz_buf_adds(b, "\033[m\033[K");
		break;
	case 1:		/* insert or delete lines in the middle */
		lz_buf_addf(b, "\033[%u;1H\033[%u%c", ansi_in(g, 2,
		    (uint32_t)rows - 2), ansi_in(g, 1, 5),
		    ansi_rnd(g) % 2 ? 'L' : 'M');
		break;
	case 2:		/* scroll up or down */
		lz_buf_addf(b, "\033[%u%c", ansi_in(g, 1, 3),
		    ansi_rnd(g) % 3 ? 'S' : 'T');
		break;
	case 3:		/* the status line */
		lz_buf_addf(b, "\0337\033[%d;1H\033[7m %u lines, %u%% "
		    "\033[m\033[K\0338", rows, ansi_rnd(g) % 100000,
		    ansi_rnd(g) % 100);
		break;
	default:	/* lines at the bottom, each scrolls the region */
		lz_buf_addf(b, "\033[%d;1H", rows - 1);
		for (n = ansi_in(g, 1, 8); n > 0; n--) {
			lz_buf_adds(b, "\n\r");
			ansi_row_text(b, g, ansi_in(g, 20, (uint32_t)cols));
			lz_buf_adds(b, "\033[m");
		}
		break;
	}
}

/* Appends exactly size bytes of the ls stream (seed 12345) to b. */
static void
ansi_stream(struct lz_buf *b, size_t size)
{
	struct ansi_rng g = { 12345 };
	size_t start = b->len;

	while (b->len - start < size)
		ansi_ls_line(b, &g);
	b->len = start + size;
	b->buf[b->len] = '\0';
}

static const char *const ansi_kinds[] = { "ls", "sgr24", "wide",
	"combining", "long", "small", "redraw", "scroll", "attrs", "edit" };
#define ANSI_NKINDS (sizeof ansi_kinds / sizeof *ansi_kinds)

/*
 * Appends exactly size bytes of the stream kind for a screen of rows x
 * cols to b; returns -1 (nothing added) for an unknown kind. The last
 * piece is cut at size, so a character or sequence may be cut there.
 */
static inline int
ansi_stream_kind(struct lz_buf *b, const char *kind, size_t size, int rows,
    int cols)
{
	struct ansi_rng g = { 12345 };
	size_t start = b->len;
	int k;

	for (k = 0; k < (int)ANSI_NKINDS; k++)
		if (strcmp(kind, ansi_kinds[k]) == 0)
			break;
	if (k == (int)ANSI_NKINDS)
		return -1;
	if (k == 0) {
		ansi_stream(b, size);
		return 0;
	}
	if (k == 6)
		lz_buf_adds(b, "\033[?1049h");
	if (k == 7)
		lz_buf_addf(b, "\033[H\033[2J\033[1mtitle\033[m\033[2;%dr",
		    rows - 1);
	while (b->len - start < size) {
		switch (k) {
		case 1:
			ansi_sgr24_line(b, &g);
			break;
		case 2:
			ansi_wide_line(b, &g);
			break;
		case 3:
			ansi_combining_line(b, &g);
			break;
		case 4:
			ansi_long_line(b, &g);
			break;
		case 5:
			ansi_small_line(b, &g);
			break;
		case 6:
			ansi_redraw_frame(b, &g, rows, cols);
			break;
		case 7:
			ansi_scroll_step(b, &g, rows, cols);
			break;
		case 8:
			ansi_attrs_line(b, &g);
			break;
		default:
			ansi_edit_line(b, &g);
			break;
		}
	}
	b->len = start + size;
	b->buf[b->len] = '\0';
	return 0;
}

#endif
