#!/bin/bash
# test-tui-stall.sh: one stalled pane never stalls the others (issue 13,
# OR-3), in the real TUI driven through a private tmux server:
#  - a pane flooded while the TUI is stopped (SIGSTOP) for 10 s: the
#    coordinator keeps its screen within bounds, and after SIGCONT the pane
#    shows the command's current screen within a second (one SNAPSHOT, not
#    the bytes it missed), while a clock in the other pane never stopped;
#  - 10 MB pasted into a pane whose program never reads: the other pane
#    keeps echoing, and C-] x closes the stalled one within a second.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
lz_tmux lz
P=C-]
# The coordinator's own memory, not ASan's quarantine of freed blocks.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4

# Under a shell without job control: an interactive one would take the
# terminal back when the TUI is stopped.
tm new-session -d -s lz -x 120 -y 30 -c "$proj" \
    "$LAZARET; echo rc=\$? >$LZ_TMP/rc; sleep 600"
wait_for 'root@lazaret:/workspace#' 90 || fail "no TUI"
tm send-keys -t lz "$P" '|'
wait_for '2 sessions \| sandbox running' 60 || fail "no second pane"
wait_for '│root@lazaret:/workspace#' 30
# Pane 2: a clock; it must never stop while pane 1 floods. It runs in a
# child sh, one foreground job all along: an interactive bash running the
# loop itself misses a C-c that lands while it starts the next sleep (not
# yet the terminal's foreground group), and the loop goes on (seen: the
# clock kept ticking after C-c, and the Domain after "exit").
clock='i=0; while :; do i=$((i+1)); printf "\rtick-%06d" $i; sleep 0.1; done'
type_line "sh -c '$clock'"
wait_for '│tick-0000[1-9]' 10 || fail "the clock does not tick"
tm send-keys -t lz "$P" o
type_line 'clear; seq 1 300000 | sed s/^/flood-/; echo FLOOD-DONE-$((6*7))'
tui=$(pane_lazaret)
coord=$(cat "$rt/coordinator.pid")
sleep 0.3
tick() {
	local n
	n=$(tm capture-pane -p -t lz | grep -oE 'tick-[0-9]{6}' | tail -1 | cut -d- -f2)
	echo $((10#${n:-0}))
}
tick0=$(tick)
kill -STOP "$tui"
before=$(date +%s%N)
peak=0
for i in $(seq 1 10); do
	r=$(awk '/^VmRSS/ {print $2}' "/proc/$coord/status")
	[ "$r" -gt "$peak" ] && peak=$r
	sleep 1
done
kill -CONT "$tui"
if wait_for 'FLOOD-DONE-42' 1; then
	pass "after 10 s stopped during a flood, the pane shows its command's current screen within a second"
else
	fail "the flooded pane did not catch up within a second of SIGCONT"
fi
# 10 s of a tick every 0.1 s (and a fork of sleep in gVisor): about 80;
# a clock that had stopped with the TUI would show none.
ticks=$(( $(tick) - tick0 ))
[ "$ticks" -ge 50 ] &&
    pass "the other pane's clock kept running meanwhile ($ticks ticks in 10 s)" ||
    fail "the other pane's clock stopped ($ticks ticks in 10 s)"
[ "$peak" -lt 262144 ] &&
    pass "the coordinator stayed bounded while its client was stopped (peak RSS $peak kB)" ||
    fail "coordinator RSS $peak kB while the TUI was stopped"

# Pane 1 stops reading its input; 10 MB are pasted into it.
tm send-keys -t lz "$P" o
tm send-keys -t lz C-c
type_line 'clear'
tm send-keys -t lz "$P" o
type_line 'clear; stty raw -echo; sleep 600'
sleep 1
head -c 10000000 /dev/zero | tr '\0' 'x' >"$LZ_TMP/paste"
tm load-buffer -b big "$LZ_TMP/paste"
tm paste-buffer -b big -t lz
tm send-keys -t lz "$P" o
type_line 'echo alive-$((2*21))'
wait_for '│alive-42' 20 &&
    pass "10 MB pasted into a pane that never reads: the other pane still echoes" ||
    fail "the other pane stopped echoing"
wait_for 'pane 1 does not read its input: [0-9]+ bytes dropped' 20 &&
    pass "the TUI says what it dropped for the stalled pane" ||
    fail "no message about the stalled pane's input"
tm send-keys -t lz "$P" o
tm send-keys -t lz "$P" x
wait_for 'end session [0-9a-f]{8} .*\(y/n\)' 10 || fail "no question on close"
t0=$(date +%s%N)
tm send-keys -t lz y
# The pane is gone when the border between the two is.
if gone '│' 5; then
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -le 1000 ] &&
	    pass "C-] x closes the stalled pane within a second (${ms} ms)" ||
	    fail "closing the stalled pane took ${ms} ms"
else
	fail "the stalled pane did not close"
fi
tm send-keys -t lz C-c
type_line 'exit'
wait_gone && pass "the Domain ends with its last session" ||
    fail "leftovers: $(leftovers)"
finish
