#!/bin/bash
# test-tls.sh: HTTPS from inside the sandbox through a TLS server of the
# test's own, signed by a certificate authority the test installs on the
# host, as a company network's TLS-inspecting proxy is (issue 11). Runs as
# root (fixtures, the host's CA store, set-up's image step); every lazaret
# and podman command runs as the test account (LZ_TEST_USER) through
# tests/lib/account.sh.
#
# Fixtures (all removed on exit): netns lzt-tls behind veth lzt-t0 with
# 198.18.253.2 (HTTPS on 8443 with a certificate of the test's CA, and on
# 8444 with one of a second CA that is never installed) and 198.18.253.3
# (dnsmasq, answers lzt-tls.example.test). Before any connection each
# target is checked with "ip route get" to leave by lzt-t0; no other
# address is ever a target, no proxy is used, the machine's resolver is
# never asked. Both CAs are name-constrained to example.test and
# 198.18.253.0/29, and their keys are deleted at exit.
#
# Checks: the host does not trust the test CA before it is installed and
# does after (update-ca-certificates); "lazaret doctor" then says the
# image lacks it; set-up's image step (the host's CAs are part of the
# image recipe) rebuilds the image with it and doctor names it; inside the
# sandbox git fetches https://lzt-tls.example.test:8443/ and refuses the
# untrusted :8444; the CA is in the image, not bound from the host (no
# such mount inside, SR-3). At the end the CA is removed from the host and
# the image rebuilt again without it (the shared image tar in
# /var/cache/lazaret carries the test CA for that minute).
#
# Environment: LZ_BIN (lazaret, lazaret-runsc), LZ_TEST_USER, CI=true (a
# missing component is a failure, not a skip).
set -uo pipefail
. "$(dirname "$0")/../lib/account.sh"
. "$(dirname "$0")/../lib/netns.sh"

NAME=tls
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
USER_=${LZ_TEST_USER:-lazaret-test}
BIN=${LZ_BIN:-/usr/local/bin}
HOSTCAS=/usr/local/share/ca-certificates
HOSTNAME_=lzt-tls.example.test
ADDR=198.18.253.2
DNS=198.18.253.3
passed=0
failed=0
pids=()
domain=
installed=
T=$(mktemp -d /tmp/lzt-tls.XXXXXX)
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

# setup_image: set-up's image step for the account (the other steps only
# check); its output is kept in $T/setup.log.
setup_image() {
	"$ROOT/scripts/setup.sh" --user "$USER_" --no-build --quiet \
	    >"$T/setup.log" 2>&1
}

# uninstall: the test CA off the host's store, and the image rebuilt
# without it (once).
uninstall() {
	[ -n "$installed" ] || return 0
	rm -f "$installed"
	installed=
	update-ca-certificates >/dev/null 2>&1
	setup_image
}

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	if [ -n "$installed" ]; then
		uninstall || echo "tls: restoring the image failed: $(tail -5 "$T/setup.log")"
	fi
	if [ -n "$LZ_ACCT_CONFIG" ] && [ -n "$domain" ]; then
		for c in "lz-$domain" "lz-$domain-net"; do
			as_user podman rm -f -t 0 "$c" >/dev/null 2>&1
		done
		as_user podman unshare rm -rf "$LZ_ACCT_HOME/.local/share/lazaret/domains/$domain" 2>/dev/null
	fi
	lz_ns_del lzt-tls lzt-t0
	rm -rf "$T"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || missing "run as root (scripts/test.sh --suite network)"
lz_acct_id "$USER_" || missing "$LZ_ACCT_WHY"
lz_acct_config "$T/config" || { fail "$LZ_ACCT_WHY"; finish; }
as_user() { (cd / && lz_acct_run "$@"); }
for t in ip dnsmasq podman runsc openssl git update-ca-certificates setpriv; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
	    missing "'$t' not installed"
done
[ -x /usr/bin/python3 ] || missing "/usr/bin/python3 (the TLS servers) not installed"
[ -x "$BIN/lazaret" ] && [ -x "$BIN/lazaret-runsc" ] ||
    missing "lazaret binaries not found in '$BIN'"
SIDECAR_IMAGE=localhost/lazaret/netpolicy:$("$BIN/lazaret" --version | cut -d' ' -f2)
for i in localhost/lazaret/base:bookworm "$SIDECAR_IMAGE"; do
	lz_podman_image "$i" lz_acct_run && continue
	[ $? = 1 ] && missing "$LZ_ACCT_WHY (scripts/setup.sh --user $USER_)"
	fail "image check: $LZ_ACCT_WHY"
	finish
done
ip netns list | grep -qw lzt-tls && missing "netns 'lzt-tls' exists (another run?)"

