/*
 * domain-busy.c: mounts and processes that use a Domain Root
 * (domain-busy.h).
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/domain-busy.h"
#include "core/pathcheck.h"
#include "core/rundir.h"
#include "core/visible.h"
#include "core/ws-view.h"

static int	 at_or_beneath(const char *path, const char *dir);
static int	 option_uses(const char *opts, const char *dir);
static char	*fs_relative(const struct lz_mountinfo *mi, const char *dir,
		     const char **dev);
static void	 proc_one(const char *pid, const char *dir,
		     struct lz_tokens *out);
static char	*comm_of(const char *pid);
static int	 containers(const struct lz_sandbox_ctx *ctx, const char *id,
		     struct lz_tokens *out, size_t *prepared,
		     struct lz_err *err);
static size_t	 stale_mounts(const struct lz_mountinfo *mi,
		     const char *droot);

static int
at_or_beneath(const char *path, const char *dir)
{
	return lz_path_beneath(path, dir);
}

/* 1 when a lowerdir/upperdir/workdir of opts lies at or beneath dir. */
static int
option_uses(const char *opts, const char *dir)
{
	static const char *const keys[] = { "lowerdir", "upperdir", "workdir" };
	char *v, *p, *colon;
	size_t i;
	int hit = 0;

	for (i = 0; i < sizeof keys / sizeof *keys && !hit; i++) {
		if ((v = lz_mountinfo_option(opts, keys[i])) == NULL)
			continue;
		/* lowerdir is a ':'-separated list. */
		for (p = v; p != NULL && !hit; p = colon) {
			if ((colon = strchr(p, ':')) != NULL)
				*colon++ = '\0';
			hit = at_or_beneath(p, dir);
		}
		free(v);
	}
	return hit;
}

/*
 * dir's place within its file system: the root field a bind of it would
 * show; and that file system's device in *dev; NULL when no mount holds
 * dir.
 */
static char *
fs_relative(const struct lz_mountinfo *mi, const char *dir, const char **dev)
{
	const struct lz_mountinfo_entry *best = NULL;
	size_t i, n;
	const char *rest;

	for (i = 0; i < mi->n; i++) {
		if (at_or_beneath(dir, mi->v[i].mountpoint) && (best == NULL ||
		    strlen(mi->v[i].mountpoint) >= strlen(best->mountpoint)))
			best = &mi->v[i];
	}
	if (best == NULL)
		return NULL;
	*dev = best->dev;
	n = strlen(best->mountpoint);
	rest = strcmp(best->mountpoint, "/") == 0 ? dir : dir + n;
	if (strcmp(best->root, "/") == 0)
		return lz_xstrdup(*rest != '\0' ? rest : "/");
	return lz_xasprintf("%s%s", best->root, rest);
}

void
lz_busy_mounts(const struct lz_mountinfo *mi, const char *dir,
    struct lz_tokens *out)
{
	const struct lz_mountinfo_entry *e;
	const char *dev = NULL;
	char *rel = fs_relative(mi, dir, &dev), *mp;
	size_t i;

	for (i = 0; i < mi->n; i++) {
		e = &mi->v[i];
		mp = lz_visible_str(e->mountpoint, 0);
		if (at_or_beneath(e->mountpoint, dir))
			lz_tokens_pushf(out, "a %s mount on '%s'", e->fstype,
			    mp);
		else if (option_uses(e->superopts, dir))
			lz_tokens_pushf(out, "a %s mount on '%s' with a layer "
			    "in the Domain Root", e->fstype, mp);
		else if (rel != NULL && dev != NULL && e->dev != NULL &&
		    strcmp(e->dev, dev) == 0 && at_or_beneath(e->root, rel))
			lz_tokens_pushf(out, "a bind mount of '%s' on '%s'",
			    e->root, mp);
		free(mp);
	}
	free(rel);
}

