#!/bin/bash
# test-git-history.sh: the Git history guard (issue 20) with real git and
# the real sandbox. Each loss is made inside the sandbox as an agent
# would, shown to be real on the host first (the control: without the
# guard it stays lost), then "lazaret git restore" on the host brings it
# back:
#
#   rm -rf .git                      log, branches, tags, HEAD, fsck as before
#   reset --hard HEAD~3, reflog      the three commits back
#     expire, gc --prune=now
#   a branch deleted (and pruned)    back by --ref
#   git checkout . over uncommitted  back from the launch snapshot
#     work                           (git stash apply), and on request
#   the host moving a branch while   refused while the Domain runs; left
#     the sandbox also does          alone without a terminal; asked on
#                                    one: "n" keeps it, "y" restores
#   detection while it runs          lazaret ls and the TUI's status line
#                                    say "history changed"
#
# Bad input: a .git that is a file (linked worktree), a repository on
# another file system (copies, capped, said), a packed-refs file made
# malformed or huge inside, object files replaced by a FIFO and a symlink
# inside (never followed, never hangs; put back by restore).
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc git jq tmux
lz_domain_project
cd "$proj" || exit 1
g() { git -c user.name=t -c user.email=t@e.invalid "$@"; }
ID='export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e.invalid;'
# box SCRIPT: runs it in the sandbox (LZ_OUT, LZ_ERR, LZ_RC); inside
# SCRIPT also waits until that Domain is down (its teardown pass done).
box() { run "$LAZARET" run -- sh -c "$ID $1"; }
inside() { box "$1"; wait_down; }
wait_down() {
	local i
	for i in $(seq 1 300); do
		[ ! -S "$rt/control.sock" ] && [ ! -e "$rt/coordinator.pid" ] &&
		    return 0
		sleep 0.1
	done
	return 1
}
refs_of() { git -C "${1:-.}" for-each-ref --format='%(refname) %(objectname)' | grep -v ' refs/lazaret/\|^refs/lazaret/'; }
state_of() {
	refs_of "$@"
	git -C "${1:-.}" symbolic-ref HEAD
	git -C "${1:-.}" log --format='%H %s' master topic v1 v2 2>&1
}
fsck_ok() { git -C "${1:-.}" fsck --no-dangling >/dev/null 2>&1; }
# refs_vs PRE: what differs from PRE now, and fsck's first complaints.
refs_vs() {
	diff <(printf '%s\n' "$1") <(refs_of) | grep '^[<>]' | head -6
	git fsck --no-dangling 2>&1 | head -3
}
# mark_log, then new_log: what the coordinator logged since the mark.
mark_log() { log_at=$(stat -c %s "$rt/coordinator.log" 2>/dev/null || echo 0); }
new_log() { tail -c +$((log_at + 1)) "$rt/coordinator.log" 2>/dev/null; }
log_at=0

# The developer's repository: six commits on master, a branch with a
# commit of its own off the second, a lightweight and an annotated tag
# on early commits (so the last three commits are master's alone),
# everything loose.
for i in 1 2 3; do echo "$i" > "f$i"; g add "f$i"; g commit -qm "c$i"; done
echo old > f9 && g add f9 && g commit -qm "f9 old" && echo new > f9 &&
    g add f9 && g commit -qm "f9 new"
g branch topic HEAD~4 && g checkout -q topic && echo t > ft && g add ft &&
    g commit -qm "on topic" && g checkout -q master
g tag v1 HEAD~4 && g tag -a -m annotated v2 HEAD~3
before=$(state_of)
top=$(git rev-parse master)

# --- rm -rf .git inside, then restore ------------------------------------
mark_log
inside 'rm -rf .git; git log >/dev/null 2>&1 && echo still-a-repo'
if git log >/dev/null 2>&1; then
	fail "control: rm -rf .git inside left the host repository usable"
else
	pass "control: after rm -rf .git inside, host git log fails"
fi
grep -q 'history changed: .git is gone' <<<"$(new_log)" &&
    pass "the coordinator logged that .git is gone" ||
    fail "no detection of .git gone in the coordinator log"
run "$LAZARET" git restore --list
expect "restore --list names the lost branches with their commits" 0 \
    'refs/heads/topic: missing since'
grep -q '"on topic"' <<<"$LZ_OUT" && grep -q 'refs/tags/v2' <<<"$LZ_OUT" &&
    pass "--list shows the subjects of lost commits and the tags" ||
    fail "--list lacks subjects or tags"
