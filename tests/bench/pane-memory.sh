#!/bin/bash
# pane-memory.sh: issue 6's memory figure. Eight panes of 200x50, each
# holding 10,000 lines of 100 coloured characters (pane-memory.c -w: a
# 256-colour SGR before every character) in a 10,000-line scrollback:
#
#   lazaret: pane-memory feeds the file to 8 lz_panes in one process and
#            reports its VmRSS (what the coordinator would hold);
#   tmux:    a server on a private socket with `history-limit 10000` (from
#            a config file written here), 8 windows of 200x50 each running
#            `cat FILE` and then waiting; VmRSS of the server (#{pid}).
#
#   tests/bench/pane-memory.sh
#
# Builds with -O2 and no sanitizers. Not a test: run it on purpose.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-pane-memory.XXXXXX")
sock=lz-pane-memory-$$
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Werror -I"$ROOT" \
	-o "$tmp/pane-memory" "$ROOT/tests/bench/pane-memory.c" \
	$(pane_src "$ROOT") $(pkg-config --cflags --libs vterm)
file=$tmp/lines.ans
"$tmp/pane-memory" -w "$file"
echo "content: $(stat -c %s "$file") bytes, 10000 lines x 100 characters, a 256-colour SGR each"

echo "lazaret (8 lz_panes in one process):"
"$tmp/pane-memory" "$file" | sed 's/^/  /' | tee "$tmp/lz.out"
lz=$(awk '$1 == "rss_kb" { print $2 }' "$tmp/lz.out")

printf 'set -g history-limit 10000\n' >"$tmp/tmux.conf"
# The pane stays (and keeps its history) after cat: the shell waits on
# the pty for ever.
cmd="cat '$file'; tmux wait -S"
tmux -L "$sock" -f "$tmp/tmux.conf" new -d -x 200 -y 50 "$cmd w1; exec cat"
for i in 2 3 4 5 6 7 8; do
	tmux -L "$sock" new-window -d "$cmd w$i; exec cat"
done
for i in 1 2 3 4 5 6 7 8; do
	tmux -L "$sock" wait "w$i"
done
pid=$(tmux -L "$sock" display -p '#{pid}')
sizes=$(tmux -L "$sock" list-panes -s -F '#{pane_width}x#{pane_height}/#{history_size}' | sort | uniq -c | tr -s ' ')
tm=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
echo "tmux $(tmux -V | cut -d' ' -f2) server (pid $pid), panes (count size/history):$sizes"
echo "  rss_kb $tm"
tmux -L "$sock" kill-server >/dev/null 2>&1 || true
printf '%-10s %10s %10s\n' "" lazaret tmux
printf '%-10s %10.1f %10.1f   ratio %.2f (goal <= 1.00)\n' "VmRSS MB" \
	"$(echo "$lz / 1024" | bc -l)" "$(echo "$tm / 1024" | bc -l)" \
	"$(echo "$lz / $tm" | bc -l)"
