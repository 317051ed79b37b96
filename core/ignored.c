/*
 * ignored.c: the Ignored Workspace State of ignored.h: the libgit2 scan,
 * the concrete .gitignore entries, the never-shrinking union with the
 * Domain's record, and the storage and mount points behind each mount.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <jansson.h>

#include "core/domain.h"
#include "core/fault.h"
#include "core/fileio.h"
#include "core/ignored.h"
#include "core/pathcheck.h"
#include "core/rmtree.h"
#include "core/ws-view.h"

static int ig_is_rules(const char *p);
static int ig_cmp(const void *a, const void *b);
static void ig_add(struct lz_tokens *t, const char *p);
static void ig_finish(struct lz_tokens *t);
static char *ig_clean(const char *dir, const char *pat);
static int ig_rules(git_repository *repo, const char *ws, const char *dir,
    const char *file, size_t *lines, struct lz_ignored *out,
    struct lz_err *err);
static int ig_count(const char *ws, const char *file, size_t *lines,
    struct lz_err *err);
static int ig_too_many_rules(const char *file, struct lz_err *err);
static int ig_make(int rootfd, const char *rel, int isdir, const char *what,
    struct lz_err *err);
static long ig_find(const struct lz_tokens *t, const char *p);
static int ig_idx_cmp(const void *a, const void *b, void *t);
static int ig_write(const char *domain_root, const struct lz_ignored *ig,
    struct lz_err *err);
static int ig_write_list(const char *domain_root,
    const struct lz_ignored *ig, struct lz_err *err);
static int ig_write_json(const char *domain_root, const char *name,
    json_t *j, size_t flags, struct lz_err *err);

/* 1 for ".gitignore" and "dir/.gitignore". */
static int
ig_is_rules(const char *p)
{
	size_t n = strlen(p);

	return strcmp(p, ".gitignore") == 0 || (n > 11 &&
	    strcmp(p + n - 11, "/.gitignore") == 0);
}

static int
ig_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Indexes of the tokens t, compared by their strings. */
static int
ig_idx_cmp(const void *a, const void *b, void *t)
{
	const struct lz_tokens *tk = t;

	return strcmp(tk->v[*(const size_t *)a], tk->v[*(const size_t *)b]);
}

/* Adds p; duplicates go in ig_finish (a check here would be quadratic). */
static void
ig_add(struct lz_tokens *t, const char *p)
{
	lz_tokens_push(t, p);
}

/*
 * Sorts, drops duplicates and entries beneath a directory entry
 * ("build/x" under "build/"). Sorted, every path beneath "build/" follows
 * it before any path that does not start with it, so one pass with the
 * last directory kept does it.
 */
static void
ig_finish(struct lz_tokens *t)
{
	const char *dir = NULL;
	size_t i, k, n;

	if (t->n == 0)
		return;
	qsort(t->v, t->n, sizeof *t->v, ig_cmp);
	for (i = 0, k = 0; i < t->n; i++) {
		if ((k > 0 && strcmp(t->v[i], t->v[k - 1]) == 0) ||
		    (dir != NULL && strncmp(t->v[i], dir, strlen(dir)) == 0)) {
			free(t->v[i]);
			continue;
		}
		n = strlen(t->v[i]);
		if (t->v[i][n - 1] == '/')
			dir = t->v[i];
		t->v[k++] = t->v[i];
	}
	t->n = k;
	t->v[k] = NULL;
}

/*
 * dir + pat as a clean relative path (keeping a trailing '/'), or NULL
 * when it is empty, climbs with "..", or names .git.
 */
static char *
ig_clean(const char *dir, const char *pat)
{
	struct lz_buf b = LZ_BUF_INIT, in = LZ_BUF_INIT;
	const char *p, *e;
	size_t n;
	int isdir;

	lz_buf_addf(&in, "%s%s", dir, pat);
	isdir = in.len > 0 && in.buf[in.len - 1] == '/';
	for (p = in.buf; *p != '\0'; p += n) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.'))
			continue;
		if ((n == 2 && p[0] == '.' && p[1] == '.') ||
		    (n == 4 && strncmp(p, ".git", 4) == 0))
			goto bad;
		if (b.len > 0)
			lz_buf_addch(&b, '/');
		lz_buf_add(&b, p, n);
	}
	if (b.len == 0)
		goto bad;
	if (isdir)
		lz_buf_addch(&b, '/');
	lz_buf_release(&in);
	return lz_buf_detach(&b);
