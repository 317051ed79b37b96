#!/bin/bash
# git-guard.sh: the Git history guard's cost (core/history.h, issue 20) on
# a repository of 100,002 objects (33,334 commits, each a blob, a tree
# and a commit) and 1,001 branches, in its two layouts: every object
# loose (the worst case for a pass: one file each) and one pack (what a
# cloned or gc'ed repository is). For each: the launch pass with an
# empty store (every object hard-linked), the launch pass again (what
# every later launch costs), a pass with nothing changed (the one-second
# tick while a Domain runs), the teardown pass, and the process's peak
# resident size. Side by side with the reference "cp -al" of the same
# objects/ (the least any pass that links every file costs), warm cache,
# medians of 5 runs:
#
#   tests/bench/git-guard.sh [OBJECTS]
#
# Builds with -O2 and no sanitizers. Not a test: run it on purpose.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/bench/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lz-git-guard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=${1:-100002}
commits=$(( (n + 2) / 3 ))
# shellcheck disable=SC2046
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -D_GNU_SOURCE -DLZ_VERSION='"bench"' \
	-Wall -Wextra -Werror -I"$ROOT" -o "$tmp/git-guard" \
	"$ROOT/tests/bench/git-guard.c" "$ROOT"/core/*.c "$ROOT"/protocol/*.c \
	$(pkg-config --cflags --libs libgit2 inih jansson libcrypto zlib)

# The repository, through fast-import (seconds, not minutes).
ws=$tmp/ws
git init -q -b main "$ws"
awk -v n="$commits" 'BEGIN {
	for (i = 1; i <= n; i++) {
		s = "file " i "\n";
		printf "blob\nmark :%d\ndata %d\n%s\n", i, length(s), s;
		printf "commit refs/heads/main\nmark :%d\n", 1000000 + i;
		printf "committer t <t@e.invalid> %d +0000\n", 1764580000 + i;
		printf "data 2\nc\n";
		if (i > 1)
			printf "from :%d\n", 1000000 + i - 1;
		printf "M 100644 :%d f\n\n", i;
	}
	for (b = 0; b < 1000; b++)
		printf "reset refs/heads/b%d\nfrom :%d\n\n", b,
		    1000000 + 1 + int(b * (n - 1) / 1000);
}' | git -C "$ws" fast-import --quiet
git -C "$ws" checkout -q main
objs=$(git -C "$ws" count-objects -v | awk '/^in-pack/ { print $2 }')
echo "repository: $objs objects in one pack, $(git -C "$ws" for-each-ref | wc -l) refs"

# run LAYOUT: the guard's figures and the reference, one table block.
run() {
	local root=$tmp/root-$1 lz ref t0 t1 i
	rm -rf "$root" && mkdir -m 700 "$root"
	lz=$("$tmp/git-guard" "$ws" "$root" 5)
	for i in 1 2 3 4 5; do
		rm -rf "$tmp/ref"
		t0=$(date +%s%N)
		cp -al "$ws/.git/objects" "$tmp/ref"
		t1=$(date +%s%N)
		echo $(( (t1 - t0) / 1000 ))
	done | median > "$tmp/ref.us"
	ref=$(awk '{ printf "%.1f", $1 / 1000 }' "$tmp/ref.us")
	f() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$lz"; }
	printf '%s (%s files kept)\n' "$2" "$(f kept_files)"
	printf '  %-34s %10s ms   cp -al objects/: %s ms (ratio %s)\n' \
	    "launch pass, empty store" "$(f launch_first_ms)" "$ref" \
	    "$(ratio "$(f launch_first_ms)" "$ref")"
	printf '  %-34s %10s ms\n' "launch pass again (later launches)" \
	    "$(f launch_again_ms)"
	printf '  %-34s %10s ms   (every second while a Domain runs)\n' \
	    "pass, nothing changed" "$(f pass_ms)"
	printf '  %-34s %10s ms\n' "teardown pass" "$(f final_ms)"
	printf '  %-34s %10s MiB  (peak RSS %s MiB before, %s after the pass)\n' \
	    "memory: launch pass" \
	    "$(awk -v a="$(f rss_launch_kb)" -v b="$(f rss_start_kb)" 'BEGIN { printf "%.1f", (a - b) / 1024 }')" \
	    "$(awk -v a="$(f rss_start_kb)" 'BEGIN { printf "%.1f", a / 1024 }')" \
	    "$(awk -v a="$(f rss_pass_kb)" 'BEGIN { printf "%.1f", a / 1024 }')"
}

run packed "one pack"
# Every object loose: the pack unpacked into a fresh object store.
pack=$(ls "$ws"/.git/objects/pack/*.pack)
mkdir "$tmp/pack" && mv "$ws"/.git/objects/pack/pack-* "$tmp/pack/"
git -C "$ws" unpack-objects -q < "$tmp/pack/$(basename "$pack")"
echo "unpacked: $(find "$ws/.git/objects" -type f | wc -l) loose files"
run loose "every object loose"