run "$LAZARET" git restore --list --json
expect "restore --list --json" 0
[ "$(jq -r '.repositories[0].lost | map(.ref) | index("refs/heads/topic") != null' <<<"$LZ_OUT")" = true ] &&
    [ "$(jq -r '.repositories[0].missing' <<<"$LZ_OUT")" = true ] &&
    pass "--json lists the lost refs and says the repository is gone" ||
    fail "--json: $(head -c 300 <<<"$LZ_OUT")"
run "$LAZARET" git restore
expect "restore after rm -rf .git" 0 'object files brought back'
after=$(state_of)
[ "$before" = "$after" ] &&
    pass "log, branches, tags and HEAD match the state before" ||
    fail "state differs: $(diff <(echo "$before") <(echo "$after") | head -5)"
fsck_ok && pass "git fsck passes after the restore" || fail "git fsck fails"
grep -q 'since the last launch: Git history guard: history changed' \
    <<<"$("$LAZARET" domain show 2>&1)" &&
    pass "domain show carries the detection to the next launch" ||
    fail "domain show does not say history changed"
git status --porcelain | grep -v '^??' | grep -q . &&
    fail "git status shows changes after the restore: $(git status --short | head -3)" ||
    pass "the index is back (git status clean)"

# --- reset --hard HEAD~3, reflog expire, gc --prune=now --------------------
lost3=$(git rev-list --max-count=3 master)
inside 'git reset -q --hard HEAD~3 && git reflog expire --expire=now --all && git gc -q --prune=now'
gone=0
for c in $lost3; do git cat-file -e "$c" 2>/dev/null || gone=$((gone + 1)); done
[ "$gone" = 3 ] && pass "control: the reset, expire and gc inside pruned the three commits" ||
    fail "control: only $gone of the three commits are gone on the host"
run "$LAZARET" git restore
expect "restore after reset and gc" 0 'refs/heads/master set to'
back=0
for c in $lost3; do git cat-file -e "$c" 2>/dev/null && back=$((back + 1)); done
[ "$back" = 3 ] && [ "$(git rev-parse master)" = "$top" ] &&
    pass "the three commits are back and master points at the top again" ||
    fail "restored $back of 3 commits; master is $(git rev-parse master)"
fsck_ok && pass "git fsck passes after restoring the pruned commits" ||
    fail "git fsck fails after restoring the pruned commits"

# --- a branch deleted inside ----------------------------------------------
tt=$(git rev-parse topic)
inside 'git branch -q -D topic && git reflog expire --expire=now --all && git gc -q --prune=now'
! git rev-parse -q --verify topic >/dev/null && ! git cat-file -e "$tt" 2>/dev/null &&
    pass "control: the branch and its commit are gone on the host" ||
    fail "control: topic survived its deletion inside"
run "$LAZARET" git restore --ref topic
expect "restore --ref topic" 0 'refs/heads/topic set to'
[ "$(git rev-parse topic 2>/dev/null)" = "$tt" ] &&
    pass "the deleted branch is back at its commit" ||
    fail "topic is '$(git rev-parse topic 2>&1)', not $tt"

# --- uncommitted work wiped by git checkout . inside ---------------------
echo precious >> f1
echo staged > f4 && git add f4
inside 'git checkout -- . && git reset -q --hard'
! grep -q precious f1 && [ ! -e f4 ] &&
    pass "control: git checkout . and reset --hard inside wiped the work" ||
    fail "control: the uncommitted work survived"
snap=$(git for-each-ref --format='%(refname)' 'refs/lazaret/snapshots/*-launch' | tail -1)
run "$LAZARET" git restore --list
grep -qF "snapshot $snap" <<<"$LZ_OUT" &&
    pass "--list shows the launch snapshot" || fail "--list: no snapshot line"
if [ -n "$snap" ] && git stash apply -q "$snap" >/dev/null 2>&1 &&
    grep -q precious f1 && [ "$(cat f4 2>/dev/null)" = staged ]; then
	pass "git stash apply of the launch snapshot brings the changed and the staged file back"
else
	fail "launch snapshot '$snap' did not bring the work back"
fi
echo more >> f1
run "$LAZARET" git snapshot
expect "lazaret git snapshot on request" 0 'saved as refs/lazaret/snapshots/.*-request'
run "$LAZARET" git snapshot
expect "a second snapshot with nothing new makes none" 0 'nothing new since'
g reset -q --hard && rm -f f4 && git status --porcelain | grep -q . &&
    fail "the work tree is not clean before the next scenario"

# --- the host moves the branch while the sandbox does --------------------
mark_log
lz_keep_domain || fail "keeper domain did not start"
box 'git reset -q --hard HEAD~2'
for i in $(seq 1 50); do
	grep -q 'refs/heads/master moved from' <<<"$(new_log)" && break
	sleep 0.2