bad:
	lz_buf_release(&in);
	lz_buf_release(&b);
	return NULL;
}

/* The concrete entries of one rules file (dir: its directory, "" or "a/"). */
/*
 * The error of ignore files with more than LZ_IGNORED_MAX_RULES rules:
 * each concrete entry is checked against every rule (libgit2), so a
 * flood would make every launch of the Domain take minutes.
 */
static int
ig_too_many_rules(const char *file, struct lz_err *err)
{
	return lz_err_set(err, LZ_EINVAL, "the ignore files ('%s' and the "
	    "others) hold more than %d rules, more than Lazaret reads (a "
	    "sandbox may have flooded them: 'git log -p -- %s' shows who); "
	    "restore them (git checkout -- %s), then, if a launch recorded "
	    "the paths, 'lazaret state reset --ignored --forget-paths'; or "
	    "set ignored-isolation = off in the profile", file,
	    LZ_IGNORED_MAX_RULES, file, file);
}

/* Adds the rule lines of ws/file to *lines; the error past the cap. */
static int
ig_count(const char *ws, const char *file, size_t *lines,
    struct lz_err *err)
{
	char *path = lz_xasprintf("%s/%s", ws, file), *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;
	int rc = 0;

	if ((fp = fopen(path, "re")) != NULL) {
		while (rc == 0 && (len = getline(&line, &cap, fp)) >= 0) {
			if (len > 1 && line[0] != '#' && ++*lines >
			    LZ_IGNORED_MAX_RULES)
				rc = ig_too_many_rules(file, err);
		}
		fclose(fp);
	}
	free(line);
	free(path);
	return rc;
}

static int
ig_rules(git_repository *repo, const char *ws, const char *dir,
    const char *file, size_t *lines, struct lz_ignored *out,
    struct lz_err *err)
{
	char *path = lz_xasprintf("%s/%s", ws, file), *line = NULL, *rel;
	char *check = NULL, *full = NULL;
	size_t cap = 0, n;
	ssize_t len;
	struct stat st;
	FILE *fp;
	int ignored, isdir, rc = 0;

	fp = fopen(path, "re");
	if (fp == NULL) {
		free(path);
		return 0;	/* absent, or unreadable: git skips it too */
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		n = (size_t)len;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
		    line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		line[n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		if (++*lines > LZ_IGNORED_MAX_RULES) {
			rc = ig_too_many_rules(file, err);
			break;
		}
		if (line[0] == '!' || strpbrk(line, "*?[\\") != NULL) {
			lz_tokens_push(&out->uncovered, check = lz_xasprintf(
			    "%s: %s", file, line));
			free(check);
			check = NULL;
			continue;
		}
		rel = ig_clean(dir, line);
		if (rel == NULL)
			continue;
		n = strlen(rel);
		isdir = rel[n - 1] == '/';
		full = lz_xasprintf("%s/%s", ws, rel);
		if (!isdir && lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(rel);
			rel = lz_xasprintf("%s/", full + strlen(ws) + 1);
		}
		if (git_ignore_path_is_ignored(&ignored, repo, rel) == 0 &&
		    ignored)
			ig_add(&out->paths, rel);
		free(full);
		free(rel);
		full = NULL;
	}
	free(line);
	fclose(fp);
	free(path);
	return rc;
}

int
lz_ignored_scan(const char *workspace, struct lz_ignored *out,
    struct lz_err *err)
{
	git_repository *repo = NULL;
	git_status_list *list = NULL;
	git_index *index = NULL;
	git_status_options o;
	const git_status_entry *s;
	const git_index_entry *ie;
	const git_error *ge;
	const char *p;
	char *dir;
	size_t i, n, lines = 0;
	int rc = 0, wsfd = -1;

