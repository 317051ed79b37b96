# lib.sh: shared helpers of the integration tests (bash). Each test script
# sources it, calls check/expect_* and ends with "finish", which prints the
# script's closing line "NAME: N passed, N failed" and sets the exit code.
#
# Environment: LZ_BIN is the directory with the lazaret binaries under test
# (default: the ASan build); tests run as the unprivileged account they are
# started as (scripts/test.sh starts them as the test account).

LZ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib/account.sh
. "$LZ_ROOT/tests/lib/account.sh"
# shellcheck source=tests/lib/containers.sh
. "$LZ_ROOT/tests/lib/containers.sh"
LZ_BIN=$(realpath "${LZ_BIN:-$LZ_ROOT/build/asan}")
LAZARET=$LZ_BIN/lazaret
LZ_TEST_NAME=$(basename "$0" .sh)
lz_passed=0
lz_failed=0
LZ_OUT=""
LZ_ERR=""
LZ_RC=0

. "$LZ_ROOT/tests/integration/fixtures.sh"

LZ_TMP=$(mktemp -d "/tmp/lz-it-$LZ_TEST_NAME.XXXXXX")
chmod 700 "$LZ_TMP"
lz_cleanup_hooks=()
# The pairs a clean end prepares for the next start (created, never run)
# stay when their Domain Roots go with LZ_TMP: those this script's Domains
# made are removed at its end, the account's others left alone (podman
# of the account's own storage: lz_fresh_env moves XDG_DATA_HOME).
lz_podman_env=(env HOME="$HOME" XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$HOME/.config}"
    XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}")
lz_prepared_before=$(lz_prepared_containers "" "${lz_podman_env[@]}" |
    awk '{ print $1 }')
