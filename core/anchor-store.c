/*
 * anchor-store.c: a Domain's anchor directories as "lazaret state" reads,
 * checks, resets and recovers them (anchor-store.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/anchor-store.h"
#include "core/fault.h"
#include "core/pathcheck.h"
#include "core/rmtree.h"

static char	*legacy_path(const char *name, const struct lz_tokens *persist);
static int	 info_cmp(const void *a, const void *b);
static void	 read_one(int afd, const char *name,
		     const struct lz_tokens *persist,
		     struct lz_anchor_info *a);
static int	 keep(const char *entry, unsigned gen);
static void	 list_leftovers(int fd, unsigned gen, struct lz_tokens *out);
static int	 is_dir_at(int fd, const char *rel);
static int	 empty_dir_at(int fd, const char *rel);
static int	 recover(int afd, const char *name, const char *shown,
		     const char *fault, struct lz_tokens *removed,
		     struct lz_err *err);

int
lz_anchor_dir_open(int rootfd, int create)
{
	if (create && mkdirat(rootfd, "anchors", 0700) != 0 && errno != EEXIST)
		return -1;
	return lz_open_beneath(rootfd, "anchors", O_RDONLY | O_DIRECTORY, 0);
}

/*
 * The path of a legacy directory (one without a record): the one profile
 * path that had this directory, or "/NAME" when NAME has no '-' (then no
 * other path could have made it).
 */
static char *
legacy_path(const char *name, const struct lz_tokens *persist)
{
	char *old, *enc, *found = NULL;
	size_t i, hits = 0;

	for (i = 0; persist != NULL && i < persist->n; i++) {
		old = lz_anchor_legacy_name(persist->v[i]);
		enc = lz_anchor_name(persist->v[i]);
		if (strcmp(old, name) == 0 || strcmp(enc, name) == 0) {
			hits++;
			free(found);
			found = lz_xstrdup(persist->v[i]);
		}
		free(old);
		free(enc);
	}
	if (hits == 1)
		return found;
	free(found);
	if (hits == 0 && strchr(name, '-') == NULL &&
	    strchr(name, '%') == NULL && *name != '\0')
		return lz_xasprintf("/%s", name);
	return NULL;
}

static int
info_cmp(const void *a, const void *b)
{
	const struct lz_anchor_info *x = a, *y = b;

	if (x->path == NULL || y->path == NULL)
		return x->path == NULL ? (y->path == NULL ? strcmp(x->name,
		    y->name) : 1) : -1;
	return strcmp(x->path, y->path);
}

/* 1 for what the layout keeps next to the current generation gen. */
static int
keep(const char *entry, unsigned gen)
{
	return strcmp(entry, "path") == 0 || strcmp(entry, "current") == 0 ||
	    strcmp(entry, "merged") == 0 || strcmp(entry, "lower-empty") == 0 ||
	    lz_anchor_gen_number(entry) == gen;
}

