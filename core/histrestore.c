/*
 * histrestore.c: kept history written back into a repository
 * (histrestore.h). Everything in the git directory is reached from its
 * descriptor with no symlink followed; libgit2 only opens the repository
 * once what could make it block was moved away.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "core/domain.h"
#include "core/gitconfig.h"
#include "core/histfiles.h"
#include "core/histrestore.h"
#include "core/history.h"
#include "core/objcheck.h"
#include "core/pathcheck.h"
#include "core/quarantine.h"
#include "core/readat.h"

#define Q_PREFIX "lazaret-quarantine-"

static void move_away(struct lz_histview *v, struct lz_histdone *d,
    int dfd, const char *name, const char *path);
static void sanitize_refs(struct lz_histview *v, struct lz_histdone *d,
    int dfd, const char *path, unsigned depth);
static void sanitize_objects(struct lz_histview *v, struct lz_histdone *d);
static int write_loose(int gitfd, const char *name, const char *value);
static int fix_packed(struct lz_histview *v, struct lz_histdone *d);
static int skeleton(struct lz_histview *v, struct lz_histdone *d,
    struct lz_err *err);
static int head_value(const struct lz_histview *v, struct lz_buf *out);
static int bring_back(struct lz_histview *v, struct lz_histdone *d,
    struct lz_err *err);
static int open_dir(int parent, const char *name, int create);
static int open_repo(struct lz_histview *v, git_repository **repo,
    struct lz_err *err);

static int
open_dir(int parent, const char *name, int create)
{
	if (create && mkdirat(parent, name, 0755) != 0 && errno != EEXIST)
		return -1;
	return openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
}

/*
 * Renames dfd/name (path, from the git directory) to the git directory's
 * top, "lazaret-quarantine-<path with '-' for '/'>.<time>.<n>": git reads
 * every name in refs/ as a ref and warns of every name in objects/xx.
 */
static void
move_away(struct lz_histview *v, struct lz_histdone *d, int dfd,
    const char *name, const char *path)
{
	char *prefix = lz_xasprintf(Q_PREFIX "%s.", path), *p, *to = NULL;

	for (p = prefix + strlen(Q_PREFIX); *p != '\0'; p++)
		if (*p == '/')
			*p = '-';
	if (lz_quarantine_to(dfd, name, v->gitfd, prefix, &to) == 0) {
		lz_buf_addf(&d->lines, "%s was not what git keeps there (the "
		    "sandbox may have planted it): moved to %s/%s; delete it "
		    "once you looked\n", path, v->rel, to);
		d->moved++;
	} else
		lz_buf_addf(&d->lines, "%s is not what git keeps there and "
		    "cannot be moved away (%s): remove it by hand\n", path,
		    strerror(errno));
	free(to);
	free(prefix);
}

