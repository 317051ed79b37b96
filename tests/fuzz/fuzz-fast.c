/*
 * fuzz-fast.c: libFuzzer target for the pane's fast path (ui/pane-fast.c):
 * a pane with it on and a pane with it off (every byte through libvterm,
 * lz_pane_set_fast) are fed the same bytes in the same chunks, with the
 * same resizes, and must agree after every chunk: every cell and soft
 * wrap of the screen shown, cursor and modes (lz_pane_props, counters
 * included), title, answers, dirty rows and flags, what scrolled, every
 * scrollback line and its wrap, and the snapshot (lz_pane_render_ansi),
 * which carries what libvterm keeps to itself (the hidden screen, tab
 * stops, margins, modes, the save slot, the pen, the last glyph and the
 * pending wrap). Since the fast path's pane hands libvterm the bytes it
 * does not take, any state libvterm was not told about shows up in later
 * chunks.
 *
 * The input is a script. Byte 0 picks the size. Each chunk starts with a
 * control byte: its low six bits give its length, its top bit asks for a
 * resize (the next two bytes) before it, bit 6 clears the dirty marks
 * after it (a frame). Inside a chunk a byte below 0x80 is itself; a byte
 * from 0x80 stands for one of tokens[] (0xff and the next byte for those
 * past the 127th; pane-pair.h expands them): what the fast path takes
 * (text, wide and combining characters, SGR of every form, moves,
 * erases, scrolls) mixed with what it leaves to libvterm (modes, margins,
 * character sets, strings, the save slot, broken UTF-8), so that each
 * hand-over is reached.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const tokens[] = {
	/* Taken by the fast path. */
	"\033[m", "\033[0m", "\033[;1m", "\033[1;31m", "\033[22m",
	"\033[3;23m", "\033[4m", "\033[21m", "\033[24m", "\033[5;25m",
	"\033[7;27m", "\033[9;29m", "\033[38;5;196m", "\033[48;5;21m",
	"\033[3m", "\033[5m", "\033[7m", "\033[9m", "\033[12m",
	"\033[19;10m", "\033[58;5;12m", "\033[2;8;53m", "\033[6;26;28;55m",
	"\033[38;5;300m", "\033[38;2;10;20;30m", "\033[48;2;255;0;128m",
	"\033[38;2;300;1;2m", "\033[39;49m", "\033[94;103m", "\033[37;40m",
	"\033[H", "\033[5;7H", "\033[0;0H", "\033[999;999H", "\033[;5H",
	"\033[3;f", "\033[A", "\033[2B", "\033[C", "\033[99D", "\033[E",
	"\033[2F", "\033[7G", "\033[`", "\033[3a", "\033[2d", "\033[e",
	"\033[j", "\033[k", "\033[K", "\033[1K", "\033[2K", "\033[3K",
	"\033[J", "\033[1J", "\033[2J", "\033[3J", "\033[X", "\033[4X",
	"\033[L", "\033[3L", "\033[M", "\033[2M", "\033[@", "\033[3@",
	"\033[P", "\033[9P", "\033[S", "\033[2S", "\033[T", "\033[3T",
	"\033D", "\033E", "\033M", "\r", "\n", "\r\n", "\v", "\f", "\b",
	"\t", "\a", "\x7f", "\x01", "\x18", "\x1a", "\033[?25l", "\033[?25h",
	"\033[?2026h", "\033[?2026l", "abcdefghij", "0123456789ABCDEF",
	"\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xe2\x94\x80",
	"\xcc\x81", "\xcc\x88\xcd\x85", "\xc2\x85", "\xef\xbc\xa1",
	"\xed\xa0\x80", "\xef\xbf\xbe", "\xc0\xaf", "\xe4\xb8", "\xff",
	"\xf4\x90\x80\x80",
	/* Left to the guard and libvterm. */
	"\0337", "\0338", "\033c", "\033[!p", "\033[?6h", "\033[?6l",
	"\033[?7l", "\033[?7h", "\033[4h", "\033[4l", "\033[20h",
	"\033[20l", "\033[?69h", "\033[?69l", "\033[2;4r", "\033[r",
	"\033[3;7s", "\033[?1049h", "\033[?1049l", "\033[?1047h",
	"\033[?1048h", "\033[?1048l", "\033H", "\033[g", "\033[3g",
	"\033[I", "\033[Z", "\033(0", "\033(B", "\033(A", "\016", "\017",
	"\033N", "\033O", "\033[b", "\033[3b", "\033#6", "\033#8",
	"\033[1\"q", "\033[0\"q", "\033[5 q", "\033[38;5m", "\033[38;2;1;2m",
	"\033[38;5;m", "\033[4:3m", "\033[58:5:12m",
	"\033[38:2::1:2:3m", "\033[1234567890m", "\033[?25;1049h",
	"\033]2;title\007", "\033]8;;http://a/\033\\", "\033]8;;\033\\",
	"\033P$qm\033\\", "\033P$qr\033\\", "\033[6n", "\033[?6n",
	"\033[c", "\033[?1$p", "\033[?25$p", "\033[?2026$p", "\033 G",
	"\033[", "\033[?", "\033]", "\033", "\033[2;",
	/* Either: what ends a character cut by a feed, odd widths, long SGR. */
	"\xad", "\x80", "\xe1\x85\xa0", "\xe2\x80\x8b", "\xc2\xad",
	"\xef\xb8\x8f", "\xe2\x80\x8d", "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",
	"\xe3\x80\x80", "\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5", "\xcd\x8f",
	"\xe1\x84\x80", "\xe2\x80\xa8", "\xef\xbb\xbf",
	"\033[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22m",
	"\033[38;5;196;48;2;1;2;3;1m", "\033[38;2;;;m", "\033[48;5m",
	"\033[1;;4m", "\033[0;38;5;2;49m",
};

