/*
 * cmd-anchor-helper.c: "lazaret __anchor", a hidden helper that core/
 * sandbox.c re-executes inside podman's rootless user and mount namespace
 * ("podman unshare SELF __anchor ...") to mount and unmount State Anchor
 * overlays where the containers can see them. Not for people: the usage
 * is the contract with sandbox.c. The logic is core/anchor-mount.c.
 *
 *   __anchor mount [-P PODMAN] (-i IMAGE | -r ROOTFS) [--]
 *       PATH UPPER WORK MERGED LOWER_EMPTY ...
 *   __anchor umount [-P PODMAN] [-i IMAGE] [-u DIR] [MERGED ...]
 *   __anchor status MERGED ...
 *
 * mount asks "podman image mount IMAGE" for the image root (or takes
 * ROOTFS) and mounts each anchor, printing "mounted MERGED" or "already
 * MERGED". umount unmounts the named anchors and every overlay beneath DIR,
 * then "podman image unmount IMAGE". status prints "mounted MERGED UPPER"
 * or "unmounted MERGED" per argument. It refuses to run outside a user
 * namespace, so it never mounts anything on the host as real root.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anchor-mount.h"
#include "core/spawn.h"
#include "src/cmd.h"

/* Declared here until src/cmd.h lists it with the other commands. */

static int	 podman_image(const char *podman, const char *verb,
		     const char *image, char **out, struct lz_err *err);
static int	 do_mount(const char *podman, const char *image,
		     const char *rootfs, int argc, char **argv);
static int	 do_umount(const char *podman, const char *image,
		     const char *dir, int argc, char **argv);
static int	 do_status(int argc, char **argv);
static int	 cmd_anchor_helper_exec(struct lz_cmd_ctx *ctx, int argc,
		     char **argv);

/* "podman image mount|unmount IMAGE"; *out gets mount's path. */
static int
podman_image(const char *podman, const char *verb, const char *image,
    char **out, struct lz_err *err)
{
	const char *argv[] = { podman, "image", verb, image, NULL };
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	int rc;

	lz_spawn_result_init(&res);
	memset(&o, 0, sizeof o);
	o.timeout_ms = 120000;
	if ((rc = lz_spawn_capture(argv, &o, &res, err)) != 0)
		goto out;
	while (res.err.len > 0 && res.err.buf[res.err.len - 1] == '\n')
		res.err.buf[--res.err.len] = '\0';
	if (res.status != 0) {
		rc = lz_err_set(err, LZ_ESYS, "'podman image %s %s' failed: %s",
		    verb, image, res.err.len ? res.err.buf : "no message");
		goto out;
	}
	while (res.out.len > 0 && res.out.buf[res.out.len - 1] == '\n')
		res.out.buf[--res.out.len] = '\0';
	if (out != NULL) {
		if (res.out.len == 0 || res.out.buf[0] != '/' ||
		    memchr(res.out.buf, '\n', res.out.len) != NULL) {
			rc = lz_err_set(err, LZ_ESYS, "'podman image mount %s' "
			    "printed no single path", image);
			goto out;
		}
		*out = lz_buf_detach(&res.out);
	}
out:
	lz_spawn_result_release(&res);
	return rc;
}

static int
do_mount(const char *podman, const char *image, const char *rootfs, int argc,
    char **argv)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_anchor_layers l;
	char *root = NULL, *lower = NULL;
	int i, rc = 0, result;

	if (argc == 0 || argc % 5 != 0 || (image == NULL) == (rootfs == NULL)) {
		lz_cmd_error("__anchor mount: -i IMAGE or -r ROOTFS, then "
		    "groups of PATH UPPER WORK MERGED LOWER_EMPTY");
		return LZ_EXIT_USAGE;
	}
	if (image != NULL)
		rc = podman_image(podman, "mount", image, &root, &err);
	else
		root = lz_xstrdup(rootfs);
	for (i = 0; rc == 0 && i < argc; i += 5) {
		if ((rc = lz_anchor_lower(root, argv[i], argv[i + 4], &lower,
		    &err)) != 0)
			break;
		l.lower = lower;
		l.upper = argv[i + 1];
		l.work = argv[i + 2];
		l.merged = argv[i + 3];
		if ((rc = lz_anchor_mount(&l, &result, &err)) == 0)
			printf("%s %s\n", result == LZ_ANCHOR_ALREADY ?
			    "already" : "mounted", argv[i + 3]);
		free(lower);
		lower = NULL;
	}
	if (rc != 0)
		lz_cmd_error("%s", err.msg);
	lz_err_release(&err);
	free(root);
	return rc == 0 ? LZ_EXIT_OK : LZ_EXIT_FAILURE;
}