	lz_git_init();
	git_status_options_init(&o, GIT_STATUS_OPTIONS_VERSION);
	o.show = GIT_STATUS_SHOW_WORKDIR_ONLY;
	o.flags = GIT_STATUS_OPT_INCLUDE_IGNORED |
	    GIT_STATUS_OPT_INCLUDE_UNTRACKED |
	    GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
	    GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_repository_open(&repo, workspace) != 0 ||
	    git_repository_index(&index, repo) != 0)
		goto git_failed;
	/* Whether tracked files changed is not asked: no hashing. */
	if ((wsfd = open(workspace, O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0 &&
	    lz_ignored_index_trusted(repo, index, wsfd) == 0)
		o.flags |= GIT_STATUS_OPT_NO_REFRESH;
	/* The rules the walk reads (bar untracked nested ones), counted
	 * first: a flood of them would make the walk itself take minutes. */
	rc = ig_count(workspace, ".gitignore", &lines, err);
	if (rc == 0)
		rc = ig_count(workspace, ".git/info/exclude", &lines, err);
	n = git_index_entrycount(index);
	for (i = 0; i < n && rc == 0; i++) {
		ie = git_index_get_byindex(index, i);
		if (ig_is_rules(ie->path) && strcmp(ie->path,
		    ".gitignore") != 0)
			rc = ig_count(workspace, ie->path, &lines, err);
	}
	if (rc != 0)
		goto out;
	lines = 0;
	if (git_status_list_new(&list, repo, &o) != 0)
		goto git_failed;
	n = git_status_list_entrycount(list);
	for (i = 0; i < n; i++) {
		s = git_status_byindex(list, i);
		if (s->index_to_workdir == NULL)
			continue;
		p = s->index_to_workdir->new_file.path;
		if (s->status & GIT_STATUS_IGNORED) {
			if ((dir = ig_clean("", p)) != NULL)
				ig_add(&out->paths, dir);
			free(dir);
		} else if ((s->status & GIT_STATUS_WT_NEW) &&
		    ig_is_rules(p)) {
			dir = lz_xstrndup(p, strlen(p) - strlen(".gitignore"));
			rc = ig_rules(repo, workspace, dir, p, &lines, out,
			    err);
			free(dir);
			if (rc != 0)
				goto out;
		}
	}
	rc = ig_rules(repo, workspace, "", ".git/info/exclude", &lines, out,
	    err);
	n = git_index_entrycount(index);
	for (i = 0; i < n && rc == 0; i++) {
		ie = git_index_get_byindex(index, i);
		p = ie->path;
		if (!ig_is_rules(p))
			continue;
		dir = lz_xstrndup(p, strlen(p) - 10);
		rc = ig_rules(repo, workspace, dir, p, &lines, out, err);
		free(dir);
	}
	ig_finish(&out->paths);
	goto out;
git_failed:
	ge = git_error_last();
	rc = lz_err_set(err, LZ_EINVAL, "cannot list the ignored paths of "
	    "'%s': %s", workspace, ge != NULL ? ge->message : "?");
out:
	if (wsfd >= 0)
		close(wsfd);
	git_index_free(index);
	git_status_list_free(list);
	git_repository_free(repo);
	return rc;
}

/*
 * Reads the record: version 2 {"version": 2, "paths": [{"path": P,
 * "added": T}]} or the array of paths of version 1 (added unknown: 0).
 */
int
lz_ignored_record_read(const char *domain_root, struct lz_tokens *paths,
    long long **added, struct lz_err *err)
{
	char *path = lz_xasprintf("%s/" LZ_IGNORED_RECORD, domain_root);
	json_t *doc = NULL, *arr, *v, *p;
	json_error_t je;
	char *clean;
	size_t i;
	int rc = 0;

	*added = NULL;
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (doc == NULL && access(path, F_OK) != 0 && errno == ENOENT)
		goto out;
	if (doc == NULL) {
		rc = lz_err_set(err, LZ_EINVAL, "cannot read '%s': %s (line "
		    "%d); fix or remove it", path, je.text, je.line);
		goto out;
	}
	arr = json_is_array(doc) ? doc : json_object_get(doc, "paths");
	if (!json_is_array(arr) || (!json_is_array(doc) &&
	    json_integer_value(json_object_get(doc, "version")) != 2)) {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' is not a record of "
		    "isolated paths; fix or remove it", path);
		goto out;
	}
	*added = lz_xcalloc(json_array_size(arr) + 1, sizeof **added);
	json_array_foreach(arr, i, v) {
		p = json_is_object(v) ? json_object_get(v, "path") : v;
		if (!json_is_string(p) || (clean = ig_clean("",
		    json_string_value(p))) == NULL) {
			rc = lz_err_set(err, LZ_EINVAL, "'%s': entry %zu is not "
			    "a clean relative path", path, i);
			goto out;
		}
		lz_tokens_push(paths, clean);
		(*added)[paths->n - 1] = json_integer_value(json_object_get(v,
		    "added"));
		free(clean);
	}
out:
	if (rc != 0) {
		lz_tokens_release(paths);
		free(*added);
		*added = NULL;
	}
	json_decref(doc);
	free(path);
	return rc;
}

/* The index of p in the sorted list t, or -1. */
static long
ig_find(const struct lz_tokens *t, const char *p)
{
	char *const *hit = t->n ? bsearch(&p, t->v, t->n, sizeof *t->v,
	    ig_cmp) : NULL;

	return hit != NULL ? (long)(hit - t->v) : -1;
}

/* Writes the JSON text of j as name in domain_root, in one step. */
static int
ig_write_json(const char *domain_root, const char *name, json_t *j,
    size_t flags, struct lz_err *err)
{
	char *path = lz_xasprintf("%s/%s", domain_root, name);
	char *text = json_dumps(j, flags);
	int fd, rc;

	fd = open(domain_root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    domain_root, strerror(errno));
	else {
		rc = lz_file_replace(fd, name, text, strlen(text), 0600, path,
		    err);
		close(fd);
	}
	free(text);
	free(path);
	return rc;
}

/* Writes the record of ig (version 2). */
static int
ig_write(const char *domain_root, const struct lz_ignored *ig,
    struct lz_err *err)
{
	json_t *arr = json_array(), *doc;
	size_t i;
	int rc;

