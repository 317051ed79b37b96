/*
 * anchor-scan.c: the upper-against-lower walk and the merged-view lookup
 * of anchor-scan.h. Depth-first with a stack of relative paths (never a
 * descriptor per level), each directory's entries sorted by name, so the
 * output is in path order and a new tree's entries are contiguous.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include <linux/openat2.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/anchor-scan.h"

#define XATTR_OPAQUE "user.overlay.opaque"
#define XATTR_PREFIX "user.overlay."

/* One directory waiting to be walked. */
struct item {
	char *rel;		/* relative to the scan's root; "" for it */
	int lower;		/* consult the lower layer below it */
	long group;		/* group of its entries' changes, -1: own */
};

struct walk {
	struct lz_scan *s;
	int flags;
	int upperfd, lowerfd;
	const char *prefix;
	struct item *stack;
	size_t depth, cap;
	struct lz_buf path;	/* scratch: prefix + rel + name */
	long last_top;
};

static int	 open_at(int dirfd, const char *rel, int flags, int xdev);
static char	 type_of(mode_t m);
static int	 cmp_name(const void *a, const void *b);
static int	 path_cmp(const char *a, const char *b);
static int	 change_cmp(const void *a, const void *b);
static int	 group_cmp(const void *a, const void *b);
static int	 top_cmp(const void *a, const void *b);
static void	 push(struct walk *w, char *rel, int lower, long group);
static void	 note(struct lz_scan *s, const char *path, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));
static long	 top_of(struct walk *w, const char *full);
static long	 new_group(struct lz_scan *s, const char *dir, char kind);
static void	 count(struct walk *w, long group, const char *full,
		     const char *name, int kind, int isdir,
		     const struct stat *st, int dirfd);
static void	 xattr_notes(struct walk *w, int dirfd, const char *name,
		     const char *full, int isdir);
static int	 opaque(struct walk *w, int dirfd, const char *name,
		     const char *full);
static int	 walk_dir(struct walk *w, struct item *it);
static char	*dir_of(struct walk *w, const struct item *it);
static long	 group_for(struct walk *w, const struct item *it, long *own);
static char	**read_names(int fd, size_t *n);
static void	 step(int *fd, int next);

const char *
lz_change_name(int kind)
{
	static const char *const names[] = { "added", "modified", "deleted",
	    "opaque" };

	return kind >= 0 && kind < LZ_CHANGE_KINDS ? names[kind] : "?";
}

/* openat2 of rel beneath dirfd, no symlink; "" is dirfd itself. */
static int
open_at(int dirfd, const char *rel, int flags, int xdev)
{
	struct open_how how;

	memset(&how, 0, sizeof how);
	how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
	    (xdev ? RESOLVE_NO_XDEV : 0);
	return (int)syscall(SYS_openat2, dirfd, *rel != '\0' ? rel : ".",
	    &how, sizeof how);
}

static char
type_of(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG:	return 'f';
	case S_IFDIR:	return 'd';
	case S_IFLNK:	return 'l';
	case S_IFCHR:	return 'c';
	case S_IFBLK:	return 'b';
	case S_IFIFO:	return 'p';
	case S_IFSOCK:	return 's';
	default:	return '?';
	}
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Path order: '/' sorts first, so a directory's entries follow it. */
static int
path_cmp(const char *a, const char *b)
{
	unsigned char x, y;

	for (;; a++, b++) {
		x = *a == '/' ? 1 : (unsigned char)*a;
		y = *b == '/' ? 1 : (unsigned char)*b;
		if (x != y || x == '\0')
			return x - y;
	}
}

static int
change_cmp(const void *a, const void *b)
{
	return path_cmp(((const struct lz_change *)a)->path,
	    ((const struct lz_change *)b)->path);
}

static int
group_cmp(const void *a, const void *b)
{
	return path_cmp(((const struct lz_scan_group *)a)->dir,
	    ((const struct lz_scan_group *)b)->dir);
}

static int
top_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lz_scan_top *)a)->name,
	    ((const struct lz_scan_top *)b)->name);
}

static void
push(struct walk *w, char *rel, int lower, long group)
{
	w->stack = lz_xgrow(w->stack, w->depth + 1, &w->cap, sizeof *w->stack);
	w->stack[w->depth].rel = rel;
	w->stack[w->depth].lower = lower;
	w->stack[w->depth].group = group;
	w->depth++;
}

