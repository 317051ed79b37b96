#!/bin/bash
# test-sandbox.sh: the Agent Sandbox and its State Anchors against real
# rootless podman and gVisor, driven through the hidden test hook
# "lazaret __sandbox start|stop|list" (src/cmd-sandbox-helper.c) until the
# coordinator drives core/sandbox.c itself. Checks: runsc (gVisor kernel),
# no host namespaces and the labels in "podman inspect", Git Sentry binds
# (mv .git is EBUSY, .git/config is read-only), an anchor surviving a
# stop/start (a new file stays, a deleted image file stays deleted), stop
# removing the container and unmounting the anchors, a second stop being a
# no-op, recovery after kill -9 of podman during start, a missing image's
# clear error with nothing left behind, and workspace paths with spaces, a
# comma and a newline.
#
# Runs as the unprivileged user it is started as (scripts/test.sh: the test
# account), with that user's real HOME: podman's storage and storage.conf
# are found through HOME and the XDG variables, so lz_fresh_env is not used.
# Environment: LZ_BIN, LZ_SHIM (default /usr/local/bin/lazaret-runsc),
# LZ_TEST_IMAGE, CI=true (a missing prerequisite is a FAIL).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

image=${LZ_TEST_IMAGE:-localhost/lazaret/base:bookworm}
shim=${LZ_SHIM:-/usr/local/bin/lazaret-runsc}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/user/$(id -u)}

missing() {
	if [ "${CI:-}" = true ]; then
		fail "$* (CI=true: a missing prerequisite is a failure)"
	else
		echo "SKIP $LZ_TEST_NAME: $*"
		echo "$LZ_TEST_NAME: 0 passed, 0 failed, 1 skipped"
		exit 0
	fi
	finish
	exit 1
}
[ "$(id -u)" != 0 ] || missing "run as the unprivileged test account, not root"
command -v podman >/dev/null || missing "podman not installed"
[ -x /usr/bin/runsc ] || missing "runsc not installed at /usr/bin/runsc"
[ -x "$shim" ] || missing "shim '$shim' not executable"
# Absent: set-up was not run. Anything else: podman's own error.
lz_podman_image "$image" || case $? in
1) missing "$LZ_ACCT_WHY (run scripts/setup.sh)" ;;
*) fail "image check: $LZ_ACCT_WHY"; finish; exit 1 ;;
esac

data=${XDG_DATA_HOME:-$HOME/.local/share}/lazaret/domains
ids=()
cleanup_domain() {
	local id=$1
	podman rm -f -t 0 "lz-$id" >/dev/null 2>&1
	# Upper layers hold files of sub-UIDs: remove them inside the namespace.
	[ -d "$data/$id" ] && podman unshare rm -rf "$data/$id" 2>/dev/null
	return 0
}
lz_cleanup_hooks+=('for i in "${ids[@]}"; do cleanup_domain "$i"; done')

sb() { "$LAZARET" __sandbox "$@"; }
ms() { date +%s%N | cut -c1-13; }
# domain_of DIR: the Domain ID of a workspace (from "start" output).
start_in() {
	local t0 t1
	t0=$(ms)
	run sb start -R "$shim" -C "$1"
	t1=$(ms)
	LZ_MS=$((t1 - t0))
	LZ_ID=$(printf '%s\n' "$LZ_OUT" | sed -n 's/^domain //p')
	[ -n "$LZ_ID" ] && ids+=("$LZ_ID")
}
status_of() {
	podman unshare "$LAZARET" __anchor status "$data/$1/anchors/$2/merged" \
	    2>/dev/null
}

proj=$LZ_TMP/proj
lz_make_project "$proj"

# 1. start, runtime, namespaces, labels
start_in "$proj"
expect "start prints the container" 0 '^container [0-9a-f]{64}$'
echo "  (lazaret __sandbox start: ${LZ_MS} ms, anchors included)"
id=$LZ_ID
ctr=lz-$id
run podman exec "$ctr" cat /proc/version
v=$LZ_OUT
run podman exec "$ctr" dmesg
if [[ "$v" == *"Linux version 4.4.0"* ]] || [[ "$LZ_OUT" == *gVisor* ]]; then
	pass "the sandbox runs on gVisor"
else
	fail "no gVisor kernel: /proc/version '$v'"
fi
run podman inspect "$ctr" --format '{{.HostConfig.CgroupMode}}|{{.HostConfig.NetworkMode}}|{{.HostConfig.PidMode}}|{{.HostConfig.UTSMode}}|{{.HostConfig.UsernsMode}}|{{index .Config.Labels "lazaret.domain"}}|{{index .Config.Labels "lazaret.role"}}|{{.OCIRuntime}}|{{.HostConfig.CapAdd}}'
expect "podman inspect: private cgroupns, no network, labels, shim, no added caps" \
    0 "^private\|none\|private\|private\|\|$id\|sandbox\|$shim\|\[\]$"
case $LZ_OUT in
*host*) fail "a host namespace is joined: $LZ_OUT" ;;
*) pass "no host namespace (SR-12)" ;;
esac
run sb list -C "$proj"
expect "list shows one running sandbox" 0 "^[0-9a-f]{64} sandbox running $ctr$"

