#!/bin/bash
# mux-throughput.sh: the multiplexer's throughput against tmux 3.3a in one
# run (issue 6 figures), everything pinned to one CPU, 200x50 panes, the
# deterministic 50 MB ANSI-heavy stream of ansi-stream.h:
#
#   detached  lazaret __mux-bench -q (the TUI's pane pipeline: pty, pane,
#             frame loop, no drawing) vs tmux new -d running the same cat;
#   attached  lazaret __mux-bench drawing on a 51x200 pty that `script`
#             drains vs an attached tmux client on the same;
#   e2e (-e)  the cat inside the sandbox: `lazaret tui -- cat FILE` vs
#             tmux running `lazaret run -t -- cat FILE` (the raw terminal session), on a
#             warm Domain of a throwaway project (run as the account that
#             runs Lazaret).
#
#   tests/bench/mux-throughput.sh [-c CPU] [-n RUNS] [-m MB] [-b BINDIR] [-e]
#
# Prints each run, the medians and the ratios (lazaret / tmux; the goal for
# detached and attached is >= 1.5), and the medians as lib.sh's figure
# lines (for ab.sh). Not a test: run it on purpose.
set -euo pipefail
# A command that fails inside $(...) fails the bench (no figure from it).
shopt -s inherit_errexit
cpu=1
runs=3
mb=50
bindir=/usr/local/bin
e2e=0
while getopts c:n:m:b:e o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) runs=$OPTARG ;;
	m) mb=$OPTARG ;;
	b) bindir=$OPTARG ;;
	e) e2e=1 ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
# The attached and e2e modes draw on a pty of the bench's own, drained:
# its type is the bench's, the same for every run whatever the caller's
# (under `env -i` bash says "dumb", on which the TUI rightly refuses to
# draw: "exit 1 on the pty").
export TERM=xterm-256color
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-mux-bench.XXXXXX")
sock=lz-mux-bench-$$
keeper=
trap bench_cleanup EXIT
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -I"$ROOT" -o "$tmp/ansi-stream" \
	"$ROOT/tests/bench/ansi-stream.c" "$ROOT/core/util.c"
mkdir -p "$tmp/proj"
file=$tmp/proj/stream.ans
"$tmp/ansi-stream" "$mb" "$file"
size=$(stat -c %s "$file")

# on_pty CMD: runs CMD on a 51x200 pty whose output is drained; prints
# its start and end (ns), or fails with CMD's exit status.
on_pty() {
	local t0 t1 rc=0
	t0=$(date +%s%N)
	taskset -c "$cpu" script -qec "stty rows 51 cols 200; $1" /dev/null \
	    </dev/null >/dev/null 2>&1 || rc=$?
	t1=$(date +%s%N)
	if [ "$rc" != 0 ]; then
		echo "mux-throughput: exit $rc on the pty: $1" >&2
		return 1
	fi
	echo "$t0 $t1"
}
# pty_mbps CMD: MB/s of CMD on the pty.
pty_mbps() {
	local t
	t=$(on_pty "$1")
	mbps "$size" $t
}
detached_lz() {
	local t0 t1
	t0=$(date +%s%N)
	taskset -c "$cpu" "$lz" __mux-bench -q -r 50 -c 200 -- cat "$file"
	t1=$(date +%s%N)
	mbps "$size" "$t0" "$t1"
}
detached_tmux() {
	tmux_detached "$sock" "$cpu" "$file"
}
attached_lz() {
	pty_mbps "$lz __mux-bench -r 50 -c 200 -- cat '$file'"
}
attached_tmux() {
	pty_mbps "tmux -L $sock -f /dev/null new -x 200 -y 50 \"cat '$file'\""
}
e2e_lz() {
	pty_mbps "cd '$tmp/proj' && '$lz' tui -- cat stream.ans"
}
e2e_tmux() {
	pty_mbps "cd '$tmp/proj' && tmux -L $sock -f /dev/null \
	    new -x 200 -y 50 \"'$lz' run -t -- cat stream.ans\""
}

# compare NAME: runs NAME_lz and NAME_tmux alternately, prints the table.
compare() {
	local name=$1 i a b
	: >"$tmp/a"; : >"$tmp/b"
	for i in $(seq "$runs"); do
		a=$("${name}_lz"); b=$("${name}_tmux")
		echo "$a" >>"$tmp/a"; echo "$b" >>"$tmp/b"
		printf '%-9s %-6s %12s %12s\n' "$name" "$i" "$a" "$b"
	done
	a=$(median <"$tmp/a"); b=$(median <"$tmp/b")
	printf '%-9s %-6s %12s %12s   ratio %s\n' "$name" median "$a" "$b" \
	    "$(ratio "$a" "$b")"
	figure "$name.lazaret" "$a" MB/s higher
	figure "$name.tmux" "$b" MB/s higher
}

echo "stream: $size bytes, 200x50, CPU $cpu, $runs runs each," \
    "loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-6s %12s %12s\n' mode run "lazaret MB/s" "tmux MB/s"
compare detached
compare attached
if [ "$e2e" = 1 ]; then
	git -C "$tmp/proj" init -q
	# A keeper session holds the Domain up, so runs measure a warm one.
	warm_domain "$lz" "$tmp/proj"
	compare e2e
	end_domain "$lz" "$tmp/proj"
fi
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
