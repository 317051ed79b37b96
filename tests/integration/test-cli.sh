#!/bin/bash
# test-cli.sh: the lazaret command line as a user meets it: help, version,
# usage errors and exit codes, profile and domain commands with --json,
# run --dry-run, and the bad environments the foundation issue lists.
set -u
. "$(dirname "$0")/lib.sh"

lz_fresh_env
proj=$LZ_TMP/proj
lz_make_project "$proj"
cd "$proj" || exit 1

run "$LAZARET" --help
expect "--help lists the commands" 0 'doctor.*'
run "$LAZARET" --version
expect "--version" 0 '^lazaret [0-9]+\.[0-9]+\.[0-9]+'
run "$LAZARET" frobnicate
expect "unknown command is a usage error" 2 "unknown command 'frobnicate'"
run "$LAZARET" --frob
expect "unknown option is a usage error" 2 "unknown option '--frob'"
run "$LAZARET" attach --json
expect "--json on a command that prints no data is a usage error" 2 \
    "attach: --json is not an option of this command"
run "$LAZARET" profile
expect "profile without verb prints usage" 2 'usage: lazaret profile'
run "$LAZARET" domain show --bogus
expect "bad option prints usage" 2 'usage: lazaret domain'

run "$LAZARET" profile list
expect "profile list shows the built-in default" 0 '^\* default +built-in'
run "$LAZARET" profile list --json
if [ "$LZ_RC" = 0 ] && [ "$(printf '%s' "$LZ_OUT" | jq -r '.[0].name')" = default ]; then
	pass "profile list --json is JSON"
else
	fail "profile list --json is JSON"
fi
run "$LAZARET" profile show default
expect "profile show default" 0 'deny  10\.0\.0\.0/8 +built-in: RFC 1918'
run "$LAZARET" profile show nope
expect "profile show of an unknown profile" 3 "no profile 'nope'"

run "$LAZARET" domain show --json
id=$(printf '%s' "$LZ_OUT" | jq -r .domain_id)
fp=$(printf '%s' "$LZ_OUT" | jq -r .fingerprint)
if [ "$LZ_RC" = 0 ] && [[ $id =~ ^[0-9a-f]{16}$ ]] && [[ $fp =~ ^[0-9a-f]{64}$ ]] &&
	[ "$(printf '%s' "$LZ_OUT" | jq -r .workspace)" = "$(realpath "$proj")" ] &&
	[ "$(printf '%s' "$LZ_OUT" | jq -r .runtime_dir)" = "$XDG_RUNTIME_DIR/lazaret/$id" ]; then
	pass "domain show --json: 16-hex ID, fingerprint, workspace, runtime dir"
else
	fail "domain show --json: 16-hex ID, fingerprint, workspace, runtime dir"
fi
expect_clean_stderr "domain show"

# The same Domain from a subdirectory and through a symlink (FR-1).
mkdir -p "$proj/sub/dir"
ln -s "$proj" "$LZ_TMP/link"
run "$LAZARET" domain show --json -C "$proj/sub/dir"
id_sub=$(printf '%s' "$LZ_OUT" | jq -r .domain_id)
run "$LAZARET" domain show --json -C "$LZ_TMP/link"
id_link=$(printf '%s' "$LZ_OUT" | jq -r .domain_id)
if [ -n "$id" ] && [ "$id_sub" = "$id" ] && [ "$id_link" = "$id" ]; then
	pass "subdirectory and symlink name the same Domain"
else
	fail "subdirectory ($id_sub) and symlink ($id_link) differ from $id"
fi
printf '[profile other]\n' > "$XDG_CONFIG_HOME/lazaret/config.ini"
run "$LAZARET" domain show --json -p other
id_other=$(printf '%s' "$LZ_OUT" | jq -r .domain_id)
if [ "$LZ_RC" = 0 ] && [ "$id_other" != "$id" ]; then
	pass "another profile is another Domain"
else
	fail "another profile is another Domain ($id_other vs $id)"
fi
rm -f "$XDG_CONFIG_HOME/lazaret/config.ini"

run "$LAZARET" run --dry-run
expect "run --dry-run prints the plan" 0 'tmpfs +/workspace/\.git/hooks'
run "$LAZARET" run --dry-run --json -- /bin/sh -c 'echo hi'
if [ "$LZ_RC" = 0 ] && [ "$(printf '%s' "$LZ_OUT" | jq -r '.command | join(" ")')" = "/bin/sh -c echo hi" ] &&
	[ "$(printf '%s' "$LZ_OUT" | jq -r '.mounts[2].target + " " + (.mounts[2].readonly|tostring)')" = "/workspace/.git/config true" ]; then
	pass "run --dry-run --json: command override and read-only .git/config"
else
	fail "run --dry-run --json: command override and read-only .git/config"
fi
run "$LAZARET" run --json
expect "run --json without --dry-run is a usage error" 2 'goes with --dry-run'

# An unset XDG_RUNTIME_DIR: /run/user/UID as podman does, when it is the
# user's and 0700 (set-up makes it); otherwise the refusal says why.
own=/run/user/$(id -u)
if [ -d "$own" ] && [ ! -L "$own" ] && [ "$(stat -c '%u %a' "$own")" = "$(id -u) 700" ]; then
	for how in unset empty; do
		if [ $how = unset ]; then
			run env -u XDG_RUNTIME_DIR "$LAZARET" domain show --json
		else
			run env XDG_RUNTIME_DIR= "$LAZARET" domain show --json
		fi
		if [ "$LZ_RC" = 0 ] && [ "$(jq -r .runtime_dir <<<"$LZ_OUT")" = "$own/lazaret/$id" ]; then
			pass "XDG_RUNTIME_DIR $how: $own is used ($own/lazaret/$id)"
		else
			fail "XDG_RUNTIME_DIR $how: $own not used"
		fi
	done
	lz_cleanup_hooks+=("chmod 0700 '$own'")
	chmod 0750 "$own"
	run env -u XDG_RUNTIME_DIR "$LAZARET" domain show
	chmod 0700 "$own"
	expect "XDG_RUNTIME_DIR unset and $own mode 0750: refused, saying why" 4 \
	    "XDG_RUNTIME_DIR is not set, and $own has mode 0750, not 0700"
