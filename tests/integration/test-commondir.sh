#!/bin/bash
# test-commondir.sh: Git Sentry against a sandbox-written .git/commondir
# (SR-4). Host git reads config and hooks from the directory a commondir
# names; a mount cannot block the file, so the coordinator moves it out of
# host git's way as soon as it appears (and once more at teardown), and the
# next launch warns. Real podman, runsc, git.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq git
lz_domain_project
cd "$proj" || exit 1

# A config the sandbox controls, with a command that would prove execution.
evil=$proj/evil
mark=$LZ_TMP/command-ran

quarantined() { ls "$proj/.git" | grep -c '^lazaret-quarantine-commondir\.' || true; }

# 1. Written while the Domain runs (a second session keeps it up).
lz_keep_domain || fail "commondir: the Domain did not start"
# evil is a working common directory (a copy of .git) whose config makes
# host git run a command of the sandbox's (core.fsmonitor, run through the
# shell by "git status"): without Git Sentry's watch host git runs it
# (checked against a build without the watch).
run "$LAZARET" run -- sh -c "cp -r /workspace/.git/. /workspace/evil/ &&
    printf '[core]\n\tfsmonitor = touch $mark\n' > /workspace/evil/config &&
    printf '%s\n' '$evil' > /workspace/.git/commondir && echo written"
expect "commondir: the sandbox can write the file" 0 written
gone=0
for i in $(seq 1 30); do
	[ ! -e "$proj/.git/commondir" ] && { gone=1; break; }
	sleep 0.1
done
if [ "$gone" = 1 ] && [ "$(quarantined)" = 1 ]; then
	pass "commondir: moved out of host Git's way within $((i * 100)) ms"
else
	fail "commondir: still there or not kept ($(ls "$proj/.git"))"
fi
q=$(ls "$proj/.git" | grep '^lazaret-quarantine-commondir\.' | head -1)
if [ -n "$q" ] && [ "$(cat "$proj/.git/$q")" = "$evil" ]; then
	pass "commondir: its content is kept for the developer"
else
	fail "commondir: quarantined content: $(cat "$proj/.git/$q" 2>&1)"
fi
grep -q "Git Sentry (SR-4): moved .*/\.git/commondir to .*lazaret-quarantine-commondir\..*a sandbox wrote it" "$rt/coordinator.log" &&
    pass "commondir: the coordinator log says so" ||
    fail "commondir: not in the coordinator log"
git -C "$proj" status >/dev/null 2>&1
run git -C "$proj" -c user.name=t -c user.email=t@e.invalid commit -q \
    --allow-empty -m host-commit
common=$(git -C "$proj" rev-parse --git-common-dir 2>&1)
if [ "$LZ_RC" = 0 ] && [ ! -e "$mark" ] && [ "$common" = .git ]; then
	pass "commondir: host git status and commit use its own config, the sandbox's command never ran"
else
	fail "commondir: host git: commit exit $LZ_RC, common dir '$common', sandbox command ran: $([ -e "$mark" ] && echo yes || echo no) ($LZ_ERR)"
fi
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "commondir: Domain left behind: $(leftovers)"

# 2. Written by the last session just before the Domain ends: caught by
# the watch or the check after teardown, never left for host git.
rm -f "$proj/.git/$q"
run "$LAZARET" run -- sh -c "printf '%s\n' '$evil' > /workspace/.git/commondir"
expect "commondir: written by the last session" 0
wait_gone || fail "commondir: Domain left behind: $(leftovers)"
if [ ! -e "$proj/.git/commondir" ] && [ "$(quarantined)" = 1 ]; then
	pass "commondir: moved away by the time the Domain is gone"
else
	fail "commondir: left after the Domain ended ($(ls "$proj/.git"))"
fi

# 3. The next launch starts and warns about what was moved.
run "$LAZARET" run -- true
expect "commondir: the next launch warns and starts" 0 \
    "Git Sentry \(SR-4\): .*lazaret-quarantine-commondir\..* a sandbox wrote"
wait_gone || fail "commondir: Domain left behind: $(leftovers)"
finish
