#!/bin/bash
# test-sentry-gitdirs.sh: Git Sentry and every file host git reads as
# configuration from a git directory (SR-4, issue 12 item 1): the main
# and a linked worktree's config.worktree, a worktree's commondir and
# gitdir, a submodule gitdir's, worktrees made from inside, and
# repositories the sandbox makes anywhere in the workspace (a .git, a
# bare git directory). Each attack runs inside the sandbox; then the
# developer's host git runs where it would read the planted file; a
# positive control plants the same file from the host in a copy of the
# repository and shows that host git runs it there. Real podman, runsc,
# git.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq git
lz_domain_project
cd "$proj" || exit 1
mark=$LZ_TMP/sandbox-command-ran
ctl=$LZ_TMP/control-command-ran
g() { git -c user.name=t -c user.email=t@e.invalid -c protocol.file.allow=always "$@"; }
# fsm FILE MARK: a config that makes host "git status" run "touch MARK".
fsm() { printf '[core]\n\tfsmonitor = touch %s\n' "$2" > "$1"; }
# in_box NAME SCRIPT: runs SCRIPT in the sandbox (LZ_OUT, LZ_RC).
in_box() { run "$LAZARET" run -- sh -c "$2"; }
# moved_away PATH: within 4 s PATH is gone, or for a .git, a file git
# refuses took its place (Git Sentry's stopper: "invalid gitfile").
moved_away() {
	local i
	for i in $(seq 1 40); do
		if [ "${1##*/}" = .git ]; then
			[ -f "$1" ] && [ ! -L "$1" ] &&
			    ! grep -q '^gitdir: ' "$1" && return 0
		else
			[ ! -e "$1" ] && [ ! -L "$1" ] && return 0
		fi
		sleep 0.1
	done
	return 1
}
# host_status NAME DIR...: host git status (and log) in each DIR runs no
# command of the sandbox.
host_status() {
	local name=$1 d
	shift
	for d in "$@"; do
		git -C "$d" status >/dev/null 2>&1
		git -C "$d" log -1 >/dev/null 2>&1
	done
	[ ! -e "$mark" ] && pass "$name: host git status in $# places ran no command of the sandbox" ||
	    fail "$name: host git ran the sandbox's command"
}
# control NAME DIR: host git status in DIR (a copy) runs the planted file.
control() {
	rm -f "$ctl"
	git -C "$2" status >/dev/null 2>&1
	[ -e "$ctl" ] && pass "control: $1: planted from the host, host git runs it" ||
	    fail "control: $1: host git did not run it (the attack test proves nothing)"
}

# The developer's repository: a tracked src/, a submodule, a linked
# worktree outside the workspace.
mkdir -p src && echo s > src/s && g -C "$proj" add src &&
    g -C "$proj" commit -qm src
g init -q "$LZ_TMP/subsrc" && g -C "$LZ_TMP/subsrc" commit -q --allow-empty -m s
g -C "$proj" submodule add -q "$LZ_TMP/subsrc" sub >/dev/null 2>&1 &&
    g -C "$proj" commit -qm sub
g -C "$proj" worktree add -q "$LZ_TMP/wt1" 2>/dev/null
[ -d "$proj/.git/modules/sub" ] && [ -d "$proj/.git/worktrees/wt1" ] ||
    fail "setup: submodule or worktree missing"

# Positive controls, in a copy: each planted file is live in this git.
c=$LZ_TMP/copy
cp -a "$proj" "$c"
g -C "$c" worktree add -q "$LZ_TMP/cwt" 2>/dev/null
git -C "$c" config core.fsmonitor "touch $ctl"
control "the repository's .git/config" "$c"
git -C "$c" config --unset core.fsmonitor
cp -a "$c/.git" "$LZ_TMP/evilmain" && fsm "$LZ_TMP/evilmain/config" "$ctl"
echo "$LZ_TMP/evilmain" > "$c/.git/commondir"
control "the repository's .git/commondir" "$c"
rm "$c/.git/commondir"
g init -q "$c/gl" && g -C "$c/gl" commit -q --allow-empty -m gl &&
    git -C "$c/gl" config core.fsmonitor "touch $ctl" &&
    git -C "$c" update-index --add --cacheinfo \
    "160000,$(git -C "$c/gl" rev-parse HEAD),gl"
