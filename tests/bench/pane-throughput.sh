#!/bin/sh
# pane-throughput.sh: builds tests/bench/pane-throughput.c with -O2 (no
# sanitizers) straight from the sources it needs and runs it. Arguments go
# to the program: [MB [runs [rows cols]]]. Pin it for comparisons:
#   taskset -c 1 tests/bench/pane-throughput.sh 50 5
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${TMPDIR:-/tmp}/lz-pane-throughput.$$
trap 'rm -f "$OUT"' EXIT
${CC:-cc} -std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Werror -I"$ROOT" \
	-o "$OUT" "$ROOT/tests/bench/pane-throughput.c" "$ROOT/ui/pane.c" \
	"$ROOT/ui/grid.c" "$ROOT/core/util.c" $(pkg-config --cflags --libs vterm)
"$OUT" "$@"
