/*
 * state-helper-scan.c: the "scan" and "cat" verbs of "lazaret __state"
 * (state-helper.h): each anchor's upper layer against its lower layer
 * (the running overlay's, or the image mounted with "podman image mount"
 * when the Domain is down), the dpkg package difference, and one file of
 * the merged view. Every name from the sandbox goes out through
 * visible.h; contents only through "cat".
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/anchor-scan.h"
#include "core/dpkg.h"
#include "core/pathcheck.h"
#include "core/spawn.h"
#include "core/visible.h"
#include "src/cmd.h"
#include "src/state-helper.h"

#define DPKG_STATUS "/var/lib/dpkg/status"
#define CAT_MAX (64 * 1024 * 1024)

/* The descriptors of an anchor's two layers and of a lookup in them. */
struct fds {
	int up, low;	/* the upper and lower layers' roots */
	int u, l;	/* what a lookup found in each */
};
#define FDS_INIT { -1, -1, -1, -1 }

static void	 fds_close(struct fds *f);
static int	 image_mount(struct lz_state_helper *h);
static int	 podman(const char *verb, const char *image,
		     struct lz_spawn_result *res);
static int	 lower_of(struct lz_state_helper *h,
		     const struct lz_anchor_info *a,
		     const struct lz_mountinfo *mi, const char **how);
static int	 upper_of(struct lz_state_helper *h,
		     const struct lz_anchor_info *a);
static char	*shown(const char *anchor, const char *rel);
static json_t	*counts_json(const unsigned long long *c);
static json_t	*change_json(const char *anchor, const struct lz_change *c);
static json_t	*anchor_json(struct lz_state_helper *h,
		     const struct lz_anchor_info *a, const char *sub,
		     const struct lz_mountinfo *mi, struct lz_err *err);
static json_t	*packages_json(struct lz_state_helper *h,
		     const struct lz_mountinfo *mi);
static int	 read_view(int fd, struct lz_buf *b, size_t max);
static const char *type_name(char t);
static void	 scan_json(struct lz_state_helper *h, const char *anchor,
		     const struct lz_scan *s, json_t *o);
static void	 single(int fd, int lowroot, const char *sub, int deleted,
		     struct lz_scan *s);
static json_t	*pkg_list(const struct lz_dpkg *d);
static const struct lz_anchor_info *operand(struct lz_state_helper *h,
		     const char *path, const char **rest);

static void
fds_close(struct fds *f)
{
	int *v[] = { &f->up, &f->low, &f->u, &f->l };
	size_t i;

	for (i = 0; i < sizeof v / sizeof *v; i++) {
		if (*v[i] >= 0)
			close(*v[i]);
		*v[i] = -1;
	}
}

/* "podman image mount|unmount IMAGE" (we are in its namespace already). */
static int
podman(const char *verb, const char *image, struct lz_spawn_result *res)
{
	struct lz_spawn_opts o;
	char *pm = NULL;
	int rc;

	if (lz_spawn_find("podman", NULL, &pm, NULL) != 0)
		return LZ_ENOTFOUND;
	memset(&o, 0, sizeof o);
	o.timeout_ms = 60000;
	o.cwd = "/";
	rc = lz_spawn_capture((const char *const []){ pm, "image", verb,
	    image, NULL }, &o, res, NULL);
	free(pm);
	return rc != 0 ? rc : res->status != 0 ? LZ_ESYS : 0;
}

static int
image_mount(struct lz_state_helper *h)
{
	struct lz_spawn_result res;
	char *nl;

	if (h->image_root != NULL || h->image_error != NULL)
		return h->image_root != NULL ? 0 : -1;
	if (h->image == NULL) {
		h->image_error = lz_xstrdup("the Domain's image is not known "
		    "(no profile or domain.json names it)");
		return -1;
	}
	lz_spawn_result_init(&res);
	if (podman("mount", h->image, &res) != 0) {
		if ((nl = strchr(res.err.buf, '\n')) != NULL && nl[1] == '\0')
			*nl = '\0';
		h->image_error = lz_xasprintf("cannot mount image '%s': %s",
		    h->image, res.err.len ? res.err.buf : "podman failed");
	} else {
		if ((nl = strchr(res.out.buf, '\n')) != NULL)
			*nl = '\0';
		if (res.out.buf[0] == '/') {
			h->image_root = lz_xstrdup(res.out.buf);
			h->image_mounted = 1;
		} else
			h->image_error = lz_xasprintf("podman image mount '%s' "
			    "printed no path", h->image);
	}
	lz_spawn_result_release(&res);
	return h->image_root != NULL ? 0 : -1;
}

