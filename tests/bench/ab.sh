#!/bin/bash
# ab.sh: interleaved A/B rounds of one benchmark against two builds, the
# form of every "no regression" figure (issue 13 on): A is the build
# before a change, B the build after it.
#
#   tests/bench/ab.sh [-n ROUNDS] [-o DIR] A_BINDIR B_BINDIR BENCH [ARG...]
#
# BENCH is a script (a name in tests/bench, or a path) that takes
# -b BINDIR and prints its results as lib.sh's `figure NAME VALUE UNIT
# higher|lower` lines. Each round runs it once against A and once against
# B, with the same ARGs, A first in odd rounds and B first in even ones, so
# a drift of the machine's load hits both alike. Before every run and after
# the last, every Domain of the account is ended (its coordinator sent
# SIGTERM) and awaited: control socket gone, lifecycle lock free, no
# container labelled lazaret.domain left. The two builds may speak
# different protocol versions; a client of one never meets the other's
# coordinator. ROUNDS defaults to 9.
#
# Prints each run as it ends (its figures, time and load average), then per
# figure every round of A and of B, their medians (the lower middle for an
# even count, as lib.sh's median), the spread of the A rounds (max - min)
# and the verdict: "regression" when B's median is worse than A's by more
# than the A spread, "better" when it is better by more than that, "same"
# otherwise; a summary table last. Each run's whole output is kept in DIR
# (default: a new directory under /tmp, named at the start). Run as the
# account that runs Lazaret, like the benchmarks; not a test.
#
# The Network Sidecar: a coordinator runs the image
# localhost/lazaret/netpolicy:<its version>, and two builds of one version
# may need different sidecars (the Trust Anchor changed its arguments).
# When a build's directory has a lazaret-netpolicy, it is imported once as
# localhost/lazaret/netpolicy:ab-<its SHA-256, 16 digits> and given that
# version's tag before each run of the build; when ab.sh exits (at the
# end, on an interrupt or a failure) the tag goes back to the image it
# named at the start and the ab- images are removed. A build without one
# uses the account's image.
set -euo pipefail
rounds=9
out=
while getopts n:o: o; do
	case $o in
	n) rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
	echo "usage: ab.sh [-n ROUNDS] [-o DIR] A_BINDIR B_BINDIR BENCH [ARG...]" >&2
	exit 2
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/containers.sh
. "$ROOT/tests/lib/containers.sh"
declare -A dirs=([A]=$(cd "$1" && pwd) [B]=$(cd "$2" && pwd))
bench=$3
shift 3
case $bench in
*/*) ;;
*) bench=$ROOT/tests/bench/$bench ;;
esac
[ -f "$bench" ] || { echo "ab: no benchmark $bench" >&2; exit 2; }
for b in A B; do
	[ -x "${dirs[$b]}/lazaret" ] ||
	    { echo "ab: no lazaret in ${dirs[$b]}" >&2; exit 2; }
done
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/lz-ab.XXXXXX")
mkdir -p "$out"
figs=$out/figures	# round build name value unit better, one a line
: >"$figs"

load() { cut -d' ' -f1-3 /proc/loadavg; }

sidecar=localhost/lazaret/netpolicy
declare -A side=() ver=() orig=()
# sidecar_import BUILD: the ab- image of BUILD's lazaret-netpolicy, made
# the way scripts/setup-image.sh makes the account's (one file, root's,
# its SHA-256 as a label); side[BUILD] empty when it has none.
sidecar_import() {
	local b=$1 np=${dirs[$1]}/lazaret-netpolicy sum d err
	ver[$b]=$("${dirs[$b]}/lazaret" --version |
	    sed -n 's/^lazaret \([0-9][0-9.]*\).*/\1/p')
	[ -n "${ver[$b]}" ] ||
	    { echo "ab: no version from ${dirs[$b]}/lazaret" >&2; exit 2; }
	[ -z "${orig[${ver[$b]}]+set}" ] &&
	    orig[${ver[$b]}]=$(podman image inspect --format '{{.Id}}' \
	    "$sidecar:${ver[$b]}" 2>/dev/null || true)
	side[$b]=
	[ -x "$np" ] || return 0
	sum=$(sha256sum "$np" | cut -c1-64)
	side[$b]=$sidecar:ab-${sum:0:16}
	podman image exists "${side[$b]}" && return 0
	d=$(mktemp -d "${TMPDIR:-/tmp}/lz-ab-sidecar.XXXXXX")
	install -m 0755 "$np" "$d/lazaret-netpolicy"
	tar --numeric-owner --owner=0 --group=0 -C "$d" -cf "$d/np.tar" \
	    lazaret-netpolicy
	# podman's progress on stderr is kept to say why when it fails.
	err=$(podman import --change "LABEL org.lazaret.binary-sha256=$sum" \
	    --change 'ENTRYPOINT ["/lazaret-netpolicy"]' \
	    --message "ab.sh: the sidecar of ${dirs[$b]}" \
	    "$d/np.tar" "${side[$b]}" 2>&1 >/dev/null) || {
		rm -rf "$d"
		echo "ab: cannot import $np as ${side[$b]}: $err" >&2
		exit 1
	}
	rm -rf "$d"
}
# sidecar_use BUILD: BUILD's sidecar becomes its version's image.
sidecar_use() {
	[ -z "${side[$1]}" ] || podman tag "${side[$1]}" "$sidecar:${ver[$1]}"
}
# sidecar_restore: each version's tag back where it was, the ab- images
# gone.
sidecar_restore() {
	local v b
	for v in "${!orig[@]}"; do
		if [ -n "${orig[$v]}" ]; then
			podman tag "${orig[$v]}" "$sidecar:$v"
		else
			podman untag "$sidecar:$v" 2>/dev/null || true
		fi
	done
	for b in A B; do
		[ -z "${side[$b]:-}" ] ||
		    podman rmi "${side[$b]}" >/dev/null 2>&1 || true
	done
}

