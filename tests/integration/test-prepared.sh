#!/bin/bash
# test-prepared.sh: a Domain's next start made ahead (issue 19,
# core/sandbox-prep.h, core/gate.h) on real podman and runsc. A Domain
# that ends cleanly leaves its next start's sidecar and sandbox created,
# never started, with no identity material of the start that ended; the
# next start uses them (a new Sandbox ID, the prepared containers, the
# sidecar's network). Each bad input is detected, logged with its reason
# in the coordinator's log, and the start takes the full path and works:
# the pair removed by hand, the sandbox's or the sidecar's image changed
# under its name, the policy changed, the mount plan changed, the pair
# started by another start (and a start by hand refused at the gate), a
# corrupt record, two starts at once, a set-up that fails after the pair
# was started early. A state reset removes the pair.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq
lz_domain_project
cd "$proj" || exit 1
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
log=$rt/coordinator.log
base=localhost/lazaret/base:bookworm
sideimg=localhost/lazaret/netpolicy:$("$LAZARET" --version | cut -d' ' -f2)
mark=0

# since: the coordinator log's lines after the last "mark".
marklog() { mark=$(wc -l <"$log" 2>/dev/null || echo 0); }
since() { tail -n +"$((mark + 1))" "$log" 2>/dev/null; }
# down: waits until the Domain is down with a prepared pair; fails
# (saying what is there) otherwise.
down() {
	local i
	for i in $(seq 1 150); do
		leftovers >/dev/null &&
		    [ "$(lz_prepared_containers "$id" | wc -l)" = 2 ] &&
		    flock -n "$rt/lifecycle.lock" true && return 0
		sleep 0.2
	done
	fail "$1: not down with a prepared pair: $(leftovers) prepared: $(lz_prepared_containers "$id" | tr '\n' ' ')"
	return 1
}
# rec N: line N of the record (2 fingerprint, 3 sidecar, 4 sandbox).
rec() { sed -n "${1}p" "$rt/prepared" 2>/dev/null; }
# start NAME REASON-REGEX: one "lazaret run" that must work and whose log
# says it took the full path for REASON; then the Domain is down again.
fallback() {
	local name=$1 why=$2
	marklog
	run "$LAZARET" run -- cat /workspace/README
	expect "$name: the start works" 0 '^demo$'
	if since | grep -Eq "prepared containers not used: .*$why"; then
		pass "$name: detected and logged ($(since | grep -o 'not used: .*' | cut -c11-130))"
	else
		fail "$name: the log does not say why: $(since | head -3)"
	fi
	since | grep -q "started the containers prepared" &&
	    fail "$name: the stale pair was used"
	down "$name"
}
restore_sideimg=
sidecommit=
# newimage FROM NAME: an image of FROM with one label more, as NAME
# (podman build, no layer); prints its ID.
newimage() {
	printf 'FROM %s\nLABEL lzit.generation=%s\n' "$1" "$RANDOM" \
	    >"$LZ_TMP/Containerfile"
	podman build -q --pull=never -t "$2" -f "$LZ_TMP/Containerfile" \
	    "$LZ_TMP" >/dev/null 2>&1
	podman image inspect --format '{{.Id}}' "$2" 2>/dev/null
}
# At exit: the sidecar image's name back on the original, the test's
# images removed (after lz_domain_remove took the containers using them).
cleanup_images() {
	[ -n "$restore_sideimg" ] && podman tag "$restore_sideimg" "$sideimg" >/dev/null 2>&1
	podman rmi -f localhost/lazaret/lzit-prep:1 localhost/lazaret/lzit-other:1 \
	    $sidecommit >/dev/null 2>&1
}
lz_cleanup_hooks=("lz_domain_remove $id" cleanup_images)

# 1. A clean end leaves a prepared pair, with nothing of the start.
id1=$("$LAZARET" run -- cat /run/lazaret/identity/sandbox.id)
down "first end"
[ -s "$rt/prepared" ] && [[ $(rec 3) =~ ^[0-9a-f]{64}$ ]] &&
    pass "a clean end prepares the next start's sidecar and sandbox (created, never started) and records them" ||
    fail "no record of the prepared pair"