static void
note(struct lz_scan *s, const char *path, const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s->notes = lz_xgrow(s->notes, s->nnotes + 1, &s->notes_alloc,
	    sizeof *s->notes);
	s->notes[s->nnotes].path = lz_xstrdup(path);
	s->notes[s->nnotes].what = lz_buf_detach(&b);
	s->nnotes++;
}

/* The index of the top entry of full ("bin/x" -> "bin"), made if new. */
static long
top_of(struct walk *w, const char *full)
{
	struct lz_scan *s = w->s;
	const char *slash = strchr(full, '/');
	size_t len = slash != NULL ? (size_t)(slash - full) : 0;
	size_t i;

	if (w->last_top >= 0 && strlen(s->tops[w->last_top].name) == len &&
	    strncmp(s->tops[w->last_top].name, full, len) == 0)
		return w->last_top;
	for (i = 0; i < s->ntops; i++) {
		if (strlen(s->tops[i].name) == len &&
		    strncmp(s->tops[i].name, full, len) == 0)
			break;
	}
	if (i == s->ntops) {
		s->tops = lz_xgrow(s->tops, s->ntops + 1, &s->tops_alloc,
		    sizeof *s->tops);
		memset(&s->tops[i], 0, sizeof *s->tops);
		s->tops[i].name = lz_xstrndup(full, len);
		s->ntops++;
	}
	w->last_top = (long)i;
	return w->last_top;
}

static long
new_group(struct lz_scan *s, const char *dir, char kind)
{
	struct lz_scan_group *g;

	s->groups = lz_xgrow(s->groups, s->ngroups + 1, &s->groups_alloc,
	    sizeof *s->groups);
	g = &s->groups[s->ngroups];
	memset(g, 0, sizeof *g);
	g->dir = lz_xstrdup(dir);
	g->kind = kind;
	return (long)s->ngroups++;
}

/* Records one change of the entry name (full: its reported path). */
static void
count(struct walk *w, long group, const char *full, const char *name,
    int kind, int isdir, const struct stat *st, int dirfd)
{
	struct lz_scan *s = w->s;
	struct lz_scan_group *g;
	struct lz_change *c;
	char target[PATH_MAX];
	const char *rel;
	ssize_t len;
	long top = top_of(w, full);

	s->count[kind]++;
	s->tops[top].count[kind]++;
	if ((w->flags & LZ_SCAN_GROUPS) && group >= 0) {
		g = &s->groups[group];
		if (isdir)
			g->dirs += kind == LZ_CHANGE_ADDED;
		else
			g->files[kind]++;
		if (kind == LZ_CHANGE_ADDED || kind == LZ_CHANGE_MODIFIED)
			g->bytes += (unsigned long long)st->st_size;
		rel = full + strlen(g->dir);
		rel += *g->dir != '\0' && *rel == '/';
		if (g->nsample < LZ_SCAN_SAMPLES && (!isdir || g->kind == 'E'))
			g->sample[g->nsample++] = lz_xasprintf("%s%s", rel,
			    isdir ? "/" : "");
	}
	if (!(w->flags & LZ_SCAN_KEEP))
		return;
	s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
	c = &s->v[s->n++];
	c->path = lz_xstrdup(full);
	c->kind = (unsigned char)kind;
	c->type = type_of(st->st_mode);
	c->mode = (unsigned)(st->st_mode & 07777);
	c->size = (long long)st->st_size;
	c->link = NULL;
	if (S_ISLNK(st->st_mode) && (len = readlinkat(dirfd, name, target,
	    sizeof target - 1)) >= 0) {
		target[len] = '\0';
		c->link = lz_xstrdup(target);
	}
}

/* Notes about the overlay xattrs of one entry (LZ_SCAN_XATTRS). */
static void
xattr_notes(struct walk *w, int dirfd, const char *name, const char *full,
    int isdir)
{
	static const char *const known[] = { "opaque", "impure", "origin",
	    "uuid", "nlink", "upper", "protattr", NULL };
	char link[64], list[4096], *p;
	ssize_t n;
	size_t i;

	snprintf(link, sizeof link, "/proc/self/fd/%d/", dirfd);
	{
		char *at = lz_xasprintf("%s%s", link, name);

		n = llistxattr(at, list, sizeof list);
		free(at);
	}
	if (n <= 0)
		return;
	for (p = list; p < list + n; p += strlen(p) + 1) {
		if (strncmp(p, XATTR_PREFIX, strlen(XATTR_PREFIX)) != 0)
			continue;
		for (i = 0; known[i] != NULL; i++) {
			if (strcmp(p + strlen(XATTR_PREFIX), known[i]) == 0)
				break;
		}
		if (known[i] != NULL)
			continue;
		if (strcmp(p + strlen(XATTR_PREFIX), "whiteout") == 0)
			note(w->s, full, "whiteout written as an xattr (%s) "
			    "on a %s", p, isdir ? "directory" : "file");
		else
			note(w->s, full, "overlay xattr %s, which a "
			    "'userxattr' mount does not write", p);
	}
}

