# lib.sh: helpers the bench scripts share (bash).

# median / best: of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
best() {
	sort -n | tail -1
}
# mbps BYTES T0_NS T1_NS: MB/s over the interval.
mbps() {
	echo "$1 $2 $3" | awk '{ printf "%.1f", $1 / 1e6 / (($3 - $2) / 1e9) }'
}
# ratio A B: A / B with two decimals.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
# tmux_detached SOCK CPU FILE: MB/s of a detached tmux 200x50 pane that
# cats FILE, from the server's start to `tmux wait done`, pinned to CPU.
tmux_detached() {
	local t0 t1
	t0=$(date +%s%N)
	taskset -c "$2" tmux -L "$1" -f /dev/null new -d -x 200 -y 50 \
	    "cat '$3'; tmux wait -S done"
	taskset -c "$2" tmux -L "$1" wait done
	t1=$(date +%s%N)
	tmux -L "$1" kill-server >/dev/null 2>&1 || true
	mbps "$(stat -c %s "$3")" "$t0" "$t1"
}