control "a repository under a gitlink (host git status at the top)" "$c"
git -C "$c" rm -q -f --cached gl && rm -rf "$c/gl"
g -C "$c" config extensions.worktreeConfig true
fsm "$c/.git/config.worktree" "$ctl"
control "main config.worktree (extension on)" "$c"
: > "$c/.git/config.worktree"
fsm "$c/.git/worktrees/cwt/config.worktree" "$ctl"
control "linked worktree's config.worktree" "$LZ_TMP/cwt"
: > "$c/.git/worktrees/cwt/config.worktree"
cp -a "$c/.git" "$LZ_TMP/evilcommon" && fsm "$LZ_TMP/evilcommon/config" "$ctl"
echo "$LZ_TMP/evilcommon" > "$c/.git/worktrees/cwt/commondir"
control "linked worktree's commondir" "$LZ_TMP/cwt"
echo ../.. > "$c/.git/worktrees/cwt/commondir"
echo "$LZ_TMP/evilcommon" > "$c/.git/modules/sub/commondir"
control "submodule gitdir's commondir" "$c/sub"
rm "$c/.git/modules/sub/commondir"
mkdir -p "$c/adm" "$c/wt3" && echo "ref: refs/heads/master" > "$c/adm/HEAD" &&
    echo ../.git > "$c/adm/commondir" && fsm "$c/adm/config.worktree" "$ctl" &&
    echo "gitdir: ../adm" > "$c/wt3/.git"
control "a hand-made worktree in the workspace" "$c/wt3"
g init -q "$c/src/evil" && fsm "$c/src/evil/.git/config" "$ctl"
control "a new repository in a tracked directory" "$c/src/evil"
g init -q --bare "$c/evil.git" &&
    git -C "$c/evil.git" config core.fsmonitor "touch $ctl" &&
    git -C "$c/evil.git" config core.bare false &&
    git -C "$c/evil.git" config core.worktree ..
control "a new bare git directory (core.worktree set)" "$c/evil.git"

# 1. Extension off at launch (the developer may turn it on later).
lz_keep_domain || fail "gitdirs: the Domain did not start"
in_box "config.worktree" "cd /workspace &&
    git config --worktree core.fsmonitor 'touch $mark' 2>&1;
    printf '[core]\n\tfsmonitor = touch $mark\n' > .git/config.worktree ||
    echo blocked"
expect "main config.worktree cannot be written (extension off)" 0 \
    "blocked"
in_box "config" "cd /workspace && git config core.fsmonitor 'touch $mark' ||
    echo blocked"
expect "the repository's .git/config cannot be written" 0 "blocked"
[ ! -s "$proj/.git/config.worktree" ] &&
    pass "main config.worktree: empty on the host" ||
    fail "main config.worktree written: $(cat "$proj/.git/config.worktree")"
in_box "worktree admin" "cd /workspace/.git/worktrees/wt1 && n=0;
    for f in config.worktree commondir gitdir; do
    echo x > \$f 2>/dev/null || n=\$((n+1)); done;
    rm -f commondir gitdir 2>/dev/null; mv commondir c2 2>/dev/null;
    echo blocked=\$n"
expect "linked worktree's config.worktree, commondir, gitdir cannot be written, removed or renamed" 0 "blocked=3"
[ "$(cat "$proj/.git/worktrees/wt1/commondir")" = ../.. ] &&
    [ ! -s "$proj/.git/worktrees/wt1/config.worktree" ] &&
    pass "linked worktree's admin files unchanged on the host" ||
    fail "linked worktree's admin files changed"
in_box "submodule" "cd /workspace/.git/modules/sub &&
    (echo x > config.worktree) 2>/dev/null || echo cw-blocked;
    echo '$LZ_TMP/evilcommon' > commondir && echo written"
expect "submodule gitdir: config.worktree read-only, a commondir can be written" 0 \
    "cw-blocked"
moved_away "$proj/.git/modules/sub/commondir" &&
    pass "submodule gitdir: the sandbox's commondir is moved out of host git's way" ||
    fail "submodule gitdir: commondir still there"
in_box "worktree add" "cd /workspace && git worktree add -q /workspace/wt2 2>&1;
    ls /workspace/.git/worktrees"
if [ ! -e "$proj/.git/worktrees/wt2" ] && [ ! -e "$proj/wt2/.git" ]; then
	pass "git worktree add inside the sandbox fails: nothing on the host ($(tail -1 <<<"$LZ_OUT" | cut -c1-70))"
else
	fail "git worktree add made a worktree: $(ls -a "$proj/wt2" "$proj/.git/worktrees")"
fi
in_box "hand-made worktree" "cd /workspace && mkdir -p adm wt3;
    echo 'ref: refs/heads/master' > adm/HEAD; echo ../.git > adm/commondir;
    printf '[core]\n\tfsmonitor = touch $mark\n' > adm/config.worktree;
    echo 'gitdir: ../adm' > wt3/.git; echo made"
expect "the sandbox makes a worktree by hand" 0 made
moved_away "$proj/wt3/.git" && moved_away "$proj/adm/HEAD" &&
    pass "hand-made worktree: its .git and its admin directory's HEAD are moved away" ||
    fail "hand-made worktree left: $(ls -a "$proj/wt3" "$proj/adm")"
