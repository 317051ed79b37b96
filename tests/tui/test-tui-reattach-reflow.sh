#!/bin/bash
# test-tui-reattach-reflow.sh: reflow across a reattach (issue 18), driven
# through a private tmux server against the real coordinator, podman and
# runsc: a 200-column line written in a 220-column TUI, detached; a TUI
# attached at 120 columns draws it rewrapped from the coordinator's pane
# (its last 80 columns on the next row), and one attached at 220 again
# draws it whole on one row; then a screen with 10,000 lines of history,
# several frames long, reattached without a trace of what it hides.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
lz_tmux d
P=C-]	# the prefix
line='B'$(printf '0123456789%.0s' $(seq 19))'12345678E'
tm new-session -d -s d -x 220 -y 30 -c "$proj" "bash --norc --noprofile"
open_tui() {
	rm -f "$LZ_TMP/rc"
	type_line "clear; $LAZARET $1; echo rc=\$? > $LZ_TMP/rc"
	wait_for 'root@lazaret:/workspace#' 90
}
detach() {
	tm send-keys -t d "$P" d
	wait_for 'detached: 1 session' 15 >/dev/null &&
	    for i in $(seq 1 100); do [ -s "$LZ_TMP/rc" ] && break; sleep 0.1; done
}
open_tui "" || fail "no TUI on the Domain"
type_line "clear; echo B\$(printf '0123456789%.0s' {1..19})12345678E"
wait_for "^$line" 10 || fail "the line is not on one row of the Domain's pane"
detach || fail "no detach"
tm resize-window -t d -x 120
open_tui attach || fail "no TUI after attach"
tail=$(tm capture-pane -p -t d | grep -o '^[0-9]*12345678E' | head -1)
[ ${#tail} = 80 ] && [ "$tail" = "${line: -80}" ] &&
    pass "reattached at 120 columns: the Domain's pane rewrapped the line (its last 80 columns on the next row)" ||
    fail "reattached at 120 columns: next row '$tail'"
detach || fail "no second detach"
tm resize-window -t d -x 220
open_tui attach || fail "no TUI after the second attach"
wait_for "^$line" 10 &&
    pass "reattached at 220 columns: the whole line is back on one row" ||
    fail "reattached at 220 columns: the line did not come back whole"
# A screen longer than one frame: 12,000 coloured lines of 300 columns
# (soft-wrapped at 220), the screen cleared (the scrollback kept), then
# a reattach, whose ATTACHED carries the TUI's 10,000 lines of history,
# about 4 MB. Its frames after the first went as OUTPUT until protocol
# version 4 and ended the mirror's restore: what the snapshot hides from
# the grid (libvterm's last glyph, parked as an 'x' in the last cell) was
# drawn there, and the scrollback's soft wraps were lost.
type_line "for i in \$(seq 12000); do printf '\\033[3%dm%0300d\\033[m\\n' \$((i % 8)) \$i; done; printf '\\033[H\\033[2J'; echo top-marker"
wait_for '^top-marker' 120 || fail "no marker after the long history"
detach || fail "no third detach"
open_tui attach || fail "no TUI after the third attach"
wait_for '^top-marker' 20 || fail "the marker is not on the reattached screen"
stray=$(tm capture-pane -p -t d | awk 'length($0) == 220 && /x$/' | wc -l)
[ "$stray" = 0 ] &&
    pass "reattached with a screen of several frames: nothing hidden is drawn" ||
    fail "reattached with a screen of several frames: $stray rows end in the snapshot's parked 'x'"
type_line 'exit'
for i in $(seq 1 300); do [ -s "$LZ_TMP/rc" ] && break; sleep 0.1; done
[ "$(cat "$LZ_TMP/rc" 2>/dev/null)" = rc=0 ] || fail "the TUI did not end with the session"
finish
