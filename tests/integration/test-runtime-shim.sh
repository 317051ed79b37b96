#!/bin/bash
# test-runtime-shim.sh: integration test of the runtime shim lazaret-runsc
# against real rootless podman and gVisor runsc: "podman --runtime SHIM run"
# works (ls /, the gVisor kernel answers), "podman exec" works, and
# "podman exec -it" works through a real pty (a private tmux server), which
# needs the shim to drop conmon's --tty.
#
# Runs podman as the unprivileged user LZ_TEST_USER (when started as root)
# or as the current user. Environment:
#   LZ_TEST_USER  account to run podman as (required when run as root)
#   LZ_SHIM       the shim to test (default: LZ_BUILD_DIR/lazaret-runsc if
#                 LZ_BUILD_DIR is set, else /usr/local/bin/lazaret-runsc)
#   LZ_TEST_IMAGE image (default localhost/lazaret/base:bookworm)
#   CI=true       a missing podman, runsc, shim or image is a FAIL, not a SKIP
# Prints PASS/FAIL/SKIP lines and a summary line "runtime-shim: N passed,
# M failed" (scripts/test.sh reads it); exits 0 when nothing failed (a skip
# included), 1 on a failure. Containers are named lz-test-* and removed.
set -euo pipefail
. "$(dirname "$0")/../lib/account.sh"

image=${LZ_TEST_IMAGE:-localhost/lazaret/base:bookworm}
if [ -n "${LZ_SHIM:-}" ]; then
	shim=$LZ_SHIM
elif [ -n "${LZ_BUILD_DIR:-}" ]; then
	shim=$LZ_BUILD_DIR/lazaret-runsc
else
	shim=/usr/local/bin/lazaret-runsc
fi
name=lz-test-shim-$$
tmux_sock=lz-test-shim-$$
pass=0
fail=0

ok() { printf 'PASS: %s\n' "$*"; pass=$((pass + 1)); }
bad() { printf 'FAIL: %s\n' "$*"; fail=$((fail + 1)); }

# A missing prerequisite: SKIP on a laptop, FAIL under CI.
missing() {
	if [ "${CI:-}" = true ]; then
		bad "$* (CI=true: a missing prerequisite is a failure)"
		printf 'runtime-shim: %d passed, %d failed\n' "$pass" "$fail"
		exit 1
	fi
	printf 'SKIP: %s\n' "$*"
	printf 'runtime-shim: 0 passed, 0 failed, 1 skipped\n'
	exit 0
}

if [ "$(id -u)" = 0 ]; then
	user=${LZ_TEST_USER:-}
	[ -n "$user" ] || missing "run as root: set LZ_TEST_USER to an" \
	    "unprivileged account (e.g. the one scripts/setup.sh creates)"
	lz_acct_id "$user" || missing "$LZ_ACCT_WHY"
	as_user() { (cd / && lz_acct_run "$@"); }
	image_as=(lz_acct_run)
else
	user=$(id -un)
	uid=$(id -u)
	export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/user/$uid}
	as_user() { "$@"; }
	image_as=()
fi

command -v podman >/dev/null || missing "podman not installed"
[ -x /usr/bin/runsc ] || missing "runsc not installed at /usr/bin/runsc"
as_user test -x "$shim" || missing "shim '$shim' not executable by $user"
# Absent: set-up was not run. Anything else: podman's own error.
lz_podman_image "$image" "${image_as[@]}" || case $? in
1) missing "$LZ_ACCT_WHY (run scripts/setup.sh)" ;;
*) bad "image check: $LZ_ACCT_WHY"
	printf 'runtime-shim: %d passed, %d failed\n' "$pass" "$fail"
	exit 1 ;;
esac

pm() { as_user podman --runtime "$shim" "$@"; }

cleanup() {
	as_user tmux -L "$tmux_sock" kill-server >/dev/null 2>&1 || true
	as_user podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
}
trap cleanup EXIT

printf 'runtime-shim: user %s, shim %s, image %s\n' "$user" "$shim" "$image"

# 1. run --rm with coreutils: bookworm's old runsc failed this ("ls: cannot
# access '/': Invalid argument"); without the shim's flags it fails on
# cgroups and the root network namespace.
if out=$(pm run --rm --cgroupns=private "$image" ls / 2>&1) &&
    grep -qx usr <<<"$out" && grep -qx etc <<<"$out"; then
	ok "podman run --rm ls / under the shim"
else
	bad "podman run --rm ls / under the shim: $(tail -n 3 <<<"$out")"
fi

# 2. It is gVisor that runs it, not some other runtime.
if out=$(pm run --rm --cgroupns=private "$image" dmesg 2>&1) &&
    grep -q gVisor <<<"$out"; then
	ok "the sandbox kernel is gVisor (dmesg)"
else
	bad "dmesg does not show gVisor: $(tail -n 2 <<<"$out")"
fi

# 3. A running container and a plain exec.
if pm run -d --name "$name" --cgroupns=private "$image" sleep 600 \
    >/dev/null 2>&1; then
	ok "podman run -d $name"
else
	bad "podman run -d $name"
fi
if out=$(pm exec "$name" cat /etc/debian_version 2>&1) &&
    grep -Eq '^12' <<<"$out"; then
	ok "podman exec (no tty): debian $out"
else
	bad "podman exec (no tty): $(tail -n 2 <<<"$out")"
fi

# 4. exec -it through a pty of a known size: conmon passes "exec --tty",
# which runsc rejects unless the shim drops it. stty prints the pty's size.
# The pane's shell stays after podman and prints its exit code: tmux 3.3a
# loses the output of a pane whose program exits at once, and does not
# always reap it (TOOLCHAIN-NOTES.md).
pane_cmd=$(printf 'podman --runtime %q exec -it %q stty size; echo "rc=$?"; sleep 60' \
    "$shim" "$name")
as_user tmux -L "$tmux_sock" -f /dev/null new-session -d -x 97 -y 31 \
    "$pane_cmd"
screen=""
deadline=$((SECONDS + 30))
while [ "$SECONDS" -lt "$deadline" ]; do
	screen=$(as_user tmux -L "$tmux_sock" capture-pane -p 2>/dev/null ||
	    true)
	grep -q '^rc=' <<<"$screen" && break
	sleep 0.1
done
if grep -qx '31 97' <<<"$screen" && grep -qx 'rc=0' <<<"$screen"; then
	ok "podman exec -it through a pty (stty size: 31 97, exit 0)"
else
	bad "podman exec -it through a pty; screen was:"
	while IFS= read -r line; do
		[ -n "$line" ] && printf '    %s\n' "$line"
	done <<<"$screen"
fi

printf 'runtime-shim: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" = 0 ]
