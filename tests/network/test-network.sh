#!/bin/bash
# test-network.sh: the Network Sidecar against real podman, crun, runsc and
# slirp4netns, with the project's own test hosts only. Runs as root (the
# fixtures need it: network namespaces, veth pairs, addresses, listeners,
# dnsmasq); every lazaret and podman command runs as the test account
# (LZ_TEST_USER, default lazaret-test) through setpriv.
#
# Fixtures (all removed on exit): netns lzt-priv behind veth lzt-p0 with
# the RFC 1918 test host 172.31.254.2 (TCP 8080), netns lzt-pub behind
# veth lzt-q0 with 198.18.254.2 (TCP 8080) and 198.18.254.3 (dnsmasq,
# answers lzt-test.example.test), and a listener on the host's 127.0.0.1.
# Before any connection each target is checked with "ip route get" to
# leave by our own veth. No other address is ever a target, and the
# machine's own resolver is never asked.
#
# Checks: default policy (RFC 1918 host unreachable, 198.18 host
# reachable, host loopback unreachable through 10.0.2.2, 169.254.169.254
# does not route), routes inside the sidecar as compiled, IPv6 off, the
# sidecar's own seccomp profile, route
# changes from inside refused (also with NET_ADMIN forced on a sandbox),
# allow/deny rules, DNS through the profile's resolver, conflicts refused at
# load with file:line, a tampered policy stopping the start before the
# sandbox exists, and a killed sidecar leaving the sandbox without a route.
#
# Environment: LZ_BIN (lazaret, lazaret-runsc), LZ_TEST_USER, CI=true (a
# missing component is a failure, not a skip).
set -uo pipefail
. "$(dirname "$0")/../lib/account.sh"
. "$(dirname "$0")/../lib/netns.sh"
# shellcheck source=tests/lib/containers.sh
. "$(dirname "$0")/../lib/containers.sh"

NAME=network
USER_=${LZ_TEST_USER:-lazaret-test}
BIN=${LZ_BIN:-/usr/local/bin}
passed=0
failed=0
pids=()
ctrs=()
domains=()
T=$(mktemp -d /tmp/lzt-net.XXXXXX)
chmod 755 "$T"

