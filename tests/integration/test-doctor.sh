#!/bin/bash
# test-doctor.sh: "lazaret doctor" as the test account, with its real HOME
# (podman's storage is found through HOME and the XDG variables): podman's
# own storage answer printed beside the file set-up wrote, and a failure
# with the fix when the environment moves it (another XDG_CONFIG_HOME,
# XDG_DATA_HOME or CONTAINERS_STORAGE_CONF), passing again once the fix is
# applied; a podman that cannot answer reported with podman's own error,
# never as a missing image; the local CAs of the host the image carries,
# named; and an unset XDG_RUNTIME_DIR taken from /run/user/UID.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman jq
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
wrote=$HOME/.config/containers/storage.conf
# check NAME: "OK<TAB>DETAIL<TAB>FIX" of that check in the last run.
check() {
	jq -r --arg c "$1" '.[] | select(.check == $c) |
	    "\(.ok)\t\(.detail)\t\(.fix // "")"' <<<"$LZ_OUT"
}
ok_of() { check "$1" | cut -f1; }
detail_of() { check "$1" | cut -f2; }
fix_of() { check "$1" | cut -f3; }

# 1. The environment test.sh gives: an XDG_CONFIG_HOME of its own with
# podman's configuration linked in.
run "$LAZARET" doctor --json
expect_clean_stderr "doctor"
if [ "$LZ_RC" = 0 ] && [ "$(ok_of storage)" = true ] &&
    grep -q "podman read $XDG_CONFIG_HOME/containers/storage.conf.* set-up wrote" <<<"$(detail_of storage)" &&
    grep -qF "$wrote" <<<"$(detail_of storage)"; then
	pass "doctor: storage names podman's file and set-up's ($(detail_of storage | cut -c1-90)...)"
else
	fail "doctor in the test's environment: rc $LZ_RC, storage: $(check storage)"
fi

# 2. Another XDG_CONFIG_HOME: podman reads no storage.conf of set-up's.
other=$LZ_TMP/other
mkdir -m 700 "$other"
run env XDG_CONFIG_HOME="$other" "$LAZARET" doctor --json
if [ "$LZ_RC" = 4 ] && [ "$(ok_of storage)" = false ] &&
    grep -qF "podman read $other/containers/storage.conf (missing" <<<"$(detail_of storage)" &&
    grep -qF "not the file set-up wrote, $wrote" <<<"$(detail_of storage)" &&
    grep -qF "ln -s $HOME/.config/containers $other/containers" <<<"$(fix_of storage)"; then
	pass "doctor under another XDG_CONFIG_HOME fails, fix: $(fix_of storage | cut -c1-60)..."
else
	fail "doctor under another XDG_CONFIG_HOME: rc $LZ_RC, storage: $(check storage)"
fi
ln -s "$HOME/.config/containers" "$other/containers"
run env XDG_CONFIG_HOME="$other" "$LAZARET" doctor --json
[ "$(ok_of storage)" = true ] && grep -qF "which is $wrote" <<<"$(detail_of storage)" &&
    pass "the fix applied (the link): storage passes" ||
    fail "after the link: storage: $(check storage)"

# 3. Another XDG_DATA_HOME: podman keeps its images elsewhere.
data=$LZ_TMP/data
lz_cleanup_hooks+=("podman unshare rm -rf '$data'")
run env XDG_DATA_HOME="$data" "$LAZARET" doctor --json
if [ "$LZ_RC" = 4 ] && [ "$(ok_of storage)" = false ] &&
    grep -qF "podman keeps its images in $data/containers/storage, set-up imported them into $HOME/.local/share/containers/storage" <<<"$(detail_of storage)" &&
    grep -qF "unset XDG_DATA_HOME" <<<"$(fix_of storage)"; then
	pass "doctor under another XDG_DATA_HOME fails, naming both storages"
else
	fail "doctor under another XDG_DATA_HOME: rc $LZ_RC, storage: $(check storage)"
fi

# 4. CONTAINERS_STORAGE_CONF: another file, even with the same driver.
printf '[storage]\ndriver = "overlay"\n' >"$LZ_TMP/storage.conf"
run env CONTAINERS_STORAGE_CONF="$LZ_TMP/storage.conf" "$LAZARET" doctor --json
[ "$LZ_RC" = 4 ] && [ "$(ok_of storage)" = false ] &&
    grep -qF "podman read $LZ_TMP/storage.conf, not the file set-up wrote" <<<"$(detail_of storage)" &&
    grep -qF "unset CONTAINERS_STORAGE_CONF" <<<"$(fix_of storage)" &&
    pass "doctor with CONTAINERS_STORAGE_CONF fails, fix: unset it" ||
    fail "doctor with CONTAINERS_STORAGE_CONF: rc $LZ_RC, storage: $(check storage)"

# 5. podman cannot answer at all: its configuration directory cannot be
# created (the network suite's old trap: exit 125), or cannot be looked
# into (exit 1, which "podman image exists" also uses for "no such
# image"). Each check says podman failed, in podman's own words, and no
# image is called missing.
for cfg in /nonexistent-lazaret-test/config /root/lazaret-test/config; do
	[ "$cfg" = /nonexistent-lazaret-test/config ] || [ ! -x /root ] || continue
	run env XDG_CONFIG_HOME="$cfg" "$LAZARET" doctor --json
	img=$(detail_of image)
	if [ "$LZ_RC" = 4 ] && [ "$(ok_of image)" = false ] &&
	    grep -qi "'podman image exists' failed (exit [0-9]*): .*permission denied" <<<"$img" &&
	    ! grep -q "not found" <<<"$img" &&
	    grep -qi "permission denied" <<<"$(detail_of storage)" &&
	    grep -qF "unset XDG_CONFIG_HOME" <<<"$(fix_of storage)"; then
		pass "podman unable to answer ($cfg): its own error, not 'missing' ($(cut -c1-70 <<<"$img")...)"
	else
		fail "podman unable to answer ($cfg): rc $LZ_RC, image: $img, storage: $(check storage)"
	fi
done

# 6. The local CAs of the host the image carries, each named.
run "$LAZARET" doctor --json
cas=$(detail_of image-cas)
n=0
while IFS= read -r -d '' f; do
	n=$((n + 1))
	grep -qF "${f#./}" <<<"$cas" || fail "image-cas does not name ${f#./}: $cas"
done < <(cd /usr/local/share/ca-certificates 2>/dev/null && find -L . -type f -name '*.crt' -print0)
if [ "$(ok_of image-cas)" = true ] &&
    { [ "$n" = 0 ] && grep -q "^no local CA" <<<"$cas" ||
    grep -q "the image carries the host's $n local CA" <<<"$cas"; }; then
	pass "image-cas: $cas"
else
	fail "image-cas: $(check image-cas)"
fi

# 7. No XDG_RUNTIME_DIR: /run/user/UID, as podman does (test-cli.sh checks
# the refusal).
own=/run/user/$(id -u)
if [ "$(stat -c '%u %a' "$own" 2>/dev/null)" = "$(id -u) 700" ]; then
	run env -u XDG_RUNTIME_DIR "$LAZARET" doctor --json
	[ "$(ok_of runtime-dir)" = true ] &&
	    [ "$(detail_of runtime-dir)" = "XDG_RUNTIME_DIR not set: $own (owned, 0700), as podman does" ] &&
	    [ "$(ok_of storage)" = true ] &&
	    pass "doctor with XDG_RUNTIME_DIR unset: $own" ||
	    fail "doctor with XDG_RUNTIME_DIR unset: $(check runtime-dir)"
fi

finish
