#!/bin/bash
# test-gitlinks.sh: Git Sentry and the repositories under gitlinks (SR-4).
# Host "git status" runs git inside every gitlink's repository, reading its
# config (core.fsmonitor there is a command it runs). The developer's own
# (present at launch) are mounted like the main repository; a repository
# the sandbox puts under a gitlink is moved out of host Git's way by the
# coordinator. Real podman, runsc, git.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq git
lz_domain_project
cd "$proj" || exit 1
mark=$LZ_TMP/command-ran
gid() { git -C "$1" rev-parse HEAD; }
commit() { git -C "$1" -c user.name=t -c user.email=t@e.invalid commit -q "${@:2}"; }

# The developer's embedded repository, committed as a gitlink.
mkdir -p "$proj/vendor/own" && git -C "$proj/vendor/own" init -q &&
    echo v > "$proj/vendor/own/v" && git -C "$proj/vendor/own" add v &&
    commit "$proj/vendor/own" -m own
git -C "$proj" update-index --add --cacheinfo "160000,$(gid "$proj/vendor/own"),vendor/own"
commit "$proj" -m gitlink

lz_keep_domain || fail "gitlinks: the Domain did not start"
run "$LAZARET" run -- sh -c "git -C /workspace/vendor/own config core.fsmonitor 'touch $mark'"
[ "$LZ_RC" != 0 ] && pass "gitlinks: the developer's nested config is read-only ($(tail -1 <<<"$LZ_ERR" | cut -c1-60))" ||
    fail "gitlinks: nested config written"
run "$LAZARET" run -- mv /workspace/vendor/own/.git /workspace/vendor/own/moved
[ "$LZ_RC" != 0 ] && [ -d "$proj/vendor/own/.git" ] &&
    pass "gitlinks: the nested .git cannot be renamed away" ||
    fail "gitlinks: nested .git renamed"
run "$LAZARET" run -- sh -c "printf '#!/bin/sh\ntouch $mark\n' > /workspace/vendor/own/.git/hooks/pre-commit && echo ok"
[ ! -e "$proj/vendor/own/.git/hooks/pre-commit" ] &&
    pass "gitlinks: a nested hook written inside does not reach the host" ||
    fail "gitlinks: nested hook reached the host"

# moved_away PATH: PATH/.git moved to a quarantine name beside it, and
# what is left at PATH/.git a file git refuses.
moved_away() {
	local i
	for i in $(seq 1 40); do
		[ ! -d "$1/.git" ] && ! grep -q '^gitdir: ' "$1/.git" 2>/dev/null &&
		    ls "$1" | grep -q '^lazaret-quarantine-dotgit\.' && return 0
		sleep 0.1
	done
	return 1
}
# host_safe NAME: host git status and commit run no command of the sandbox.
host_safe() {
	git -C "$proj" status >/dev/null 2>&1
	run commit "$proj" --allow-empty -m "host $1"
	if [ "$LZ_RC" = 0 ] && [ ! -e "$mark" ]; then
		pass "gitlinks: $1: host git status and commit ran no command of the sandbox"
	else
		fail "gitlinks: $1: commit exit $LZ_RC, sandbox command ran: $([ -e "$mark" ] && echo yes || echo no)"
	fi
}

# A new gitlink over a repository of the sandbox's (without the watch, host
# git status runs its fsmonitor: checked against a build without it). The
# watch may move the new .git before the script is done (any repository
# made in the workspace is moved, gitlink or not): each step is tried.
run "$LAZARET" run -- sh -c "cd /workspace && mkdir evil && cd evil &&
    git init -q; git -c user.name=e -c user.email=e@e.invalid commit -q \
    --allow-empty -m e; git config core.fsmonitor 'touch $mark';
    cd /workspace && git update-index --add --cacheinfo \
    160000,\$(git -C evil rev-parse HEAD),evil; echo tried"
expect "gitlinks: the sandbox adds a gitlink over its own repository" 0 tried
moved_away "$proj/evil" && pass "gitlinks: its .git is moved out of host Git's way" ||
    fail "gitlinks: evil/.git still there: $(ls -a "$proj/evil")"
grep -q "Git Sentry (SR-4): moved .*/evil/.git" "$rt/coordinator.log" &&
    pass "gitlinks: the coordinator log says so" ||
    fail "gitlinks: not in the coordinator log"
host_safe "new gitlink"

# The same through a split index, which libgit2 cannot read (git can).
run "$LAZARET" run -- sh -c "cd /workspace && mkdir evil2 && cd evil2 &&
    git init -q; git -c user.name=e -c user.email=e@e.invalid commit -q \
    --allow-empty -m e; git config core.fsmonitor 'touch $mark';
    cd /workspace && git update-index --split-index --add --cacheinfo \
    160000,\$(git -C evil2 rev-parse HEAD 2>/dev/null || git rev-parse HEAD),evil2;
    ls .git | grep -c sharedindex"
expect "gitlinks: the sandbox adds one through a split index" 0 "^[1-9]"
moved_away "$proj/evil2" && pass "gitlinks: split index: its .git is moved away" ||
    fail "gitlinks: split index: evil2/.git still there"
host_safe "split index"
git -C "$proj" update-index --no-split-index

# The developer's repository renamed away and another put in its place.
run "$LAZARET" run -- sh -c "cd /workspace/vendor && mv own own2 &&
    mkdir own && cd own && git init -q;
    git config core.fsmonitor 'touch $mark'; echo replaced"
expect "gitlinks: the sandbox replaces the developer's repository" 0 replaced
moved_away "$proj/vendor/own" && pass "gitlinks: the replacement's .git is moved away" ||
    fail "gitlinks: vendor/own/.git still there"
host_safe "replaced repository"
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "gitlinks: Domain left behind: $(leftovers)"
finish
