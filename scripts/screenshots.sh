#!/bin/bash
# screenshots.sh: regenerates screenshots/*.png from real runs of the TUI:
# a private tmux server (100x30, TERM=tmux-256color, COLORTERM=truecolor)
# runs `lazaret` in a demo project, the script drives it with send-keys,
# and each shot is `tmux capture-pane -e` (colours kept) -> aha (HTML) ->
# headless Chromium -> PNG, trimmed with ImageMagick.
#
#   sudo scripts/screenshots.sh        # as root: installs aha, chromium,
#                                      # imagemagick and fonts if missing,
#                                      # then runs as the 'lazaret' account
#   scripts/screenshots.sh             # as the account that runs Lazaret
#
# Shots (100x30, the escalation ones 120x30): single-pane.png (a coloured program), split.png (two sessions
# side by side, the status line), sessions.png (the session list, prefix
# s), help.png (prefix ?), escalation.png (a host command asked for with
# lazaret-escalate: the modal over the pane that asked, a test run going
# on beside it), escalation-edit.png (the argv editor, an element being
# edited), escalation-waiting.png (the focus on the other pane: the asking
# pane marked, the status line counting). The requests are denied after.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/screenshots
ACCOUNT=${LZ_ACCOUNT:-lazaret}
LZ=${LZ_BIN:-/usr/local/bin}/lazaret

if [ "$(id -u)" = 0 ]; then
	missing=()
	for p in aha chromium imagemagick fonts-dejavu-core fonts-noto-cjk; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "screenshots: installing ${missing[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		    "${missing[@]}" >/dev/null
	fi
	uid=$(id -u "$ACCOUNT")
	home=$(getent passwd "$ACCOUNT" | cut -d: -f6)
	work=$(mktemp -d /tmp/lz-shots.XXXXXX)
	chown "$ACCOUNT" "$work"
	cp "$0" "$work/screenshots.sh"
	chmod 755 "$work/screenshots.sh"
	setpriv --reuid="$uid" --regid="$(id -g "$ACCOUNT")" --init-groups \
	    env -i HOME="$home" USER="$ACCOUNT" PATH=/usr/local/bin:/usr/bin:/bin \
	    XDG_RUNTIME_DIR="/run/user/$uid" LANG=C.UTF-8 LZ_BIN="${LZ_BIN:-}" \
	    LZ_SHOTS_OUT="$work" bash "$work/screenshots.sh"
	cp "$work"/*.png "$OUT"/
	rm -rf "$work"
	ls -l "$OUT"/*.png
	exit 0
fi
OUT=${LZ_SHOTS_OUT:-$OUT}
for t in aha chromium convert tmux git; do
	command -v "$t" >/dev/null || {
		echo "screenshots: $t is missing (run this script with sudo to" \
		    "install it)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/lz-shots-run.XXXXXX)
sock=lz-shots-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	tm kill-server 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# A small demo project with some history to look at.
proj=$tmp/demo-project
mkdir -p "$proj/src"
git -C "$proj" init -q
printf 'node_modules/\n.env\n' > "$proj/.gitignore"
printf '# demo\n' > "$proj/README.md"
printf 'int main(void) { return 0; }\n' > "$proj/src/main.c"
git -C "$proj" add -A
git -C "$proj" -c user.name=dev -c user.email=dev@example.invalid commit -qm "Initial import"
echo 'int add(int a, int b) { return a + b; }' >> "$proj/src/main.c"
git -C "$proj" -c user.name=dev -c user.email=dev@example.invalid commit -qam "Add add()"

wait_for() {
	local i
	for i in $(seq 1 "$(( ${2:-60} * 20 ))"); do
		tm capture-pane -p -t lz | grep -Eq -- "$1" && return 0
		sleep 0.05
	done
	echo "screenshots: timed out waiting for '$1'" >&2
	tm capture-pane -p -t lz >&2
	return 1
}
type_line() { tm send-keys -t lz -l "$1"; tm send-keys -t lz Enter; }

shot() {
	local name=$1 html=$tmp/$1.html
	sleep 0.5
	tm capture-pane -e -p -t lz > "$tmp/$name.ans"
	{
		printf '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
		printf 'body{margin:0;background:#000;color:#e5e5e5}pre{margin:8px;'
		printf "font-family:'DejaVu Sans Mono','Noto Sans Mono CJK SC',"
		printf 'monospace;font-size:15px;line-height:1.25}</style></head>'
		printf '<body><pre>'
		aha --black --no-header < "$tmp/$name.ans"
		printf '</pre></body></html>'
	} > "$html"
	chromium --headless --no-sandbox --disable-gpu --no-first-run \
	    --disable-background-networking --disable-component-update \
	    --disable-sync --user-data-dir="$tmp/chromium" \
	    --window-size=1240,900 --screenshot="$tmp/$name.raw.png" \
	    "file://$html" >/dev/null 2>&1
	convert "$tmp/$name.raw.png" -trim +repage "$OUT/$name.png"
	echo "screenshots: $OUT/$name.png"
}

tm new-session -d -s lz -x 100 -y 30 -c "$proj" \
    "env TERM=tmux-256color COLORTERM=truecolor bash --norc --noprofile"
type_line "clear; $LZ"
wait_for 'root@lazaret:/workspace#' 120
type_line 'clear; ls -l --color=always / 2>/dev/null | head -12; printf "\n"; for i in $(seq 0 7); do printf "\033[48;5;%dm  \033[0m" $((i+1)) $((i+9)); done; printf "\n"; for i in $(seq 0 4 255); do printf "\033[48;2;%d;%d;%dm \033[0m" $i $((255-i)) $((i/2)); done; printf "\n"; git log --oneline --graph --decorate --color=always'
wait_for 'Initial import' 10
shot single-pane
tm send-keys -t lz C-] '|'
wait_for '2 sessions' 60
type_line 'clear; git -c color.ui=always diff HEAD~1; echo; ps -eo pid,comm | head -8'
wait_for 'add\(int a' 10
shot split
tm send-keys -t lz C-] s
wait_for 'sessions \(Enter' 10
shot sessions
tm send-keys -t lz q
tm send-keys -t lz C-] '?'
wait_for 'keys after the prefix' 10
shot help
tm send-keys -t lz q

# Host Escalation: the right pane runs tests, the left one asks to push;
# 120 columns, so that each pane's modal has room.
tm resize-window -t lz -x 120 -y 30
type_line 'clear; for i in $(seq 1 400); do printf "\033[32mPASS\033[0m test_%03d \033[2m(%d ms)\033[0m\n" $i $((i * 37 % 200)); sleep 0.25; done'
tm send-keys -t lz C-] o
type_line 'clear; git log --oneline -2; lazaret-escalate -j "Push add() so that CI runs the tests" -- git push origin HEAD:refs/heads/add-function'
wait_for 'host command requested by pane 1' 30
sleep 0.8	# past the half second in which keys are ignored
shot escalation
tm send-keys -t lz e Down Down Down Enter
tm send-keys -t lz BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace \
    BSpace BSpace BSpace BSpace
tm send-keys -t lz -l 'review/add'
wait_for 'escapes: ' 10
shot escalation-edit
tm send-keys -t lz Escape	# each Escape alone, or it reads as Alt
sleep 0.3
tm send-keys -t lz Escape
wait_for 'a approve once' 10
tm send-keys -t lz C-] o
sleep 1
shot escalation-waiting
tm send-keys -t lz C-] o
tm send-keys -t lz d Enter
wait_for 'denied' 30
tm send-keys -t lz C-] o
tm send-keys -t lz C-c
type_line 'exit'
type_line 'exit'
wait_for '^bash' 60
