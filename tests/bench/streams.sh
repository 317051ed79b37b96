#!/bin/bash
# streams.sh: pane ingest, detached, on every stream of ansi-stream.h
# against tmux 3.3a (issue 19: "the goal holds for every one"), in
# interleaved rounds. Per stream and round, three runs, each on a fresh
# 200x50 pty whose writer is `cat FILE` (`chunkcat FILE` for the small
# stream: pieces of 1-64 bytes, one write each):
#
#   lazaret  lazaret __mux-bench -q (the TUI's pane pipeline: pty, pane,
#            frame loop, nothing drawn), from its start to its exit;
#   tmux     tmux -L <private> -f /dev/null new -d -x 200 -y 50 running
#            the writer, timed to `tmux wait done` (lib.sh tmux_detached);
#   floor    pty-drain: the same writer and pty, the master read and
#            thrown away (what no multiplexer can beat on this CPU).
#
# Everything (writer, pty reader, tmux server and client) is pinned to
# one CPU with taskset (-c, default 1). The order of lazaret and tmux
# alternates from round to round, so a change of load hits both alike.
# Prints every run with the 1-minute load average, then per stream the
# medians, the ratio of the medians (lazaret / tmux; the goal is >= 2)
# and lib.sh's figure lines (for ab.sh).
#
#   tests/bench/streams.sh [-c CPU] [-n ROUNDS] [-m MB] [-b BINDIR]
#       [-k KIND[,KIND...]]
#
# -m is each stream's size (default 20 MB); -k a subset of the kinds
# (ansi-stream -l lists them). Not a test: run it on purpose.
set -euo pipefail
shopt -s inherit_errexit
cpu=1
rounds=5
mb=20
bindir=/usr/local/bin
kinds=
while getopts c:n:m:b:k: o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) rounds=$OPTARG ;;
	m) mb=$OPTARG ;;
	b) bindir=$OPTARG ;;
	k) kinds=${OPTARG//,/ } ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-streams.XXXXXX")
sock=lz-streams-$$
keeper=
trap bench_cleanup EXIT
cflags="-std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Werror -I$ROOT"
${CC:-cc} $cflags -o "$tmp/ansi-stream" "$ROOT/tests/bench/ansi-stream.c" \
	"$ROOT/core/util.c"
${CC:-cc} $cflags -o "$tmp/chunkcat" "$ROOT/tests/bench/chunkcat.c"
${CC:-cc} $cflags -o "$tmp/pty-drain" "$ROOT/tests/bench/pty-drain.c" -lutil
[ -n "$kinds" ] || kinds=$("$tmp/ansi-stream" -l | tr '\n' ' ')
for k in $kinds; do
	"$tmp/ansi-stream" -k "$k" "$mb" "$tmp/$k.ans"
done

# writer KIND: the command that writes the stream to the pty.
writer() {
	if [ "$1" = small ]; then
		echo "$tmp/chunkcat $tmp/$1.ans"
	else
		echo "cat $tmp/$1.ans"
	fi
}
run_lazaret() {
	local t0 t1
	t0=$(date +%s%N)
	# shellcheck disable=SC2046
	taskset -c "$cpu" "$lz" __mux-bench -q -r 50 -c 200 -- $(writer "$1")
	t1=$(date +%s%N)
	mbps "$(stat -c %s "$tmp/$1.ans")" "$t0" "$t1"
}
run_tmux() {
	local t0 t1
	t0=$(date +%s%N)
	taskset -c "$cpu" tmux -L "$sock" -f /dev/null new -d -x 200 -y 50 \
	    "$(writer "$1"); tmux wait -S done"
	taskset -c "$cpu" tmux -L "$sock" wait done
	t1=$(date +%s%N)
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	mbps "$(stat -c %s "$tmp/$1.ans")" "$t0" "$t1"
}
run_floor() {
	local s
	# shellcheck disable=SC2046
	s=$(taskset -c "$cpu" "$tmp/pty-drain" -- $(writer "$1") |
	    awk '{ print $3 }')
	awk -v b="$(stat -c %s "$tmp/$1.ans")" -v s="$s" \
	    'BEGIN { printf "%.1f", b / 1e6 / s }'
}

echo "streams.sh: $mb MB a stream, 200x50, $rounds rounds, everything" \
    "pinned to CPU $cpu of $(nproc); lazaret $lz ($("$lz" --version |
    head -1)); $(tmux -V)"
echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-5s %10s %10s %10s %7s  %s\n' stream round "lazaret" \
    "tmux" floor ratio "load (MB/s; ratio lazaret/tmux)"
for r in $(seq "$rounds"); do
	for k in $kinds; do
		if [ $((r % 2)) = 1 ]; then
			a=$(run_lazaret "$k"); b=$(run_tmux "$k")
		else
			b=$(run_tmux "$k"); a=$(run_lazaret "$k")
		fi
		f=$(run_floor "$k")
		echo "$a" >>"$tmp/$k.lz"; echo "$b" >>"$tmp/$k.tmux"
		echo "$f" >>"$tmp/$k.floor"
		printf '%-10s %-5s %10s %10s %10s %7s  %s\n' "$k" "$r" "$a" \
		    "$b" "$f" "$(ratio "$a" "$b")" \
		    "$(cut -d' ' -f1 /proc/loadavg)"
	done
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %10s %10s %10s %7s\n' median lazaret tmux floor ratio
for k in $kinds; do
	a=$(median <"$tmp/$k.lz"); b=$(median <"$tmp/$k.tmux")
	f=$(median <"$tmp/$k.floor")
	printf '%-10s %10s %10s %10s %7s\n' "$k" "$a" "$b" "$f" \
	    "$(ratio "$a" "$b")"
done
for k in $kinds; do
	figure "detached.$k.lazaret" "$(median <"$tmp/$k.lz")" MB/s higher
	figure "detached.$k.tmux" "$(median <"$tmp/$k.tmux")" MB/s higher
done
