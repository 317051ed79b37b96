# shellcheck shell=bash
# setup-image.sh: step "image" of scripts/setup.sh. Builds the default
# sandbox image localhost/lazaret/base:bookworm without a registry:
# debootstrap (minbase, from the machine's own mirror) into a cached rootfs,
# a cached tar of it, then a rootless "podman import" as the account. The
# recipe id below is stamped on the tar and set as an image label, so a
# changed recipe rebuilds and re-imports; otherwise both are reused.
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
LZ_IMAGE_INCLUDE=git,ca-certificates,procps,iproute2,ncurses-base,ncurses-bin,less
# Bump the leading number whenever the build below changes.
LZ_IMAGE_RECIPE="1;bookworm;minbase;$LZ_IMAGE_INCLUDE"
LZ_IMAGE_LABEL=org.lazaret.recipe

lz_image_recipe_id() {
	printf '%s' "$LZ_IMAGE_RECIPE" | sha256sum | cut -c1-16
}

lz_image_tar_ok() {
	[ -s "$LZ_IMAGE_TAR" ] &&
	    [ "$(cat "$LZ_IMAGE_STAMP" 2>/dev/null)" = "$(lz_image_recipe_id)" ]
}

# True when the account's podman has the image with the current recipe.
lz_image_imported() {
	local label
	label=$(lz_as_user podman image inspect --format \
	    "{{index .Labels \"$LZ_IMAGE_LABEL\"}}" "$LZ_IMAGE" 2>/dev/null) ||
	    return 1
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
	label=$(lz_as_user podman image inspect --format \
	    "{{index .Labels \"$LZ_SIDECAR_LABEL\"}}" "$(lz_sidecar_image)" \
	    2>/dev/null) || return 1
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

lz_image_build_tar() {
	local mirror start
	mirror=$(lz_detect_mirror) || lz_die "cannot find the Debian mirror" \
	    "of the suite 'bookworm' in the apt sources"
	start=$(date +%s)
	lz_say image "debootstrap bookworm minbase from $mirror (about 2 min)"
	install -d -m 0755 "$LZ_IMAGE_CACHE"
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
	lz_say image "writing $LZ_IMAGE_TAR"
	# Device nodes are left out: a rootless import cannot create them and
	# the runtime provides /dev.
	tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' \
	    --exclude='./sys/*' -C "$LZ_IMAGE_ROOTFS" \
	    -cf "$LZ_IMAGE_TAR.new" . || lz_die "cannot write '$LZ_IMAGE_TAR'"
	chmod 0644 "$LZ_IMAGE_TAR.new"
	mv "$LZ_IMAGE_TAR.new" "$LZ_IMAGE_TAR"
	lz_image_recipe_id >"$LZ_IMAGE_STAMP"
	lz_say image "rootfs built in $(($(date +%s) - start)) s" \
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
	    --change 'CMD ["/bin/bash"]' \
	    --message "lazaret base image, recipe $id" \
	    "$LZ_IMAGE_TAR" "$LZ_IMAGE" || lz_die "podman import failed"
	lz_image_imported || lz_die "'$LZ_IMAGE' not found after import"
	lz_say image "ok ($LZ_IMAGE imported, recipe $id)"
	lz_sidecar_apply
}