# live: what is left of the account's Domains, empty when nothing is. A
# control socket whose coordinator is gone while no lifecycle lock is held
# is a dead coordinator's (SIGKILL, a crash): nothing runs, and that
# Domain's next start recovers it, so it does not count (it used to keep
# end_domains waiting its whole 120 s).
live() {
	local d pid alive held
	for d in "${XDG_RUNTIME_DIR:?}"/lazaret/*/; do
		[ -d "$d" ] || continue
		alive=0 held=0
		pid=$(cat "$d/coordinator.pid" 2>/dev/null) || pid=
		if [ -n "$pid" ] && [ -O "/proc/$pid" ] &&
		    grep -qa lazaret "/proc/$pid/cmdline" 2>/dev/null; then
			printf 'coordinator %s; ' "$pid"
			alive=1
		fi
		if [ -e "$d/lifecycle.lock" ] &&
		    ! flock -n "$d/lifecycle.lock" true; then
			printf 'lock held %s; ' "$d"
			held=1
		fi
		[ -S "$d/control.sock" ] && [ $((alive + held)) -gt 0 ] &&
		    printf 'socket %s; ' "$d"
	done
	# A Domain's pair prepared for its next start is not running.
	lz_live_containers "" | sed 's/^/container /'
}

# end_domains: ends every Domain of the account and waits (120 s at most)
# until nothing of them is left.
end_domains() {
	local d pid i left
	for d in "${XDG_RUNTIME_DIR:?}"/lazaret/*/; do
		pid=$(cat "$d/coordinator.pid" 2>/dev/null) || continue
		[ -O "/proc/$pid" ] &&
		    grep -qa lazaret "/proc/$pid/cmdline" 2>/dev/null &&
		    kill -TERM "$pid" 2>/dev/null || true
	done
	for i in $(seq 1 600); do
		left=$(live)
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	echo "ab: still there 120 s after SIGTERM: $left" >&2
	return 1
}

