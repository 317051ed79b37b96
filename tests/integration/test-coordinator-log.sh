#!/bin/bash
# test-coordinator-log.sh: the coordinator's log is bounded whatever
# writes it (src/coordinator-log.c). Some of its lines are made by what
# the sandbox does (here: junk names in the mailbox, one line each), and
# the log lives in the user's runtime directory, shared with every
# Domain and with podman's and runsc's state. Real podman, runsc.
#  - the log filled to just under its bound, then the sandbox's junk
#    pushes it over: within a second it is coordinator.log.1 and a new
#    coordinator.log says so in its first line; the junk's later lines
#    go to the new file; sessions go on;
#  - a log that cannot be moved aside (its path is a symbolic link now):
#    it is emptied instead, and says why.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc
lz_domain_project
cd "$proj" || exit 1

max=$((8 * 1024 * 1024))	# LZ_COORD_LOG_MAX
log=$rt/coordinator.log
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# filler FILE BYTES: appends BYTES of log-like lines to FILE.
filler() {
	head -c "$2" /dev/zero | tr '\0' 'x' | fold -w 99 >>"$1"
}
# within SECONDS CMD...: CMD succeeds within SECONDS (polled every 0.1 s).
within() {
	local n=$(($1 * 10)) i
	shift
	for i in $(seq 1 "$n"); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

lz_keep_domain || fail "log: the Domain did not start"
coord=$(cat "$rt/coordinator.pid")
rm -f "$log.1"
# Just under the bound; the sandbox's junk (about 90 bytes a line) does
# the rest.
filler "$log" $((max - $(size "$log") - 300000))
[ "$(size "$log")" -le "$max" ] && [ ! -e "$log.1" ] ||
    fail "log: filled past the bound before the sandbox wrote"
run "$LAZARET" run -- sh -c 'cd /run/lazaret/requests || exit 9
i=0; while [ $i -lt 8000 ]; do echo x > junk-$i; i=$((i+1)); done; echo made'
expect "log: the sandbox writes 8,000 junk names into the mailbox" 0 made
moved() { [ -s "$log.1" ] && [ "$(size "$log")" -lt $((max / 2)) ]; }
if within 5 moved; then
	pass "log: pushed over ${max} bytes by the sandbox's junk, it became coordinator.log.1 ($(size "$log.1") bytes; the new one $(size "$log"))"
else
	fail "log: not moved aside: coordinator.log $(size "$log") bytes, .1 $(size "$log.1")"
fi
head -1 "$log" | grep -q "the log passed 8 MiB; its earlier lines are in '$log.1'" &&
    pass "log: the new log's first line says where the earlier lines are" ||
    fail "log: first line of the new log: $(head -1 "$log")"
grep -q "dropped: not a record's name" "$log.1" &&
    pass "log: the junk's lines before the bound are in coordinator.log.1" ||
    fail "log: no junk line in coordinator.log.1"
run "$LAZARET" run -- sh -c 'cd /run/lazaret/requests &&
    for i in 1 2 3; do echo x > after-$i; done'
within 5 grep -q "'after-3' dropped: not a record's name" "$log" &&
    pass "log: later lines go to the new log" ||
    fail "log: the later junk's line is not in the new log"
run "$LAZARET" run -- echo still here
expect "log: sessions go on after the log was moved aside" 0 "still here"

# The file behind the coordinator's stderr is no longer at the path, and
# the path is a symbolic link (O_NOFOLLOW refuses it): emptied instead.
mv "$log" "$log.held"
ln -s /nonexistent/lazaret-test "$log"
filler "$log.held" $((max + 100000))
emptied() { [ "$(size "$log.held")" -lt $((max / 2)) ]; }
if within 5 emptied; then
	pass "log: one that cannot be moved aside is emptied ($(size "$log.held") bytes left)"
else
	fail "log: not emptied: $(size "$log.held") bytes"
fi
grep -q "the log passed 8 MiB and could not be moved aside (Too many levels of symbolic links): emptied" "$log.held" &&
    pass "log: and it says why" ||
    fail "log: no line saying why: $(head -c 300 "$log.held")"
[ "$(readlink "$log")" = /nonexistent/lazaret-test ] &&
    pass "log: the symbolic link was not followed or replaced" ||
    fail "log: the symbolic link changed"
rm -f "$log"
mv "$log.held" "$log"
kill -0 "$coord" 2>/dev/null && pass "log: the coordinator ran on throughout" ||
    fail "log: the coordinator is gone"
kill "$keeper" 2>/dev/null
wait "$keeper" 2>/dev/null
wait_gone || fail "log: Domain left behind: $(leftovers)"
finish
