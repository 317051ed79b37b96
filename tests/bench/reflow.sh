#!/bin/bash
# reflow.sh: issue 18's reflow figure, Lazaret's pane against tmux 3.3a on
# the same 100,000 lines (reflow.c: 40 to 200 columns of coloured text,
# some CJK, one line in ten wider than the pane) in a 50x200 pane with
# 100,000 lines of history, resized to 80 columns and back to 200:
#
#   lazaret: reflow.c, in memory: each lz_pane_resize timed (wall and CPU);
#   tmux:    a detached server (history-limit 100000) that has cat the
#            lines; each `resize-window` timed, wall (less a no-op
#            command's) and the server's CPU time (/proc/PID/stat).
#
# Both rewrap the screen and the whole history; both count the history
# cap in rows after rewrap, so the round trip keeps about half the lines.
#
#   tests/bench/reflow.sh [-n RUNS]
#
# Not a test: run it on purpose, on a quiet machine, and note the load
# average it prints.
set -euo pipefail
runs=3
while getopts n: o; do
	case $o in
	n) runs=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-reflow.XXXXXX")
sock=lz-reflow-$$
tm() { tmux -L "$sock" -f "$tmp/tmux.conf" "$@"; }
trap 'tm kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -Wall -Wextra -I"$ROOT" \
	-DLZ_VERSION='"bench"' -o "$tmp/reflow" "$ROOT/tests/bench/reflow.c" \
	$(pane_src "$ROOT") $(pkg-config --cflags --libs vterm)
"$tmp/reflow" -w "$tmp/lines"
echo "loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lazaret (lz_pane_resize):"
"$tmp/reflow" "$runs" | sed 's/^/  /'

echo 'set -g history-limit 100000' > "$tmp/tmux.conf"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
cpu() {	# utime + stime of the server, in ms
	awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' \
	    "/proc/$1/stat"
}
# resize COLS: wall ms (less the no-op's) and the server's CPU ms.
resize() {
	local c t
	c=$(cpu "$pid")
	t=$(date +%s%N)
	tm resize-window -t b -x "$1"
	tm display -p -t b x >/dev/null
	echo "$(( $(ms "$t") - 2 * noop )) $(( $(cpu "$pid") - c ))"
}
echo "tmux $(tmux -V | cut -d' ' -f2) (resize-window):"
for r in $(seq "$runs"); do
	tm new-session -d -s b -x 200 -y 50 \
	    "cat $tmp/lines; tmux -L $sock wait -S done; sleep 1000"
	tm wait done
	pid=$(tm display -p -t b '#{pid}')
	hist=$(tm display -p -t b '#{history_size}')
	t=$(date +%s%N)
	tm display -p -t b x >/dev/null
	noop=$(ms "$t")
	read -r w80 c80 < <(resize 80)
	mid=$(tm display -p -t b '#{history_size}')
	read -r w200 c200 < <(resize 200)
	after=$(tm display -p -t b '#{history_size}')
	rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
	echo "  run $r  200->80 $w80 ms (CPU $c80)  80->200 $w200 ms (CPU $c200)  history $hist -> $mid -> $after lines  server peak RSS $rss KiB"
	tm kill-server
	sleep 0.5
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
