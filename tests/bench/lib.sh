# lib.sh: helpers the bench scripts share (bash).

# median / best: of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
best() {
	sort -n | tail -1
}
# mbps BYTES T0_NS T1_NS: MB/s over the interval.
mbps() {
	echo "$1 $2 $3" | awk '{ printf "%.1f", $1 / 1e6 / (($3 - $2) / 1e9) }'
}
# ratio A B: A / B with two decimals.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