	for (i = 0; i < ig->paths.n; i++)
		json_array_append_new(arr, json_pack("{s:s,s:I}", "path",
		    ig->paths.v[i], "added", (json_int_t)ig->added[i]));
	doc = json_pack("{s:i,s:o}", "version", 2, "paths", arr);
	rc = ig_write_json(domain_root, LZ_IGNORED_RECORD, doc, JSON_INDENT(1),
	    err);
	json_decref(doc);
	return rc;
}

int
lz_ignored_load(const char *domain_root, struct lz_ignored *ig,
    struct lz_err *err)
{
	struct lz_tokens rec = LZ_TOKENS_INIT;
	long long *added = NULL;
	size_t i;
	int rc;

	rc = lz_ignored_record_read(domain_root, &rec, &added, err);
	for (i = 0; rc == 0 && i < rec.n; i++)
		ig_add(&ig->paths, rec.v[i]);
	ig_finish(&ig->paths);
	lz_tokens_release(&rec);
	free(added);
	return rc;
}

int
lz_ignored_merge(const char *domain_root, struct lz_ignored *ig,
    struct lz_err *err)
{
	struct lz_tokens rec = LZ_TOKENS_INIT, byname = LZ_TOKENS_INIT;
	long long *added = NULL, t, now = (long long)time(NULL);
	size_t i, *sorted;
	long j;
	int rc, grew = 0;