void
lz_state_helper_unmount(struct lz_state_helper *h)
{
	struct lz_spawn_result res;

	if (!h->image_mounted)
		return;
	lz_spawn_result_init(&res);
	(void)podman("unmount", h->image, &res);
	lz_spawn_result_release(&res);
	h->image_mounted = 0;
}

/*
 * The lower layer of anchor a, opened: the running overlay's (how:
 * "running"), else the image's directory ("image"); -1 when the image
 * lacks the path ("none") or cannot be had ("unavailable").
 */
static int
lower_of(struct lz_state_helper *h, const struct lz_anchor_info *a,
    const struct lz_mountinfo *mi, const char **how)
{
	const struct lz_mountinfo_entry *top;
	char *merged, *low = NULL, *colon, *empty;
	int fd = -1;

	merged = lz_xasprintf("%s/anchors/%s/merged", h->droot, a->name);
	top = lz_mountinfo_top(mi, merged);
	free(merged);
	if (top != NULL && strcmp(top->fstype, "overlay") == 0 &&
	    (low = lz_mountinfo_option(top->superopts, "lowerdir")) != NULL) {
		if ((colon = strchr(low, ':')) != NULL)
			*colon = '\0';
		fd = open(low, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		*how = "running";
		free(low);
		return fd;
	}
	*how = "unavailable";
	if (image_mount(h) != 0)
		return -1;
	empty = lz_xasprintf("%s/anchors/%s/lower-empty", h->droot, a->name);
	if (lz_anchor_lower(h->image_root, a->path, empty, &low, NULL) == 0) {
		if (strcmp(low, empty) == 0)
			*how = "none";
		else {
			fd = open(low, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC);
			*how = fd >= 0 ? "image" : "unavailable";
		}
	}
	free(low);
	free(empty);
	return fd;
}

/* The current upper layer of a, opened beneath anchors/ (no symlink). */
static int
upper_of(struct lz_state_helper *h, const struct lz_anchor_info *a)
{
	char *rel;
	int fd;

	if (a->gen == 0 || h->anchorsfd < 0)
		return -1;
	rel = lz_xasprintf("%s/gen-%u/upper", a->name, a->gen);
	fd = lz_open_beneath(h->anchorsfd, rel, O_RDONLY | O_DIRECTORY, 0);
	free(rel);
	return fd;
}

/* The sandbox path anchor + "/" + rel, made visible; allocated. */
static char *
shown(const char *anchor, const char *rel)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_buf_adds(&b, anchor);
	if (*rel != '\0') {
		lz_buf_addch(&b, '/');
		lz_buf_adds(&b, rel);
	}
	{
		char *v = lz_visible_str(b.buf, 0);

		lz_buf_release(&b);
		return v;
	}
}

static const char *
type_name(char t)
{
	switch (t) {
	case 'f':	return "file";
	case 'd':	return "directory";
	case 'l':	return "symlink";
	case 'c':	return "char-device";
	case 'b':	return "block-device";
	case 'p':	return "fifo";
	case 's':	return "socket";
	case '-':	return "none";
	default:	return "unknown";
	}
}

static json_t *
counts_json(const unsigned long long *c)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "added", (json_int_t)c[0],
	    "modified", (json_int_t)c[1], "deleted", (json_int_t)c[2],
	    "opaque", (json_int_t)c[3]);
}

static json_t *
change_json(const char *anchor, const struct lz_change *c)
{
	char mode[8], *p = shown(anchor, c->path), *t = NULL;
	json_t *o;

	snprintf(mode, sizeof mode, "%04o", c->mode);
	o = json_pack("{s:s,s:s,s:s,s:s,s:I}", "path", p, "change",
	    lz_change_name(c->kind), "type", type_name(c->type), "mode", mode,
	    "size", (json_int_t)c->size);
	if (c->link != NULL) {
		t = lz_visible_str(c->link, 0);
		json_object_set_new(o, "target", json_string(t));
	}
	free(t);
	free(p);
	return o;
}

