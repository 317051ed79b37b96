/*
 * pane-report.c: what a program can ask about its own terminal, answered
 * from the pane (pane.h, "Answers"): the cursor position (DSR 6 and
 * DECXCPR, counted from the margins in origin mode, as xterm), every mode
 * (DECRQM), the window's size in characters and pixels (CSI 11, 14, 15,
 * 16, 18, 19 t), the version (XTVERSION), the unit (DA3), and colours
 * (OSC 4, 10, 11, 12 queries, from the host's colours unless the program
 * set its own). Colour sets and resets (OSC 4, 10-12, 104, 110-112) are
 * kept for the answers. DA1, DA2, DSR 5 and DECRQSS stay libvterm's.
 * Answers go to the pane's reply buffer in stream order; pane.c cancels
 * the query in libvterm first.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane-int.h"
#include "ui/pane.h"

/* The 16 ANSI colours as xterm draws them. */
static const uint32_t xterm16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd,
	0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff,
	0x00ffff, 0xffffff,
};

void
lz_pane_host_default(struct lz_pane_host *h)
{
	memset(h, 0, sizeof *h);
	h->fg = 0xe5e5e5;
	h->bg = 0x000000;
	h->cursor = 0xe5e5e5;
	memcpy(h->palette, xterm16, sizeof h->palette);
	h->cell_w = 8;
	h->cell_h = 16;
}

void
lz_pane_set_host(struct lz_pane *p, const struct lz_pane_host *h)
{
	p->host = *h;
	if (p->host.cell_w == 0 || p->host.cell_h == 0) {
		struct lz_pane_host d;

		lz_pane_host_default(&d);
		p->host.cell_w = d.cell_w;
		p->host.cell_h = d.cell_h;
	}
}

const struct lz_pane_host *
lz_pane_host(const struct lz_pane *p)
{
	return &p->host;
}

/* Palette entry i (0-255) as the host shows it: 16-255 are xterm's. */
static uint32_t
host_index(const struct lz_pane *p, int i)
{
	static const unsigned lev[6] = { 0, 95, 135, 175, 215, 255 };
	unsigned v;

	if (i < 16)
		return p->host.palette[i];
	if (i < 232) {
		i -= 16;
		return lev[i / 36] << 16 | lev[i / 6 % 6] << 8 | lev[i % 6];
	}
	v = 8 + 10 * (unsigned)(i - 232);
	return v << 16 | v << 8 | v;
}

uint32_t
lz_pane_palette(const struct lz_pane *p, int i)
{
	if (p->colors.set[i >> 3] & (1u << (i & 7)))
		return p->colors.pal[i];
	return host_index(p, i);
}

/* Dynamic colour k: 0 foreground, 1 background, 2 cursor. */
static uint32_t
dynamic(const struct lz_pane *p, int k)
{
	if (p->colors.dynset & (1 << k))
		return p->colors.dyn[k];
	return k == 0 ? p->host.fg : k == 1 ? p->host.bg : p->host.cursor;
}

/* The introducers of an answer, 7-bit or 8-bit (S8C1T). */
static void
csi(struct lz_pane *p)
{
	lz_buf_adds(&p->reply, p->t.s8c1t ? "\x9b" : "\033[");
}

static void
dcs(struct lz_pane *p)
{
	lz_buf_adds(&p->reply, p->t.s8c1t ? "\x90" : "\033P");
}

static void
osc(struct lz_pane *p)
{
	lz_buf_adds(&p->reply, p->t.s8c1t ? "\x9d" : "\033]");
}

/* ST, or BEL when the query ended with BEL (as xterm answers). */
static void
st(struct lz_pane *p, int bel)
{
	if (bel)
		lz_buf_addch(&p->reply, '\a');
	else
		lz_buf_adds(&p->reply, p->t.s8c1t ? "\x9c" : "\033\\");
}

/* DECRQM: 1 set, 2 reset, 0 not recognised. */
static int
dec_mode_state(const struct lz_pane *p, long m)
{
	const struct lz_pane_props *pr = &p->props;

	switch (m) {
	case 1:
		return pr->app_cursor;
	case 5:
		return pr->reverse;
	case 6:
		return p->t.origin;
	case 7:
		return p->t.autowrap;
	case 12:
		return pr->cursor_blink;
	case 25:
		return pr->cursor_visible;
	case 66:
		return pr->app_keypad;
	case 69:
		return p->t.lrmm;
	case 9:
	case 1000:
	case 1002:
	case 1003:
		return pr->mouse == m;
	case 1004:
		return pr->focus_events;
	case 1005:
	case 1006:
	case 1015:
		return pr->mouse_enc == m;
	case 1047:
	case 1049:
		return p->alt;
	case 2004:
		return pr->bracketed_paste;
	case 2026:
		return pr->sync;
	default:
		return -1;
	}
}

