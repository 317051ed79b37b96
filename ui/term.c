/*
 * term.c: the host terminal's capabilities (see term.h).
 */
#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>

#include "ui/grid.h"
#include "ui/term.h"

/* The 16 ANSI colours as xterm draws them, for nearest-colour matching. */
static const uint32_t ansi16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd,
	0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff,
	0x00ffff, 0xffffff,
};

static char *
cap(const char *name)
{
	char *s = tigetstr(name);

	return (s == NULL || s == (char *)-1) ? NULL : lz_xstrdup(s);
}

static int
flag(const char *name)
{
	return tigetflag(name) > 0;
}

int
lz_term_load(struct lz_term *t, const char *term, int fd, struct lz_err *err)
{
	const char *ct = getenv("COLORTERM");
	int e = 0;

	memset(t, 0, sizeof *t);
	if (term == NULL)
		term = getenv("TERM");
	if (term == NULL || *term == '\0')
		return lz_err_set(err, LZ_EINVAL, "TERM is not set; set it to "
		    "your terminal's type (e.g. xterm-256color)");
	if (setupterm(term, fd, &e) != OK)
		return lz_err_set(err, LZ_ENOTFOUND, "no terminfo entry for "
		    "TERM '%s' (install ncurses-term, or use 'lazaret run' "
		    "for a raw session)", term);
	t->name = lz_xstrdup(term);
	t->cup = cap("cup");
	if (t->cup == NULL) {
		lz_term_release(t);
		return lz_err_set(err, LZ_EINVAL, "terminal '%s' cannot move "
		    "the cursor (no cup); the TUI needs it: use 'lazaret run' "
		    "for a raw session", term);
	}
	t->sgr0 = cap("sgr0");
	t->bold = cap("bold");
	t->sitm = cap("sitm");
	t->smul = cap("smul");
	t->rev = cap("rev");
	t->blink = cap("blink");
	t->smxx = cap("smxx");
	t->civis = cap("civis");
	t->cnorm = cap("cnorm");
	t->smcup = cap("smcup");
	t->rmcup = cap("rmcup");
	t->clear = cap("clear");
	t->el = cap("el");
	t->setaf = cap("setaf");
	t->setab = cap("setab");
	t->op = cap("op");
	t->rmam = cap("rmam");
	t->smam = cap("smam");
	t->home = cap("home");
	t->colors = tigetnum("colors");
	if (t->colors < 0 || t->setaf == NULL || t->setab == NULL)
		t->colors = 0;
	if (t->colors > 256)
		t->colors = 256;
	t->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	/*
	 * OSC 52: terminfo's Ms (tmux's extension), or the families that
	 * document it (tmux forwards it with set-clipboard on or external).
	 */
	t->osc52 = tigetstr("Ms") != NULL && tigetstr("Ms") != (char *)-1;
	if (strncmp(term, "xterm", 5) == 0 || strncmp(term, "tmux", 4) == 0 ||
	    strncmp(term, "screen", 6) == 0 || strncmp(term, "foot", 4) == 0 ||
	    strncmp(term, "alacritty", 9) == 0 || strstr(term, "kitty") ||
	    strncmp(term, "wezterm", 7) == 0)
		t->osc52 = 1;
	/*
	 * OSC 8: the families that draw it or, like tmux before 3.4, drop
	 * it whole (screen is not one: it may show the URI).
	 */
	t->hyperlinks = strncmp(term, "xterm", 5) == 0 ||
	    strncmp(term, "tmux", 4) == 0 || strncmp(term, "foot", 4) == 0 ||
	    strncmp(term, "alacritty", 9) == 0 || strstr(term, "kitty") ||
	    strncmp(term, "wezterm", 7) == 0;
	if (flag("RGB") || flag("Tc")) {
		t->rgb = 1;
		snprintf(t->colour_why, sizeof t->colour_why, "24-bit "
		    "(terminfo %s)", flag("RGB") ? "RGB" : "Tc");
	} else if (ct != NULL && (strcmp(ct, "truecolor") == 0 ||
	    strcmp(ct, "24bit") == 0) && t->colors >= 256) {
		t->rgb = 1;
		snprintf(t->colour_why, sizeof t->colour_why, "24-bit "
		    "(COLORTERM=%s)", ct);
	} else if (t->colors > 0)
		snprintf(t->colour_why, sizeof t->colour_why, "%d colours "
		    "(24-bit mapped to the nearest)", t->colors);
	else
		snprintf(t->colour_why, sizeof t->colour_why, "no colour "
		    "(terminfo '%s' has none)", term);
	return 0;
}

