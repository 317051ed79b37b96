# shellcheck shell=bash
# setup-host.sh: step "host" of scripts/setup.sh (RUNTIME-NOTES.md, "Host
# preparation"): device nodes that rootless podman and slirp4netns open, and
# the cgroup v1 mounts crun needs on a hybrid host. None of it survives a
# reboot on machines without udev, which is why lazaret-up re-checks it.
# Sourced by setup.sh.

# Each device: path, major, minor.
LZ_HOST_DEVICES="/dev/net/tun:10:200 /dev/fuse:10:229"
LZ_CGROUP_UNIFIED=/sys/fs/cgroup/unified

# Prints the controllers still bound to cgroup2 on a hybrid host.
lz_cgroup_unmounted() {
	local c
	[ -r "$LZ_CGROUP_UNIFIED/cgroup.controllers" ] || return 0
	for c in $(cat "$LZ_CGROUP_UNIFIED/cgroup.controllers"); do
		mountpoint -q "/sys/fs/cgroup/$c" || printf '%s\n' "$c"
	done
}

lz_dev_ok() {
	local path=${1%%:*}
	[ -c "$path" ] && [ "$(stat -c %a "$path")" = 666 ]
}

lz_host_check() {
	local d
	for d in $LZ_HOST_DEVICES; do
		lz_dev_ok "$d" || return 1
	done
	[ -z "$(lz_cgroup_unmounted)" ]
}

lz_host_apply() {
	local d path rest major minor c done=""
	for d in $LZ_HOST_DEVICES; do
		lz_dev_ok "$d" && continue
		path=${d%%:*}; rest=${d#*:}; major=${rest%%:*}; minor=${rest#*:}
		if [ ! -e "$path" ]; then
			mkdir -p "$(dirname "$path")"
			mknod -m 0666 "$path" c "$major" "$minor"
			done="$done created $path;"
		fi
		[ -c "$path" ] || lz_die "'$path' exists but is not a" \
		    "character device (remove it and run setup again)"
		chmod 0666 "$path"
		done="$done chmod 0666 $path;"
	done
	for c in $(lz_cgroup_unmounted); do
		mkdir -p "/sys/fs/cgroup/$c"
		mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c" ||
		    lz_die "cannot mount the cgroup v1 controller '$c'"
		done="$done mounted cgroup v1 $c;"
	done
	if [ -z "$done" ]; then
		lz_say host "ok (devices 0666, cgroups ready)"
	else
		done=${done%;}
		lz_say host "ok (${done# })"
	fi
}
