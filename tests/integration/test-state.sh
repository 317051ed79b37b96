#!/bin/bash
# test-state.sh: "lazaret state" on real sandboxes (issue 16; FR-11, DX-6,
# SR-14, OR-5): a package installed inside from a local APT repository is
# named by "diff" and gone after "reset /usr" while /etc's change stays;
# "--json" outputs validate against docs/schemas; symlinks planted in an
# upper layer (to a host directory, to an /etc/shadow-like file) are never
# followed by inspect or reset and their targets stay; --contents goes
# through the VT filter on a terminal only; reset is refused while a
# session runs, while another process holds the lifecycle lock (after
# waiting 10 s; a shorter hold is waited out), and with the target
# mounted; a reset killed (SIGKILL, a test build's fault points) at each
# step leaves the prior or a new empty generation and the next command
# removes the rest; resetting one Domain leaves another byte for byte;
# bad input (unknown paths, non-anchors, a Domain ID of none or of another
# user, a corrupted pointer, a missing upper layer) is named with the fix
# and deletes nothing; legacy anchor directories ("/usr-local" and
# "/usr/local" shared one) are migrated.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq python3 flock script
if ! python3 -c 'import jsonschema' 2>/dev/null; then
	[ "${CI:-}" = true ] && { fail "python3-jsonschema is required"; finish; exit 1; }
	echo "state: 0 passed, 0 failed, 1 skipped (no python3-jsonschema)"
	exit 0
fi
SCHEMAS=$LZ_ROOT/docs/schemas
lz_domain_project
cd "$proj" || exit 1
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$XDG_CONFIG_HOME/lazaret"
lz_cleanup_hooks+=("rm -f '$cfg'")
repo=$LZ_TMP/repo
lz_apt_repo "$repo" || fail "could not build the local APT repository"
{ echo '[profile default]'; lz_volume_line "$repo"; } > "$cfg"
chmod 600 "$cfg"
# What symlinks in the upper layers point at: must never change.
mkdir -p "$LZ_TMP/outside"
echo "host file" > "$LZ_TMP/outside/keep"
echo "shadow-like" > "$LZ_TMP/outside/shadow"
chmod 600 "$LZ_TMP/outside/shadow"

st() { run "$LAZARET" state "$@"; }
# valid NAME SCHEMA: the last run's stdout validates against SCHEMA.
valid() {
	local why
	if why=$(printf '%s' "$LZ_OUT" | python3 "$LZ_ROOT/tests/integration/validate-json.py" "$SCHEMAS/$2.schema.json" 2>&1); then
		pass "$1: --json validates against $2.schema.json"
	else
		fail "$1: $why"
	fi
}
gen_of() { readlink "$droot/anchors/$1/current"; }
# tree SUM: a listing of DIR (names, types, modes, owners, sizes, link
# targets, file hashes) as podman's namespace sees it.
tree_sum() {
	podman unshare sh -c "cd '$1' && find . -printf '%p %y %m %U %G %s %l\n' | LC_ALL=C sort &&
	    find . -type f -exec sha256sum {} + | LC_ALL=C sort" 2>/dev/null | sha256sum
}
outside_intact() {
	[ "$(cat "$LZ_TMP/outside/keep")" = "host file" ] &&
	    [ "$(cat "$LZ_TMP/outside/shadow")" = "shadow-like" ]
}

# 1. The sandbox installs a package, changes /etc, plants symlinks.
run "$LAZARET" run -- sh -c "$LZ_APT_INSTALL && lzhello && echo mark > /etc/lazaret-mark &&
    ln -s '$LZ_TMP/outside/shadow' /etc/shadow-link && ln -s '$LZ_TMP/outside' /etc/outside-link &&
    mkdir -p node_modules/m && echo n > node_modules/m/f &&
    printf 'a\033]52;c;ZXZpbA==\007b\033]0;title\007c\n' > /etc/term-text"
expect "setup: apt-get install inside, /etc changed" 0 "hello from lzhello"
wait_gone || fail "setup: teardown: $(leftovers)"

