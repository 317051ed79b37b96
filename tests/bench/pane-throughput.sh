#!/bin/bash
# pane-throughput.sh: issue 6's throughput figure, Lazaret's pane emulator
# against tmux 3.3a, in one run. Builds the bench programs with -O2 and no
# sanitizers straight from the sources they need, writes the deterministic
# 50 MB ANSI-heavy stream (ansi-stream.h: coloured "ls -l"-like lines,
# about five SGR sequences each, CJK and emoji) to a file, then alternates:
#
#   lazaret: pane-pty forks `cat FILE` on a 200x50 pty, reads the master in
#            a read loop and feeds an lz_pane (10,000 lines of scrollback);
#   tmux:    tmux -L <private> -f /dev/null new -d -x 200 -y 50 \
#                'cat FILE; tmux wait -S done'  timed to `tmux wait done`;
#
# both pinned to the same CPU with taskset (cat, the pty and the reader all
# share it). Prints each run, the medians, the best and the ratio
# (lazaret / tmux, the goal is >= 1.5), then the in-memory feed of
# pane-throughput.c (no pty) against libvterm's stock screen layer.
#
#   tests/bench/pane-throughput.sh [-c CPU] [-n RUNS] [-m MB] [-M]
#
# -M skips the in-memory part. Not a test: run it on purpose, on a quiet
# machine, and note the load average it prints.
set -euo pipefail
cpu=1
runs=5
mb=50
mem=1
while getopts c:n:m:M o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) runs=$OPTARG ;;
	m) mb=$OPTARG ;;
	M) mem=0 ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-pane-bench.XXXXXX")
sock=lz-pane-bench-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cflags="-std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Werror -I$ROOT"
vterm=$(pkg-config --cflags --libs vterm)
cc=${CC:-cc}
$cc $cflags -o "$tmp/ansi-stream" "$ROOT/tests/bench/ansi-stream.c" \
	"$ROOT/core/util.c"
$cc $cflags -o "$tmp/pane-pty" "$ROOT/tests/bench/pane-pty.c" \
	$(pane_src "$ROOT") $vterm -lutil
$cc $cflags -o "$tmp/pane-throughput" "$ROOT/tests/bench/pane-throughput.c" \
	$(pane_src "$ROOT") $vterm
file=$tmp/stream.ans
"$tmp/ansi-stream" "$mb" "$file"
size=$(stat -c %s "$file")

tmux_run() {
	tmux_detached "$sock" "$cpu" "$file"
}

lz_run() {
	taskset -c "$cpu" "$tmp/pane-pty" "$file" 1 50 200 |
		awk '{ print $NF == "MB/s" ? $(NF - 1) : $NF }'
}

echo "stream: $size bytes ($mb MB), 200x50, cat on a pty, CPU $cpu, $runs runs each"
echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %14s %14s\n' run "lazaret MB/s" "tmux MB/s"
: >"$tmp/lz" && : >"$tmp/tmux"
for i in $(seq "$runs"); do
	a=$(lz_run)
	b=$(tmux_run)
	echo "$a" >>"$tmp/lz"
	echo "$b" >>"$tmp/tmux"
	printf '%-6s %14s %14s\n' "$i" "$a" "$b"
done
ml=$(median <"$tmp/lz")
mt=$(median <"$tmp/tmux")
bl=$(best <"$tmp/lz")
bt=$(best <"$tmp/tmux")
printf '%-6s %14s %14s   ratio %s\n' median "$ml" "$mt" "$(ratio "$ml" "$mt")"
printf '%-6s %14s %14s   ratio %s\n' best "$bl" "$bt" "$(ratio "$bl" "$bt")"
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$mem" = 1 ]; then
	echo "in memory (no pty), 4 KiB chunks:"
	taskset -c "$cpu" "$tmp/pane-throughput" "$mb" 3
fi
