/*
 * mailbox-mount.h: the Escalation Mailbox's request directory as a small
 * tmpfs of its own, so the sandbox, which may write anything there, cannot
 * fill the user's runtime tmpfs through it (issue 15: the mailbox is
 * bounded). Mounted in podman's rootless user and mount namespace by the
 * runtime shim while it creates the sandbox (as the State Anchors are),
 * over the host directory the sandbox binds at /run/lazaret/requests; the
 * coordinator reads it through that namespace's root
 * (/proc/<podman's pause process>/root, src/coordinator-mailbox.c), and
 * teardown's "lazaret __anchor umount -m DIR" takes it off.
 */
#ifndef LZ_MAILBOX_MOUNT_H
#define LZ_MAILBOX_MOUNT_H

#include "core/util.h"

#define LZ_MAILBOX_FSNAME "lzmailbox"
#define LZ_MAILBOX_ANNOTATION "lazaret.mailbox"
/* 4 MiB and 512 files: 60 requests of the 64 KiB limit, and room to spare
 * for the acknowledgements and cancels of a burst of small ones. */
#define LZ_MAILBOX_TMPFS_OPTS "size=16m,nr_inodes=8192,mode=0700"

/*
 * Mounts the mailbox tmpfs on dir (absolute): a mailbox tmpfs already
 * there (an earlier start's) is taken off first, anything else there is
 * LZ_EBUSY.
 */
int lz_mailbox_mount(const char *dir, struct lz_err *err);
/* Takes the mailbox tmpfs off dir; nothing there is fine. */
int lz_mailbox_umount(const char *dir, struct lz_err *err);
/* In the shim: mounts the mailbox the bundle's annotation names, if any. */
int lz_mailbox_annot_mount(const char *bundle, struct lz_err *err);

#endif
