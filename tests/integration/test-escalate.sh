#!/bin/bash
# test-escalate.sh: Host Escalation without a human (issue 15; SR-7, SR-8,
# SR-9, OR-2, OR-3) on the real coordinator, sandbox and mailbox: the
# Escalation Client on the sandbox's PATH; a command an auto-approval rule
# matches runs on the host, as the developer, in the host directory of the
# sandbox's cwd, with its output and status back inside; a request no rule
# matches from a session without a terminal is denied at once; -t and the
# profile's escalation-timeout end a command (124) and kill it; Ctrl-C
# cancels (130) and kills it; a session's end, and a SIGKILLed
# coordinator, kill what it asked for; output past 1 MiB a stream is cut
# and said so; every step is in the audit log. Attacks from inside
# (tests/helpers/esc-forge.c): a wrong MAC or signature, a stale or future
# time, an unknown session, another Domain, a name that is not the
# record's, unknown or duplicate keys, an oversized field, a replayed
# record or nonce, another start's identity, a cancel of another session's
# request; symbolic links, FIFOs, directories, oversized files and floods
# in the request directory: each is dropped with a log line, nothing runs,
# no result appears, and the coordinator keeps answering.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq
lz_domain_project
cd "$proj" || exit 1
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$proj/sub"
cat >"$cfg" <<EOF
[profile default]
escalation-timeout = 20
auto-approve = id -un
auto-approve = pwd
auto-approve = ls /nonexistent-lz-esc
auto-approve = sleep 31.5
auto-approve = sleep 32.5
auto-approve = sleep 33.5
auto-approve = sleep 34.5
auto-approve = sleep 35.5
auto-approve = head -c 2000000 /dev/zero
auto-approve = true
auto-approve = echo ...
auto-approve = sh -c sleep%2037.5%20%26%20exec%20sleep%2038.5
EOF
cp "$LZ_BIN/esc-forge" "$proj/esc-forge"
lz_keep_domain || fail "the Domain did not start"
log=$rt/coordinator.log
me=$(id -un)

# host_alive ARGS: a process of this account runs exactly "sleep ARGS".
host_alive() { pgrep -u "$(id -u)" -xf "sleep $1" >/dev/null; }
# host_gone ARGS [SECONDS]: waits for it to be gone.
host_gone() {
	local i
	for i in $(seq 1 $(( ${2:-10} * 10 ))); do
		host_alive "$1" || return 0
		sleep 0.1
	done
	return 1
}
# host_up ARGS: waits up to 10 s for it to run.
host_up() {
	local i
	for i in $(seq 1 100); do
		host_alive "$1" && return 0
		sleep 0.1
	done
	return 1
}
audit() { "$LAZARET" audit --json; }

run "$LAZARET" run -- lazaret-escalate --help
expect "lazaret-escalate is on the sandbox's PATH (--help)" 0 "Exit status"
run "$LAZARET" run -- lazaret-escalate -t 5x -- true
expect "a bad -t is refused" 125 "-t wants 1-86400 seconds, not '5x'"

run "$LAZARET" run -- lazaret-escalate -j "who" -- id -un
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = "$me" ] &&
    pass "a rule-approved command runs on the host as the developer ($me, not the sandbox's root)" ||
    fail "id -un through escalation: rc $LZ_RC, '$LZ_OUT'"
run "$LAZARET" run -- sh -c 'cd /workspace/sub && lazaret-escalate -- pwd'
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = "$proj/sub" ] &&
    pass "it runs in the host directory of the sandbox's cwd ($proj/sub)" ||
    fail "pwd through escalation: rc $LZ_RC, '$LZ_OUT'"
run "$LAZARET" run -- lazaret-escalate -- ls /nonexistent-lz-esc
[ "$LZ_RC" = 2 ] && grep -q "nonexistent-lz-esc" <<<"$LZ_ERR" &&
    pass "the host command's exit status and stderr come back (ls: 2)" ||
    fail "ls through escalation: rc $LZ_RC"
run "$LAZARET" run -- lazaret-escalate -- id -un -z
expect "a request no rule matches, from a session without a terminal, is denied at once" \
    77 "denied \(no terminal to ask; add an auto-approve rule\)"
