#!/bin/bash
# setup.sh: prepares a Debian 12 machine for Lazaret, idempotently: packages
# (runsc from bookworm-backports), host devices and cgroups, the rootless
# account, the build and install, and the default sandbox image. Every step
# checks before it changes anything, so a second run is fast. Run as root or
# with sudo. "--check" only reports what is missing (no root needed) and is
# what scripts/lazaret-up uses as its fast path.
#
# The steps live in scripts/setup-*.sh, one file each.
set -euo pipefail

LZ_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LZ_SRC=$(cd "$LZ_SCRIPTS/.." && pwd)

# shellcheck source=scripts/setup-lib.sh
. "$LZ_SCRIPTS/setup-lib.sh"
. "$LZ_SCRIPTS/setup-packages.sh"
. "$LZ_SCRIPTS/setup-host.sh"
. "$LZ_SCRIPTS/setup-account.sh"
. "$LZ_SCRIPTS/setup-build.sh"
. "$LZ_SCRIPTS/setup-image.sh"

usage() {
	cat <<EOF
usage: setup.sh [--user NAME] [--prefix DIR] [--no-build] [--no-image]
                [--quiet] [--check]

Prepares this Debian 12 machine for Lazaret. Run as root or with sudo.

  --user NAME   account to configure for rootless podman (default: the sudo
                caller; as plain root, an account 'lazaret' it creates)
  --prefix DIR  install prefix (default /usr/local)
  --no-build    do not build and install lazaret
  --no-image    do not build or import the default sandbox image
  --quiet       only progress lines; command output goes to $LZ_LOG_DEFAULT
  --check       report what is missing and exit 1 if anything is (no root)
EOF
}

LZ_LOG_DEFAULT=/var/log/lazaret-setup.log
LZ_USER=""
LZ_PREFIX=/usr/local
LZ_QUIET=0
LZ_CHECK=0
do_build=1
do_image=1

while [ $# -gt 0 ]; do
	case $1 in
	--user) [ $# -ge 2 ] || { usage >&2; exit 2; }; LZ_USER=$2; shift ;;
	--user=*) LZ_USER=${1#--user=} ;;
	--prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; LZ_PREFIX=$2; shift ;;
	--prefix=*) LZ_PREFIX=${1#--prefix=} ;;
	--no-build) do_build=0 ;;
	--no-image) do_image=0 ;;
	--quiet) LZ_QUIET=1 ;;
	--check) LZ_CHECK=1 ;;
	-h|--help) usage; exit 0 ;;
	*) printf 'setup: unknown option %s\n' "$1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done

if [ -z "$LZ_USER" ]; then
	if [ "$LZ_CHECK" = 1 ] && [ "$(id -u)" != 0 ]; then
		LZ_USER=$(id -un)
	elif [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
		LZ_USER=$SUDO_USER
	else
		LZ_USER=lazaret
	fi
fi
case $LZ_USER in
''|-*|*[!a-zA-Z0-9._-]*) lz_die "invalid account name '$LZ_USER'" ;;
esac
[ "$LZ_USER" != root ] || lz_die "Lazaret runs rootless: --user must name" \
    "an unprivileged account"
case $LZ_PREFIX in
/*) ;;
*) lz_die "--prefix must be an absolute path" ;;
esac
export LZ_USER LZ_PREFIX LZ_QUIET LZ_SRC

# --check: every step's check, no changes, exit 1 if anything is missing.
if [ "$LZ_CHECK" = 1 ]; then
	missing=0
	check() {
		if "lz_$1_check"; then
			lz_say "$1" ok
		else
			lz_say "$1" missing
			missing=1
		fi
	}
	check packages
	check host
	if getent passwd "$LZ_USER" >/dev/null; then
		check account
		[ "$do_build" = 0 ] || check build
		[ "$do_image" = 0 ] || check image
	else
		lz_say account "missing ($LZ_USER does not exist)"
		missing=1
	fi
	exit "$missing"
fi

[ "$(id -u)" = 0 ] || lz_die "run as root or with sudo" \
    "(sudo $LZ_SCRIPTS/setup.sh)"
LZ_LOG=$LZ_LOG_DEFAULT
export LZ_LOG
[ "$LZ_QUIET" = 0 ] || : >>"$LZ_LOG"

start=$(date +%s)
lz_packages_apply
lz_host_apply
lz_account_apply
if [ "$do_build" = 1 ]; then
	lz_build_apply
else
	lz_say build "skipped (--no-build)"
fi
if [ "$do_image" = 1 ]; then
	lz_image_apply
else
	lz_say image "skipped (--no-image)"
fi
lz_say "done" "ok in $(($(date +%s) - start)) s; account: $LZ_USER" \
    "(sudo -u $LZ_USER -i, then 'lazaret doctor')"
