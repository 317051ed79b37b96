#!/bin/bash
# test-trust.sh: the Trust Anchor (issue 14, SR-9, FR-10) on the real
# coordinator: the coordinator cannot be read by its own user (no core,
# no ptrace, no /proc/PID/mem); domain show lists the Trust Anchor and the
# identities it issued, never a key; the sandbox's certificate inside is
# the one listed, and a restart gives a new Trust Anchor, Sandbox ID and
# certificate; each session has its own Session ID and Session Anchor in
# its environment; a HELLO whose key is malformed, truncated or oversized
# is refused while another session goes on; a sidecar readiness report
# made with another start's key stops the start with nothing left.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc python3 jq
lz_domain_project
cd "$proj" || exit 1

# pem_fp FILE: SHA-256 of the certificate's DER, as domain show prints it.
pem_fp() {
	python3 -c 'import base64, hashlib, sys
t = open(sys.argv[1]).read()
b = t.split("-----BEGIN CERTIFICATE-----")[1].split("-----END")[0]
print(hashlib.sha256(base64.b64decode(b)).hexdigest())' "$1"
}

lz_keep_domain || fail "the Domain did not start"
coord=$(cat "$rt/coordinator.pid")
if ! cat "/proc/$coord/environ" >/dev/null 2>&1 &&
    ! head -c 1 "/proc/$coord/mem" >/dev/null 2>&1; then
	pass "the coordinator is not dumpable: its own user cannot read its environ or memory"
else
	fail "the coordinator's /proc/$coord/environ or mem is readable"
fi
run "$LAZARET" domain show --json
show=$LZ_OUT
anchor=$(jq -r .trust.anchor <<<"$show")
sbx_fp=$(jq -r '.trust.identities[] | select(.role == "sandbox") | .fingerprint' <<<"$show")
sbx_id=$(jq -r '.trust.identities[] | select(.role == "sandbox") | .component' <<<"$show")
roles=$(jq -r '[.trust.identities[].role] | unique | join(",")' <<<"$show")
[[ $anchor =~ ^[0-9a-f]{64}$ ]] && [ "$roles" = client,coordinator,sandbox,sidecar ] &&
    pass "domain show lists the Trust Anchor and the coordinator, client, sandbox and sidecar identities" ||
    fail "domain show --json trust: anchor '$anchor', roles '$roles'"
grep -qiE 'PRIVATE KEY|"key"' <<<"$show" && fail "domain show prints a key" ||
    pass "domain show prints no key"
"$LAZARET" run -- cat /run/lazaret/identity/sandbox.crt >"$LZ_TMP/inside.crt"
[ "$(pem_fp "$LZ_TMP/inside.crt")" = "$sbx_fp" ] &&
    [ "$("$LAZARET" run -- cat /run/lazaret/identity/sandbox.id)" = "$sbx_id" ] &&
    pass "the sandbox's certificate inside is the one domain show lists (Sandbox ID $sbx_id)" ||
    fail "the certificate inside differs from domain show's"
run "$LAZARET" run -- sh -c 'echo x > /run/lazaret/identity/sandbox.crt'
[ "$LZ_RC" != 0 ] && pass "the identity mount is read-only inside" ||
    fail "the sandbox could write its identity"
a1=$("$LAZARET" run -- sh -c 'echo $LAZARET_SESSION $LAZARET_SESSION_ANCHOR')
a2=$("$LAZARET" run -- sh -c 'echo $LAZARET_SESSION $LAZARET_SESSION_ANCHOR')
if [[ $a1 =~ ^[0-9a-f]{32}\ [0-9a-f]{64}$ ]] && [[ $a2 =~ ^[0-9a-f]{32}\ [0-9a-f]{64}$ ]] &&
    [ "${a1#* }" != "${a2#* }" ]; then
	pass "each session has its own Session ID and Session Anchor in its environment"
else
	fail "session environment: '$a1' / '$a2'"
fi

