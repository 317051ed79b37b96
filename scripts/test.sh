#!/bin/bash
# test.sh: the whole test suite, as README.md and .ci/run run it. On a fresh
# Debian 12 machine, as root: sets the machine up (scripts/setup.sh: packages,
# host, the unprivileged test account, the release build and the default
# image), builds the sanitizer (ASan + UBSan) tree and the libFuzzer tree,
# then runs the suites and prints one closing line per suite and a total:
#
#   unit         cmocka programs under ctest, as root, ASan + UBSan, as
#                many at once as there are CPUs
#   fuzz         each libFuzzer target for a bounded time from its corpus,
#                as many at once as there are CPUs
#   integration  tests/integration/test-*.sh as the test account, against
#                the ASan binaries, real podman and runsc
#   tui          tests/tui/test-*.sh as the test account: the full-screen
#                TUI driven through a private tmux server, real sandbox
#   model        the Promela mirror of protocol/Lazaret.tla under Spin
#   network      tests/network/test-*.sh as root (netns, veth, listeners,
#                dnsmasq, TLS fixtures); lazaret and podman run as the
#                test account, against the ASan binaries
#
# Everything run as the test account goes through tests/lib/account.sh,
# which gives it an XDG_CONFIG_HOME of this run's own (0700, the account's,
# podman's configuration linked in) before the first command.
#
# Options: --suite NAME (repeatable) runs only those suites; --no-setup
# skips scripts/setup.sh (for a machine already set up); --fresh first
# resets the test account as if Lazaret had never run there (as the
# account: its Domains' state, "podman system reset --force", its
# ~/.config/containers, ~/.local/share/lazaret and
# $XDG_RUNTIME_DIR/lazaret removed), then set-up writes its configuration
# again and imports both images (with --no-setup: only the account and
# image steps, no build); it prints how long that took.
# Environment: LZ_TEST_USER (default lazaret-test), LZ_FUZZ_SECONDS (20).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEST_USER=${LZ_TEST_USER:-lazaret-test}
FUZZ_SECONDS=${LZ_FUZZ_SECONDS:-20}
# shellcheck source=tests/lib/account.sh
. "$ROOT/tests/lib/account.sh"
suites=()
do_setup=1
fresh=0
while [ $# -gt 0 ]; do
	case $1 in
	--suite) [ $# -ge 2 ] || { echo "test.sh: --suite needs a NAME" >&2; exit 2; }
		suites+=("$2"); shift ;;
	--no-setup) do_setup=0 ;;
	--fresh) fresh=1 ;;
	-h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "test.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ ${#suites[@]} -gt 0 ] || suites=(unit fuzz integration tui model network)

if [ "$(id -u)" != 0 ]; then
	echo "test.sh: needs root to set the machine up and to switch to the" \
	    "test account; run: sudo $0" >&2
	exit 2
fi

total_pass=0
total_fail=0
summary=()
# record SUITE PASSED FAILED
record() {
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
	summary+=("$1: $2 passed, $3 failed, in $(($(date +%s) - step_t0)) s")
}
# step TITLE: a suite's (or set-up's) heading; record's time counts from it.
step() {
	step_t0=$(date +%s)
	printf '\n==== %s ====\n' "$*"
}
# closing OUT: sets sp and sf from the last "NAME: N passed, N failed"
# line of OUT (both empty when there is none).
closing() {
	sp=$(printf '%s\n' "$1" | sed -n 's/^[^:]*: \([0-9]*\) passed, [0-9]* failed.*/\1/p' | tail -1)
	sf=$(printf '%s\n' "$1" | sed -n 's/^[^:]*: [0-9]* passed, \([0-9]*\) failed.*/\1/p' | tail -1)
}
# tally SUITE SCRIPT RC OUT: adds one script's counts to p and f. A script
# with no closing line, or one that exited non-zero with nothing failed,
# counts as a failure.
tally() {
	local sp sf
	closing "$4"
	if [ -z "$sp" ]; then
		echo "FAIL $1: $(basename "$2") printed no summary (exit $3)"
		sp=0; sf=1
	elif [ "$3" != 0 ] && [ "$sf" = 0 ]; then
		echo "FAIL $1: $(basename "$2") exited $3"
		sf=1
	fi
	p=$((p + sp)); f=$((f + sf))
}
t0=$(date +%s)
step_t0=$t0

