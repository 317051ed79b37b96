#!/bin/bash
# test-prepared-leak.sh: nothing made ahead for a Domain's next start
# (issue 19, core/sandbox-prep.h) is left for good, on real podman and
# runsc. The preparation is slowed by a podman wrapper first in PATH (it
# holds "podman create" of the prepared sandbox until a file appears), so
# that a signal lands between the two creates:
#   1. SIGTERM to a coordinator that is preparing: it finishes (the pair
#      and its record agree), it does not die with a lone sidecar;
#   2. SIGKILL there leaves a lone prepared sidecar; once its project and
#      Domain Root are gone, the next teardown of another Domain removes
#      it (it names its Domain Root and workspace in labels);
#   3. a start while the teardown prepares waits and uses the new pair;
#   4. a state reset then waits and removes the pair and its record;
#   5. a failed create of the prepared sandbox leaves no lone sidecar;
#   6. the prepared pair of a project deleted afterwards is shown by
#      "lazaret state list" (workspace missing) and removed by the next
#      teardown of another Domain, which keeps its own.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq flock
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
export XDG_DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
rm -f "$XDG_CONFIG_HOME/lazaret/config.ini"
real=$(command -v podman)
hold=$LZ_TMP/hold
mkdir -p "$LZ_TMP/bin"
# The wrapper: "create" of a prepared sandbox waits (20 s at most) for
# $hold to exist; it says it is waiting in $hold.wait; with $hold.fail
# it then fails as podman would.
cat >"$LZ_TMP/bin/podman" <<EOF
#!/bin/bash
if [ "\$1" = create ] && [[ " \$* " == *" lazaret.role=sandbox "* ]]; then
	: >"$hold.wait"
	for i in \$(seq 1 200); do [ -e "$hold" ] && break; sleep 0.1; done
	if [ -e "$hold.fail" ]; then
		echo "Error: lzit: sandbox create refused" >&2
		exit 125
	fi
fi
exec "$real" "\$@"
EOF
chmod +x "$LZ_TMP/bin/podman"
slow=(env PATH="$LZ_TMP/bin:$PATH")

# newdomain NAME: a project $LZ_TMP/NAME; sets $p, $did, $prt, $proot.
newdomain() {
	p=$LZ_TMP/$1
	lz_new_domain "$p"
	did=$lz_new_id prt=$lz_new_rt proot=$lz_new_root
}
# waitfor FILE: 20 s at most.
waitfor() {
	local i
	for i in $(seq 1 200); do [ -e "$1" ] && return 0; sleep 0.1; done
	return 1
}
# unlocked RT: waits (30 s at most) for the lifecycle lock of RT.
unlocked() {
	local i
	for i in $(seq 1 150); do
		flock -n "$1/lifecycle.lock" true 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}
# names ID: "ROLE STATE" of each container of Domain ID, sorted.
names() {
	(cd / && podman ps -a --filter "label=lazaret.domain=$1" \
	    --format '{{index .Labels "lazaret.role"}} {{.State}}') |
	    tr '[:upper:]' '[:lower:]' | sort | tr '\n' ' '
}
# gone DIR ROOT: the project DIR and Domain Root ROOT removed, as a
# throwaway project's are (the Domain is not started again).
gone() {
	rm -rf "$1"
	podman unshare "$LAZARET" __anchor umount -u "$2/anchors" -w "$2/view" >/dev/null 2>&1
	podman unshare rm -rf "$2"
}
# held_end: a run in project $p whose teardown is held in the preparation,
# at the prepared sandbox's "podman create" (the wrapper's $hold.wait);
# fails when it never gets there.
held_end() {
	rm -f "$hold" "$hold.wait"
	(cd "$p" && "${slow[@]}" "$LAZARET" run -- true) >/dev/null 2>&1
	waitfor "$hold.wait" && return 0
	fail "the teardown never created the prepared sandbox (wrapper not reached)"
	return 1
}
# another_end: a Domain of another project starts and ends (its teardown
# awaited).
newdomain other
other=$p
ort=$prt
another_end() {
	(cd "$other" && "$LAZARET" run -- true) >/dev/null 2>&1
	unlocked "$ort"
}

