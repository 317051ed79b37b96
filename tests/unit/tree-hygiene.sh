#!/bin/bash
# tree-hygiene.sh (a ctest test): what a merge can leave in the tree
# unnoticed. Fails on a conflict marker ("<<<<<<< ", ">>>>>>> " or a
# "=======" line between them) in any tracked text file, naming the file
# and line.
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
[ "$bad" = 0 ] && echo "tree-hygiene: no conflict marker in $n tracked files"
exit "$bad"
