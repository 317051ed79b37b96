#!/bin/bash
# test-tui-escalate.sh: Host Escalation as the developer meets it (issue
# 15; SR-7, SR-8, FR-5, DX-4, OR-2), against the real coordinator, sandbox,
# mailbox and host commands, the TUI driven through a private tmux server.
# A request's modal over the pane that asked (the pane's tab marked, the
# status line counting, the pane's scrollback kept); approve (the host
# command's output, stderr and exit status in the pane), deny with a
# message (77 and the message), edit (the edited argv runs, the agent and
# the audit log are told), approve for the session (the same argv again
# without a prompt, another still asks), save a rule (nothing written
# before the second confirmation; then the config gains exactly that line,
# profile show lists it, new sessions run it without a prompt, another
# argv still asks); keys typed in the first half second reach neither the
# modal nor the pane; a timeout (124) and a cancel withdraw the modal; two
# panes asking at once, each answered in its own pane, keys of the other
# pane reaching its program; a pane flooding output under its modal while
# another pane answers; detach with a request waiting, attach, the modal
# back without a key, answered; a raw session (`lazaret run` on a
# terminal) answering its own modal, its screen restored; spoofing: ANSI
# and OSC sequences, bidi overrides, zero-width characters, C1 and
# newlines shown escaped and inert (the outer terminal's title and
# clipboard untouched, `lazaret audit` escaped), a 100 KB argument refused
# by the client, and the largest request a record holds read back whole by
# paging through the modal.
set -u
. "$(dirname "$0")/../integration/lib.sh"

lz_require podman runsc tmux jq
lz_domain_project
cd "$proj" || exit 1
lz_tmux lz
P=C-]	# the prefix
T='host command requested by'
cfg=$XDG_CONFIG_HOME/lazaret/config.ini
printf '[profile default]\nescalation-timeout = 120\n' > "$cfg"
chmod 600 "$cfg"
t_start=$(date +%s)