void
lz_term_release(struct lz_term *t)
{
	char **s[] = { &t->name, &t->cup, &t->sgr0, &t->bold, &t->sitm,
	    &t->smul, &t->rev, &t->blink, &t->smxx, &t->civis, &t->cnorm,
	    &t->smcup, &t->rmcup, &t->clear, &t->el, &t->setaf, &t->setab,
	    &t->op, &t->rmam, &t->smam, &t->home };
	size_t i;

	if (t->name != NULL && cur_term != NULL)
		del_curterm(cur_term);	/* setupterm's, one per load */
	for (i = 0; i < sizeof s / sizeof s[0]; i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
}

void
lz_term_goto(const struct lz_term *t, struct lz_buf *out, int row, int col)
{
	lz_buf_adds(out, tiparm(t->cup, row, col));
}

static unsigned
dist2(uint32_t a, uint32_t b)
{
	int dr = (int)(a >> 16 & 0xff) - (int)(b >> 16 & 0xff);
	int dg = (int)(a >> 8 & 0xff) - (int)(b >> 8 & 0xff);
	int db = (int)(a & 0xff) - (int)(b & 0xff);

	return (unsigned)(dr * dr + dg * dg + db * db);
}

static uint32_t
rgb_of_256(int i)
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	int g;

	if (i < 16)
		return ansi16[i];
	if (i >= 232) {
		g = 8 + (i - 232) * 10;
		return (uint32_t)(g << 16 | g << 8 | g);
	}
	i -= 16;
	return (uint32_t)(level[i / 36] << 16 | level[i / 6 % 6] << 8 |
	    level[i % 6]);
}

int
lz_colour_rgb_to_256(uint32_t rgb)
{
	int best = 16, i;
	unsigned d, bd = ~0u;

	/* The cube and the grey ramp; 0-15 vary between terminals. */
	for (i = 16; i < 256; i++) {
		d = dist2(rgb, rgb_of_256(i));
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

int
lz_colour_256_to_16(int index)
{
	int best = 0, i;
	unsigned d, bd = ~0u;
	uint32_t rgb = rgb_of_256(index);

	if (index < 16)
		return index;
	for (i = 0; i < 16; i++) {
		d = dist2(rgb, ansi16[i]);
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

/* One colour, fg or bg: direct, or the nearest index the entry has. */
static void
colour(const struct lz_term *t, struct lz_buf *out, uint32_t c, int bg)
{
	int idx;

	if (LZ_COLOR_KIND(c) == LZ_COLOR_KIND_DEFAULT || t->colors == 0)
		return;
	if (LZ_COLOR_KIND(c) == LZ_COLOR_KIND_RGB) {
		if (t->rgb) {
			lz_buf_addf(out, "\033[%d;2;%u;%u;%um", bg ? 48 : 38,
			    c >> 16 & 0xff, c >> 8 & 0xff, c & 0xff);
			return;
		}
		idx = lz_colour_rgb_to_256(c & 0xffffff);
	} else
		idx = (int)(c & 0xff);
	if (idx >= t->colors)
		idx = lz_colour_256_to_16(idx);
	if (idx >= t->colors)
		idx &= 7;
	lz_buf_adds(out, tiparm(bg ? t->setab : t->setaf, idx));
}

void
lz_term_colours(const struct lz_term *t, struct lz_buf *out, uint32_t fg,
    uint32_t bg)
{
	colour(t, out, fg, 0);
	colour(t, out, bg, 1);
}