# --- the two CAs and the servers' certificates ---
mkdir -m 700 "$T/pki"
# mkca NAME CN: a CA that can sign only for example.test and our /29.
mkca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -days 1 -subj "/CN=$2" -keyout "$T/pki/$1.key" -out "$T/pki/$1.crt" \
	    -addext basicConstraints=critical,CA:TRUE \
	    -addext keyUsage=critical,keyCertSign,cRLSign \
	    -addext "nameConstraints=critical,permitted;DNS:example.test,permitted;IP:198.18.253.0/255.255.255.248" \
	    2>"$T/pki/$1.log"
}
# mkserver NAME CA: a server certificate for $HOSTNAME_ and $ADDR.
mkserver() {
	printf 'subjectAltName=DNS:%s,IP:%s\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' \
	    "$HOSTNAME_" "$ADDR" >"$T/pki/$1.ext"
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -subj "/CN=$HOSTNAME_" -keyout "$T/pki/$1.key" -out "$T/pki/$1.csr" \
	    2>"$T/pki/$1.log" &&
	    openssl x509 -req -in "$T/pki/$1.csr" -CA "$T/pki/$2.crt" \
	    -CAkey "$T/pki/$2.key" -CAcreateserial -days 1 \
	    -extfile "$T/pki/$1.ext" -out "$T/pki/$1.crt" 2>>"$T/pki/$1.log"
}
tag=lazaret-test-tls-$$-$RANDOM
mkca ca "Lazaret test CA $tag" && mkca rogue "Lazaret untrusted CA $tag" &&
    mkserver good ca && mkserver bad rogue ||
    { fail "openssl: $(cat "$T"/pki/*.log)"; finish; }

# --- fixtures: a bare repository served over HTTPS, DNS ---
git init -q --bare "$T/www/repo.git"
( cd "$T" && git init -q src && cd src && echo hello >README &&
    git add README && git -c user.name=t -c user.email=t@e.invalid commit -qm i &&
    git push -q "$T/www/repo.git" HEAD:refs/heads/main ) ||
    { fail "cannot make the served repository"; finish; }
git -C "$T/www/repo.git" symbolic-ref HEAD refs/heads/main
git -C "$T/www/repo.git" update-server-info
want=$(git -C "$T/www/repo.git" rev-parse refs/heads/main)
# socketserver's own server, not http.server's: HTTPServer.server_bind
# asks the resolver for its name (socket.getfqdn), and the machine's
# resolver is never to be asked.
SERVE='import functools, http.server, socketserver, ssl, sys
addr, port, cert, key, root = sys.argv[1:6]
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
socketserver.ThreadingTCPServer.allow_reuse_address = True
s = socketserver.ThreadingTCPServer((addr, int(port)), h)
c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
c.load_cert_chain(cert, key)
s.socket = c.wrap_socket(s.socket, server_side=True)
s.serve_forever()'
lz_ns_add lzt-tls lzt-t0 lzt-t1 198.18.253.1/29 "$ADDR/29" "$DNS/29" ||
    { fail "cannot create netns lzt-tls"; finish; }
for a in "$ADDR" "$DNS"; do
	lz_route_ok "$a" lzt-t0 || { fail "route check: $LZ_NS_WHY"; finish; }
done
ip netns exec lzt-tls /usr/bin/python3 -c "$SERVE" "$ADDR" 8443 \
    "$T/pki/good.crt" "$T/pki/good.key" "$T/www" >"$T/https-good.log" 2>&1 &
pids+=($!)
ip netns exec lzt-tls /usr/bin/python3 -c "$SERVE" "$ADDR" 8444 \
    "$T/pki/bad.crt" "$T/pki/bad.key" "$T/www" >"$T/https-bad.log" 2>&1 &
pids+=($!)
ip netns exec lzt-tls /usr/sbin/dnsmasq --keep-in-foreground --no-resolv \
    --no-hosts --no-poll --bind-interfaces --listen-address="$DNS" \
    --except-interface=lo --port=53 --pid-file= --user=root \
    --address="/$HOSTNAME_/$ADDR" --log-facility=- >"$T/dnsmasq.log" 2>&1 &
pids+=($!)
# Both servers listen before anything is asked of them.
for port in 8443 8444; do
	for i in $(seq 1 50); do
		timeout 1 bash -c "exec 3<>/dev/tcp/$ADDR/$port" 2>/dev/null && break
		sleep 0.1
	done
	timeout 1 bash -c "exec 3<>/dev/tcp/$ADDR/$port" 2>/dev/null ||
	    { fail "no HTTPS server on $ADDR:$port: $(cat "$T"/https-*.log)"; finish; }
done

# host_fetch PORT: git ls-remote from the host, with no proxy, no user or
# system git configuration, the name pinned to our address.
host_fetch() {
	env -i PATH=/usr/bin:/bin HOME="$T" GIT_CONFIG_NOSYSTEM=1 \
	    git -c http.proxy= -c "http.curloptResolve=$HOSTNAME_:$1:$ADDR" \
	    ls-remote "https://$HOSTNAME_:$1/repo.git" 2>&1
}
o=$(host_fetch 8443)
grep -q "certificate" <<<"$o" && ! grep -q "$want" <<<"$o" &&
    pass "host: the test CA is not trusted before it is installed ($(grep -o 'server certificate[^.]*' <<<"$o"))" ||
    { fail "host before install: $o"; finish; }