# 1. SIGTERM while the teardown prepares: the coordinator finishes.
newdomain term
if held_end; then
	kill -TERM "$(cat "$prt/coordinator.pid")" 2>/dev/null
	sleep 0.5
	: >"$hold"
	unlocked "$prt"
	rec_side=$(sed -n 3p "$prt/prepared" 2>/dev/null)
	rec_box=$(sed -n 4p "$prt/prepared" 2>/dev/null)
	have=$(names "$did")
	if [ "$have" = "sandbox created sidecar created " ] &&
	    [ -n "$rec_side" ] && podman container exists "$rec_side" &&
	    [ -n "$rec_box" ] && podman container exists "$rec_box" &&
	    grep -q "prepared the next start's containers" "$prt/coordinator.log"; then
		pass "SIGTERM to a coordinator preparing the next start: it finished, the record names the pair ($have)"
	else
		fail "SIGTERM while preparing: containers '$have', record '${rec_side:0:12}' '${rec_box:0:12}', log: $(tail -3 "$prt/coordinator.log" | tr '\n' ' ')"
	fi
	cd "$p" && run "$LAZARET" run -- true
	cd / && expect "the start after a SIGTERM while preparing" 0
	grep -q "started the containers prepared" "$prt/coordinator.log" &&
	    pass "the pair prepared under SIGTERM is the next start's" ||
	    fail "the pair prepared under SIGTERM was not used: $(grep 'prepared' "$prt/coordinator.log" | tail -2)"
	unlocked "$prt"
fi

# 2. SIGKILL between the two creates: no record, and containers the dead
# coordinator's podman goes on creating (a lone sidecar, or both once the
# held create goes on); gone with the project and Domain Root at the next
# teardown of another Domain.
newdomain kill
if held_end; then
	kill -KILL "$(cat "$prt/coordinator.pid")" 2>/dev/null
	sleep 1
	have=$(names "$did")
	[ "$have" = "sidecar created " ] &&
	    pass "reproduced: a coordinator killed between the two creates leaves a lone prepared sidecar" ||
	    fail "after SIGKILL between the creates: '$have' (expected a lone sidecar)"
	# The held "podman create" of the sandbox (the dead coordinator's
	# child) goes on: a pair no record names.
	: >"$hold"
	for i in $(seq 1 100); do
		[ "$(names "$did")" = "sandbox created sidecar created " ] && break
		sleep 0.1
	done
	[ "$(names "$did")" = "sandbox created sidecar created " ] &&
	    [ ! -e "$prt/prepared" ] &&
	    pass "the dead coordinator's podman still makes the sandbox: a pair no record names" ||
	    fail "after the held create went on: '$(names "$did")', record: $(ls "$prt")"
	gone "$p" "$proot"
	another_end
	have=$(names "$did")
	[ -z "$have" ] &&
	    pass "the lone sidecar of a Domain whose project and root are gone is removed by another Domain's teardown" ||
	    fail "lone sidecar left after another Domain's teardown: '$have'"
fi

# 3. A start while the teardown prepares: it waits for the lifecycle lock,
# then starts the pair just made; nothing else is left.
newdomain race
if held_end; then
	(cd "$p" && "$LAZARET" run -- echo raced) >"$LZ_TMP/raced" 2>&1 &
	racer=$!
	sleep 1
	: >"$hold"
	wait "$racer"; r=$?
	unlocked "$prt"
	if [ "$r" = 0 ] && grep -q raced "$LZ_TMP/raced" &&
	    grep -q "started the containers prepared" "$prt/coordinator.log" &&
	    [ "$(names "$did")" = "sandbox created sidecar created " ] &&
	    [ -s "$prt/prepared" ]; then
		pass "a start during the preparation waits for it and starts the pair just made; one pair and its record after"
	else
		fail "a start during the preparation: exit $r, '$(cat "$LZ_TMP/raced")', containers '$(names "$did")', log: $(grep prepared "$prt/coordinator.log" | tail -2)"
	fi