/* The scan's figures and lists, added to the anchor's object o. */
static void
scan_json(struct lz_state_helper *h, const char *anchor,
    const struct lz_scan *s, json_t *o)
{
	const struct lz_scan_group *g;
	json_t *arr, *t, *sm;
	char *p, *q;
	size_t i, k;

	json_object_set_new(o, "upper_entries", json_integer((json_int_t)
	    s->entries));
	json_object_set_new(o, "upper_bytes", json_integer((json_int_t)
	    s->bytes));
	json_object_set_new(o, "counts", counts_json(s->count));
	json_object_set_new(o, "truncated", json_boolean(s->truncated));
	arr = json_array();
	for (i = 0; i < s->ntops; i++) {
		t = counts_json(s->tops[i].count);
		json_object_set_new(t, "path", json_string(p = shown(anchor,
		    s->tops[i].name)));
		free(p);
		json_array_append_new(arr, t);
	}
	json_object_set_new(o, "tops", arr);
	arr = json_array();
	for (i = 0; i < s->nnotes; i++) {
		p = shown(anchor, s->notes[i].path);
		json_array_append_new(arr, json_pack("{s:s,s:s}", "path", p,
		    "note", s->notes[i].what));
		free(p);
	}
	json_object_set_new(o, "notes", arr);
	if (h->flags & LZ_SH_ENTRIES) {
		arr = json_array();
		for (i = 0; i < s->n; i++)
			json_array_append_new(arr, change_json(anchor,
			    &s->v[i]));
		json_object_set_new(o, "changes", arr);
	}
	if (!(h->flags & LZ_SH_GROUPS))
		return;
	arr = json_array();
	for (i = 0; i < s->ngroups; i++) {
		g = &s->groups[i];
		sm = json_array();
		for (k = 0; k < g->nsample; k++) {
			q = lz_visible_str(g->sample[k], 0);
			json_array_append_new(sm, json_string(q));
			free(q);
		}
		p = shown(anchor, g->dir);
		json_array_append_new(arr, json_pack("{s:s,s:s,s:I,s:I,s:I,"
		    "s:I,s:I,s:o}", "dir", p, "kind", g->kind == 'A' ? "new" :
		    g->kind == 'O' ? "opaque" : "existing", "added",
		    (json_int_t)g->files[LZ_CHANGE_ADDED], "modified",
		    (json_int_t)g->files[LZ_CHANGE_MODIFIED], "deleted",
		    (json_int_t)g->files[LZ_CHANGE_DELETED], "dirs",
		    (json_int_t)g->dirs, "bytes", (json_int_t)g->bytes,
		    "sample", sm));
		free(p);
	}
	json_object_set_new(o, "groups", arr);
}

/*
 * The one change at sub when the merged view has a non-directory there
 * (fd: it in the upper layer, or -1 for a whiteout), into s.
 */
static void
single(int fd, int lowroot, const char *sub, int deleted, struct lz_scan *s)
{
	struct lz_change *c;
	struct stat st;
	int where, u = -1, l = -1, kind;

	memset(&st, 0, sizeof st);
	if (fd >= 0 && fstat(fd, &st) != 0)
		return;
	kind = LZ_CHANGE_DELETED;
	if (!deleted) {
		kind = LZ_CHANGE_ADDED;
		if (lowroot >= 0 && lz_scan_lookup(lowroot, -1, sub, &where, &u,
		    &l, NULL, NULL) == 0 && where != LZ_LOOKUP_NONE)
			kind = LZ_CHANGE_MODIFIED;
		if (u >= 0)
			close(u);
		if (l >= 0)
			close(l);
	}
	s->count[kind]++;
	s->entries = 1;
	s->bytes = (unsigned long long)st.st_blocks * 512;
	s->tops = lz_xcalloc(1, sizeof *s->tops);
	s->tops[0].name = lz_xstrdup(sub);
	s->tops[0].count[kind] = 1;
	s->ntops = s->tops_alloc = 1;
	s->v = c = lz_xcalloc(1, sizeof *s->v);
	s->n = s->alloc = 1;
	c->path = lz_xstrdup(sub);
	c->kind = (unsigned char)kind;
	c->type = deleted ? '-' : S_ISREG(st.st_mode) ? 'f' : S_ISLNK(
	    st.st_mode) ? 'l' : S_ISDIR(st.st_mode) ? 'd' : '?';
	c->mode = (unsigned)(st.st_mode & 07777);
	c->size = (long long)st.st_size;
}