# --- the CA installed on the host ---
installed=$HOSTCAS/$tag.crt
install -D -m 0644 "$T/pki/ca.crt" "$installed"
update-ca-certificates >"$T/update.log" 2>&1 ||
    { fail "update-ca-certificates: $(cat "$T/update.log")"; finish; }
o=$(host_fetch 8443)
grep -q "^$want[[:space:]]refs/heads/main" <<<"$o" &&
    pass "host: trusts the test CA once installed (ls-remote over https)" ||
    fail "host after install: $o"

# doctor: the image, built before, lacks the host's new CA.
o=$(as_user "$BIN/lazaret" doctor --json 2>&1)
d=$(jq -r '.[] | select(.check == "image-cas") | "\(.ok) \(.detail)"' <<<"$o" 2>&1)
grep -q "^false the host trusts, the image lacks: .*$tag.crt (CN=Lazaret test CA $tag)" <<<"$d" &&
    pass "doctor: the image lacks the host's new CA, named" ||
    fail "doctor before the rebuild: $d"

# set-up's image step: the host's CAs are part of the recipe.
t0=$(date +%s%N)
if setup_image; then
	pass "set-up rebuilt the image with the CA ($(( ($(date +%s%N) - t0) / 1000000 )) ms: $(grep -o 'trust: [^(]*' "$T/setup.log" | head -1))"
else
	fail "set-up: $(tail -5 "$T/setup.log")"
	finish
fi
o=$(as_user "$BIN/lazaret" doctor --json 2>&1)
d=$(jq -r '.[] | select(.check == "image-cas") | "\(.ok) \(.detail)"' <<<"$o" 2>&1)
grep -q "^true the image carries the host's .*$tag.crt (CN=Lazaret test CA $tag)" <<<"$d" &&
    pass "doctor: the image carries the CA, named" ||
    fail "doctor after the rebuild: $d"

# --- inside the sandbox ---
mkdir -p "$T/proj"
( cd "$T/proj" && git init -q && echo x >README && git add README &&
    git -c user.name=t -c user.email=t@e.invalid commit -qm i )
chown -R "$LZ_ACCT_UID:$LZ_ACCT_GID" "$T/proj"
printf '[profile tls]\nresolver = %s\n' "$DNS" |
    as_user tee "$LZ_ACCT_CONFIG/lazaret/config.ini" >/dev/null
domain=$(as_user "$BIN/lazaret" domain show -C "$T/proj" -p tls 2>/dev/null |
    sed -n 's/^domain \([0-9a-f]\{16\}\)$/\1/p')
[ -n "$domain" ] || { fail "no Domain ID"; finish; }
o=$(as_user timeout 120 "$BIN/lazaret" run -C "$T/proj" -p tls -- sh -c "
	git -c http.proxy= ls-remote https://$HOSTNAME_:8443/repo.git; echo good=\$?
	git -c http.proxy= ls-remote https://$HOSTNAME_:8444/repo.git; echo bad=\$?
	ls /usr/local/share/ca-certificates
	grep -cE 'ca-certificates|/etc/ssl' /proc/self/mountinfo" 2>&1)
grep -q "^$want[[:space:]]refs/heads/main" <<<"$o" && grep -q "^good=0" <<<"$o" &&
    pass "sandbox: git fetches https://$HOSTNAME_:8443/ through our CA" ||
    fail "sandbox https: $o"
grep -q "^bad=128" <<<"$o" && grep -qi "certificate" <<<"$o" &&
    pass "sandbox: a server of a CA the host does not trust is refused ($(grep -o -m1 'server certificate[^.]*' <<<"$o"))" ||
    fail "sandbox untrusted: $o"
grep -qx "$tag.crt" <<<"$o" && [ "$(tail -1 <<<"$o")" = 0 ] &&
    pass "sandbox: the CA is a file of the image, no host path is mounted (SR-3)" ||
    fail "sandbox CA files or mounts: $o"

# --- the host restored, the image without the CA ---
if uninstall; then
	o=$(as_user "$BIN/lazaret" doctor --json 2>&1)
	d=$(jq -r '.[] | select(.check == "image-cas") | "\(.ok) \(.detail)"' <<<"$o" 2>&1)
	[ ! -e "$HOSTCAS/$tag.crt" ] && grep -q "^true " <<<"$d" && ! grep -q "$tag" <<<"$d" &&
	    pass "restored: CA off the host, image rebuilt without it" ||
	    fail "after restoring: $d"
else
	fail "restoring the image: $(tail -5 "$T/setup.log")"
fi

finish