run "$LAZARET" run -- sh -c 'lazaret-escalate -- head -c 2000000 /dev/zero | wc -c'
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = 1048576 ] && grep -q "output cut at 1048576" <<<"$LZ_ERR" &&
    pass "output past 1 MiB a stream is cut, and said so" ||
    fail "big output: rc $LZ_RC, '$LZ_OUT'"

# Time limits: the request's own, and the profile's cap.
t0=$(date +%s%N)
run "$LAZARET" run -- lazaret-escalate -t 1 -- sleep 31.5
t1=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$LZ_RC" = 124 ] && [ "$t1" -lt 8000 ] && host_gone 31.5 5 &&
    pass "-t 1: timed out (124) in $t1 ms and the host command was killed" ||
    fail "-t 1: rc $LZ_RC in $t1 ms (host sleep alive: $(host_alive 31.5 && echo yes))"
# Cancel: Ctrl-C (SIGINT) of the client inside kills the host command.
run "$LAZARET" run -- sh -c 'lazaret-escalate -- sleep 32.5 & p=$!; sleep 1.5; kill -INT $p; wait $p'
[ "$LZ_RC" = 130 ] && host_gone 32.5 5 &&
    pass "SIGINT of lazaret-escalate: cancelled (130), the host command killed" ||
    fail "cancel: rc $LZ_RC (host sleep alive: $(host_alive 32.5 && echo yes))"
# OR-3: the session's end kills what it asked for.
"$LAZARET" run -- lazaret-escalate -- sleep 33.5 >/dev/null 2>&1 &
sess=$!
if host_up 33.5; then
	kill -TERM "$sess"
	host_gone 33.5 10 &&
	    pass "the session's end kills the host command it asked for (OR-3)" ||
	    fail "the host command outlived its session"
else
	fail "the host command of the session to end never ran"
fi
wait "$sess" 2>/dev/null

# Audit: request, decision by rule, result, for one request.
rid=$(audit | jq -r 'select(.kind == "request" and .argv == ["id","-un"]) | .id' | head -1)
kinds=$(audit | jq -r --arg id "$rid" 'select(.id == $id) | .kind + ":" + (.by // .outcome // "")' | tr '\n' ' ')
[ "$kinds" = "request: decision:rule result:completed " ] &&
    pass "the audit log has the request, the rule's decision and the result" ||
    fail "audit of $rid: '$kinds'"

# Attacks from inside: each record dropped, nothing runs, no result.
for m in bad-mac bad-sig altered truncated not-utf8 stale future \
    unknown-session wrong-domain name-mismatch unknown-key dup-key big-why; do
	run "$LAZARET" run -- ./esc-forge -w 1500 "$m" -- true
	fid=$(head -1 <<<"$LZ_OUT")
	if [ "$LZ_RC" = 3 ] && [[ $fid =~ ^[0-9a-f]{32}$ ]] &&
	    ! audit | jq -e --arg id "$fid" 'select(.id == $id)' >/dev/null; then
		pass "forged record ($m): dropped, no result, not in the audit log"
	else
		fail "forged record ($m): rc $LZ_RC, '$LZ_OUT'"
	fi
done
run "$LAZARET" run -- ./esc-forge -w 3000 ok -- true
expect "a well-made record from the same tool is answered (the control)" 0 "completed"
run "$LAZARET" run -- ./esc-forge -w 3000 replay -- true
fid=$(head -1 <<<"$LZ_OUT")
n=$(audit | jq -r --arg id "$fid" 'select(.id == $id and .kind == "request") | .id' | wc -l)
[ "$n" = 1 ] && pass "a replayed record (the same bytes again) is dropped: it ran once" ||
    fail "replay: $n requests in the audit log"
run "$LAZARET" run -- ./esc-forge -w 1500 replay-nonce -- true
fid=$(sed -n 1p <<<"$LZ_OUT")
[ "$LZ_RC" = 3 ] && pass "a new record with a nonce already used is dropped" ||
    fail "replay-nonce: rc $LZ_RC, '$LZ_OUT'"
