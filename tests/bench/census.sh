#!/bin/bash
# census.sh: the cost of Git Sentry's census (core/repos.h), which the
# coordinator's watch repeats at most every second, or every 20 walk
# times on a large workspace (core/gitguard.h). Side by side with the
# reference, find(1) listing every directory and .git of the same tree
# (the least any walk of it costs), warm cache, medians of 11 runs:
#
#   tests/bench/census.sh [TREE]
#
# TREE defaults to a checkout of Git's own sources (git/git at v2.39.5,
# cloned from the mirror at $GIT_MIRROR) with 200 nested repositories
# made in it. Builds with -O2 and no sanitizers. Not a test: run it on
# purpose.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-census.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -D_GNU_SOURCE -Wall -Wextra -Werror \
	-I"$ROOT" -o "$tmp/census" "$ROOT/tests/bench/census.c" \
	"$ROOT/core/repos.c" "$ROOT/core/quarantine.c" \
	"$ROOT/core/pathcheck.c" "$ROOT/core/tokens.c" "$ROOT/core/util.c" \
	$(pkg-config --cflags --libs jansson)
tree=${1:-}
if [ -z "$tree" ]; then
	tree=$tmp/tree
	git clone -q --branch v2.39.5 "${GIT_MIRROR:-/work/.mirror/git+git/repo}" "$tree" 2>/dev/null
	for i in $(seq 1 200); do
		git init -q "$tree/t/nested/r$i"
	done
fi
"$tmp/census" "$tree" >/dev/null
lz=$("$tmp/census" "$tree" 11)
echo "lazaret census: $lz"
for i in $(seq 1 11); do
	t0=$(date +%s%N)
	find "$tree" \( -name .git -prune -o -type d \) -print >/dev/null
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000 ))
done | median > "$tmp/find"
ref=$(awk '{ printf "%.2f", $1 / 1000 }' "$tmp/find")
ms=$(awk '{ print $2 }' <<<"$lz")
printf '%-22s %10s %10s\n' "" lazaret "find(1)"
printf '%-22s %10s %10s   ratio %s (goal <= 1.00)\n' "walk ms (median)" \
	"$ms" "$ref" "$(ratio "$ms" "$ref")"
awk -v ms="$ms" 'BEGIN { d = ms * 20 > 1000 ? ms * 20 : 1000;
    printf "watch: one walk every %.0f ms: %.1f%% of a CPU\n", d, 100 * ms / d }'
