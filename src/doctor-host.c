/*
 * doctor-host.c: "lazaret doctor" checks of the host and the account, read
 * straight from files (RUNTIME-NOTES.md, "Host preparation"): subordinate
 * ID ranges, the device nodes rootless podman opens, cgroup controllers
 * left on cgroup2 in hybrid mode, and XDG_RUNTIME_DIR.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/domain.h"
#include "core/util.h"
#include "src/doctor.h"

/* Podman maps a full 16-bit range; Debian images use IDs up to 65534. */
#define SUBID_MIN_COUNT 65536UL
#define CGROUP_UNIFIED "/sys/fs/cgroup/unified/cgroup.controllers"

static void	 subid(struct lz_doctor_ctx *, struct lz_doctor_result *,
		     const char *file, const char *kind);
static void	 device(struct lz_doctor_ctx *, struct lz_doctor_result *,
		     const char *path, int major, int minor);

/* Checks file (/etc/subuid or /etc/subgid) for a range of the caller. */
static void
subid(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *file, const char *kind)
{
	FILE *f;
	char line[512], name[256], uidstr[32];
	unsigned long start, count, total = 0, first = 0, next = 100000;

	if (snprintf(uidstr, sizeof uidstr, "%lu",
	    (unsigned long)ctx->uid) >= (int)sizeof uidstr)
		LZ_BUG("uid does not fit");
	if ((f = fopen(file, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			if (sscanf(line, "%255[^:]:%lu:%lu", name, &start,
			    &count) != 3)
				continue;
			if (start + count > next)
				next = start + count;
			if (strcmp(name, ctx->user) != 0 &&
			    strcmp(name, uidstr) != 0)
				continue;
			if (total == 0)
				first = start;
			total += count;
		}
		fclose(f);
	}
	if (total >= SUBID_MIN_COUNT) {
		lz_doctor_pass(res, "%s: %lu IDs from %lu", file, total, first);
		return;
	}
	lz_doctor_fail(res, lz_xasprintf("sudo usermod --add-sub%ss %lu-%lu "
	    "%s && podman system migrate", kind, next,
	    next + SUBID_MIN_COUNT - 1, ctx->user),
	    "%s: %lu subordinate %sIDs for '%s' (need %lu)", file, total,
	    kind[0] == 'u' ? "U" : "G", ctx->user, SUBID_MIN_COUNT);
}

void
lz_doctor_subuid(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	subid(ctx, res, "/etc/subuid", "uid");
}

void
lz_doctor_subgid(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	subid(ctx, res, "/etc/subgid", "gid");
}

/*
 * The node must be readable and writable by the caller and, when the
 * caller is root (who passes any access check), by everyone: the sandbox
 * runs as a normal user.
 */
static void
device(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    const char *path, int major, int minor)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISCHR(st.st_mode)) {
		lz_doctor_fail(res, lz_xasprintf("sudo mkdir -p /dev/net && "
		    "sudo mknod -m 0666 %s c %d %d", path, major, minor),
		    "%s is missing or not a character device", path);
		return;
	}
	if (access(path, R_OK | W_OK) != 0 ||
	    (ctx->uid == 0 && (st.st_mode & 0006) != 0006)) {
		lz_doctor_fail(res, lz_xasprintf("sudo chmod 0666 %s", path),
		    "%s is mode %03o: rootless podman cannot open it", path,
		    (unsigned)(st.st_mode & 0777));
		return;
	}
	lz_doctor_pass(res, "%s is readable and writable (mode %03o)", path,
	    (unsigned)(st.st_mode & 0777));
}

void
lz_doctor_tun(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	device(ctx, res, "/dev/net/tun", 10, 200);
}

void
lz_doctor_fuse(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	device(ctx, res, "/dev/fuse", 10, 229);
}

/*
 * In hybrid mode crun refuses to run while any controller is still bound
 * to cgroup2 ("drop all controllers from cgroupv2"): each must be mounted
 * as cgroup v1.
 */
