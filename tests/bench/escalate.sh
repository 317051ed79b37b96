#!/bin/bash
# escalate.sh: Host Escalation figures (issue 15), side by side in one run.
# Run as the unprivileged account that has the default image:
#
#   tests/bench/escalate.sh [-n REQUESTS] [-p PROMPTS] [-b BINDIR]
#
# round trip: an auto-approved `true`, from `lazaret-escalate` starting to
#       its exit, timed inside the sandbox with bash's EPOCHREALTIME (no
#       process of the timing's own); p50 and p99 of REQUESTS, beside the
#       same loop running the sandbox's /bin/true (gVisor's cost of
#       starting any program) and `lazaret run -- true` on the same warm
#       Domain, for scale;
# burst: 4 sessions asking at once, REQUESTS each: requests a second;
# prompt: the time from a request record's rename (an inotify watch on
#       the request directory through podman's namespace) to its prompt on
#       the TUI's screen (tmux capture every 2 ms; prompt-latency.c), PROMPTS
#       times, p50 and p99; each prompt is then denied.
# Prints the figures as lib.sh's figure lines (for ab.sh). Not a test: run
# it on purpose, and note the load average it prints.
set -euo pipefail
n=200
prompts=20
bindir=/usr/local/bin
while getopts n:p:b: o; do
	case $o in
	n) n=$OPTARG ;;
	p) prompts=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
tmp=$(mktemp -d /tmp/lz-bench-esc.XXXXXX)
sock=lz-bench-esc-$$
keeper=
proj=$tmp/proj
mkdir -p "$proj" && git -C "$proj" init -q
echo x > "$proj/f" && git -C "$proj" add f &&
    git -C "$proj" -c user.name=b -c user.email=b@example.invalid commit -qm b
# A configuration of the bench's own: one rule, for `true`.
export XDG_CONFIG_HOME=$tmp/config
mkdir -p "$XDG_CONFIG_HOME/lazaret"
chmod 700 "$XDG_CONFIG_HOME"
ln -s "$HOME/.config/containers" "$XDG_CONFIG_HOME/containers"
printf '[profile default]\nauto-approve = true\n' \
    >"$XDG_CONFIG_HOME/lazaret/config.ini"
chmod 600 "$XDG_CONFIG_HOME/lazaret/config.ini"
cd "$proj"
id=$("$lz" domain show --json | jq -r .domain_id)
rt=$XDG_RUNTIME_DIR/lazaret/$id
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	[ -n "$keeper" ] && kill "$keeper" 2>/dev/null || true
	[ -f "$rt/coordinator.pid" ] &&
	    kill -TERM "$(cat "$rt/coordinator.pid")" 2>/dev/null || true
	domain_absent "$proj" "$id" >/dev/null 2>&1 || true
	podman unshare rm -rf "$HOME/.local/share/lazaret/domains/$id" "$tmp"
}
trap cleanup EXIT
${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$tmp/prompt-latency" \
	"$ROOT/tests/bench/prompt-latency.c"

warm_domain "$lz" "$proj"
echo "loadavg $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, lazaret from $bindir"

# loop CMD: N samples "start end" (seconds) of CMD, inside the sandbox.
loop() {
	"$lz" run -- bash -c 'for ((i = 0; i < $1; i++)); do
		s=$EPOCHREALTIME; "${@:2}" >/dev/null; e=$EPOCHREALTIME
		echo "$s $e"
	done' bash "$n" "$@"
}
# pct P: the P-th percentile (ms) of "start end" lines on stdin.
pct() {
	awk '{ printf "%.2f\n", ($2 - $1) * 1000 }' | sort -n |
	    awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p / 100 + 0.999);
		if (i < 1) i = 1; print v[i] }'
}
loop lazaret-escalate -- true >"$tmp/esc"
loop /bin/true >"$tmp/true"
esc50=$(pct 50 <"$tmp/esc") esc99=$(pct 99 <"$tmp/esc")
true50=$(pct 50 <"$tmp/true") true99=$(pct 99 <"$tmp/true")
run50=$(for i in $(seq 1 20); do
	t0=$(date +%s%N); "$lz" run -- true >/dev/null
	echo $((($(date +%s%N) - t0) / 1000000))
done | median)

# Burst: 4 sessions at once.
t0=$(date +%s%N)
pids=()
for k in 1 2 3 4; do
	"$lz" run -- bash -c 'for ((i = 0; i < $1; i++)); do
		lazaret-escalate -- true || echo failed; done' bash "$n" \
	    >"$tmp/burst$k" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
ms=$((($(date +%s%N) - t0) / 1000000))
bad=$(cat "$tmp"/burst? | grep -c failed || true)
rps=$(awk -v n="$n" -v ms="$ms" 'BEGIN { printf "%.0f", 4 * n * 1000 / ms }')

# Prompts in the TUI: a pane asks for what no rule approves; each prompt
# is denied once on screen. The watch sees the rename where the
# coordinator does: the mailbox's tmpfs in podman's namespace.
pause=$(cat "$XDG_RUNTIME_DIR/libpod/tmp/pause.pid")
tmux -L "$sock" -f /dev/null new -d -s b -x 160 -y 45 \
    "cd '$proj' && XDG_CONFIG_HOME='$XDG_CONFIG_HOME' TERM=xterm-256color '$lz' tui -- bash -c 'for ((i = 0; i < $prompts; i++)); do lazaret-escalate -- echo asked-\$i; sleep 0.3; done; sleep 600'"
"$tmp/prompt-latency" "/proc/$pause/root$rt/mailbox/requests" "$sock" b \
    "host command requested" "$prompts" >"$tmp/prompt" &
watcher=$!
for i in $(seq 1 "$prompts"); do
	for j in $(seq 1 400); do
		tmux -L "$sock" capture-pane -p -t b |
		    grep -q "host command requested" && break
		sleep 0.05
	done
	sleep 0.6	# the prompt ignores keys for its first 0.5 s
	tmux -L "$sock" send-keys -t b d
	tmux -L "$sock" send-keys -t b Enter
	for j in $(seq 1 200); do
		tmux -L "$sock" capture-pane -p -t b |
		    grep -q "host command requested" || break
		sleep 0.05
	done
done
wait "$watcher" || true
p50=$(median <"$tmp/prompt")
p99=$(sort -n "$tmp/prompt" | awk -v p=99 '{ v[NR] = $1 } END {
	i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; print v[i] }')

printf '%-44s %9s %9s\n' "" "p50 ms" "p99 ms"
printf '%-44s %9s %9s\n' "round trip, auto-approved true ($n)" "$esc50" "$esc99"
printf '%-44s %9s %9s\n' "  the sandbox's /bin/true, same loop" "$true50" "$true99"
printf '%-44s %9s %9s\n' "  lazaret run -- true, warm Domain (20)" "$run50" "-"
printf '%-44s %9s %9s\n' "prompt on screen after the rename ($(wc -l <"$tmp/prompt"))" "$p50" "$p99"
echo "burst: 4 sessions x $n requests in $ms ms: $rps requests/s ($bad failed)"
echo "prompt samples (ms): $(tr '\n' ' ' <"$tmp/prompt")"
figure esc.roundtrip.p50 "$esc50" ms lower
figure esc.roundtrip.p99 "$esc99" ms lower
figure esc.sandbox-true.p50 "$true50" ms lower
figure esc.run-true "$run50" ms lower
figure esc.burst "$rps" req/s higher
figure esc.prompt.p50 "$p50" ms lower
figure esc.prompt.p99 "$p99" ms lower
