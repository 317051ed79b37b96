#!/bin/bash
# ignored-mounts.sh: what Ignored Workspace State mounts cost under runsc
# and podman (issue 16, "at real scale"): for projects with N ignored
# directories (each on the host with a file in it; default N = 0 64 256
# 1024 4096), the cold start of a known Domain ("lazaret run -- true"
# after its last teardown) and, while a session keeps it up, the mounts
# the sandbox sees, the binds of its workspace view in podman's namespace
# (core/ws-view.h) and the memory (PSS) of its runsc processes (sandbox,
# gofer) and of the conmons (sandbox and sidecar). Then a 200-package
# monorepo fixture (lz_monorepo: 400 ignored node_modules/ and dist/
# beside tracked files, and the two top-level entries). Run as the
# unprivileged account that has the default image; not a test:
#
#   tests/bench/ignored-mounts.sh [-r RUNS] [-b BINDIR] [N...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../integration/fixtures.sh"
runs=3
bindir=/usr/local/bin
while getopts r:b: o; do
	case $o in
	r) runs=$OPTARG ;;
	b) bindir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 0 64 256 1024 4096
lz=$bindir/lazaret
tmp=$(mktemp -d /tmp/lz-bench-ign.XXXXXX)
roots=()
keeper=
cleanup() {
	[ -n "$keeper" ] && kill "$keeper" 2>/dev/null || true
	sleep 2
	for r in "${roots[@]}"; do podman unshare rm -rf "$r"; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# project DIR N: a Git project with N ignored directories d0001/.. .
project() {
	local d=$1 n=$2 i
	mkdir -p "$d" && git -C "$d" init -q
	echo x > "$d/f"
	: > "$d/.gitignore"
	for i in $(seq -f %04g 1 "$n"); do
		echo "d$i/" >> "$d/.gitignore"
		mkdir -p "$d/d$i" && echo host > "$d/d$i/host-file"
	done
	git -C "$d" add f .gitignore
	git -C "$d" -c user.name=b -c user.email=b@example.invalid commit -qm b
}
settle() {
	local i
	for i in $(seq 1 300); do
		[ ! -S "$XDG_RUNTIME_DIR/lazaret/$1/control.sock" ] &&
		    flock -n "$XDG_RUNTIME_DIR/lazaret/$1/lifecycle.lock" true &&
		    return 0
		sleep 0.1
	done
	return 1
}
ms_of() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
# pss PATTERN: the PSS (KiB) of this account's processes whose command
# line starts with PATTERN (runsc's are all "exe" by name).
pss() {
	local p sum=0 v
	for p in $(pgrep -u "$(id -u)" -f "^$1" || true); do
		v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
		sum=$((sum + ${v:-0}))
	done
	echo "$sum"
}
# measure DIR LABEL: cold starts and memory of DIR's Domain.
measure() {
	local d=$1 label=$2 id i starts mounts binds gofer sandbox conmon
	id=$(cd "$d" && "$lz" domain show --json | jq -r .domain_id)
	roots+=("${XDG_DATA_HOME:-$HOME/.local/share}/lazaret/domains/$id")
	(cd "$d" && "$lz" run -- true >/dev/null 2>&1) || {
		echo "$label: the Domain does not start" >&2; return 1; }
	settle "$id"
	starts=$(for i in $(seq 1 "$runs"); do
		(cd "$d" && ms_of "$lz" run -- true)
		settle "$id"
	done | median)
	(cd "$d" && exec "$lz" run -- sleep 100000) </dev/null >/dev/null 2>&1 &
	keeper=$!
	for i in $(seq 1 300); do
		(cd "$d" && "$lz" ls 2>/dev/null | grep -q sleep) && break
		sleep 0.2
	done
	mounts=$(cd "$d" && "$lz" run -- sh -c 'wc -l < /proc/self/mountinfo')
	binds=$(podman unshare grep -c " ${roots[-1]}/view" /proc/self/mountinfo || true)
	gofer=$(pss runsc-gofer)
	sandbox=$(pss runsc-sandbox)
	conmon=$(pss /usr/bin/conmon)
	kill "$keeper"; wait "$keeper" 2>/dev/null || true
	keeper=
	settle "$id"
	printf '  %-28s %7s %7s %9s %10s %12s %11s\n' "$label" "$mounts" \
	    "$binds" "$starts" "$gofer" "$sandbox" "$conmon"
}

echo "Ignored Workspace State mounts under runsc ($runs cold starts of a known Domain, median; load $(cut -d' ' -f1 /proc/loadavg)):"
printf '  %-28s %7s %7s %9s %10s %12s %11s\n' "project" "mounts" "binds" \
    "start ms" "gofer KiB" "sandbox KiB" "conmons KiB"
for n in "$@"; do
	project "$tmp/p$n" "$n"
	measure "$tmp/p$n" "$n ignored directories"
done
lz_monorepo "$tmp/mono" 200
measure "$tmp/mono" "monorepo, 200 packages"