args=$(podman inspect --format '{{json .Args}}' "$(rec 3)" 2>&1)
if [[ $id1 =~ ^[0-9a-f]{16}$ ]] && [[ $args != *"$id1"* ]] &&
    [ ! -s "$rt/sidecar.key" ] && [ -z "$(ls -A "$rt/identity")" ]; then
	pass "nothing of the ended start at rest: not in the prepared sidecar's command ($args), attachment file empty, identity files gone"
else
	fail "identity material at rest: args '$args', key $(stat -c %s "$rt/sidecar.key"), identity: $(ls "$rt/identity")"
fi
podman unshare grep -q "$droot/anchors" /proc/self/mountinfo &&
    fail "anchors mounted at rest" || pass "the prepared pair mounts nothing at rest"

# 2. The next start uses them: the prepared IDs, a new Sandbox ID.
sbx=$(rec 4)
side=$(rec 3)
marklog
"$LAZARET" run -- sleep 30 </dev/null >/dev/null 2>&1 &
keeper=$!
for i in $(seq 1 150); do [ -S "$rt/control.sock" ] && break; sleep 0.2; done
id2=$("$LAZARET" run -- cat /run/lazaret/identity/sandbox.id)
now=$(podman ps -q --no-trunc --filter "label=lazaret.domain=$id" --filter label=lazaret.role=sandbox)
net=$(podman inspect --format '{{.HostConfig.NetworkMode}}' "$now" 2>&1)
if since | grep -q "started the containers prepared.*image store unchanged" &&
    [ "$now" = "$sbx" ] &&
    [ "$net" = "container:$side" ] && [[ $id2 =~ ^[0-9a-f]{16}$ ]] &&
    [ "$id2" != "$id1" ]; then
	pass "the next start ran the prepared pair (sandbox ${sbx:0:12} in sidecar ${side:0:12}'s network, image store unchanged: no podman inspect) with a new Sandbox ID"
else
	fail "prepared start: log '$(since | head -2)', sandbox '$now' vs '$sbx', net '$net', ids $id1/$id2"
fi
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
down "second end"
# The pair made after a start that used one stamps the image list file
# that pair's record named while podman info confirms it beside the
# creation: the record has a real stamp and podman's own path.
store=$(podman info --format '{{.Store.GraphRoot}}/{{.Store.GraphDriverName}}-images/images.json')
if [ "$(rec 8)" = "$store" ] && [ "$(rec 7)" != "-" ] && [ -n "$(rec 7)" ]; then
	pass "the pair prepared after a prepared start records podman's image list file ($store) and its stamp"
else
	fail "after a prepared start the record has store '$(rec 8)' (podman: '$store'), stamp '$(rec 7)'"
fi

# An image change elsewhere: podman is asked, the pair is still good.
podman tag "$base" localhost/lazaret/lzit-other:1
marklog
run "$LAZARET" run -- true
since | grep -q "started the containers prepared.*images checked with podman inspect" &&
    pass "after an unrelated image change the images are checked and the pair used" ||
    fail "after an unrelated image change: $(since | head -2)"
podman rmi localhost/lazaret/lzit-other:1 >/dev/null 2>&1
down "unrelated image"

# 3. Removed by hand.
podman rm -f -t 0 "$(rec 4)" >/dev/null 2>&1
podman rm -f -t 0 "$(rec 3)" >/dev/null 2>&1
fallback "prepared pair removed by hand" "no such (object|container)"

# 4. The sandbox's image changed under its name.
podman tag "$base" localhost/lazaret/lzit-prep:1
printf '[profile default]\nimage = localhost/lazaret/lzit-prep:1\n' >"$cfg"
fallback "another image name in the profile" "configuration, policy or mount plan changed"
newimg=$(newimage "$base" localhost/lazaret/lzit-prep:1)
[ "$newimg" != "$(podman image inspect --format '{{.Id}}' "$base")" ] ||
    fail "no new image was made under localhost/lazaret/lzit-prep:1"
