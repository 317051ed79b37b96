#!/bin/bash
# network.sh: Domain cold start with and without the Network Sidecar, side
# by side (issue 5 figures). Run as the unprivileged account that has the
# base and sidecar images:
#
#   tests/bench/network.sh [-n RUNS] [-b BINDIR] [-B BASEDIR]
#
# with:    "lazaret run -- true" from BINDIR (sidecar first, then anchors
#          and the sandbox with --network container:<sidecar>)
# without: the same from BASEDIR, a build from before the sidecar
#          (--network=none); skipped when BASEDIR has no such build
# sidecar: the sidecar phase alone as the coordinator runs it: podman run
#          -d of the sidecar image with its log and PID file in files of
#          ours, the log read until "ready", the process checked alive
#          (then podman rm, not timed)
# Prints medians (ms). Not a test: run it on purpose.
set -euo pipefail
runs=5
bindir=/usr/local/bin
basedir=
while getopts n:b:B: o; do
	case $o in
	n) runs=$OPTARG ;;
	b) bindir=$OPTARG ;;
	B) basedir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
# shellcheck source=tests/lib/containers.sh
. "$(dirname "$0")/../lib/containers.sh"
tmp=$(mktemp -d /tmp/lz-nbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkproj() {
	mkdir -p "$1" && git -C "$1" init -q && echo x >"$1/f" &&
	    git -C "$1" add f && git -C "$1" -c user.name=b \
	    -c user.email=b@e.invalid commit -qm i
}
ms() { date +%s%N | cut -c1-13; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# cold DIR BINDIR: one "lazaret run -- true" in a fresh project, in ms;
# then waits until that Domain's containers are gone.
cold() {
	local t0 t1 i id r
	mkproj "$1"
	id=$(cd "$1" && "$2/lazaret" domain show --json | jq -r .domain_id)
	t0=$(ms)
	(cd "$1" && "$2/lazaret" run -- true) >/dev/null 2>&1
	t1=$(ms)
	# This Domain's containers only: other Domains of the account may run.
	# A fresh project's Domain is never started again: its prepared pair
	# goes too, once its teardown has made it (lifecycle lock free).
	for i in $(seq 1 100); do
		[ -z "$(lz_live_containers "$id" 2>/dev/null)" ] &&
		    flock -n "$XDG_RUNTIME_DIR/lazaret/$id/lifecycle.lock" true &&
		    break
		sleep 0.1
	done
	for r in sandbox sidecar; do
		podman ps -aq --filter "label=lazaret.domain=$id" \
		    --filter "label=lazaret.role=$r" |
		    xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
	done
	echo $((t1 - t0))
}
policy=$(printf 'lazaret-netpolicy 1\nallow 0.0.0.0/0\ndeny 10.0.0.0/8\ndeny 10.0.2.0/24\nallow 10.0.2.3/32\ndeny 169.254.0.0/16\ndeny 172.16.0.0/12\ndeny 192.168.0.0/16\nresolver 10.0.2.3\n_')
policy=${policy%_}
img=localhost/lazaret/netpolicy:$("$bindir/lazaret" --version | cut -d' ' -f2)
sidecar() {
	local t0 t1 id
	t0=$(ms)
	rm -f "$tmp/sidecar.log" "$tmp/sidecar.pid"
	id=$(podman run -d --name lz-bench-net --runtime crun --pull=never \
	    --log-driver k8s-file --log-opt path="$tmp/sidecar.log" \
	    --pidfile "$tmp/sidecar.pid" \
	    --network slirp4netns:allow_host_loopback=false,enable_ipv6=false \
	    --cap-drop all --cap-add NET_ADMIN \
	    --sysctl net.ipv6.conf.all.disable_ipv6=1 \
	    --sysctl net.ipv6.conf.default.disable_ipv6=1 --read-only \
	    --entrypoint /lazaret-netpolicy "$img" "$policy" 2>/dev/null)
	until grep -q ' stdout F ready ' "$tmp/sidecar.log" 2>/dev/null; do
		sleep 0.005
	done
	kill -0 "$(cat "$tmp/sidecar.pid")"
	t1=$(ms)
	podman rm -f -t 0 "$id" >/dev/null 2>&1
	echo $((t1 - t0))
}
with=() without=() side=()
for i in $(seq 1 "$runs"); do
	with+=("$(cold "$tmp/w$i" "$bindir")")
	side+=("$(sidecar)")
	if [ -n "$basedir" ]; then
		without+=("$(cold "$tmp/o$i" "$basedir")")
	fi
done
printf '%-34s %s\n' "cold start, with sidecar (ms)" "$(printf '%s\n' "${with[@]}" | median)  [${with[*]}]"
if [ -n "$basedir" ]; then
	printf '%-34s %s\n' "cold start, without sidecar (ms)" "$(printf '%s\n' "${without[@]}" | median)  [${without[*]}]"
fi
printf '%-34s %s\n' "sidecar phase alone (ms)" "$(printf '%s\n' "${side[@]}" | median)  [${side[*]}]"
# Domain storage of the bench projects (anchors) is the account's own.
for d in "$tmp"/*; do
	[ -d "$d" ] || continue
	id=$(cd "$d" && "$bindir/lazaret" domain show 2>/dev/null | sed -n 's/^domain //p')
	[ -n "$id" ] && podman unshare rm -rf "${XDG_DATA_HOME:-$HOME/.local/share}/lazaret/domains/$id"
done
