#!/bin/bash
# test-protocol.sh: bad frames on the real coordinator's control socket
# (wire.md 1.2-1.4): wrong types, missing keys, numbers out of range, huge
# strings, invalid UTF-8, duplicate keys, frames out of order, INPUT past
# the window. Each gets ERROR with a word and its connection is closed;
# the coordinator and a session of the Domain go on. Also 1,000
# connections dropped in the middle of a HELLO.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc python3 jq openssl
lz_domain_project
cd "$proj" || exit 1
lz_keep_domain || fail "the Domain did not start"
fp=$("$LAZARET" domain show --json | jq -r .fingerprint)
coord=$(cat "$rt/coordinator.pid")

# A session that must keep working through all of it.
"$LAZARET" run -- sh -c 'while :; do date +%s%N; sleep 0.2; done' \
    >"$LZ_TMP/alive" 2>&1 &
alive=$!
lz_cleanup_hooks+=("kill $alive 2>/dev/null")

cat >"$LZ_TMP/frames.py" <<'EOF'
import json, socket, struct, sys, time
sock, dom, fp, key = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
V = 4
def frame(t, payload, version=V, flags=0):
    return b"LZ" + bytes([version, t]) + struct.pack(">HI", flags, len(payload)) + payload
def hello(**over):
    h = {"version": V, "domain": dom, "profile": "default", "fingerprint": fp,
         "key": key}
    h.update(over)
    return frame(0x01, json.dumps(h).encode())
def exchange(data, read_all=True):
    # Connect as lazaret does, blocking (bounded here by SO_SNDTIMEO): a
    # non-blocking connect gets EAGAIN while the backlog is full, as after
    # the 1,000 dropped HELLOs below on a slow (ASan, loaded) coordinator.
    s = socket.socket(socket.AF_UNIX)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", 30, 0))
    s.connect(sock); s.settimeout(5)
    try:
        s.sendall(data)
    except (BrokenPipeError, ConnectionResetError):
        pass                    # refused half-way: read what it said
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b: break
            got += b
    except socket.timeout:
        return got, False       # still open
    except ConnectionResetError:
        pass
    return got, True            # closed by the coordinator
def errors(got):
    out, off = [], 0
    while off + 10 <= len(got):
        t = got[off + 3]; n = struct.unpack(">I", got[off + 6:off + 10])[0]
        if t == 0x03: out.append(json.loads(got[off + 10:off + 10 + n])["code"])
        off += 10 + n
    return out
cases = {
 "not HELLO first": frame(0x20, b""),
 "HELLO twice": hello() + hello(),
 "HELLO with a number for a string": hello(domain=12),
 "HELLO missing its fingerprint": frame(0x01, json.dumps({"version": V, "domain": dom, "profile": "default"}).encode()),
 "HELLO with duplicate keys": frame(0x01, b'{"version":4,"version":4,"domain":"%s","profile":"default","fingerprint":"%s"}' % (dom.encode(), fp.encode())),
 "HELLO with invalid UTF-8": frame(0x01, b'{"version":4,"domain":"%s","profile":"\xff\xfe","fingerprint":"%s"}' % (dom.encode(), fp.encode())),
 "OPEN with rows out of range": hello() + frame(0x10, json.dumps({"tty": True, "rows": 0, "cols": 80}).encode()),
 "OPEN with a huge cwd": hello() + frame(0x10, json.dumps({"cwd": "a" * 100000}).encode()),
 "OPEN with argv not strings": hello() + frame(0x10, json.dumps({"argv": ["sh", {"x": 1}]}).encode()),
 "OPEN that is not an object": hello() + frame(0x10, b"[1,2,3]"),
 "ATTACH with a bad session ID": hello() + frame(0x18, json.dumps({"session": "../../etc"}).encode()),
 "a frame type the coordinator does not take": hello() + frame(0x13, b"x"),
 "an unknown frame type": hello() + frame(0x7f, b""),
 "a frame of version 1": frame(0x01, b"{}", version=1),
 "non-zero flags": frame(0x01, b"{}", flags=1),
 "a length over the limit": b"LZ" + bytes([V, 0x12]) + struct.pack(">HI", 0, 2 << 20),
 "INPUT past the window": hello() + frame(0x10, json.dumps({"argv": ["sleep", "30"]}).encode()) + b"".join(frame(0x12, b"y" * 65536) for _ in range(40)),
}
for name, data in cases.items():
    got, closed = exchange(data)
    print("%s|%s|%s" % (name, ",".join(errors(got)) or "-", "closed" if closed else "open"))
# 1,000 connections dropped in the middle of a HELLO.
half = hello()[:7]
for i in range(1000):
    s = socket.socket(socket.AF_UNIX); s.connect(sock); s.sendall(half); s.close()
got, closed = exchange(hello() + frame(0x20, b""))
print("after 1000 dropped HELLOs|%s|%s" % ("SESSIONS" if got and got.find(bytes([V, 0x21])) >= 0 else "-", closed))
EOF
rss0=$(awk '/^VmRSS/ {print $2}' "/proc/$coord/status")
# A client's Ed25519 public key for HELLO (base64 of its 32 raw bytes).
key=$(openssl genpkey -algorithm ed25519 | openssl pkey -pubout -outform DER |
    tail -c 32 | base64)
python3 "$LZ_TMP/frames.py" "$rt/control.sock" "$id" "$fp" "$key" >"$LZ_TMP/cases" 2>"$LZ_TMP/py.err"
[ "$(wc -l <"$LZ_TMP/cases")" = 18 ] ||
    { LZ_ERR=$(cat "$LZ_TMP/py.err"); fail "the frame script stopped after $(wc -l <"$LZ_TMP/cases") of 18 cases"; }
while IFS='|' read -r name codes state; do
	case $name in
	"after 1000"*)
		[ "$codes" = SESSIONS ] &&
		    pass "1,000 connections dropped mid-HELLO: the next client is answered" ||
		    fail "no answer after 1,000 dropped HELLOs"
		continue ;;
	"INPUT past the window") want=window ;;
	"not HELLO first"|"HELLO twice") want=order ;;
	*) want="frame|order" ;;
	esac
	if [[ $codes =~ (^|,)($want)$ ]] && [ "$state" = closed ]; then
		pass "$name: ERROR ${codes##*,}, connection closed"
	elif [[ $name = "a frame of version 1" || $name = "non-zero flags" ||
	    $name = "a length over the limit" || $name = "an unknown frame type" ]] &&
	    [ "$codes" = frame ] && [ "$state" = closed ]; then
		pass "$name: ERROR frame, connection closed"
	else
		fail "$name: got '$codes', connection $state"
	fi
done <"$LZ_TMP/cases"
rss1=$(awk '/^VmRSS/ {print $2}' "/proc/$coord/status")
[ $((rss1 - rss0)) -lt 32768 ] &&
    pass "no memory growth from the bad frames (RSS $rss0 -> $rss1 kB)" ||
    fail "coordinator RSS grew $rss0 -> $rss1 kB"
n=$(wc -l <"$LZ_TMP/alive")
sleep 1
[ "$(wc -l <"$LZ_TMP/alive")" -gt "$n" ] && kill -0 "$alive" 2>/dev/null &&
    pass "the Domain's other session went on meanwhile" ||
    fail "the other session stopped"
run "$LAZARET" run -- echo still-here
expect "a new session opens after all of it" 0 '^still-here$'
kill "$alive" 2>/dev/null
wait "$alive" 2>/dev/null
kill "$keeper" 2>/dev/null
wait_gone || fail "leftovers: $(leftovers)"
finish