/* The process name of pid, made visible; allocated. */
static char *
comm_of(const char *pid)
{
	char path[64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%s/comm", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return lz_xstrdup("?");
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return lz_xstrdup("?");
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return lz_visible_str(buf, 0);
}

/* The uses of dir by process pid, one line each into out. */
static void
proc_one(const char *pid, const char *dir, struct lz_tokens *out)
{
	static const char *const links[] = { "cwd", "root" };
	char path[PATH_MAX], target[PATH_MAX], *line = NULL, *comm = NULL;
	const char *what = NULL;
	struct dirent *d;
	size_t i, cap = 0;
	ssize_t n;
	DIR *fds;
	FILE *maps;

	for (i = 0; i < sizeof links / sizeof *links && what == NULL; i++) {
		snprintf(path, sizeof path, "/proc/%s/%s", pid, links[i]);
		if ((n = readlink(path, target, sizeof target - 1)) > 0) {
			target[n] = '\0';
			if (at_or_beneath(target, dir))
				what = links[i];
		}
	}
	snprintf(path, sizeof path, "/proc/%s/fd", pid);
	if (what == NULL && (fds = opendir(path)) != NULL) {
		while (what == NULL && (d = readdir(fds)) != NULL) {
			snprintf(path, sizeof path, "/proc/%s/fd/%s", pid,
			    d->d_name);
			n = readlink(path, target, sizeof target - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (at_or_beneath(target, dir))
				what = "an open file";
		}
		closedir(fds);
	}
	snprintf(path, sizeof path, "/proc/%s/maps", pid);
	if (what == NULL && (maps = fopen(path, "re")) != NULL) {
		while (what == NULL && getline(&line, &cap, maps) > 0) {
			char *slash = strchr(line, '/'), *nl;

			if (slash == NULL)
				continue;
			if ((nl = strchr(slash, '\n')) != NULL)
				*nl = '\0';
			if (at_or_beneath(slash, dir))
				what = "a mapped file";
		}
		free(line);
		fclose(maps);
	}
	if (what == NULL)
		return;
	comm = comm_of(pid);
	lz_tokens_pushf(out, "process %s (%s) has its %s in it", pid, comm,
	    what);
	free(comm);
}

int
lz_busy_procs(const char *dir, struct lz_tokens *out, struct lz_err *err)
{
	struct dirent *d;
	char self[32];
	DIR *proc;

	if ((proc = opendir("/proc")) == NULL)
		return lz_err_set(err, LZ_ESYS, "cannot list /proc: %s",
		    strerror(errno));
	snprintf(self, sizeof self, "%ld", (long)getpid());
	while ((d = readdir(proc)) != NULL) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
		    strspn(d->d_name, "0123456789") != strlen(d->d_name) ||
		    strcmp(d->d_name, self) == 0)
			continue;
		proc_one(d->d_name, dir, out);
	}
	closedir(proc);
	return 0;
}

int
lz_busy_socket(const char *path)
{
	struct sockaddr_un sa;
	int s, up;

	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path)
		return 0;
	memcpy(sa.sun_path, path, strlen(path));
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return 0;
	up = connect(s, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(s);
	return up;
}

void
lz_quiet_release(struct lz_quiet *q)
{
	if (q->lockfd >= 0)
		close(q->lockfd);
	q->lockfd = -1;
	lz_tokens_release(&q->recovered);
	lz_tokens_release(&q->busy);
}

/*
 * Mounts Lazaret itself makes under the Domain Root droot and recovery
 * takes away: overlays beneath anchors/ and anything at or beneath view.
 */
static size_t
stale_mounts(const struct lz_mountinfo *mi, const char *droot)
{
	char *anchors = lz_xasprintf("%s/anchors", droot);
	char *view = lz_xasprintf("%s/" LZ_VIEW_DIR, droot);
	size_t i, n = 0;

	for (i = 0; i < mi->n; i++) {
		if ((strcmp(mi->v[i].fstype, "overlay") == 0 &&
		    at_or_beneath(mi->v[i].mountpoint, anchors)) ||
		    at_or_beneath(mi->v[i].mountpoint, view))
			n++;
	}
	free(anchors);
	free(view);
	return n;
}

/*
 * Containers of the Domain, by name (or ID), into out; those prepared for
 * its next start (sandbox-prep.h: created, never run) are only counted in
 * *prepared (may be NULL: then they go to out too).
 */
static int
containers(const struct lz_sandbox_ctx *ctx, const char *id,
    struct lz_tokens *out, size_t *prepared, struct lz_err *err)
{
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	size_t i;
	int rc;

