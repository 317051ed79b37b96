#!/bin/bash
# test-tui-flood.sh: bad input into the TUI's panes, against the real
# coordinator and sandbox: a scrollback demand past the cap is a config
# error with file:line; 100 MB of random bytes and a 20 MB line without a
# newline into one pane while the other keeps updating; the coordinator and
# the TUI stay responsive and their memory stays bounded (each pane: two
# screens plus at most 32 MiB of encoded scrollback, ui/pane.h).
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
lz_tmux lz
# The memory bounds below are the processes' own, not ASan's quarantine of
# freed blocks (256 MB by default: it put the coordinator at 206-335 MB
# in three whole-suite runs of the same code).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$(dirname "$cfg")"
lz_cleanup_hooks+=("rm -f '$cfg'")
P=C-]

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
right_half() { tm capture-pane -p -t lz | head -n -1 | cut -c52-; }

# A 1 GB scrollback demand is refused at load, with file:line.
printf '[tui]\n\nhistory = 1000000000\n' > "$cfg"
chmod 600 "$cfg"
run "$LAZARET" profile list
expect "a scrollback demand past the cap is a config error" 3 'config.ini:3: history .* 0 to 200000'
rm -f "$cfg"

tm new-session -d -s lz -x 101 -y 30 -c "$proj" "bash --norc --noprofile"
tm send-keys -t lz -l "$LAZARET"; tm send-keys -t lz Enter
wait_for 'root@lazaret:/workspace#' 90 || fail "no TUI"
tm send-keys -t lz "$P" '|'
wait_for '2 sessions' 60 || fail "no second pane"
# In a child sh, one foreground job: C-c ends it at any moment (an
# interactive bash running the loop itself can miss it; test-tui-stall).
type_line "sh -c 'while :; do date +%s%N; sleep 0.1; done'"
tm send-keys -t lz "$P" o
coord=$(cat "$rt/coordinator.pid" 2>/dev/null || true)
tui=$(pane_lazaret)
[ -n "$coord" ] && [ -n "$tui" ] || fail "coordinator ($coord) or TUI ($tui) not found"

# 100 MB of random bytes into the left pane. The queries among them are
# answered (DA, DSR, colours: as xterm and tmux answer them) and the
# answers wait in the pane's input until the shell reads them as typed
# keys, where they would put readline in a state of its own (a meta-p
# search took the next command in a CI run): they are read away first.
start=$(date +%s)
type_line 'head -c 100000000 /dev/urandom; printf "\033c"; clear; while read -rs -t 1 -N 4096 _; do :; done; echo flood-done'
sleep 3
a=$(right_half); sleep 1.5; b=$(right_half)
[ -n "$a" ] && [ "$a" != "$b" ] &&
    pass "during the flood the other pane keeps updating" ||
    fail "the other pane froze during the flood"
wait_for '^flood-done' 600 && pass "100 MB of random bytes went through ($(( $(date +%s) - start )) s)" ||
    fail "the flood did not finish"
# Every glyph the flood left took the columns the pane gave it on the
# terminal outside too: the border beside the pane is whole.
# (The pane is blank but for ASCII after the clear: 50 characters are
# 50 columns.)
[ "$(tm capture-pane -p -t lz | head -n -1 | grep -vc '^.\{50\}│')" = 0 ] && pass "the border beside the flooded pane is whole" ||
    fail "the border beside the flooded pane: $(tm capture-pane -p -t lz | sed 's/^/  | /')"
c_rss=$(rss_kb "$coord"); t_rss=$(rss_kb "$tui")
echo "  coordinator RSS ${c_rss} kB, TUI RSS ${t_rss} kB after 100 MB (ASan build)"
# Bound: two panes of at most 32 MiB of scrollback each, their screens,
# libvterm, the sanitizer's shadow and a 4 MB quarantine: 300 MB. Seen
# here: coordinator 46 MB, TUI 42 MB. An unbounded scrollback of 100 MB of
# random bytes would hold several times the bound.
[ -n "$c_rss" ] && [ "$c_rss" -lt 307200 ] &&
    pass "coordinator memory bounded after the flood (${c_rss} kB)" ||
    fail "coordinator RSS ${c_rss} kB"
[ -n "$t_rss" ] && [ "$t_rss" -lt 307200 ] &&
    pass "TUI memory bounded after the flood (${t_rss} kB)" ||
    fail "TUI RSS ${t_rss} kB"

# A 20 MB line with no newline.
type_line 'head -c 20000000 /dev/zero | tr "\\0" x; echo; echo line-done'
start=$(date +%s)
wait_for '^line-done' 300 && pass "a 20 MB line without a newline went through ($(( $(date +%s) - start )) s)" ||
    fail "the endless line did not finish: $(tm capture-pane -p -t lz | sed 's/^/  | /')"
type_line 'echo still-here'
wait_for '^still-here' 15 && pass "the pane still answers afterwards" ||
    fail "no answer after the long line"
c2=$(rss_kb "$coord")
[ -n "$c2" ] && [ "$c2" -lt 307200 ] && pass "coordinator memory still bounded (${c2} kB)" ||
    fail "coordinator RSS ${c2} kB after the long line"

# End both sessions; the Domain goes.
# Wait for the pane to close, not for the status line's count: that
# comes from a LIST on another connection and can say "1 session" while
# the ended pane still has the focus (keys typed then go nowhere).
type_line 'exit'
wait_for ' 1 session \|' 30 && gone '│' 30 || fail "the first session did not end"
tm send-keys -t lz C-c
type_line 'exit'
for i in $(seq 1 150); do
	[ -z "$(lz_live_containers "$id")" ] && break
	sleep 0.2
done
[ -z "$(lz_live_containers "$id")" ] &&
    pass "the Domain ends with its last session" ||
    fail "container left: $(lz_live_containers "$id" | tr '\n' ' ')$(tm capture-pane -p -t lz 2>/dev/null | sed 's/^/  | /')"
finish