done
run "$LAZARET" ls
grep -q 'history changed: refs/heads/master moved' <<<"$LZ_ERR" &&
    pass "lazaret ls says history changed while the Domain runs" ||
    fail "lazaret ls: no history note: ${LZ_ERR:0:300}"
echo host > hostfile && g add hostfile && g commit -qm "host commit"
hostc=$(git rev-parse master)
sleep 2
run "$LAZARET" git restore
expect "restore refuses while the Domain runs" 6 'is running: its sandbox can write .git'
run "$LAZARET" git restore --list
expect "restore --list works while the Domain runs" 0 'refs/heads/master: moved'
kill "$keeper" 2>/dev/null; wait "$keeper" 2>/dev/null
wait_down
run "$LAZARET" git restore
expect "restore without a terminal leaves the moved branch alone" 1 'left alone'
[ "$(git rev-parse master)" = "$hostc" ] &&
    pass "master keeps the host's commit (never clobbered)" ||
    fail "master moved to $(git rev-parse master) without asking"
lz_tmux ask
tm new-session -d -s ask -x 200 -y 40 -c "$proj" "bash --norc --noprofile"
tm set-option -t ask remain-on-exit on >/dev/null
type_line "$LAZARET git restore; echo rc=\$?"
if wait_for 'Move refs/heads/master back\? .*\[y/N\]' 60; then
	pass "on a terminal, restore asks before moving the branch back"
	tm send-keys -t ask n Enter
	wait_for '^rc=0' 30 && [ "$(git rev-parse master)" = "$hostc" ] &&
	    pass "answering n keeps the host's commit" ||
	    fail "after n: master is $(git rev-parse master)"
	type_line "clear; $LAZARET git restore; echo rc=\$?"
	wait_for '\[y/N\]' 60 && tm send-keys -t ask y Enter
	wait_for '^rc=0' 30 && [ "$(git rev-parse master)" = "$top" ] &&
	    git cat-file -e "$hostc" &&
	    pass "answering y restores master; the host's commit stays kept" ||
	    fail "after y: master is $(git rev-parse master)"
else
	fail "restore did not ask"
fi
fsck_ok && pass "git fsck passes after the asked restore" || fail "git fsck fails"
g reset -q --hard

# --- the TUI's status line ------------------------------------------------
g branch doomed "$top" && g checkout -q doomed && echo d > fd && g add fd &&
    g commit -qm doomed && g checkout -q master
tm new-session -d -s tui -x 160 -y 30 -c "$proj" "bash --norc --noprofile"
lz_tmux_target=tui
type_line "$LAZARET"
if wait_for 'root@lazaret:/workspace#' 90; then
	type_line 'git branch -D doomed; git reflog expire --expire=now --all; git gc -q --prune=now'
	wait_for 'history changed: `lazaret git restore` brings it back' 20 &&
	    pass "the TUI's status line says history changed" ||
	    fail "no history note on the TUI's status line"
	type_line 'exit'
	wait_for '^\$ *$|bash' 30 >/dev/null
else
	fail "the TUI did not open"
fi
wait_down
run "$LAZARET" git restore --ref doomed
expect "the branch deleted in the TUI comes back" 0 'refs/heads/doomed set to'

# --- bad input: a .git that is a file -------------------------------------
g worktree add -q "$LZ_TMP/wt" topic 2>/dev/null
run "$LAZARET" git restore -C "$LZ_TMP/wt"
expect "restore in a linked worktree says why there is no history" 4 \
    'is a file \(a linked worktree or a submodule checkout\)'
run "$LAZARET" git snapshot -C "$LZ_TMP/wt"
expect "snapshot in a linked worktree refuses with the reason" 4 'linked worktree'
g worktree remove --force "$LZ_TMP/wt"

# --- bad input: packed-refs malformed, then huge -----------------------------
pre=$(refs_of)
mark_log
inside 'git pack-refs --all && printf "not a ref line\n" >> .git/packed-refs'
git rev-parse master >/dev/null 2>&1 &&
    fail "control: host git still reads the malformed packed-refs" ||
    pass "control: host git refuses the malformed packed-refs"
grep -q "packed-refs has 1 line git cannot read" <<<"$(new_log)" &&
    pass "the guard says packed-refs has a line git cannot read" ||
    fail "no note on the malformed packed-refs"
run "$LAZARET" git restore
expect "restore rewrites a malformed packed-refs" 0 'written as loose refs'
[ "$(refs_of)" = "$pre" ] && ls .git/lazaret-quarantine-packed-refs.* >/dev/null 2>&1 &&
    pass "refs are back as loose refs; the bad file is kept aside" ||
    fail "refs after the packed-refs repair: $(refs_vs "$pre")"