# Bad keys in HELLO, while a session runs.
"$LAZARET" run -- sh -c 'while :; do echo tick; sleep 0.2; done' >"$LZ_TMP/alive" 2>&1 &
alive=$!
lz_cleanup_hooks+=("kill $alive 2>/dev/null")
fp=$(jq -r .fingerprint <<<"$show")
python3 - "$rt/control.sock" "$id" "$fp" >"$LZ_TMP/keys" <<'EOF'
import json, socket, struct, sys
sock, dom, fp = sys.argv[1:4]
def frame(t, p): return b"LZ" + bytes([4, t]) + struct.pack(">HI", 0, len(p)) + p
def ask(key):
    s = socket.socket(socket.AF_UNIX)   # connect blocking, as lazaret does
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", 30, 0))
    s.connect(sock); s.settimeout(5)
    h = {"version": 4, "domain": dom, "profile": "default", "fingerprint": fp}
    if key is not None: h["key"] = key
    s.sendall(frame(1, json.dumps(h).encode()))
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b: break
            got += b
    except socket.timeout:
        pass
    if len(got) < 10: return "-"
    body = json.loads(got[10:10 + struct.unpack(">I", got[6:10])[0]])
    return body.get("code", "WELCOME" if got[3] == 2 else "?")
cases = {
  "missing": None,
  "truncated": "AAAA",
  "oversized": "A" * 5000,
  "not base64": "!" * 44,
  "33-byte": "A" * 44,
  "not an Ed25519 point": "////////////////////////////////////////////8=",
}
for name, key in cases.items():
    print("%s|%s" % (name, ask(key)))
EOF
while IFS='|' read -r name code; do
	case $code in
	frame|identity) pass "HELLO with a $name key: refused ($code)" ;;
	*) fail "HELLO with a $name key: '$code'" ;;
	esac
done <"$LZ_TMP/keys"
[ "$(wc -l <"$LZ_TMP/keys")" = 6 ] || fail "the HELLO script stopped early"
n=$(wc -l <"$LZ_TMP/alive"); sleep 1
[ "$(wc -l <"$LZ_TMP/alive")" -gt "$n" ] &&
    pass "the Domain's other session went on meanwhile" || fail "the other session stopped"
run "$LAZARET" run -- echo still-here
expect "a client with its own good key is still welcome" 0 '^still-here$'
kill "$alive" 2>/dev/null
wait "$alive" 2>/dev/null

# A restart: everything new.
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "leftovers: $(leftovers)"
lz_keep_domain || fail "the Domain did not start again"
run "$LAZARET" domain show --json
anchor2=$(jq -r .trust.anchor <<<"$LZ_OUT")
sbx_id2=$(jq -r '.trust.identities[] | select(.role == "sandbox") | .component' <<<"$LZ_OUT")
sbx_fp2=$(jq -r '.trust.identities[] | select(.role == "sandbox") | .fingerprint' <<<"$LZ_OUT")
"$LAZARET" run -- cat /run/lazaret/identity/sandbox.crt >"$LZ_TMP/inside2.crt"
if [ "$anchor2" != "$anchor" ] && [ "$sbx_id2" != "$sbx_id" ] &&
    [ "$(pem_fp "$LZ_TMP/inside2.crt")" = "$sbx_fp2" ] && [ "$sbx_fp2" != "$sbx_fp" ]; then
	pass "after a restart: a new Trust Anchor, Sandbox ID and sandbox certificate (inside too)"
else
	fail "restart: anchor $anchor -> $anchor2, sandbox $sbx_id -> $sbx_id2"
fi
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "leftovers: $(leftovers)"
# The ended start's key material is gone (the coordinator holds the lock
# until its teardown is over).
flock "$rt/lifecycle.lock" true
# The attachment file stays, empty: the prepared sidecar binds it.
left=$(find "$rt/identity" -type f 2>/dev/null; find "$rt/sidecar.key" -type f ! -empty 2>/dev/null)
left=$(printf '%s' "$left" | tr "\n" " ")
[ -z "$left" ] && pass "after the Domain ends, no key or certificate of its start is left in the runtime directory" ||
    fail "left after the end: $left"

# A readiness report made with another key: the start stops, nothing left.
run env LAZARET_TEST_SIDECAR_TAMPER=attach "$LAZARET" run -- true
expect "a sidecar readiness report of another start stops the start" 1 \
    "readiness report is not this start's"
podman ps -a --filter "label=lazaret.domain=$id" -q | grep -q . &&
    fail "containers left after the refused start" ||
    pass "nothing left after the refused start"
flock "$rt/lifecycle.lock" true
[ -z "$(find "$rt/identity" -type f 2>/dev/null; find "$rt/sidecar.key" -type f ! -empty 2>/dev/null)" ] &&
    pass "nor its key material" || fail "key material left after the refused start"
finish