/* The changes of one anchor (below sub, "" for all of it) as JSON. */
static json_t *
anchor_json(struct lz_state_helper *h, const struct lz_anchor_info *a,
    const char *sub, const struct lz_mountinfo *mi, struct lz_err *err)
{
	struct lz_scan s;
	struct statx stx;
	struct stat st;
	const char *how = "unavailable";
	char *p, *prefix = NULL, *gen;
	struct fds f = FDS_INIT;
	int where, flags = 0;
	json_t *o;
	size_t i;

	memset(&s, 0, sizeof s);
	o = json_pack("{s:s,s:s,s:i,s:b,s:o,s:o}", "path", a->path, "name",
	    a->name, "generation", (int)a->gen, "legacy", a->legacy,
	    "problem", a->problem ? json_string(a->problem) : json_null(),
	    "leftovers", json_array());
	for (i = 0; i < a->leftovers.n; i++)
		json_array_append_new(json_object_get(o, "leftovers"),
		    json_string(a->leftovers.v[i]));
	gen = lz_xasprintf("%s/gen-%u", a->name, a->gen);
	json_object_set_new(o, "created", a->gen > 0 && statx(h->anchorsfd,
	    gen, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &stx) == 0 &&
	    (stx.stx_mask & STATX_BTIME) ? json_integer(stx.stx_btime.tv_sec) :
	    json_null());
	free(gen);
	if (a->problem == NULL && (f.up = upper_of(h, a)) < 0)
		json_object_set_new(o, "problem", json_string("the upper layer "
		    "cannot be opened"));
	if (f.up < 0)
		goto out;
	f.low = lower_of(h, a, mi, &how);
	flags = (h->flags & LZ_SH_ENTRIES ? LZ_SCAN_KEEP : 0) |
	    (h->flags & LZ_SH_GROUPS ? LZ_SCAN_GROUPS : 0);
	if (*sub == '\0') {
		if (lz_scan_tree(f.up, f.low, "", flags, &s, err) != 0)
			goto fail;
		goto done;
	}
	/* Below the anchor's root: start where the merge puts sub. */
	if (lz_scan_lookup(f.up, f.low, sub, &where, &f.u, &f.l, NULL,
	    err) != 0)
		goto fail;
	json_object_set_new(o, "scope", json_string(p = shown(a->path, sub)));
	free(p);
	json_object_set_new(o, "scope_state", json_string(where ==
	    LZ_LOOKUP_UPPER ? "upper" : where == LZ_LOOKUP_LOWER ? "image" :
	    "deleted"));
	if (where == LZ_LOOKUP_NONE || where == LZ_LOOKUP_SYMLINK) {
		p = shown(a->path, sub);
		lz_err_set(err, LZ_EINVAL, where == LZ_LOOKUP_NONE ? "no '%s' "
		    "in State Anchor %s: neither its upper layer nor the "
		    "image has it ('lazaret state diff %s' shows what is "
		    "there)" : "'%s' passes through a symbolic link in State "
		    "Anchor %s, which Lazaret does not follow; name the "
		    "directory itself (see 'lazaret state inspect %s')", p,
		    a->path, a->path);
		free(p);
		goto fail;
	}
	if (where == LZ_LOOKUP_DELETED)
		single(-1, f.low, sub, 1, &s);
	else if (where == LZ_LOOKUP_UPPER && fstat(f.u, &st) == 0 &&
	    !S_ISDIR(st.st_mode))
		single(f.u, f.low, sub, 0, &s);
	else if (where == LZ_LOOKUP_UPPER) {
		close(f.up);
		f.up = lz_open_beneath(f.u, ".", O_RDONLY | O_DIRECTORY, 0);
		prefix = lz_xasprintf("%s/", sub);
		if (f.up < 0 || lz_scan_tree(f.up, f.l, prefix, flags, &s,
		    err) != 0)
			goto fail;
	}
done:
	scan_json(h, a->path, &s, o);
	goto out;
fail:
	json_decref(o);
	o = NULL;
out:
	if (o != NULL)
		json_object_set_new(o, "lower", json_string(how));
	lz_scan_release(&s);
	free(prefix);
	fds_close(&f);
	return o;
}

/*
 * Reads the regular file of the O_PATH descriptor fd (never a FIFO or a
 * device) into b, at most max bytes. 1 when it is not a regular file,
 * -1 on error or when it is larger.
 */
