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
#   tests/bench/mux-latency.sh [-c CPU] [-n KEYS] [-b BINDIR]
#
# Run as the account that runs Lazaret. When the harness hangs up, a TUI or
# raw session detaches (its cat keeps running, by design): the script ends
# the Domain afterwards through its coordinator. Not a test.
set -euo pipefail
cpu=1
keys=300
bindir=/usr/local/bin
while getopts c:n:b: o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) keys=$OPTARG ;;
	b) bindir=$OPTARG ;;
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

echo "== host: the pane pipeline vs tmux (and a bare pty)"
lat -- "$lz" __mux-bench -r 23 -c 80 -- cat

echo "== sandbox: a Lazaret pane vs tmux running the raw session"
git -C "$tmp" init -q
cd "$tmp"
warm_domain "$lz" "$tmp"
lat -- "$lz" tui -- cat | tail -1
lat -- tmux -L "$sock" -f /dev/null new -x 80 -y 24 "'$lz' run -t -- cat" |
    tail -1
tmux -L "$sock" kill-server >/dev/null 2>&1 || true
# The two cats were detached by the hang-ups: end the Domain.
end_domain "$lz" "$tmp"
