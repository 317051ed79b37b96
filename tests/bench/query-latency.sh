#!/bin/bash
# query-latency.sh: a program's wait for its terminal's answer while four
# other panes flood (issue 17's figure): five panes of a 200x50 window,
# four running `yes`, the fifth asking CSI 18 t N times (query-latency.c),
# in lazaret __mux-bench (the TUI's own panes answer) and in tmux 3.3a;
# ROUNDS rounds, interleaved. Prints each round's median, p99 and worst.
#
#   tests/bench/query-latency.sh [-n N] [-r ROUNDS] [-b BINDIR]
#
# Not a test: run it on purpose and note the load average it prints.
set -euo pipefail
n=300
rounds=3
bindir=/usr/local/bin
while getopts n:r:b: o; do
	case $o in
	n) n=$OPTARG ;;
	r) rounds=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-query.XXXXXX")
sock=lz-query-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
# A server per run: a new one on a socket just killed may not start.
next() { tm kill-server >/dev/null 2>&1 || true; sock=lz-query-$$-$1; }
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$tmp/query" \
	"$ROOT/tests/bench/query-latency.c"
echo "$rounds rounds, $n queries each, 4 panes of yes beside, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
wait_file() { while [ ! -s "$1" ]; do sleep 0.2; done; }
for r in $(seq "$rounds"); do
	# Lazaret: the bench TUI inside tmux, split by its own keys.
	next "lz$r"
	tm new-session -d -s q -x 200 -y 51 "$bindir/lazaret __mux-bench -- bash --norc --noprofile"
	sleep 1
	for k in 1 2 3 4; do
		tm send-keys -t q -l 'yes'
		tm send-keys -t q Enter
		tm send-keys -t q C-] c
		sleep 0.5
	done
	tm send-keys -t q -l "$tmp/query $n $tmp/lz.$r"
	tm send-keys -t q Enter
	wait_file "$tmp/lz.$r"
	# tmux: the same five panes.
	next "tmux$r"
	tm new-session -d -s q -x 200 -y 51 yes
	for k in 1 2 3; do tm split-window -t q yes; tm select-layout -t q tiled; done
	tm split-window -t q "$tmp/query $n $tmp/tmux.$r"
	tm select-layout -t q tiled
	wait_file "$tmp/tmux.$r"
	next "done$r"
	printf 'round %d  lazaret %s\n         tmux    %s\n' "$r" \
	    "$(cat "$tmp/lz.$r")" "$(cat "$tmp/tmux.$r")"
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
