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
# Rounds (-n, default 5) alternate which of the two goes first; every
# round is printed, then the medians and their ratio (issue 19's goal:
# at most 0.50). Neither is pinned to a CPU: RSS does not depend on it.
#
#   tests/bench/pane-memory.sh [-n ROUNDS]
#
# Builds with -O2 and no sanitizers. Not a test: run it on purpose.
set -euo pipefail
rounds=5
while getopts n: o; do
	case $o in
	n) rounds=$OPTARG ;;
	*) exit 2 ;;
	esac
done
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

# lz_round: pane-memory's VmRSS in KB (its output kept in $tmp/lz.out).
lz_round() {
	"$tmp/pane-memory" "$file" >"$tmp/lz.out"
	grep -q '^check ok$' "$tmp/lz.out" || {
		echo "pane-memory: the scrollback check failed" >&2
		cat "$tmp/lz.out" >&2
		return 1
	}
	awk '$1 == "rss_kb" { print $2 }' "$tmp/lz.out"
}

printf 'set -g history-limit 10000\n' >"$tmp/tmux.conf"
# tmux_round: the VmRSS in KB of a tmux server holding the 8 panes. The
# panes stay (and keep their history) after cat: the shell waits on the
# pty for ever.
tmux_round() {
	local cmd="cat '$file'; tmux wait -S" i pid
	tmux -L "$sock" -f "$tmp/tmux.conf" new -d -x 200 -y 50 \
	    "$cmd w1; exec cat"
	for i in 2 3 4 5 6 7 8; do
		tmux -L "$sock" new-window -d "$cmd w$i; exec cat"
	done
	for i in 1 2 3 4 5 6 7 8; do
		tmux -L "$sock" wait "w$i"
	done
	pid=$(tmux -L "$sock" display -p '#{pid}')
	tmux -L "$sock" list-panes -s \
	    -F '#{pane_width}x#{pane_height}/#{history_size}' |
	    sort | uniq -c | tr -s ' ' >"$tmp/tmux.panes"
	awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	# The next round's server must not meet this one exiting.
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.1
	done
}

echo "lazaret: 8 lz_panes in one process; tmux $(tmux -V | cut -d' ' -f2): a server with 8 windows; $rounds rounds, order alternating"
printf '%-6s %12s %12s %7s\n' round "lazaret KB" "tmux KB" ratio
: >"$tmp/lz" && : >"$tmp/tmux"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then
		lz=$(lz_round)
		tm=$(tmux_round)
	else
		tm=$(tmux_round)
		lz=$(lz_round)
	fi
	echo "$lz" >>"$tmp/lz"
	echo "$tm" >>"$tmp/tmux"
	printf '%-6s %12s %12s %7s\n' "$r" "$lz" "$tm" "$(ratio "$lz" "$tm")"
done
sed 's/^/  lazaret: /' "$tmp/lz.out"
echo "  tmux panes (count size/history):$(cat "$tmp/tmux.panes")"
lz=$(median <"$tmp/lz")
tm=$(median <"$tmp/tmux")
printf '%-10s %10s %10s\n' "" lazaret tmux
printf '%-10s %10.1f %10.1f   ratio %s (goal <= 0.50)\n' "VmRSS MB" \
	"$(echo "$lz / 1024" | bc -l)" "$(echo "$tm / 1024" | bc -l)" \
	"$(ratio "$lz" "$tm")"
