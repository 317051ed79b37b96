# shellcheck shell=bash
# setup-image.sh: step "image" of scripts/setup.sh. Builds the default
# sandbox image localhost/lazaret/base:bookworm without a registry:
# debootstrap (minbase, from the machine's own mirror) into a cached rootfs,
# the host's trust in it (below), a cached tar of it, then a rootless
# "podman import" as the account. The recipe id is stamped on the tar and
# set as an image label, so a changed recipe rebuilds and re-imports;
# otherwise both are reused. The rootfs has a stamp of its own, of the
# debootstrap part only, so a change of trust alone does not debootstrap.
#
# Trust: the image trusts what the host's system store trusts. The host's
# local CAs (what /usr/local/share/ca-certificates adds to Debian's bundle,
# e.g. a company proxy that inspects TLS) and its /etc/ca-certificates.conf
# (which of Debian's CAs are on) are copied into the rootfs and
# update-ca-certificates is run there: every HTTPS client inside (curl,
# git, pip, npm through Debian's nodejs) then verifies as on the host. They
# are part of the recipe (their SHA-256s), so adding or removing a CA on
# the host rebuilds the image at the next set-up, and the image's label
# org.lazaret.local-cas lists the SHA-256 of each local CA it carries
# ("lazaret doctor" compares it with the host). Copied into the image,
# never bound from the host (SR-3).
# Then the Network Sidecar's image (lz_sidecar_apply, called at the end):
# a scratch image holding only /lazaret-netpolicy, the installed static
# binary, imported as localhost/lazaret/netpolicy:<version>; the binary's
# SHA-256 is its label, so a rebuilt binary is re-imported.
# Sourced by setup.sh.

LZ_IMAGE=localhost/lazaret/base:bookworm
LZ_IMAGE_CACHE=/var/cache/lazaret
LZ_IMAGE_ROOTFS=$LZ_IMAGE_CACHE/rootfs-bookworm
LZ_IMAGE_TAR=$LZ_IMAGE_CACHE/base-bookworm.tar
LZ_IMAGE_STAMP=$LZ_IMAGE_TAR.recipe
LZ_IMAGE_ROOTFS_STAMP=$LZ_IMAGE_ROOTFS.recipe
LZ_IMAGE_INCLUDE=git,ca-certificates,procps,iproute2,ncurses-base,ncurses-bin,less
# Bump the leading number whenever the debootstrap below changes; bump the
# one of LZ_IMAGE_RECIPE when what is done to the rootfs after it changes.
LZ_IMAGE_BASE_RECIPE="1;bookworm;minbase;$LZ_IMAGE_INCLUDE"
LZ_IMAGE_RECIPE="2;$LZ_IMAGE_BASE_RECIPE"
LZ_IMAGE_LABEL=org.lazaret.recipe
LZ_IMAGE_CAS_LABEL=org.lazaret.local-cas
LZ_HOST_CAS=/usr/local/share/ca-certificates
LZ_HOST_CA_CONF=/etc/ca-certificates.conf

# The host's local CAs, "SHA256  ./PATH" a line, in a fixed order: every
# *.crt below LZ_HOST_CAS, symlinks followed, as update-ca-certificates
# finds them.
lz_host_cas() {
	[ -d "$LZ_HOST_CAS" ] || return 0
	(cd "$LZ_HOST_CAS" && find -L . -type f -name '*.crt' -print0 |
	    LC_ALL=C sort -z | xargs -0 -r sha256sum)
}

# The label value: the local CAs' SHA-256s, comma-separated.
lz_host_cas_label() {
	lz_host_cas | cut -c1-64 | paste -sd, -
}

lz_image_base_id() {
	printf '%s' "$LZ_IMAGE_BASE_RECIPE" | sha256sum | cut -c1-16
}

# The recipe: the build, the host's local CAs and its CA selection.
lz_image_recipe_id() {
	{ printf '%s\n' "$LZ_IMAGE_RECIPE"; lz_host_cas
	    cat "$LZ_HOST_CA_CONF" 2>/dev/null; } | sha256sum | cut -c1-16
}

lz_image_tar_ok() {
	[ -s "$LZ_IMAGE_TAR" ] &&
	    [ "$(cat "$LZ_IMAGE_STAMP" 2>/dev/null)" = "$(lz_image_recipe_id)" ]
}

lz_image_rootfs_ok() {
	[ -d "$LZ_IMAGE_ROOTFS" ] && [ "$(cat "$LZ_IMAGE_ROOTFS_STAMP" \
	    2>/dev/null)" = "$(lz_image_base_id)" ]
}