pass() { passed=$((passed + 1)); echo "PASS $NAME: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $NAME: $*"; }
finish() {
	echo "$NAME: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
missing() {
	if [ "${CI:-}" = true ]; then
		fail "$* (CI=true: a missing component is a failure)"
	else
		echo "SKIP $NAME: $*"
	fi
	finish
}

cleanup() {
	local p c
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	if [ -n "$LZ_ACCT_CONFIG" ]; then
		for c in "${ctrs[@]}"; do as_user podman rm -f -t 0 "$c" >/dev/null 2>&1; done
		for c in "${domains[@]}"; do
			as_user podman unshare rm -rf "$LZ_ACCT_HOME/.local/share/lazaret/domains/$c" 2>/dev/null
		done
	fi
	lz_ns_del lzt-priv lzt-p0
	lz_ns_del lzt-pub lzt-q0
	rm -rf "$T"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || missing "run as root (scripts/test.sh --suite network)"
lz_acct_id "$USER_" || missing "$LZ_ACCT_WHY"
# The account's XDG_CONFIG_HOME for this run exists, with podman's
# configuration linked in, before the first podman call.
lz_acct_config "$T/config" || { fail "$LZ_ACCT_WHY"; finish; }
# as_user CMD: CMD as the account in /; LZ_CFG names another
# XDG_CONFIG_HOME, LZ_EXTRA_ENV adds NAME=VALUE words.
as_user() {
	(cd / && lz_acct_run ${LZ_CFG:+XDG_CONFIG_HOME="$LZ_CFG"} \
	    ${LZ_EXTRA_ENV:-} "$@")
}
for t in ip dnsmasq podman runsc crun slirp4netns nsenter setpriv jq; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
	    missing "'$t' not installed"
done
[ -x /usr/bin/python3 ] || missing "/usr/bin/python3 (listeners) not installed"
[ -x "$BIN/lazaret" ] && [ -x "$BIN/lazaret-runsc" ] ||
    missing "lazaret binaries not found in '$BIN'"
SIDECAR_IMAGE=localhost/lazaret/netpolicy:$("$BIN/lazaret" --version | cut -d' ' -f2)
for i in localhost/lazaret/base:bookworm "$SIDECAR_IMAGE"; do
	lz_podman_image "$i" lz_acct_run && continue
	# Absent: set-up was not run. Anything else: podman's own error.
	[ $? = 1 ] && missing "$LZ_ACCT_WHY (scripts/setup.sh --user $USER_)"
	fail "image check: $LZ_ACCT_WHY"
	finish
done
for n in lzt-priv lzt-pub; do
	ip netns list | grep -qw "$n" && missing "netns '$n' exists (another run?)"
done

# --- fixtures ---
LISTEN='import socket,sys
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)
s.bind((sys.argv[1],int(sys.argv[2]))); s.listen(16)
while True:
    c,_=s.accept(); c.sendall(b"hello-"+sys.argv[1].encode()+b"\n"); c.close()'
lz_ns_add lzt-priv lzt-p0 lzt-p1 172.31.254.1/30 172.31.254.2/30 ||
    { fail "cannot create netns lzt-priv"; finish; }
lz_ns_add lzt-pub lzt-q0 lzt-q1 198.18.254.1/29 198.18.254.2/29 198.18.254.3/29 ||
    { fail "cannot create netns lzt-pub"; finish; }
# Every target must leave by our own veth before anything connects.
route_ok() {	# ADDR DEV
	lz_route_ok "$1" "$2" || { fail "route check: $LZ_NS_WHY"; finish; }
}
route_ok 172.31.254.2 lzt-p0
route_ok 198.18.254.2 lzt-q0
route_ok 198.18.254.3 lzt-q0
ip netns exec lzt-priv /usr/bin/python3 -c "$LISTEN" 172.31.254.2 8080 &
pids+=($!)
ip netns exec lzt-pub /usr/bin/python3 -c "$LISTEN" 198.18.254.2 8080 &
pids+=($!)
HOSTPORT=$((20000 + RANDOM % 20000))
/usr/bin/python3 -c "$LISTEN" 127.0.0.1 "$HOSTPORT" &
pids+=($!)
ip netns exec lzt-pub /usr/sbin/dnsmasq --keep-in-foreground --no-resolv \
    --no-hosts --no-poll --bind-interfaces --listen-address=198.18.254.3 \
    --except-interface=lo --port=53 --pid-file= --user=root \
    --address=/lzt-test.example.test/198.18.254.2 --log-facility=- \
    >"$T/dnsmasq.log" 2>&1 &
pids+=($!)
sleep 0.5
# The fixtures answer from the host (our own namespaces only).
for a in "172.31.254.2 8080" "198.18.254.2 8080" "127.0.0.1 $HOSTPORT"; do
	set -- $a
	timeout 3 bash -c "exec 3<>/dev/tcp/$1/$2 && head -1 <&3" | grep -q hello ||
	    { fail "fixture $1:$2 does not answer from the host"; finish; }
done
pass "fixtures up (routes checked: 172.31.254.2 and 198.18.254.2-3 via our veths)"

# --- Domains ---
mkdir -p "$T/proj"
as_user tee "$T/config/lazaret/config.ini" >/dev/null <<INI
[profile rules]
allow = 172.31.254.2/32
deny = 198.18.254.2/32

[profile dns]
resolver = 198.18.254.3
INI
# Each refused configuration in a directory of its own: a bad profile
# makes the whole file fail to load.
for d in bad1 bad2; do
	lz_acct_config "$T/$d" || { fail "$LZ_ACCT_WHY"; finish; }
done
printf '[profile default]\nallow = 10.0.0.0/8\n' |
    as_user tee "$T/bad1/lazaret/config.ini" >/dev/null
printf '[profile default]\nresolver = 198.18.254.3\ndeny = 198.18.254.3/32\n' |
    as_user tee "$T/bad2/lazaret/config.ini" >/dev/null
( cd "$T/proj" && git init -q && echo x >README && git add README &&
    git -c user.name=t -c user.email=t@e.invalid commit -qm i )
chown -R "$LZ_ACCT_UID:$LZ_ACCT_GID" "$T/proj"
for p in default rules dns; do
	domains+=("$(as_user "$BIN/lazaret" domain show -C "$T/proj" -p $p 2>/dev/null |
	    sed -n 's/^domain \([0-9a-f]\{16\}\)$/\1/p')")
done
for i in 0 1 2; do
	[ -n "${domains[$i]}" ] || { fail "no Domain ID for profile $i"; finish; }
done

# up PROFILE INDEX: a Domain kept up by a long session (the lazaret client
# is our own child, $UP_PID); sets CTR, SIDECAR and SPID.
up() {
	local i id=${domains[$2]}
	( cd / && lz_acct_argv "$BIN/lazaret" run -C "$T/proj" -p "$1" \
	    -- bash -c 'echo $$ >/tmp/lzt-session.pid; exec sleep 600' &&
	    exec "${LZ_ACCT_ARGV[@]}" ) </dev/null >"$T/up-$1.log" 2>&1 &
	UP_PID=$!
	pids+=("$UP_PID")
	CTR=lz-$id
	SIDECAR=lz-$id-net
	ctrs+=("$CTR" "$SIDECAR")
	for i in $(seq 1 150); do
		[ "$(as_user podman inspect -f '{{.State.Running}}' "$CTR" 2>/dev/null)" = true ] &&
		    break
		kill -0 "$UP_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ "$(as_user podman inspect -f '{{.State.Running}}' "$CTR" 2>/dev/null)" = true ] ||
	    { fail "profile $1: no sandbox: $(cat "$T/up-$1.log")"; return 1; }
	SPID=$(as_user podman inspect -f '{{.State.Pid}}' "$SIDECAR" 2>/dev/null)
	return 0
}
# down: ends the session (its sleep, by PID inside the sandbox); the last
# session ending tears the Domain down (FR-6).
down() {
	local i
	as_user podman exec "$CTR" bash -c 'kill $(cat /tmp/lzt-session.pid)' \
	    >/dev/null 2>&1 || kill "$UP_PID" 2>/dev/null
	wait "$UP_PID" 2>/dev/null
	# Down: nothing but the pair prepared for the next start.
	for i in $(seq 1 150); do
		[ -z "$(lz_live_containers "" as_user 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	fail "Domain not torn down: $(as_user podman ps -a --format '{{.Names}}' 2>/dev/null | tr '\n' ' ')"
	for i in "${ctrs[@]}"; do as_user podman rm -f -t 0 "$i" >/dev/null 2>&1; done
}
# in_sb CMD: bash in the sandbox.
in_sb() { as_user podman exec "$CTR" timeout 5 bash -c "$1" 2>&1; }
connect() { in_sb "exec 3<>/dev/tcp/$1/$2 && head -1 <&3"; }
reach() {	# WHAT ADDR PORT 1|0
	local out
	out=$(connect "$2" "$3")
	if [ "$4" = 1 ]; then
		grep -q "hello-$2" <<<"$out" && pass "$1" || fail "$1: $out"
	else
		grep -q hello <<<"$out" && fail "$1: connected" ||
		    pass "$1 ($(tail -1 <<<"$out" | sed 's/.*: //'))"
	fi
}

# 1. default policy
if up default 0; then
	reach "default: RFC 1918 test host 172.31.254.2 unreachable" 172.31.254.2 8080 0
	reach "default: 198.18 test host reachable" 198.18.254.2 8080 1
	reach "default: host 127.0.0.1:$HOSTPORT unreachable via 10.0.2.2" 10.0.2.2 "$HOSTPORT" 0
	r=$(nsenter -t "$SPID" -n ip route get 169.254.169.254 2>&1)
	[ $? != 0 ] && pass "default: 169.254.169.254 does not route ($r)" ||
	    fail "default: 169.254.169.254 routes: $r"
	routes=$(nsenter -t "$SPID" -n ip route show table main)
	grep -q "^unreachable 10.0.0.0/8" <<<"$routes" &&
	    grep -q "^unreachable 10.0.2.0/24" <<<"$routes" &&
	    grep -q "^default via 10.0.2.2 dev tap0" <<<"$routes" &&
	    ! grep -q "10.0.2.0/24 dev tap0" <<<"$routes" &&
	    pass "default: sidecar routes as compiled" || fail "default: routes: $routes"
	v6=$(nsenter -t "$SPID" -n sh -c 'cat /proc/sys/net/ipv6/conf/all/disable_ipv6; ip -6 addr; ip -6 route' 2>&1)
	[ "$v6" = 1 ] && pass "default: IPv6 disabled, no IPv6 address or route" ||
	    fail "default: IPv6: $v6"
	# Lazaret's own seccomp profile (core/sidecar-seccomp.h): what podman
	# gave crun, the kernel's filter mode, and the label naming its digest.
	ocf=$(as_user podman inspect -f '{{.OCIConfigPath}}' "$SIDECAR" 2>&1)
	scn=$(as_user jq -r '.linux.seccomp | .defaultAction + " " +
	    ([.syscalls[].names[]] | join(","))' "$ocf" 2>&1)
	scf=$(as_user podman inspect -f '{{range .HostConfig.SecurityOpt}}{{.}} {{end}}' \
	    "$SIDECAR" 2>&1 | tr ' ' '\n' | sed -n 's/^seccomp=//p')
	lbl=$(as_user podman inspect -f '{{index .Config.Labels "lazaret.seccomp"}}' \
	    "$SIDECAR" 2>&1)
	sha=$(as_user sha256sum "$scf" 2>&1 | cut -d' ' -f1)
	mode=$(sed -n 's/^Seccomp:[[:space:]]*//p' "/proc/$SPID/status")
	case ",${scn#* }," in
	*,connect,*|*,mount,*|*,unshare,*|*,setns,*|*,ptrace,*|*,clone,*) wide=1 ;;
	*) wide=0 ;;
	esac
	if [ "${scn%% *}" = SCMP_ACT_ERRNO ] && [ "$wide" = 0 ] &&
	    [[ ",${scn#* }," == *,sendto,* ]] && [ "$mode" = 2 ] &&
	    [ -n "$lbl" ] && [ "$lbl" = "$sha" ]; then
		pass "default: sidecar under Lazaret's seccomp profile ($(tr , "\n" <<<"${scn#* }" | wc -l) system calls allowed, label ${lbl:0:12})"
	else
		fail "default: sidecar's seccomp: '$scn' mode '$mode' label '$lbl' file '$scf' sha '$sha'"
	fi
	rc=$(in_sb 'cat /etc/resolv.conf')
	grep -q "^nameserver 10.0.2.3$" <<<"$rc" && grep -q Lazaret <<<"$rc" &&
	    pass "default: /etc/resolv.conf is Lazaret's (10.0.2.3)" || fail "resolv.conf: $rc"
	before=$(nsenter -t "$SPID" -n ip route show table main)
	o1=$(in_sb 'ip route del default; echo rc=$?')
	o2=$(in_sb 'ip route add 172.31.254.0/30 via 10.0.2.2; echo rc=$?')
	o3=$(in_sb 'ip link set tap0 down; echo rc=$?')
	after=$(nsenter -t "$SPID" -n ip route show table main)
	if ! grep -q 'rc=0' <<<"$o1$o2$o3" && [ "$before" = "$after" ]; then
		pass "default: route del/add and link set refused inside ($(head -1 <<<"$o1"))"
	else
		fail "default: inside changes: $o1 / $o2 / $o3"
	fi
	# NET_ADMIN forced on a second sandbox in the same netns.
	sid=$(as_user podman inspect -f '{{.Id}}' "$SIDECAR" 2>/dev/null)
	o4=$(as_user podman run --rm --runtime "$BIN/lazaret-runsc" --cgroupns=private \
	    --network "container:$sid" --cap-add NET_ADMIN --pull=never \
	    localhost/lazaret/base:bookworm bash -c 'ip route del default; ip route del 10.0.0.0/8; ip link set tap0 down; echo done' 2>&1 | grep -v 'shared mount')
	after=$(nsenter -t "$SPID" -n ip route show table main)
	[ "$before" = "$after" ] &&
	    pass "default: with NET_ADMIN forced the policy holds ($(head -1 <<<"$o4"))" ||
	    fail "default: NET_ADMIN changed routes: $o4"
	# A killed sidecar: the Domain fails, the attached session is told,
	# and sandbox, sidecar and anchors are removed (FR-7 order).
	as_user podman kill "$SIDECAR" >/dev/null 2>&1
	for i in $(seq 1 150); do
		kill -0 "$UP_PID" 2>/dev/null || break
		sleep 0.1
	done
	wait "$UP_PID" 2>/dev/null
	grep -q "Network Sidecar stopped" "$T/up-default.log" &&
	    pass "killed sidecar: the attached session is told of the Domain failure" ||
	    fail "killed sidecar: session not told: $(cat "$T/up-default.log")"
	for i in $(seq 1 150); do
		[ -z "$(lz_live_containers "" as_user 2>/dev/null)" ] && break
		sleep 0.1
	done
	[ -z "$(lz_live_containers "" as_user 2>/dev/null)" ] &&
	    pass "killed sidecar: sandbox and sidecar removed" ||
	    fail "killed sidecar: containers left"
fi

# 2. allow and deny rules
if up rules 1; then
	reach "rules: allow 172.31.254.2/32 makes it reachable" 172.31.254.2 8080 1
	reach "rules: deny 198.18.254.2/32 blocks it" 198.18.254.2 8080 0
	down
fi

# 3. DNS through the test's own dnsmasq
if up dns 2; then
	o=$(in_sb 'cat /etc/resolv.conf; getent hosts lzt-test.example.test')
	grep -q "^nameserver 198.18.254.3$" <<<"$o" &&
	    grep -q "^198.18.254.2 .*lzt-test.example.test" <<<"$o" &&
	    pass "dns: name served by our dnsmasq resolves inside" || fail "dns: $o"
	down
fi

# 4. conflicts fail at load, naming both sources with file:line
o=$(LZ_CFG=$T/bad1 as_user bash -c "cd '$T/proj' && '$BIN/lazaret' run -- true" 2>&1)
grep -q "config.ini:[0-9]*.*10.0.0.0/8" <<<"$o" && grep -qi "built-in" <<<"$o" &&
    pass "conflict: allow 10.0.0.0/8 refused ($(sed -n 2p <<<"$o" | sed 's|.*/||' | cut -c1-90))" || fail "conflict: $o"
o=$(LZ_CFG=$T/bad2 as_user bash -c "cd '$T/proj' && '$BIN/lazaret' run -- true" 2>&1)
[ "$(grep -o 'config.ini:[0-9]*' <<<"$o" | sort -u | wc -l)" -ge 2 ] &&
    pass "conflict: resolver /32 denied refused, naming both lines" || fail "badresolver: $o"

# 5. tampered policy: the start stops before the sandbox exists
o=$(LZ_EXTRA_ENV=LAZARET_TEST_SIDECAR_TAMPER=1 as_user bash -c "cd '$T/proj' && '$BIN/lazaret' run -- true" 2>&1)
# Nothing of its Domain, prepared pair included (it was used and found
# stale: the tampered policy is another fingerprint), and nothing live
# of any other (their pairs prepared for their next start may stay).
tid=$(as_user bash -c "cd '$T/proj' && '$BIN/lazaret' domain show --json" | jq -r .domain_id)
left=$(as_user podman ps -a --filter "label=lazaret.domain=$tid" --format '{{.Names}}' 2>/dev/null
    lz_live_containers "" as_user 2>/dev/null)
grep -q "policy changed" <<<"$o" && [[ $tid =~ ^[0-9a-f]{16}$ ]] && [ -z "$left" ] &&
    pass "tamper: wrong digest stops the start, nothing left ($(head -1 <<<"$o" | cut -c1-100))" ||
    fail "tamper: $o / left: $left"

finish
