/*
 * tui-mouse.c: the mouse, as tmux users have it with "mouse on" ([tui]
 * mouse, on by default). The TUI asks the host terminal for button and
 * drag reports in SGR form (?1000, ?1002, ?1006; any motion, ?1003, only
 * while a pane's program wants it), and reads them out of the input:
 *
 *   - a click focuses the pane under it; a press on a border and a drag
 *     moves the border;
 *   - on a pane whose program asked for the mouse (?9, ?1000, ?1002,
 *     ?1003), events go to that program, and to no other: translated to
 *     the pane's coordinates, in its encoding (X10, UTF-8 ?1005, SGR
 *     ?1006, URXVT ?1015), filtered by its mode (X10 presses only, 1000
 *     presses and releases, 1002 with drags, 1003 with any motion); a drag
 *     stays with the pane it began in;
 *   - otherwise the wheel scrolls the pane's history (copy mode, left
 *     again at the bottom) and a drag selects text, copied on release.
 *
 * The host terminal's own selection stays on Shift (most terminals skip
 * reporting while Shift is held). Legacy X10 reports (ESC [ M) from a host
 * without SGR are read too, up to column and row 223.
 */
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "src/tui.h"

/* Button bits of a report (xterm's): low two, then modifiers, motion, wheel. */
#define MB_MASK 3
#define MB_RELEASE 3
#define MB_MODS 28		/* shift 4, meta 8, ctrl 16 */
#define MB_MOTION 32
#define MB_WHEEL 64
#define WHEEL_LINES 3

enum drag {
	DRAG_NONE,
	DRAG_BORDER,		/* moving a border */
	DRAG_SELECT,		/* selecting in a pane (copy mode) */
	DRAG_PANE,		/* events go to a pane's program */
};

void
tui_mouse_mode(struct tui *t, struct lz_buf *out)
{
	int i, any = 0;

	if (!t->conf->mouse || t->bench_quiet)
		return;
	for (i = 0; i < t->npanes; i++) {
		if (lz_pane_props(t->panes[i]->pane)->mouse == LZ_MOUSE_MOVE)
			any = 1;
	}
	if (!t->mouse_on) {
		lz_buf_adds(out, "\033[?1000h\033[?1002h\033[?1006h");
		t->mouse_on = 1;
		t->mouse_any = 0;
	}
	if (any != t->mouse_any) {
		lz_buf_adds(out, any ? "\033[?1003h" : "\033[?1003l");
		t->mouse_any = any;
	}
}

void
tui_mouse_off(struct lz_buf *out)
{
	lz_buf_adds(out, "\033[?1006l\033[?1003l\033[?1002l\033[?1000l");
}

/* The pane at screen (row, col), or NULL. */
static struct tui_pane *
pane_at(struct tui *t, int row, int col)
{
	struct lz_rect r;
	int i;

	for (i = 0; i < t->npanes; i++) {
		r = t->panes[i]->rect;
		if (r.rows > 0 && row >= r.row && row < r.row + r.rows &&
		    col >= r.col && col < r.col + r.cols)
			return t->panes[i];
	}
	return NULL;
}

static int
index_of(struct tui *t, struct tui_pane *p)
{
	int i;

	for (i = 0; i < t->npanes; i++) {
		if (t->panes[i] == p)
			return i;
	}
	return -1;
}

/* Whether a pane's program takes this event, by its mode. */
static int
wanted(int mode, int b, int release)
{
	switch (mode) {
	case LZ_MOUSE_X10:
		return !release && !(b & MB_MOTION);
	case LZ_MOUSE_CLICK:
		return !(b & MB_MOTION);
	case LZ_MOUSE_DRAG:
		return !(b & MB_MOTION) || (b & MB_MASK) != MB_RELEASE;
	case LZ_MOUSE_MOVE:
		return 1;
	default:
		return 0;
	}
}

/*
 * Writes the event to pane p in its encoding, at (row, col) of the
 * screen, clamped into the pane (a drag that leaves it).
 */
static void
forward(struct tui *t, struct tui_pane *p, int b, int release, int row,
    int col)
{
	const struct lz_pane_props *pr = lz_pane_props(p->pane);
	struct lz_buf out = LZ_BUF_INIT;
	int x = col - p->rect.col + 1, y = row - p->rect.row + 1;

	x = x < 1 ? 1 : x > p->rect.cols ? p->rect.cols : x;
	y = y < 1 ? 1 : y > p->rect.rows ? p->rect.rows : y;
	if (!wanted(pr->mouse, b, release))
		return;
	if (pr->mouse == LZ_MOUSE_X10)
		b &= MB_MASK | MB_WHEEL;	/* X10: no modifiers */
	switch (pr->mouse_enc) {
	case LZ_MOUSE_ENC_SGR:
		lz_buf_addf(&out, "\033[<%d;%d;%d%c", b, x, y,
		    release ? 'm' : 'M');
		break;
	case LZ_MOUSE_ENC_URXVT:
		if (release)
			b = (b & ~MB_MASK) | MB_RELEASE;
		lz_buf_addf(&out, "\033[%d;%d;%dM", 32 + b, x, y);
		break;
	case LZ_MOUSE_ENC_UTF8:
		if (release)
			b = (b & ~MB_MASK) | MB_RELEASE;
		if (x > 2015 || y > 2015)
			break;
		lz_buf_adds(&out, "\033[M");
		lz_buf_add_utf8(&out, (uint32_t)(32 + b));
		lz_buf_add_utf8(&out, (uint32_t)(32 + x));
		lz_buf_add_utf8(&out, (uint32_t)(32 + y));
		break;
	default:
		if (release)
			b = (b & ~MB_MASK) | MB_RELEASE;
		if (x > 223 || y > 223)
			break;		/* X10 cannot say it */
		lz_buf_addf(&out, "\033[M%c%c%c", 32 + b, 32 + x, 32 + y);
		break;
	}
	if (out.len > 0)
		tui_pane_input(t, p, out.buf, out.len);
	lz_buf_release(&out);
}