# lz_podman_label IMAGE LABEL: prints the account's IMAGE's LABEL. Returns
# 1 when podman says it has no IMAGE, and 2, with podman's own error on
# stderr, when podman cannot answer.
lz_podman_label() {
	local err rc=0
	err=$(lz_as_user podman image exists "$1" 2>&1) || rc=$?
	if [ "$rc" = 1 ] && ! grep -qi error <<<"$err"; then
		return 1
	elif [ "$rc" = 0 ]; then
		lz_as_user podman image inspect --format \
		    "{{index .Labels \"$2\"}}" "$1" && return 0
	else
		printf '%s\n' "$err" >&2
	fi
	lz_warn "podman of $LZ_USER cannot say whether it has $1 (above)"
	return 2
}

# True when the account's podman has the image with the current recipe.
lz_image_imported() {
	local label
	label=$(lz_podman_label "$LZ_IMAGE" "$LZ_IMAGE_LABEL") || return 1
	[ "$label" = "$(lz_image_recipe_id)" ]
}

lz_image_check() {
	lz_image_imported && lz_sidecar_imported
}

# The sidecar image: its tag carries the version lazaret was built as (the
# coordinator runs localhost/lazaret/netpolicy:<its own version>).
LZ_SIDECAR_LABEL=org.lazaret.binary-sha256

lz_sidecar_image() {
	local v
	v=$("${LZ_PREFIX:-/usr/local}/bin/lazaret" --version 2>/dev/null |
	    sed -n 's/^lazaret \([0-9][0-9.]*\).*/\1/p')
	printf 'localhost/lazaret/netpolicy:%s' "${v:-0.1.0}"
}

lz_sidecar_imported() {
	local label want
	[ -x "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy" ] || return 1
	want=$(sha256sum "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy" | cut -c1-64)
	label=$(lz_podman_label "$(lz_sidecar_image)" "$LZ_SIDECAR_LABEL") ||
	    return 1
	[ "$label" = "$want" ]
}

# Imports the one-file image when the installed binary changed.
lz_sidecar_apply() {
	local img sum dir
	img=$(lz_sidecar_image)
	[ -x "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy" ] || lz_die "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy is missing" \
	    "(run the build step)"
	sum=$(sha256sum "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy" | cut -c1-64)
	if lz_sidecar_imported; then
		lz_say image "ok ($img present, binary ${sum:0:16})"
		return 0
	fi
	dir=$(mktemp -d /tmp/lz-sidecar.XXXXXX) || lz_die "mktemp failed"
	install -m 0755 "${LZ_PREFIX:-/usr/local}/bin/lazaret-netpolicy" "$dir/lazaret-netpolicy"
	tar --numeric-owner --owner=0 --group=0 -C "$dir" \
	    -cf "$dir/netpolicy.tar" lazaret-netpolicy ||
	    lz_die "cannot write the sidecar image tar"
	chmod 0755 "$dir"
	chmod 0644 "$dir/netpolicy.tar"
	lz_run lz_as_user podman import \
	    --change "LABEL $LZ_SIDECAR_LABEL=$sum" \
	    --change 'ENTRYPOINT ["/lazaret-netpolicy"]' \
	    --message "lazaret network sidecar" \
	    "$dir/netpolicy.tar" "$img" || lz_die "sidecar podman import failed"
	rm -f "$dir/netpolicy.tar" "$dir/lazaret-netpolicy"
	rmdir "$dir"
	lz_sidecar_imported || lz_die "'$img' not found after import"
	lz_say image "ok ($img imported, binary ${sum:0:16})"
}

# Runs debootstrap with a dot every 5 s in quiet mode, its own "I: ..."
# lines (prefixed) otherwise, so a first run never looks stuck.
lz_image_debootstrap() {
	local mirror=$1 rc pid
	if [ "${LZ_QUIET:-0}" = 1 ]; then
		debootstrap --variant=minbase --include="$LZ_IMAGE_INCLUDE" \
		    bookworm "$LZ_IMAGE_ROOTFS.new" "$mirror" >>"$LZ_LOG" 2>&1 &
		pid=$!
		printf 'setup: image     ... debootstrap '
		while kill -0 "$pid" 2>/dev/null; do
			printf '.'
			sleep 5
		done
		rc=0
		wait "$pid" || rc=$?
		printf '\n'
		return "$rc"
	fi
	debootstrap --variant=minbase --include="$LZ_IMAGE_INCLUDE" \
	    bookworm "$LZ_IMAGE_ROOTFS.new" "$mirror" 2>&1 |
	    sed -u 's/^/    debootstrap: /'
	return "${PIPESTATUS[0]}"
}

