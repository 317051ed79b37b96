#!/bin/bash
# test-startup-kill.sh: FR-7 for start-up (issues 4 and 5): kill -9 of the
# coordinator at several points of a Domain's start (before, during and
# after the Network Sidecar's start, the anchors' mount and the sandbox's
# start) and of the client with it; each time the next `lazaret run` starts
# cleanly, and after it nothing is left: no container with the Domain's
# label, no control socket, no anchor mount. The delays are spread over a
# cold start of about 1 s (journal.md), so the kills land before the
# sidecar, beside it, during the sandbox's create and once it runs.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc jq
lz_domain_project
cd "$proj" || exit 1

# What of the Domain exists right now, for the log.
stage() {
	local s="" n
	n=$(podman ps -a --filter "label=lazaret.domain=$id" --format '{{.Labels}}' 2>/dev/null)
	[[ $n == *lazaret.role:sidecar* ]] && s+=" sidecar"
	[[ $n == *lazaret.role:sandbox* ]] && s+=" sandbox"
	[[ $n == *lazaret.prepared* ]] && s+=" (prepared)"
	podman unshare grep -q "$droot/anchors" /proc/self/mountinfo 2>/dev/null && s+=" anchors"
	echo "${s:- nothing yet}"
}

# The coordinator writes its PID file when it starts; one left by a killed
# coordinator is removed first, and the PID is only killed when it is
# still a coordinator (never a reused PID).
for delay in 0.1 0.2 0.3 0.4 0.5 0.7 1.0 2.0; do
	rm -f "$rt/coordinator.pid"
	"$LAZARET" run -- sleep 30 </dev/null >/dev/null 2>&1 &
	client=$!
	sleep "$delay"
	cpid=$(cat "$rt/coordinator.pid" 2>/dev/null || true)
	what=$(stage)
	if [ -n "$cpid" ] && tr '\0' ' ' <"/proc/$cpid/cmdline" 2>/dev/null |
	    grep -q -- "__coordinator"; then
		kill -9 "$cpid" 2>/dev/null
	else
		cpid=
	fi
	kill -9 "$client" 2>/dev/null
	wait "$client" 2>/dev/null
	run "$LAZARET" run -- echo started-again
	if [ "$LZ_RC" = 0 ] && [[ $LZ_OUT == *started-again* ]]; then
		pass "kill -9 after ${delay}s (coordinator ${cpid:-not yet started};${what}): the next run starts"
	else
		fail "kill -9 after ${delay}s (${what}): the next run failed (exit $LZ_RC)"
	fi
	if wait_gone; then
		pass "kill -9 after ${delay}s: nothing left after the next run"
	else
		fail "kill -9 after ${delay}s: leftovers: $(leftovers)"
	fi
done
finish
