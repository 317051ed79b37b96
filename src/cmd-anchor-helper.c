/*
 * cmd-anchor-helper.c: "lazaret __anchor", a hidden helper that core/
 * sandbox.c re-executes inside podman's rootless user and mount namespace
 * ("podman unshare SELF __anchor ...") to unmount State Anchor overlays
 * and to report them (the runtime shim mounts them: core/anchor-annot.h).
 * Not for people: the usage is the contract with sandbox.c and the tests.
 * The logic is core/anchor-mount.c.
 *
 *   __anchor umount [-u DIR] [-w VIEW] [MERGED ...]
 *   __anchor status MERGED ...
 *
 * umount unmounts the named anchors, every overlay beneath DIR, and the
 * workspace view VIEW with its binds (core/ws-view.h). status
 * prints "mounted MERGED FSTYPE UPPER" or "unmounted MERGED" per argument.
 * It refuses to run outside a user namespace, so it never unmounts
 * anything on the host as real root.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anchor-mount.h"
#include "core/mailbox-mount.h"
#include "core/ws-view.h"
#include "src/cmd.h"

static int	 do_umount(const char *dir, const char *view, int argc,
		     char **argv);
static int	 do_status(int argc, char **argv);
static int	 cmd_anchor_helper_exec(struct lz_cmd_ctx *ctx, int argc,
		     char **argv);

static int
do_umount(const char *dir, const char *view, int argc, char **argv)
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
	if (view != NULL) {
		if ((r = lz_view_umount(view, &count, &err)) != 0) {
			lz_cmd_error("%s", err.msg);
			rc = r;
		}
		if (count > 0)
			printf("unmounted the workspace view %s\n", view);
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
	const char *dir = NULL, *view = NULL, *mailbox = NULL, *verb;
	int ch, r;

	(void)ctx;
	if (argc < 2)
		return lz_cmd_usage(&lz_cmd_anchor_helper);
	verb = argv[1];
	optind = 1;
	while ((ch = getopt(argc - 1, argv + 1, "+u:w:m:")) != -1) {
		switch (ch) {
		case 'u':
			dir = optarg;
			break;
		case 'w':
			view = optarg;
			break;
		case 'm':
			mailbox = optarg;
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
	if (strcmp(verb, "umount") == 0) {
		r = do_umount(dir, view, argc, argv);
		if (mailbox != NULL && lz_mailbox_umount(mailbox, &err) != 0) {
			lz_cmd_error("%s", err.msg);
			lz_err_release(&err);
			r = LZ_EXIT_FAILURE;
		}
		return r;
	}
	if (strcmp(verb, "status") == 0)
		return do_status(argc, argv);
	return lz_cmd_usage(&lz_cmd_anchor_helper);
}

const struct lz_cmd lz_cmd_anchor_helper = {
	.name = "__anchor",
	.usage = "umount [-u DIR] [-w VIEW] [-m MAILBOX] [MERGED...] | status "
	    "MERGED... (internal: run by lazaret under podman unshare)",
	.summary = NULL,	/* hidden */
	.flags = 0,
	.exec = cmd_anchor_helper_exec,
};