fallback "the sandbox's image changed under its name" "sandbox's image changed"
now=$(podman inspect --format '{{.Image}}' "$(rec 4)" 2>&1)
[ "$now" = "$newimg" ] && pass "the new pair is made from the image the name means now" ||
    fail "the new pair's image is $now, not $newimg"

# 5. The sidecar's image changed under its name (restored at the end).
restore_sideimg=$(podman image inspect --format '{{.Id}}' "$sideimg")
sidecommit=$(newimage "$sideimg" "$sideimg")
[ -n "$sidecommit" ] && [ "$sidecommit" != "$restore_sideimg" ] ||
    fail "no new sidecar image was made under its name"
fallback "the sidecar's image changed under its name" "network sidecar's image changed"
podman tag "$restore_sideimg" "$sideimg" && restore_sideimg=
fallback "the sidecar's image put back" "network sidecar's image changed"

# 6. The policy changed; 7. the mount plan changed.
printf '[profile default]\nimage = localhost/lazaret/lzit-prep:1\ndeny = 203.0.113.0/24\n' >"$cfg"
fallback "a deny rule added to the policy" "configuration, policy or mount plan changed"
podman inspect --format '{{json .Args}}' "$(rec 3)" | grep -q '203.0.113.0/24' &&
    pass "the new pair's sidecar has the new policy" ||
    fail "the new pair's sidecar lacks the new rule"
mkdir -p "$LZ_TMP/vol" && echo vol-content >"$LZ_TMP/vol/f" && chmod -R a+rX "$LZ_TMP/vol"
{ printf '[profile default]\nimage = localhost/lazaret/lzit-prep:1\n'
  printf 'deny = 203.0.113.0/24\n'; lz_volume_line "$LZ_TMP/vol"; } >"$cfg"
fallback "a volume added to the mount plan" "configuration, policy or mount plan changed"
run "$LAZARET" run -- cat /repo/f
expect "the volume is there in the start that used the new pair" 0 '^vol-content$'
down "volume"

# 7b. The pair starts while the coordinator sets the start up; a set-up
# that fails after that (here: lazaret-escalate missing beside the
# binaries) refuses it at the gate: no sandbox, nothing left running.
mkdir -p "$LZ_TMP/noesc"
cp "$LZ_BIN/lazaret" "$LZ_BIN/lazaret-runsc" "$LZ_TMP/noesc/"
marklog
run "$LZ_TMP/noesc/lazaret" run -- true
if [ "$LZ_RC" != 0 ] && grep -q "lazaret-escalate' is missing" <<<"$LZ_ERR"; then
	pass "a set-up that fails after the early start: the start fails and says why"
else
	fail "a set-up that fails after the early start: exit $LZ_RC: $LZ_ERR"
fi
since | grep -q "prepared containers started early, refused at the gate" &&
    pass "the early-started pair was refused at the gate, and the log says so" ||
    fail "the log does not say the early pair was refused: $(since | head -4)"
wait_gone
if leftovers >/dev/null && [ -z "$(lz_prepared_containers "$id")" ]; then
	pass "after the failed set-up nothing of the Domain is left running or created"
else
	fail "after the failed set-up: $(leftovers) prepared: $(lz_prepared_containers "$id" | tr '\n' ' ')"
fi
marklog
run "$LAZARET" run -- cat /repo/f
expect "the start after a failed set-up" 0 '^vol-content$'
since | grep -Eq "started the containers prepared" &&
    fail "the start after a failed set-up used a pair" ||
    pass "the start after a failed set-up took the full path"
down "after a failed set-up"

# 8. A start by hand of the prepared sandbox is refused at the gate (its
# sidecar, started as the dependency, cannot attest with the empty
# attachment file and ends); the next start starts both afresh.
# (Whether the sidecar has ended before podman asks for its namespace or
# the shim refuses at the gate, the sandbox is never created.)
run podman start "$(rec 4)"
st=$(podman inspect --format '{{.State.Status}} {{.State.StartedAt}}' "$(rec 4)" 2>&1)
if [ "$LZ_RC" != 0 ] && [[ $st == "created 0001-01-01"* ]] &&
    grep -Eq "no coordinator holds the gate|is running: container is stopped" <<<"$LZ_ERR"; then
	pass "a start of the prepared sandbox by hand is refused ($(grep -o 'no coordinator holds the gate\|container is stopped' <<<"$LZ_ERR" | head -1)); it never ran"
