#!/bin/bash
# streams.sh: pane ingest, detached, on every stream of ansi-stream.h
# against tmux 3.3a (issue 19: "the goal holds for every one"), in
# interleaved rounds. Per stream and round, three runs, each on a fresh
# 200x50 pty whose writer is `cat FILE` (`chunkcat FILE` for the small
# stream: pieces of 1-64 bytes, one write each):
#
#   lazaret  lazaret __mux-bench -q -t (the TUI's pane pipeline: pty,
#            pane, frame loop, nothing drawn), from its start to its exit;
#   tmux     tmux -L <private> -f /dev/null new -d -x 200 -y 50 running
#            the writer, timed to `tmux wait done` (as lib.sh
#            tmux_detached); the server is kept (exit-empty off) until its
#            CPU is read;
#   floor    pty-drain: the same writer and pty, the master read and
#            thrown away (what no multiplexer can beat on this CPU).
#
# Two figures a run: MB/s (wall clock) and the CPU the multiplexer itself
# spent, user + system, in ms per MB of the stream. That is the process
# that reads the pty and emulates, and not the writer, its shell or the
# tmux clients: lazaret's is what -t prints (getrusage RUSAGE_SELF at its
# end, its pane freed); tmux's server's is its threads' run time
# (/proc/PID/task/*/schedstat, nanoseconds; the server has one thread)
# read once its session-closed hook has run (the pane's process ended,
# the pane and session freed), from its start, with the stream's session
# the first and only one. A process's children, waited for or not, are
# never in its own figure; both include their start-up and teardown. When
# the writer ends, what the pty still holds (n_tty's 4 KiB and up to 64
# KiB of flip buffers) may be unread by tmux at `wait done`, as in the
# MB/s figure; its CPU is counted.
#
# Everything (writer, pty reader, tmux server and clients) is pinned to
# one CPU with taskset (-c, default 1). The order of lazaret and tmux
# alternates from round to round, so a change of load hits both alike.
# Prints every run with the 1-minute load average, then per stream the
# medians, the ratios of the medians (MB/s lazaret / tmux, the goal is
# >= 2; CPU tmux / lazaret: how many times tmux's CPU a MB is lazaret's)
# and lib.sh's figure lines (for ab.sh): detached.KIND.{lazaret,tmux}
# in MB/s (higher is better) and detached.KIND.{lazaret,tmux}.cpu in
# ms/MB (lower is better).
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
cflags=(-std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Werror "-I$ROOT")
${CC:-cc} "${cflags[@]}" -o "$tmp/ansi-stream" \
    "$ROOT/tests/bench/ansi-stream.c" "$ROOT/core/util.c"
${CC:-cc} "${cflags[@]}" -o "$tmp/chunkcat" "$ROOT/tests/bench/chunkcat.c"
${CC:-cc} "${cflags[@]}" -o "$tmp/pty-drain" "$ROOT/tests/bench/pty-drain.c" \
    -lutil
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
# msmb BYTES SECONDS: SECONDS of CPU in ms per MB of a stream of BYTES.
msmb() {
	awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", s * 1e3 / (b / 1e6) }'
}
# run_lazaret KIND, run_tmux KIND: "MB/s CPU-ms/MB" of one run.
run_lazaret() {
	local t0 t1 n secs
	n=$(stat -c %s "$tmp/$1.ans")
	t0=$(date +%s%N)
	# shellcheck disable=SC2046
	taskset -c "$cpu" "$lz" __mux-bench -q -t -r 50 -c 200 -- \
	    $(writer "$1") 2>"$tmp/lz.err" || { cat "$tmp/lz.err" >&2; return 1; }
	t1=$(date +%s%N)
	secs=$(awk '$1 == "mux-bench" && $2 == "cpu" { print $3 + $4 }' \
	    "$tmp/lz.err")
	[ -n "$secs" ] || { cat "$tmp/lz.err" >&2; return 1; }
	echo "$(mbps "$n" "$t0" "$t1") $(msmb "$n" "$secs")"
}
run_tmux() {
	local t0 t1 n pid secs
	n=$(stat -c %s "$tmp/$1.ans")
	t0=$(date +%s%N)
	taskset -c "$cpu" tmux -L "$sock" -f /dev/null set -g exit-empty off \; \
	    set-hook -g session-closed 'wait -S closed' \; \
	    new -d -x 200 -y 50 "$(writer "$1"); tmux wait -S done"
	taskset -c "$cpu" tmux -L "$sock" wait 'done'
	t1=$(date +%s%N)
	taskset -c "$cpu" tmux -L "$sock" wait closed
	pid=$(tmux -L "$sock" display -p '#{pid}')
	secs=$(cat /proc/"$pid"/task/*/schedstat |
	    awk '{ ns += $1 } END { print ns / 1e9 }')
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	echo "$(mbps "$n" "$t0" "$t1") $(msmb "$n" "$secs")"
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
fmt='%-10s %-5s %8s %8s %8s %7s  %8s %8s %7s  %s\n'
# shellcheck disable=SC2059
printf "$fmt" stream round lazaret tmux floor ratio "lz CPU" "tmux CPU" \
    ratio load
# shellcheck disable=SC2059
printf "$fmt" "" "" MB/s MB/s MB/s lz/tmux ms/MB ms/MB tmux/lz 1-min
for r in $(seq "$rounds"); do
	for k in $kinds; do
		if [ $((r % 2)) = 1 ]; then
			lr=$(run_lazaret "$k"); tr=$(run_tmux "$k")
		else
			tr=$(run_tmux "$k"); lr=$(run_lazaret "$k")
		fi
		read -r a ac <<<"$lr"; read -r b bc <<<"$tr"
		f=$(run_floor "$k")
		echo "$a" >>"$tmp/$k.lz"; echo "$b" >>"$tmp/$k.tmux"
		echo "$f" >>"$tmp/$k.floor"
		echo "$ac" >>"$tmp/$k.lzcpu"; echo "$bc" >>"$tmp/$k.tmuxcpu"
		# shellcheck disable=SC2059
		printf "$fmt" "$k" "$r" "$a" "$b" "$f" "$(ratio "$a" "$b")" \
		    "$ac" "$bc" "$(ratio "$bc" "$ac")" \
		    "$(cut -d' ' -f1 /proc/loadavg)"
	done
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2059
printf "$fmt" median "" lazaret tmux floor ratio "lz CPU" "tmux CPU" \
    ratio ""
for k in $kinds; do
	a=$(median <"$tmp/$k.lz"); b=$(median <"$tmp/$k.tmux")
	f=$(median <"$tmp/$k.floor")
	ac=$(median <"$tmp/$k.lzcpu"); bc=$(median <"$tmp/$k.tmuxcpu")
	# shellcheck disable=SC2059
	printf "$fmt" "$k" "" "$a" "$b" "$f" "$(ratio "$a" "$b")" "$ac" \
	    "$bc" "$(ratio "$bc" "$ac")" ""
done
for k in $kinds; do
	figure "detached.$k.lazaret" "$(median <"$tmp/$k.lz")" MB/s higher
	figure "detached.$k.tmux" "$(median <"$tmp/$k.tmux")" MB/s higher
	figure "detached.$k.lazaret.cpu" "$(median <"$tmp/$k.lzcpu")" ms/MB \
	    lower
	figure "detached.$k.tmux.cpu" "$(median <"$tmp/$k.tmuxcpu")" ms/MB \
	    lower
done
