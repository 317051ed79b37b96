#!/bin/bash
# stalled.sh: start times beside a stalled session (issue 13, OR-3). In a
# warm Domain of a throwaway project, W clients (4) each run `lazaret run
# -- true` K times (20) one after the other: the "none" set with no other
# session than the keeper, the "stalled" set beside a session whose
# command never reads its stdin while `yes` feeds it (`yes | lazaret run
# -- sleep H`, started 2 s before the set so its input has filled every
# buffer on the way). Each round runs both sets, "none" first in odd
# rounds and "stalled" first in even ones (-n: the "none" set only).
#
#   tests/bench/stalled.sh [-r ROUNDS] [-w W] [-k K] [-t SECS] [-H H] [-n]
#                          [-b BINDIR]
#
# A run's time is its client's wall time, start to exit. A run that has
# not answered within -t SECS (10) is killed and counted lost, and its
# client stops there: the build before issue 13 froze every session of the
# Domain beside a stalled one until the stalled command ended (H, 60 s).
# After each stalled set the stalled client is sent SIGTERM and the script
# waits (at most H + 30 s) until `lazaret ls` answers without it, and says
# how long that took. Prints each round's median and max (ms), answered,
# lost and failed runs (a failed run's exit status and stderr) and the
# coordinator's CPU time for each set, then over all rounds (all runs of a
# set together) the medians, maxima and the ratio of the medians stalled /
# none (issue 13's goal: at most 1.2), and those as lib.sh's figure lines
# (for ab.sh). Run as the account that runs Lazaret; not a test.
set -euo pipefail
rounds=1
workers=4
runs=20
limit=10
hold=60
sets="none stalled"
bindir=/usr/local/bin
while getopts r:w:k:t:H:nb: o; do
	case $o in
	r) rounds=$OPTARG ;;
	w) workers=$OPTARG ;;
	k) runs=$OPTARG ;;
	t) limit=$OPTARG ;;
	H) hold=$OPTARG ;;
	n) sets=none ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-stalled.XXXXXX")
sock=lz-stalled-$$	# bench_cleanup's; no tmux server here
keeper=
stalled=
feeder=
id=
cleanup() {
	[ -n "$feeder" ] && kill "$feeder" 2>/dev/null || true
	[ -n "$stalled" ] && kill "$stalled" 2>/dev/null || true
	bench_cleanup
}
trap cleanup EXIT
proj=$tmp/proj
mkdir -p "$proj"
git -C "$proj" init -q
id=$(cd "$proj" && "$lz" domain show --json | jq -r .domain_id)
clk=$(getconf CLK_TCK)

# coord_cpu: the coordinator's user + system time so far, in ms.
coord_cpu() {
	local pid
	pid=$(cat "$XDG_RUNTIME_DIR/lazaret/$id/coordinator.pid")
	awk -v clk="$clk" '{ print int(($14 + $15) * 1000 / clk) }' \
	    "/proc/$pid/stat"
}

# client N: K runs, one a line: ms, or "lost" (killed at the limit, and
# the client stops), or "failed RC: its stderr" (and it stops).
client() {
	local i t0 t1 rc err=$tmp/err.$1
	for i in $(seq 1 "$runs"); do
		t0=$(date +%s%N)
		rc=0
		(cd "$proj" && timeout -k 2 "$limit" "$lz" run -- true) \
		    </dev/null >/dev/null 2>"$err" || rc=$?
		t1=$(date +%s%N)
		case $rc in
		0) echo $(((t1 - t0) / 1000000)) ;;
		124 | 137) echo lost; return ;;
		*) echo "failed $rc: $(head -c 300 "$err" | tr '\n' ' ')"
		   return ;;
		esac
	done
}

# clients SET ROUND: W clients at once; their lines in $tmp/SET.ROUND,
# the coordinator's CPU time meanwhile in $tmp/SET.ROUND.cpu.
clients() {
	local w c0 pids=()
	c0=$(coord_cpu)
	for w in $(seq 1 "$workers"); do
		client "$w" >"$tmp/$1.$2.$w" &
		pids+=($!)
	done
	for w in "${pids[@]}"; do wait "$w" || true; done
	echo $(($(coord_cpu) - c0)) >"$tmp/$1.$2.cpu"
	cat "$tmp/$1.$2".[0-9]* >"$tmp/$1.$2"
	cat "$tmp/$1.$2" >>"$tmp/$1.all"
}