else
	fail "a start by hand: exit $LZ_RC, sandbox '$st': $LZ_ERR"
fi
marklog
run "$LAZARET" run -- true
expect "the start after a refused start by hand" 0
since | grep -q "started the containers prepared" &&
    pass "after a refused start by hand the pair is started afresh and verified" ||
    fail "after a start by hand: $(since | head -2)"
down "start by hand"
# Another start took the sidecar: it runs with an attachment of its own.
key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n1111111111111111 2222222222222222\n' "$key" >"$rt/sidecar.key"
podman start "$(rec 3)" >/dev/null 2>&1
for i in $(seq 1 50); do grep -q ready "$rt/sidecar.log" 2>/dev/null && break; sleep 0.1; done
fallback "the prepared sidecar was taken by another start" "running already as process"

# 9. A corrupt record (the pair is there under the Domain's names).
printf 'lazaret-prepared 1\nnot a fingerprint\n' >"$rt/prepared"
fallback "a corrupt record" "record of prepared containers"

# 10. Two starts at once: one coordinator, the pair used once.
marklog
"$LAZARET" run -- echo one >"$LZ_TMP/one" 2>&1 &
p1=$!
"$LAZARET" run -- echo two >"$LZ_TMP/two" 2>&1 &
p2=$!
wait "$p1"; r1=$?
wait "$p2"; r2=$?
n=$(since | grep -c "started the containers prepared")
c=$(since | grep -c "sandbox .* started in")
if [ "$r1" = 0 ] && [ "$r2" = 0 ] && grep -q one "$LZ_TMP/one" &&
    grep -q two "$LZ_TMP/two" && [ "$n" = 1 ] && [ "$c" = 1 ]; then
	pass "two starts at once: both sessions ran, one coordinator started the prepared pair once"
else
	fail "two starts at once: exits $r1/$r2, prepared used $n times, $c starts: $(since | head -4)"
fi
down "two starts"

# 10b. A start that waits for the lock while a Domain ends: the ending
# coordinator prepares nothing (the waiting start would wait for that
# too), the waiting start runs at once on the full path.
marklog
run "$LAZARET" run -- true
"$LAZARET" run -- echo waited >"$LZ_TMP/waited" 2>&1 &
w=$!
for i in $(seq 1 100); do [ -e "$rt/start-waiting" ] && break; sleep 0.02; done
seen=$([ -e "$rt/start-waiting" ] && echo yes)
wait "$w"; rw=$?
if [ "$rw" = 0 ] && grep -q '^waited$' "$LZ_TMP/waited" && [ "$seen" = yes ] &&
    since | grep -q "nothing prepared for the next start: a start is waiting" &&
    [ ! -e "$rt/start-waiting" ]; then
	pass "a start waiting for an ending Domain: nothing prepared, the start ran, the mark is gone"
else
	fail "a waiting start: exit $rw, mark seen '$seen', output '$(cat "$LZ_TMP/waited")', log: $(since | grep -i prepar | head -3)"
fi
down "after a waiting start"

# 11. A state reset removes the pair and its record.
run "$LAZARET" state reset --all --yes
expect "state reset of the Domain" 0
[ -z "$(lz_prepared_containers "$id")" ] && [ ! -e "$rt/prepared" ] &&
    pass "a state reset removes the prepared pair and its record" ||
    fail "after reset: $(lz_prepared_containers "$id") record: $(ls "$rt")"
grep -q "container lz-" <<<"$LZ_OUT" &&
    fail "the prepared pair was reported as recovered: $LZ_OUT"
marklog
run "$LAZARET" run -- true
expect "the start after a reset" 0
since | grep -Eq "started the containers prepared|prepared containers not used" &&
    fail "a start after a reset used or mentioned a pair: $(since)" ||
    pass "the start after a reset took the full path"
down "after reset"
finish
