#!/bin/bash
# test-tui-reflow.sh: reflow in the TUI's panes (issue 18), driven through
# a private tmux server in bench mode (lazaret __mux-bench: the TUI's own
# pane pipeline and renderer on host ptys, no sandbox): a 200-column line
# rewraps when a split makes its pane narrower and comes back whole when
# the split is closed, and a resize storm (up to 30 resizes a second, 150
# of them) during a flood into a pane with 100,000 lines of scrollback
# leaves the TUI answering, the pane beside drawing, and its memory
# bounded. The same on a real Domain, across a reattach:
# test-tui-reattach-reflow.sh.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require tmux python3
lz_fresh_env
lz_tmux t
bench="$LAZARET __mux-bench -- bash --norc --noprofile"
P=C-]
screen() { tm capture-pane -p -t t; }
line='B'$(printf '0123456789%.0s' $(seq 19))'12345678E'

# A 200-column line, split, unsplit.
tm new-session -d -s t -x 220 -y 30 "$bench"
wait_for '^bash-' 20 || fail "no shell in the bench TUI"
type_line "clear; python3 -c 'print(\"B\" + \"0123456789\" * 19 + \"12345678E\")'"
wait_for "^$line" 10 && pass "a 200-column line on one row of a 220-column pane" ||
    fail "the line is not on one row"
tm send-keys -t t "$P" '|'
wait_for '│bash-' 10 || fail "no second pane"
# The left pane is about 110 columns: the line takes two rows there, the
# prompt stays on its row (as tmux), so the first went into the history.
width=$(screen | head -1 | sed 's/│.*//' | wc -m)
width=$((width - 1))
tail=$(screen | grep -o '^[0-9]*12345678E' | head -1)
[ "$width" -lt 200 ] && [ ${#tail} = $((200 - width)) ] &&
    [ "$tail" = "${line: -${#tail}}" ] &&
    pass "split: the line rewraps in the $width-column pane (its last ${#tail} columns on the next row)" ||
    fail "split: width $width, next row '$tail'"
type_line 'exit'
gone '│' 10 || fail "the split did not close"
wait_for "^$line" 10 &&
    pass "unsplit: the whole line is back on one row" ||
    fail "unsplit: the line did not come back whole"

# A resize storm during a flood into 100,000 lines of scrollback. (A new
# TUI in the same session: a new server right after the last session's
# end may find the old one still exiting.)
printf '[tui]\nhistory = 100000\n' > "$XDG_CONFIG_HOME/lazaret/config.ini"
tm resize-window -t t -x 200 -y 50
# ASan's quarantine (256 MB by default) would hide the TUI's own memory.
tm respawn-pane -k -t t "env ASAN_OPTIONS=quarantine_size_mb=16 $bench"
wait_for '^bash-' 20 || fail "no shell"
tm send-keys -t t "$P" '|'
wait_for '│bash-' 10 || fail "no second pane"
tui=$(tm display -p -t t '#{pane_pid}')
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$tui/status"; }
# The right pane floods (20 MB of numbered lines wider than it), the left
# one is clicked into and answers keys while the window resizes.
type_line "seq -f 'flood line %.0f of a flood wider than the pane, wider still, and wider' 250000; echo flood-done"
tm send-keys -t t -l "$(printf '\033[<0;5;5M\033[<0;5;5m')"
before=$(rss)
t0=$(date +%s%N)
# Five probes, one every 30 resizes: counted in probes, not seconds, so
# that a loaded machine (fewer resizes a second from tmux itself) makes
# the storm longer, not the check weaker; 60 s at most.
slow=0 answered=0 k=0
while [ $((answered + slow)) -lt 5 ] &&
    [ $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 60 ]; do
	tm resize-window -t t -x $(( k % 2 ? 200 : 150 + k % 40 ))
	k=$((k + 1))
	if [ $((k % 30)) = 0 ]; then
		type_line "echo answered-$k"
		s=$(date +%s%N)
		if wait_for "^answered-$k" 5 >/dev/null &&
		    [ $(( ($(date +%s%N) - s) / 1000000 )) -lt 2000 ]; then
			answered=$((answered + 1))
		else
			slow=$((slow + 1))
		fi
	fi
	sleep 0.033
done
secs=$(( ($(date +%s%N) - t0) / 1000000000 ))
after=$(rss)
tm resize-window -t t -x 200
[ "$slow" = 0 ] && [ "$answered" = 5 ] &&
    pass "$k resizes in $secs s during a flood: the pane beside answered $answered times, each within 2 s" ||
    fail "resize storm: $answered answered within 2 s, $slow slow or lost, $k resizes in $secs s"
wait_for '│flood-done' 120 >/dev/null &&
    pass "the flood ends after the storm (no hang)" ||
    fail "the flood did not end"
# 100,000 lines of about 80 columns: some 10 MB encoded, twice while one
# is rewrapped, plus ASan's shadow and quarantine.
[ -n "$before" ] && [ -n "$after" ] && [ "$after" -lt $((before + 100000)) ] &&
    pass "memory bounded through the storm (RSS $before to $after kB)" ||
    fail "RSS $before to $after kB"
type_line 'echo still-here'
wait_for '^still-here' 10 && pass "the TUI answers after the storm" ||
    fail "the TUI after the storm"

finish
