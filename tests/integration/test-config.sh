#!/bin/bash
# test-config.sh: config.ini end to end: every kind of bad config gives one
# clear error with file:line and a fix and exit code 3 (5 when refused for
# safety, SR-2); a good config changes the Configuration Fingerprint.
set -u
. "$(dirname "$0")/lib.sh"

lz_fresh_env
proj=$LZ_TMP/proj
lz_make_project "$proj"
cd "$proj" || exit 1
cfg=$XDG_CONFIG_HOME/lazaret/config.ini

write() { printf "$1" > "$cfg"; chmod 600 "$cfg"; }

run "$LAZARET" domain show --json
fp_default=$(printf '%s' "$LZ_OUT" | jq -r .fingerprint)

write '[profile default]\nescalation-timeout = 60\n'
run "$LAZARET" domain show --json
fp_changed=$(printf '%s' "$LZ_OUT" | jq -r .fingerprint)
if [ "$LZ_RC" = 0 ] && [ -n "$fp_default" ] && [ "$fp_changed" != "$fp_default" ]; then
	pass "a changed value changes the fingerprint"
else
	fail "a changed value changes the fingerprint"
fi
write '; comment\n[profile default]\n\nescalation-timeout=60\n'
run "$LAZARET" domain show --json
if [ "$(printf '%s' "$LZ_OUT" | jq -r .fingerprint)" = "$fp_changed" ]; then
	pass "comments and whitespace do not change the fingerprint"
else
	fail "comments and whitespace do not change the fingerprint"
fi

write '[profile default]\nimgae = x\n'
run "$LAZARET" domain show
expect "unknown key" 3 "config\.ini:2: unknown key 'imgae'.*known:"
write '[profile default]\nallow = 10.0.0.0/8\n'
run "$LAZARET" profile list
expect "equal-prefix conflict with the RFC 1918 default" 3 \
	"config\.ini:2: allow 10\.0\.0\.0/8 conflicts with deny 10\.0\.0\.0/8 \(built-in: RFC 1918"
write '[profile default]\ndeny = 10.0.2.3/32\n'
run "$LAZARET" profile list
expect "conflict with the resolver route" 3 "conflicts with allow 10\.0\.2\.3/32 \(built-in: slirp4netns DNS"
write '[profile default]\nallow = 10.1.2.3/8\n'
run "$LAZARET" profile list
expect "bad prefix" 3 "config\.ini:2: '10\.1\.2\.3/8' has host bits set \(did you mean 10\.0\.0\.0/8\?\)"
write '[profile default]\ncommand = sh -c echo ;rm\n'
run "$LAZARET" profile list
expect "inline comment that would cut a value" 3 "config\.ini:2: ' ;' starts an inline comment.*%3B"
write "[profile default]\ncommand = echo $(printf 'x%.0s' $(seq 1 220))\n"
run "$LAZARET" profile list
expect "over-long line" 3 "config\.ini:2: line is 235 bytes long, over the limit of 198"
write '[profile default]\nfoo = 1\n[prof x]\n'
run "$LAZARET" profile list
expect "every error at once" 3 "config\.ini:3: unknown section"
write 'garbage\n'
run "$LAZARET" profile list
expect "malformed line" 3 "config\.ini:1: "
run "$LAZARET" run --dry-run
expect "run refuses a bad config too" 3 "invalid configuration"

write '[profile default]\n'
chmod 664 "$cfg"
run "$LAZARET" profile list
expect "group-writable config refused" 5 "writable by group or others.*chmod go-w"
chmod 600 "$cfg"
if [ "$(id -u)" != 0 ]; then
	chmod 000 "$cfg"
	run "$LAZARET" profile list
	expect "unreadable config" 5 "cannot read config '.*config\.ini': Permission denied"
	chmod 600 "$cfg"
else
	fail "unreadable config: this test must run as an unprivileged user"
fi

# SR-2: a config beneath the workspace is never used.
mkdir -p "$proj/.cfg/lazaret"
printf '[profile default]\n' > "$proj/.cfg/lazaret/config.ini"
chmod 600 "$proj/.cfg/lazaret/config.ini"
run env XDG_CONFIG_HOME="$proj/.cfg" "$LAZARET" run --dry-run
expect "config beneath the workspace refused (SR-2)" 5 "lies beneath the workspace.*SR-2"
# A volume that contains the config directory is refused as well.
write "[profile default]\nvolume = $HOME/.local /h ro\n"
mkdir -p "$HOME/.local"
run "$LAZARET" run --dry-run
expect "volume containing the Storage Root refused" 5 "the volume '.*/\.local' contains Lazaret's Storage Root"
write "[profile default]\nvolume = $HOME /h ro\n"
run "$LAZARET" run --dry-run
expect "volume containing the config refused (SR-2)" 5 "config '.*' lies beneath the volume"
# A workspace that contains the Storage Root (a project at \$HOME).
write '[profile default]\n'
git -C "$HOME" init -q
mkdir -p "$LZ_TMP/cfg2"
run env XDG_CONFIG_HOME="$LZ_TMP/cfg2" "$LAZARET" run --dry-run -C "$HOME"
expect "workspace containing the Storage Root refused" 5 "the workspace '.*' contains Lazaret's Storage Root"
expect_clean_stderr "config errors"

finish
