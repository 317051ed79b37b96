#!/bin/bash
# test-ignored-scale.sh: Ignored Workspace State at real scale (issue 16;
# SR-13): an untrusted agent prepends 80 directory names to .gitignore,
# un-ignores .env and commits: the Domain still starts (the limit is
# 4096 paths, the sandbox's /workspace one view: core/ws-view.h) and .env
# stays isolated (the set never shrinks); a flood past the limit stops the
# launch with advice naming the paths recorded last and "lazaret state
# reset --ignored --forget-paths", which then recovers after showing that
# .env would be shared; a flood of rules fails at once instead of after
# minutes; a 200-package monorepo fixture (400 ignored node_modules/ and
# dist/ beside tracked files) starts with every one isolated.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq
lz_domain_project
cd "$proj" || exit 1
printf 'node_modules/\n.env\n' > .gitignore
git add .gitignore && git -c user.name=t -c user.email=t@example.invalid commit -qm ignore
printf 'SECRET=host-only\n' > .env
mkdir -p node_modules/dep && echo host > node_modules/dep/host-file
git_in='git -c user.name=agent -c user.email=agent@example.invalid'

# 1. The 80-name flood by the agent, with .env un-ignored.
run "$LAZARET" run -- sh -c "seq -f 'flood%03g/' 1 80 > /tmp/g && grep -v '^.env\$' .gitignore >> /tmp/g &&
    cp /tmp/g .gitignore && $git_in commit -qam 'more ignores' && echo E=sandbox > .env && echo done"
expect "the agent floods .gitignore with 80 names and un-ignores .env" 0 "^done$"
[ "$(cat .env)" = SECRET=host-only ] && pass "the write to .env stayed in the sandbox" ||
    fail "the sandbox wrote the host's .env"
run "$LAZARET" run -- sh -c 'cat .env; ls node_modules | wc -l; test -d flood080 && echo flood-ok'
if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *E=sandbox* ]] && [[ $LZ_OUT != *host-only* ]] &&
    [[ $LZ_OUT == *flood-ok* ]]; then
	pass "SR-13: after the flood the Domain starts and .env stays isolated (the set never shrinks)"
else
	fail "after the 80-name flood: rc $LZ_RC, $LZ_OUT"
fi
if wait_gone; then pass "teardown unmounted the workspace view and the anchors"
else fail "teardown: $(leftovers)"; fi

# 2. A flood past the limit: the launch stops and says how to recover.
run "$LAZARET" run -- sh -c "seq -f 'big%05g/' 1 4200 > /tmp/g && cat .gitignore >> /tmp/g && cp /tmp/g .gitignore &&
    $git_in commit -qam 'even more' && echo done"
expect "the agent adds 4200 more names" 0 "^done$"
run "$LAZARET" run -- true
expect "past the limit the launch stops" 1 "more than the 4096 mounts"
expect "the error names the paths that pushed it over" 1 "pushed it over: '(big|flood)[0-9]+/'"
expect "the error names the command that recovers" 1 "lazaret state reset --ignored --forget-paths"
# The developer restores .gitignore, but keeps the agent's un-ignoring
# of .env by mistake: the reset must show that .env would be shared.
printf 'node_modules/\n' > .gitignore
git -c user.name=t -c user.email=t@example.invalid commit -qam restore
run "$LAZARET" run -- true
expect "restoring .gitignore is not enough: the record keeps the flood" 1 "pushed it over"
run "$LAZARET" state reset --ignored --forget-paths --yes
expect "reset --ignored --forget-paths" 0 "forgotten"
expect "it says what the next launch would share" 0 "the next launch SHARES these host paths"
expect "it names .env there, with its size on the host" 0 "^  \.env \(on the host: a file, 17 bytes\)$"
[ ! -e "$droot/ignored.json" ] && [ ! -e "$droot/ignored" ] &&
    pass "the record and the content are gone" || fail "left: $(ls "$droot")"
run "$LAZARET" run -- sh -c 'cat .env; ls node_modules'
if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *SECRET=host-only* ]] && [[ $LZ_OUT != *dep* ]]; then
	pass "the Domain starts again: .env shared as the developer accepted, node_modules isolated"
else
	fail "after the recovery: rc $LZ_RC, $LZ_OUT"
fi

# 3. A flood of rules fails at once.
seq -f 'rule%06g/' 1 20000 > .gitignore
t0=$SECONDS
run "$LAZARET" run -- true
if [ "$LZ_RC" = 1 ] && [[ $LZ_ERR == *"more than 8192 rules"* ]] && [ $((SECONDS - t0)) -lt 30 ]; then
	pass "20000 rules: refused in $((SECONDS - t0)) s, naming the way back"
else
	fail "20000 rules: rc $LZ_RC after $((SECONDS - t0)) s: $LZ_ERR"
fi
git checkout -q -- .gitignore

# 4. A 200-package monorepo: 400 ignored paths beside tracked files.
mono=$LZ_TMP/mono
lz_monorepo "$mono" 200
idm=$(cd "$mono" && "$LAZARET" domain show --json | jq -r .domain_id)
lz_domain_id_ok "$idm" || { finish; exit 1; }
drootm=$XDG_DATA_HOME/lazaret/domains/$idm
lz_cleanup_hooks+=("lz_domain_remove $idm")
run env -C "$mono" "$LAZARET" run -- sh -c 'cat packages/p001/node_modules/dep/host-file packages/p200/dist/host-file 2>&1 | grep -c "No such file";
    cat packages/p150/src/index.js; echo built > packages/p150/dist/out; echo inside > packages/p007/node_modules/dep2;
    grep -c " /workspace" /proc/self/mountinfo'
if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == 2$'\n'"src 150"* ]] && [ ! -e "$mono/packages/p150/dist/out" ] &&
    [ ! -e "$mono/packages/p007/node_modules/dep2" ]; then
	pass "monorepo: 200 packages start; node_modules and dist are isolated, sources shared"
else
	fail "monorepo: rc $LZ_RC, out: $LZ_OUT"
fi
# 400 in the packages, and the two top-level entries of .gitignore.
[ "$(jq length "$drootm/view.json")" = 402 ] && pass "monorepo: 402 paths isolated through one view" ||
    fail "monorepo: $(jq length "$drootm/view.json") paths in the view"
expect_clean_stderr "ignored at scale"
finish