	if ((rc = lz_sandbox_list_domain(ctx, id, &l, err)) != 0)
		return rc;
	for (i = 0; i < l.n; i++) {
		if (prepared != NULL && lz_sandbox_entry_prepared(&l.v[i])) {
			(*prepared)++;
			continue;
		}
		lz_tokens_pushf(out, "%s (%s, %s)", *l.v[i].name ? l.v[i].name :
		    l.v[i].id, *l.v[i].role ? l.v[i].role : "container",
		    l.v[i].state);
	}
	lz_sandbox_list_release(&l);
	return 0;
}

int
lz_domain_quiesce(const char *xdg_runtime, const char *id, const char *droot,
    const struct lz_sandbox_ctx *ctx, struct lz_quiet *q, struct lz_err *err)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_tokens left = LZ_TOKENS_INIT;
	char *sub = lz_xasprintf("lazaret/%s", id);
	char *rt = lz_xasprintf("%s/%s", xdg_runtime, sub);
	char *sock = lz_xasprintf("%s/control.sock", rt);
	size_t i, stale, prepared = 0;
	int dir = -1, rc;

	if ((dir = lz_rundir_ensure(xdg_runtime, 0, sub, err)) < 0) {
		rc = dir;
		goto out;
	}
	if ((q->lockfd = lz_rundir_lock(dir, rt, 1, err)) < 0) {
		rc = q->lockfd;
		q->lockfd = -1;
		if (rc == LZ_EBUSY)
			lz_tokens_pushf(&q->busy, "another lazaret process "
			    "holds the Domain's lifecycle lock (process %ld)",
			    lz_rundir_lock_holder(dir));
		goto out;
	}
	if (lz_busy_socket(sock)) {
		lz_tokens_push(&q->busy, "a Session Coordinator runs the "
		    "Domain (its control socket answers)");
		rc = LZ_EBUSY;
		goto out;
	}
	/* A socket nobody answers on is a dead coordinator's (as a starter
	 * does, holding the lock). */
	if (unlinkat(dir, "control.sock", 0) == 0)
		lz_tokens_push(&q->recovered, "the control socket of a "
		    "coordinator that died");
	/* Holding the lock, no coordinator lives: containers, and overlays
	 * or a workspace view of ours left mounted, are stale; the pair
	 * prepared for the next start goes too (it names the anchors' current
	 * generations), without counting as recovered. */
	if ((rc = containers(ctx, id, &left, &prepared, err)) != 0)
		goto out;
	if ((rc = lz_mountinfo_read(&mi, err)) != 0)
		goto out;
	stale = stale_mounts(&mi, droot);
	if (left.n > 0 || stale > 0 || prepared > 0) {
		for (i = 0; i < left.n; i++)
			lz_tokens_pushf(&q->recovered, "container %s",
			    left.v[i]);
		if (stale > 0)
			lz_tokens_pushf(&q->recovered, "%zu mounts of State "
			    "Anchors or of the workspace view", stale);
		(void)unlinkat(dir, LZ_SANDBOX_PREP_RECORD, 0);
		if ((rc = lz_sandbox_stop(ctx, id, droot, err)) != 0)
			goto out;
		lz_tokens_release(&left);
		if ((rc = containers(ctx, id, &left, NULL, err)) != 0)
			goto out;
		for (i = 0; i < left.n; i++)
			lz_tokens_pushf(&q->busy, "container %s is still there "
			    "after removal", left.v[i]);
	}
	lz_mountinfo_release(&mi);
	if ((rc = lz_mountinfo_read(&mi, err)) != 0)
		goto out;
	lz_busy_mounts(&mi, droot, &q->busy);
	if ((rc = lz_busy_procs(droot, &q->busy, err)) != 0)
		goto out;
	rc = q->busy.n > 0 ? LZ_EBUSY : 0;
out:
	if (rc == LZ_EBUSY)
		lz_err_set(err, LZ_EBUSY, "the Domain %s is in use", id);
	if (rc != 0 && q->lockfd >= 0) {
		close(q->lockfd);
		q->lockfd = -1;
	}
	if (dir >= 0)
		close(dir);
	lz_mountinfo_release(&mi);
	lz_tokens_release(&left);
	free(sub);
	free(rt);
	free(sock);
	return rc;
}
