#!/bin/bash
# startup.sh: cold and warm start of a Client Session against bare podman,
# printed side by side (issue 4 figures). Run as the unprivileged account
# that has the default image, in no particular directory:
#
#   tests/bench/startup.sh [-w] [-n RUNS] [-b BINDIR] [-p PROJECT]
#
# cold, new Domain: "lazaret run -- true" in a fresh project (no Domain
#       Root yet: coordinator start, sidecar, sandbox with its anchors,
#       exec, and the client's return; teardown may finish after it);
# cold, known Domain: the same in one project whose last Domain has ended
#       and finished its teardown (lifecycle lock free);
#       both against "podman run --rm" of the same image and runtime with
#       the workspace and .git binds, the three alternated in each round
#       so load changes hit them alike.
# warm: "lazaret run -- true" joining a running Domain vs "podman exec";
#       -w: the warm figures alone (more RUNS for the same time).
# -p PROJECT: every project is a copy (cp -a) of the Git work tree
#       PROJECT, ignored files included, instead of a one-file
#       repository: the set-up a real project costs (Git Sentry's census
#       and plan, the ignored paths' scan) is then in the figures.
# Prints medians (ms) and the ratio, then the medians as lib.sh's figure
# lines (for ab.sh). Not a test: run it on purpose.
set -euo pipefail
runs=5
bindir=/usr/local/bin
warm_only=0
source=
while getopts wn:b:p: o; do
	case $o in
	w) warm_only=1 ;;
	p) source=$(cd "$OPTARG" && pwd) ;;
	n) runs=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
lz=$bindir/lazaret
shim=$bindir/lazaret-runsc
image=localhost/lazaret/base:bookworm
tmp=$(mktemp -d /tmp/lz-bench.XXXXXX)
mkproj() {
	if [ -n "$source" ]; then
		cp -a "$source" "$1" && return
		echo "startup.sh: cannot copy $source" >&2
		exit 1
	fi
	mkdir -p "$1" && git -C "$1" init -q
	echo x > "$1/f" && git -C "$1" add f &&
	    git -C "$1" -c user.name=b -c user.email=b@example.invalid commit -qm b
}
proj=$tmp/proj
mkproj "$proj"
cd "$proj"
id=$("$lz" domain show --json | jq -r .domain_id)
rt=$XDG_RUNTIME_DIR/lazaret/$id
keeper=
cleanup() {
	[ -n "$keeper" ] && kill "$keeper" 2>/dev/null || true
	podman rm -f -t 0 lz-bench-ref >/dev/null 2>&1 || true
	sleep 2
	domain_forget "$id"
	rm -rf "$tmp"
}
trap cleanup EXIT

ms() { date +%s%N; }
timeit() {
	local t0 t1
	t0=$(ms)
	"$@" >/dev/null
	t1=$(ms)
	echo $(((t1 - t0) / 1000000))
}
# new_domain N: one cold start in a fresh project; its Domain is removed.
new_domain() {
	local p=$tmp/new$1 nid
	mkproj "$p"
	nid=$(cd "$p" && "$lz" domain show --json | jq -r .domain_id)
	(cd "$p" && timeit "$lz" run -- true)
	domain_absent "$p" "$nid"
	domain_forget "$nid"
	rm -rf "$p"
}
reference() {
	timeit podman run --rm --pull=never \
	    --runtime "$shim" --cgroupns=private --network=none --init \
	    -v "$proj:/workspace" -v "$proj/.git:/workspace/.git" \
	    -v "$proj/.git/config:/workspace/.git/config:ro" \
	    --tmpfs /workspace/.git/hooks "$image" true
}

"$lz" run -- true >/dev/null	# warms the image and page cache
domain_absent "$proj" "$id"
new=() known=() ref=()
if [ "$warm_only" = 0 ]; then
	for i in $(seq 1 "$runs"); do
		new+=("$(new_domain "$i")")
		ref+=("$(reference)")
		known+=("$(timeit "$lz" run -- true)")
		domain_absent "$proj" "$id"
	done
	cold_new=$(printf '%s\n' "${new[@]}" | median)
	cold_known=$(printf '%s\n' "${known[@]}" | median)
	cold_pm=$(printf '%s\n' "${ref[@]}" | median)
fi

"$lz" run -- sleep 600 </dev/null >/dev/null 2>&1 &
keeper=$!
for i in $(seq 1 200); do [ -S "$rt/control.sock" ] && break; sleep 0.1; done
sleep 1
warm_lz_all=$(for i in $(seq 1 "$runs"); do timeit "$lz" run -- true; done)
warm_pm_all=$(for i in $(seq 1 "$runs"); do timeit podman exec "lz-$id" true; done)
warm_lz=$(median <<<"$warm_lz_all")
warm_pm=$(median <<<"$warm_pm_all")

row() {
	printf '%-20s %12s %12s %7s\n' "$1" "$2" "$3" \
	    "$(awk "BEGIN {printf \"%.2f\", $2 / $3}")"
}
printf '%-20s %12s %12s %7s\n' "" "lazaret ms" "podman ms" "ratio"
if [ "$warm_only" = 0 ]; then
	row "cold, new Domain" "$cold_new" "$cold_pm"
	row "cold, known Domain" "$cold_known" "$cold_pm"
fi
row warm "$warm_lz" "$warm_pm"
[ "$warm_only" = 1 ] ||
    echo "cold rounds (new / known / podman run --rm): ${new[*]} / ${known[*]} / ${ref[*]}"
echo "warm rounds (lazaret / podman exec): $(tr '\n' ' ' <<<"$warm_lz_all")/ $(tr '\n' ' ' <<<"$warm_pm_all")"
echo "(medians of $runs; lazaret from $bindir; podman run --rm with the workspace and Git Sentry binds, no anchors; projects: ${source:-one-file repositories})"
if [ "$warm_only" = 0 ]; then
	figure cold.new "$cold_new" ms lower
	figure cold.known "$cold_known" ms lower
	figure cold.podman-run "$cold_pm" ms lower
fi
figure warm.lazaret "$warm_lz" ms lower
figure warm.podman-exec "$warm_pm" ms lower