mark_log
inside 'git pack-refs --all && head -c 70000000 /dev/zero >> .git/packed-refs && echo done'
grep -q "packed-refs is 7[0-9]* bytes, over the" <<<"$(new_log)" &&
    pass "a 70 MB packed-refs is not read, and said" ||
    fail "no note on the huge packed-refs"
grep -q 'refs/heads/master (at' <<<"$(new_log)" &&
    fail "the unread packed-refs was taken as deleted refs" ||
    pass "no ref is recorded as deleted because packed-refs was too big"
run "$LAZARET" git restore
expect "restore writes the refs of a huge packed-refs as loose refs" 0 \
    'too large for the guard to read'
[ "$(refs_of)" = "$pre" ] && fsck_ok &&
    pass "after the huge packed-refs, refs and fsck are as before" ||
    fail "refs after the huge packed-refs: $(refs_vs "$pre")"

# --- bad input: object files replaced by a FIFO and a symlink --------------
# Fresh loose objects only history needs: two blobs and a commit.
echo first > ff && g add ff && g commit -qm "ff first" &&
    echo second > ff && g add ff && g commit -qm "ff second" &&
    echo third > ff && g add ff && g commit -qm "ff third"
old=$(git rev-parse HEAD~2:ff)
old2=$(git rev-parse HEAD~1:ff)
oldc=$(git rev-parse HEAD~2)
ob=.git/objects/${old:0:2}/${old:2}
ob2=.git/objects/${old2:0:2}/${old2:2}
oc=.git/objects/${oldc:0:2}/${oldc:2}
fifo=ab/$(printf 'c%.0s' $(seq 1 38))
fifo2=ab/$(printf 'd%.0s' $(seq 1 38))
mark_log
lz_keep_domain || fail "keeper domain did not start"
# Inside: an object replaced by a symlink, one by a FIFO, a new FIFO.
box "rm -f $oc $ob2 && ln -s /etc/passwd $oc && mkfifo $ob2 && mkdir -p .git/objects/ab && mkfifo .git/objects/$fifo2 && git commit -q --allow-empty -m after-fifo && echo ok"
expect "the sandbox planted a symlink and FIFOs in objects/ and committed" 0 ok
[ -L "$oc" ] && pass "the symlink the sandbox made is on the host" ||
    fail "no symlink at $oc on the host"
[ ! -e "$ob2" ] && [ ! -e ".git/objects/$fifo2" ] &&
    pass "a FIFO made inside stays in gVisor: the host sees no file there" ||
    fail "a FIFO made inside is on the host: $(ls -l "$ob2" ".git/objects/$fifo2" 2>&1)"
# Host-side FIFOs (however they got there): one over a kept object, one new.
rm -f "$ob" && mkfifo "$ob" && mkfifo ".git/objects/$fifo"
sleep 3
grep -q "objects/$fifo is a FIFO: never followed or read, not kept" <<<"$(new_log)" &&
    pass "a FIFO with an object's name is never read, and said" ||
    fail "no note on the planted FIFO"
timeout 20 "$LAZARET" ls >/dev/null 2>&1 &&
    pass "the coordinator still answers with FIFOs in objects/ (never hangs)" ||
    fail "the coordinator does not answer"
