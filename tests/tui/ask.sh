#!/bin/bash
# ask.sh: asks the terminal it runs on what test-tui-terminal.sh checks,
# one query at a time, and prints each answer on a line of its own with
# ESC shown as E: the colours (OSC 10, 11, 4;1), the cell and text area
# in pixels and the text area in characters (CSI 16, 14, 18 t), and
# whether synchronized output is known (DECRQM ?2026).
exec 3<>/dev/tty
saved=$(stty -g <&3)
stty raw -echo <&3
ask() {	# QUERY END: writes QUERY, reads up to END
	local a
	printf '%b' "$1" >&3
	IFS= read -r -s -t 2 -d "$2" a <&3
	printf '%s%s\r\n' "${a//$'\e'/E}" "$2"
}
{
	ask '\e]10;?\e\\' '\'
	ask '\e]11;?\e\\' '\'
	ask '\e]4;1;?\e\\' '\'
	ask '\e[16t' t
	ask '\e[14t' t
	ask '\e[18t' t
	ask '\e[?2026$p' y
} > "$1"
stty "$saved" <&3
echo asked