static int
ansi_mode_state(const struct lz_pane *p, long m)
{
	switch (m) {
	case 4:
		return p->t.insert;
	case 20:
		return p->t.newline;
	default:
		return -1;
	}
}

static void
decrqm(struct lz_pane *p, int dec)
{
	long m = lz_pane_csi_arg(p, 0, 0);
	int v = dec ? dec_mode_state(p, m) : ansi_mode_state(p, m);

	csi(p);
	lz_buf_addf(&p->reply, "%s%ld;%d$y", dec ? "?" : "", m,
	    v < 0 ? 0 : v ? 1 : 2);
}

/* DSR 6 (CPR) and DECXCPR: counted from the margins in origin mode. */
static void
cpr(struct lz_pane *p, int dec)
{
	int row = p->props.cursor_row, col = p->props.cursor_col;

	if (p->t.origin) {
		row -= p->t.top;
		if (p->t.lrmm)
			col -= p->t.left;
	}
	csi(p);
	lz_buf_addf(&p->reply, "%s%d;%dR", dec ? "?" : "", row + 1, col + 1);
}

/* XTWINOPS reports: the pane is the window and the screen. */
static void
winop(struct lz_pane *p, long op)
{
	unsigned w = p->host.cell_w, h = p->host.cell_h;

	csi(p);
	switch (op) {
	case 11:
		lz_buf_adds(&p->reply, "1t");	/* not iconified */
		break;
	case 14:
	case 15:
		lz_buf_addf(&p->reply, "%d;%u;%ut", op == 14 ? 4 : 5,
		    h * (unsigned)p->rows, w * (unsigned)p->cols);
		break;
	case 16:
		lz_buf_addf(&p->reply, "6;%u;%ut", h, w);
		break;
	default:	/* 18, 19 */
		lz_buf_addf(&p->reply, "%d;%d;%dt", op == 18 ? 8 : 9, p->rows,
		    p->cols);
		break;
	}
}

int
lz_pane_query_csi(const struct lz_pane *p, unsigned char c)
{
	long op = lz_pane_csi_arg(p, 0, 0);

	if (p->csi_nleader == 0 && p->csi_ninter == 0) {
		if (c == 'n')
			return op == 6;
		if (c == 't')
			return op == 11 || op == 14 || op == 15 || op == 16 ||
			    op == 18 || op == 19;
		return 0;
	}
	if (p->csi_nleader == 1 && p->csi_ninter == 0) {
		if (p->csi_leader == '?' && c == 'n')
			return op == 6;
		if (p->csi_leader == '>' && c == 'q')
			return op == 0;
		if (p->csi_leader == '=' && c == 'c')
			return op == 0;
		return 0;
	}
	return p->csi_ninter == 1 && p->csi_inter == '$' && c == 'p' &&
	    (p->csi_nleader == 0 || (p->csi_nleader == 1 &&
	    p->csi_leader == '?'));
}

void
lz_pane_answer_csi(struct lz_pane *p, unsigned char c)
{
	int dec = p->csi_nleader == 1 && p->csi_leader == '?';

	switch (c) {
	case 'n':
		cpr(p, dec);
		break;
	case 't':
		winop(p, lz_pane_csi_arg(p, 0, 0));
		break;
	case 'q':
		dcs(p);
		lz_buf_adds(&p->reply, ">|lazaret(" LZ_VERSION ")");
		st(p, 0);
		break;
	case 'c':
		dcs(p);
		lz_buf_adds(&p->reply, "!|00000000");
		st(p, 0);
		break;
	default:	/* 'p' */
		decrqm(p, dec);
		break;
	}
}

/* One hex field of 1 to 4 digits. */
static int
hex_field(const char *s, size_t n, unsigned *v)
{
	unsigned x = 0;
	size_t i;
	int d;

	if (n < 1 || n > 4)
		return -1;
	for (i = 0; i < n; i++) {
		if ((d = lz_hex_digit(s[i])) < 0)
			return -1;
		x = x * 16 + (unsigned)d;
	}
	*v = x;
	return 0;
}

/*
 * A colour as xterm's XParseColor takes it, in the forms programs send:
 * rgb:R/G/B (1 to 4 hex digits each, scaled: rgb:f/0/0 is full red) and
 * #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB (the high bits: #f00 is 0xf0).
 * Names are not known here: -1.
 */
