/*
 * tui-copy.c: copy mode, tmux's vi keys: move with the arrows or h j k l,
 * PageUp/PageDown (C-b/C-f), g and G for the top and bottom of the
 * history, 0 and $ for a line's ends; / and ? search down and up, n and N
 * repeat; Space starts a selection, Enter copies it (or the cursor's line;
 * rows a line soft-wrapped over are joined) and leaves; u copies the URI
 * of the hyperlink under the cursor (as the host sees it) and leaves; q or
 * Escape leaves. The mouse wheel scrolls
 * and a drag selects (tui-mouse.c). The text goes to the paste buffer
 * (prefix ] types it) and, when the host terminal takes OSC 52, to its
 * clipboard.
 *
 * Lines are numbered as lz_pane_line_text does: 0 is the top row of the
 * live screen, -1 the newest scrollback line. View row y with the view
 * scrolled back b lines shows line y - b.
 */
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "src/tui.h"

static long
sb_lines(struct tui_pane *p)
{
	return (long)lz_pane_scrollback_lines(p->pane);
}

static int
rows(struct tui_pane *p)
{
	return p->rect.rows > 0 ? p->rect.rows : 1;
}

static void
clamp(struct tui_pane *p)
{
	long back = (long)p->back;

	if (back > sb_lines(p))
		back = sb_lines(p);
	if (back < 0)
		back = 0;
	p->back = (size_t)back;
	if (p->cy < 0)
		p->cy = 0;
	if (p->cy >= rows(p))
		p->cy = rows(p) - 1;
	if (p->cx < 0)
		p->cx = 0;
	if (p->cx >= p->rect.cols)
		p->cx = p->rect.cols - 1;
}

void
tui_copy_enter(struct tui *t)
{
	struct tui_pane *p = tui_active(t);
	const struct lz_pane_props *pr;

	if (p == NULL)
		return;
	pr = lz_pane_props(p->pane);
	p->back = 0;
	p->cy = pr->cursor_row;
	p->cx = pr->cursor_col;
	p->sel = 0;
	t->mode = TUI_COPY;
	clamp(p);
}

/* Moves the cursor by dy lines, scrolling the view at its edges. */
static void
move_lines(struct tui_pane *p, long dy)
{
	long y = p->cy + dy, back = (long)p->back;

	if (y < 0) {
		back -= y;
		y = 0;
	} else if (y >= rows(p)) {
		back -= y - (rows(p) - 1);
		y = rows(p) - 1;
	}
	if (back > sb_lines(p))
		back = sb_lines(p);
	if (back < 0)
		back = 0;
	p->back = (size_t)back;
	p->cy = (int)y;
	clamp(p);
}

/*
 * Walks UTF-8 text s of len bytes by display columns until byte max_off or
 * column max_col, whichever comes first; *off and *col say where it
 * stopped. An invalid byte counts as one column.
 */
static void
walk(const char *s, size_t len, size_t max_off, int max_col, size_t *off,
    int *col)
{
	mbstate_t st;
	wchar_t wc;
	size_t i = 0, n;
	int c = 0, w;

	memset(&st, 0, sizeof st);
	while (i < len && i < max_off && c < max_col) {
		n = mbrtowc(&wc, s + i, len - i, &st);
		if (n == 0 || n > len - i) {
			i++;
			c++;
			memset(&st, 0, sizeof st);
			continue;
		}
		w = wcwidth(wc);
		c += w > 0 ? w : 0;
		i += n;
	}
	*off = i;
	*col = c;
}

/* Display column of byte offset off in UTF-8 text. */
static int
col_of(const char *s, size_t off)
{
	size_t o;
	int c;

	walk(s, off, off, INT_MAX, &o, &c);
	return c;
}

/* Byte offset of display column col in text of len bytes. */
static size_t
off_of(const char *s, size_t len, int col)
{
	size_t o;
	int c;

	walk(s, len, len, col, &o, &c);
	return o;
}

/* Puts line at the view's middle (or as near as the history allows). */
static void
show_line(struct tui_pane *p, long line, int col)
{
	long back = rows(p) / 2 - line;

	if (line + (long)p->back >= 0 && line + (long)p->back < rows(p))
		back = (long)p->back;	/* already in view */
	if (back < 0)
		back = 0;
	if (back > sb_lines(p))
		back = sb_lines(p);
	p->back = (size_t)back;
	p->cy = (int)(line + back);
	p->cx = col;
	clamp(p);
}