# 2. diff and inspect name what the sandbox did.
st diff
expect "diff names the package installed inside" 0 "\+ lzhello 1\.0 \(all\)"
expect "diff names the file, by directory" 0 "/usr/bin .*lzhello"
expect "diff names /etc's change" 0 "/etc .*lazaret-mark"
st diff --json
valid "diff" state-inspect
[ "$(jq -r '.packages.added[].name' <<<"$LZ_OUT")" = lzhello ] &&
    pass "diff --json: packages.added is lzhello" || fail "diff --json: packages: $(jq -c .packages <<<"$LZ_OUT")"
st inspect --json
valid "inspect" state-inspect
c=$(jq -c '.anchors[].changes[] | select(.path == "/usr/bin/lzhello")' <<<"$LZ_OUT")
[[ $c == *'"change":"added"'* ]] && pass "inspect --json: /usr/bin/lzhello added" || fail "inspect: lzhello: $c"
c=$(jq -c '.anchors[].changes[] | select(.path == "/etc/shadow-link")' <<<"$LZ_OUT")
[[ $c == *'"type":"symlink"'* ]] && [[ $c == *"\"target\":\"$LZ_TMP/outside/shadow\""* ]] &&
    pass "inspect: a symlink is reported with its target, not followed" || fail "inspect: shadow-link: $c"
st inspect
expect "inspect: human output, counts by top directory" 0 "/usr/bin +1 added"
[[ $LZ_OUT != *"shadow-like"* ]] && [[ $LZ_OUT != *"hello from"* ]] &&
    pass "DX-6: inspect prints no file contents" || fail "DX-6: contents printed"
st list --json
valid "list" state-list
[ "$(jq -r --arg id "$id" '.[] | select(.domain_id == $id) | .workspace' <<<"$LZ_OUT")" = "$proj" ] &&
    pass "list: domain.json gives the workspace" || fail "list: workspace: $LZ_OUT"
st list
expect "list: the Domain with its anchors" 0 "anchor +/usr +generation 1"
st verify --json
valid "verify" state-verify
expect "verify: a clean Domain has no problems" 0

# 3. Symlinks planted straight into the upper layer, pointing outside the
# Domain Root: never followed.
eup=$droot/anchors/etc/$(gen_of etc)/upper
podman unshare ln -s "$LZ_TMP/outside" "$eup/planted-dir"
podman unshare ln -s "$LZ_TMP/outside/shadow" "$eup/planted-file"
st inspect --contents /etc/planted-file
expect "inspect --contents refuses a symlink" 5 "symbolic link.*never follows"
[[ $LZ_OUT != *shadow-like* ]] && pass "its target is not shown" || fail "a symlink target was shown"
st inspect --contents /etc/planted-dir/keep
expect "inspect --contents refuses a path through a symlink" 5 "symbolic link"
st inspect --contents /etc/lazaret-mark
expect "inspect --contents shows a file of the sandbox" 0 "^mark$"
st inspect --contents /etc/term-text
if [[ $LZ_OUT == *$'\033]52'* ]]; then pass "into a pipe, --contents is raw"
else fail "into a pipe, --contents lost bytes"; fi
script -qec "'$LAZARET' state inspect --contents /etc/term-text" /dev/null > "$LZ_TMP/tty.out" 2>&1
if grep -q 'abc' "$LZ_TMP/tty.out" && ! grep -q $'\033]52' "$LZ_TMP/tty.out" &&
    ! grep -q $'\033]0;' "$LZ_TMP/tty.out"; then
	pass "on a terminal, --contents goes through the VT filter (OSC 52, title dropped)"
else
	fail "on a terminal: $(od -c "$LZ_TMP/tty.out" | head -3)"
fi

# 4. Refused while a session runs: the session is named.
lz_keep_domain || fail "the keeper session did not start"
st reset /usr --yes
expect "SR-14: reset refused while a session runs" 6 "sleep 60"
expect "the refusal says how to end the sessions" 6 "lazaret attach"
st verify
expect "verify refused while the Domain runs" 6 "is running"
g=$(gen_of usr)
st inspect /usr
expect "inspect works on a running Domain (the running overlay's lower)" 0 "lower layer of the running sandbox"
kill "$keeper"; wait "$keeper" 2>/dev/null
wait_gone || fail "teardown after the keeper: $(leftovers)"
# A coordinator killed with SIGKILL leaves its sandbox, sidecar and
# mounts: verify (like a starter, FR-7) removes them first and says so.
lz_keep_domain || fail "the keeper session did not start"
kill -9 "$(cat "$rt/coordinator.pid")"
wait "$keeper" 2>/dev/null
for i in $(seq 1 100); do flock -n "$rt/lifecycle.lock" true && break; sleep 0.1; done
st verify
expect "verify after a crash: leftovers removed first" 0 "container lz-$id"
expect "and the mounts" 0 "mounts of State Anchors or of the workspace view"
leftovers >/dev/null && pass "nothing of the crashed Domain is left" ||
    fail "after verify: $(leftovers)"

