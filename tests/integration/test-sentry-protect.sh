#!/bin/bash
# test-sentry-protect.sh: Git Sentry and editor and tool files the host
# runs on its own (SR-4, issue 12 item 3; spec 3.3): with the built-in
# "protect" list, existing ones (.vscode/tasks.json, dev container,
# JetBrains run configurations) are read-only in the sandbox, their
# directories pinned, tracked ones clean in git status, while the rest of
# those directories (launch.json) stays the agent's; missing ones are not
# created, and the coordinator reports one the sandbox creates, in its log
# and at the next launch; "protect = none" and a custom list; "run
# --dry-run" and "domain show" show the list; /run/lazaret/protected says
# which setting decides; bad files at protected paths are refused or
# warned about with the path and the fix, without hanging. Real podman,
# runsc, git. No positive control: no editor or dev container CLI runs
# on these machines (docs/host-trust.md says what each runs).
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq git timeout
lz_domain_project
cd "$proj" || exit 1
g() { git -c user.name=t -c user.email=t@e.invalid "$@"; }
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
mkdir -p "$(dirname "$cfg")"
lz_cleanup_hooks+=("rm -f '$cfg'")
profile() { printf '[profile default]\n%s\n' "$1" > "$cfg"; chmod 600 "$cfg"; }
dry() { run timeout 20 "$LAZARET" run --dry-run; }
echo "control: not run: no VS Code, JetBrains IDE or devcontainer CLI here"

mkdir -p .vscode .devcontainer .idea/runConfigurations
printf '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"true","runOptions":{"runOn":"folderOpen"}}]}\n' \
    > .vscode/tasks.json
echo '{"configurations":[]}' > .vscode/launch.json
echo '{"initializeCommand":"true"}' > .devcontainer/devcontainer.json
echo '<project/>' > .idea/workspace.xml
echo '<component/>' > .idea/runConfigurations/app.xml
g add .vscode .devcontainer .idea && g commit -qm editors

# 1. What the launch will do, shown before it.
dry
expect "dry run shows the protect list" 0 \
    "protect \(SR-4\) +\.vscode/tasks\.json \.vscode/settings\.json .*\(built-in\)"
for f in .vscode/tasks.json .devcontainer/devcontainer.json .idea/workspace.xml \
    .idea/runConfigurations/app.xml; do
	grep -q "/workspace/$f .*(ro)" <<<"$LZ_OUT" && pass "dry run: $f read-only" ||
	    fail "dry run: $f is not a read-only mount"
done
grep -q "/workspace/.vscode/launch.json" <<<"$LZ_OUT" &&
    fail "dry run: launch.json mounted" || pass "dry run: launch.json left alone"
grep -q "/workspace/.vscode/settings.json" <<<"$LZ_OUT" &&
    fail "dry run: a missing settings.json mounted" ||
    pass "dry run: a missing settings.json gets no mount"
[ ! -e .vscode/settings.json ] && pass "nothing created on the host" ||
    fail "settings.json created on the host"
run "$LAZARET" domain show --json
[ "$(jq -r '.protect | index(".vscode/tasks.json") != null' <<<"$LZ_OUT")" = true ] &&
    [ "$(jq -r .protect_source <<<"$LZ_OUT")" = built-in ] &&
    pass "domain show --json: protect list and source" ||
    fail "domain show --json: $(jq -c '.protect, .protect_source' <<<"$LZ_OUT")"

# 2. Inside: the files are read-only, their directory pinned, launch.json
# the agent's, git status clean; the notice names the setting.
lz_keep_domain || fail "protect: the Domain did not start"
run "$LAZARET" run -- sh -c "cd /workspace && git status --porcelain | wc -l;
    n=0; for f in .vscode/tasks.json .devcontainer/devcontainer.json \
    .idea/workspace.xml .idea/runConfigurations/app.xml; do
    echo '{}' > \$f 2>/dev/null || n=\$((n+1)); rm -f \$f 2>/dev/null;
    done; mv .vscode .vscode2 2>/dev/null || n=\$((n+1));
    echo blocked=\$n; echo '{\"configurations\":[1]}' > .vscode/launch.json &&
    echo launch-written; cat /run/lazaret/protected"
expect "tracked protected files are clean in git status inside" 0 "^0$"
expect "protected files cannot be written, removed, or moved away with their directory" 0 \
    "blocked=5"