static void
list_leftovers(int fd, unsigned gen, struct lz_tokens *out)
{
	struct dirent *d;
	DIR *dir;
	int dfd = dup(fd);

	if (dfd < 0 || (dir = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((d = readdir(dir)) != NULL) {
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") !=
		    0 && !keep(d->d_name, gen))
			lz_tokens_push(out, d->d_name);
	}
	closedir(dir);
}

/* 1 when rel beneath fd is a directory reached without a symlink. */
static int
is_dir_at(int fd, const char *rel)
{
	int d = lz_open_beneath(fd, rel, O_PATH | O_DIRECTORY, 0);

	if (d < 0)
		return 0;
	close(d);
	return 1;
}

/* 1 when rel beneath fd is an empty directory. */
static int
empty_dir_at(int fd, const char *rel)
{
	struct dirent *d;
	DIR *dir;
	int dfd = lz_open_beneath(fd, rel, O_RDONLY | O_DIRECTORY, 0), n = 0;

	if (dfd < 0 || (dir = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while ((d = readdir(dir)) != NULL)
		n += strcmp(d->d_name, ".") != 0 &&
		    strcmp(d->d_name, "..") != 0;
	closedir(dir);
	return n == 0;
}

static void
read_one(int afd, const char *name, const struct lz_tokens *persist,
    struct lz_anchor_info *a)
{
	struct lz_err err = LZ_ERR_INIT;
	char rel[64];
	int fd;

	memset(a, 0, sizeof *a);
	a->name = lz_xstrdup(name);
	fd = lz_open_beneath(afd, name, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		a->problem = lz_xasprintf("anchors/%s is not a directory (or "
		    "is a symlink): %s; move it out of the Domain Root", name,
		    strerror(errno));
		return;
	}
	if (lz_anchor_read_path(fd, name, &a->path, &err) != 0) {
		a->problem = lz_xasprintf("%s; 'lazaret state reset --all' "
		    "discards this anchor", err.msg);
		goto out;
	}
	if (a->path == NULL) {
		a->legacy = 1;
		a->path = legacy_path(name, persist);
	}
	if (lz_anchor_read_current(fd, name, &a->gen, &err) != 0) {
		a->problem = lz_xasprintf("%s; 'lazaret state reset %s' "
		    "switches it to a new empty generation", err.msg,
		    a->path ? a->path : "--all");
		a->gen = 0;
		goto out;
	}
	if (a->gen == 0)
		goto out;
	snprintf(rel, sizeof rel, "gen-%u/upper", a->gen);
	if (!is_dir_at(fd, rel)) {
		a->problem = lz_xasprintf("the upper layer anchors/%s/%s is "
		    "missing; 'lazaret state reset %s' starts the anchor "
		    "afresh", name, rel, a->path ? a->path : "--all");
		a->gen = 0;
		goto out;
	}
	list_leftovers(fd, a->gen, &a->leftovers);
out:
	lz_err_release(&err);
	close(fd);
}

int
lz_anchor_set_read(int rootfd, const struct lz_tokens *persist,
    struct lz_anchor_set *s, struct lz_err *err)
{
	struct dirent *d;
	DIR *dir;
	int afd;

	memset(s, 0, sizeof *s);
	if ((afd = lz_anchor_dir_open(rootfd, 0)) < 0) {
		if (errno == ENOENT)
			return 0;
		return lz_err_set(err, errno == ELOOP || errno == EXDEV ||
		    errno == ENOTDIR ? LZ_EUNSAFE : LZ_ESYS, "cannot open the "
		    "anchors directory: %s", strerror(errno));
	}
	if ((dir = fdopendir(afd)) == NULL) {
		close(afd);
		return lz_err_set(err, LZ_ESYS, "cannot list the anchors "
		    "directory: %s", strerror(errno));
	}
	while ((d = readdir(dir)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
		read_one(dirfd(dir), d->d_name, persist, &s->v[s->n++]);
	}
	closedir(dir);
	if (s->n > 1)
		qsort(s->v, s->n, sizeof *s->v, info_cmp);
	return 0;
}

struct lz_anchor_info *
lz_anchor_set_find(const struct lz_anchor_set *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i].path != NULL && strcmp(s->v[i].path, path) == 0)
			return &s->v[i];
	}
	return NULL;
}

struct lz_anchor_info *
lz_anchor_set_cover(const struct lz_anchor_set *s, const char *path)
{
	struct lz_anchor_info *best = NULL;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i].path != NULL && lz_path_beneath(path,
		    s->v[i].path) && (best == NULL || strlen(s->v[i].path) >
		    strlen(best->path)))
			best = &s->v[i];
	}
	return best;
}

void
lz_anchor_set_release(struct lz_anchor_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].path);
		free(s->v[i].problem);
		lz_tokens_release(&s->v[i].leftovers);
	}
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
lz_anchor_check(int anchorsfd, const struct lz_anchor_info *a,
    const struct lz_mountinfo *mi, const char *droot,
    struct lz_tokens *problems, struct lz_tokens *notes)
{
	static const char *const private[] = { "", "gen-%u", "gen-%u/work" };
	struct lz_err err = LZ_ERR_INIT;
	char rel[64], *dir, *mp;
	const char *fix = a->path != NULL ? a->path : "--all";
	struct stat st;
	size_t i, n;
	int fd, sub;