# clone_gone: the sandbox's clone is out of host git's way. Either it
# finished and its .git was moved, or the census moved its .git while
# git was still filling it: then the clone failed and git removed the
# directory it had made (CI, 2026-12-03). The second counts only when
# the coordinator's log shows the Sentry did it.
clone_gone() {
	if grep -qx cloned <<<"$LZ_OUT"; then
		moved_away "$proj/src/clone/.git"
	else
		[ ! -e "$proj/src/clone" ] &&
		    grep -q "Git Sentry (SR-4): moved .*/src/clone/.git to" \
		    "$rt/coordinator.log"
	fi
}
in_box "nested" "cd /workspace; git init -q src/evil;
    git -C src/evil config core.fsmonitor 'touch $mark';
    git clone -q /workspace src/clone 2>/dev/null && echo cloned;
    git -C src/clone config core.fsmonitor 'touch $mark' 2>/dev/null;
    git init -q --bare evil.git; git -C evil.git config core.bare false;
    git -C evil.git config core.worktree ..;
    git -C evil.git config core.fsmonitor 'touch $mark'; echo made"
expect "the sandbox makes repositories in the workspace" 0 made
moved_away "$proj/src/evil/.git" && clone_gone && moved_away "$proj/evil.git/HEAD" &&
    pass "new repositories: each .git, and the bare one's HEAD, moved out of host git's way" ||
    fail "new repositories left: $(ls -a "$proj/src/evil" "$proj/src/clone" "$proj/evil.git" 2>&1)"
ls "$proj/src/evil" | grep -q '^lazaret-quarantine-dotgit\.' &&
    pass "new repositories: kept for the developer under a quarantine name" ||
    fail "new repositories: not kept"
run git -C "$proj/src/evil" status
expect "new repositories: host git there stops (no fall-through to the workspace's repository)" 128 \
    "invalid gitfile format"
grep -q "Git Sentry (SR-4): moved .*/src/evil/.git to" "$rt/coordinator.log" &&
    pass "new repositories: the coordinator log says so" ||
    fail "new repositories: not in the coordinator log"
# The developer turns the extension on (git sparse-checkout would).
git -C "$proj" config extensions.worktreeConfig true
git -C "$proj/sub" config extensions.worktreeConfig true
host_status "extension turned on later" "$proj" "$LZ_TMP/wt1" "$proj/sub" \
    "$proj/src/evil" "$proj/src/clone" "$proj/wt3" "$proj/evil.git" "$proj/adm"
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "gitdirs: Domain left behind: $(leftovers)"

# 2. The next launch says what was moved while the Domain ran.
run "$LAZARET" run -- true
expect "the next launch lists what the watch moved" 0 \
    "since the last launch: Git Sentry \(SR-4\): moved .*/src/evil/.git"
wait_gone || fail "gitdirs: Domain left behind: $(leftovers)"

# 3. Extension on at launch: the issue's reproduction, main worktree.
lz_keep_domain || fail "gitdirs: the Domain did not start again"
in_box "repro" "cd /workspace && git config --worktree core.fsmonitor 'touch $mark';
    echo rc=\$?; git -C sub config --worktree core.fsmonitor 'touch $mark';
    echo rc=\$?"
[ "$LZ_RC" = 0 ] && [ "$(grep -c 'rc=[1-9]' <<<"$LZ_OUT")" = 2 ] &&
    pass "the issue's reproduction fails in the main worktree and the submodule ($(head -1 <<<"$LZ_ERR" | cut -c1-70))" ||
    fail "the issue's reproduction: $LZ_OUT"
host_status "extension on at launch" "$proj" "$LZ_TMP/wt1" "$proj/sub"
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "gitdirs: Domain left behind: $(leftovers)"

# 4. The developer's own untracked repository in the workspace, visible to
# the sandbox (ignored-isolation = off): mounted like .git.
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$(dirname "$cfg")"
printf '[profile default]\nignored-isolation = off\n' > "$cfg"
chmod 600 "$cfg"
lz_cleanup_hooks+=("rm -f '$cfg'")
g init -q "$proj/vendor/dev"
in_box "nested at launch" "cd /workspace/vendor/dev && n=0;
    git config core.fsmonitor 'touch $mark' 2>/dev/null || n=\$((n+1));
    echo x > .git/config.worktree 2>/dev/null || n=\$((n+1));
    printf '#!/bin/sh\ntouch $mark\n' > .git/hooks/post-checkout;
    echo x > .git/commondir; mv .git .git2 2>/dev/null || n=\$((n+1));
    echo blocked=\$n"
expect "the developer's nested repository: config, config.worktree read-only, .git pinned" 0 \
    "blocked=3"
[ ! -e "$proj/vendor/dev/.git/hooks/post-checkout" ] &&
    pass "the developer's nested repository: hooks hidden" ||
    fail "the developer's nested repository: a hook reached the host"
wait_gone || fail "gitdirs: Domain left behind: $(leftovers)"
[ ! -e "$proj/vendor/dev/.git/commondir" ] &&
    pass "the developer's nested repository: a commondir written inside is moved" ||
    fail "the developer's nested repository: commondir left"
host_status "nested repository at launch" "$proj/vendor/dev"
rm -f "$cfg"
finish
