#!/bin/bash
# test-tui-vs-tmux.sh: what a program draws looks the same in Lazaret as
# in tmux 3.3a, the multiplexer it is judged against. Each stream of
# vs-streams.py (text of every width the C library knows, with and
# without colours; cursor-addressed redraws, scroll regions, inserts and
# deletes) is written by `cat` into a tmux pane of 80x24 and into a pane
# of the TUI's own pipeline (lazaret __mux-bench, no sandbox) of 80x24
# inside tmux; the characters on the two screens must be the same, row
# for row, and so must the cursor. This is what the terminal outside
# shows, so the TUI's drawing is tested with the pane: widths where
# libvterm 0.1.4 counts otherwise than the C library (ui/vtchar.c),
# marks in the last column (ui/render.c). Emoji joined by U+200D are left
# out: tmux joins them into one cell, a pane counts each as wcwidth does.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require tmux python3
lz_tmux ref
here=$(cd "$(dirname "$0")" && pwd)

# The screen of session s (rows 1-24) and where its cursor is.
screen_of() { tm capture-pane -p -t "$1" | head -24; }
cursor_of() { tm display -p -t "$1" '#{cursor_y},#{cursor_x}'; }

# Both screens once they stop changing after each program's end.
settle() {
	local i a b
	for i in $(seq 1 200); do
		a=$(screen_of ref; cursor_of ref)
		b=$(screen_of lz; cursor_of lz)
		sleep 0.1
		[ "$a" = "$(screen_of ref; cursor_of ref)" ] &&
		    [ "$b" = "$(screen_of lz; cursor_of lz)" ] &&
		    tm show-buffer -b "done-$1" >/dev/null 2>&1 && return 0
	done
	return 1
}

for kind in widths sgr screen; do
	python3 "$here/vs-streams.py" "$kind" "$LZ_TMP/$kind.txt" ||
	    { fail "vs-streams.py $kind"; continue; }
	tm kill-session -t ref 2>/dev/null
	tm kill-session -t lz 2>/dev/null
	tm delete-buffer -b "done-$kind" 2>/dev/null
	tm new-session -d -s ref -x 80 -y 24 \
	    "cat '$LZ_TMP/$kind.txt'; sleep 600"
	tm set -t ref status off
	tm new-session -d -s lz -x 80 -y 25 \
	    "TERM=xterm-256color $LAZARET __mux-bench -r 24 -c 80 -- bash --norc --noprofile -c \"cat '$LZ_TMP/$kind.txt'; tmux -L $lz_tmux_sock set-buffer -b done-$kind x; sleep 600\""
	if ! settle "$kind"; then
		fail "$kind: the screens did not settle"
		continue
	fi
	screen_of ref > "$LZ_TMP/$kind.ref"
	screen_of lz > "$LZ_TMP/$kind.lz"
	if cmp -s "$LZ_TMP/$kind.ref" "$LZ_TMP/$kind.lz"; then
		pass "$kind: the same characters on every row as tmux ($(wc -c < "$LZ_TMP/$kind.txt") bytes)"
	else
		fail "$kind: rows differ from tmux's"
		diff "$LZ_TMP/$kind.ref" "$LZ_TMP/$kind.lz" | head -20 |
		    sed 's/^/  | /'
	fi
	[ "$(cursor_of ref)" = "$(cursor_of lz)" ] &&
	    pass "$kind: the cursor where tmux has it ($(cursor_of ref))" ||
	    fail "$kind: cursor $(cursor_of lz), tmux $(cursor_of ref)"
done
finish