	rc = lz_ignored_record_read(domain_root, &rec, &added, err);
	if (rc != 0)
		return rc;
	lz_tokens_release(&ig->stale);
	ig_finish(&ig->paths);
	for (i = 0; i < rec.n; i++) {
		if (ig_find(&ig->paths, rec.v[i]) < 0)
			lz_tokens_push(&ig->stale, rec.v[i]);
	}
	for (i = 0; i < rec.n; i++)
		ig_add(&ig->paths, rec.v[i]);
	ig_finish(&ig->paths);
	/* The record in path order, with its times beside, to look up. */
	sorted = lz_xcalloc(rec.n + 1, sizeof *sorted);
	for (i = 0; i < rec.n; i++)
		sorted[i] = i;
	qsort_r(sorted, rec.n, sizeof *sorted, ig_idx_cmp, &rec);
	for (i = 0; i < rec.n; i++)
		lz_tokens_push(&byname, rec.v[sorted[i]]);
	free(ig->added);
	ig->added = lz_xcalloc(ig->paths.n + 1, sizeof *ig->added);
	for (i = 0; i < ig->paths.n; i++) {
		j = ig_find(&byname, ig->paths.v[i]);
		t = j < 0 ? -1 : added[sorted[j]];
		grew |= t < 0;
		ig->added[i] = t < 0 ? now : t;
	}
	lz_tokens_release(&byname);
	free(sorted);
	/* The same set as recorded (entries beneath a directory entry
	 * dropped count as a change too): nothing to write. */
	if (grew || ig->paths.n != rec.n)
		rc = ig_write(domain_root, ig, err);
	lz_tokens_release(&rec);
	free(added);
	return rc;
}

int
lz_ignored_state_reset(int rootfd, int forget, struct lz_err *err)
{
	char name[64];
	struct stat st;
	int rc = 0;

	snprintf(name, sizeof name, LZ_IGNORED_OLD "%lld", (long long)time(
	    NULL));
	if (fstatat(rootfd, "ignored", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		/* One rename: the next launch starts from nothing. */
		if (renameat(rootfd, "ignored", rootfd, name) != 0 ||
		    fsync(rootfd) != 0)
			return lz_err_set(err, LZ_ESYS, "cannot move 'ignored' "
			    "aside: %s", strerror(errno));
		lz_fault("ignored-moved");
		if ((rc = lz_rmtree_at(rootfd, name, name, "ignored-removing",
		    err)) != 0)
			return rc;
	}
	if (forget && unlinkat(rootfd, LZ_IGNORED_RECORD, 0) != 0 &&
	    errno != ENOENT)
		return lz_err_set(err, LZ_ESYS, "cannot remove '"
		    LZ_IGNORED_RECORD "': %s", strerror(errno));
	if (fsync(rootfd) != 0)
		return lz_err_set(err, LZ_ESYS, "cannot sync the Domain Root: "
		    "%s", strerror(errno));
	return 0;
}

int
lz_ignored_state_recover(int rootfd, struct lz_tokens *removed,
    struct lz_err *err)
{
	struct lz_tokens old = LZ_TOKENS_INIT;
	struct dirent *d;
	DIR *dir;
	size_t i;
	int dfd = dup(rootfd), rc = 0;

	if (dfd < 0 || (dir = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return lz_err_set(err, LZ_ESYS, "cannot list the Domain Root: "
		    "%s", strerror(errno));
	}
	rewinddir(dir);
	while ((d = readdir(dir)) != NULL) {
		if (strncmp(d->d_name, LZ_IGNORED_OLD,
		    strlen(LZ_IGNORED_OLD)) == 0)
			lz_tokens_push(&old, d->d_name);
	}
	closedir(dir);
	for (i = 0; i < old.n && rc == 0; i++) {
		rc = lz_rmtree_at(rootfd, old.v[i], old.v[i], NULL, err);
		if (rc == 0)
			lz_tokens_push(removed, old.v[i]);
	}
	lz_tokens_release(&old);
	return rc;
}

/* Makes rel (a directory, or an empty file) under rootfd, no symlinks. */
static int
ig_make(int rootfd, const char *rel, int isdir, const char *what,
    struct lz_err *err)
{
	char *copy = lz_xstrdup(rel), *p = copy, *e;
	int fd = dup(rootfd), next, rc = 0, last;
	struct stat st;

	while (p != NULL && *p != '\0') {
		e = strchr(p, '/');
		if (e != NULL)
			*e = '\0';
		last = e == NULL || e[1] == '\0';
		if (last && !isdir)
			next = lz_open_beneath(fd, p, O_RDONLY | O_CREAT, 0644);
		else {
			next = lz_open_beneath(fd, p, O_RDONLY | O_DIRECTORY, 0);
			if (next < 0 && errno == ENOENT) {
				if (mkdirat(fd, p, 0755) != 0 &&
				    errno != EEXIST)
					goto fail;
				next = lz_open_beneath(fd, p, O_RDONLY | O_DIRECTORY,
				    0);
			}
		}
		if (next < 0)
			goto fail;
		close(fd);
		fd = next;
		p = e != NULL ? e + 1 : NULL;
	}
	if (fstat(fd, &st) != 0 || (isdir ? !S_ISDIR(st.st_mode) :
	    !S_ISREG(st.st_mode)))
		rc = lz_err_set(err, LZ_EUNSAFE, "%s '%s' is not a %s; move it "
		    "away or remove it from the ignore rules", what, rel,
		    isdir ? "directory" : "regular file");
	goto out;
fail:
	if (errno == ENOSYS)
		rc = lz_err_set(err, LZ_EUNSAFE, "cannot open '%s' safely: "
		    "this kernel has no openat2(2) (Linux 5.6 or later needed)",
		    rel);
	else if (errno == ELOOP || errno == EXDEV || errno == ENOTDIR)
		rc = lz_err_set(err, LZ_EUNSAFE, "%s '%s' passes through a "
		    "symlink or a non-directory; Lazaret will not follow it",
		    what, rel);
	else
		rc = lz_err_set(err, LZ_ESYS, "cannot create %s '%s': %s",
		    what, rel, strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

/* Writes <domain_root>/view.json, the paths the shim binds (ws-view.h). */
static int
ig_write_list(const char *domain_root, const struct lz_ignored *ig,
    struct lz_err *err)
{
	json_t *a = json_array();
	size_t i;
	int rc;

	for (i = 0; i < ig->paths.n; i++)
		json_array_append_new(a, json_string(ig->paths.v[i]));
	rc = ig_write_json(domain_root, LZ_VIEW_LIST, a, JSON_COMPACT, err);
	json_decref(a);
	return rc;
}

int
lz_ignored_prepare(const char *workspace, const char *domain_root,
    struct lz_ignored *ig, struct lz_mountplan *mp, struct lz_view *view,
    struct lz_err *err)
{
	struct lz_buf enc = LZ_BUF_INIT;
	const char *p;
	size_t i;
	int wfd = -1, dfd = -1, rc = 0, isdir;

	memset(view, 0, sizeof *view);
	if ((rc = lz_ignored_fit(workspace, ig, err)) != 0)
		return rc;
	wfd = open(workspace, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	dfd = open(domain_root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (wfd < 0 || dfd < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    wfd < 0 ? workspace : domain_root, strerror(errno));
		goto out;
	}
	if ((rc = ig_make(dfd, "ignored", 1, "Domain storage", err)) != 0)
		goto out;
	for (i = 0; i < ig->paths.n; i++) {
		p = ig->paths.v[i];
		isdir = p[strlen(p) - 1] == '/';
		lz_buf_reset(&enc);
		lz_buf_adds(&enc, "ignored/");
		lz_view_storage_name(&enc, p);
		if ((rc = ig_make(dfd, enc.buf, isdir, "Domain storage",
		    err)) != 0 || (rc = ig_make(wfd, p, isdir,
		    "ignored path", err)) != 0)
			goto out;
	}
	if (ig->paths.n == 0)
		goto out;
	/* The sandbox's /workspace becomes the view the shim composes. */
	for (i = 0; i < mp->n; i++) {
		if (mp->v[i].kind == LZ_MOUNT_BIND &&
		    strcmp(mp->v[i].target, "/workspace") == 0)
			break;
	}
	if (i == mp->n)
		LZ_BUG("the mount plan has no /workspace");
	if ((rc = ig_write_list(domain_root, ig, err)) != 0)
		goto out;
	if (mkdirat(dfd, LZ_VIEW_DIR, 0700) != 0 && errno != EEXIST) {
		rc = lz_err_set(err, LZ_ESYS, "cannot create '%s/" LZ_VIEW_DIR
		    "': %s", domain_root, strerror(errno));
		goto out;
	}
	view->workspace = lz_xstrdup(workspace);
	view->view = lz_xasprintf("%s/" LZ_VIEW_DIR, domain_root);
	view->storage = lz_xasprintf("%s/ignored", domain_root);
	view->list = lz_xasprintf("%s/" LZ_VIEW_LIST, domain_root);
	free(mp->v[i].source);
	mp->v[i].source = lz_xstrdup(view->view);
	free(mp->v[i].why);
	mp->v[i].why = lz_xasprintf("workspace, with %zu paths of Ignored "
	    "Workspace State bound in (SR-13)", ig->paths.n);
out:
	if (wfd >= 0)
		close(wfd);
	if (dfd >= 0)
		close(dfd);
	lz_buf_release(&enc);
	if (rc != 0)
		lz_view_release(view);
	return rc;
}

void
lz_ignored_release(struct lz_ignored *ig)
{
	lz_tokens_release(&ig->paths);
	lz_tokens_release(&ig->uncovered);
	lz_tokens_release(&ig->stale);
	free(ig->added);
	ig->added = NULL;
}