/* 1 when the directory name in dirfd is opaque (notes odd values). */
static int
opaque(struct walk *w, int dirfd, const char *name, const char *full)
{
	char *at = lz_xasprintf("/proc/self/fd/%d/%s", dirfd, name);
	char v[16];
	ssize_t n = lgetxattr(at, XATTR_OPAQUE, v, sizeof v - 1);

	free(at);
	if (n < 0)
		return 0;
	v[n] = '\0';
	if (strcmp(v, "y") == 0)
		return 1;
	note(w->s, full, "opaque xattr with value '%.*s' (overlayfs takes "
	    "only 'y'; 'x' marks a directory holding xattr whiteouts)", (int)n,
	    v);
	return 0;
}

/* The names in directory fd (without . and ..), sorted; *n their count. */
static char **
read_names(int fd, size_t *n)
{
	struct dirent *d;
	char **v = NULL;
	size_t cap = 0;
	DIR *dir;
	int dfd;

	*n = 0;
	if ((dfd = dup(fd)) < 0)
		return NULL;
	if ((dir = fdopendir(dfd)) == NULL) {
		close(dfd);
		return NULL;
	}
	while ((d = readdir(dir)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		v = lz_xgrow(v, *n + 1, &cap, sizeof *v);
		v[(*n)++] = lz_xstrdup(d->d_name);
	}
	closedir(dir);
	if (*n > 1)
		qsort(v, *n, sizeof *v, cmp_name);
	return v;
}

/*
 * The directory path (relative to the anchor) of the item's entries, as
 * a group names it: prefix + rel without a trailing '/'.
 */
static char *
dir_of(struct walk *w, const struct item *it)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_buf_addf(&b, "%s%s", w->prefix, it->rel);
	while (b.len > 0 && b.buf[b.len - 1] == '/')
		b.buf[--b.len] = '\0';
	if (b.len > 0)
		return lz_buf_detach(&b);
	lz_buf_release(&b);
	return lz_xstrdup("");
}

/* The group of a change among the item's direct entries (made if new). */
static long
group_for(struct walk *w, const struct item *it, long *own)
{
	char *dir;

	if (!(w->flags & LZ_SCAN_GROUPS))
		return -1;
	if (it->group >= 0)
		return it->group;
	if (*own < 0) {
		dir = dir_of(w, it);
		*own = new_group(w->s, dir, 'E');
		free(dir);
	}
	return *own;
}