# 5. Another process holds the lifecycle lock: waited for 10 s, refused.
flock -o "$rt/lifecycle.lock" sleep 30 & holder=$!
lz_cleanup_hooks+=("kill $holder 2>/dev/null")
sleep 0.3
t0=$SECONDS
st reset /usr --yes
expect "SR-14: reset refused while another holds the lock" 6 "still held by process $holder"
expect "it said it was waiting" 6 "waiting up to 10 s"
[ $((SECONDS - t0)) -ge 10 ] && pass "it waited 10 s" || fail "it waited $((SECONDS - t0)) s"
kill "$holder"; wait "$holder" 2>/dev/null
[ "$(gen_of usr)" = "$g" ] && pass "nothing changed" || fail "the generation changed"

# 6. Refused with the target mounted (in podman's namespace).
podman unshare mount -t tmpfs lztest "$droot/anchors/usr/merged"
lz_cleanup_hooks=("podman unshare umount '$droot/anchors/usr/merged' 2>/dev/null" "${lz_cleanup_hooks[@]}")
st reset /usr --yes
expect "SR-14: reset refused with the target mounted" 6 "tmpfs mount on '.*anchors/usr/merged'"
st verify
expect "verify refused with a mount left" 6 "tmpfs mount"
podman unshare umount "$droot/anchors/usr/merged"
[ "$(gen_of usr)" = "$g" ] && pass "nothing changed" || fail "the generation changed"

# 7. A lock held for 2 s is waited out; then /usr goes back to the image.
flock -o "$rt/lifecycle.lock" sleep 2 & holder=$!
sleep 0.3
st reset /usr --yes
expect "a Domain ending within 10 s is waited for" 0 "waiting up to 10 s"
expect "reset /usr: a new generation" 0 "reset /usr: generation 1 -> 2"
expect "reset shows Domain, profile, workspace and scope" 0 "workspace +$proj"
wait "$holder" 2>/dev/null
run "$LAZARET" run -- sh -c 'command -v lzhello || echo lzhello-gone; cat /etc/lazaret-mark; ls /etc/planted-file'
expect "the next launch has the image's /usr, /etc's change stays" 0 "lzhello-gone"
expect "the /etc anchor is untouched" 0 "^mark$"
wait_gone || fail "teardown: $(leftovers)"

# 8. Resetting /etc removes the planted links, never their targets.
st reset /etc --yes
expect "reset /etc" 0 "reset /etc"
outside_intact && pass "SR-14: symlink targets outside the Domain Root untouched" ||
    fail "a symlink target outside the Domain Root changed"
[ ! -e "$droot/anchors/etc/gen-1" ] && pass "the old generation is gone" || fail "gen-1 is still there"

# 9. OR-5: kill -9 at every step of a reset.
fill_opt() {
	podman unshare sh -c "mkdir -p '$1/a/b' && echo x > '$1/a/b/f' && echo y > '$1/top'"
}
fill_opt "$droot/anchors/opt/$(gen_of opt)/upper"
for p in reset-begin reset-mkdir reset-layers reset-link reset-switched reset-removing reset-done; do
	g0=$(gen_of opt)
	run env LAZARET_TEST_FAULT=$p "$LAZARET" state reset /opt --yes
	if [ "$LZ_RC" = 0 ] || [[ $LZ_ERR != *"helper was killed"* ]]; then
		fail "OR-5 $p: the fault point did not kill the reset (rc $LZ_RC)"
		continue
	fi
	g1=$(gen_of opt)
	up=$droot/anchors/opt/$g1/upper
	if [ "$g1" = "$g0" ] && podman unshare test -f "$up/a/b/f" -a -f "$up/top"; then
		what=prior
	elif [ "$g1" != "$g0" ] && podman unshare test -d "$droot/anchors/opt/$g1/work" &&
	    [ -z "$(podman unshare ls -A "$up")" ]; then
		what="new empty"
	else
		fail "OR-5 $p: current is $g1 (was $g0), neither prior nor new empty"
		continue
	fi
	run "$LAZARET" state verify
	left=$(ls -A "$droot/anchors/opt" | LC_ALL=C sort | tr '\n' ' ')
	if [ "$LZ_RC" = 0 ] && [ "$left" = "current $g1 lower-empty merged path " ]; then
		pass "OR-5 killed at $p: $what generation active; the next command removed the rest"
	else
		fail "OR-5 $p: after verify (rc $LZ_RC): $left"
	fi
	[ "$what" = prior ] || fill_opt "$up"