grep -q "dropped: request ID or nonce seen before" "$log" &&
    grep -q "dropped: MAC is not session" "$log" &&
    grep -q "dropped: record time" "$log" &&
    pass "each drop is a line of the coordinator's log, with its reason" ||
    fail "the coordinator's log does not say why records were dropped"

keeper_sess=$("$LAZARET" ls --json | jq -r '.[] | select(.command | test("sleep 60")) | .session' | head -1)
run "$LAZARET" run -- ./esc-forge -w 1500 -s "$keeper_sess" ok -- true
[ "$LZ_RC" = 3 ] && [[ $keeper_sess =~ ^[0-9a-f]{32}$ ]] &&
    pass "a record claiming another session (MACed with its own anchor) is dropped" ||
    fail "claiming session '$keeper_sess': rc $LZ_RC, '$LZ_OUT'"
# Another Domain's identity (its own Trust Anchor).
proj2=$LZ_TMP/proj2
lz_make_project "$proj2"
id2=$(cd "$proj2" && "$LAZARET" domain show --json | jq -r .domain_id)
lz_cleanup_hooks+=("podman unshare rm -rf '$XDG_DATA_HOME/lazaret/domains/$id2'")
(cd "$proj2" && "$LAZARET" run -- cp -r /run/lazaret/identity /workspace/id2)
cp -r "$proj2/id2" "$proj/id2"
run "$LAZARET" run -- ./esc-forge -w 1500 -i /workspace/id2 ok -- true
[ "$LZ_RC" = 3 ] && pass "a record made with another Domain's identity is dropped" ||
    fail "another Domain's identity: rc $LZ_RC, '$LZ_OUT'"

# Where it runs: the sandbox's directory beneath the host workspace, else
# the top level (a symbolic link on the way, outside, an ignored path).
"$LAZARET" run -- sh -c 'ln -s /etc /workspace/link; mkdir -p /workspace/node_modules/x'
for c in /workspace/link /workspace/link/ssl /etc /workspace/../etc /workspace/node_modules/x; do
	run "$LAZARET" run -- ./esc-forge -w 3000 -c "$c" ok -- pwd
	[ "$(sed -n 3p <<<"$LZ_OUT")" = "$proj" ] &&
	    pass "cwd $c: runs at the workspace's top level" ||
	    fail "cwd $c: ran in '$(sed -n 3p <<<"$LZ_OUT")'"
done

# Load: 1,000 auto-approved requests from 4 sessions at once; every
# caller gets its own answer.
load='i=0; bad=0
while [ $i -lt 250 ]; do
	o=$(lazaret-escalate -- echo "$1-$i") || bad=$((bad+1))
	[ "$o" = "$1-$i" ] || bad=$((bad+1))
	i=$((i+1))
done
echo "bad=$bad"'
t0=$(date +%s%N)
loaders=()
for k in 1 2 3 4; do
	"$LAZARET" run -- sh -c "$load" sh "s$k" >"$LZ_TMP/load$k" 2>&1 &
	loaders+=($!)
done
# These four only: a bare wait would wait for the Domain's keeper too.
wait "${loaders[@]}"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$(cat "$LZ_TMP"/load? | grep -c '^bad=0$')" = 4 ]; then
	pass "1,000 requests from 4 sessions at once: each caller got its own result ($ms ms)"
else
	fail "load: $(cat "$LZ_TMP"/load? | tail -8)"
fi

# Another session's request: a cancel of it is dropped; it still runs.
"$LAZARET" run -- lazaret-escalate -- sleep 34.5 >/dev/null 2>&1 &
victim=$!
if host_up 34.5; then
	vid=$(audit | jq -r 'select(.kind == "request" and .argv == ["sleep","34.5"]) | .id' | tail -1)
	run "$LAZARET" run -- ./esc-forge cancel "$vid"
	sleep 1
	host_alive 34.5 && grep -q "cancel record dropped: cancel of a request this session does not have" "$log" &&
	    pass "a cancel of another session's request is dropped; that command goes on" ||
	    fail "another session cancelled request $vid"
else
	fail "the victim's host command never ran"
fi
kill -TERM "$victim" 2>/dev/null
wait "$victim" 2>/dev/null

