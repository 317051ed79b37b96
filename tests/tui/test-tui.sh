#!/bin/bash
# test-tui.sh: the full-screen TUI driven through a private tmux server,
# against the real coordinator, podman and runsc: open, split, type into
# each pane, Lazaret's TERM inside, zoom, help, copy mode with search and
# paste, detach (sessions keep running), ls, reattach with the screen (and
# the alternate screen) redrawn, resize of the outer terminal, SIGTERM,
# and quitting with the terminal mode (stty) restored.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
lz_tmux lz
P=C-]	# the prefix

# Runs a shell line in the outer shell and waits for its marker file.
outer() { tm send-keys -t lz -l "$1"; tm send-keys -t lz Enter; }
status_line() { tm capture-pane -p -t lz | tail -1; }

tm new-session -d -s lz -x 100 -y 30 -c "$proj" "bash --norc --noprofile"
tm set-option -g set-clipboard on
stty_before=$LZ_TMP/stty.before
stty_after=$LZ_TMP/stty.after
outer "stty -g > $stty_before; clear; $LAZARET; echo rc=\$? > $LZ_TMP/rc; stty -g > $stty_after"
if wait_for 'root@lazaret:/workspace#' 90 && wait_for '^ lazaret default [0-9a-f]{8} \| 1:' 10; then
	pass "lazaret with no arguments opens the TUI: a sandbox shell and the status line"
else
	fail "no TUI with a sandbox prompt"
fi
wait_for '1 session \| sandbox running \| [0-9]{2}:[0-9]{2} *$' 10 &&
    pass "the status line shows sessions, sandbox state and the clock" ||
    fail "status line: '$(status_line)'"
type_line 'echo "term=$TERM colors=$(tput colors) rgb=$(tput -T $TERM RGB >/dev/null 2>&1; infocmp -x 2>/dev/null | grep -c RGB)"'
wait_for '^term=lazaret colors=256' 10 &&
    pass "programs in a pane see Lazaret's own terminfo entry (256 colours)" ||
    fail "TERM in the pane is not lazaret"
type_line 'echo one-$((6*7))'
wait_for '^one-42' 10 && pass "keys reach the pane and output comes back" ||
    fail "no echo in pane 1"
type_line 'echo "ct=$COLORTERM lang=$LANG" 漢字-ok'
wait_for '^ct=truecolor lang=C.UTF-8 漢字-ok' 10 &&
    pass "a pane says 24-bit colour and UTF-8; wide characters typed and shown" ||
    fail "COLORTERM/LANG or UTF-8 input in the pane"

# Full-screen programs with Lazaret's entry: less and top.
type_line 'less /etc/os-release'
wait_for '^PRETTY_NAME=' 10 && wait_for '^/etc/os-release|\(END\)' 5 &&
    pass "less runs full screen in the pane" || fail "less did not draw"
tm send-keys -t lz q
wait_for '^root@lazaret:/workspace# *$' 10 || fail "less did not quit"
type_line 'top -d 1'
wait_for 'load average' 10 && wait_for 'PID +USER' 5 &&
    pass "top runs in the pane (TERM=lazaret understood)" || fail "top did not draw"
tm send-keys -t lz q
wait_for '^root@lazaret:/workspace# *$' 10 || fail "top did not quit"
type_line 'clear'

# Split side by side: a second session in the same sandbox.
tm send-keys -t lz "$P" '|'
if wait_for '2 sessions \| sandbox running' 60 && wait_for '│root@lazaret:/workspace#' 30; then
	pass "prefix | opens a second session in a pane beside the first"
else
	fail "no second pane"
fi
type_line 'echo two-$((7*7)); stty size'
wait_for '│two-49' 10 && pass "the new pane has the focus and its own output" ||
    fail "no output in pane 2"
wait_for '│29 50 *$' 10 && pass "the pane's pty has the pane's size (29x50)" ||
    fail "pane 2 size wrong"
tm send-keys -t lz "$P" o
type_line 'echo back-in-one'
wait_for '^back-in-one' 10 && pass "prefix o moves to the other pane" ||
    fail "prefix o did not move"
# A split below, then close it again (asks first).
tm send-keys -t lz "$P" '-'
wait_for '3 sessions' 60 && wait_for '^─+' 10 &&
    pass "prefix - splits the pane top and bottom" || fail "no horizontal split"
tm send-keys -t lz "$P" x
wait_for 'end session [0-9a-f]{8} .*\(y/n\)' 10 && pass "prefix x asks before ending a session" ||
    fail "no question on close"