done
[ -d "$droot/ignored/node_modules" ] || fail "setup: no ignored state"
for p in ignored-moved ignored-removing; do
	run env LAZARET_TEST_FAULT=$p "$LAZARET" state reset --ignored --yes
	[[ $LZ_ERR == *"helper was killed"* ]] || fail "OR-5 $p: not killed (rc $LZ_RC)"
	run "$LAZARET" state verify
	if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *"ignored.old-"* ]] &&
	    [ -z "$(ls "$droot" | grep '^ignored\.old-')" ] && [ ! -e "$droot/ignored" ]; then
		pass "OR-5 killed at $p: the old Ignored Workspace State is out of place and removed next"
	else
		fail "OR-5 $p: verify rc $LZ_RC: $(ls "$droot")"
	fi
	podman unshare mkdir -p "$droot/ignored/node_modules/m"
done

# 10. Two Domains: resetting one leaves the other byte for byte.
proj2=$LZ_TMP/proj2
lz_make_project "$proj2"
id2=$(cd "$proj2" && "$LAZARET" domain show --json | jq -r .domain_id)
lz_domain_id_ok "$id2" || { finish; exit 1; }
droot2=$XDG_DATA_HOME/lazaret/domains/$id2
lz_cleanup_hooks+=("lz_domain_remove $id2")
run env -C "$proj2" "$LAZARET" run -- sh -c 'echo b > /usr/local/bin/b-tool; echo e > /etc/b-mark; mkdir -p node_modules/q; echo q > node_modules/q/f'
[ "$LZ_RC" = 0 ] || fail "Domain B: launch failed: $LZ_ERR"
for i in $(seq 1 100); do flock -n "$XDG_RUNTIME_DIR/lazaret/$id2/lifecycle.lock" true && break; sleep 0.1; done
before=$(tree_sum "$droot2")
st reset --all --yes
expect "reset --all" 0 "reset /var"
st reset --ignored --forget-paths --yes
expect "reset --ignored --forget-paths" 0 "emptied"
[ "$(tree_sum "$droot2")" = "$before" ] && pass "SR-11: the other Domain's root is byte for byte the same" ||
    fail "SR-11: resetting one Domain changed another"
st reset --all --yes --json
valid "reset" state-reset

# 11. Bad input: a clear message with the fix; nothing deleted.
st inspect /usr/no/such
expect "an unknown path" 2 "no '/usr/no/such' in State Anchor /usr"
st reset /srv --yes
expect "a path that is no anchor" 2 "'/srv' is not a State Anchor.*persist = PATH"
st reset /usr/local --yes
expect "a path inside an anchor is not one" 2 "'/usr/local' is not a State Anchor"
st reset usr --yes
expect "a relative path" 2 "not a normalised absolute path"
st diff --domain 0000000000000000
expect "a Domain ID of none" 2 "you have no Domain '0000000000000000'.*state list"
st diff --domain 'x/../../etc'
expect "a malformed Domain ID" 2 "is not a Domain ID"
# Another user's Domain lives in their Storage Root, never searched.
other=aaaaaaaaaaaaaaaa
mkdir -p -m 700 "$LZ_TMP/other" "$LZ_TMP/other/lazaret" "$LZ_TMP/other/lazaret/domains" \
    "$LZ_TMP/other/lazaret/domains/$other"
