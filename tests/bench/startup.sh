#!/bin/bash
# startup.sh: cold and warm start of a Client Session against bare podman,
# printed side by side (issue 4 figures). Run as the unprivileged account
# that has the default image, in no particular directory:
#
#   tests/bench/startup.sh [-n RUNS] [-b BINDIR]
#
# cold: "lazaret run -- true" with the Domain absent (coordinator start,
#       anchors, podman run, exec, and the client's return; teardown may
#       finish after it) vs "podman run --rm" of the same image and runtime
#       with the workspace and .git binds.
# warm: "lazaret run -- true" joining a running Domain vs "podman exec".
# Prints medians (ms) and the ratio. Not a test: run it on purpose.
set -euo pipefail
runs=5
bindir=/usr/local/bin
while getopts n:b: o; do
	case $o in
	n) runs=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
lz=$bindir/lazaret
shim=$bindir/lazaret-runsc
image=localhost/lazaret/base:bookworm
tmp=$(mktemp -d /tmp/lz-bench.XXXXXX)
proj=$tmp/proj
mkdir -p "$proj" && git -C "$proj" init -q
echo x > "$proj/f" && git -C "$proj" add f &&
    git -C "$proj" -c user.name=b -c user.email=b@example.invalid commit -qm b
cd "$proj"
id=$("$lz" domain show --json | jq -r .domain_id)
rt=$XDG_RUNTIME_DIR/lazaret/$id
keeper=
cleanup() {
	[ -n "$keeper" ] && kill "$keeper" 2>/dev/null || true
	podman rm -f -t 0 lz-bench-ref >/dev/null 2>&1 || true
	sleep 2
	podman unshare rm -rf "$HOME/.local/share/lazaret/domains/$id" "$tmp"
}
trap cleanup EXIT

ms() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
absent() {
	local i
	for i in $(seq 1 200); do
		[ ! -S "$rt/control.sock" ] &&
		    [ -z "$(podman ps -aq --filter label=lazaret.domain=$id)" ] &&
		    return 0
		sleep 0.1
	done
	echo "bench: the Domain did not go away" >&2
	return 1
}
timeit() {
	local t0 t1
	t0=$(ms)
	"$@" >/dev/null
	t1=$(ms)
	echo $(((t1 - t0) / 1000000))
}

"$lz" run -- true >/dev/null	# warms the image and page cache
absent
cold_lz=$(for i in $(seq 1 "$runs"); do timeit "$lz" run -- true; absent; done | median)
cold_pm=$(for i in $(seq 1 "$runs"); do timeit podman run --rm --pull=never \
    --runtime "$shim" --cgroupns=private --network=none --init \
    -v "$proj:/workspace" -v "$proj/.git:/workspace/.git" \
    -v "$proj/.git/config:/workspace/.git/config:ro" \
    --tmpfs /workspace/.git/hooks "$image" true; done | median)

"$lz" run -- sleep 600 </dev/null >/dev/null 2>&1 &
keeper=$!
for i in $(seq 1 200); do [ -S "$rt/control.sock" ] && break; sleep 0.1; done
sleep 1
warm_lz=$(for i in $(seq 1 "$runs"); do timeit "$lz" run -- true; done | median)
warm_pm=$(for i in $(seq 1 "$runs"); do timeit podman exec "lz-$id" true; done | median)

printf '%-6s %12s %12s %7s\n' "" "lazaret ms" "podman ms" "ratio"
printf '%-6s %12s %12s %7s\n' cold "$cold_lz" "$cold_pm" \
    "$(awk "BEGIN {printf \"%.2f\", $cold_lz / $cold_pm}")"
printf '%-6s %12s %12s %7s\n' warm "$warm_lz" "$warm_pm" \
    "$(awk "BEGIN {printf \"%.2f\", $warm_lz / $warm_pm}")"
echo "(medians of $runs; lazaret from $bindir; podman run --rm with the workspace and Git Sentry binds, no anchors)"
