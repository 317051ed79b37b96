#!/bin/bash
# test-tui-terminal.sh: what the TUI does for the programs in its panes
# and with the host terminal (issue 17), driven through a private tmux
# server in bench mode (lazaret __mux-bench: the TUI's own pane pipeline
# and renderer on host ptys, no sandbox): the host's colours and cell size
# answered in a pane (hostterm.py plays a host terminal with known ones),
# synchronized output never shown half drawn and never held past its
# bound, and the mouse: wheel into copy mode and out, click to focus,
# reports to the program under the pointer only, in its coordinates and
# encoding, a border dragged, a selection copied, malformed reports; a
# program flooding queries it never reads the answers of.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require tmux python3
lz_tmux t
here=$(cd "$(dirname "$0")" && pwd)
bench="$LAZARET __mux-bench -- bash --norc --noprofile"
P=C-]
screen() { tm capture-pane -p -t t; }
mouse() { tm send-keys -t t -l "$(printf '\033[<%s' "$1")"; }

# The host's colours and cell size, through the TUI into a pane's answers.
tm new-session -d -s t -x 100 -y 30 "python3 $here/hostterm.py -- $bench"
wait_for '^bash-' 20 || fail "no shell in the bench TUI"
type_line "$here/ask.sh $LZ_TMP/answers"
wait_for '^asked' 20 || fail "ask.sh did not finish"
mapfile -t a < "$LZ_TMP/answers"
[ "${a[0]%$'\r'}" = 'E]10;rgb:1212/3434/5656E\' ] &&
    [ "${a[1]%$'\r'}" = 'E]11;rgb:fefe/dcdc/babaE\' ] &&
    [ "${a[2]%$'\r'}" = 'E]4;1;rgb:abab/0101/0202E\' ] &&
    pass "OSC 10, 11 and 4 in a pane answer the host's colours" ||
    fail "colour answers: ${a[*]:0:3}"
[ "${a[3]%$'\r'}" = 'E[6;18;9t' ] && [ "${a[4]%$'\r'}" = 'E[4;522;900t' ] &&
    pass "CSI 16 t and 14 t answer the host's cell size (9x18) times the pane's" ||
    fail "pixel answers: ${a[3]} ${a[4]}"
[ "${a[5]%$'\r'}" = 'E[8;29;100t' ] &&
    pass "CSI 18 t answers the pane's rows and columns, in that order" ||
    fail "size answer: ${a[5]}"
[ "${a[6]%$'\r'}" = 'E[?2026;2$y' ] &&
    pass "DECRQM says synchronized output is known (and off)" ||
    fail "DECRQM 2026: ${a[6]}"

# Synchronized output: half a frame, a pause, the rest, inside ?2026. (A
# new TUI in the same session: a new server right after the last
# session's end may find the old one still exiting.)
tm respawn-pane -k -t t "$bench"
wait_for '^bash-' 20 || fail "no shell"
cat > "$LZ_TMP/frame.sh" <<'EOF'
#!/bin/bash
clear
for i in $(seq 10); do echo "old-$i"; done
sleep 0.5
printf '\033[?2026h\033[H'
for i in $(seq 5); do printf 'half-one-%d\033[K\n' "$i"; done
sleep 0.6
for i in $(seq 5); do printf 'half-two-%d\033[K\n' "$i"; done
printf '\033[?2026l'
sleep 0.3
printf '\033[?2026h'
echo held-open
sleep 3
echo held-done
EOF
chmod +x "$LZ_TMP/frame.sh"
type_line "$LZ_TMP/frame.sh"
wait_for '^old-10' 10 || fail "the frame script did not start"
half=0 whole=0 held=
t0=$(date +%s%N)
while [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 2500 ]; do
	s=$(screen)
	if grep -q '^half-one' <<<"$s"; then
		grep -q '^half-two-5' <<<"$s" && whole=1 || half=1
	fi
	if [ -z "$held" ] && grep -q '^held-open' <<<"$s"; then
		held=$(( ($(date +%s%N) - t0) / 1000000 ))
	fi
	sleep 0.02
done
[ $half = 0 ] && [ $whole = 1 ] &&
    pass "an update inside ?2026 is never shown half drawn" ||
    fail "?2026: half drawn $half, whole seen $whole"
wait_for '^held-open' 3 &&
    pass "?2026 held open is drawn anyway within its bound (seen after ${held:-?} ms)" ||
    fail "?2026 held open froze the pane"
wait_for '^held-done' 10 || fail "the frame script did not end"
type_line 'clear'

# The mouse: the wheel scrolls back in copy mode and out again.
tm respawn-pane -k -t t "$bench"
wait_for '^bash-' 20 || fail "no shell"
type_line 'for i in $(seq 60); do echo line-$i; done'
wait_for '^line-60' 10 || fail "no lines"
mouse '64;10;5M'
wait_for '\[copy\] 3/' 5 && pass "the wheel scrolls the history (copy mode)" ||
    fail "wheel up did nothing"
mouse '65;10;5M'
gone '\[copy\]' 5 && pass "the wheel back to the bottom leaves copy mode" ||
    fail "wheel down did not leave copy mode"
# A drag selects text and copies it; prefix ] types it back.
type_line 'clear; echo pick-me-up'
wait_for '^pick-me-up' 5 || fail "no text to pick"
mouse '0;1;1M'
mouse '32;10;1M'
mouse '0;10;1m'
wait_for 'copied 10 bytes' 5 && pass "a drag selects and copies (10 characters)" ||
    fail "no copy from a drag"
tm send-keys -t t "$P" ']'
wait_for 'bash-[^ ]*[#$] pick-me-up' 5 && pass "the copied text pastes" ||
    fail "paste of the selection"
tm send-keys -t t C-u

# Two panes: click to focus, reports only to the pane under the pointer.
tm send-keys -t t "$P" '|'
wait_for '│bash-' 10 || fail "no second pane"
border=$(screen | head -1 | grep -bo '│' | head -1 | cut -d: -f1)
[ -n "$border" ] || fail "no border found"
type_line "printf '\\033[?1000h\\033[?1006h'; cat -v"
sleep 0.5
# Column border+11 (1-based) is column 10 of the right pane.
x=$((border + 11))
mouse "0;$x;5M"
mouse "0;$x;5m"
wait_for "│\\^\\[\\[<0;10;5M\\^\\[\\[<0;10;5m" 5 &&
    pass "a click on a pane that asked goes to it, in its coordinates (SGR)" ||
    fail "no SGR report in the right pane"
mouse '0;5;5M'
mouse '0;5;5m'
type_line 'echo focus-left'
wait_for '^focus-left' 5 && pass "a click on the other pane focuses it" ||
    fail "click did not focus the left pane"
screen | grep -q '<0;5;5' && fail "the left click reached the right pane" ||
    pass "a pane gets no report for a click on another"
mouse "0;$x;6M"
mouse "0;$x;6m"
type_line '' >/dev/null
tm send-keys -t t C-c
type_line "printf '\\033[?1000l\\033[?1006l\\033[?1000h'; cat -v"
sleep 0.5
mouse "0;$x;7M"
wait_for "│\\^\\[\\[M \\*'" 5 &&
    pass "X10 encoding for a program that asked for ?1000 only" ||
    fail "no X10 report"
tm send-keys -t t C-c
# A border dragged ten columns left: the right pane is ten wider.
type_line 'clear; stty size'
wait_for '│29 [0-9]+ *$' 5 || fail "no size in the right pane"
before=$(screen | grep -o '│29 [0-9]*' | head -1 | cut -d' ' -f2)
mouse "0;$((border + 1));10M"
mouse "32;$((border - 9));10M"
mouse "0;$((border - 9));10m"
sleep 0.5
type_line 'clear; stty size'
wait_for "│29 $((before + 10)) *\$" 5 &&
    pass "dragging a border moves it (right pane $before to $((before + 10)) columns)" ||
    fail "border drag: $(screen | grep -o '│29 [0-9]*' | head -1)"
# Malformed and huge reports: dropped, the TUI goes on.
mouse '99999999999999;1;1M'
mouse ';;;M'
tm send-keys -t t -l $'\033[<0;1'
sleep 0.2
mouse '0;;M'
type_line 'echo still-here'
wait_for '│still-here' 5 && pass "malformed mouse reports are dropped; keys go on" ||
    fail "the TUI after malformed reports"

# A program flooding CSI 18 t (10,000 a second) and never reading its
# answers: they are dropped once its terminal is full; the other pane
# answers keys at once and the TUI's memory stays put.
tui=$(tm display -p -t t '#{pane_pid}')
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$tui/status"; }
cat > "$LZ_TMP/flood.py" <<'EOF'
import os, termios, time
q = b"\033[18t" * 100
end = time.time() + 4
while time.time() < end:
	os.write(1, q)
	time.sleep(0.01)
termios.tcflush(0, termios.TCIFLUSH)
print("\nflood-done")
EOF
tm send-keys -t t C-c
type_line "clear; python3 $LZ_TMP/flood.py"
sleep 1
before=$(rss)
mouse '0;5;5M'
mouse '0;5;5m'
t0=$(date +%s%N)
type_line 'echo answered-beside'
wait_for '^answered-beside' 5 || fail "keys beside a query flood"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
wait_for '│flood-done' 15 || fail "the query flood did not end"
after=$(rss)
[ "$ms" -lt 1500 ] && [ $((after - before)) -lt 20000 ] &&
    pass "a query flood not read: the pane beside answers in $ms ms, RSS $before to $after kB" ||
    fail "query flood: $ms ms beside, RSS $before to $after kB"
finish
