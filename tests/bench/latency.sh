#!/bin/bash
# latency.sh: keystroke echo latency (latency.c) of `cat` on a bare pty
# against `cat` in an attached tmux 3.3a client, both pinned to one CPU,
# printed one line each (issue 6 figures). Extra commands to measure, such
# as the Lazaret TUI, go after "--" and are run the same way:
#
#   tests/bench/latency.sh [-c CPU] [-n KEYS] [-o] [-- COMMAND...]
#
# -o: COMMAND only, without the bare pty and tmux lines.
#
# Not a test: run it on purpose and note the load average it prints.
set -euo pipefail
cpu=1
keys=500
refs=1
while getopts c:n:o o; do
	case $o in
	c) cpu=$OPTARG ;;
	n) keys=$OPTARG ;;
	o) refs=0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-latency.XXXXXX")
sock=lz-latency-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$tmp/latency" \
	"$ROOT/tests/bench/latency.c" -lutil
echo "$keys keys, one every 20 ms, 80x24, CPU $cpu, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
	local what=$1
	shift
	printf '%-28s ' "$what"
	taskset -c "$cpu" "$tmp/latency" -n "$keys" -- "$@" || true
}
if [ "$refs" = 1 ]; then
	run "cat (bare pty)" cat
	run "tmux 3.3a (attached) cat" tmux -L "$sock" -f /dev/null \
	    new -x 80 -y 24 cat
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
fi
if [ $# -gt 0 ]; then
	run "$*" "$@"
fi
