#!/bin/bash
# test-sentry-include.sh: Git Sentry and Git configuration files in the
# workspace (SR-4, issue 12 item 2): files that include.path and
# includeIf (gitdir:, onbranch:, hasconfig:remote.*.url:) name, from the
# global or the repository's config, listed with host git, are bound
# read-only (their directories pinned), a missing one is refused unless
# the profile trusts it (trust-git-config), and bad files at those paths
# (symlink, FIFO, directory, huge, unreadable) are refused with the path
# and the fix, without hanging. Positive controls plant the same files
# from the host in a copy. Real podman, runsc, git.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq git timeout
lz_domain_project
cd "$proj" || exit 1
# Git's global file for this test only (podman keeps the real XDG dirs).
export HOME=$LZ_TMP/home
mkdir -p "$HOME"
mark=$LZ_TMP/sandbox-command-ran
ctl=$LZ_TMP/control-command-ran
g() { git -c user.name=t -c user.email=t@e.invalid "$@"; }
fsm() { printf '[core]\n\tfsmonitor = touch %s\n' "$2" > "$1"; }
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$(dirname "$cfg")"
lz_cleanup_hooks+=("rm -f '$cfg'")
profile() { printf '[profile default]\n%s\n' "$1" > "$cfg"; chmod 600 "$cfg"; }
dry() { run timeout 20 "$LAZARET" run --dry-run; }

# A team file (tracked) that the global config includes for this
# repository (the red team's includeIf gitdir:), a local one the
# repository's config includes, from a directory (config/), and ones
# whose conditions are false at launch or depend on a remote's URL.
mkdir -p config
printf '[core]\n\tautocrlf = false\n' > team.gitconfig
: > config/local.gitconfig
: > branch.gitconfig
: > remote.gitconfig
g add team.gitconfig && g commit -qm team
c=$LZ_TMP/copy
git config --global "includeIf.gitdir:$proj/.path" "$proj/team.gitconfig"
git config --global "includeIf.gitdir:$c/.path" "$c/team.gitconfig"
git config include.path ../config/local.gitconfig
git config includeIf.onbranch:evil.path ../branch.gitconfig
git config remote.origin.url https://example.invalid/x.git
git config 'includeIf.hasconfig:remote.*.url:https://example.invalid/**.path' \
    ../remote.gitconfig
# A value naming a program in the workspace: host git runs that file.
mkdir -p tools && printf '#!/bin/sh\nexit 1\n' > tools/fsmon.sh &&
    chmod +x tools/fsmon.sh && g add tools && g commit -qm tools
git config core.fsmonitor ./tools/fsmon.sh

# Positive controls: the same files planted from the host in a copy.
cp -a "$proj" "$c"
# (the copy's own core.fsmonitor would hide the global file's)
git -C "$c" config --unset core.fsmonitor
for f in team.gitconfig config/local.gitconfig remote.gitconfig; do
	fsm "$c/$f" "$ctl"
	rm -f "$ctl"
	git -C "$c" status >/dev/null 2>&1
	[ -e "$ctl" ] && pass "control: $f planted from the host: host git runs it" ||
	    fail "control: $f: host git did not run it"
	: > "$c/$f"
done
printf '#!/bin/sh\ntouch %s\nexit 1\n' "$ctl" > "$c/tools/fsmon.sh"
git -C "$c" config core.fsmonitor ./tools/fsmon.sh
rm -f "$ctl"
git -C "$c" status >/dev/null 2>&1
[ -e "$ctl" ] && pass "control: tools/fsmon.sh (core.fsmonitor) planted from the host: host git runs it" ||
    fail "control: tools/fsmon.sh: host git did not run it"
git -C "$c" config --unset core.fsmonitor
fsm "$c/branch.gitconfig" "$ctl"
rm -f "$ctl"
git -C "$c" status >/dev/null 2>&1
[ ! -e "$ctl" ] && g -C "$c" checkout -q -b evil && git -C "$c" status >/dev/null 2>&1
[ -e "$ctl" ] && pass "control: branch.gitconfig runs once on branch evil" ||
    fail "control: branch.gitconfig: host git did not run it on branch evil"

# 1. Attacks from inside.
dry
expect "dry run lists the included files read-only" 0 \
    "/workspace/team.gitconfig +<- .*team.gitconfig \(ro\)"
for f in config/local.gitconfig branch.gitconfig remote.gitconfig \
    tools/fsmon.sh; do
	grep -q "/workspace/$f .*(ro)" <<<"$LZ_OUT" && pass "dry run: $f read-only" ||
	    fail "dry run: $f not read-only"
