# shellcheck shell=bash
# setup-packages.sh: step "packages" of scripts/setup.sh. Installs the
# build, runtime and test packages from Debian bookworm and gVisor's runsc
# from bookworm-backports (bookworm's own runsc 20221219 breaks coreutils in
# the sandbox, RUNTIME-NOTES.md). Sourced by setup.sh.

LZ_PKG_BUILD="build-essential cmake pkg-config libvterm-dev libncurses-dev
libuv1-dev libssl-dev libgit2-dev libinih-dev libcmocka-dev libjansson-dev
clang libclang-rt-14-dev"
LZ_PKG_RUNTIME="podman crun conmon catatonit fuse-overlayfs slirp4netns uidmap
iproute2 debootstrap busybox-static sudo git ncurses-term"
# jq reads JSON in the integration tests, python3 runs the network tests'
# listeners (and, with python3-jsonschema, validates "--json" outputs
# against docs/schemas), dpkg-dev builds their local APT repository.
# dnsmasq-base: the
# binary only; the "dnsmasq" package would start a system resolver on port
# 53 through its init script.
LZ_PKG_TEST="tmux spin dnsmasq-base jq dpkg-dev python3 python3-jsonschema"
LZ_RUNSC_MIN="0.0~20240729"
LZ_BACKPORTS_LIST=/etc/apt/sources.list.d/lazaret-bookworm-backports.sources

# Prints the packages of the lists above that are not installed.
# One dpkg-query for all of them keeps the second run fast.
lz_pkg_missing() {
	local p have
	# shellcheck disable=SC2086
	have=$'\n'$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' \
	    $LZ_PKG_BUILD $LZ_PKG_RUNTIME $LZ_PKG_TEST 2>/dev/null || true)
	for p in $LZ_PKG_BUILD $LZ_PKG_RUNTIME $LZ_PKG_TEST; do
		[[ $have == *$'\n'"$p ii "* ]] || printf '%s\n' "$p"
	done
}

# True when runsc is installed in at least the backports version.
lz_runsc_ok() {
	local v
	v=$(dpkg-query -W -f='${Version}' runsc 2>/dev/null || true)
	[ -n "$v" ] && dpkg --compare-versions "$v" ge "$LZ_RUNSC_MIN"
}

lz_packages_check() {
	[ -z "$(lz_pkg_missing)" ] && lz_runsc_ok
}

# True when some apt source already offers bookworm-backports.
lz_backports_present() {
	grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list \
	    /etc/apt/sources.list.d/
}

lz_backports_add() {
	local mirror keyring
	mirror=$(lz_detect_mirror) || lz_die "cannot find the Debian mirror" \
	    "of the suite 'bookworm' in /etc/apt/sources.list or" \
	    "/etc/apt/sources.list.d/*.sources (add a bookworm source first)"
	keyring=$(lz_detect_keyring "$mirror")
	{
		printf '# Added by lazaret scripts/setup.sh: gVisor runsc.\n'
		printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\n' \
		    "$mirror"
		printf 'Components: main\n'
		[ -n "$keyring" ] && printf 'Signed-By: %s\n' "$keyring"
	} >"$LZ_BACKPORTS_LIST.tmp"
	mv "$LZ_BACKPORTS_LIST.tmp" "$LZ_BACKPORTS_LIST"
	lz_say packages "added bookworm-backports from $mirror"
}

lz_packages_apply() {
	local missing
	if lz_packages_check; then
		lz_say packages "ok (already installed)"
		return 0
	fi
	export DEBIAN_FRONTEND=noninteractive
	missing=$(lz_pkg_missing | tr '\n' ' ')
	lz_runsc_ok || lz_backports_present || lz_backports_add
	lz_say packages "updating apt lists"
	lz_run apt-get update -q || lz_die "apt-get update failed" \
	    "${LZ_QUIET:+(see $LZ_LOG)}"
	if [ -n "$missing" ]; then
		lz_say packages "installing ${missing% }"
		# shellcheck disable=SC2086
		lz_run apt-get install -y -q --no-install-recommends $missing ||
		    lz_die "apt-get install failed"
	fi
	if ! lz_runsc_ok; then
		lz_say packages "installing runsc from bookworm-backports"
		lz_run apt-get install -y -q --no-install-recommends \
		    -t bookworm-backports runsc ||
		    lz_die "cannot install runsc from bookworm-backports"
	fi
	lz_packages_check || lz_die "packages still missing after install:" \
	    "$(lz_pkg_missing | tr '\n' ' ')"
	lz_say packages "ok (installed; runsc $(dpkg-query -W \
	    -f='${Version}' runsc))"
}