static void
search(struct tui *t, int up)
{
	struct tui_pane *p = tui_active(t);
	struct lz_buf text = LZ_BUF_INIT;
	long line, first = -sb_lines(p), last;
	char *hit;
	char pat[sizeof t->search + 1];

	if (p == NULL || t->search_len == 0)
		return;
	memcpy(pat, t->search, t->search_len);
	pat[t->search_len] = '\0';
	last = (long)lz_pane_rows(p->pane) - 1;
	for (line = (long)p->cy - (long)p->back + (up ? -1 : 1);
	    line >= first && line <= last; line += up ? -1 : 1) {
		lz_buf_reset(&text);
		lz_pane_line_text(p->pane, line, &text);
		if (text.len > 0 && (hit = strstr(text.buf, pat)) != NULL) {
			show_line(p, line, col_of(text.buf,
			    (size_t)(hit - text.buf)));
			lz_buf_release(&text);
			return;
		}
	}
	lz_buf_release(&text);
	tui_message(t, "'%s' not found %s", pat, up ? "above" : "below");
}

/* The selection's ends in reading order: (l0, c0) to (l1, c1). */
static void
sel_bounds(const struct tui_pane *p, long *l0, int *c0, long *l1, int *c1)
{
	long cur = (long)p->cy - (long)p->back;

	*l0 = p->sel_line;
	*c0 = p->sel_col;
	*l1 = cur;
	*c1 = p->cx;
	if (*l1 < *l0 || (*l1 == *l0 && *c1 < *c0)) {
		*l0 = cur;
		*c0 = p->cx;
		*l1 = p->sel_line;
		*c1 = p->sel_col;
	}
}

static void to_clipboard(struct tui *t);

/* The selected text, line by line, into the paste buffer. */
static void
copy(struct tui *t, struct tui_pane *p)
{
	struct lz_buf text = LZ_BUF_INIT;
	long l0, l1, cur = (long)p->cy - (long)p->back, line;
	int c0, c1;
	size_t a, b;

	if (p->sel)
		sel_bounds(p, &l0, &c0, &l1, &c1);
	else {
		l0 = l1 = cur;
		c0 = 0;
		c1 = p->rect.cols;
	}
	lz_buf_reset(&t->paste);
	for (line = l0; line <= l1; line++) {
		lz_buf_reset(&text);
		lz_pane_line_text(p->pane, line, &text);
		a = line == l0 ? off_of(text.buf, text.len, c0) : 0;
		b = line == l1 ? off_of(text.buf, text.len, c1 + 1) : text.len;
		if (b > a)
			lz_buf_add(&t->paste, text.buf + a, b - a);
		/* A soft-wrapped row goes on in the next: no line end. */
		if (line != l1 && !(line < 0 ?
		    lz_pane_scrollback_wrapped(p->pane, (size_t)(-1 - line)) :
		    lz_pane_wrapped(p->pane, (int)line)))
			lz_buf_addch(&t->paste, '\n');
	}
	lz_buf_release(&text);
	to_clipboard(t);
}

/* The paste buffer to the host's clipboard (OSC 52), and says so. */
static void
to_clipboard(struct tui *t)
{
	if (t->term.osc52 && t->paste.len > 0) {
		unsigned char *enc = lz_xmalloc(4 * ((t->paste.len + 2) / 3) +
		    1);

		EVP_EncodeBlock(enc, (const unsigned char *)t->paste.buf,
		    (int)t->paste.len);
		lz_buf_adds(&t->out, "\033]52;c;");
		lz_buf_adds(&t->out, (char *)enc);
		lz_buf_adds(&t->out, "\a");
		free(enc);
	}
	tui_message(t, "copied %zu bytes%s", t->paste.len, t->term.osc52 ?
	    " (and to the terminal's clipboard)" : "");
}

/* The mouse wheel: lines back (> 0) or forward, copy mode on the way. */
void
tui_copy_scroll(struct tui *t, struct tui_pane *p, int lines)
{
	long back;

	if (t->mode != TUI_COPY || tui_active(t) != p) {
		if (lines < 0)
			return;		/* already at the bottom */
		tui_copy_enter(t);
		p->wheel = 1;
	}
	back = (long)p->back + lines;
	p->back = back < 0 ? 0 : back > sb_lines(p) ? (size_t)sb_lines(p) :
	    (size_t)back;
	clamp(p);
	if (p->wheel && p->back == 0 && lines < 0) {
		p->wheel = 0;
		t->mode = TUI_NORMAL;	/* back at the bottom, as tmux */
	}
}

/*
 * A mouse selection in pane p (the active one) at view (y, x): start
 * begins it there (copy mode on), otherwise it extends to there.
 */
void
tui_copy_select(struct tui *t, struct tui_pane *p, int start, int y, int x)
{
	if (t->mode != TUI_COPY) {
		tui_copy_enter(t);
		p->wheel = 1;
	}
	p->cy = y;
	p->cx = x;
	clamp(p);
	if (start) {
		p->sel = 1;
		p->sel_line = (long)p->cy - (long)p->back;
		p->sel_col = p->cx;
	}
}

/* The mouse let go of a selection: copy it, and leave copy mode. */
void
tui_copy_done(struct tui *t, struct tui_pane *p)
{
	if (t->mode == TUI_COPY && p->sel)
		copy(t, p);
	p->back = 0;
	p->sel = 0;
	p->wheel = 0;
	t->mode = TUI_NORMAL;
}