tm send-keys -t lz y
wait_for '2 sessions' 30 && gone '^─{10}' 10 &&
    pass "answering y ends the session and removes its pane" || fail "pane not closed"

# Zoom and back.
tm send-keys -t lz "$P" z
wait_for '\*Z' 10 && gone '│' 5 && pass "prefix z zooms the pane to the whole window" ||
    fail "zoom did not fill the window"
tm send-keys -t lz "$P" z
wait_for '│' 10 && pass "prefix z again restores the layout" || fail "unzoom failed"

# Help.
tm send-keys -t lz "$P" '?'
wait_for 'keys after the prefix C-\]' 10 && wait_for 'detach; the sessions keep running' 5 &&
    wait_for 'colours +([0-9]+ colours|24-bit|no colour)' 5 &&
    pass "prefix ? shows the key bindings" || fail "no help"
tm send-keys -t lz q
gone 'keys after the prefix' 5 && pass "any key closes the help" || fail "help stays"

# Copy mode: search back, select the line, copy, paste it into the pane.
type_line 'clear; for i in $(seq 1 60); do echo line-$i; done; echo needle-XYZ-end; seq 1 40'
wait_for '^40 *│' 15 || fail "the output did not arrive"
tm send-keys -t lz "$P" '['
wait_for '\[copy\]' 10 && pass "prefix [ enters copy mode" || fail "no copy mode"
tm send-keys -t lz '?' ; tm send-keys -t lz -l 'needle-XYZ'; tm send-keys -t lz Enter
wait_for '^needle-XYZ-end' 10 && pass "search up finds a line in the scrollback" ||
    fail "search did not find the line"
tm send-keys -t lz 0 Space '$' Enter
wait_for 'copied [0-9]+ bytes' 10 && pass "Enter copies the selection" || fail "nothing copied"
buf=$(tm show-buffer 2>/dev/null || true)
[ "$buf" = "needle-XYZ-end" ] && pass "the copy reached the terminal's clipboard (OSC 52)" ||
    fail "tmux buffer is '$buf'"
type_line 'clear'
tm send-keys -t lz -l 'echo pasted:'
tm send-keys -t lz "$P" ']'
tm send-keys -t lz Enter
wait_for '^pasted:needle-XYZ-end' 10 && pass "prefix ] pastes the copied text" ||
    fail "paste did not arrive"

# Something that keeps running, and the alternate screen in the other pane.
type_line 'for i in $(seq 1 100000); do echo tick-$i > /tmp/tick; sleep 0.1; done &'
tm send-keys -t lz "$P" o
type_line 'printf "\033[?1049h\033[H\033[2JALT-SCREEN-MARK\n"; cat'
wait_for '│ALT-SCREEN-MARK' 10 || fail "no alternate screen"

# Detach: both sessions keep running.
tm send-keys -t lz "$P" d
wait_for 'detached: 2 sessions keep running' 15 && pass "prefix d detaches" ||
    fail "no detach message"
for i in $(seq 1 100); do [ -s "$LZ_TMP/rc" ] && break; sleep 0.1; done
[ "$(cat "$LZ_TMP/rc" 2>/dev/null)" = rc=0 ] || fail "the TUI did not exit 0 on detach"
[ "$(cat "$stty_before")" = "$(cat "$stty_after")" ] &&
    pass "the terminal mode is restored after a detach (stty -g equal)" ||
    fail "stty changed: $(cat "$stty_before") -> $(cat "$stty_after")"
run "$LAZARET" ls -C "$proj"
expect "lazaret ls shows both sessions, detached" 0 'detached +yes'
[ "$(printf '%s\n' "$LZ_OUT" | grep -c 'detached')" = 2 ] || fail "ls: not 2 detached"
t1=$(podman exec "$(podman ps -q --filter label=lazaret.domain=$id --filter label=lazaret.role=sandbox | head -1)" cat /tmp/tick 2>/dev/null || true)
sleep 1
t2=$(podman exec "$(podman ps -q --filter label=lazaret.domain=$id --filter label=lazaret.role=sandbox | head -1)" cat /tmp/tick 2>/dev/null || true)
[ -n "$t1" ] && [ "$t1" != "$t2" ] && pass "a detached session keeps running ($t1 -> $t2)" ||
    fail "the background loop did not advance ('$t1' '$t2')"