/* After tokens[], which it expands. */
#include "tests/fuzz/pane-pair.h"

/* A pane of the pair (side first: pane-pair.h's on_reply takes it). */
struct fside {
	struct side s;
	unsigned damages;
	int frame_row, frame_col;	/* the cursor at the last clear */
};

static void
on_damage(void *user)
{
	struct fside *f = user;

	f->damages++;
}

/*
 * Beyond pane-pair.h's comparison: the cells exactly (link numbers
 * too), dirty rows and flags, counters, what scrolled, the scrollback's
 * length and the snapshot.
 */
static void
same(struct fside *fa, struct fside *fb)
{
	struct side *a = &fa->s, *b = &fb->s;
	const struct lz_pane_props *pa = lz_pane_props(a->p);
	const struct lz_pane_props *pb = lz_pane_props(b->p);
	struct lz_buf sa = LZ_BUF_INIT, sb = LZ_BUF_INIT;
	size_t n = lz_pane_scrollback_lines(a->p);
	int r, col, rows = (int)lz_pane_rows(a->p), cols = (int)lz_pane_cols(a->p);

	if (lz_pane_rows(b->p) != (unsigned)rows ||
	    lz_pane_cols(b->p) != (unsigned)cols ||
	    n != lz_pane_scrollback_lines(b->p))
		abort();
	same_screen(a, b);
	same_scrollback(a, b, n);
	for (r = 0; r < rows; r++) {
		for (col = 0; col < cols; col++) {
			if (lz_pane_cell(a->p, r, col)->attr !=
			    lz_pane_cell(b->p, r, col)->attr)
				abort();
		}
		if (lz_pane_row_dirty(a->p, r) != lz_pane_row_dirty(b->p, r))
			abort();
	}
	if (pa->bells != pb->bells || pa->dropped_osc != pb->dropped_osc ||
	    pa->dropped_links != pb->dropped_links ||
	    pa->dropped_strings != pb->dropped_strings ||
	    pa->cancelled_csi != pb->cancelled_csi)
		abort();
	/*
	 * The cursor's mark may differ: libvterm reports the cursor at the
	 * end of each of its writes, and the two panes cut their writes in
	 * different places. A cursor that moved since the last frame is
	 * marked in both.
	 */
	if (((lz_pane_dirty(a->p) ^ lz_pane_dirty(b->p)) &
	    ~LZ_PANE_DIRTY_CURSOR) != 0 ||
	    lz_pane_scrolled(a->p) != lz_pane_scrolled(b->p) ||
	    fa->damages != fb->damages)
		abort();
	if ((pa->cursor_row != fa->frame_row ||
	    pa->cursor_col != fa->frame_col) &&
	    (!(lz_pane_dirty(a->p) & LZ_PANE_DIRTY_CURSOR) ||
	    !(lz_pane_dirty(b->p) & LZ_PANE_DIRTY_CURSOR)))
		abort();
	lz_pane_render_ansi(a->p, &sa);
	lz_pane_render_ansi(b->p, &sb);
	if (sa.len != sb.len || memcmp(sa.buf, sb.buf, sa.len) != 0)
		abort();
	lz_buf_release(&sa);
	lz_buf_release(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_pane_cb cb = { on_reply, on_damage };
	struct fside a, b;
	struct lz_buf chunk = LZ_BUF_INIT;
	unsigned rows, cols;
	size_t i = 1;
	const uint8_t *rs;
	uint8_t ctl;

	if (size < 1)
		return 0;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	lz_buf_init(&a.s.reply);
	lz_buf_init(&b.s.reply);
	rows = 1 + data[0] % 12;
	cols = 1 + data[0] / 12 % 21;
	a.s.p = lz_pane_new(rows, cols, 32, &cb, &a);
	b.s.p = lz_pane_new(rows, cols, 32, &cb, &b);
	lz_pane_set_fast(b.s.p, 0);
	while (i < size) {
		ctl = script_step(data, size, &i, 1, &rs, &chunk);
		if (rs != NULL) {
			rows = 1 + rs[0] % 12;
			cols = 1 + rs[1] % 21;
			lz_pane_resize(a.s.p, rows, cols);
			lz_pane_resize(b.s.p, rows, cols);
		}
		lz_pane_feed(a.s.p, chunk.buf, chunk.len);
		lz_pane_feed(b.s.p, chunk.buf, chunk.len);
		same(&a, &b);
		lz_buf_reset(&a.s.reply);
		lz_buf_reset(&b.s.reply);
		if (ctl & 0x40) {
			lz_pane_clear_dirty(a.s.p);
			lz_pane_clear_dirty(b.s.p);
			a.frame_row = lz_pane_props(a.s.p)->cursor_row;
			a.frame_col = lz_pane_props(a.s.p)->cursor_col;
		}
	}
	lz_pane_free(a.s.p);
	lz_pane_free(b.s.p);
	lz_buf_release(&a.s.reply);
	lz_buf_release(&b.s.reply);
	lz_buf_release(&chunk);
	return 0;
}