# run ROUND BUILD: one run of the benchmark against BUILD's binaries.
run() {
	local r=$1 b=$2 log=$out/round$1-$2.log l0 t0 rc=0 secs line
	shift 2
	end_domains
	sidecar_use "$b"
	l0=$(load)
	t0=$(date +%s)
	# In a process group of its own, so that an interrupted A/B ends it.
	setsid bash "$bench" -b "${dirs[$b]}" "$@" >"$log" 2>&1 </dev/null &
	child=$!
	wait "$child" || rc=$?
	child=
	secs=$(($(date +%s) - t0))
	{ grep '^figure ' "$log" || true; } |
	    while read -r _ name val unit better; do
		echo "$r $b $name $val $unit $better"
	done >>"$figs"
	line=$(awk -v r="$r" -v b="$b" '$1 == r && $2 == b {
	    printf " %s=%s", $3, $4 }' "$figs")
	printf 'round %s %s: rc %s, %s s, load %s -> %s:%s\n' "$r" "$b" \
	    "$rc" "$secs" "$l0" "$(load)" "$line"
	[ "$rc" = 0 ] || { echo "  (failed: see $log)"; tail -5 "$log" |
	    sed 's/^/  | /'; }
}

child=
interrupted() {
	[ -z "$child" ] || kill -TERM -- "-$child" 2>/dev/null || true
	echo "ab: interrupted; ending the Domains" >&2
	end_domains || true
	exit 130
}
trap interrupted INT TERM

trap sidecar_restore EXIT
sidecar_import A
sidecar_import B
echo "ab: $(basename "$bench") $*; A=${dirs[A]} B=${dirs[B]}; $rounds rounds;" \
    "$(nproc) CPUs; load $(load); logs in $out"
for b in A B; do
	if [ -n "${side[$b]}" ]; then
		echo "ab: $b is lazaret ${ver[$b]}, sidecar ${side[$b]}"
	else
		echo "ab: $b is lazaret ${ver[$b]}, the account's sidecar"
	fi
done
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then
		run "$r" A "$@"; run "$r" B "$@"
	else
		run "$r" B "$@"; run "$r" A "$@"
	fi
done
end_domains
echo "load at end: $(load)"

# The table: per figure (in the order first printed), both builds' rounds.
awk -v rounds="$rounds" '
function med(v, n,   i, j, t, s) {
	for (i = 1; i <= n; i++) s[i] = v[i]
	for (i = 2; i <= n; i++)	# insertion sort, n is small
		for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
			t = s[j]; s[j] = s[j - 1]; s[j - 1] = t
		}
	return s[int((n + 1) / 2)]
}
{
	if (!($3 in unit)) { order[++nf] = $3; unit[$3] = $5; better[$3] = $6 }
	val[$3, $2, $1] = $4
}
END {
	for (f = 1; f <= nf; f++) {
		name = order[f]
		printf "\n%s (%s, %s is better)\n", name, unit[name], better[name]
		for (bi = 1; bi <= 2; bi++) {
			b = bi == 1 ? "A" : "B"
			n = 0; lo = ""; hi = ""; line = ""
			for (r = 1; r <= rounds; r++) {
				if ((name, b, r) in val) {
					x = val[name, b, r] + 0
					v[++n] = x
					if (lo == "" || x < lo) lo = x
					if (hi == "" || x > hi) hi = x
					line = line sprintf(" %s", val[name, b, r])
				} else
					line = line " -"
			}
			m[b] = n ? med(v, n) : ""
			sp[b] = n ? hi - lo : ""
			printf "  %s:%s  median %s spread %s (n %d)\n", b, line,
			    m[b], sp[b], n
		}
		if (m["A"] == "" || m["B"] == "") {
			verdict[name] = "no figure"
			d = ""
		} else {
			d = m["B"] - m["A"]
			worse = better[name] == "higher" ? -d : d
			verdict[name] = worse > sp["A"] ? "regression" : \
			    -worse > sp["A"] ? "better" : "same"
			printf "  B - A = %+g (%+.1f%%): %s\n", d,
			    m["A"] != 0 ? 100 * d / m["A"] : 0, verdict[name]
		}
		row[name] = sprintf("%-28s %10s %10s %10s %10s  %s", name,
		    m["A"], m["B"], sp["A"], d == "" ? "-" : sprintf("%+g", d),
		    verdict[name])
	}
	printf "\n%-28s %10s %10s %10s %10s  %s\n", "figure (medians)", "A",
	    "B", "A spread", "B - A", "verdict"
	for (f = 1; f <= nf; f++) print row[order[f]]
}' "$figs"
