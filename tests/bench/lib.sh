# lib.sh: helpers the bench scripts share (bash).

# shellcheck source=tests/lib/containers.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/containers.sh"

# pane_src ROOT: the sources a bench program using ui/pane.h links (and
# the version its answers give, which CMake passes otherwise).
pane_src() {
	echo "-DLZ_VERSION=\"bench\" $1/ui/pane.c $1/ui/pane-snapshot.c" \
	    "$1/ui/pane-report.c $1/ui/pane-link.c $1/ui/pane-fast.c" \
	    "$1/ui/grid.c $1/ui/grid-reflow.c $1/ui/vtchar.c" \
	    "$1/core/util.c"
}

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
# figure NAME VALUE UNIT higher|lower: one result line in the form ab.sh
# reads (NAME without spaces; which way is better last).
figure() {
	echo "figure $1 $2 $3 $4"
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

# bench_cleanup: the exit trap of a bench that uses $sock (a private tmux
# server), $keeper (a keeper session's pid, or empty) and $tmp.
bench_cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	[ -n "${keeper:-}" ] && kill "$keeper" 2>/dev/null || true
	rm -rf "$tmp"
}
# warm_domain LAZARET DIR: a keeper session ($keeper) holds the Domain of
# the Git project DIR up; returns once the coordinator lists it.
warm_domain() {
	local i
	(cd "$2" && exec "$1" run -- sleep 100000) </dev/null >/dev/null 2>&1 &
	keeper=$!
	for i in $(seq 1 300); do
		(cd "$2" && "$1" ls 2>/dev/null | grep -q sleep) && return 0
		sleep 0.2
	done
}
# domain_absent DIR ID: waits (20 s at most) until the Domain ID of the
# project DIR is gone: control socket removed, no container of it but the
# pair prepared for its next start (tests/lib/containers.sh), its teardown
# finished (the coordinator holds the lifecycle lock until it has
# unmounted and prepared that pair).
domain_absent() {
	local i
	for i in $(seq 1 200); do
		[ ! -S "$XDG_RUNTIME_DIR/lazaret/$2/control.sock" ] &&
		    [ -z "$(lz_live_containers "$2")" ] &&
		    flock -n "$XDG_RUNTIME_DIR/lazaret/$2/lifecycle.lock" true &&
		    return 0
		sleep 0.1
	done
	echo "bench: the Domain in $1 did not go away" >&2
	return 1
}
# end_domain LAZARET DIR: stops DIR's Domain through its coordinator, with
# every session in it (a hung-up TUI or raw session is only detached),
# waits for the keeper and the teardown, and removes the Domain's root (DIR
# is a throwaway project).
end_domain() {
	local id
	id=$(cd "$2" && "$1" domain show --json | jq -r .domain_id)
	kill -TERM "$(cat "$XDG_RUNTIME_DIR/lazaret/$id/coordinator.pid")" \
	    2>/dev/null || true
	wait "$keeper" 2>/dev/null || true
	keeper=
	domain_absent "$2" "$id" || return 1
	domain_forget "$id"
}
# domain_forget ID: a throwaway Domain's containers (the prepared pair:
# the sandbox first, podman refuses to remove a sidecar it depends on)
# and its Domain Root removed.
domain_forget() {
	local r
	for r in sandbox sidecar; do
		podman ps -aq --filter "label=lazaret.domain=$1" \
		    --filter "label=lazaret.role=$r" |
		    xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
	done
	podman unshare rm -rf "$HOME/.local/share/lazaret/domains/$1"
}
