# shellcheck shell=bash
# account.sh: the one way the tests run commands as the test account
# (bash, sourced; sets no shell options). scripts/test.sh runs the
# integration and tui scripts through it; the network scripts, which run as
# root for their fixtures, run every lazaret and podman command through it;
# an integration script started as root by hand does the same.
#
#   lz_acct_id USER     resolves the account: LZ_ACCT_USER, LZ_ACCT_UID,
#                       LZ_ACCT_GID, LZ_ACCT_HOME, LZ_ACCT_RUNTIME
#                       (/run/user/UID, which set-up creates)
#   lz_acct_config DIR  makes DIR an XDG_CONFIG_HOME for the account
#                       before anything runs with it: created 0700 and
#                       owned by the account, DIR/lazaret in it, and
#                       DIR/containers linked to the account's own
#                       ~/.config/containers (set-up's storage.conf and
#                       containers.conf), so podman finds the storage
#                       set-up configured; the first DIR becomes the
#                       XDG_CONFIG_HOME of every later lz_acct_run
#   lz_acct_run CMD...  CMD as the account, in the current directory,
#                       with a clean, login-like environment (HOME, USER,
#                       LOGNAME, LANG, PATH, XDG_RUNTIME_DIR, and
#                       XDG_CONFIG_HOME once lz_acct_config made one);
#                       NAME=VALUE words before CMD add to or override it
#                       (env(1)); lz_acct_argv CMD... only builds that
#                       command line, for a caller that execs it
#   lz_podman_image IMAGE [RUN...]
#                       asks podman, run through RUN (lz_acct_run as root;
#                       nothing as the account), about IMAGE: 0 it has it,
#                       1 podman says it has not, 2 podman failed: then
#                       podman's own error is in LZ_ACCT_WHY
#
# Each function that can fail puts why in LZ_ACCT_WHY and returns
# non-zero; none prints or exits, so each caller reports in its own words.
# podman's stderr is never thrown away where it decides an answer.

LZ_ACCT_USER=
LZ_ACCT_CONFIG=
LZ_ACCT_WHY=

lz_acct_id() {
	local pw
	LZ_ACCT_WHY=
	pw=$(getent passwd "$1") || {
		LZ_ACCT_WHY="the account '$1' does not exist (sudo scripts/setup.sh --user $1)"
		return 1
	}
	LZ_ACCT_USER=$1
	LZ_ACCT_UID=$(cut -d: -f3 <<<"$pw")
	LZ_ACCT_GID=$(cut -d: -f4 <<<"$pw")
	LZ_ACCT_HOME=$(cut -d: -f6 <<<"$pw")
	LZ_ACCT_RUNTIME=/run/user/$LZ_ACCT_UID
	LZ_ACCT_CONFIG=
	if [ ! -d "$LZ_ACCT_RUNTIME" ] || [ -L "$LZ_ACCT_RUNTIME" ] ||
	    [ "$(stat -c '%u %a' "$LZ_ACCT_RUNTIME")" != "$LZ_ACCT_UID 700" ]; then
		LZ_ACCT_WHY="$LZ_ACCT_RUNTIME is not a directory of $1's with mode 0700 (sudo scripts/setup.sh --user $1)"
		return 1
	fi
}

# lz_acct_argv CMD...: sets the array LZ_ACCT_ARGV to what lz_acct_run
# runs, for a caller that must exec it (so that its PID is CMD's own).
lz_acct_argv() {
	LZ_ACCT_ARGV=(env -i HOME="$LZ_ACCT_HOME" USER="$LZ_ACCT_USER"
	    LOGNAME="$LZ_ACCT_USER" LANG=C.UTF-8
	    PATH=/usr/local/bin:/usr/bin:/bin
	    XDG_RUNTIME_DIR="$LZ_ACCT_RUNTIME")
	[ -z "$LZ_ACCT_CONFIG" ] ||
	    LZ_ACCT_ARGV+=(XDG_CONFIG_HOME="$LZ_ACCT_CONFIG")
	LZ_ACCT_ARGV+=("$@")
	[ "$(id -u)" = "$LZ_ACCT_UID" ] ||
	    LZ_ACCT_ARGV=(setpriv --reuid="$LZ_ACCT_UID" \
	    --regid="$LZ_ACCT_GID" --init-groups "${LZ_ACCT_ARGV[@]}")
}

lz_acct_run() {
	local LZ_ACCT_ARGV
	lz_acct_argv "$@"
	"${LZ_ACCT_ARGV[@]}"
}

lz_acct_config() {
	local dir=$1 err
	LZ_ACCT_WHY=
	err=$(lz_acct_run test -f "$LZ_ACCT_HOME/.config/containers/storage.conf" 2>&1) || {
		LZ_ACCT_WHY="$LZ_ACCT_HOME/.config/containers/storage.conf is missing: podman is not set up for $LZ_ACCT_USER (sudo scripts/setup.sh --user $LZ_ACCT_USER)${err:+: $err}"
		return 1
	}
	if [ "$(id -u)" = 0 ]; then
		err=$(install -d -m 0700 -o "$LZ_ACCT_UID" -g "$LZ_ACCT_GID" \
		    "$dir" 2>&1) || {
			LZ_ACCT_WHY="cannot create $dir for $LZ_ACCT_USER: $err"
			return 1
		}
	fi
	# As the account from here on: a name it controls is never written
	# by root.
	err=$({ lz_acct_run mkdir -p -m 0700 "$dir" "$dir/lazaret" &&
	    lz_acct_run chmod 0700 "$dir" &&
	    lz_acct_run ln -sfn "$LZ_ACCT_HOME/.config/containers" \
	    "$dir/containers"; } 2>&1) || {
		LZ_ACCT_WHY="cannot prepare $dir as $LZ_ACCT_USER's XDG_CONFIG_HOME: $err"
		return 1
	}
	[ -n "$LZ_ACCT_CONFIG" ] || LZ_ACCT_CONFIG=$dir
}

lz_podman_image() {
	local image=$1 err rc=0 who
	shift
	who=$(id -un)
	[ $# = 0 ] || who=$LZ_ACCT_USER
	LZ_ACCT_WHY=
	err=$(cd / && "$@" podman image exists "$image" 2>&1 >/dev/null) ||
	    rc=$?
	# "podman image exists" answers "no" with exit 1 and nothing on
	# stderr; anything else is podman failing to answer.
	if [ "$rc" = 0 ]; then
		return 0
	elif [ "$rc" = 1 ] && ! grep -qi 'error' <<<"$err"; then
		LZ_ACCT_WHY="podman of $who has no image $image"
		return 1
	fi
	LZ_ACCT_WHY="'podman image exists $image' as $who failed (exit $rc): $(tail -3 <<<"$err" | tr '\n' ' ')"
	return 2
}
