#!/bin/bash
# test-terminal.sh: a raw terminal session seen from a real terminal (a
# private tmux server): keys in, output out, window size, and the output
# filter: OSC 52 clipboard writes, title changes and queries from the
# sandbox never reach the outer terminal (tmux's buffer and pane title stay
# unchanged); the terminal is left in cooked mode when the session ends and
# when the client is killed; detach (Ctrl-] d), ls, attach with the screen
# redrawn, a session surviving its client's SIGTERM, and a program's
# fullest pen leaving the coordinator running.
set -u
. "$(dirname "$0")/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
lz_tmux lz

# clear_pane: clears the outer shell's screen and waits until it is empty,
# so a later wait_for cannot match what was there before.
clear_pane() {
	local i
	tm send-keys -t lz "clear" Enter
	for i in $(seq 1 100); do
		[ -z "$(tm capture-pane -p -t lz | grep -v '^bash-[0-9.]*\$ *$' | tr -d ' \n')" ] && return 0
		sleep 0.05
	done
	return 1
}

tm new-session -d -s lz -x 100 -y 30 -c "$proj" \
    "bash --norc --noprofile"
tm set-option -g set-clipboard on
tm set-option -g allow-rename on
tm set-option -g set-titles on
tm rename-window -t lz keepme
tm send-keys -t lz "stty -a | grep -o ' icanon'; $LAZARET run" Enter
if wait_for 'root@lazaret:/workspace#' 60; then
	pass "a terminal session opens a shell in the sandbox"
else
	fail "no sandbox prompt"
fi
tm send-keys -t lz "stty size; echo \$TERM; ls \$TERMINFO/*/\$TERM && tput cols" Enter
wait_for '^30 100' 10 && pass "the pty has the terminal's size (30x100)" ||
    fail "window size not passed"
wait_for '^/run/lazaret/terminfo/[0-9a-z]+/[a-z]' 10 &&
    pass "the host's terminfo entry for TERM is injected read-only" ||
    fail "no injected terminfo entry for the host TERM"
tm resize-window -t lz -x 90 -y 25
sleep 0.3
tm send-keys -t lz "stty size" Enter
wait_for '^25 90' 10 && pass "a resize reaches the session" ||
    fail "resize not propagated"
tm send-keys -t lz "printf '\\033]52;c;cHduZWQ=\\a\\033]2;pwned-title\\a\\033]0;pwned2\\a'; echo filtered-done" Enter
wait_for '^filtered-done' 10 || fail "the printf did not finish"
# A query is answered by the session's pane, not by the host terminal.
tm send-keys -t lz "clear; printf '\\033[6n'; read -s -d R -t 3 a; echo \"dsr=\${a#*[}\"" Enter
wait_for 'dsr=[0-9]+;[0-9]+$' 10 && pass "the pane answers a cursor-position query" ||
    fail "no answer to a cursor-position query"
buf=$(tm show-buffer 2>/dev/null || true)
title=$(tm display-message -p -t lz '#{pane_title} #{window_name}')
if [ -z "$buf" ]; then
	pass "OSC 52 never reached the outer terminal (tmux buffer empty)"
else
	fail "OSC 52 reached tmux: buffer '$buf'"
fi
if [[ $title != *pwned* ]]; then
	pass "title changes were dropped ($title)"
else
	fail "a title change reached the outer terminal: $title"
fi
tm send-keys -t lz "exit" Enter
wait_for '^bash-[0-9.]+\$ *$' 30 || fail "the session did not end"
tm send-keys -t lz "clear; stty -a | grep -o ' icanon'" Enter
wait_for '^ icanon' 30 && pass "the terminal is cooked again after exit" ||
    fail "terminal not restored after exit"
tm send-keys -t lz "clear; $LAZARET run" Enter
wait_for 'root@lazaret:/workspace#' 60 || fail "no second prompt"
tm send-keys -t lz "echo mark-\$((6*7))" Enter
wait_for '^mark-42' 10 || fail "no output in the second session"
# Detach with the escape key (Ctrl-] d): the session keeps running.
tm send-keys -t lz C-] d
wait_for 'detached from session' 10 && pass "Ctrl-] d detaches" ||
    fail "the detach key did not detach"
tm send-keys -t lz "$LAZARET ls" Enter
wait_for 'detached +yes .*bash' 15 && pass "lazaret ls shows the detached session" ||
    fail "lazaret ls does not show a detached session"
clear_pane
tm send-keys -t lz "$LAZARET attach --raw" Enter
wait_for '^mark-42' 15 && pass "lazaret attach redraws the session's screen" ||
    fail "the screen was not redrawn on attach"
# SIGTERM to the client: terminal restored, session still there.
kpid=$(pane_lazaret)
if [ -n "$kpid" ]; then
	kill -TERM "$kpid"
	wait_for 'stopped by' 15 || fail "the client did not stop on SIGTERM"
	tm send-keys -t lz "clear; stty -a | grep -o ' icanon'" Enter
	wait_for '^ icanon' 30 && pass "SIGTERM to the client restores the terminal" ||
	    fail "terminal not restored after SIGTERM"
else
	fail "could not find the lazaret client under the pane"
fi
clear_pane
tm send-keys -t lz "$LAZARET attach --raw" Enter
wait_for '^mark-42' 15 && pass "the session survived its client's SIGTERM" ||
    fail "the session did not survive its client's SIGTERM"
# A program's SGRs that build the fullest pen (every attribute, 24-bit
# colours on both sides, a font), then REP, which the pane hands libvterm:
# written to libvterm in one CSI of 19 arguments, such a pen overran its
# parser and ended the coordinator with every session (journal, eleventh
# session). The session answers afterwards, in the same Domain.
tm send-keys -t lz "clear; printf '\\033[1;3;21;5;7;9m\\033[38;2;1;2;3;48;2;4;5;6mP\\033[2b\\033[12mQ\\033[2b\\033[m\\n'; echo pen-\$(id -u)" Enter
wait_for '^pen-0' 15 || fail "no answer after the fullest pen"
# uid 0 is the sandbox's root: the host shell the client returns to on
# its coordinator's end is the test account's.
tm send-keys -t lz "echo after-\$(id -u)" Enter
wait_for '^after-0' 15 && [ -n "$(lz_live_containers "$id")" ] &&
    pass "the fullest pen a program can set leaves the session and its Domain running" ||
    fail "the session or its Domain ended after the fullest pen"
tm send-keys -t lz "exit" Enter
for i in $(seq 1 100); do
	[ -z "$(lz_live_containers "$id")" ] && break
	sleep 0.2
done
[ -z "$(lz_live_containers "$id")" ] &&
    pass "the Domain ends with its last session" || fail "container left"
finish