else
	echo "NOTE $LZ_TEST_NAME: $own is not $(id -un)'s with mode 0700: its fallback is not checked here"
fi

# Auto-approve rules: a rule with "..." or a program that runs code is
# warned about at load and marked in profile show; the program is shown
# resolved to its host path (SR-8).
printf '[profile r]\nauto-approve = git fetch origin\nauto-approve = git log ...\nauto-approve = sh -c true\n' \
    > "$XDG_CONFIG_HOME/lazaret/config.ini"
run "$LAZARET" profile show r
expect "profile show: a '...' rule is marked" 0 '! it allows any trailing arguments, and options can run commands'
expect "profile show: a shell rule is marked" 0 "! 'sh' runs code it is given"
expect "profile show: the program's host path" 0 'program /[^ ]*/git$'
expect "load-time warning names file:line" 0 "lazaret: warning: .*config.ini:3: auto-approve 'git log \.\.\.'"
if grep -q 'config.ini:2' <<<"$LZ_ERR"; then
	fail "an exact rule is not warned about"
else
	pass "an exact rule is not warned about"
fi
rm -f "$XDG_CONFIG_HOME/lazaret/config.ini"

# lazaret audit: nothing yet, then a record whose argv and justification
# carry ANSI, OSC, bidi and a newline: shown escaped, whole, on one line
# each; --json gives the records back as JSON lines; a bad line is named.
run "$LAZARET" audit
expect "audit of a Domain with no escalations" 0 '^no escalation requests recorded for Domain [0-9a-f]{16}$'
root=$(printf '%s' "$("$LAZARET" domain show --json)" | jq -r .domain_root)
(umask 077 && mkdir -p "$root")
printf '%s\n' '{"argv":["git","push","\u001B[2J\u001B]0;x\u0007\u202Emain"],"command":"bash","cwd":"/workspace","host_cwd":"/w","id":"0123456789abcdef0123456789abcdef","kind":"request","pane":1,"profile":"default","session":"00112233445566778899aabbccddeeff","t":1796126400123,"v":1,"why":"need\nProfile: trusted"}' \
    'not a record' \
    '{"by":"timeout","decision":"timeout","edited":false,"id":"0123456789abcdef0123456789abcdef","kind":"decision","t":1796126401123,"v":1}' \
    '{"duration_ms":300000,"id":"0123456789abcdef0123456789abcdef","kind":"result","outcome":"timed-out","reason":"nobody answered","t":1796126402123,"v":1}' \
    > "$root/audit.jsonl"
run "$LAZARET" audit
expect "audit shows the argv escaped" 0 'argv: "git" "push" "\\x1b\[2J\\x1b\]0;x\\x07\\u202emain"'
expect "audit shows the agent's words escaped" 0 'why \(the agent.s words\): "need\\nProfile: trusted"'
expect "audit shows a timeout as its own outcome" 0 'timed-out, 300000 ms'
expect "audit names a line it skipped" 0 'skipped a record: audit.jsonl:2:'
if LC_ALL=C grep -q $'[\x1b\x07\x80-\xff]' <<<"$LZ_OUT"; then
	fail "audit output holds a raw control or non-ASCII byte"
else
	pass "audit output holds no raw control or non-ASCII byte"
fi
run "$LAZARET" audit --json
if [ "$LZ_RC" = 0 ] && [ "$(printf '%s\n' "$LZ_OUT" | jq -s 'length')" = 3 ] &&
	[ "$(printf '%s\n' "$LZ_OUT" | jq -rs '.[2].outcome')" = timed-out ] &&
	[ "$(printf '%s\n' "$LZ_OUT" | jq -js '.[0].argv[2]' | od -An -tx1 | tr -d ' \n')" = 1b5b324a1b5d303b7807e280ae6d61696e ]; then
	pass "audit --json: JSON lines, argv bytes intact"
else
	fail "audit --json: JSON lines, argv bytes intact ($LZ_OUT)"
fi

# Bad environments: each one clear error naming the fix.
run env -u HOME -u XDG_CONFIG_HOME "$LAZARET" domain show
expect "missing HOME" 4 'HOME is not set'
mkdir -p "$LZ_TMP/plain"
run "$LAZARET" domain show -C "$LZ_TMP/plain"
expect "non-Git directory" 4 "is not inside a Git project.*git init"
run "$LAZARET" domain show -C "$LZ_TMP/missing"
expect "missing directory" 4 "cannot use '.*missing' as the workspace"

# Runtime directory checks (SR-10): symlinked, loose mode.
rt2=$LZ_TMP/run2
mkdir -p -m 700 "$rt2" "$LZ_TMP/elsewhere"
ln -s "$LZ_TMP/elsewhere" "$rt2/lazaret"
run env XDG_RUNTIME_DIR="$rt2" "$LAZARET" run
expect "symlinked runtime dir refused" 5 "is a symbolic link"
rm "$rt2/lazaret"
mkdir -m 755 "$rt2/lazaret"
chmod 755 "$rt2/lazaret"
run env XDG_RUNTIME_DIR="$rt2" "$LAZARET" run
expect "runtime dir with mode 0755 refused" 5 "mode 0755.*chmod 700"

finish
