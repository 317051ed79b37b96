#!/bin/bash
# mux-memory.sh: the real coordinator's memory (issue 6 figure) with 8
# terminal sessions of 200x50 whose panes each hold 10,000 lines of 100
# coloured characters (pane-memory.c -w) in scrollback, against a tmux
# server holding the same in 8 windows (history-limit 10000). Run as the
# account that runs Lazaret; the sessions run in a throwaway project's
# Domain and end at the end.
#
#   tests/bench/mux-memory.sh [-b BINDIR]
#
# Not a test: run it on purpose (tests/bench/pane-memory.sh measures the
# panes alone, without podman, libuv and the coordinator).
set -euo pipefail
bindir=/usr/local/bin
while getopts b: o; do
	case $o in
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-mux-memory.XXXXXX")
sock=lz-mux-memory-$$
tsock=lz-mux-memory-tmux-$$
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	tmux -L "$tsock" kill-server >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -I"$ROOT" -o "$tmp/pane-memory" \
	"$ROOT/tests/bench/pane-memory.c" $(pane_src "$ROOT") \
	$(pkg-config --cflags --libs vterm)
mkdir -p "$tmp/proj"
git -C "$tmp/proj" init -q
"$tmp/pane-memory" -w "$tmp/proj/lines.ans"
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
id=$(cd "$tmp/proj" && "$lz" domain show --json | jq -r .domain_id)
run=${XDG_RUNTIME_DIR:?}/lazaret/$id

# Eight raw terminal sessions, each cats the file then waits.
tmux -L "$sock" -f /dev/null new -d -s m -x 200 -y 50 -c "$tmp/proj" \
    "'$lz' run -t -- sh -c 'cat lines.ans; exec sleep 100000'"
for i in $(seq 2 8); do
	sleep 1
	tmux -L "$sock" new-window -t m: -c "$tmp/proj" \
	    "'$lz' run -t -- sh -c 'cat lines.ans; exec sleep 100000'"
done
for i in $(seq 1 600); do
	[ "$(cd "$tmp/proj" && "$lz" ls | grep -c sleep)" = 8 ] && break
	sleep 0.2
done
coord=$(cat "$run/coordinator.pid")
# The panes are full when the coordinator stops using CPU for 2 s.
cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
prev=-1
for i in $(seq 1 300); do
	now=$(cpu_of "$coord")
	[ "$now" = "$prev" ] && break
	prev=$now
	sleep 2
done
lzk=$(rss "$coord")

# tmux with the same content.
printf 'set -g history-limit 10000\n' > "$tmp/tmux.conf"
tmux -L "$tsock" -f "$tmp/tmux.conf" new -d -s t -x 200 -y 50 \
    "cat '$tmp/proj/lines.ans'; exec sleep 100000"
for i in $(seq 2 8); do
	tmux -L "$tsock" new-window -t t: "cat '$tmp/proj/lines.ans'; exec sleep 100000"
done
sleep 5
tpid=$(tmux -L "$tsock" display -p '#{pid}')
tk=$(rss "$tpid")
echo "8 sessions x 10,000 lines x 100 coloured characters in scrollback, 200x50"
echo "lazaret coordinator VmRSS: $lzk kB"
echo "tmux server VmRSS:         $tk kB"
awk -v a="$lzk" -v b="$tk" 'BEGIN { printf "ratio: %.2f (goal <= 1)\n", a / b }'
# End the sessions: the Domain goes.
for w in $(tmux -L "$sock" list-windows -t m -F '#{window_index}'); do
	tmux -L "$sock" send-keys -t "m:$w" C-c
done
for i in $(seq 1 150); do
	[ "$(cd "$tmp/proj" && "$lz" ls 2>/dev/null | grep -c sleep)" = 0 ] && break
	sleep 0.2
done
