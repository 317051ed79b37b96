#!/bin/bash
# tree-hygiene.sh (a ctest test): what a merge or a rename can leave in
# the tree unnoticed. Fails, naming file and line, on
#  - a conflict marker ("<<<<<<< ", ">>>>>>> ") in any tracked text file;
#  - a path of the tree named in the docs (`core/x.c` in backquotes in a
#    tracked .md file) or in a C comment (a line of a .c or .h file that
#    starts a comment or continues one) that does not exist: maps that
#    name code must name code that exists. Globs and placeholders (*, {,
#    <) are not checked.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
n=$(git ls-files 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || { echo "tree-hygiene: git ls-files lists nothing here"; exit 1; }
bad=0
# One git grep a check (a grep a file took 15 s): binary files are skipped
# (-I), every line is "FILE:...".
while IFS= read -r hit; do
	f=${hit%%:*}; rest=${hit#*:}
	printf '%s: conflict marker at %s\n' "$f" "${rest%%:*}"
	bad=1
done < <(git grep -nIE '^(<<<<<<<|>>>>>>>) ')
dirs='(core|src|ui|protocol|termdb|tests|scripts|cmake|docs|containers)'
check_path() {	# FILE PATH
	case $2 in *'*'*|*'{'*|*'<'*) return 0 ;; esac
	[ -e "$2" ] && return 0
	printf '%s: names %s, which does not exist\n' "$1" "$2"
	bad=1
}
# check_hits: reads "FILE:" then the paths it names, one a line (grep -o
# on "FILE:LINE" output: the longest match at the start is the file).
check_hits() {
	local tok f=
	while IFS= read -r tok; do
		case $tok in
		*:) f=${tok%:} ;;
		*) check_path "$f" "$tok" ;;
		esac
	done
}
check_hits < <(git grep -E "\`$dirs/[A-Za-z0-9_./+*{}<>-]+\`" -- '*.md' |
    grep -oE "^[^:]+:|\`$dirs/[A-Za-z0-9_./+*{}<>-]+\`" | tr -d '`')
check_hits < <(git grep -E '^[[:space:]]*(/\*|\*|//)' -- '*.c' '*.h' |
    grep -oE "^[^:]+:|$dirs/[A-Za-z0-9_-]+(/[A-Za-z0-9_.-]+)*\.(c|h|sh|md|py|cmake|tla|pml|cfg|1)\b")
[ "$bad" = 0 ] && echo "tree-hygiene: no conflict marker and no name of a missing path in $n tracked files"
exit "$bad"