# Reattach: both panes come back, the alternate screen included.
outer "clear; $LAZARET attach; echo rc=\$? > $LZ_TMP/rc2"
wait_for '│ALT-SCREEN-MARK' 30 && pass "lazaret attach redraws the alternate screen" ||
    fail "alternate screen not redrawn"
wait_for '^pasted:needle-XYZ-end' 10 && pass "lazaret attach redraws the other pane" ||
    fail "pane 1 not redrawn"
wait_for '2 sessions \| sandbox running' 10 || fail "status after attach"

# Resize the outer terminal: panes follow.
tm resize-window -t lz -x 120 -y 40
sleep 0.5
tm send-keys -t lz C-d	# ends the cat on the alternate screen
type_line 'printf "\033[?1049l"; stty size'
wait_for '│39 60 *$' 15 && pass "a resize of the outer terminal resizes the panes (39x60)" ||
    fail "pane size after resize"
[ "$(tm capture-pane -p -t lz | wc -l)" = 40 ] && status_line | grep -q 'lazaret default' &&
    pass "the status line moves to the new last row" || fail "status line after resize"
# A resize storm: the TUI keeps up and still answers.
for i in $(seq 1 30); do tm resize-window -t lz -x $((70 + i)) -y $((20 + i % 7)); done
tm resize-window -t lz -x 100 -y 30
type_line 'echo after-storm'
wait_for '│after-storm' 15 && pass "after 30 resizes the pane still answers" ||
    fail "no answer after the resize storm"

# SIGTERM to the TUI: terminal restored, sessions still there.
kpid=$(pane_lazaret)
if [ -n "$kpid" ]; then
	kill -TERM "$kpid"
	wait_for 'detached, stopped by' 15 && pass "SIGTERM detaches the TUI with a message" ||
	    fail "no message after SIGTERM"
	outer "clear; stty -g > $stty_after"
	sleep 0.5
	[ "$(cat "$stty_before")" = "$(cat "$stty_after")" ] &&
	    pass "SIGTERM restores the terminal mode" || fail "stty differs after SIGTERM"
else
	fail "could not find the TUI process under the pane"
fi

# Two TUIs: the second takes one session over (after asking); the first
# loses that pane with a message and keeps the other.
outer "clear; $LAZARET attach; echo rc=\$? > $LZ_TMP/rc3; stty -g > $stty_after"
wait_for '2 sessions' 30 || fail "second attach"
newest=$("$LAZARET" ls -C "$proj" --json | jq -r 'max_by(.started) | .session')
tm new-window -t lz -n two -c "$proj" "bash --norc --noprofile"
tm send-keys -t lz:two -l "$LAZARET attach ${newest:0:12}"; tm send-keys -t lz:two Enter
for i in $(seq 1 100); do
	tm capture-pane -p -t lz:two | grep -q 'take it over' && break; sleep 0.1
done
tm capture-pane -p -t lz:two | grep -q 'take it over? \[y/N\]' &&
    pass "attaching a session shown elsewhere asks first" || fail "no takeover question"
tm send-keys -t lz:two y Enter
for i in $(seq 1 200); do
	tm capture-pane -p -t lz:two | grep -Eq '^ lazaret default .*1:bash\*' && break; sleep 0.1
done
tm capture-pane -p -t lz:two | grep -Eq '^ lazaret default .*1:bash\*' &&
    pass "the second TUI shows the session it took over" || fail "second TUI has no pane"
tm select-window -t lz:0
wait_for 'took this session over' 15 && pass "the first TUI is told and drops that pane" ||
    fail "no takeover message in the first TUI"
gone '│' 10 && pass "the first TUI keeps its other pane, full width" || fail "layout after takeover"
tm send-keys -t lz:two -l 'exit'; tm send-keys -t lz:two Enter

# Quit: end the last session; the Domain goes with it.
type_line 'kill %1; exit'
for i in $(seq 1 200); do [ -s "$LZ_TMP/rc3" ] && break; sleep 0.1; done
[ -s "$LZ_TMP/rc3" ] && pass "the TUI exits when its last pane's session ends" ||
    fail "the TUI did not exit"
sleep 0.3
[ "$(cat "$stty_before")" = "$(cat "$stty_after")" ] &&
    pass "the terminal mode is restored after the last session" || fail "stty differs after quit"
for i in $(seq 1 100); do
	[ -z "$(lz_live_containers "$id")" ] && break
	sleep 0.2
done
[ -z "$(lz_live_containers "$id")" ] &&
    pass "the Domain ends with its last session" || fail "container left"
finish
