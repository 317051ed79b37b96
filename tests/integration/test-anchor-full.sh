#!/bin/bash
# test-anchor-full.sh: a full disk under a State Anchor's upper layer
# (issue 4, bad input; FR-4). The /opt anchor's current generation is put
# on a 512 KiB tmpfs mounted inside "podman unshare" (a mount made outside
# podman's namespace is invisible to the containers, RUNTIME-NOTES.md).
# Writing past it inside the sandbox fails with "No space left on device"
# while the workspace and the session go on, space freed is usable again,
# and the Domain ends leaving nothing behind; a start with the upper layer
# already full either works (writes then fail with ENOSPC) or fails saying
# so, and leaves nothing half-started. (gVisor reports some of these
# writes as EIO, not ENOSPC: journal.md.)
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq
lz_domain_project
cd "$proj" || exit 1

# No container (but the pair prepared for the next start), socket or
# anchor overlay of the Domain (the test's own tmpfs under anchors/opt is
# not one).
nothing_left() {
	local i
	for i in $(seq 1 150); do
		[ -z "$(lz_live_containers "$id")" ] &&
		    [ ! -S "$rt/control.sock" ] &&
		    ! podman unshare grep -q "$droot/anchors/[a-z-]*/merged" \
		    /proc/self/mountinfo && return 0
		sleep 0.2
	done
	return 1
}

run "$LAZARET" run -- true
expect "first start makes the anchors" 0
nothing_left || fail "first run left something"
gen=$(readlink "$droot/anchors/opt/current")
g=$droot/anchors/opt/$gen
if [ -z "$gen" ] || [ ! -d "$g/upper" ]; then
	fail "no current generation for the /opt anchor ($g)"
	finish
	exit 1
fi
podman unshare mount -t tmpfs -o size=512k lzfull "$g" ||
    { fail "cannot mount the small tmpfs in podman's namespace"; finish; exit 1; }
# Before the Domain Root's removal (hooks run in order).
lz_cleanup_hooks=("podman unshare umount '$g'" "${lz_cleanup_hooks[@]}")
podman unshare mkdir "$g/upper" "$g/work"

# 1. The disk fills while the sandbox writes.
run "$LAZARET" run -- sh -c 'head -c 2000000 /dev/zero > /opt/big;
    echo "write=$?"; echo ok > /workspace/ws-file && echo "ws=ok";
    rm -f /opt/big; echo small > /opt/small && cat /opt/small'
expect "full anchor: the write past the end fails, the session goes on" 0 \
    "No space left on device"
if [[ $LZ_OUT == *write=1* ]] || [[ $LZ_OUT == *write=2* ]]; then
	pass "full anchor: the writer sees a failed write"
else
	fail "full anchor: write status: $LZ_OUT"
fi
if [[ $LZ_OUT == *ws=ok* ]] && [ "$(cat "$proj/ws-file")" = ok ]; then
	pass "full anchor: the workspace is unaffected"
else
	fail "full anchor: workspace write: $LZ_OUT"
fi
if [[ $LZ_OUT == *small* ]]; then
	pass "full anchor: space freed inside is usable again"
else
	fail "full anchor: no write after freeing: $LZ_OUT"
fi
nothing_left && pass "full anchor: the Domain ended leaving nothing" ||
    fail "full anchor: left behind after the session"

# 2. A start with the upper layer already full.
podman unshare dd if=/dev/zero of="$g/upper/fill" bs=4096 2>/dev/null
run "$LAZARET" run -- sh -c 'echo x > /opt/new; echo "write=$?"'
# gVisor reports this write as EIO (the write is flushed to the full
# upper layer on close), the one above as ENOSPC: either way it fails.
if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *write=[12]* ]] &&
    [[ $LZ_ERR == *"No space left on device"* || $LZ_ERR == *"I/O error"* ]]; then
	pass "already full: the Domain starts, the write fails ($(cut -c1-60 <<<"$LZ_ERR"))"
elif [ "$LZ_RC" != 0 ] && [[ $LZ_ERR == *"No space left"* ]]; then
	pass "already full: the start fails saying so ($(head -1 <<<"$LZ_ERR" | cut -c1-100))"
else
	fail "already full: exit $LZ_RC, out '$LZ_OUT', err '$LZ_ERR'"
fi
nothing_left && pass "already full: nothing half-started left" ||
    fail "already full: left behind"
finish
