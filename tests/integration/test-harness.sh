#!/bin/bash
# test-harness.sh: the tests' own helper for the test account
# (tests/lib/account.sh), as that account: the XDG_CONFIG_HOME it makes is
# the account's, 0700, with podman's configuration linked in before any
# command runs with it, and podman answers through it (the network suite
# once failed on a fresh machine because its directory did not exist yet);
# and the image check tells "podman has no such image" from "podman could
# not answer", with podman's own error, whichever exit code podman used.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman
lz_acct_id "$(id -un)" || { fail "lz_acct_id: $LZ_ACCT_WHY"; finish; exit 1; }

# 1. A configuration directory made for the account, then used.
cfg=$LZ_TMP/fresh/config
mkdir -m 755 "$LZ_TMP/fresh"
LZ_ACCT_CONFIG=
if lz_acct_config "$cfg" && [ "$LZ_ACCT_CONFIG" = "$cfg" ] &&
    [ "$(stat -c '%u %a' "$cfg")" = "$(id -u) 700" ] &&
    [ -d "$cfg/lazaret" ] &&
    [ "$(readlink "$cfg/containers")" = "$HOME/.config/containers" ]; then
	pass "lz_acct_config: $cfg is the account's, 0700, containers linked"
else
	fail "lz_acct_config: ${LZ_ACCT_WHY:-$(ls -la "$cfg" 2>&1)}"
fi
run lz_acct_run podman info --format '{{.Store.ConfigFile}}'
expect "podman run through it reads set-up's storage.conf" 0 \
    "^$cfg/containers/storage.conf$"

# 2. The image check: present, absent, and podman unable to answer.
lz_podman_image localhost/lazaret/base:bookworm
rc=$?
[ "$rc" = 0 ] && pass "lz_podman_image: the base image is present" ||
    fail "lz_podman_image on the base image: $rc: $LZ_ACCT_WHY"
lz_podman_image localhost/lazaret/no-such-image:0
rc=$?
[ "$rc" = 1 ] && grep -q "has no image localhost/lazaret/no-such-image:0" <<<"$LZ_ACCT_WHY" &&
    pass "lz_podman_image: an absent image is absent ($LZ_ACCT_WHY)" ||
    fail "lz_podman_image on an absent image: $rc: $LZ_ACCT_WHY"
for bad in /nonexistent-lazaret-test/config /root/lazaret-test/config; do
	[ "$bad" = /nonexistent-lazaret-test/config ] || [ ! -x /root ] || continue
	XDG_CONFIG_HOME=$bad lz_podman_image localhost/lazaret/base:bookworm
	rc=$?
	[ "$rc" = 2 ] && grep -q "failed (exit [0-9]*): .*permission denied" <<<"$LZ_ACCT_WHY" &&
	    pass "lz_podman_image with XDG_CONFIG_HOME=$bad: podman's error, not 'absent' ($(cut -c1-90 <<<"$LZ_ACCT_WHY")...)" ||
	    fail "lz_podman_image with XDG_CONFIG_HOME=$bad: $rc: $LZ_ACCT_WHY"
done

finish