lz_cleanup() {
	local h c d n=0
	for h in "${lz_cleanup_hooks[@]}"; do eval "$h" || true; done
	# A teardown still under way makes its pair after the client
	# returned: wait (30 s at most in all) for every lifecycle lock.
	for d in "${XDG_RUNTIME_DIR:-/nonexistent}"/lazaret/*/; do
		[ -e "$d/lifecycle.lock" ] || continue
		while [ $n -lt 150 ] &&
		    ! flock -n "$d/lifecycle.lock" true 2>/dev/null; do
			sleep 0.2
			n=$((n + 1))
		done
	done
	for c in $(lz_prepared_containers "" "${lz_podman_env[@]}" |
	    awk '{ print $1 }'); do
		# --depend: a sidecar goes with the sandbox on its network.
		grep -qx "$c" <<<"$lz_prepared_before" ||
		    "${lz_podman_env[@]}" podman rm -f -t 0 --depend "$c" \
		    >/dev/null 2>&1 || true
	done
	rm -rf "$LZ_TMP"
}
trap lz_cleanup EXIT

pass() { lz_passed=$((lz_passed + 1)); echo "PASS $LZ_TEST_NAME: $*"; }
fail() {
	lz_failed=$((lz_failed + 1))
	echo "FAIL $LZ_TEST_NAME: $*"
	[ -n "$LZ_OUT" ] && printf '  stdout: %s\n' "${LZ_OUT:0:2000}"
	[ -n "$LZ_ERR" ] && printf '  stderr: %s\n' "${LZ_ERR:0:2000}"
	return 0
}

# A private environment of XDG directories: each test gets its own home.
lz_fresh_env() {
	export HOME=$LZ_TMP/home
	export XDG_CONFIG_HOME=$HOME/.config
	export XDG_DATA_HOME=$HOME/.local/share
	mkdir -p "$HOME" "$XDG_CONFIG_HOME/lazaret"
	chmod 700 "$HOME"
	if [ -z "${LZ_KEEP_RUNTIME:-}" ]; then
		export XDG_RUNTIME_DIR=$LZ_TMP/run
		mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	fi
}

# A Git project with one commit.
lz_make_project() {
	local dir=$1
	mkdir -p "$dir"
	git -C "$dir" init -q
	echo "demo" > "$dir/README"
	printf 'node_modules/\n' > "$dir/.gitignore"
	git -C "$dir" add README .gitignore
	git -C "$dir" -c user.name=t -c user.email=t@example.invalid \
		commit -qm init
}

# leftovers: what a Domain left behind, using the caller's $id (Domain ID),
# $rt (runtime directory) and $droot (Domain Root): its containers (but
# the pair prepared for its next start: created, never started; see
# tests/lib/containers.sh), its control socket, anchor mounts in podman's
# namespace. Silent when none.
leftovers() {
	local live
	live=$(lz_live_containers "$id")
	# What they are and where the coordinator got to, for the failure.
	[ -z "$live" ] || { echo "containers: $(wc -l <<<"$live") ($(tr '\n' ' ' \
	    <<<"$live")); coordinator log: $(tail -3 "$rt/coordinator.log" \
	    2>/dev/null | cut -c1-200 | tr '\n' ' ')"; return 1; }
	[ ! -S "$rt/control.sock" ] || { echo "socket left"; return 1; }
	! podman unshare grep -Eq "$droot/(anchors|view)" /proc/self/mountinfo ||
	    { echo "anchor or workspace view mounts left"; return 1; }
}
# wait_gone: waits up to 30 s for leftovers to find nothing.
wait_gone() {
	local i
	for i in $(seq 1 150); do
		leftovers >/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# lz_apt_repo DIR: a local APT repository in DIR (no network) holding one
# package, lzhello 1.0 (/usr/bin/lzhello prints "hello from lzhello"), for
# a profile to offer read-only ("volume = DIR /repo ro"; see
# lz_volume_line); LZ_APT_INSTALL is the sandbox's shell command that
# installs it from /repo with apt-get.
lz_apt_repo() {
	local repo=$1
	mkdir -p "$repo/pkg/DEBIAN" "$repo/pkg/usr/bin"
	printf '#!/bin/sh\necho hello from lzhello\n' > "$repo/pkg/usr/bin/lzhello"
	chmod 755 "$repo/pkg/usr/bin/lzhello"
	printf 'Package: lzhello\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@example.invalid>\nDescription: test package\n' > "$repo/pkg/DEBIAN/control"
	dpkg-deb --build --root-owner-group "$repo/pkg" "$repo/lzhello_1.0_all.deb" >/dev/null
	(cd "$repo" && dpkg-scanpackages --multiversion . /dev/null 2>/dev/null > Packages)
	chmod -R a+rX "$repo"
	[ -s "$repo/Packages" ]
}
LZ_APT_OPTS='-o Dir::Etc::SourceList=/tmp/local.list -o Dir::Etc::SourceParts=- -o APT::Sandbox::User=root'
LZ_APT_INSTALL="echo 'deb [trusted=yes] file:/repo ./' > /tmp/local.list && apt-get $LZ_APT_OPTS update >/dev/null 2>&1 && apt-get $LZ_APT_OPTS install -y lzhello >/dev/null 2>&1"
# lz_volume_line DIR: the profile line offering DIR read-only at /repo
# (spaces escaped as the config syntax wants).
lz_volume_line() {
	printf 'volume = %s /repo ro\n' "$(printf %s "$1" | sed 's/ /%20/g')"
}

# lz_require TOOL...: each must be installed. Under CI a missing one is a
# failure; elsewhere the script is skipped (it exits, printing why).
lz_require() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null && continue
		if [ "${CI:-}" = true ]; then
			fail "$t is required"
			finish
			exit 1
		fi
		echo "${LZ_TEST_NAME#test-}: 0 passed, 0 failed, 1 skipped (no $t)"
		exit 0
	done
}

# lz_domain_id_ok ID: fails (and says so) unless ID is a Domain ID; guards
# the clean-up hooks that remove a Domain Root by its ID.
lz_domain_id_ok() {
	[[ $1 =~ ^[0-9a-f]{16}$ ]] && return 0
	fail "not a Domain ID: '$1'"
	return 1
}

# lz_new_domain DIR: a fresh project DIR; its Domain's ID, runtime
# directory and Domain Root in $lz_new_id, $lz_new_rt and $lz_new_root,
# and cleanup of its containers and Domain Root at exit.
lz_new_domain() {
	lz_make_project "$1"
	lz_new_id=$(cd "$1" && "$LAZARET" domain show --json | jq -r .domain_id)
	lz_domain_id_ok "$lz_new_id" || { finish; exit 1; }
	lz_new_rt=$XDG_RUNTIME_DIR/lazaret/$lz_new_id
	lz_new_root=$XDG_DATA_HOME/lazaret/domains/$lz_new_id
	lz_cleanup_hooks+=("lz_domain_remove $lz_new_id")
}

# lz_domain_project: a fresh project $proj in the account's real XDG
# directories (podman keeps its storage there), its Domain's $id, $rt and
# $droot, and cleanup of its containers and Domain Root at exit.
lz_domain_project() {
	export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
	export XDG_DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
	rm -f "$XDG_CONFIG_HOME/lazaret/config.ini"
	proj=$LZ_TMP/proj
	lz_new_domain "$proj"
	# After the Domain's removal: the test's profile is not left for the
	# account's next user.
	lz_cleanup_hooks+=("rm -f '$XDG_CONFIG_HOME/lazaret/config.ini'")
	id=$lz_new_id rt=$lz_new_rt droot=$lz_new_root
}

# lz_domain_remove ID: at exit, the Domain ID of this account goes: its
# teardown waited for (up to 30 s), containers removed, its anchors and
# workspace view unmounted, its Domain Root removed.
lz_domain_remove() {
	local id=$1 i root
	lz_domain_id_ok "$id" || return 0
	root=$XDG_DATA_HOME/lazaret/domains/$id
	for i in $(seq 1 150); do
		flock -n "$XDG_RUNTIME_DIR/lazaret/$id/lifecycle.lock" true 2>/dev/null && break
		sleep 0.2
	done
	# The sandboxes first: in one "podman rm" a sidecar named before the
	# sandbox on its network is refused and stays, alone.
	podman ps -a -q --filter "label=lazaret.domain=$id" \
	    --filter label=lazaret.role=sandbox | xargs -r podman rm -f -t 0 >/dev/null 2>&1
	podman ps -a -q --filter "label=lazaret.domain=$id" | xargs -r podman rm -f -t 0 >/dev/null 2>&1
	podman unshare "$LAZARET" __anchor umount -u "$root/anchors" -w "$root/view" >/dev/null 2>&1
	podman unshare rm -rf "$root"
}

# lz_keep_domain: starts the Domain of lz_domain_project with a session
# that keeps it up ($keeper, "sleep 60", killed at exit) and waits for its
# control socket.
lz_keep_domain() {
	local i
	"$LAZARET" run -- sleep 60 </dev/null >/dev/null 2>&1 &
	keeper=$!
	lz_cleanup_hooks+=("kill $keeper 2>/dev/null")
	for i in $(seq 1 150); do
		[ -S "$rt/control.sock" ] && return 0
		sleep 0.2
	done
	return 1
}

# lz_tmux SESSION: a private tmux server for driving a terminal: tm runs a
# tmux command on it, wait_for REGEX [SECONDS] polls SESSION's screen until
# a line matches (and prints the screen when it never does), gone REGEX
# [SECONDS] until none does. The server is killed at exit.
lz_tmux() {
	lz_tmux_sock=lz-$LZ_TEST_NAME-$$
	lz_tmux_target=$1
	lz_cleanup_hooks+=("tmux -L $lz_tmux_sock kill-server 2>/dev/null")
}
tm() { tmux -L "$lz_tmux_sock" -f /dev/null "$@"; }
wait_for() {
	local i n=$(( ${2:-60} * 20 ))
	for i in $(seq 1 "$n"); do
		tm capture-pane -p -t "$lz_tmux_target" | grep -Eq -- "$1" && return 0
		sleep 0.05
	done
	tm capture-pane -p -t "$lz_tmux_target" | sed 's/^/  | /'
	return 1
}
# pane_lazaret: the pid of the lazaret process that the shell in
# SESSION's pane runs (empty when there is none).
pane_lazaret() {
	pgrep -P "$(tm display-message -p -t "$lz_tmux_target" '#{pane_pid}')" \
	    -x lazaret | head -1
}
# type_line TEXT: types TEXT and Enter into SESSION's focused pane.
type_line() {
	tm send-keys -t "$lz_tmux_target" -l "$1"
	tm send-keys -t "$lz_tmux_target" Enter
}
gone() {
	local i n=$(( ${2:-10} * 20 ))
	for i in $(seq 1 "$n"); do
		tm capture-pane -p -t "$lz_tmux_target" | grep -Eq -- "$1" || return 0
		sleep 0.05
	done
	return 1
}

# run CMD...: runs it, keeping stdout, stderr and the exit code.
run() {
	local o e
	o=$(mktemp "$LZ_TMP/out.XXXXXX")
	e=$(mktemp "$LZ_TMP/err.XXXXXX")
	LZ_RC=0
	"$@" >"$o" 2>"$e" || LZ_RC=$?
	LZ_OUT=$(cat "$o")
	LZ_ERR=$(cat "$e")
	rm -f "$o" "$e"
}

# expect NAME RC [REGEX-ON-STDOUT-OR-STDERR]: checks the last run.
expect() {
	local name=$1 rc=$2 re=${3:-}
	if [ "$LZ_RC" != "$rc" ]; then
		fail "$name: exit $LZ_RC, expected $rc"
		return 0
	fi
	# A here-string, not a pipe: under pipefail, grep -q leaving early
	# would fail the printf with SIGPIPE and turn a match into a miss.
	if [ -n "$re" ] && ! grep -Eq -- "$re" <<<"$LZ_OUT"$'\n'"$LZ_ERR"; then
		fail "$name: output does not match /$re/"
		return 0
	fi
	pass "$name"
}

# Sanitizer reports are failures even when the exit code looked right.
expect_clean_stderr() {
	if grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' <<<"$LZ_ERR"; then
		fail "$1: sanitizer report"
	else
		pass "$1: no sanitizer report"
	fi
}

finish() {
	echo "$LZ_TEST_NAME: $lz_passed passed, $lz_failed failed"
	[ "$lz_failed" -eq 0 ] && [ "$lz_passed" -gt 0 ]
}