# Junk in the request directory: links, FIFOs, directories, big files,
# floods. All removed; the coordinator still answers. (A FIFO made inside
# lives in gVisor only; one is made in podman's namespace, where the
# coordinator reads, as a sandbox with host FIFOs could.)
junk='cd /run/lazaret/requests || exit 9
h=123456789abcdef0123456789abcdef
ln -s /etc/passwd request-a$h.json
mkdir request-c$h.json
head -c 70000 /dev/zero > big.tmp && mv big.tmp request-d$h.json
i=0; n=0
while [ $i -lt 10000 ]; do echo x 2>/dev/null > junk-$i && n=$((n+1)); i=$((i+1)); done
echo "made $n"'
podman unshare mkfifo "$rt/mailbox/requests/request-b123456789abcdef0123456789abcdef.json"
run "$LAZARET" run -- sh -c "$junk"
sleep 2
left=$(podman unshare ls -A "$rt/mailbox/requests" | wc -l)
[ "$left" = 0 ] && pass "links, FIFOs, directories, big files and junk names ($LZ_OUT) are all removed" ||
    fail "the request directory holds $left entries after junk"
for w in "a symbolic link" "not a regular file" "over the size limit" "not a record's name"; do
	grep -q "dropped: $w" "$log" && pass "junk logged: $w" ||
	    fail "no log line 'dropped: $w'"
done
# Staged as a writer stages a record (NAME.tmp, left alone for a minute):
# any other name is junk the coordinator removes at once, which races the
# sandbox's own create (ENOENT inside, "Directory nonexistent").
run "$LAZARET" run -- sh -c 'head -c 20000000 /dev/zero > /run/lazaret/requests/fill.tmp; echo rc=$?; rm -f /run/lazaret/requests/fill.tmp'
grep -q "rc=1" <<<"$LZ_OUT" && grep -qi "no space" <<<"$LZ_ERR" &&
    pass "the mailbox is its own small tmpfs: filling it fails inside (ENOSPC), not the host's disk" ||
    fail "filling the mailbox: '$LZ_OUT' '$LZ_ERR'"
run "$LAZARET" run -- sh -c 'echo x > /run/lazaret/results/result-0123456789abcdef0123456789abcdef.json'
[ "$LZ_RC" != 0 ] && pass "the result directory is read-only inside" ||
    fail "the sandbox wrote into the result directory"
run "$LAZARET" run -- lazaret-escalate -- id -un
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = "$me" ] &&
    pass "after every attack the coordinator still answers" ||
    fail "after the attacks: rc $LZ_RC '$LZ_OUT'"

# Another start's identity: saved, the Domain restarted, then used.
"$LAZARET" run -- sh -c 'cp -r /run/lazaret/identity /workspace/oldid'
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "the Domain did not end"
lz_keep_domain || fail "the Domain did not start again"
run "$LAZARET" run -- ./esc-forge -w 1500 -i /workspace/oldid ok -- true
[ "$LZ_RC" = 3 ] && grep -q "dropped: sandbox certificate" "$rt/coordinator.log" &&
    pass "a record made with the previous start's identity is dropped" ||
    fail "old identity: rc $LZ_RC, '$LZ_OUT'"

# A SIGKILLed coordinator takes its host commands, and what they started,
# with it within a second.
"$LAZARET" run -- lazaret-escalate -- sh -c 'sleep 37.5 & exec sleep 38.5' >/dev/null 2>&1 &
last=$!
if host_up 37.5 && host_up 38.5; then
	kill -KILL "$(cat "$rt/coordinator.pid")"
	host_gone 37.5 1 && host_gone 38.5 1 &&
	    pass "SIGKILL of the coordinator: its host command and that command's child die within a second" ||
	    fail "a host command or its child outlived its coordinator by a second"
else
	fail "the last host command never ran"
fi
kill "$last" 2>/dev/null
wait "$last" 2>/dev/null
run "$LAZARET" run -- lazaret-escalate -- id -un
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = "$me" ] &&
    pass "the next start recovers the killed Domain and escalation works again" ||
    fail "after the coordinator's SIGKILL: rc $LZ_RC '$LZ_OUT'"
wait_gone && pass "the Domain ends clean (no container, socket or mount left)" ||
    fail "left behind: $(leftovers)"
finish
