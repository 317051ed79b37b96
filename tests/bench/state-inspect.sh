#!/bin/bash
# state-inspect.sh: "lazaret state inspect" and "state diff" of a State
# Anchor whose upper layer holds N files (default 100,000: N/1000
# directories of 1000 files under /usr/lib/lz-bench, beside the image's
# /usr/bin copied up), the Domain down, warm cache; the figures include
# "podman unshare" and "podman image mount". Printed beside
# "podman unshare find UPPER | wc -l" on the same tree (issue 16 figure:
# under 1 s). Run as the unprivileged account that has the default
# image; not a test:
#
#   tests/bench/state-inspect.sh [-n FILES] [-r RUNS] [-b BINDIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
files=100000
runs=5
bindir=/usr/local/bin
while getopts n:r:b: o; do
	case $o in
	n) files=$OPTARG ;;
	r) runs=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
lz=$bindir/lazaret
tmp=$(mktemp -d /tmp/lz-bench-state.XXXXXX)
proj=$tmp/proj
mkdir -p "$proj" && git -C "$proj" init -q && echo x > "$proj/f" &&
    git -C "$proj" add f && git -C "$proj" -c user.name=b -c user.email=b@example.invalid commit -qm b
cd "$proj"
id=$("$lz" domain show --json | jq -r .domain_id)
[[ $id =~ ^[0-9a-f]{16}$ ]] || { echo "bench: no Domain ID" >&2; exit 1; }
droot=${XDG_DATA_HOME:-$HOME/.local/share}/lazaret/domains/$id
trap 'podman unshare rm -rf "$droot" "$tmp"' EXIT
"$lz" run -- true >/dev/null
for i in $(seq 1 200); do
	flock -n "$XDG_RUNTIME_DIR/lazaret/$id/lifecycle.lock" true && break
	sleep 0.1
done
up=$droot/anchors/usr/$(readlink "$droot/anchors/usr/current")/upper
# The tree: new files in new directories, and the image's /usr/bin
# copied up (every file of it "modified").
image=$("$lz" run --dry-run --json | jq -r .image)
podman unshare sh -c "mkdir -p '$up/lib/lz-bench' && cd '$up/lib/lz-bench' &&
    for d in \$(seq 1 $((files / 1000))); do mkdir d\$d && (cd d\$d && seq 1 1000 | xargs touch); done &&
    img=\$(podman image mount '$image') && cp -a \"\$img/usr/bin\" '$up/' &&
    podman image unmount '$image' >/dev/null"
podman unshare sh -c "find '$up' -printf x | wc -c" >/dev/null	# warm
# timeit CMD...: "WALL_MS CPU_MS" of one run (CPU: user + system of it
# and its children; on a loaded machine the wall time waits for a CPU).
timeit() {
	/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$tmp/t"
}
# fig CMD...: "WALL CPU" medians over the runs.
fig() {
	local i
	for i in $(seq 1 "$runs"); do timeit "$@"; done > "$tmp/runs"
	echo "$(cut -d' ' -f1 "$tmp/runs" | median) $(cut -d' ' -f2 "$tmp/runs" | median)"
}
n=$(podman unshare find "$up" | wc -l)
read -r ref refc < <(fig podman unshare sh -c "find '$up' | wc -l")
read -r refs refsc < <(fig podman unshare sh -c "find '$up' -printf '%s\n' | wc -l")
read -r ins insc < <(fig "$lz" state inspect /usr)
read -r dif difc < <(fig "$lz" state diff /usr)
read -r js jsc < <(fig "$lz" state inspect /usr --json)
echo "state inspect/diff of an anchor with $n upper entries ($runs runs, medians, warm cache; load $(cut -d' ' -f1 /proc/loadavg)):"
printf '  %-48s %6s ms wall %6s ms CPU\n' \
    "podman unshare find UPPER | wc -l" "$ref" "$refc" \
    "podman unshare find UPPER -printf '%s' (stats)" "$refs" "$refsc" \
    "lazaret state inspect /usr" "$ins" "$insc" \
    "lazaret state diff /usr" "$dif" "$difc" \
    "lazaret state inspect /usr --json (every entry)" "$js" "$jsc"
echo "  inspect/find $(ratio "$ins" "$ref") (wall), diff/find $(ratio "$dif" "$ref")"