# fresh_account: the test account's podman and Lazaret state removed, as
# the account, in an order that leaves nothing behind: the Domain Roots
# hold State Anchor overlays mounted in podman's namespace and files of
# sub-UIDs, so they are unmounted (the installed lazaret's own helper) and
# removed inside that namespace, before the reset.
fresh_account() {
	local out rc=0
	step "fresh: $TEST_USER reset (podman system reset, Lazaret state)"
	if ! getent passwd "$TEST_USER" >/dev/null; then
		echo "fresh: no account $TEST_USER yet: nothing to reset"
		return 0
	fi
	# /run is a tmpfs: after a reboot the directory set-up made is gone.
	[ -e "/run/user/$(id -u "$TEST_USER")" ] ||
	    install -d -m 0700 -o "$TEST_USER" -g "$(id -g "$TEST_USER")" \
	    "/run/user/$(id -u "$TEST_USER")"
	lz_acct_id "$TEST_USER" || { echo "test.sh: --fresh: $LZ_ACCT_WHY" >&2; return 1; }
	out=$(cd / && {
	    if lz_acct_run test -d "$LZ_ACCT_HOME/.local/share/lazaret"; then
		    lz_acct_run podman unshare /usr/local/bin/lazaret \
			__anchor umount -u "$LZ_ACCT_HOME/.local/share/lazaret" &&
		    lz_acct_run podman unshare rm -rf \
			"$LZ_ACCT_HOME/.local/share/lazaret"
	    fi &&
	    lz_acct_run podman system reset --force &&
	    lz_acct_run rm -rf "$LZ_ACCT_HOME/.config/containers" \
		"$LZ_ACCT_HOME/.local/share/lazaret" \
		"$LZ_ACCT_RUNTIME/lazaret"; } 2>&1) || rc=$?
	printf '%s\n' "$out" | grep -v '^$' | sed 's/^/    /'
	if [ "$rc" != 0 ]; then
		echo "test.sh: --fresh: resetting $TEST_USER failed (exit $rc)" >&2
		return 1
	fi
	echo "fresh: $TEST_USER reset in $(($(date +%s) - t0)) s"
}

setup_args=(--user "$TEST_USER" --quiet)
if [ "$fresh" = 1 ]; then
	fresh_account || { echo "0 passed, 1 failed"; exit 1; }
	# The reset removed what the account and image steps make.
	[ "$do_setup" = 1 ] || setup_args+=(--no-build)
	do_setup=1
fi
if [ "$do_setup" = 1 ]; then
	step "setup (scripts/setup.sh ${setup_args[*]})"
	if ! "$ROOT/scripts/setup.sh" "${setup_args[@]}"; then
		echo "test.sh: setup failed; see /var/log/lazaret-setup.log" >&2
		echo "0 passed, 1 failed"
		exit 1
	fi
	[ "$fresh" = 0 ] || echo "fresh: $TEST_USER reset and set up again in $(($(date +%s) - t0)) s"
fi

step "build: sanitizer tree (build/asan)"
if ! { cmake -S "$ROOT" -B "$ROOT/build/asan" -DLZ_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
    cmake --build "$ROOT/build/asan" -j"$(nproc)"; }; then
	echo "test.sh: the sanitizer build failed" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