grep -q " domain > refs/heads/master [0-9a-f]* $(git rev-parse HEAD)\$" \
    "$droot"/history/*/refs.log &&
    pass "the commit made after the planting is recorded" ||
    fail "the commit after the planting was not recorded"
kill "$keeper" 2>/dev/null; wait "$keeper" 2>/dev/null
wait_down
run "$LAZARET" git restore
expect "restore moves the planted files away and puts the objects back" 0 \
    'was not what git keeps there'
[ -f "$ob" ] && [ -f "$ob2" ] && [ ! -L "$oc" ] && [ ! -p ".git/objects/$fifo" ] &&
    git cat-file -e "$old" && git cat-file -e "$old2" && fsck_ok &&
    pass "the real objects are back, the planted ones aside, git fsck passes" ||
    fail "objects after the FIFO repair: fsck $(git fsck --no-dangling 2>&1 | head -2)"

# --- a submodule's repository is kept too (every repository of the launch) --
g init -q -b main "$LZ_TMP/subsrc"
for i in 1 2 3; do g -C "$LZ_TMP/subsrc" commit -q --allow-empty -m "s$i"; done
g -c protocol.file.allow=always submodule add -q "$LZ_TMP/subsrc" sub >/dev/null 2>&1 &&
    g commit -qm "add sub"
stop=$(git -C sub rev-parse HEAD)
inside "cd sub && git update-ref -d refs/remotes/origin/HEAD; git update-ref -d refs/remotes/origin/main && git reset -q --hard HEAD~2 && git reflog expire --expire=now --all && git gc -q --prune=now"
! git -C sub cat-file -e "$stop" 2>/dev/null &&
    pass "control: the submodule's top commit is pruned on the host" ||
    fail "control: the submodule kept its commit"
run "$LAZARET" git restore --list --json
jq -r '.repositories[] | select(.gitdir == ".git/modules/sub") | .lost[].ref' <<<"$LZ_OUT" | grep -qx 'refs/heads/main\|HEAD' &&
    pass "--list names the submodule's lost branch under its git directory" ||
    fail "--list --json: $(jq -c '[.repositories[] | {gitdir, lost: [.lost[].ref]}]' <<<"$LZ_OUT" 2>&1 | head -c 300)"
run "$LAZARET" git restore --repo .git/modules/sub --json
expect "restore --repo .git/modules/sub --json" 0
[ "$(jq -r '[.repositories[0].refs[].result] | unique | join(",")' <<<"$LZ_OUT")" = restored ] &&
    [ "$(git -C sub rev-parse HEAD)" = "$stop" ] &&
    pass "the submodule's branch is back; --json says restored" ||
    fail "submodule after restore: $(git -C sub rev-parse HEAD 2>&1); $(head -c 300 <<<"$LZ_OUT")"
run "$LAZARET" git restore --repo nowhere/.git
expect "--repo names a repository that has no history" 2 "no history kept for 'nowhere/.git'"
run "$LAZARET" git restore --to yesterday
expect "--to refuses what is not a time" 2 "is not a time"

# --- bad input: a repository on another file system than the Domain Root --
shm=$(mktemp -d /dev/shm/lz-hist.XXXXXX)
lz_cleanup_hooks+=("rm -rf '$shm'")
p2=$shm/proj
lz_make_project "$p2"
head -c 2000000 /dev/urandom > "$p2/big" && g -C "$p2" add big &&
    g -C "$p2" commit -qm big
echo s > "$p2/small" && g -C "$p2" add small && g -C "$p2" commit -qm small
big=$(git -C "$p2" rev-parse HEAD~1:big)
id2=$(cd "$p2" && "$LAZARET" domain show --json | jq -r .domain_id)
lz_cleanup_hooks+=("podman ps -a -q --filter label=lazaret.domain=$id2 | xargs -r podman rm -f -t 0 >/dev/null 2>&1")
lz_cleanup_hooks+=("podman unshare rm -rf '$XDG_DATA_HOME/lazaret/domains/$id2'")
(cd "$p2" && LAZARET_TEST_HISTORY_COPY_MAX=1048576 "$LAZARET" run -- sh -c 'rm -rf .git') >/dev/null 2>&1
for i in $(seq 1 300); do [ -e "$XDG_RUNTIME_DIR/lazaret/$id2/coordinator.pid" ] || break; sleep 0.1; done
log2=$(cat "$XDG_RUNTIME_DIR/lazaret/$id2/coordinator.log")
grep -q 'on another file system than the Domain Root: objects cannot be hard-linked, so each is copied' <<<"$log2" &&
    grep -q 'past its cap of 1 MiB' <<<"$log2" &&
    pass "across file systems objects are copied, the cap is reached and said" ||
    fail "no copy-cap note: $(grep -i 'guard' <<<"$log2" | head -3)"
run "$LAZARET" git restore --list --json -C "$p2"
[ "$(jq -r '.repositories[0].space.copies + .repositories[0].space.dropped' <<<"$LZ_OUT")" -gt 0 ] &&
    pass "--list --json counts the copies the store holds" ||
    fail "--json space: $(jq -c '.repositories[0].space' <<<"$LZ_OUT")"
run "$LAZARET" git restore -C "$p2"
expect "restore across file systems" 0 'refs/heads/master set to'
[ "$(git -C "$p2" log --format=%s | head -3 | tr '\n' ' ')" = "small big init " ] &&
    [ "$(git -C "$p2" show HEAD:small)" = s ] &&
    ! git -C "$p2" cat-file -e "$big" 2>/dev/null &&
    pass "history and small files are back; the blob over the cap is not (as said)" ||
    fail "after the capped restore: $(git -C "$p2" log --oneline 2>&1 | head -3)"

expect_clean_stderr "the last restore"
grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' "$rt/coordinator.log" &&
    fail "sanitizer report in the coordinator log" ||
    pass "no sanitizer report in the coordinator log"
finish