expect "launch.json stays the agent's" 0 launch-written
grep -q '\[1\]' .vscode/launch.json && pass "launch.json: the edit reaches the host" ||
    fail "launch.json: edit lost"
expect "/run/lazaret/protected names the setting and the file" 0 \
    "read-only +/workspace/\.vscode/tasks\.json"
grep -q "protect = .vscode/tasks.json" <<<"$LZ_OUT" &&
    pass "/run/lazaret/protected: says 'protect = ...' decides" ||
    fail "/run/lazaret/protected: no setting named"
g checkout -q .vscode/launch.json
[ -z "$(git status --porcelain)" ] && pass "host git status clean" ||
    fail "host git status: $(git status --porcelain)"

# 3. Files the sandbox creates where none was: reported, not created by
# Lazaret, not removed (the developer may have made them).
run "$LAZARET" run -- sh -c "cd /workspace &&
    echo '{\"terminal.integrated.shell.linux\":\"/tmp/x\"}' > .vscode/settings.json &&
    printf '[hooks]\nenter = \"touch /tmp/x\"\n' > mise.toml && echo made"
expect "the sandbox creates settings.json and mise.toml" 0 made
reported() {
	local i
	for i in $(seq 1 40); do
		grep -q "Git Sentry (SR-4): $proj/$1 appeared while the Domain ran" \
		    "$rt/coordinator.log" && return 0
		sleep 0.1
	done
	return 1
}
reported .vscode/settings.json && reported mise.toml &&
    pass "the coordinator reports both while the Domain runs" ||
    fail "not reported: $(grep 'Git Sentry' "$rt/coordinator.log")"
[ -f .vscode/settings.json ] && pass "the reported file is left in place" ||
    fail "the reported file was removed"
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "protect: Domain left behind: $(leftovers)"
run "$LAZARET" domain show
expect "domain show lists the record" 0 \
    "git sentry record +since the last launch: Git Sentry \(SR-4\): .*/mise.toml appeared"
run "$LAZARET" run -- true
expect "the next launch warns about each" 0 \
    "since the last launch: Git Sentry \(SR-4\): .*/\.vscode/settings\.json appeared while the Domain ran"
wait_gone || fail "protect: Domain left behind: $(leftovers)"
rm -f .vscode/settings.json mise.toml

# 4. The setting: none, or a list of the developer's.
profile "protect = none"
dry
expect "protect = none: shown" 0 "protect \(SR-4\) +none: no editor or tool file is protected"
grep -q "/workspace/.vscode/tasks.json" <<<"$LZ_OUT" &&
    fail "protect = none: tasks.json still mounted" ||
    pass "protect = none: no editor file mounted"
run "$LAZARET" run -- sh -c "echo '{}' > /workspace/.vscode/tasks.json && echo wrote"
expect "protect = none: the sandbox may write tasks.json" 0 wrote
wait_gone || fail "protect: Domain left behind: $(leftovers)"
g checkout -q .vscode/tasks.json
profile "protect = .vscode/launch.json tools/*.sh"
mkdir -p tools && echo 'echo hi' > tools/build.sh
dry
grep -q "/workspace/.vscode/launch.json .*(ro)" <<<"$LZ_OUT" &&
    grep -q "/workspace/tools/build.sh .*(ro)" <<<"$LZ_OUT" &&
    ! grep -q "/workspace/.vscode/tasks.json" <<<"$LZ_OUT" &&
    pass "a custom protect list replaces the built-in one (globs too)" ||
    fail "custom protect list: $(grep workspace <<<"$LZ_OUT")"
profile "protect = ../escape"
dry
expect "a protect path out of the workspace is refused" 3 \
    "protect '../escape' must be a path relative to the workspace"
rm -rf tools "$cfg"

# 5. A hook framework's file: what the host's hook runs on commit. The
# hook stands in for pre-commit's (same marker; it runs the file itself).
printf '#!/bin/sh\n# File generated by pre-commit: https://pre-commit.com\nsh "$(git rev-parse --show-toplevel)/.pre-commit-config.yaml"\n' \
    > .git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