st inspect --domain "$other"
expect "another user's Domain ID" 2 "you have no Domain '$other'"
run env XDG_DATA_HOME="$LZ_TMP/other" "$LAZARET" state inspect --domain "$id2"
expect "this user's Domain seen from another Storage Root" 2 "you have no Domain '$id2'"
st diff --domain "$id2"
expect "--domain ID of one's own Domain" 0 "/usr/local/bin .*b-tool"
groot=$(gen_of root)
ln -sfn "$LZ_TMP/outside" "$droot/anchors/root/current"
before=$(tree_sum "$droot")
st inspect /root
expect "a corrupted generation pointer is named with the fix" 0 "PROBLEM: .*will not follow it.*lazaret state reset /root"
st verify
expect "verify names the corrupted pointer" 1 "anchors/root.*not to a generation"
[ "$(tree_sum "$droot")" = "$before" ] && pass "nothing deleted over a corrupted pointer" || fail "verify changed the Domain Root"
st reset /root --yes
expect "reset repairs a corrupted pointer" 0 "reset /root"
outside_intact && [ ! -e "$droot/anchors/root/$groot" ] && pass "without following it (its target intact)" ||
    fail "reset /root followed the pointer or left $groot"
podman unshare rm -rf "$droot/anchors/var/$(gen_of var)/upper"
before=$(tree_sum "$droot")
st inspect /var
expect "a missing upper layer is named with the fix" 0 "upper layer .* is missing; 'lazaret state reset /var'"
st verify
expect "verify names the missing upper layer" 1 "missing"
[ "$(tree_sum "$droot")" = "$before" ] && pass "nothing deleted over a missing upper layer" || fail "the Domain Root changed"
st reset /var --yes
expect "reset starts the anchor afresh" 0 "reset /var"
st verify
expect "the Domain verifies after the repairs" 0 "0 problems"

# 12. Legacy anchor names: /usr/local and /usr-local no longer collide.
{ cat "$cfg"; printf '[profile mig]\npersist = /usr/local\n'; } > "$cfg.new" && mv "$cfg.new" "$cfg"
idm=$("$LAZARET" domain show -p mig --json | jq -r .domain_id)
lz_domain_id_ok "$idm" || { finish; exit 1; }
drootm=$XDG_DATA_HOME/lazaret/domains/$idm
lz_cleanup_hooks+=("lz_domain_remove $idm")
run "$LAZARET" run -p mig -- sh -c 'echo keep > /usr/local/keep'
[ "$LZ_RC" = 0 ] || fail "profile mig: launch failed: $LZ_ERR"
for i in $(seq 1 100); do flock -n "$XDG_RUNTIME_DIR/lazaret/$idm/lifecycle.lock" true && break; sleep 0.1; done
# What an older Lazaret left: "usr-local" and no path record.
podman unshare mv "$drootm/anchors/usr%2Flocal" "$drootm/anchors/usr-local"
podman unshare rm "$drootm/anchors/usr-local/path"
st inspect -p mig /usr/local
expect "a legacy directory is read as its profile path" 0 "/usr/local/keep|1 added"
printf 'persist = /usr-local\n' >> "$cfg"
run "$LAZARET" run -p mig -- sh -c 'cat /usr/local/keep; echo other > /usr-local/other; ls -A /usr-local'
if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *keep* ]] && [[ $LZ_OUT != *"other"$'\n'"keep"* ]] &&
    [ -f "$drootm/anchors/usr%2Flocal/path" ] && [ "$(cat "$drootm/anchors/usr-local/path")" = /usr-local ]; then
	pass "migration: /usr/local kept its state under its new name; /usr-local is its own"
else
	fail "migration: $LZ_OUT / $(ls "$drootm/anchors")"
fi
for i in $(seq 1 100); do flock -n "$XDG_RUNTIME_DIR/lazaret/$idm/lifecycle.lock" true && break; sleep 0.1; done
st reset -p mig /usr-local --yes
expect "reset of /usr-local" 0 "reset /usr-local"
podman unshare test -f "$drootm/anchors/usr%2Flocal/$(readlink "$drootm/anchors/usr%2Flocal/current")/upper/keep" &&
    pass "resetting /usr-local leaves /usr/local" || fail "resetting /usr-local touched /usr/local"
expect_clean_stderr "state commands"

finish