static int
do_umount(const char *podman, const char *image, const char *dir, int argc,
    char **argv)
{
	struct lz_err err = LZ_ERR_INIT;
	size_t count = 0;
	int i, rc = 0, r, result;

	for (i = 0; i < argc; i++) {
		r = lz_anchor_umount(argv[i], &result, &err);
		if (r != 0) {
			lz_cmd_error("%s", err.msg);
			rc = r;
			continue;
		}
		if (result == LZ_ANCHOR_DETACHED)
			printf("detached %s (busy: lazy unmount)\n", argv[i]);
		else if (result == LZ_ANCHOR_UNMOUNTED)
			printf("unmounted %s\n", argv[i]);
	}
	if (dir != NULL) {
		if ((r = lz_anchor_umount_under(dir, &count, &err)) != 0) {
			lz_cmd_error("%s", err.msg);
			rc = r;
		}
		if (count > 0)
			printf("unmounted %zu under %s\n", count, dir);
	}
	/* The image root only after the overlays that use it are gone. */
	if (image != NULL && (r = podman_image(podman, "unmount", image, NULL,
	    &err)) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = r;
	}
	lz_err_release(&err);
	return rc == 0 ? LZ_EXIT_OK : LZ_EXIT_FAILURE;
}

static int
do_status(int argc, char **argv)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	const struct lz_mountinfo_entry *e;
	struct lz_err err = LZ_ERR_INIT;
	char *real, *upper;
	int i;

	if (lz_mountinfo_read(&mi, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		lz_err_release(&err);
		return LZ_EXIT_FAILURE;
	}
	for (i = 0; i < argc; i++) {
		real = realpath(argv[i], NULL);
		e = lz_mountinfo_top(&mi, real ? real : argv[i]);
		upper = e ? lz_mountinfo_option(e->superopts, "upperdir") :
		    NULL;
		if (e != NULL)
			printf("mounted %s %s %s\n", argv[i], e->fstype,
			    upper ? upper : "-");
		else
			printf("unmounted %s\n", argv[i]);
		free(upper);
		free(real);
	}
	lz_mountinfo_release(&mi);
	return LZ_EXIT_OK;
}

static int
cmd_anchor_helper_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	struct lz_err err = LZ_ERR_INIT;
	const char *podman = "podman", *image = NULL, *rootfs = NULL;
	const char *dir = NULL, *verb;
	int ch, r;

	(void)ctx;
	if (argc < 2)
		return lz_cmd_usage(&lz_cmd_anchor_helper);
	verb = argv[1];
	optind = 1;
	while ((ch = getopt(argc - 1, argv + 1, "+P:i:r:u:")) != -1) {
		switch (ch) {
		case 'P':
			podman = optarg;
			break;
		case 'i':
			image = optarg;
			break;
		case 'r':
			rootfs = optarg;
			break;
		case 'u':
			dir = optarg;
			break;
		default:
			return lz_cmd_usage(&lz_cmd_anchor_helper);
		}
	}
	argc -= optind + 1;
	argv += optind + 1;
	if ((r = lz_anchor_in_userns(&err)) <= 0) {
		lz_cmd_error("__anchor: %s", r < 0 ? err.msg : "not in a user "
		    "namespace; this helper runs under 'podman unshare' only");
		lz_err_release(&err);
		return LZ_EXIT_UNSAFE;
	}
	if (strcmp(verb, "mount") == 0)
		return do_mount(podman, image, rootfs, argc, argv);
	if (strcmp(verb, "umount") == 0)
		return do_umount(podman, image, dir, argc, argv);
	if (strcmp(verb, "status") == 0)
		return do_status(argc, argv);
	return lz_cmd_usage(&lz_cmd_anchor_helper);
}

const struct lz_cmd lz_cmd_anchor_helper = {
	.name = "__anchor",
	.usage = "mount|umount|status [-P PODMAN] [-i IMAGE] [-r ROOTFS] "
	    "[-u DIR] ARGS... (internal: run by lazaret under podman unshare)",
	.summary = NULL,	/* hidden */
	.flags = 0,
	.exec = cmd_anchor_helper_exec,
};
