/*
 * mailbox-mount.c: the mailbox's own tmpfs (mailbox-mount.h). Runs in
 * podman's rootless namespace (the shim, the "__anchor" helper).
 */
#include <sys/mount.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/anchor-mount.h"
#include "core/bundle.h"
#include "core/mailbox-mount.h"

/* 1 when the top mount at dir is a mailbox tmpfs, 0 when there is none,
 * LZ_EBUSY when it is something else. */
static int
mounted(const char *dir, struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	const struct lz_mountinfo_entry *top;
	int rc;

	if ((rc = lz_mountinfo_read(&mi, err)) != 0)
		return rc;
	top = lz_mountinfo_top(&mi, dir);
	if (top == NULL)
		rc = 0;
	else if (strcmp(top->fstype, "tmpfs") == 0 &&
	    strcmp(top->source, LZ_MAILBOX_FSNAME) == 0)
		rc = 1;
	else
		rc = lz_err_set(err, LZ_EBUSY, "will not touch '%s': a %s mount "
		    "from '%s' is there, not the mailbox", dir, top->fstype,
		    top->source);
	lz_mountinfo_release(&mi);
	return rc;
}

int
lz_mailbox_umount(const char *dir, struct lz_err *err)
{
	char real[PATH_MAX];
	int rc, round;

	if (realpath(dir, real) == NULL)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS, "cannot "
		    "resolve '%s': %s", dir, strerror(errno));
	for (round = 0; round < 8; round++) {
		if ((rc = mounted(real, err)) <= 0)
			return rc;
		if (umount2(real, UMOUNT_NOFOLLOW) != 0 && (errno != EBUSY ||
		    umount2(real, MNT_DETACH | UMOUNT_NOFOLLOW) != 0))
			return lz_err_set(err, LZ_ESYS, "cannot unmount the "
			    "mailbox '%s': %s", real, strerror(errno));
	}
	return lz_err_set(err, LZ_ESYS, "the mailbox '%s' is still mounted",
	    real);
}

int
lz_mailbox_mount(const char *dir, struct lz_err *err)
{
	char real[PATH_MAX];
	int rc;

	if (dir[0] != '/' || realpath(dir, real) == NULL)
		return lz_err_set(err, LZ_EINVAL, "mailbox directory '%s' must "
		    "exist and be absolute", dir);
	if ((rc = lz_mailbox_umount(real, err)) != 0)
		return rc;
	if (mount(LZ_MAILBOX_FSNAME, real, "tmpfs", MS_NOSUID | MS_NODEV |
	    MS_NOEXEC, LZ_MAILBOX_TMPFS_OPTS) != 0)
		return lz_err_set(err, LZ_ESYS, "cannot mount the mailbox on "
		    "'%s': %s", real, strerror(errno));
	return 0;
}

int
lz_mailbox_annot_mount(const char *bundle, struct lz_err *err)
{
	const char *dir;
	char *path;
	json_t *cfg;
	int rc = 0;

	if ((cfg = lz_bundle_load(bundle, &path, err)) == NULL)
		rc = LZ_ESYS;
	else if ((dir = lz_bundle_annotation(cfg, LZ_MAILBOX_ANNOTATION)) !=
	    NULL)
		rc = lz_mailbox_mount(dir, err);
	json_decref(cfg);
	free(path);
	return rc;
}
