# shellcheck shell=bash
# setup-account.sh: step "account" of scripts/setup.sh. Makes $LZ_USER able
# to run rootless podman: the account itself, subordinate UID/GID ranges,
# /run/user/UID (no systemd here to create it) and the user's containers
# configuration (overlay storage, cgroupfs, file events). Files in the home
# are written as the user, never as root. Sourced by setup.sh.

LZ_SUBID_COUNT=65536

lz_account_home() {
	getent passwd "$LZ_USER" | cut -d: -f6
}

lz_subid_ok() {
	grep -q "^$LZ_USER:" /etc/subuid 2>/dev/null &&
	    grep -q "^$LZ_USER:" /etc/subgid 2>/dev/null
}

lz_rundir_ok() {
	local uid dir
	uid=$(id -u "$LZ_USER")
	dir=/run/user/$uid
	[ -d "$dir" ] && [ ! -L "$dir" ] &&
	    [ "$(stat -c '%u %a' "$dir")" = "$uid 700" ]
}

lz_storage_conf_ok() {
	local f
	f=$(lz_account_home)/.config/containers/storage.conf
	grep -Eqs '^[[:space:]]*driver[[:space:]]*=[[:space:]]*"overlay"' "$f"
}

lz_containers_conf_ok() {
	local f
	f=$(lz_account_home)/.config/containers/containers.conf
	grep -qs '^[[:space:]]*cgroup_manager' "$f"
}

lz_account_check() {
	getent passwd "$LZ_USER" >/dev/null && lz_subid_ok && lz_rundir_ok &&
	    lz_storage_conf_ok && lz_containers_conf_ok
}

# Prints the first ID after every range in the file (at least 100000).
lz_subid_next() {
	awk -F: 'BEGIN { n = 100000 }
	    NF >= 3 && $2 + $3 > n { n = $2 + $3 }
	    END { print n }' "$1" 2>/dev/null || echo 100000
}

lz_account_apply() {
	local done="" uid home start dir cdir
	if ! getent passwd "$LZ_USER" >/dev/null; then
		useradd -m -s /bin/bash "$LZ_USER" ||
		    lz_die "cannot create the account '$LZ_USER'"
		done="$done created;"
	fi
	uid=$(id -u "$LZ_USER")
	home=$(lz_account_home)
	[ "$uid" != 0 ] || lz_die "'$LZ_USER' is root: Lazaret runs" \
	    "rootless (use --user NAME with an unprivileged account)"
	[ -d "$home" ] || lz_die "home '$home' of '$LZ_USER' does not exist"
	if ! grep -q "^$LZ_USER:" /etc/subuid 2>/dev/null; then
		start=$(lz_subid_next /etc/subuid)
		usermod --add-subuids "$start-$((start + LZ_SUBID_COUNT - 1))" \
		    "$LZ_USER" || lz_die "cannot add subordinate UIDs"
		done="$done subuid;"
	fi
	if ! grep -q "^$LZ_USER:" /etc/subgid 2>/dev/null; then
		start=$(lz_subid_next /etc/subgid)
		usermod --add-subgids "$start-$((start + LZ_SUBID_COUNT - 1))" \
		    "$LZ_USER" || lz_die "cannot add subordinate GIDs"
		done="$done subgid;"
	fi
	dir=/run/user/$uid
	if ! lz_rundir_ok; then
		[ -L "$dir" ] && lz_die "'$dir' is a symlink (remove it)"
		install -d -m 0755 /run/user
		install -d -m 0700 -o "$uid" -g "$(id -g "$LZ_USER")" "$dir"
		chown "$uid:$(id -g "$LZ_USER")" "$dir"
		chmod 0700 "$dir"
		done="$done $dir;"
	fi
	cdir=$home/.config/containers
	if ! lz_storage_conf_ok; then
		if [ -e "$cdir/storage.conf" ]; then
			lz_warn "$cdir/storage.conf exists with another storage" \
			    "driver; left unchanged (set driver = \"overlay\"" \
			    "under [storage], then run 'podman system reset')"
		else
			lz_as_user mkdir -p "$cdir"
			printf '[storage]\ndriver = "overlay"\n' |
			    lz_as_user tee "$cdir/storage.conf" >/dev/null
			done="$done storage.conf;"
		fi
	fi
	if ! lz_containers_conf_ok; then
		if [ -e "$cdir/containers.conf" ]; then
			lz_warn "$cdir/containers.conf exists without" \
			    "cgroup_manager; left unchanged"
		else
			lz_as_user mkdir -p "$cdir"
			printf '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' |
			    lz_as_user tee "$cdir/containers.conf" >/dev/null
			done="$done containers.conf;"
		fi
	fi
	if [ -z "$done" ]; then
		lz_say account "ok ($LZ_USER, uid $uid, already configured)"
	else
		done=${done%;}
		lz_say account "ok ($LZ_USER, uid $uid:${done})"
	fi
}