echo true > .pre-commit-config.yaml
g add .pre-commit-config.yaml && g commit -qm hooks
mark=$LZ_TMP/sandbox-command-ran
ctl=$LZ_TMP/control-command-ran
c=$LZ_TMP/copy
cp -a "$proj" "$c"
echo "touch $ctl" > "$c/.pre-commit-config.yaml"
g -C "$c" commit -q --allow-empty -m x
[ -e "$ctl" ] && pass "control: .pre-commit-config.yaml planted from the host: the host's hook runs it" ||
    fail "control: the hook did not run the planted file"
run "$LAZARET" run -- sh -c "echo 'touch $mark' > /workspace/.pre-commit-config.yaml || echo blocked"
expect "a hook framework's file is read-only inside" 0 blocked
g commit -q --allow-empty -m y
[ ! -e "$mark" ] && pass "host git commit ran no command of the sandbox" ||
    fail "host git commit ran the sandbox's command"
wait_gone || fail "protect: Domain left behind: $(leftovers)"

# 6. A PATH entry in the workspace (direnv's PATH_add bin): Lazaret never
# runs a program from it (podman at teardown, git), and says so.
mkdir -p bin
PATH="$proj/bin:$PATH" run "$LAZARET" run -- sh -c "
    printf '#!/bin/sh\ntouch $mark\nexec /usr/bin/podman \"\$@\"\n' > /workspace/bin/podman &&
    printf '#!/bin/sh\ntouch $mark\nexec /usr/bin/git \"\$@\"\n' > /workspace/bin/git &&
    chmod +x /workspace/bin/podman /workspace/bin/git && echo planted"
expect "the sandbox plants podman and git in a PATH directory; a warning says so" 0 \
    "warning: PATH holds '$proj/bin', in the workspace"
wait_gone || fail "protect: Domain left behind: $(leftovers)"
PATH="$proj/bin:$PATH" run "$LAZARET" run -- true
wait_gone || fail "protect: Domain left behind: $(leftovers)"
if [ ! -e "$mark" ] && ! grep -q "$proj/bin/" "$rt/coordinator.log" &&
    ! grep -q "$proj/bin/" <<<"$LZ_ERR"; then
	pass "Lazaret ran neither the planted podman nor git (teardown, next start)"
else
	fail "Lazaret ran (or tried) a program the sandbox planted: $(grep "$proj/bin/" "$rt/coordinator.log" | head -1)"
fi
PATH="$proj/bin:$PATH" podman --version >/dev/null 2>&1
[ -e "$mark" ] && pass "control: a shell with that PATH runs the planted podman" ||
    fail "control: the planted podman did not run"
rm -f "$mark"
rm -rf bin
g rm -q --cached .pre-commit-config.yaml && rm -f .pre-commit-config.yaml .git/hooks/pre-commit &&
    g commit -qm unhook

# 7. Bad files at a protected path.
bad() {
	local name=$1 rc=$2 re=$3
	dry
	if [ "$LZ_RC" = "$rc" ] && grep -Eq -- "$re" <<<"$LZ_ERR$LZ_OUT"; then
		pass "bad input: $name ($(grep -E -- "$re" <<<"$LZ_ERR$LZ_OUT" | head -1 | cut -c1-80))"
	else
		fail "bad input: $name: exit $LZ_RC"
	fi
}
ln -s ../../etc/passwd .vscode/settings.json
bad "a symlink at settings.json is refused" 5 \
    "'$proj/\.vscode/settings\.json' is a symbolic link .*leave it out of 'protect'"
rm .vscode/settings.json && mkfifo .vscode/settings.json
bad "a FIFO is refused, no hang" 5 "'$proj/\.vscode/settings\.json' is a FIFO"
rm .vscode/settings.json && mkdir .vscode/settings.json
bad "a directory is refused" 5 "'$proj/\.vscode/settings\.json' is a directory"
rmdir .vscode/settings.json && truncate -s 20M .vscode/settings.json
bad "a huge file: a warning, mounted read-only" 0 \
    "'$proj/\.vscode/settings\.json' is 20971520 bytes, unusually large"
: > .vscode/settings.json && chmod 000 .vscode/settings.json
bad "an unreadable file: a warning" 0 \
    "'$proj/\.vscode/settings\.json' cannot be read .*mounted read-only as it is"
rm -f .vscode/settings.json
mv .devcontainer "$LZ_TMP/devc" && ln -s "$LZ_TMP/devc" .devcontainer
bad "a symlinked directory on the way is refused" 5 \
    "'$proj/\.devcontainer' is a symbolic link"
finish