fi

# 4. A state reset while the teardown prepares: it waits for the lock, then
# removes the pair and its record.
if held_end; then
	(cd "$p" && "$LAZARET" state reset --all --yes) >"$LZ_TMP/reset" 2>&1 &
	resetter=$!
	sleep 1
	: >"$hold"
	wait "$resetter"; r=$?
	if [ "$r" = 0 ] && [ -z "$(names "$did")" ] && [ ! -e "$prt/prepared" ]; then
		pass "a state reset during the preparation waits for it, then removes the pair and its record"
	else
		fail "a state reset during the preparation: exit $r ($(tail -2 "$LZ_TMP/reset")), containers '$(names "$did")', record $(ls "$prt" | grep -c '^prepared')"
	fi
fi

# 5. The sandbox's create fails in the preparation: the sidecar made before
# it is removed, nothing recorded, the reason logged.
: >"$hold"
: >"$hold.fail"
(cd "$p" && "${slow[@]}" "$LAZARET" run -- true) >/dev/null 2>&1
unlocked "$prt"
rm -f "$hold.fail"
if [ -z "$(names "$did")" ] && [ ! -e "$prt/prepared" ] &&
    grep -q "nothing prepared for the next start: .*sandbox create refused" "$prt/coordinator.log"; then
	pass "a failed create of the prepared sandbox leaves no sidecar and no record (logged: $(grep -o 'nothing prepared.*' "$prt/coordinator.log" | tail -1 | cut -c1-90))"
else
	fail "a failed create of the prepared sandbox: containers '$(names "$did")', record $(ls "$prt" | grep -c '^prepared'), log: $(tail -2 "$prt/coordinator.log")"
fi

# 6. A project deleted after its Domain ended: the pair is listed, then
# removed by another Domain's teardown; the Domain Root stays.
newdomain deleted
(cd "$p" && "$LAZARET" run -- true) >/dev/null 2>&1
unlocked "$prt"
[ "$(names "$did")" = "sandbox created sidecar created " ] ||
    fail "no prepared pair after a clean end: '$(names "$did")'"
rm -rf "$p"
run "$LAZARET" state list --json
d=$(jq -c --arg id "$did" '.[] | select(.domain_id == $id)' <<<"$LZ_OUT")
if [ "$(jq -r '.prepared' <<<"$d")" = 2 ] &&
    [ "$(jq -r '.workspace_missing' <<<"$d")" = true ]; then
	pass "state list shows a deleted project's Domain: workspace missing, 2 prepared containers"
else
	fail "state list of a deleted project's Domain: $d"
fi
run "$LAZARET" state list
if grep -A6 "^$did" <<<"$LZ_OUT" | grep -q "workspace.*(missing: " &&
    grep -A6 "^$did" <<<"$LZ_OUT" | grep -q "prepared .*2 containers"; then
	pass "state list (text) says the workspace is missing and the pair is there"
else
	fail "state list (text): $(grep -A6 "^$did" <<<"$LZ_OUT")"
fi
another_end
have=$(names "$did")
[ -z "$have" ] && [ -d "$proot" ] &&
    pass "a deleted project's prepared pair is removed by another Domain's teardown (its Domain Root stays)" ||
    fail "deleted project: containers '$have', root $(ls -d "$proot" 2>&1)"
# The other Domain's own pair is untouched by its own sweep.
[ "$(names "$(cd "$other" && "$LAZARET" domain show --json | jq -r .domain_id)")" = "sandbox created sidecar created " ] &&
    pass "the sweeping Domain keeps its own prepared pair" ||
    fail "the sweeping Domain's pair: '$(names "$(cd "$other" && "$LAZARET" domain show --json | jq -r .domain_id)")'"
finish