/* Walks the entries of one directory, pushing its subdirectories. */
static int
walk_dir(struct walk *w, struct item *it)
{
	struct stat st, lst;
	char **names = NULL, *full, *child;
	size_t n = 0, i, j, base, first_child = w->depth;
	int dfd, lfd = -1, has_lower, kind, isdir, wout;
	long own = -1, cgroup;
	struct item t;

	dfd = open_at(w->upperfd, it->rel, O_RDONLY | O_DIRECTORY, 1);
	if (dfd < 0) {
		w->s->truncated = 1;
		child = dir_of(w, it);
		note(w->s, child, "directory not scanned: %s", strerror(errno));
		free(child);
		return 0;
	}
	if (it->lower && w->lowerfd >= 0)
		lfd = open_at(w->lowerfd, it->rel, O_PATH | O_DIRECTORY, 0);
	names = read_names(dfd, &n);
	lz_buf_reset(&w->path);
	lz_buf_addf(&w->path, "%s%s%s", w->prefix, it->rel, *it->rel != '\0' ?
	    "/" : "");
	base = w->path.len;
	for (i = 0; i < n; i++) {
		w->path.len = base;
		w->path.buf[base] = '\0';
		lz_buf_adds(&w->path, names[i]);
		full = w->path.buf;
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;	/* gone meanwhile */
		w->s->entries++;
		w->s->bytes += (unsigned long long)st.st_blocks * 512;
		isdir = S_ISDIR(st.st_mode);
		wout = S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0);
		has_lower = lfd >= 0 && fstatat(lfd, names[i], &lst,
		    AT_SYMLINK_NOFOLLOW) == 0;
		if ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && !wout)
			note(w->s, full, "device node (%c %u:%u)",
			    S_ISCHR(st.st_mode) ? 'c' : 'b',
			    major(st.st_rdev), minor(st.st_rdev));
		if (S_ISREG(st.st_mode) && (st.st_mode & (S_ISUID | S_ISGID)))
			note(w->s, full, "%s file (mode %04o)",
			    st.st_mode & S_ISUID ? "setuid" : "setgid",
			    (unsigned)(st.st_mode & 07777));
		if (w->flags & LZ_SCAN_XATTRS)
			xattr_notes(w, dfd, names[i], full, isdir);
		if (wout) {
			count(w, group_for(w, it, &own), full, names[i],
			    LZ_CHANGE_DELETED, 0, &st, dfd);
			if (w->flags & LZ_SCAN_KEEP)
				w->s->v[w->s->n - 1].type = has_lower ?
				    type_of(lst.st_mode) : '-';
			continue;
		}
		if (!isdir) {
			count(w, group_for(w, it, &own), full, names[i],
			    has_lower ? LZ_CHANGE_MODIFIED : LZ_CHANGE_ADDED, 0,
			    &st, dfd);
			continue;
		}
		kind = -1;	/* a directory in both layers: no change */
		if (!has_lower || !S_ISDIR(lst.st_mode))
			kind = LZ_CHANGE_ADDED;
		else if (opaque(w, dfd, names[i], full))
			kind = LZ_CHANGE_OPAQUE;
		cgroup = it->group;
		if (kind >= 0 && it->group >= 0)
			count(w, it->group, full, names[i], kind, 1, &st, dfd);
		else if (kind >= 0) {
			/* A new (or opaque) tree is one group of its own. */
			count(w, -1, full, names[i], kind, 1, &st, dfd);
			if (w->flags & LZ_SCAN_GROUPS)
				cgroup = new_group(w->s, full, kind ==
				    LZ_CHANGE_OPAQUE ? 'O' : 'A');
		}
		child = lz_xasprintf("%s%s%s", it->rel, *it->rel != '\0' ?
		    "/" : "", names[i]);
		push(w, child, kind < 0, cgroup);
	}
	/* Children were pushed in name order: reverse them, so the first
	 * is walked first and the output stays in path order. */
	for (i = first_child, j = w->depth; j > 0 && i < j - 1; i++, j--) {
		t = w->stack[i];
		w->stack[i] = w->stack[j - 1];
		w->stack[j - 1] = t;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (lfd >= 0)
		close(lfd);
	close(dfd);
	return 0;
}

int
lz_scan_tree(int upperfd, int lowerfd, const char *prefix, int flags,
    struct lz_scan *s, struct lz_err *err)
{
	struct walk w;
	struct item it;
	int fd, rc = 0;

	memset(s, 0, sizeof *s);
	memset(&w, 0, sizeof w);
	w.s = s;
	w.flags = flags;
	w.upperfd = upperfd;
	w.lowerfd = lowerfd;
	w.prefix = prefix;
	w.last_top = -1;
	lz_buf_init(&w.path);
	if ((fd = open_at(upperfd, "", O_RDONLY | O_DIRECTORY, 1)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot read the upper layer "
		    "at '%s': %s", *prefix ? prefix : ".", strerror(errno));
	close(fd);
	push(&w, lz_xstrdup(""), lowerfd >= 0, -1);
	while (w.depth > 0 && rc == 0) {
		it = w.stack[--w.depth];
		rc = walk_dir(&w, &it);
		free(it.rel);
	}
	while (w.depth > 0)
		free(w.stack[--w.depth].rel);
	/* Siblings are walked before what lies beneath them: sort. */
	if (s->n > 1)
		qsort(s->v, s->n, sizeof *s->v, change_cmp);
	if (s->ngroups > 1)
		qsort(s->groups, s->ngroups, sizeof *s->groups, group_cmp);
	if (s->ntops > 1)
		qsort(s->tops, s->ntops, sizeof *s->tops, top_cmp);
	free(w.stack);
	lz_buf_release(&w.path);
	return rc;
}

void
lz_scan_release(struct lz_scan *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].link);
	}
	free(s->v);
	for (i = 0; i < s->ntops; i++)
		free(s->tops[i].name);
	free(s->tops);
	for (i = 0; i < s->ngroups; i++) {
		free(s->groups[i].dir);
		for (j = 0; j < s->groups[i].nsample; j++)
			free(s->groups[i].sample[j]);
	}
	free(s->groups);
	for (i = 0; i < s->nnotes; i++) {
		free(s->notes[i].path);
		free(s->notes[i].what);
	}
	free(s->notes);
	memset(s, 0, sizeof *s);
}