int
lz_pane_parse_color(const char *s, size_t n, uint32_t *rgb)
{
	unsigned c[3], x;
	size_t k, w, start, i;

	if (n > 4 && memcmp(s, "rgb:", 4) == 0) {
		start = 4;
		for (k = 0; k < 3; k++) {
			for (i = start; i < n && s[i] != '/'; i++)
				;
			if ((k < 2) != (i < n) ||
			    hex_field(s + start, i - start, &x) != 0)
				return -1;
			c[k] = x * 255 / ((1u << (4 * (i - start))) - 1);
			start = i + 1;
		}
	} else if (n > 1 && s[0] == '#' && (n - 1) % 3 == 0 && n <= 13) {
		w = (n - 1) / 3;
		for (k = 0; k < 3; k++) {
			if (hex_field(s + 1 + k * w, w, &x) != 0)
				return -1;
			c[k] = w == 1 ? x << 4 : x >> (4 * w - 8);
		}
	} else
		return -1;
	*rgb = c[0] << 16 | c[1] << 8 | c[2];
	return 0;
}

static void
color_reply(struct lz_pane *p, const char *what, uint32_t rgb, int bel)
{
	unsigned r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;

	osc(p);
	lz_buf_addf(&p->reply, "%s;rgb:%04x/%04x/%04x", what, r * 257,
	    g * 257, b * 257);
	st(p, bel);
}

/* The next ';'-separated field of s[*i..n) (the field's end in *end). */
static int
field(const char *s, size_t n, size_t *i, size_t *start, size_t *end)
{
	if (*i > n)
		return 0;
	*start = *i;
	while (*i < n && s[*i] != ';')
		(*i)++;
	*end = *i;
	(*i)++;
	return 1;
}

/* OSC 4 ; index ; spec|? [; index ; spec|? ...] */
static void
osc_palette(struct lz_pane *p, const char *s, size_t n, int bel)
{
	size_t i = 0, a, b, c, d;
	char what[16];
	uint32_t rgb;
	long idx;
	char *endp;
	char num[8];

	while (field(s, n, &i, &a, &b) && field(s, n, &i, &c, &d)) {
		if (b - a == 0 || b - a >= sizeof num)
			return;
		memcpy(num, s + a, b - a);
		num[b - a] = '\0';
		idx = strtol(num, &endp, 10);
		if (*endp != '\0' || idx < 0 || idx > 255)
			return;
		if (d - c == 1 && s[c] == '?') {
			snprintf(what, sizeof what, "4;%ld", idx);
			color_reply(p, what, lz_pane_palette(p, (int)idx), bel);
		} else if (lz_pane_parse_color(s + c, d - c, &rgb) == 0) {
			p->colors.pal[idx] = rgb;
			p->colors.set[idx >> 3] |= (uint8_t)(1u << (idx & 7));
		}
	}
}

/* OSC 104 [; index ...]: back to the host's. */
static void
osc_palette_reset(struct lz_pane *p, const char *s, size_t n)
{
	size_t i = 0, a, b;
	long idx;

	if (n == 0) {
		memset(p->colors.set, 0, sizeof p->colors.set);
		return;
	}
	while (field(s, n, &i, &a, &b)) {
		idx = 0;
		for (; a < b && s[a] >= '0' && s[a] <= '9' && idx < 256; a++)
			idx = idx * 10 + (s[a] - '0');
		if (a == b && idx < 256)
			p->colors.set[idx >> 3] &= (uint8_t)~(1u << (idx & 7));
	}
}

/* OSC 10/11/12 ; spec|? [; spec|? ...]: each next one the next colour. */
static void
osc_dynamic(struct lz_pane *p, int k, const char *s, size_t n, int bel)
{
	size_t i = 0, a, b;
	char what[16];
	uint32_t rgb;

	for (; k < 3 && field(s, n, &i, &a, &b); k++) {
		if (b - a == 1 && s[a] == '?') {
			snprintf(what, sizeof what, "%d", 10 + k);
			color_reply(p, what, dynamic(p, k), bel);
		} else if (lz_pane_parse_color(s + a, b - a, &rgb) == 0) {
			p->colors.dyn[k] = rgb;
			p->colors.dynset |= 1 << k;
		}
	}
}

int
lz_pane_osc_color(struct lz_pane *p, const char *s, size_t n, int bel)
{
	size_t i = 0;
	long num = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && num < 1000)
		num = num * 10 + (s[i++] - '0');
	if (i == 0 || (i < n && s[i] != ';'))
		return 0;
	if (i < n)
		i++;
	switch (num) {
	case 4:
		osc_palette(p, s + i, n - i, bel);
		return 1;
	case 10:
	case 11:
	case 12:
		osc_dynamic(p, (int)num - 10, s + i, n - i, bel);
		return 1;
	case 104:
		osc_palette_reset(p, s + i, n - i);
		return 1;
	case 110:
	case 111:
	case 112:
		p->colors.dynset &= ~(1 << (num - 110));
		return 1;
	default:
		return 0;
	}
}

void
lz_pane_colors_reset(struct lz_pane *p, int dynamic_too)
{
	memset(p->colors.set, 0, sizeof p->colors.set);
	if (dynamic_too)
		p->colors.dynset = 0;
}