screen() { tm capture-pane -p -t "$lz_tmux_target"; }
has() { screen | grep -Eq -- "$1"; }
hasf() { screen | grep -Fq -- "$1"; }
outer() { tm send-keys -t lz -l "$1"; tm send-keys -t lz Enter; }
# up WHO [SECONDS]: waits for the modal of WHO ("pane 1", "this
# session"), then for its half-second key guard to end.
up() { wait_for "$T $1" "${2:-30}" && sleep 0.6; }
audit() { "$LAZARET" audit --json; }
# rid ARG...: the newest request of exactly this argv in the audit log.
rid() {
	audit | jq -r --argjson a "$(jq -cn '$ARGS.positional' --args "$@")" \
	    'select(.kind == "request" and .argv == $a) | .id' | tail -1
}
# how ID: how it was decided and how it ended, e.g. "human/completed".
how() {
	audit | jq -r --arg id "$1" \
	    'select(.id == $id and .kind != "request") | (.by // .outcome)' |
	    paste -sd/
}
# how_is ID WANT: waits up to 5 s for how ID to say WANT (the result
# record is written just after the result reaches the sandbox).
how_is() {
	local i
	for i in $(seq 1 50); do
		[ "$(how "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# left_has REGEX / right_has REGEX: in the left (pane 1, 49 columns) or
# right (pane 2, 50 columns) part of the screen split side by side, the
# border between them in column 50 (characters, not bytes).
half() {
	local l
	screen | head -n -1 | while IFS= read -r l; do
		if [ "$1" = left ]; then
			printf '%s\n' "${l:0:49}"
		else
			printf '%s\n' "${l:50}"
		fi
	done
}
left_has() { half left | grep -Eq -- "$1"; }
right_has() { half right | grep -Eq -- "$1"; }
# wait_in SIDE REGEX [SECONDS]: polls left_has or right_has.
wait_in() {
	local i
	for i in $(seq 1 $(( ${3:-15} * 20 ))); do
		"$1_has" "$2" && return 0
		sleep 0.05
	done
	screen | sed 's/^/  | /'
	return 1
}

tm new-session -d -s lz -x 100 -y 30 -c "$proj" "bash --norc --noprofile"
# A sequence that got through to tmux would set its clipboard or title.
tm set-option -g set-clipboard on
tm set-option -g allow-rename on
tm set-option -g automatic-rename off
outer "clear; $LAZARET; echo tui-rc=\$? > $LZ_TMP/rc"
if ! wait_for 'root@lazaret:/workspace#' 90; then
	fail "the TUI did not start"
	finish
	exit 1
fi
title0=$(tm display-message -p -t lz '#{pane_title}')
win0=$(tm display-message -p -t lz '#{window_name}')

# Approve. Some scrollback first, to see that a decision keeps it.
type_line 'seq 1 100; lazaret-escalate -j "print a greeting" -- printf "approved-%s\n" tui42; echo rc=$?'
if up "pane 1"; then
	s=$(screen)
	grep -Fq '│    0 "printf"' <<<"$s" && grep -Fq '│    1 "approved-%s\\n"' <<<"$s" &&
	    grep -Fq '│    2 "tui42"' <<<"$s" && grep -Fq "directory  $proj " <<<"$s" &&
	    grep -Fq 'session    pane 1: /bin/bash -l  (' <<<"$s" &&
	    grep -Fq '"print a greeting"' <<<"$s" && grep -Fq 'profile    default' <<<"$s" &&
	    pass "the modal shows the profile, the session, the host directory, the argv one quoted element a line and the agent's words" ||
	    fail "modal content: $(printf '%s\n' "$s" | sed 's/^/  | /')"
	grep -Eq '^ lazaret default [0-9a-f]{8} \| 1 request waiting \| 1:bash\*!' <<<"$s" &&
	    pass "the status line counts '1 request waiting' and the pane's tab is marked '!'" ||
	    fail "status line: '$(tail -1 <<<"$s")'"
	tm send-keys -t lz a
	wait_for '^approved-tui42$' 15 && wait_for '^rc=0$' 5 &&
	    pass "a approves: the host command's output and exit status (0) in the pane" ||
	    fail "approve"
	gone "$T" 5 && ! has 'request waiting|1:bash\*!' &&
	    pass "the modal, the count and the mark go with the decision" ||
	    fail "modal or mark left after the decision"
	tm send-keys -t lz "$P" '['
	wait_for '\[copy\] 0/[0-9]+ back' 5
	back=$(screen | sed -n 's/.*\[copy\] 0\/\([0-9]*\) back.*/\1/p' | tail -1)
	tm send-keys -t lz q
	# 100 lines and the command line on a screen of 29 rows.
	[ "${back:-0}" -ge 70 ] &&
	    pass "the pane's scrollback survives the decision ($back lines back)" ||
	    fail "scrollback after a decision: '$back' lines"
	id=$(rid printf 'approved-%s\n' tui42)
	how_is "$id" human/completed &&
	    audit | jq -se --arg id "$id" 'any(.[]; .id == $id and .kind == "decision" and (.client | test("^[0-9a-f]{16} sig=")))' >/dev/null &&
	    pass "the audit log: decided by a human (the client's signature), completed" ||
	    fail "audit of the approval: '$(how "$id")'"
else
	fail "no modal over pane 1"
fi
type_line 'clear; lazaret-escalate -- ls /nonexistent-lz-tui-esc; echo rc=$?'
up "pane 1" && tm send-keys -t lz a
wait_for '^rc=2$' 15 && has "^ls: cannot access '/nonexistent-lz-tui-esc'" &&
    pass "the host command's stderr and a failing status (ls: 2) come back" ||
    fail "ls through an approval"

# Deny with a message.
type_line 'clear; lazaret-escalate -- printf "denied-%s\n" nope; echo rc=$?'
up "pane 1"
tm send-keys -t lz d
wait_for 'A message for the agent' 5 || fail "d did not ask for a message"
tm send-keys -t lz -l 'use the CI job instead'
tm send-keys -t lz Enter
wait_for '^rc=77$' 15 &&
    has '^lazaret-escalate: the developer says: use the CI job instead$' &&
    ! has '^denied-nope' &&
    pass "d, a message, Enter: nothing runs, the agent gets 77 and the message" ||
    fail "deny with a message"
id=$(rid printf 'denied-%s\n' nope)
how_is "$id" human/denied &&
    [ "$(audit | jq -r --arg id "$id" 'select(.id == $id and .kind == "decision") | .message')" = "use the CI job instead" ] &&
    pass "the audit log keeps the denial and its message" || fail "audit of the denial"

# Edit: element 1 changed, one inserted after it.
type_line 'clear; lazaret-escalate -- echo orig-v1; echo rc=$?'
up "pane 1"
tm send-keys -t lz e
wait_for 'Edit the command: it runs exactly as shown' 5 || fail "e did not open the editor"
tm send-keys -t lz Down Enter C-u
tm send-keys -t lz -l 'edited-v2'
tm send-keys -t lz Enter
tm send-keys -t lz o
tm send-keys -t lz -l 'extra-3'
tm send-keys -t lz Enter
wait_for '│ >  2 "extra-3"' 5 && hasf '│    1 "edited-v2"' &&
    pass "the editor: Enter edits an element, o inserts one after it" ||
    fail "the edited argv is not shown"
tm send-keys -t lz y
wait_for '^edited-v2 extra-3$' 15 && wait_for '^rc=0$' 5 &&
    has '^lazaret-escalate: the developer edited the command; ran: "echo" "edited-v2" "extra-3"$' &&
    ! has '^orig-v1$' &&
    pass "y runs exactly the edited argv, and the agent is told what ran" ||
    fail "edit"
id=$(rid echo orig-v1)
audit | jq -se --arg id "$id" 'any(.[]; .id == $id and .kind == "decision" and .decision == "edit" and .edited == true and .argv == ["echo","edited-v2","extra-3"])' >/dev/null &&
    how_is "$id" human/completed &&
    pass "the audit log marks the decision edited, with the argv that ran" ||
    fail "audit of the edit: $(audit | jq -c --arg id "$id" 'select(.id == $id)')"

# Approve for the session.
type_line 'clear; lazaret-escalate -- echo sess-once-1; echo rc=$?'
up "pane 1" && tm send-keys -t lz s
wait_for '^sess-once-1$' 15 || fail "s did not run the command"
type_line 'clear; lazaret-escalate -- echo sess-once-1; echo rc2=$?'
wait_for '^rc2=0$' 15 && has '^sess-once-1$' && ! has "$T" &&
    how_is "$(rid echo sess-once-1)" session-approval/completed &&
    pass "after s the same argv runs again without a prompt (decided by: session-approval)" ||
    fail "the session approval did not apply: '$(how "$(rid echo sess-once-1)")'"
type_line 'clear; lazaret-escalate -- echo sess-once-2; echo rc3=$?'
up "pane 1" && pass "a different argv in that session still asks" ||
    fail "no modal for another argv"
tm send-keys -t lz a
wait_for '^rc3=0$' 15 || fail "sess-once-2 was not answered"

# Two requests of one pane: one modal, "+1 pending"; the next one after
# the first answer, guarded afresh.
type_line 'clear; lazaret-escalate -- echo queued-1 & sleep 0.5; lazaret-escalate -- echo queued-2 & wait; echo rcq=$?'
if up "pane 1  \+1 pending" 30; then
	has '\| 2 requests waiting \|' &&
	    pass "a second request of the same pane queues behind the modal ('+1 pending', '2 requests waiting')" ||
	    fail "the status line does not count the queued request: '$(screen | tail -1)'"
	tm send-keys -t lz a
	wait_for "$T pane 1 ─" 10 && has 'keys ignored for half a second' &&
	    pass "answering the first shows the next one, its keys guarded afresh" ||
	    fail "the queued request did not follow"
	sleep 0.6
	tm send-keys -t lz a
	wait_for '^rcq=0$' 15 && has '^queued-1$' && has '^queued-2$' &&
	    pass "both queued requests ran" || fail "queued requests"
else
	fail "no '+1 pending' for two requests of one pane"
fi

# Keys typed as the modal appears (the developer was typing into the
# pane): dropped and counted, seen by neither the modal nor the pane.
type_line 'clear; lazaret-escalate -- echo guard-ok-5; echo rc=$?'
if wait_for "$T pane 1" 30; then
	tm send-keys -t lz e r d
	sleep 0.8
	s=$(screen)
	if grep -q '(3 keys typed too early ignored)' <<<"$s" &&
	    grep -q 'a approve once' <<<"$s"; then
		pass "keys typed in the first half second are dropped, counted, and change nothing"
	else
		fail "the guard: $(printf '%s\n' "$s" | sed 's/^/  | /')"
	fi
	tm send-keys -t lz a
	wait_for '^rc=0$' 15 && has '^guard-ok-5$' &&
	    has '^root@lazaret:/workspace# *$' && ! has 'erd' &&
	    pass "those keys never reached the pane's program" ||
	    fail "keys of the guard leaked into the pane"
else
	fail "no modal for the guard"
fi

# A timeout while the modal is up.
type_line 'clear; lazaret-escalate -t 3 -- echo timeout-ask-3; echo rc=$?'
wait_for "$T pane 1" 30 && has 'times out in 0:0[0-3]' ||
    fail "no modal, or no countdown, for -t 3"
wait_for '^rc=124$' 15 && ! has "$T" &&
    has '^lazaret-escalate: timed out: nobody decided in time' &&
    ! has '^timeout-ask-3$' &&
    pass "-t 3: the modal is withdrawn and the agent gets 124 (never a denial)" ||
    fail "timeout"
how_is "$(rid echo timeout-ask-3)" timeout/timed-out &&
    pass "the audit log: decided by timeout, timed-out" ||
    fail "audit of the timeout: '$(how "$(rid echo timeout-ask-3)")'"

# Cancel: SIGINT (what Ctrl-C sends) to the waiting lazaret-escalate.
type_line 'clear; lazaret-escalate -- echo cancel-ask-4 & p=$!; sleep 3; kill -INT $p; wait $p; echo rc=$?'
wait_for "$T pane 1" 30 || fail "no modal to cancel"
wait_for '^rc=130$' 15 && gone "$T" 3 && ! has '^cancel-ask-4$' &&
    pass "Ctrl-C (SIGINT) in the caller: 130, the modal goes away" ||
    fail "cancel"
how_is "$(rid echo cancel-ask-4)" cancelled &&
    pass "the audit log: cancelled" ||
    fail "audit of the cancel: '$(how "$(rid echo cancel-ask-4)")'"

# Spoofing: the sandbox's bytes shown escaped, none of them acting.
cat > "$proj/spoof.sh" <<'EOF'
lazaret-escalate -j "$(printf 'trust me\033]0;PWNED-TITLE\007\033[2J\nsecond line \342\200\256evil\342\200\213zw')" -- \
	"$(printf 'echo\033]2;PWNED-PROG\007')" "$(printf '\033[31mRED\033[0m')" \
	"$(printf '\033]52;c;UFdORUQtQ0xJUA==\007')" "$(printf 'a\342\200\256gpj.exe')" \
	"$(printf 'zw\342\200\213x\357\273\277y')" "$(printf 'line1\nline2\rcr')" \
	"$(printf '\302\233c1 \177del')" "$(printf '\033]8;;http://x\033\\link\033]8;;\033\\')"
echo rc=$?
EOF
type_line 'clear; sh spoof.sh'
if up "pane 1"; then
	s=$(screen)
	miss=""
	for want in '0 "echo\x1b]2;PWNED-PROG\x07"' '1 "\x1b[31mRED\x1b[0m"' \
	    '2 "\x1b]52;c;UFdORUQtQ0xJUA==\x07"' '3 "a\u202egpj.exe"' \
	    '4 "zw\u200bx\ufeffy"' '5 "line1\nline2\rcr"' '6 "\u009bc1 \x7fdel"' \
	    '7 "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"' \
	    '"trust me\x1b]0;PWNED-TITLE\x07\x1b[2J\nsecond line \u202eevil\u200bzw"'; do
		grep -Fq -- "$want" <<<"$s" || miss="$miss [$want]"
	done
	[ -z "$miss" ] &&
	    pass "ANSI, OSC 0/2/8/52, bidi, zero-width, C1, DEL, CR and newlines: each shown as its escape, on its element's line" ||
	    fail "not shown escaped:$miss"
	grep -Eq '^ lazaret default [0-9a-f]{8} \| 1 request waiting' <<<"$s" &&
	    pass "'\\x1b[2J' in the agent's words cleared nothing (the status line is there)" ||
	    fail "the screen around the modal changed"
	red=$(tm capture-pane -e -p -t lz | grep -F 'RED')
	! grep -Eq $'\033\\[([0-9;]*;)?(31|91|38;5;1|38;5;9)m' <<<"$red" &&
	    pass "the sandbox's SGR is inert: 'RED' is not drawn red" ||
	    fail "the sandbox's colour reached the screen: $(cat -v <<<"$red")"
	[ "$(tm display-message -p -t lz '#{pane_title}')" = "$title0" ] &&
	    [ "$(tm display-message -p -t lz '#{window_name}')" = "$win0" ] &&
	    pass "the outer terminal's title is unchanged (OSC 0 and 2 in the argv and the words)" ||
	    fail "title now '$(tm display-message -p -t lz '#{pane_title}')' (was '$title0'), window '$(tm display-message -p -t lz '#{window_name}')' (was '$win0')"
	[ -z "$(tm list-buffers 2>/dev/null)" ] &&
	    pass "no OSC 52 reached tmux (no clipboard buffer)" ||
	    fail "tmux got a buffer: $(tm list-buffers)"
	tm send-keys -t lz d Enter
	wait_for '^rc=77$' 15 || fail "the spoofing request was not denied"
else
	fail "no modal for the spoofing request"
fi
out=$("$LAZARET" audit 2>&1)
! grep -q $'\033' <<<"$out" && grep -Fq 'PWNED-TITLE\x07' <<<"$out" &&
    pass "lazaret audit prints the same words escaped (no ESC byte)" ||
    fail "lazaret audit let a control byte through"
type_line 'clear; lazaret-escalate -- echo "$(head -c 102400 /dev/zero | tr "\0" A)"; echo rc=$?'
wait_for '^rc=125$' 15 &&
    has 'argument 2 of the command is 102400 bytes, over the limit of 4096' && ! has "$T" &&
    pass "a 100 KB argument is refused by lazaret-escalate (125, the limit said), nothing shown" ||
    fail "100 KB argument"

# The largest request a record holds (12 elements of 4096 bytes and one of
# ESC and RLO), read back whole by paging through the modal.
cat > "$proj/big.sh" <<'EOF'
set -- echo
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	c=$(printf "\\$(printf %o $((96 + ${i#0})))")
	set -- "$@" "B$i$(head -c 4090 /dev/zero | tr '\0' "$c")E$i"
done
e=$(printf '\033[31m\342\200\256') s= n=0
while [ $n -lt 500 ]; do s="$s$e"; n=$((n + 1)); done
set -- "$@" "$s"
lazaret-escalate -- "$@"; echo rc=$?
EOF
type_line 'clear; sh big.sh'
if up "pane 1"; then
	declare -A body=()
	last=0 total=1 pages=0
	tm send-keys -t lz g
	while [ "$last" -lt "$total" ] && [ "$pages" -lt 100 ]; do
		pages=$((pages + 1))
		s=$(screen)
		read -r first last total < <(sed -n 's/.*│ lines \([0-9]*\)-\([0-9]*\) of \([0-9]*\) .*/\1 \2 \3/p' <<<"$s")
		[ -n "${total:-}" ] || { fail "no 'lines A-B of N' in the footer"; break; }
		top=$(grep -n "┌─ $T pane 1" <<<"$s" | cut -d: -f1)
		for ((l = first; l <= last; l++)); do
			body[$l]=$(sed -n "$((top + l - first + 1))p" <<<"$s" |
			    sed 's/^│ //; s/ *│$//')
		done
		[ "$last" -lt "$total" ] || break
		tm send-keys -t lz Space
		for i in $(seq 1 100); do
			screen | grep -q "│ lines $((last)) *-" && break
			screen | grep -q "│ lines [0-9]*-$total of $total " && break
			sleep 0.02
		done
	done
	# The elements as the modal shows them, joined across their lines.
	got=$(for ((l = 1; l <= total; l++)); do printf '%s\n' "${body[$l]-MISSING}"; done |
	    awk '/^ *[0-9]+ "/ { if (n++) print e; e = substr($0, 6); next }
		 /^the agent.s words/ { print e; exit }
		 n { e = e substr($0, 6) }')
	want='"echo"'
	for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
		c=$(printf "\\$(printf %o $((96 + 10#$i)))")
		want+=$'\n'"\"B$i$(head -c 4090 /dev/zero | tr '\0' "$c")E$i\""
	done
	esc='"' n=0
	while [ $n -lt 500 ]; do esc+='\x1b[31m\u202e'; n=$((n + 1)); done
	want+=$'\n'"$esc\""
	if [ "$got" = "$want" ]; then
		pass "a 13-element, 56 KB request read back whole and exact by paging ($total lines, $pages pages): nothing cut, escapes intact"
	else
		fail "paging did not give the request back ($total lines, $pages pages; $(wc -c <<<"$got") of $(wc -c <<<"$want") bytes)"
	fi
	tm send-keys -t lz d Enter
	wait_for '^rc=77$' 15 || fail "the big request was not denied"
else
	fail "no modal for the big request"
fi

# Save a rule: shown, confirmed, appended, adopted.
cp "$cfg" "$LZ_TMP/cfg.before"
type_line 'clear; lazaret-escalate -- echo rule-saved-7; echo rc=$?'
up "pane 1"
tm send-keys -t lz r
wait_for '│   auto-approve = echo rule-saved-7 ' 5 &&
    has 'applies to profile default in every project' && hasf "appended to $cfg" &&
    pass "r shows the exact rule line, that it applies to the profile in every project, and the file" ||
    fail "the rule's confirmation"
cmp -s "$cfg" "$LZ_TMP/cfg.before" &&
    pass "nothing is written before the second confirmation" || fail "config changed before y"
tm send-keys -t lz y
wait_for '^rule-saved-7$' 15 && wait_for '^rc=0$' 5 ||
    fail "y did not run the command"
{ cat "$LZ_TMP/cfg.before"; printf '\n# saved from a Lazaret escalation prompt\nauto-approve = echo rule-saved-7\n'; } > "$LZ_TMP/cfg.want"
cmp -s "$cfg" "$LZ_TMP/cfg.want" &&
    pass "the config file gained exactly the rule line (and its comment)" ||
    fail "config after the rule: $(diff "$LZ_TMP/cfg.want" "$cfg")"
run "$LAZARET" profile show default
expect "lazaret profile show lists the saved rule" 0 'echo rule-saved-7'
run "$LAZARET" run -- lazaret-escalate -- echo rule-saved-7
[ "$LZ_RC" = 0 ] && [ "$LZ_OUT" = rule-saved-7 ] &&
    how_is "$(rid echo rule-saved-7)" rule/completed &&
    pass "a new session (no terminal) joins the Domain and the rule runs the same argv" ||
    fail "new session after the rule: rc $LZ_RC '$LZ_OUT' '$(how "$(rid echo rule-saved-7)")'"
tm send-keys -t lz "$P" '|'
wait_for '2 sessions' 60 && wait_for '│root@lazaret:/workspace#' 30 || fail "no second pane"
type_line 'lazaret-escalate -- echo rule-saved-7; echo rc7=$?'
wait_in right '^rc7=0' 15 && right_has '^rule-saved-7 *$' && ! has "$T" &&
    pass "in a new pane the same argv runs by the rule, without a prompt" ||
    fail "the rule in a new pane"
type_line 'lazaret-escalate -- echo rule-saved-8; echo rc8=$?'
up "pane 2" && pass "a different argv still asks (over pane 2)" || fail "no modal over pane 2"

# Two panes, each with a request: each answered in its own pane only.
tm send-keys -t lz "$P" o
type_line 'clear; lazaret-escalate -- echo pane-one-9; echo rc9=$?'
if up "pane 1"; then
	has "$T pane 2" && has '\| 2 requests waiting \| 1:bash\*!' &&
	    pass "both modals up, each over its pane; the status line counts 2" ||
	    fail "two modals: '$(screen | tail -1)'"
	tm send-keys -t lz a
	wait_in left '^rc9=0' 15 && left_has '^pane-one-9 *$' && has "$T pane 2" &&
	    ! has "$T pane 1" &&
	    pass "a in pane 1 answers pane 1's request only; pane 2's stays" ||
	    fail "answering in pane 1"
	type_line 'echo keys-reach-$((6*7))'
	wait_in left '^keys-reach-42' 10 && has "$T pane 2" &&
	    pass "keys in pane 1 reach its program while pane 2's modal is up" ||
	    fail "pane 1's keys while pane 2 asks"
	tm send-keys -t lz "$P" o
	tm send-keys -t lz d Enter
	wait_in right '^rc8=77' 15 && ! right_has '^rule-saved-8 *$' && ! has "$T" &&
	    pass "d Enter in pane 2 denies pane 2's request" ||
	    fail "answering in pane 2"
else
	fail "no modal over pane 1 beside pane 2's"
fi

# A flood in the asking pane (pane 1) under its modal; pane 2 answers.
tm send-keys -t lz "$P" o
type_line 'clear; lazaret-escalate -- echo flood-ask-10 & timeout 8 yes flood-line-output-xxxxxxxxxxxx; wait; echo rcf=$?'
if wait_for "$T pane 1" 30; then
	shown=$(date +%s%N)
	tm send-keys -t lz "$P" o
	worst=0 ok=1
	for k in 1 2 3; do
		t0=$(date +%s%N)
		type_line "echo resp-$k-\$((6*7))"
		wait_in right "^resp-$k-42" 10 || ok=0
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		[ "$ms" -gt "$worst" ] && worst=$ms
		has "$T pane 1" || ok=0
	done
	[ "$ok" = 1 ] && [ "$worst" -lt 5000 ] &&
	    pass "while pane 1 floods under its modal, pane 2 answers (slowest echo ${worst} ms) and the modal stays" ||
	    fail "pane 2 during the flood: ok=$ok, slowest ${worst} ms"
	tm send-keys -t lz "$P" o
	sleep 0.2
	# The key guard counts from the modal's appearance: quick echoes
	# above can leave less than its half second.
	left=$(( 700 - ($(date +%s%N) - shown) / 1000000 ))
	[ "$left" -gt 0 ] && sleep "0.$(printf '%03d' "$left")"
	tm send-keys -t lz a
	wait_in left '^rcf=0' 30 && gone "$T" 2 &&
	    how_is "$(rid echo flood-ask-10)" human/completed &&
	    pass "after the flood the modal is still answerable" ||
	    fail "the flooding pane's request"
else
	fail "no modal over the flooding pane"
fi

# Detach with a request waiting; attach; the modal is back, answered.
type_line 'clear; lazaret-escalate -- echo after-attach-6; echo rc6=$?'
up "pane 1"
tm send-keys -t lz "$P" d
wait_for 'detached: 2 sessions keep running' 15 || fail "no detach"
n=$("$LAZARET" ls --json | jq '[.[].pending // 0] | add')
[ "$n" = 1 ] && "$LAZARET" ls | grep -q 'asks for host access' &&
    pass "detached, the request waits: lazaret ls counts it (pending 1) and says how to answer" ||
    fail "ls after detach: pending $n"
outer "clear; $LAZARET attach; echo tui-rc2=\$? > $LZ_TMP/rc2"
if wait_for "$T pane [12]" 30; then
	pass "lazaret attach shows the waiting request again, before any key"
	sleep 0.6
	# The keys go to the focused pane: focus the one that asks.
	if left_has "$T pane"; then
		tm send-keys -t lz "$P" h
	else
		tm send-keys -t lz "$P" l
	fi
	sleep 0.3
	tm send-keys -t lz a
	wait_for 'rc6=0' 15 && has 'after-attach-6' && ! has "$T" &&
	    pass "answered after the attach: the command ran" ||
	    fail "answering after attach"
else
	fail "the waiting request did not show after attach"
fi

# A raw session on a terminal (no TUI) shows its own modal.
tm new-window -t lz -n raw -c "$proj" "bash --norc --noprofile"
lz_tmux_target=lz:raw
type_line "$LAZARET run"
wait_for 'root@lazaret:/workspace#' 60 || fail "no raw session"
type_line 'echo before-raw-prompt; lazaret-escalate -- echo raw-ok-8; echo rcr=$?'
if up "this session"; then
	has '^│ session    /bin/bash -l  \(' &&
	    pass "a raw session draws the modal itself over its terminal" ||
	    fail "raw modal content"
	tm send-keys -t lz:raw a
	wait_for '^rcr=0$' 15 && has '^raw-ok-8$' && has '^before-raw-prompt$' &&
	    ! has "$T" &&
	    pass "answered in the raw session: output, status, and the screen from before the modal restored" ||
	    fail "raw session answer"
	# Withdrawn (a timeout): the screen comes back the same way.
	type_line 'echo before-raw-timeout; lazaret-escalate -t 2 -- echo raw-late; echo rct=$?'
	wait_for "$T this session" 30 && wait_for '^rct=124$' 15 &&
	    has '^before-raw-timeout$' && has '^raw-ok-8$' && ! has "$T" &&
	    pass "a raw session's modal withdrawn by a timeout: 124, the screen restored" ||
	    fail "raw session timeout"
else
	fail "no modal in the raw session"
fi
type_line 'exit'
tm kill-window -t lz:raw 2>/dev/null
lz_tmux_target=lz

# The end: both panes' sessions end, the TUI and the Domain with them.
tm select-window -t lz:0
type_line 'exit'
# The pane gone, not only the status line's count (a LIST on another
# connection, which can come before the pane closes).
wait_for '1 session \|' 30 && gone '│' 30 || fail "the first pane did not close"
type_line 'exit'
for i in $(seq 1 150); do [ -s "$LZ_TMP/rc2" ] && break; sleep 0.2; done
[ "$(cat "$LZ_TMP/rc2" 2>/dev/null)" = tui-rc2=0 ] &&
    ! has 'AddressSanitizer|runtime error|LeakSanitizer' &&
    pass "the TUI exits 0 with its last session, no sanitizer report" ||
    fail "TUI exit: '$(cat "$LZ_TMP/rc2" 2>/dev/null)'"
log=$rt/coordinator.log
wait_gone && pass "the Domain ends clean (no container, socket or mount left)" ||
    fail "left behind: $(leftovers)"
if [ -f "$log" ]; then
	! grep -Eq 'AddressSanitizer|runtime error|LeakSanitizer' "$log" &&
	    pass "no sanitizer report in the coordinator's log" ||
	    fail "sanitizer report in $log"
fi
echo "  (ran in $(( $(date +%s) - t_start )) s)"
finish