/* Replaces *fd with next (closing the old one). */
static void
step(int *fd, int next)
{
	if (*fd >= 0)
		close(*fd);
	*fd = next;
}

int
lz_scan_lookup(int upperfd, int lowerfd, const char *rel, int *where,
    int *upper, int *lower, char **link, struct lz_err *err)
{
	char *copy = lz_xstrdup(rel), *comp, *save = NULL, target[PATH_MAX];
	struct stat st, lst;
	int u, l, has_u, has_l, last, udir, rc = 0;
	ssize_t len;

	*where = LZ_LOOKUP_NONE;
	*upper = *lower = -1;
	if (link != NULL)
		*link = NULL;
	u = open_at(upperfd, "", O_PATH | O_DIRECTORY, 1);
	l = lowerfd >= 0 ? open_at(lowerfd, "", O_PATH | O_DIRECTORY, 0) : -1;
	if (u < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open the upper layer: %s",
		    strerror(errno));
		goto out;
	}
	for (comp = strtok_r(copy, "/", &save); comp != NULL; comp = strtok_r(
	    NULL, "/", &save)) {
		last = save == NULL || *save == '\0';
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			rc = lz_err_set(err, LZ_EINVAL, "'%s' has a '.' or "
			    "'..' component", rel);
			goto out;
		}
		has_u = u >= 0 && fstatat(u, comp, &st, AT_SYMLINK_NOFOLLOW) ==
		    0;
		has_l = l >= 0 && fstatat(l, comp, &lst, AT_SYMLINK_NOFOLLOW) ==
		    0;
		if (has_u && S_ISCHR(st.st_mode) && st.st_rdev == makedev(0,
		    0)) {
			*where = LZ_LOOKUP_DELETED;
			goto none;
		}
		/* The upper entry decides; the lower one shows only beneath
		 * an upper directory that is not opaque, or where the upper
		 * layer has nothing. */
		if (has_u && S_ISLNK(st.st_mode)) {
			if (link != NULL && (len = readlinkat(u, comp, target,
			    sizeof target - 1)) >= 0) {
				target[len] = '\0';
				*link = lz_xstrdup(target);
			}
			*where = LZ_LOOKUP_SYMLINK;
			goto none;
		}
		udir = has_u && S_ISDIR(st.st_mode);
		if (has_u && !udir && !last) {
			*where = LZ_LOOKUP_NONE;
			goto none;
		}
		if (has_l && (!has_u || (udir && S_ISDIR(lst.st_mode)))) {
			if (S_ISLNK(lst.st_mode) && !has_u) {
				if (link != NULL && (len = readlinkat(l, comp,
				    target, sizeof target - 1)) >= 0) {
					target[len] = '\0';
					*link = lz_xstrdup(target);
				}
				*where = LZ_LOOKUP_SYMLINK;
				goto none;
			}
			if (!S_ISDIR(lst.st_mode) && !last && !has_u) {
				*where = LZ_LOOKUP_NONE;
				goto none;
			}
		} else
			has_l = 0;
		if (udir) {
			char v[4];
			char *at = lz_xasprintf("/proc/self/fd/%d/%s", u, comp);

			if (lgetxattr(at, XATTR_OPAQUE, v, 1) == 1 && v[0] ==
			    'y')
				has_l = 0;
			free(at);
		}
		step(&l, has_l ? open_at(l, comp, O_PATH, 0) : -1);
		step(&u, has_u ? open_at(u, comp, O_PATH, 1) : -1);
		if (u < 0 && l < 0)
			goto none;
	}
	*where = u >= 0 ? LZ_LOOKUP_UPPER : LZ_LOOKUP_LOWER;
	*upper = u;
	*lower = l;
	u = l = -1;
	goto out;
none:
	if (*where == LZ_LOOKUP_UPPER || *where == LZ_LOOKUP_LOWER)
		*where = LZ_LOOKUP_NONE;
out:
	if (u >= 0)
		close(u);
	if (l >= 0)
		close(l);
	free(copy);
	return rc;
}
