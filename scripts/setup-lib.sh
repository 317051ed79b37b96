# shellcheck shell=bash
# setup-lib.sh: helpers shared by scripts/setup.sh and its parts (progress
# lines, running a command as the target account, finding the machine's
# Debian mirror). Sourced, never run; sets no options of its own.

# Progress line: "setup: STEP ... RESULT". Quiet mode keeps these lines and
# hides the commands' own output (it goes to the log file instead).
lz_say() {
	printf 'setup: %-9s ... %s\n' "$1" "${*:2}"
}

lz_die() {
	printf 'setup: error: %s\n' "$*" >&2
	exit 1
}

lz_warn() {
	printf 'setup: warning: %s\n' "$*" >&2
}

# Runs a command with its output shown indented, or sent to the log when
# --quiet was given. The command's exit status is returned.
lz_run() {
	if [ "${LZ_QUIET:-0}" = 1 ]; then
		"$@" >>"$LZ_LOG" 2>&1
	else
		"$@" 2>&1 | sed -u 's/^/    /'
		return "${PIPESTATUS[0]}"
	fi
}

# Runs a command as the target account with a clean, login-like
# environment and the account's runtime directory. Used for everything
# written into the account's home (never written as root: a symlink there
# must not redirect a root write) and for rootless podman.
lz_as_user() {
	local home uid
	home=$(getent passwd "$LZ_USER" | cut -d: -f6)
	uid=$(id -u "$LZ_USER")
	if [ "$(id -u)" = "$uid" ]; then
		(cd "$home" && env XDG_RUNTIME_DIR="/run/user/$uid" "$@")
		return
	fi
	(cd / && runuser -u "$LZ_USER" -- env -i HOME="$home" \
	    USER="$LZ_USER" LOGNAME="$LZ_USER" SHELL=/bin/bash \
	    PATH=/usr/local/bin:/usr/bin:/bin \
	    XDG_RUNTIME_DIR="/run/user/$uid" "$@")
}

# Prints the URI the machine's apt sources use for the suite "bookworm":
# deb822 files (/etc/apt/sources.list.d/*.sources, "URIs:" of a stanza whose
# "Suites:" has bookworm), then the one-line format. Never a built-in host.
lz_detect_mirror() {
	local f uri=""

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		uri=$(awk '
		BEGIN { RS = ""; FS = "\n" }
		{
			types = ""; uris = ""; suites = ""; enabled = "yes"
			for (i = 1; i <= NF; i++) {
				line = $i
				if (line ~ /^[ \t]*#/ || index(line, ":") == 0)
					continue
				key = tolower(substr(line, 1, index(line, ":") - 1))
				val = substr(line, index(line, ":") + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", val)
				if (key == "types") types = val
				else if (key == "uris") uris = val
				else if (key == "suites") suites = val
				else if (key == "enabled") enabled = tolower(val)
			}
			if (enabled != "no" && (" " types " ") ~ / deb / &&
			    (" " suites " ") ~ /[ \t]bookworm[ \t]/ && uris != "") {
				split(uris, u, /[ \t]+/)
				print u[1]
				exit
			}
		}' "$f")
		[ -n "$uri" ] && break
	done
	if [ -z "$uri" ]; then
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			uri=$(awk '
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) {
					while (i <= NF && $i !~ /\]$/)
						i++
					i++
				}
				if ($(i + 1) == "bookworm") { print $i; exit }
			}' "$f")
			[ -n "$uri" ] && break
		done
	fi
	[ -n "$uri" ] || return 1
	printf '%s\n' "$uri"
}

# Prints the Signed-By keyring of the deb822 stanza that names the mirror,
# so the added backports source is verified with the same key.
lz_detect_keyring() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v want="$1" '
		BEGIN { RS = ""; FS = "\n" }
		{
			uris = ""; signed = ""
			for (i = 1; i <= NF; i++) {
				line = $i
				if (index(line, ":") == 0) continue
				key = tolower(substr(line, 1, index(line, ":") - 1))
				val = substr(line, index(line, ":") + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", val)
				if (key == "uris") uris = val
				else if (key == "signed-by") signed = val
			}
			if ((" " uris " ") ~ (" " want " ") && signed ~ /^\//) {
				print signed
				exit
			}
		}' "$f"
	done | head -n 1
}
