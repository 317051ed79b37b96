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
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	grep -Iq . "$f" 2>/dev/null || continue	# binary or empty
	if out=$(grep -nE '^(<<<<<<<|>>>>>>>) ' "$f"); then
		printf '%s: conflict marker at %s\n' "$f" "${out%%:*}"
		bad=1
	fi
done < <(git ls-files -z 2>/dev/null)
dirs='(core|src|ui|protocol|termdb|tests|scripts|cmake|docs|containers)'
check_path() {	# FILE PATH
	case $2 in *'*'*|*'{'*|*'<'*) return 0 ;; esac
	[ -e "$2" ] && return 0
	printf '%s: names %s, which does not exist\n' "$1" "$2"
	bad=1
}
while IFS= read -r f; do
	for p in $(grep -ohE "\`$dirs/[A-Za-z0-9_./+*{}<>-]+\`" "$f" | tr -d '`'); do
		check_path "$f" "$p"
	done
done < <(git ls-files '*.md')
while IFS= read -r f; do
	for p in $(grep -E '^[[:space:]]*(/\*|\*|//)' "$f" |
	    grep -oE "$dirs/[A-Za-z0-9_-]+(/[A-Za-z0-9_.-]+)*\.(c|h|sh|md|py|cmake|tla|pml|cfg|1)\b"); do
		check_path "$f" "$p"
	done
done < <(git ls-files '*.c' '*.h')
[ "$bad" = 0 ] && echo "tree-hygiene: no conflict marker and no name of a missing path in $n tracked files"
exit "$bad"