/* Non-files under refs/ (git would block reading a FIFO there). */
static void
sanitize_refs(struct lz_histview *v, struct lz_histdone *d, int dfd,
    const char *path, unsigned depth)
{
	struct lz_tokens bad = LZ_TOKENS_INIT, dirs = LZ_TOKENS_INIT;
	struct dirent *de;
	struct stat st;
	char *sub;
	size_t i;
	int fd;
	DIR *dir;

	if ((fd = dup(dfd)) < 0 || (dir = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			lz_tokens_push(&dirs, de->d_name);
		else if (!S_ISREG(st.st_mode))
			lz_tokens_push(&bad, de->d_name);
	}
	closedir(dir);
	for (i = 0; i < bad.n; i++) {
		sub = lz_xasprintf("%s/%s", path, bad.v[i]);
		move_away(v, d, dfd, bad.v[i], sub);
		free(sub);
	}
	for (i = 0; i < dirs.n && depth < 32; i++) {
		if ((fd = open_dir(dfd, dirs.v[i], 0)) < 0)
			continue;
		sub = lz_xasprintf("%s/%s", path, dirs.v[i]);
		sanitize_refs(v, d, fd, sub, depth + 1);
		free(sub);
		close(fd);
	}
	lz_tokens_release(&bad);
	lz_tokens_release(&dirs);
}

/* Object and pack names that are not files, and alternates. */
static void
sanitize_objects(struct lz_histview *v, struct lz_histdone *d)
{
	struct lz_tokens names = LZ_TOKENS_INIT;
	struct stat st;
	char name[8], *path;
	int objs, sub, i;
	size_t k;

	if ((objs = open_dir(v->gitfd, "objects", 0)) < 0)
		return;
	if ((sub = open_dir(objs, "info", 0)) >= 0) {
		if (fstatat(sub, "alternates", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(st.st_mode))
			move_away(v, d, sub, "alternates",
			    "objects/info/alternates");
		close(sub);
	}
	for (i = 0; i <= LZ_HISTSTORE_PACK; i++) {
		lz_histstore_dir_name(i, name);
		if ((sub = open_dir(objs, name, 0)) < 0)
			continue;
		lz_tokens_release(&names);
		(void)lz_histstore_list(sub, i == LZ_HISTSTORE_PACK, &names);
		for (k = 0; k < names.n; k++) {
			if (fstatat(sub, names.v[k], &st,
			    AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(st.st_mode))
				continue;
			path = lz_xasprintf("objects/%s/%s", name, names.v[k]);
			move_away(v, d, sub, names.v[k], path);
			free(path);
		}
		close(sub);
	}
	lz_tokens_release(&names);
	close(objs);
}

/* gitfd/NAME := "VALUE\n" as a loose ref, its directories made. */
static int
write_loose(int gitfd, const char *name, const char *value)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *copy = lz_xstrdup(name), *p = copy, *slash;
	int dfd = dup(gitfd), next, rc = -1, fd;

	while (dfd >= 0 && (slash = strchr(p, '/')) != NULL) {
		*slash = '\0';
		next = open_dir(dfd, p, 1);
		close(dfd);
		dfd = next;
		p = slash + 1;
	}
	if (dfd >= 0) {
		if (strncmp(value, "ref:", 4) == 0)
			lz_buf_addf(&b, "ref: %s\n", value + 4);
		else
			lz_buf_addf(&b, "%s\n", value);
		fd = openat(dfd, p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
		if (fd >= 0) {
			rc = lz_write_all(fd, b.buf, b.len);
			close(fd);
		}
		close(dfd);
	}
	lz_buf_release(&b);
	free(copy);
	return rc;
}

/*
 * A packed-refs git refuses (malformed lines) or the guard could not read
 * (too large): its refs made loose (the readable lines; for one too
 * large, the values the log has), then the file moved away.
 */
static int
fix_packed(struct lz_histview *v, struct lz_histdone *d)
{
	struct lz_refset then = LZ_REFSET_INIT;
	const struct lz_refset *p = &v->cache.packed;
	struct stat st;
	long long size;
	size_t i, n = 0;

	if (fstatat(v->gitfd, "packed-refs", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	size = (long long)st.st_size;
	if (v->partial) {
		lz_histlog_state(&v->log, INT64_MAX, &then);
		p = &then;
	} else if (!v->cache.valid || v->cache.bad == 0)
		return 0;
	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, "HEAD") != 0 &&
		    fstatat(v->gitfd, p->v[i].name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 &&
		    write_loose(v->gitfd, p->v[i].name, p->v[i].value) == 0)
			n++;
	if (v->partial)
		lz_buf_addf(&d->lines, "packed-refs is too large for the "
		    "guard to read (%lld bytes): %zu refs written as loose "
		    "refs from the values the guard recorded\n", size, n);
	else
		lz_buf_addf(&d->lines, "packed-refs had %u line%s git cannot "
		    "read: its %zu readable refs were written as loose refs "
		    "(%zu new)\n", v->cache.bad, v->cache.bad == 1 ? "" : "s",
		    p->n, n);
	move_away(v, d, v->gitfd, "packed-refs", "packed-refs");
	lz_refset_release(&then);
	return 0;
}

/* HEAD's value to write: the plan's, else the log's last, else main. */
static int
head_value(const struct lz_histview *v, struct lz_buf *out)
{
	struct lz_refset then;
	const char *h;
	size_t i;

	for (i = 0; i < v->plan.n; i++)
		if (strcmp(v->plan.v[i].name, "HEAD") == 0) {
			lz_buf_adds(out, v->plan.v[i].target);
			return 0;
		}
	for (i = v->log.n; i-- > 0; )
		if (strcmp(v->log.v[i].name, "HEAD") == 0 &&
		    v->log.v[i].new != NULL) {
			lz_buf_adds(out, v->log.v[i].new);
			return 0;
		}
	lz_histlog_state(&v->log, INT64_MAX, &then);
	h = lz_refset_get(&then, "HEAD");
	lz_buf_adds(out, h != NULL ? h : "ref:refs/heads/main");
	lz_refset_release(&then);
	return 0;
}

static int
skeleton(struct lz_histview *v, struct lz_histdone *d, struct lz_err *err)
{
	static const char *const dirs[] = { "objects", "objects/pack",
	    "objects/info", "refs", "refs/heads", "refs/tags" };
	struct lz_buf b = LZ_BUF_INIT;
	const char *base = strrchr(v->rel, '/'), *slash;
	char *parent;
	struct stat st;
	size_t i;
	int wsfd, pfd, rc = 0;

	if (v->gitfd < 0) {
		if ((wsfd = open(v->ws, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) < 0)
			return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
			    v->ws, strerror(errno));
		parent = base != NULL ? lz_xstrndup(v->rel,
		    (size_t)(base - v->rel)) : NULL;
		pfd = parent != NULL ? lz_open_beneath(wsfd, parent, O_RDONLY |
		    O_DIRECTORY, 0) : dup(wsfd);
		close(wsfd);
		free(parent);
		base = base != NULL ? base + 1 : v->rel;
		if (pfd >= 0)
			v->gitfd = open_dir(pfd, base, 1);
		if (pfd >= 0)
			close(pfd);
		if (v->gitfd < 0)
			return lz_err_set(err, LZ_EUNSAFE, "cannot make '%s/%s' "
			    "again: %s (a symlink or a file on its way?)",
			    v->ws, v->rel, strerror(errno));
		lz_buf_addf(&d->lines, "%s made again\n", v->rel);
	}
	/* Parents first: "objects" is a directory before "objects/pack". */
	for (i = 0; i < sizeof dirs / sizeof dirs[0] && rc == 0; i++) {
		if (mkdirat(v->gitfd, dirs[i], 0755) == 0 || (errno == EEXIST &&
		    fstatat(v->gitfd, dirs[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode)))
			continue;
		/* A symlink or file where git keeps a directory: aside. */
		slash = strchr(dirs[i], '/');
		parent = slash != NULL ? lz_xstrndup(dirs[i],
		    (size_t)(slash - dirs[i])) : NULL;
		pfd = parent == NULL ? dup(v->gitfd) : open_dir(v->gitfd,
		    parent, 0);
		free(parent);
		if (pfd >= 0) {
			move_away(v, d, pfd, slash != NULL ? slash + 1 :
			    dirs[i], dirs[i]);
			close(pfd);
		}
		if (mkdirat(v->gitfd, dirs[i], 0755) != 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "'%s/%s/%s' is not a "
			    "directory and cannot be moved away (%s): move it "
			    "away by hand and run again", v->ws, v->rel,
			    dirs[i], strerror(errno));
	}
	if (rc == 0 && fstatat(v->gitfd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) !=
	    0 && errno == ENOENT) {
		head_value(v, &b);
		if (write_loose(v->gitfd, "HEAD", b.buf) == 0)
			lz_buf_addf(&d->lines, "HEAD written back (%s)\n",
			    strncmp(b.buf, "ref:", 4) == 0 ? b.buf + 4 : b.buf);
	}
	lz_buf_release(&b);
	return rc;
}

/* Every kept file the repository lacks, linked (or copied) back. */
static int
bring_back(struct lz_histview *v, struct lz_histdone *d, struct lz_err *err)
{
	struct lz_tokens mine = LZ_TOKENS_INIT;
	struct stat st;
	char name[8], hex[80];
	int sobjs, robjs, s, r, i, ck, rc = 0;
	size_t k;

	sobjs = openat(v->storefd, "objects", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	robjs = open_dir(v->gitfd, "objects", 1);
	if (sobjs < 0 || robjs < 0) {
		rc = sobjs < 0 ? 0 : lz_err_set(err, LZ_ESYS, "cannot open "
		    "%s/objects: %s", v->rel, strerror(errno));
		goto out;
	}
	for (i = 0; i <= LZ_HISTSTORE_PACK && rc == 0; i++) {
		lz_histstore_dir_name(i, name);
		if ((s = open_dir(sobjs, name, 0)) < 0)
			continue;
		lz_tokens_release(&mine);
		(void)lz_histstore_list(s, i == LZ_HISTSTORE_PACK, &mine);
		r = mine.n > 0 ? open_dir(robjs, name, 1) : -1;
		for (k = 0; r >= 0 && k < mine.n; k++) {
			if (fstatat(r, mine.v[k], &st, AT_SYMLINK_NOFOLLOW) ==
			    0 || fstatat(s, mine.v[k], &st,
			    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			/* Git's mode for objects; the drop mark goes. */
			(void)fchmodat(s, mine.v[k], 0444, 0);
			if (linkat(s, mine.v[k], r, mine.v[k], 0) != 0 &&
			    errno != EEXIST &&
			    (ck = lz_histstore_copy(s, r, mine.v[k])) != 0) {
				rc = lz_err_set(err, LZ_ESYS, "cannot put back "
				    "objects/%s/%s: %s", name, mine.v[k],
				    strerror(-ck));
				break;
			}
			d->objects++;
			if (i == LZ_HISTSTORE_PACK)
				ck = lz_objcheck_pack(r, mine.v[k]);
			else {
				snprintf(hex, sizeof hex, "%s%s", name,
				    mine.v[k]);
				ck = lz_objcheck_loose(r, mine.v[k], hex);
			}
			if (ck == LZ_OBJCHECK_DAMAGED) {
				d->damaged++;
				lz_buf_addf(&d->lines, "objects/%s/%s is back "
				    "but does not match its name: it was "
				    "written into in place after it was kept "
				    "(git fsck names what it held)\n", name,
				    mine.v[k]);
			}
		}
		if (r >= 0)
			close(r);
		close(s);
	}
	if (d->objects > 0)
		lz_buf_addf(&d->lines, "%zu object file%s brought back into "
		    "%s/objects\n", d->objects, d->objects == 1 ? "" : "s",
		    v->rel);
out:
	if (sobjs >= 0)
		close(sobjs);
	if (robjs >= 0)
		close(robjs);
	lz_tokens_release(&mine);
	return rc;
}

int
lz_histrestore_objects(struct lz_histview *v, struct lz_histdone *d,
    struct lz_err *err)
{
	static const char *const top[] = { "HEAD", "packed-refs", "index",
	    "shallow" };
	struct stat st;
	size_t i;
	int fd, rc;

	if (v->gitfd >= 0) {
		for (i = 0; i < sizeof top / sizeof top[0]; i++)
			if (fstatat(v->gitfd, top[i], &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
				move_away(v, d, v->gitfd, top[i], top[i]);
		if ((fd = open_dir(v->gitfd, "refs", 0)) >= 0) {
			sanitize_refs(v, d, fd, "refs", 1);
			close(fd);
		}
		sanitize_objects(v, d);
		fix_packed(v, d);
	}
	if ((rc = skeleton(v, d, err)) != 0 || (rc = bring_back(v, d,
	    err)) != 0)
		return rc;
	d->files = (size_t)lz_histfiles_restore(v->gitfd, v->storefd,
	    &d->lines);
	return 0;
}

static int
open_repo(struct lz_histview *v, git_repository **repo, struct lz_err *err)
{
	const git_error *ge;
	char *path = lz_xasprintf("%s/%s", v->ws, v->rel);
	int rc = 0;

	lz_git_init();
	if (strcmp(v->rel, ".git") == 0)
		rc = lz_gitconfig_check(v->ws, err);
	if (rc == 0 && git_repository_open_ext(repo, path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_NO_DOTGIT,
	    NULL) != 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot open '%s' with libgit2 "
		    "after putting it back: %s", path, ge != NULL ?
		    ge->message : "unknown error");
	}
	free(path);
	return rc;
}

int
lz_histrestore_ref(struct lz_histview *v, const struct lz_histloss *l,
    struct lz_histdone *d, struct lz_err *err)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	const git_error *ge;
	git_oid id, cur;
	int rc, g;

	if (strcmp(l->name, "HEAD") == 0 && l->now == NULL) {
		/* Written by skeleton() when it was missing. */
		d->refs++;
		return 0;
	}
	if ((rc = open_repo(v, &repo, err)) != 0)
		return rc;
	if (strncmp(l->target, "ref:", 4) == 0)
		g = git_reference_symbolic_create_matching(&ref, repo, l->name,
		    l->target + 4, 1, l->now, "lazaret git restore");
	else if (git_oid_fromstr(&id, l->target) != 0)
		g = GIT_EINVALID;
	else if (l->now == NULL)
		g = git_reference_create(&ref, repo, l->name, &id, 0,
		    "lazaret git restore");
	else if (strncmp(l->now, "ref:", 4) == 0 ||
	    git_oid_fromstr(&cur, l->now) != 0)
		g = GIT_EINVALID;
	else
		g = git_reference_create_matching(&ref, repo, l->name, &id, 1,
		    &cur, "lazaret git restore");
	if (g == 0) {
		d->refs++;
		lz_buf_addf(&d->lines, "%s set to %.12s\n", l->name,
		    strncmp(l->target, "ref:", 4) == 0 ? l->target + 4 :
		    l->target);
	} else {
		ge = git_error_last();
		rc = lz_err_set(err, g == GIT_EMODIFIED || g == GIT_EEXISTS ?
		    LZ_ECONFLICT : g == GIT_ENOTFOUND || g == GIT_EINVALID ?
		    LZ_ENOTFOUND : LZ_ESYS, "%s not restored: %s", l->name,
		    g == GIT_EMODIFIED || g == GIT_EEXISTS ? "it moved since "
		    "this restore looked (run it again)" : ge != NULL ?
		    ge->message : "libgit2 failed");
	}
	git_reference_free(ref);
	git_repository_free(repo);
	return rc;
}

int
lz_histrestore_finish(struct lz_histview *v,
    const struct lz_histloss *const *done, size_t n, struct lz_histdone *d,
    struct lz_err *err)
{
	git_repository *repo = NULL;
	git_index *idx = NULL;
	git_object *tree = NULL;
	struct lz_histrec *rec = NULL;
	struct stat st;
	int64_t now = lz_history_now_ms();
	size_t i;
	int rc = 0;

	if (fstatat(v->gitfd, "index", &st, AT_SYMLINK_NOFOLLOW) != 0 &&
	    errno == ENOENT && strcmp(v->rel, ".git") == 0 &&
	    (rc = open_repo(v, &repo, err)) == 0) {
		if (git_revparse_single(&tree, repo, "HEAD^{tree}") == 0 &&
		    git_repository_index(&idx, repo) == 0 &&
		    git_index_read_tree(idx, (git_tree *)tree) == 0 &&
		    git_index_write(idx) == 0) {
			d->index = 1;
			lz_buf_adds(&d->lines, "the index was missing: made "
			    "from HEAD (as 'git reset' does; the work tree is "
			    "untouched, 'git status' shows what differs)\n");
		}
		git_index_free(idx);
		git_object_free(tree);
		git_repository_free(repo);
	}
	rc = 0;
	rec = n > 0 ? lz_xreallocarray(NULL, n, sizeof *rec) : NULL;
	for (i = 0; i < n; i++)
		rec[i] = (struct lz_histrec){ now, LZ_HIST_RESTORE,
		    done[i]->now == NULL ? '+' : '~', done[i]->name,
		    done[i]->now, done[i]->target };
	if (n > 0 && lz_histlog_append(v->storefd, rec, n, err) < 0)
		rc = LZ_ESYS;
	free(rec);
	return rc;
}

void
lz_histdone_release(struct lz_histdone *d)
{
	lz_buf_release(&d->lines);
	memset(d, 0, sizeof *d);
}