	if (a->problem != NULL) {
		lz_tokens_pushf(problems, "anchors/%s: %s", a->name,
		    a->problem);
		return;
	}
	if ((fd = lz_open_beneath(anchorsfd, a->name, O_RDONLY | O_DIRECTORY,
	    0)) < 0)
		return;
	if (a->legacy)
		lz_tokens_pushf(notes, "anchors/%s: no path record (made by an "
		    "older Lazaret); the next launch writes it%s", a->name,
		    a->path ? "" : " (its path is ambiguous until then)");
	if (a->gen == 0)
		lz_tokens_pushf(notes, "anchors/%s: no generation yet (the "
		    "next launch makes gen-1)", a->name);
	for (i = 0; i < sizeof private / sizeof *private; i++) {
		if (a->gen == 0 && i > 0)
			break;
		snprintf(rel, sizeof rel, private[i], a->gen);
		sub = lz_open_beneath(fd, *rel ? rel : ".", O_RDONLY |
		    O_DIRECTORY, 0);
		if (sub < 0 || fstat(sub, &st) != 0 ||
		    lz_pathcheck_private_dir(&st, rel, &err) != 0)
			lz_tokens_pushf(problems, "anchors/%s/%s: not a "
			    "private directory of yours (%s); 'lazaret state "
			    "reset %s' rebuilds it", a->name, rel, err.msg ?
			    err.msg : strerror(errno), fix);
		lz_err_release(&err);
		if (sub >= 0)
			close(sub);
	}
	if (a->gen > 0) {
		snprintf(rel, sizeof rel, "gen-%u/upper", a->gen);
		if (!is_dir_at(fd, rel))
			lz_tokens_pushf(problems, "anchors/%s/%s: not a "
			    "directory; 'lazaret state reset %s' starts the "
			    "anchor afresh", a->name, rel, fix);
	}
	if (!is_dir_at(fd, "lower-empty") || !empty_dir_at(fd, "lower-empty"))
		lz_tokens_pushf(problems, "anchors/%s/lower-empty: not an "
		    "empty directory (it is the lower layer where the image "
		    "lacks the path); remove what is in it", a->name);
	if (!is_dir_at(fd, "merged"))
		lz_tokens_pushf(problems, "anchors/%s/merged: not a directory; "
		    "remove it (the next launch makes it)", a->name);
	dir = lz_xasprintf("%s/anchors/%s", droot, a->name);
	for (i = 0; mi != NULL && i < mi->n; i++) {
		mp = mi->v[i].mountpoint;
		n = strlen(dir);
		if (strncmp(mp, dir, n) == 0 && (mp[n] == '/' || mp[n] == '\0'))
			lz_tokens_pushf(problems, "%s: a %s mount is there (is "
			    "the Domain running? else 'podman unshare umount "
			    "%s')", mp, mi->v[i].fstype, mp);
	}
	if (!empty_dir_at(fd, "merged"))
		lz_tokens_pushf(notes, "anchors/%s/merged: not empty while "
		    "unmounted (what is there is hidden under the overlay)",
		    a->name);
	for (i = 0; i < a->leftovers.n; i++)
		lz_tokens_pushf(notes, "anchors/%s/%s: left by an interrupted "
		    "reset", a->name, a->leftovers.v[i]);
	free(dir);
	close(fd);
}

