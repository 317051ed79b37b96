# fixtures.sh: project fixtures shared by the integration tests (through
# lib.sh) and the benchmarks (tests/bench/ignored-mounts.sh). Functions
# only; sourcing it changes nothing.

# lz_monorepo DIR N: a Git project of N packages packages/pNNN, each with
# a tracked package.json and src/index.js ("src NNN") and, on the host
# only, node_modules/dep/host-file and dist/host-file, ignored by the
# top-level rules "node_modules/" and "dist/" (2N ignored paths beside
# tracked files: none can be collapsed into a parent).
lz_monorepo() {
	local d=$1 n=$2 i p
	mkdir -p "$d" && git -C "$d" init -q
	printf 'node_modules/\ndist/\n' > "$d/.gitignore"
	for i in $(seq -f %03g 1 "$n"); do
		p=$d/packages/p$i
		mkdir -p "$p/src" "$p/node_modules/dep" "$p/dist"
		echo '{}' > "$p/package.json"
		echo "src $i" > "$p/src/index.js"
		echo host > "$p/node_modules/dep/host-file"
		echo host > "$p/dist/host-file"
	done
	git -C "$d" add .gitignore packages
	git -C "$d" -c user.name=t -c user.email=t@example.invalid commit -qm mono
}
