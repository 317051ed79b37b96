/*
 * tui-host.c: the host terminal's colours and cell size, asked once when
 * the TUI starts, for the panes to answer their programs' queries with
 * (ui/pane.h, struct lz_pane_host). The questions go out with the first
 * frame and DA1 last: every terminal answers DA1, and answers come in
 * order, so DA1's answer says no other is coming. Nothing waits for them:
 * the TUI draws and reads keys meanwhile, taking the answers out of the
 * input as they come (before the keys, in the same reads) until DA1's, or
 * for TUI_HOST_MS if DA1's never comes. What is not answered keeps
 * lz_pane_host_default's value.
 */
#include <string.h>
#include <time.h>

#include "src/tui.h"

static const char question[] =
    "\033]10;?\033\\\033]11;?\033\\\033]12;?\033\\"
    "\033]4;0;?;1;?;2;?;3;?;4;?;5;?;6;?;7;?;8;?;9;?;10;?;11;?;12;?;13;?;"
    "14;?;15;?\033\\\033[16t\033[14t\033[c";

void
tui_host_ask(struct tui *t)
{
	lz_pane_host_default(&t->host);
	lz_buf_adds(&t->out, question);
	t->host_asking = 1;
	t->host_text_w = t->host_text_h = 0;
	clock_gettime(CLOCK_MONOTONIC, &t->host_since);
}

/* Every pane answers with what the host said: the mirrors, and the
 * coordinator's panes (HOST). */
static void
apply(struct tui *t)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_msg_host m;
	int i;

	if (t->host_text_w > 0 && t->host_text_h > 0 && t->rows > 0 &&
	    t->cols > 0 && t->host.cell_w == 8 && t->host.cell_h == 16) {
		/* Only the text area's size: the cell is its part. */
		t->host.cell_w = (unsigned)t->host_text_w / (unsigned)t->cols;
		t->host.cell_h = (unsigned)t->host_text_h / (unsigned)t->rows;
	}
	tui_host_msg(t, &m);
	for (i = 0; i < t->npanes; i++) {
		lz_pane_set_host(t->panes[i]->pane, &t->host);
		/* The session's pane answers its program: tell it too. */
		if (!t->panes[i]->is_pty && !t->panes[i]->ended) {
			lz_msg_host_add(&b, &m);
			tui_pane_control(t, t->panes[i], &b);
		}
	}
	lz_buf_release(&b);
}

void
tui_host_msg(const struct tui *t, struct lz_msg_host *m)
{
	memset(m, 0, sizeof *m);
	m->have = 1;
	m->fg = t->host.fg;
	m->bg = t->host.bg;
	m->cursor = t->host.cursor;
	memcpy(m->palette, t->host.palette, sizeof m->palette);
	m->cell_w = t->host.cell_w ? t->host.cell_w : 8;
	m->cell_h = t->host.cell_h ? t->host.cell_h : 16;
}

/* An OSC answer (s[0..n), after ESC ]): a colour. */
static void
osc_answer(struct tui *t, const char *s, size_t n)
{
	const char *semi;
	uint32_t rgb;
	long k = 0, idx = -1;
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && k < 1000)
		k = k * 10 + (s[i++] - '0');
	if (i >= n || s[i] != ';')
		return;
	i++;
	if (k == 4) {
		for (idx = 0; i < n && s[i] >= '0' && s[i] <= '9' && idx < 1000;
		    i++)
			idx = idx * 10 + (s[i] - '0');
		if (i >= n || s[i] != ';' || idx > 15)
			return;
		i++;
	}
	semi = memchr(s + i, ';', n - i);
	if (semi != NULL || lz_pane_parse_color(s + i, n - i, &rgb) != 0)
		return;
	if (k == 4)
		t->host.palette[idx] = rgb;
	else if (k == 10)
		t->host.fg = rgb;
	else if (k == 11)
		t->host.bg = rgb;
	else if (k == 12)
		t->host.cursor = rgb;
}

/* A CSI answer (params s[0..n), final f): a size, or DA1's. */
static void
csi_answer(struct tui *t, const char *s, size_t n, char f)
{
	long v[3] = { 0, 0, 0 };
	size_t i;
	int k = 0;

	if (f == 'c') {
		t->host_asking = 0;	/* DA1: the last answer */
		apply(t);
		return;
	}
	for (i = 0; i < n && k < 3; i++) {
		if (s[i] == ';')
			k++;
		else if (s[i] >= '0' && s[i] <= '9' && v[k] < 100000)
			v[k] = v[k] * 10 + (s[i] - '0');
		else
			return;
	}
	if (k != 2 || v[1] <= 0 || v[2] <= 0)
		return;
	if (v[0] == 6) {
		t->host.cell_h = (unsigned)v[1];
		t->host.cell_w = (unsigned)v[2];
	} else if (v[0] == 4) {
		t->host_text_h = (int)v[1];
		t->host_text_w = (int)v[2];
	}
}

/*
 * Takes an answer at buf[0..n): the bytes it used, 0 when buf does not
 * start with one (keys), or n + 1 when it may, cut by the read (wait).
 */
static size_t
answer(struct tui *t, const unsigned char *buf, size_t n)
{
	size_t i;

	if (n < 2)
		return buf[0] == 0x1b ? n + 1 : 0;
	if (buf[0] != 0x1b || (buf[1] != ']' && buf[1] != '['))
		return 0;
	if (buf[1] == ']') {
		for (i = 2; i < n && i < TUI_HOST_ANSWER_MAX; i++) {
			if (buf[i] == 0x07) {
				osc_answer(t, (const char *)buf + 2, i - 2);
				return i + 1;
			}
			if (buf[i] == 0x1b && i + 1 < n && buf[i + 1] == '\\') {
				osc_answer(t, (const char *)buf + 2, i - 2);
				return i + 2;
			}
		}
		return i < TUI_HOST_ANSWER_MAX ? n + 1 : 0;
	}
	/* ESC [ ? ... c (DA1) or ESC [ digits ; ... t */
	for (i = 2; i < n && i < TUI_HOST_ANSWER_MAX; i++) {
		if (buf[i] >= 0x40 && buf[i] <= 0x7e) {
			if ((buf[i] == 'c' && buf[2] == '?') ||
			    (buf[i] == 't' && buf[2] != '?')) {
				csi_answer(t, (const char *)buf + 2 +
				    (buf[2] == '?'), i - 2 - (buf[2] == '?'),
				    (char)buf[i]);
				return i + 1;
			}
			return 0;	/* a key, e.g. an arrow */
		}
	}
	return i < TUI_HOST_ANSWER_MAX ? n + 1 : 0;
}

size_t
tui_host_input(struct tui *t, const unsigned char *buf, size_t n)
{
	size_t used = 0, k;

	if (!t->host_asking)
		return 0;
	if (tui_ms_since(&t->host_since) > TUI_HOST_MS) {
		t->host_asking = 0;	/* no DA1 answer: keep what came */
		apply(t);
		return 0;
	}
	while (used < n && t->host_asking) {
		k = answer(t, buf + used, n - used);
		if (k == 0)
			break;
		if (k > n - used) {
			/* Cut by the read: keep it for the next one. */
			if (n - used < sizeof t->host_pend) {
				memcpy(t->host_pend, buf + used, n - used);
				t->host_npend = n - used;
				return n;
			}
			break;
		}
		used += k;
	}
	return used;
}