run_unit() {
	step "unit (ctest, ASan + UBSan)"
	local out
	out=$(cd "$ROOT/build/asan" && ctest -j"$(nproc)" --output-on-failure 2>&1)
	printf '%s\n' "$out"
	local n f
	n=$(printf '%s\n' "$out" | sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p')
	[ -n "$n" ] || { record unit 0 1; return; }
	record unit $((n - f)) "$f"
}

# fuzz_one TARGET WORK: one libFuzzer target from a copy of its corpus in
# WORK, for FUZZ_SECONDS; its output in WORK.log, its exit status in
# WORK.rc.
fuzz_one() {
	local name corpus
	name=$(basename "$1")
	corpus=$ROOT/tests/fuzz/corpus/${name#fuzz-}
	cp -r "$corpus"/. "$2"/ 2>/dev/null
	(cd "$2" && "$1" -max_total_time="$FUZZ_SECONDS" -max_len=4096 \
	    -timeout=10 "$2" >"$2.log" 2>&1)
	echo $? >"$2.rc"
}

# The targets run as many at once as there are CPUs (each is one
# process), each for the same FUZZ_SECONDS; results print in name order.
run_fuzz() {
	local p=0 f=0 t i jobs running=0 names=() works=()
	jobs=$(nproc)
	step "fuzz (libFuzzer, ${FUZZ_SECONDS}s per target, $jobs at once)"
	if ! { cmake -S "$ROOT" -B "$ROOT/build/fuzz" -DCMAKE_C_COMPILER=clang \
	    -DLZ_FUZZ=ON -DLZ_SANITIZE=ON -DLZ_TESTS=OFF \
	    -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
	    cmake --build "$ROOT/build/fuzz" -j"$jobs" --target fuzz-all \
	    >/dev/null; }; then
		echo "FAIL fuzz: the clang fuzz build failed"
		record fuzz 0 1
		return
	fi
	for t in "$ROOT"/build/fuzz/tests/fuzz/fuzz-*; do
		[ -x "$t" ] || continue
		names+=("$(basename "$t")")
		works+=("$(mktemp -d)")
		fuzz_one "$t" "${works[-1]}" &
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
	done
	wait
	for i in "${!names[@]}"; do
		if [ "$(cat "${works[$i]}.rc" 2>/dev/null)" = 0 ]; then
			echo "PASS fuzz: ${names[$i]} ($(grep -o 'Done [0-9]* runs' "${works[$i]}.log"))"
			p=$((p + 1))
		else
			echo "FAIL fuzz: ${names[$i]}"
			tail -40 "${works[$i]}.log"
			f=$((f + 1))
		fi
		rm -rf "${works[$i]}" "${works[$i]}.log" "${works[$i]}.rc"
	done
	[ $((p + f)) -gt 0 ] || { echo "FAIL fuzz: no target built"; f=1; }
	record fuzz "$p" "$f"
}

# stage_bins DIR: the ASan programs a Domain needs (lazaret, its runtime
# shim, the Escalation Client), the tests' record forger and the compiled
# terminfo entry, into DIR.
stage_bins() {
	cp "$ROOT"/build/asan/lazaret "$ROOT"/build/asan/lazaret-runsc \
	    "$ROOT"/build/asan/lazaret-escalate "$ROOT"/build/asan/esc-forge \
	    "$1/"
	cp -r "$ROOT"/build/asan/terminfo "$1/"
}

# run_as_user SUITE DIR: DIR/test-*.sh as the test account, against the
# ASan binaries (and the compiled lazaret terminfo entry beside them), with
# an XDG_CONFIG_HOME of the suite's own.
run_as_user() {
	local suite=$1 dir=$2 stage t t1 out p=0 f=0
	# The checkout may not be readable by the test account: stage what the
	# tests need in a directory it can read.
	stage=$(mktemp -d /tmp/lz-stage.XXXXXX)
	mkdir -p "$stage/bin" "$stage/tests"
	stage_bins "$stage/bin"
	cp -r "$ROOT/tests/lib" "$ROOT/tests/integration" "$ROOT/tests/$dir" \
	    "$stage/tests/"
	# The JSON schemas the tests validate "--json" outputs against.
	mkdir -p "$stage/docs" && cp -r "$ROOT/docs/schemas" "$stage/docs/"
	chmod -R a+rX "$stage"
	if ! lz_acct_id "$TEST_USER" || ! lz_acct_config "$stage/config"; then
		echo "FAIL $suite: $LZ_ACCT_WHY"
		rm -rf "$stage"
		record "$suite" 0 1
		return
	fi
	for t in "$stage"/tests/"$dir"/test-*.sh; do
		t1=$(date +%s)
		out=$(cd "$stage" && lz_acct_run CI="${CI:-}" \
		    LZ_BIN="$stage/bin" LZ_SHIM="$stage/bin/lazaret-runsc" \
		    bash "$t" 2>&1)
		local rc=$?
		printf '%s\n' "$out"
		printf '  (%s: %d s)\n' "$(basename "$t")" $(($(date +%s) - t1))
		tally "$suite" "$t" "$rc" "$out"
	done
	rm -rf "$stage"
	[ $((p + f)) -gt 0 ] || { echo "FAIL $suite: no test ran"; f=1; }
	record "$suite" "$p" "$f"
}

run_integration() {
	step "integration (as $TEST_USER: real podman, runsc, git, ptys)"
	run_as_user integration integration
}

run_tui() {
	step "tui (as $TEST_USER: the full-screen TUI in a private tmux server)"
	run_as_user tui tui
}

run_network() {
	step "network (as root for the fixtures; lazaret as $TEST_USER)"
	local stage t out p=0 f=0 rc
	stage=$(mktemp -d /tmp/lz-netstage.XXXXXX)
	stage_bins "$stage"
	chmod -R a+rX "$stage"
	for t in "$ROOT"/tests/network/test-*.sh; do
		[ -f "$t" ] || continue
		rc=0
		out=$(LZ_BIN="$stage" LZ_TEST_USER="$TEST_USER" CI="${CI:-}" \
		    bash "$t" 2>&1) || rc=$?
		printf '%s\n' "$out"
		tally network "$t" "$rc" "$out"
	done
	rm -rf "$stage"
	[ $((p + f)) -gt 0 ] || { echo "FAIL network: no test ran"; f=1; }
	record network "$p" "$f"
}

run_model() {
	step "model (Spin, protocol/*.pml)"
	local out p=0 f=0 rc=0
	if [ ! -x "$ROOT/tests/model/check-model.sh" ]; then
		echo "FAIL model: tests/model/check-model.sh is missing"
		record model 0 1
		return
	fi
	out=$(bash "$ROOT/tests/model/check-model.sh" 2>&1) || rc=$?
	printf '%s\n' "$out"
	tally model "$ROOT/tests/model/check-model.sh" "$rc" "$out"
	record model "$p" "$f"
}

for s in "${suites[@]}"; do
	case $s in
	unit) run_unit ;;
	fuzz) run_fuzz ;;
	integration) run_integration ;;
	tui) run_tui ;;
	model) run_model ;;
	network) run_network ;;
	*) echo "test.sh: unknown suite '$s'" >&2; record "$s" 0 1 ;;
	esac
done

step "summary ($(($(date +%s) - t0)) s)"
for line in "${summary[@]}"; do echo "$line"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ] && [ "$total_pass" -gt 0 ]