lz_image_build_rootfs() {
	local mirror start
	mirror=$(lz_detect_mirror) || lz_die "cannot find the Debian mirror" \
	    "of the suite 'bookworm' in the apt sources"
	start=$(date +%s)
	lz_say image "debootstrap bookworm minbase from $mirror (about 2 min)"
	install -d -m 0755 "$LZ_IMAGE_CACHE"
	rm -f "$LZ_IMAGE_ROOTFS_STAMP"
	rm -rf "$LZ_IMAGE_ROOTFS.new"
	lz_image_debootstrap "$mirror" || lz_die "debootstrap failed" \
	    "${LZ_QUIET:+(see $LZ_LOG)}"
	# No package caches or lists in the image: nothing to verify them with.
	rm -rf "$LZ_IMAGE_ROOTFS.new"/var/cache/apt/archives/*.deb \
	    "$LZ_IMAGE_ROOTFS.new"/var/cache/apt/*.bin \
	    "$LZ_IMAGE_ROOTFS.new"/var/lib/apt/lists/* \
	    "$LZ_IMAGE_ROOTFS.new"/var/log/*.log \
	    "$LZ_IMAGE_ROOTFS.new"/debootstrap
	rm -rf "$LZ_IMAGE_ROOTFS"
	mv "$LZ_IMAGE_ROOTFS.new" "$LZ_IMAGE_ROOTFS"
	lz_image_base_id >"$LZ_IMAGE_ROOTFS_STAMP"
	lz_say image "rootfs built in $(($(date +%s) - start)) s"
}

# The host's trust into the rootfs (see the top of this file): what an
# earlier run put there is replaced, so the result depends only on the
# host's files now.
lz_image_add_trust() {
	local dst=$LZ_IMAGE_ROOTFS/usr/local/share/ca-certificates sum rel n=0
	rm -rf "$dst"
	install -d -m 0755 "$dst"
	while read -r sum rel; do
		# sha256sum escapes a name with a backslash or newline.
		case $sum in
		\\*) lz_die "a CA in $LZ_HOST_CAS has a backslash or newline" \
		    "in its name; rename it" ;;
		esac
		install -D -m 0644 "$LZ_HOST_CAS/$rel" "$dst/$rel" ||
		    lz_die "cannot copy the host's CA '$LZ_HOST_CAS/$rel'"
		n=$((n + 1))
	done < <(lz_host_cas)
	if [ -f "$LZ_HOST_CA_CONF" ]; then
		install -m 0644 "$LZ_HOST_CA_CONF" \
		    "$LZ_IMAGE_ROOTFS/etc/ca-certificates.conf" ||
		    lz_die "cannot copy $LZ_HOST_CA_CONF"
	fi
	lz_run chroot "$LZ_IMAGE_ROOTFS" /usr/sbin/update-ca-certificates \
	    --fresh || lz_die "update-ca-certificates in the image rootfs" \
	    "failed (its output is above, or in $LZ_LOG_DEFAULT with --quiet)"
	lz_say image "trust: $n local CA(s) of the host ($LZ_HOST_CAS)" \
	    "and its $LZ_HOST_CA_CONF"
}

lz_image_build_tar() {
	local start
	lz_image_rootfs_ok || lz_image_build_rootfs
	start=$(date +%s)
	lz_image_add_trust
	lz_say image "writing $LZ_IMAGE_TAR"
	# Device nodes are left out: a rootless import cannot create them and
	# the runtime provides /dev.
	tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' \
	    --exclude='./sys/*' -C "$LZ_IMAGE_ROOTFS" \
	    -cf "$LZ_IMAGE_TAR.new" . || lz_die "cannot write '$LZ_IMAGE_TAR'"
	chmod 0644 "$LZ_IMAGE_TAR.new"
	mv "$LZ_IMAGE_TAR.new" "$LZ_IMAGE_TAR"
	lz_image_recipe_id >"$LZ_IMAGE_STAMP"
	lz_say image "trust added and tar written in $(($(date +%s) - start)) s" \
	    "($(du -sh "$LZ_IMAGE_TAR" | cut -f1))"
}

lz_image_apply() {
	local id
	id=$(lz_image_recipe_id)
	if lz_image_imported; then
		lz_say image "ok ($LZ_IMAGE present, recipe $id)"
		lz_sidecar_apply
		return 0
	fi
	if lz_image_tar_ok; then
		lz_say image "using cached $LZ_IMAGE_TAR"
	else
		lz_image_build_tar
	fi
	lz_say image "podman import as $LZ_USER"
	lz_run lz_as_user podman import \
	    --change "LABEL $LZ_IMAGE_LABEL=$id" \
	    --change "LABEL $LZ_IMAGE_CAS_LABEL=$(lz_host_cas_label)" \
	    --change 'CMD ["/bin/bash"]' \
	    --message "lazaret base image, recipe $id" \
	    "$LZ_IMAGE_TAR" "$LZ_IMAGE" || lz_die "podman import failed"
	lz_image_imported || lz_die "'$LZ_IMAGE' not found after import"
	lz_say image "ok ($LZ_IMAGE imported, recipe $id)"
	lz_sidecar_apply
}