int
lz_anchor_reset(int anchorsfd, const char *name, const char *shown,
    unsigned *gen, struct lz_err *err)
{
	struct dirent *d;
	char link[32];
	unsigned old = 0, n, top = 0;
	DIR *dir;
	int fd = -1, gfd = -1, dfd, rc = 0;

	lz_fault("reset-begin");
	if ((fd = lz_open_beneath(anchorsfd, name, O_RDONLY | O_DIRECTORY,
	    0)) < 0)
		return lz_err_set(err, errno == ENOENT ? LZ_ENOTFOUND :
		    LZ_EUNSAFE, "cannot open '%s': %s", shown, strerror(errno));
	/* A bad "current" is what a reset repairs: it is not followed. */
	(void)lz_anchor_read_current(fd, shown, &old, NULL);
	if ((dfd = dup(fd)) < 0 || (dir = fdopendir(dfd)) == NULL) {
		rc = lz_err_set(err, LZ_ESYS, "cannot list '%s': %s", shown,
		    strerror(errno));
		if (dfd >= 0)
			close(dfd);
		goto out;
	}
	while ((d = readdir(dir)) != NULL) {
		if ((n = lz_anchor_gen_number(d->d_name)) > top)
			top = n;
	}
	closedir(dir);
	if (top < old)
		top = old;
	if (top >= LZ_ANCHOR_GEN_MAX) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' has used up its "
		    "generation numbers", shown);
		goto out;
	}
	*gen = top + 1;
	snprintf(link, sizeof link, "gen-%u", *gen);
	/* 1: the new generation, empty, on disk. */
	if (mkdirat(fd, link, 0700) != 0)
		goto fail;
	lz_fault("reset-mkdir");
	if ((gfd = lz_open_beneath(fd, link, O_RDONLY | O_DIRECTORY, 0)) < 0 ||
	    mkdirat(gfd, "upper", 0700) != 0 || mkdirat(gfd, "work", 0700) != 0)
		goto fail;
	lz_fault("reset-layers");
	if (fsync(gfd) != 0 || fsync(fd) != 0)
		goto fail;
	/* 2: one atomic switch of "current". */
	if ((unlinkat(fd, "current.tmp", 0) != 0 && errno != ENOENT) ||
	    symlinkat(link, fd, "current.tmp") != 0)
		goto fail;
	lz_fault("reset-link");
	if (renameat(fd, "current.tmp", fd, "current") != 0 || fsync(fd) != 0)
		goto fail;
	lz_fault("reset-switched");
	/* 3: everything else goes. */
	rc = recover(anchorsfd, name, shown, "reset-removing", NULL, err);
	if (rc == 0)
		lz_fault("reset-done");
	goto out;
fail:
	rc = lz_err_set(err, LZ_ESYS, "cannot reset '%s' (making %s): %s; "
	    "'current' still names the generation it named", shown, link,
	    strerror(errno));
out:
	if (gfd >= 0)
		close(gfd);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int
recover(int afd, const char *name, const char *shown, const char *fault,
    struct lz_tokens *removed, struct lz_err *err)
{
	struct lz_tokens left = LZ_TOKENS_INIT;
	struct lz_buf where = LZ_BUF_INIT;
	char rel[32];
	unsigned gen = 0;
	size_t i;
	int fd, rc;

	if ((fd = lz_open_beneath(afd, name, O_RDONLY | O_DIRECTORY, 0)) < 0)
		return lz_err_set(err, LZ_EUNSAFE, "cannot open '%s': %s",
		    shown, strerror(errno));
	rc = lz_anchor_read_current(fd, shown, &gen, err);
	snprintf(rel, sizeof rel, "gen-%u/upper", gen);
	if (rc == 0 && (gen == 0 || !is_dir_at(fd, rel)))
		rc = lz_err_set(err, LZ_EUNSAFE, "'%s/current' names no "
		    "generation with an upper layer; only a reset repairs it",
		    shown);
	if (rc != 0)
		goto out;
	list_leftovers(fd, gen, &left);
	for (i = 0; i < left.n && rc == 0; i++) {
		lz_buf_reset(&where);
		lz_buf_addf(&where, "%s/%s", shown, left.v[i]);
		rc = lz_rmtree_at(fd, left.v[i], where.buf, fault, err);
		if (rc == 0 && removed != NULL)
			lz_tokens_push(removed, left.v[i]);
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot sync '%s': %s", shown,
		    strerror(errno));
out:
	lz_tokens_release(&left);
	lz_buf_release(&where);
	close(fd);
	return rc;
}

int
lz_anchor_recover(int anchorsfd, const char *name, const char *shown,
    struct lz_tokens *removed, struct lz_err *err)
{
	return recover(anchorsfd, name, shown, NULL, removed, err);
}
