#!/bin/bash
# echo-latency.sh: keystroke echo latency pooled over rounds (issue 17's
# figure): ROUNDS x KEYS keys (a key every 20 ms, 80x24, latency.c), each
# round running, in turn, cat on a bare pty, cat in lazaret __mux-bench
# (the TUI's pane pipeline and renderer on a host pty) and cat in an
# attached tmux 3.3a, all pinned to one CPU; with -B, the lazaret in
# BASEDIR too (the build before a change). Prints each round, then the
# median and p99 of every sample of each, pooled.
#
#   tests/bench/echo-latency.sh [-c CPU] [-n KEYS] [-r ROUNDS] [-b BINDIR]
#                               [-B BASEDIR]
#
# Not a test: run it on purpose and note the load average it prints.
set -euo pipefail
cpu=1
keys=500
rounds=5
bindir=/usr/local/bin
basedir=
while getopts c:n:r:b:B: o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) keys=$OPTARG ;;
	r) rounds=$OPTARG ;;
	b) bindir=$OPTARG ;;
	B) basedir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-echo.XXXXXX")
sock=lz-echo-$$
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$tmp/latency" \
	"$ROOT/tests/bench/latency.c" -lutil
echo "$rounds rounds x $keys keys, 80x24, CPU $cpu, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
one() {	# NAME COMMAND...
	local name=$1
	shift
	printf '  %-8s ' "$name"
	taskset -c "$cpu" "$tmp/latency" -n "$keys" -o "$tmp/$name" -- "$@" ||
	    true
}
for r in $(seq "$rounds"); do
	echo "round $r"
	one bare cat
	one lazaret "$bindir/lazaret" __mux-bench -r 23 -c 80 -- cat
	[ -z "$basedir" ] ||
	    one base "$basedir/lazaret" __mux-bench -r 23 -c 80 -- cat
	one tmux tmux -L "$sock-$r" -f /dev/null new -x 80 -y 24 cat
	tmux -L "$sock-$r" kill-server >/dev/null 2>&1 || true
done
echo "pooled (microseconds):"
for name in bare lazaret ${basedir:+base} tmux; do
	sort -n "$tmp/$name" | awk -v n="$name" '{ v[NR] = $1 }
	    END { m = v[int((NR + 1) / 2)]; p = v[int((NR * 99 + 99) / 100)];
	    printf "  %-8s samples %d  median %d  p99 %d\n", n, NR, m, p }'
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
