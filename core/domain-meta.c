/*
 * domain-meta.c: domain.json, the list of the user's Domains and opening
 * a Domain Root by ID (domain-meta.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/domain-meta.h"
#include "core/fileio.h"
#include "core/rundir.h"

#define META_MAX (64 * 1024)

static long long	 birth_time(const char *dir, long long now);
static int		 cmp_str(const void *a, const void *b);

int
lz_domain_id_valid(const char *s)
{
	return strlen(s) == LZ_DOMAIN_ID_LEN &&
	    strspn(s, "0123456789abcdef") == LZ_DOMAIN_ID_LEN;
}

/* The birth time of dir (statx), or now when the file system has none. */
static long long
birth_time(const char *dir, long long now)
{
	struct statx stx;

	if (statx(AT_FDCWD, dir, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &stx) == 0
	    && (stx.stx_mask & STATX_BTIME) && stx.stx_btime.tv_sec > 0 &&
	    stx.stx_btime.tv_sec <= now)
		return stx.stx_btime.tv_sec;
	return now;
}

int
lz_domain_meta_write(const struct lz_domain *d, const char *image,
    long long now, struct lz_err *err)
{
	struct lz_domain_meta old;
	char *path = lz_xasprintf("%s/" LZ_DOMAIN_META_FILE, d->root);
	char *text = NULL;
	json_t *o = NULL;
	int rootfd, rc = 0;

	memset(&old, 0, sizeof old);
	rootfd = open(d->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s", d->root,
		    strerror(errno));
		goto out;
	}
	lz_domain_meta_read(rootfd, d->id, &old);
	o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:I,s:I}", "version", 1,
	    "domain_id", d->id, "profile", d->profile, "workspace",
	    d->workspace, "image", image, "created", (json_int_t)(old.created ?
	    old.created : birth_time(d->root, now)), "last_used",
	    (json_int_t)now);
	if (o == NULL || (text = json_dumps(o, JSON_INDENT(1) |
	    JSON_SORT_KEYS)) == NULL)
		rc = lz_err_set(err, LZ_EINVAL, "cannot encode '%s' (profile, "
		    "workspace or image is not UTF-8)", path);
	else
		rc = lz_file_replace(rootfd, LZ_DOMAIN_META_FILE, text,
		    strlen(text), 0600, path, err);
	close(rootfd);
out:
	json_decref(o);
	free(text);
	free(path);
	lz_domain_meta_release(&old);
	return rc;
}

void
lz_domain_meta_read(int rootfd, const char *id, struct lz_domain_meta *m)
{
	char buf[META_MAX + 1], want[LZ_DOMAIN_ID_LEN + 1];
	const char *p, *w, *img;
	json_error_t je;
	json_t *o = NULL, *c, *u;
	struct stat st;
	ssize_t n;
	int fd;

	memset(m, 0, sizeof *m);
	snprintf(m->id, sizeof m->id, "%s", id);
	fd = openat(rootfd, LZ_DOMAIN_META_FILE, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			m->problem = lz_xasprintf("cannot open "
			    LZ_DOMAIN_META_FILE ": %s", strerror(errno));
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) != 0 ||
	    st.st_size > META_MAX || (n = read(fd, buf, META_MAX)) < 0) {
		m->problem = lz_xstrdup(LZ_DOMAIN_META_FILE " is not a private "
		    "regular file of yours, or too large");
		close(fd);
		return;
	}
	close(fd);
	buf[n] = '\0';
	o = json_loadb(buf, (size_t)n, JSON_REJECT_DUPLICATES, &je);
	p = json_string_value(json_object_get(o, "profile"));
	w = json_string_value(json_object_get(o, "workspace"));
	img = json_string_value(json_object_get(o, "image"));
	c = json_object_get(o, "created");
	u = json_object_get(o, "last_used");
	if (o == NULL || p == NULL || w == NULL || img == NULL ||
	    !json_is_integer(c) || !json_is_integer(u)) {
		m->problem = lz_xasprintf(LZ_DOMAIN_META_FILE " is not a "
		    "Domain record: %s", o == NULL ? je.text :
		    "a field is missing");
		goto out;
	}
	lz_domain_id(p, w, want);
	if (strcmp(want, id) != 0) {
		m->problem = lz_xstrdup(LZ_DOMAIN_META_FILE " names a profile "
		    "and workspace of another Domain ID");
		goto out;
	}
	m->profile = lz_xstrdup(p);
	m->workspace = lz_xstrdup(w);
	m->image = lz_xstrdup(img);
	m->created = json_integer_value(c);
	m->last_used = json_integer_value(u);
out:
	json_decref(o);
}

void
lz_domain_meta_release(struct lz_domain_meta *m)
{
	free(m->profile);
	free(m->workspace);
	free(m->image);
	free(m->problem);
	memset(m, 0, sizeof *m);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
lz_domain_list(const char *storage_root, struct lz_tokens *ids,
    struct lz_err *err)
{
	struct dirent *e;
	DIR *dir;
	int fd;

	fd = lz_rundir_open(storage_root, "domains", err);
	if (fd == LZ_ENOTFOUND) {
		lz_err_release(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	if ((dir = fdopendir(fd)) == NULL) {
		close(fd);
		return lz_err_set(err, LZ_ESYS, "cannot list '%s/domains': %s",
		    storage_root, strerror(errno));
	}
	while ((e = readdir(dir)) != NULL) {
		if (lz_domain_id_valid(e->d_name))
			lz_tokens_push(ids, e->d_name);
	}
	closedir(dir);
	if (ids->n > 1)
		qsort(ids->v, ids->n, sizeof *ids->v, cmp_str);
	return 0;
}

int
lz_domain_root_open(const char *storage_root, const char *id,
    struct lz_err *err)
{
	char *sub;
	int fd;

	if (!lz_domain_id_valid(id))
		return lz_err_set(err, LZ_EINVAL, "'%.40s' is not a Domain ID "
		    "(%d lower-case hex digits; 'lazaret state list' shows "
		    "yours)", id, LZ_DOMAIN_ID_LEN);
	sub = lz_xasprintf("domains/%s", id);
	fd = lz_rundir_open(storage_root, sub, err);
	free(sub);
	if (fd == LZ_ENOTFOUND)
		return lz_err_set(err, LZ_ENOTFOUND, "you have no Domain '%s' "
		    "(in '%s/domains'; 'lazaret state list' shows yours)", id,
		    storage_root);
	return fd;
}