# 2. Git Sentry and anchor writes
run podman exec "$ctr" mv /workspace/.git /workspace/.git-moved
expect "mv .git from inside fails with EBUSY" 1 'busy'
run podman exec "$ctr" sh -c 'echo "[core]" >> /workspace/.git/config'
expect "writing .git/config from inside fails" 2 'Read-only'
run podman exec "$ctr" sh -c 'printf "#!/bin/sh\necho hi\n" > /usr/local/bin/lz-tool && chmod +x /usr/local/bin/lz-tool && rm /usr/bin/xargs'
expect "install into /usr/local/bin and delete an image file" 0
t0=$(ms)
for _ in 1 2 3 4 5; do podman exec "$ctr" true 2>/dev/null; done
t1=$(ms)
echo "  (podman exec true: $(((t1 - t0) / 5)) ms average of 5)"

# 3. stop removes everything; a second stop is a no-op
t0=$(ms)
run sb stop -C "$proj"
t1=$(ms)
expect "stop" 0
echo "  (lazaret __sandbox stop: $((t1 - t0)) ms)"
run podman ps -a --external --format '{{.Names}}'
case $LZ_OUT in
*"$ctr"*) fail "the container is still there after stop" ;;
*) pass "stop removed the container" ;;
esac
run status_of "$id" usr-local
expect "stop unmounted the /usr/local anchor" 0 '^unmounted '
run status_of "$id" usr
expect "stop unmounted the /usr anchor" 0 '^unmounted '
run sb stop -C "$proj"
expect "a second stop is a no-op" 0
run sb list -C "$proj"
expect "list is empty after stop" 0 '^$'

# 4. the anchors survive a restart
start_in "$proj"
expect "restart" 0 '^container '
echo "  (restart: ${LZ_MS} ms)"
run podman exec "$ctr" /usr/local/bin/lz-tool
expect "a tool installed in /usr/local/bin persists" 0 '^hi$'
run podman exec "$ctr" ls /usr/bin/xargs
expect "a deleted base-image file stays deleted" 2 'No such file'
run podman exec "$ctr" cat /etc/hostname
expect "the hostname is Lazaret's, not the /etc anchor's" 0 '^lazaret$'

# 5. the anchors are remounted after the pause process is gone
run sb stop -C "$proj"
podman system migrate >/dev/null 2>&1
start_in "$proj"
expect "start after 'podman system migrate'" 0 '^container '
run podman exec "$ctr" /usr/local/bin/lz-tool
expect "the anchor is remounted after podman system migrate" 0 '^hi$'
run sb stop -C "$proj"
expect "stop" 0

# 6. recovery after kill -9 of podman during start (best effort)
sb start -R "$shim" -C "$proj" >"$LZ_TMP/k.out" 2>&1 &
bg=$!
killed=""
for _ in $(seq 1 200); do
	p=$(pgrep -u "$(id -u)" -f -- "podman run -d --name $ctr" | head -1)
	if [ -n "$p" ]; then
		kill -9 "$p" 2>/dev/null && killed=$p
		break
	fi
	sleep 0.02
done
wait "$bg" 2>/dev/null
echo "  (kill -9 of podman run: ${killed:-missed, start completed})"
run sb stop -C "$proj"
expect "stop after a killed start" 0
run podman ps -a --external --format '{{.Names}}'
case $LZ_OUT in
*"$ctr"*) fail "a container is left after recovery" ;;
*) pass "recovery left no container" ;;
esac
run status_of "$id" usr
expect "recovery left no anchor mounted" 0 '^unmounted '
start_in "$proj"
expect "start after recovery" 0 '^container '
run sb stop -C "$proj"

# 7. a missing image: clear error, nothing left behind
run sb start -R "$shim" -i localhost/lazaret/no-such-image:1 -C "$proj"
expect "a missing image gives a clear error" 4 \
    "image 'localhost/lazaret/no-such-image:1' not found; run scripts/setup.sh"
run podman ps -a --external --format '{{.Names}}'
case $LZ_OUT in
*"$ctr"*) fail "a container is left after a failed start" ;;
*) pass "nothing started after a missing image" ;;
esac
run status_of "$id" etc
expect "no anchor mounted after a failed start" 0 '^unmounted '

# 8. workspace paths: spaces work; a comma and a newline go through --mount
sp="$LZ_TMP/my project"
lz_make_project "$sp"
start_in "$sp"
expect "a workspace path with spaces" 0 '^container '
run podman exec "lz-$LZ_ID" cat /workspace/README
expect "the workspace with spaces is mounted" 0 '^demo$'
run sb stop -C "$sp"
odd="$LZ_TMP/odd,dir
line"
lz_make_project "$odd"
start_in "$odd"
if [ "$LZ_RC" = 0 ]; then
	run podman exec "lz-$LZ_ID" cat /workspace/README
	expect "a workspace path with a comma and a newline is mounted" 0 '^demo$'
	run podman exec "lz-$LZ_ID" mv /workspace/.git /workspace/x
	expect "Git Sentry holds for the odd path" 1 'busy'
	run sb stop -C "$odd"
	expect "stop (odd path)" 0
elif grep -q 'cannot' <<<"$LZ_ERR"; then
	pass "a workspace path with a comma and a newline is refused clearly"
else
	fail "odd workspace path: neither mounted nor refused clearly"
fi

expect_clean_stderr "no sanitizer report"
finish