# stall_on / stall_off: the session that never reads, fed by yes.
stall_on() {
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	(cd "$proj" && exec "$lz" run -- sleep "$hold") <"$tmp/fifo" \
	    >/dev/null 2>&1 &
	stalled=$!
	yes >"$tmp/fifo" 2>/dev/null &
	feeder=$!
	sleep 2
}
stall_off() {
	local t0 ls
	kill -0 "$stalled" 2>/dev/null ||
	    echo "  warning: the stalled client ended before its set did"
	t0=$(date +%s)
	kill "$feeder" "$stalled" 2>/dev/null || true
	while [ $(($(date +%s) - t0)) -lt $((hold + 30)) ]; do
		if ls=$(cd "$proj" && timeout 5 "$lz" ls </dev/null 2>&1) &&
		    ! grep -qw "sleep $hold" <<<"$ls"; then
			echo "  the Domain answered without the stalled" \
			    "session $(($(date +%s) - t0)) s after its client" \
			    "was sent SIGTERM"
			break
		fi
		sleep 1
	done
	[ $(($(date +%s) - t0)) -lt $((hold + 30)) ] ||
	    echo "  warning: the stalled session still listed (or no" \
	    "answer) $((hold + 30)) s after its client was sent SIGTERM"
	wait "$feeder" "$stalled" 2>/dev/null || true
	feeder=
	stalled=
}

# summary SET FILE: median, max, answered, lost, failed of FILE's lines.
summary() {
	local ms n lost failed
	ms=$(grep -E '^[0-9]+$' "$2" || true)
	n=$(grep -cE '^[0-9]+$' "$2" || true)
	lost=$(grep -c '^lost' "$2" || true)
	failed=$(grep -c '^failed' "$2" || true)
	if [ "$n" -gt 0 ]; then
		printf '%-8s median %6s ms  max %6s ms' "$1" \
		    "$(median <<<"$ms")" "$(best <<<"$ms")"
	else
		printf '%-8s median      - ms  max      - ms' "$1"
	fi
	printf '  answered %d of %d, lost %d, failed %d' "$n" \
	    $((workers * runs * ${3:-1})) "$lost" "$failed"
}

echo "stalled.sh: $workers clients x $runs runs of 'lazaret run -- true'," \
    "timeout $limit s, stalled command sleep $hold, $rounds rounds;" \
    "lazaret from $bindir; $(nproc) CPUs, loadavg" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
warm_domain "$lz" "$proj"
[ -S "$XDG_RUNTIME_DIR/lazaret/$id/control.sock" ] ||
    { echo "stalled.sh: the Domain did not start" >&2; exit 1; }
sleep 1
for r in $(seq 1 "$rounds"); do
	order=$sets
	[ $((r % 2)) = 1 ] || order=$(tr ' ' '\n' <<<"$sets" | tac | xargs)
	for set in $order; do
		if [ "$set" = stalled ]; then
			stall_on
			clients stalled "$r"
			stall_off >"$tmp/off"
		else
			clients none "$r"
		fi
		printf 'round %s %s, coordinator CPU %s ms, loadavg %s\n' "$r" \
		    "$(summary "$set" "$tmp/$set.$r")" \
		    "$(cat "$tmp/$set.$r.cpu")" \
		    "$(cut -d' ' -f1-3 /proc/loadavg)"
		grep -h '^failed' "$tmp/$set.$r" | sed 's/^/  /' || true
		[ "$set" = none ] || cat "$tmp/off"
	done
done
end_domain "$lz" "$proj"

echo "all rounds:"
for set in $sets; do
	echo "  $(summary "$set" "$tmp/$set.all" "$rounds")"
done
for set in $sets; do
	ms=$(grep -E '^[0-9]+$' "$tmp/$set.all" || true)
	[ -z "$ms" ] && continue
	figure "$set.median" "$(median <<<"$ms")" ms lower
	figure "$set.max" "$(best <<<"$ms")" ms lower
done
for set in $sets; do
	figure "$set.lost" "$(grep -c '^lost' "$tmp/$set.all" || true)" runs \
	    lower
	figure "$set.failed" "$(grep -c '^failed' "$tmp/$set.all" || true)" \
	    runs lower
done
if [ "$sets" != none ] && grep -qE '^[0-9]+$' "$tmp/stalled.all" &&
    grep -qE '^[0-9]+$' "$tmp/none.all"; then
	a=$(grep -E '^[0-9]+$' "$tmp/none.all" | median)
	b=$(grep -E '^[0-9]+$' "$tmp/stalled.all" | median)
	echo "median stalled / none: $(ratio "$b" "$a") (goal: at most 1.2)"
	figure stalled.ratio "$(ratio "$b" "$a")" x lower
fi