void
lz_doctor_cgroups(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct lz_buf fix = LZ_BUF_INIT, names = LZ_BUF_INIT;
	char word[64];
	FILE *f;

	(void)ctx;
	if ((f = fopen(CGROUP_UNIFIED, "r")) == NULL) {
		if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0)
			lz_doctor_pass(res, "cgroup v2 (unified)");
		else
			lz_doctor_pass(res, "cgroup v1");
		return;
	}
	while (fscanf(f, "%63s", word) == 1) {
		lz_buf_addf(&names, "%s%s", names.len ? " " : "", word);
		lz_buf_addf(&fix, "%ssudo mkdir -p /sys/fs/cgroup/%s && sudo "
		    "mount -t cgroup -o %s cgroup /sys/fs/cgroup/%s",
		    fix.len ? " && " : "", word, word, word);
	}
	fclose(f);
	if (names.len == 0)
		lz_doctor_pass(res, "hybrid: no controller left on cgroup2");
	else
		lz_doctor_fail(res, lz_buf_detach(&fix), "hybrid: controller "
		    "still on cgroup2, not mounted as v1: %s", names.buf);
	lz_buf_release(&fix);
	lz_buf_release(&names);
}

void
lz_doctor_runtime_dir(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	unsigned long uid = (unsigned long)ctx->uid;
	char own[64];
	struct stat st;

	if (snprintf(own, sizeof own, "/run/user/%lu", uid) >=
	    (int)sizeof own)
		LZ_BUG("runtime dir path does not fit");

	if (dir == NULL || dir[0] == '\0') {
		/* What lazaret and podman then use (lz_paths_init). */
		struct lz_err err = LZ_ERR_INIT;
		char *fallback;

		if (lz_paths_runtime_fallback(LZ_RUN_USER_DIR, ctx->uid,
		    &fallback, &err) == 0) {
			lz_doctor_pass(res, "XDG_RUNTIME_DIR not set: %s "
			    "(owned, 0700), as podman does", fallback);
			free(fallback);
		} else
			lz_doctor_fail(res, lz_xasprintf("export "
			    "XDG_RUNTIME_DIR=%s (created by: %s)", own,
			    ctx->setup), "XDG_RUNTIME_DIR is not set, and %s",
			    err.msg);
		lz_err_release(&err);
		return;
	}
	if (dir[0] != '/') {
		lz_doctor_fail(res, lz_xasprintf("export XDG_RUNTIME_DIR="
		    "%s (created by: %s)", own, ctx->setup),
		    "XDG_RUNTIME_DIR is not an absolute path");
		return;
	}
	if (lstat(dir, &st) != 0) {
		lz_doctor_fail(res, lz_xasprintf("sudo install -d -m 0700 -o "
		    "%lu -g %lu %s", uid, (unsigned long)ctx->gid, dir),
		    "XDG_RUNTIME_DIR '%s': %s", dir, strerror(errno));
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		lz_doctor_fail(res, lz_xasprintf("export XDG_RUNTIME_DIR="
		    "%s", own), "XDG_RUNTIME_DIR '%s' is not a "
		    "directory (or is a symlink)", dir);
		return;
	}
	/* Never suggest chowning a directory that is not the caller's own
	 * /run/user/UID (it may be /tmp): point the variable there instead. */
	if (st.st_uid != ctx->uid) {
		lz_doctor_fail(res, strcmp(dir, own) == 0 ?
		    lz_xasprintf("sudo chown %lu:%lu %s", uid,
		    (unsigned long)ctx->gid, dir) :
		    lz_xasprintf("export XDG_RUNTIME_DIR=%s (created by: %s)",
		    own, ctx->setup), "XDG_RUNTIME_DIR '%s' is owned by uid "
		    "%lu, not %lu", dir, (unsigned long)st.st_uid, uid);
		return;
	}
	if ((st.st_mode & 077) != 0) {
		lz_doctor_fail(res, lz_xasprintf("chmod 0700 %s", dir),
		    "XDG_RUNTIME_DIR '%s' is mode %03o, not 0700", dir,
		    (unsigned)(st.st_mode & 0777));
		return;
	}
	lz_doctor_pass(res, "%s (owned, 0700)", dir);
}
