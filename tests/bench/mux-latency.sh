#!/bin/bash
# mux-latency.sh: keystroke echo latency (latency.c, 80x24, a key every
# 20 ms) of the multiplexer against tmux 3.3a, both pinned to one CPU
# (issue 6 figures):
#
#   host      lazaret __mux-bench running cat (the pane pipeline on a host
#             pty) vs tmux running cat, with cat on a bare pty for scale;
#   sandbox   `lazaret tui -- cat` (a sandboxed pane) vs tmux running
#             `lazaret run -t -- cat` (the raw terminal session), on a warm
#             Domain of a throwaway project.
#
#   tests/bench/mux-latency.sh [-c CPU] [-n KEYS] [-b BINDIR] [-s]
#
# -s: the sandbox part only.
#
# Run as the account that runs Lazaret. When the harness hangs up, a TUI or
# raw session detaches (its cat keeps running, by design): the script ends
# the Domain afterwards through its coordinator. Each line's median and
# p99 are printed again as lib.sh's figure lines (for ab.sh). Not a test.
set -euo pipefail
cpu=1
keys=300
bindir=/usr/local/bin
host=1
while getopts c:n:b:s o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) keys=$OPTARG ;;
	b) bindir=$OPTARG ;;
	s) host=0 ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-mux-latency.XXXXXX")
sock=lz-mux-latency-$$
keeper=
trap bench_cleanup EXIT
lat() { bash "$ROOT/tests/bench/latency.sh" -c "$cpu" -n "$keys" "$@"; }
# lat_figures NAME LINE: the median and p99 of latency's result LINE as
# figure lines (none when the line has no result).
lat_figures() {
	local med p99
	med=$(sed -n 's/.* median \([0-9]*\) us .*/\1/p' <<<"$2")
	p99=$(sed -n 's/.* p99 \([0-9]*\) us .*/\1/p' <<<"$2")
	[ -z "$med" ] || figure "$1.median" "$med" us lower
	[ -z "$p99" ] || figure "$1.p99" "$p99" us lower
}

if [ "$host" = 1 ]; then
	echo "== host: the pane pipeline vs tmux (and a bare pty)"
	out=$(lat -- "$lz" __mux-bench -r 23 -c 80 -- cat)
	echo "$out"
	lat_figures host.bare "$(grep '^cat (bare pty)' <<<"$out")"
	lat_figures host.tmux "$(grep '^tmux 3.3a' <<<"$out")"
	lat_figures host.lazaret "$(tail -1 <<<"$out")"
fi

echo "== sandbox: a Lazaret pane vs tmux running the raw session"
git -C "$tmp" init -q
cd "$tmp"
warm_domain "$lz" "$tmp"
tui=$(lat -o -- "$lz" tui -- cat | tail -1)
echo "$tui"
raw=$(lat -o -- tmux -L "$sock" -f /dev/null new -x 80 -y 24 \
    "'$lz' run -t -- cat" | tail -1)
echo "$raw"
tmux -L "$sock" kill-server >/dev/null 2>&1 || true
# The two cats were detached by the hang-ups: end the Domain.
end_domain "$lz" "$tmp"

lat_figures sandbox.tui "$tui"
lat_figures sandbox.tmux-run-t "$raw"