static int
read_view(int fd, struct lz_buf *b, size_t max)
{
	char path[64], chunk[65536];
	struct stat st;
	ssize_t n;
	int rfd, rc = 0;

	if (fstat(fd, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		return 1;
	if ((size_t)st.st_size > max)
		return -1;
	/* Reopening the descriptor's own file: no path is resolved. */
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((rfd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return -1;
	while ((n = read(rfd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b->len + (size_t)n > max) {
			rc = -1;
			break;
		}
		lz_buf_add(b, chunk, (size_t)n);
	}
	close(rfd);
	return rc;
}

static json_t *
pkg_list(const struct lz_dpkg *d)
{
	json_t *a = json_array(), *o;
	char *n, *v, *ar, *old;
	size_t i;

	for (i = 0; i < d->n; i++) {
		n = lz_visible_str(d->v[i].name, 0);
		v = lz_visible_str(d->v[i].version, 0);
		ar = lz_visible_str(d->v[i].arch, 0);
		o = json_pack("{s:s,s:s,s:s}", "name", n, "version", v, "arch",
		    ar);
		if (d->v[i].old != NULL) {
			old = lz_visible_str(d->v[i].old, 0);
			json_object_set_new(o, "from", json_string(old));
			free(old);
		}
		json_array_append_new(a, o);
		free(n);
		free(v);
		free(ar);
	}
	return a;
}

/*
 * Packages installed and removed: the dpkg status of the merged view of
 * the anchor that holds it, against the one in its lower layer (the
 * image's, or the running overlay's lower).
 */
static json_t *
packages_json(struct lz_state_helper *h, const struct lz_mountinfo *mi)
{
	struct lz_dpkg base = LZ_DPKG_INIT, now = LZ_DPKG_INIT;
	struct lz_dpkg add = LZ_DPKG_INIT, rm = LZ_DPKG_INIT, ch = LZ_DPKG_INIT;
	struct lz_buf bt = LZ_BUF_INIT, nt = LZ_BUF_INIT;
	const struct lz_anchor_info *a;
	const char *how = NULL, *rel, *why = NULL;
	struct fds f = FDS_INIT;
	int where;
	json_t *o;

	a = lz_anchor_set_cover(&h->set, DPKG_STATUS);
	if (a == NULL) {
		why = "no State Anchor holds " DPKG_STATUS;
		goto out;
	}
	rel = &DPKG_STATUS[strlen(a->path) + (strcmp(a->path, "/") != 0)];
	if ((f.up = upper_of(h, a)) < 0) {
		why = "the anchor's upper layer cannot be opened";
		goto out;
	}
	f.low = lower_of(h, a, mi, &how);
	if (f.low < 0) {
		why = h->image_error ? h->image_error : "the image has no "
		    DPKG_STATUS;
		goto out;
	}
	if (lz_scan_lookup(f.low, -1, rel, &where, &f.u, &f.l, NULL,
	    NULL) != 0 || where != LZ_LOOKUP_UPPER || read_view(f.u, &bt,
	    LZ_DPKG_MAX) != 0) {
		why = "the image's " DPKG_STATUS " cannot be read";
		goto out;
	}
	close(f.u);
	f.u = -1;
	if (lz_scan_lookup(f.up, f.low, rel, &where, &f.u, &f.l, NULL,
	    NULL) != 0 ||
	    (where != LZ_LOOKUP_UPPER && where != LZ_LOOKUP_LOWER) ||
	    read_view(f.u >= 0 ? f.u : f.l, &nt, LZ_DPKG_MAX) != 0) {
		why = DPKG_STATUS " of the sandbox cannot be read";
		goto out;
	}
	lz_dpkg_parse(bt.buf, bt.len, &base, NULL);
	lz_dpkg_parse(nt.buf, nt.len, &now, NULL);
	lz_dpkg_diff(&base, &now, &add, &rm, &ch);
out:
	if (why != NULL)
		o = json_pack("{s:n,s:s}", "source", "note", why);
	else
		o = json_pack("{s:s,s:s,s:o,s:o,s:o}", "source", DPKG_STATUS,
		    "lower", how, "added", pkg_list(&add), "removed",
		    pkg_list(&rm), "changed", pkg_list(&ch));
	lz_dpkg_release(&base);
	lz_dpkg_release(&now);
	lz_dpkg_release(&add);
	lz_dpkg_release(&rm);
	lz_dpkg_release(&ch);
	lz_buf_release(&bt);
	lz_buf_release(&nt);
	fds_close(&f);
	return o;
}

/*
 * The anchor a PATH operand names and the rest of it ("" at the anchor's
 * root); a message and NULL when no anchor covers it.
 */
static const struct lz_anchor_info *
operand(struct lz_state_helper *h, const char *path, const char **rest)
{
	const struct lz_anchor_info *a = lz_anchor_set_cover(&h->set, path);

	if (a == NULL)
		return NULL;
	*rest = path + strlen(a->path);
	while (**rest == '/')
		(*rest)++;
	return a;
}

int
lz_state_helper_scan(struct lz_state_helper *h, json_t **out)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_err err = LZ_ERR_INIT;
	const struct lz_anchor_info *a;
	const char *rest;
	json_t *arr = json_array(), *one;
	size_t i;
	int k, rc = LZ_EXIT_OK;

	*out = NULL;
	if (lz_mountinfo_read(&mi, &err) != 0) {
		rc = lz_cmd_fail(LZ_EXIT_FAILURE, "%s", err.msg);
		goto out;
	}
	for (k = 0; k < h->argc; k++) {
		if ((a = operand(h, h->argv[k], &rest)) == NULL) {
			rc = lz_cmd_fail(LZ_EXIT_USAGE, "'%s' is not "
			    "in a State Anchor of Domain %s on disk (see "
			    "'lazaret state list')", h->argv[k], h->id);
			goto out;
		}
		if ((one = anchor_json(h, a, rest, &mi, &err)) == NULL) {
			rc = lz_cmd_fail(LZ_EXIT_USAGE, "%s", err.msg ?
			    err.msg : "cannot scan the anchor");
			goto out;
		}
		json_array_append_new(arr, one);
	}
	for (i = 0; h->argc == 0 && i < h->set.n; i++) {
		if (h->set.v[i].path == NULL)
			continue;
		json_array_append_new(arr, anchor_json(h, &h->set.v[i], "",
		    &mi, NULL));
	}
	*out = json_pack("{s:O,s:s?,s:s?}", "anchors", arr, "image", h->image,
	    "image_note", h->image_error);
	if (h->flags & LZ_SH_DPKG)
		json_object_set_new(*out, "packages", packages_json(h, &mi));
out:
	json_decref(arr);
	lz_mountinfo_release(&mi);
	lz_err_release(&err);
	lz_state_helper_unmount(h);
	return rc;
}

int
lz_state_helper_cat(struct lz_state_helper *h)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	const struct lz_anchor_info *a;
	const char *rest, *how;
	char *link = NULL, *v;
	struct fds f = FDS_INIT;
	int where, rc = LZ_EXIT_OK, r;

	if (h->argc != 1 || (a = operand(h, h->argv[0], &rest)) == NULL)
		return lz_cmd_fail(LZ_EXIT_USAGE, "--contents needs "
		    "one file in a State Anchor of Domain %s", h->id);
	v = lz_visible_str(h->argv[0], 0);
	if (lz_mountinfo_read(&mi, NULL) != 0 || (f.up = upper_of(h, a)) < 0) {
		rc = lz_cmd_fail(LZ_EXIT_FAILURE, "cannot open the "
		    "upper layer of '%s'", a->path);
		goto out;
	}
	f.low = lower_of(h, a, &mi, &how);
	if (lz_scan_lookup(f.up, f.low, rest, &where, &f.u, &f.l, &link,
	    NULL) != 0 ||
	    where == LZ_LOOKUP_NONE || where == LZ_LOOKUP_DELETED) {
		rc = lz_cmd_fail(LZ_EXIT_USAGE, "'%s' does not exist "
		    "in the sandbox's view%s", v, where == LZ_LOOKUP_DELETED ?
		    " (the sandbox deleted it)" : "");
		goto out;
	}
	if (where == LZ_LOOKUP_SYMLINK) {
		char *t = lz_visible_str(link ? link : "?", 0);

		rc = lz_cmd_fail(LZ_EXIT_UNSAFE, "'%s' is, or passes "
		    "through, a symbolic link (to '%s'); Lazaret never follows "
		    "links in State Anchors", v, t);
		free(t);
		goto out;
	}
	r = read_view(f.u >= 0 ? f.u : f.l, &b, CAT_MAX);
	if (r != 0) {
		rc = lz_cmd_fail(r > 0 ? LZ_EXIT_USAGE :
		    LZ_EXIT_FAILURE, r > 0 ? "'%s' is not a regular file" :
		    "cannot read '%s' (larger than 64 MiB?)", v);
		goto out;
	}
	if (fwrite(b.buf, 1, b.len, stdout) != b.len || fflush(stdout) != 0)
		rc = LZ_EXIT_FAILURE;
out:
	free(v);
	free(link);
	lz_buf_release(&b);
	lz_mountinfo_release(&mi);
	fds_close(&f);
	lz_state_helper_unmount(h);
	return rc;
}