/* One event at screen (row, col), 0-based. */
static void
event(struct tui *t, int b, int release, int row, int col)
{
	struct tui_pane *p = pane_at(t, row, col), *a;
	int motion = b & MB_MOTION, wheel = b & MB_WHEEL, i;

	if (t->mode != TUI_NORMAL && t->mode != TUI_COPY)
		return;		/* an overlay or a question has the screen */
	if (t->drag != DRAG_NONE && (motion || release)) {
		i = t->drag_pane;
		a = i >= 0 && i < t->npanes ? t->panes[i] : NULL;
		switch (t->drag) {
		case DRAG_BORDER:
			if (release)
				break;
			i = lz_layout_move_border(&t->layout, t->drag_row,
			    t->drag_col, t->drag_vertical ? row : col);
			if (i >= 0) {
				if (t->drag_vertical)
					t->drag_row = i;
				else
					t->drag_col = i;
				tui_layout(t);
			}
			break;
		case DRAG_SELECT:
			if (a == NULL)
				break;
			if (!release) {
				/* From where the button went down. */
				if (!t->drag_moved)
					tui_copy_select(t, a, 1, t->drag_row -
					    a->rect.row, t->drag_col -
					    a->rect.col);
				tui_copy_select(t, a, 0, row - a->rect.row,
				    col - a->rect.col);
				t->drag_moved = 1;
			} else if (t->drag_moved)
				tui_copy_done(t, a);	/* copied */
			break;
		default:
			if (a != NULL)
				forward(t, a, b, release, row, col);
			break;
		}
		if (release)
			t->drag = DRAG_NONE;
		t->dirty = 1;
		return;
	}
	if (motion) {
		/* Motion with no drag: only ?1003 programs see it. */
		if (p != NULL && lz_pane_props(p->pane)->mouse == LZ_MOUSE_MOVE)
			forward(t, p, b, 0, row, col);
		return;
	}
	if (release)
		return;
	if (p == NULL) {
		if ((i = lz_layout_border_at(&t->layout, row, col)) >= 0 &&
		    (b & MB_MASK) == 0) {
			t->drag = DRAG_BORDER;
			t->drag_vertical = i;
			t->drag_row = row;
			t->drag_col = col;
		}
		return;
	}
	if ((b & MB_MASK) == 0 || wheel)
		tui_focus(t, index_of(t, p));
	t->drag_pane = index_of(t, p);
	if (lz_pane_props(p->pane)->mouse != LZ_MOUSE_NONE &&
	    t->mode == TUI_NORMAL) {
		forward(t, p, b, 0, row, col);
		if (!wheel)
			t->drag = DRAG_PANE;
	} else if (wheel) {
		if ((b & MB_MASK) <= 1)
			tui_copy_scroll(t, p, (b & MB_MASK) == 0 ?
			    WHEEL_LINES : -WHEEL_LINES);
	} else if ((b & MB_MASK) == 0) {
		t->drag = DRAG_SELECT;
		t->drag_moved = 0;
		t->drag_row = row;
		t->drag_col = col;
		if (t->mode == TUI_COPY) {
			/* A click in copy mode places its cursor. */
			tui_copy_select(t, p, 0, row - p->rect.row,
			    col - p->rect.col);
		}
	}
	t->dirty = 1;
}

/* The decimal number at s[*i..end), -1 if none or huge. */
static int
number(const unsigned char *s, size_t end, size_t *i)
{
	int v = 0, k = 0;

	for (; *i < end && s[*i] >= '0' && s[*i] <= '9'; (*i)++, k++) {
		if (v > 100000)
			return -1;
		v = v * 10 + (s[*i] - '0');
	}
	if (*i < end && s[*i] == ';')
		(*i)++;
	return k > 0 ? v : -1;
}

size_t
tui_mouse_input(struct tui *t, const unsigned char *s, size_t n)
{
	size_t i, j;
	int b, x, y;

	if (!t->mouse_on || n < 3 || s[0] != 0x1b || s[1] != '[')
		return 0;
	if (s[2] == 'M') {
		/* X10: three bytes of 32 + value. */
		if (n < 6)
			return n + 1;
		if (s[3] >= 32 && s[4] > 32 && s[5] > 32)
			event(t, s[3] - 32, ((s[3] - 32) & MB_MASK) ==
			    MB_RELEASE && !((s[3] - 32) & MB_WHEEL), s[5] - 33,
			    s[4] - 33);
		return 6;
	}
	if (s[2] != '<')
		return 0;
	/* SGR: ESC [ < b ; x ; y M|m, dropped whole if malformed. */
	for (j = 3; j < n && j < TUI_HOST_ANSWER_MAX &&
	    ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'); j++)
		;
	if (j == n && j < TUI_HOST_ANSWER_MAX)
		return n + 1;		/* cut by the read */
	if (j == n || (s[j] != 'M' && s[j] != 'm'))
		return j;
	i = 3;
	b = number(s, j, &i);
	x = number(s, j, &i);
	y = number(s, j, &i);
	if (b >= 0 && x >= 1 && y >= 1 && i == j)
		event(t, b, s[j] == 'm', y - 1, x - 1);
	return j + 1;
}
