# shellcheck shell=bash
# setup-build.sh: step "build" of scripts/setup.sh. Builds the release tree
# (build/release, no tests, no sanitizers) and installs lazaret,
# lazaret-runsc, lazaret-escalate and the compiled "lazaret" terminfo entry
# of a pane (share/lazaret/terminfo) under the prefix. The build runs as the
# owner of the source tree so root leaves no root-owned files in a
# developer's checkout; the install runs as root. Sourced by setup.sh.

LZ_SRC_DIRS="core src protocol termdb ui cmake"

# True when the installed files exist and no source is newer.
lz_build_check() {
	local bin=$LZ_PREFIX/bin d newer
	[ -x "$bin/lazaret" ] && [ -x "$bin/lazaret-runsc" ] &&
	    [ -x "$bin/lazaret-escalate" ] || return 1
	[ -f "$LZ_PREFIX/share/lazaret/terminfo/l/lazaret" ] || return 1
	for d in $LZ_SRC_DIRS; do
		[ -d "$LZ_SRC/$d" ] || continue
		newer=$(find "$LZ_SRC/$d" -newer "$bin/lazaret" -type f \
		    \( -name '*.[ch]' -o -name '*.cmake' -o -name '*.ti' \) \
		    -print -quit)
		[ -z "$newer" ] || return 1
	done
	[ ! "$LZ_SRC/CMakeLists.txt" -nt "$bin/lazaret" ]
}

# Runs a command as the owner of the source tree.
lz_as_owner() {
	local owner
	owner=$(stat -c %U "$LZ_SRC")
	if [ "$owner" = root ] || [ "$owner" = "$(id -un)" ]; then
		"$@"
	else
		runuser -u "$owner" -- "$@"
	fi
}

lz_build_apply() {
	local b=$LZ_SRC/build/release
	if lz_build_check; then
		lz_say build "ok (installed in $LZ_PREFIX/bin, up to date)"
		return 0
	fi
	lz_say build "building in $b"
	lz_run lz_as_owner cmake -S "$LZ_SRC" -B "$b" \
	    -DCMAKE_BUILD_TYPE=Release -DLZ_TESTS=OFF ||
	    lz_die "cmake configure failed in '$b'"
	lz_run lz_as_owner cmake --build "$b" -j2 ||
	    lz_die "build failed in '$b'"
	lz_run cmake --install "$b" --prefix "$LZ_PREFIX" ||
	    lz_die "install into '$LZ_PREFIX' failed"
	# cmake --install keeps the build's timestamps; stamp the install
	# time so the up-to-date check above compares against it.
	touch "$LZ_PREFIX/bin/lazaret" "$LZ_PREFIX/bin/lazaret-runsc"
	lz_say build "ok (installed $LZ_PREFIX/bin/lazaret," \
	    "$LZ_PREFIX/bin/lazaret-runsc," \
	    "$LZ_PREFIX/bin/lazaret-escalate," \
	    "$LZ_PREFIX/share/lazaret/terminfo/l/lazaret)"
}