int
tui_link_uri(struct tui *t, struct tui_pane *p, int k, struct lz_buf *out)
{
	const char *uri = lz_pane_link(p->pane, k);

	return uri != NULL && lz_hyperlink_host(uri, &t->links, out);
}

/* Copies the URI of the link under the copy cursor (as the host sees it). */
static void
copy_link(struct tui *t, struct tui_pane *p)
{
	long line = (long)p->cy - (long)p->back;
	const struct lz_cell *c = line >= 0 ? lz_pane_cell(p->pane, (int)line,
	    p->cx) : lz_pane_scrollback_cell(p->pane, (size_t)(-1 - line),
	    p->cx);
	int k = c != NULL ? LZ_ATTR_LINK(c->attr) : 0;

	lz_buf_reset(&t->paste);
	if (k == 0 || !tui_link_uri(t, p, k, &t->paste)) {
		tui_message(t, k == 0 ? "no link here" : "a link the host may "
		    "not open (only http, https and files in the workspace)");
		return;
	}
	to_clipboard(t);
}

void
tui_copy_key(struct tui *t, const struct lz_key *k)
{
	struct tui_pane *p = tui_active(t);

	if (p == NULL) {
		t->mode = TUI_NORMAL;
		return;
	}
	if (lz_key_is(k, "q") || lz_key_is(k, "Escape")) {
		p->back = 0;
		t->mode = TUI_NORMAL;
	} else if (lz_key_is(k, "Up") || lz_key_is(k, "k"))
		move_lines(p, -1);
	else if (lz_key_is(k, "Down") || lz_key_is(k, "j"))
		move_lines(p, 1);
	else if (lz_key_is(k, "PageUp") || lz_key_is(k, "C-b"))
		move_lines(p, -rows(p) - p->cy);
	else if (lz_key_is(k, "PageDown") || lz_key_is(k, "C-f"))
		move_lines(p, 2 * rows(p) - 1 - p->cy);
	else if (lz_key_is(k, "g")) {
		p->back = (size_t)sb_lines(p);
		p->cy = 0;
	} else if (lz_key_is(k, "G")) {
		p->back = 0;
		p->cy = rows(p) - 1;
	} else if (lz_key_is(k, "Left") || lz_key_is(k, "h"))
		p->cx--;
	else if (lz_key_is(k, "Right") || lz_key_is(k, "l"))
		p->cx++;
	else if (lz_key_is(k, "0"))
		p->cx = 0;
	else if (lz_key_is(k, "$"))
		p->cx = p->rect.cols - 1;
	else if (lz_key_is(k, "Space")) {
		p->sel = 1;
		p->sel_line = (long)p->cy - (long)p->back;
		p->sel_col = p->cx;
	} else if (lz_key_is(k, "Enter")) {
		copy(t, p);
		p->back = 0;
		t->mode = TUI_NORMAL;
	} else if (lz_key_is(k, "/") || lz_key_is(k, "?")) {
		t->search_up = lz_key_is(k, "?");
		t->search_len = 0;
		t->mode = TUI_SEARCH;
	} else if (lz_key_is(k, "u")) {
		copy_link(t, p);
		p->back = 0;
		t->mode = TUI_NORMAL;
	} else if (lz_key_is(k, "n"))
		search(t, t->search_up);
	else if (lz_key_is(k, "N"))
		search(t, !t->search_up);
	clamp(p);
}

void
tui_search_key(struct tui *t, const struct lz_key *k)
{
	if (lz_key_is(k, "Enter")) {
		t->mode = TUI_COPY;
		search(t, t->search_up);
	} else if (lz_key_is(k, "Escape") || lz_key_is(k, "C-c"))
		t->mode = TUI_COPY;
	else if (lz_key_is(k, "BSpace") || lz_key_is(k, "C-h")) {
		/* Back to the start of the last UTF-8 character. */
		while (t->search_len > 0 && (t->search[--t->search_len] &
		    0xc0) == 0x80)
			;
	} else if (k->b[0] >= 0x20 && k->b[0] != 0x7f &&
	    t->search_len + k->len < sizeof t->search) {
		memcpy(t->search + t->search_len, k->b, k->len);
		t->search_len += k->len;
	}
}

void
tui_copy_draw(struct tui *t, struct tui_pane *p)
{
	long l0, l1, line;
	int c0, c1, y, x, from, to;
	struct lz_cell *c;

	if (!p->sel)
		return;
	sel_bounds(p, &l0, &c0, &l1, &c1);
	for (y = 0; y < p->rect.rows; y++) {
		line = (long)y - (long)p->back;
		if (line < l0 || line > l1)
			continue;
		from = line == l0 ? c0 : 0;
		to = line == l1 ? c1 : p->rect.cols - 1;
		for (x = from; x <= to; x++) {
			c = lz_render_at(&t->r, p->rect.row + y,
			    p->rect.col + x);
			if (c != NULL)
				c->attr ^= LZ_ATTR_REVERSE;
		}
	}
}