done
lz_keep_domain || fail "include: the Domain did not start"
run "$LAZARET" run -- sh -c "cd /workspace && n=0;
    for f in team.gitconfig config/local.gitconfig remote.gitconfig; do
    printf '[core]\n\tfsmonitor = touch $mark\n' > \$f 2>/dev/null ||
    n=\$((n+1)); done; git checkout -q -b evil;
    printf '[core]\n\tfsmonitor = touch $mark\n' > branch.gitconfig 2>/dev/null ||
    n=\$((n+1)); mv config config2 2>/dev/null || n=\$((n+1));
    printf '#!/bin/sh\ntouch $mark\n' > tools/fsmon.sh 2>/dev/null ||
    n=\$((n+1)); echo blocked=\$n"
expect "include targets and the program cannot be written, nor their directory renamed away" 0 \
    "blocked=6"
git -C "$proj" status >/dev/null 2>&1
git -C "$proj" log -1 >/dev/null 2>&1
[ ! -e "$mark" ] && [ ! -s "$proj/config/local.gitconfig" ] &&
    pass "host git status on branch evil ran no command of the sandbox" ||
    fail "host git ran the sandbox's command"
git -C "$proj" checkout -q -
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "include: Domain left behind: $(leftovers)"

# 2. A missing include target in the workspace: refused, or trusted.
git config --add include.path ../missing.gitconfig
dry
expect "a missing include target is refused (dry run)" 5 \
    "'$proj/missing.gitconfig' does not exist: the sandbox could create it.*trust-git-config = missing.gitconfig"
run "$LAZARET" run -- true
expect "a missing include target is refused (launch)" 1 \
    "missing.gitconfig' does not exist"
profile "trust-git-config = missing.gitconfig"
run "$LAZARET" run -- sh -c "echo '[x]' > /workspace/missing.gitconfig && echo wrote"
expect "trust-git-config: the launch warns and the sandbox may write it" 0 \
    "missing.gitconfig' is Git configuration .* left writable because profile 'default' sets trust-git-config"
wait_gone || fail "include: Domain left behind: $(leftovers)"
rm -f "$cfg" missing.gitconfig
git config --unset include.path ../missing.gitconfig

# 3. Bad files at an include target or at .git/config.worktree: each is
# refused with its path and a fix, in bounded time, nothing followed.
git config --add include.path ../bad.gitconfig
bad() {
	local name=$1 path=$2 re=$3
	dry
	if [ "$LZ_RC" = 5 ] && grep -Eq -- "$re" <<<"$LZ_ERR"; then
		pass "bad input: $name at $path refused ($(cut -c1-90 <<<"$LZ_ERR"))"
	else
		fail "bad input: $name at $path: exit $LZ_RC"
	fi
}
ln -s team.gitconfig bad.gitconfig
bad "symlink in the workspace" bad.gitconfig "'$proj/bad.gitconfig' is a symbolic link"
rm bad.gitconfig && ln -s /etc/hostname bad.gitconfig
bad "symlink out of the workspace" bad.gitconfig "'$proj/bad.gitconfig' is a symbolic link"
rm bad.gitconfig && mkfifo bad.gitconfig
bad "FIFO" bad.gitconfig "'$proj/bad.gitconfig' is a FIFO"
rm bad.gitconfig && mkdir bad.gitconfig
bad "directory" bad.gitconfig "'$proj/bad.gitconfig' is a directory"
rmdir bad.gitconfig && truncate -s 20M bad.gitconfig
bad "huge file" bad.gitconfig "'$proj/bad.gitconfig' is 20971520 bytes, over Lazaret's limit"
rm bad.gitconfig && : > bad.gitconfig && chmod 000 bad.gitconfig
bad "unreadable file" bad.gitconfig \
    "cannot read '$proj/bad.gitconfig': Permission denied"
rm -f bad.gitconfig
git config --unset include.path ../bad.gitconfig
rm .git/config.worktree && mkfifo .git/config.worktree
bad "FIFO" .git/config.worktree "'$proj/.git/config.worktree' is a FIFO"
rm .git/config.worktree && ln -s ../team.gitconfig .git/config.worktree
bad "symlink" .git/config.worktree "'$proj/.git/config.worktree' is a symbolic link"
rm .git/config.worktree && mkdir .git/config.worktree
bad "directory" .git/config.worktree "'$proj/.git/config.worktree' is a directory"
rmdir .git/config.worktree && truncate -s 20M .git/config.worktree
bad "huge file" .git/config.worktree "'$proj/.git/config.worktree' is 20971520 bytes"
rm .git/config.worktree
# Outside the workspace too: git and libgit2 would block on a FIFO.
mkfifo "$LZ_TMP/outside.fifo"
git config --global --add include.path "$LZ_TMP/outside.fifo"
dry
expect "a FIFO include outside the workspace: refused, no hang" 5 \
    "outside.fifo' is Git configuration .*not a regular file"
finish
