/*
 * repos.c: the census of repositories in the workspace and moving the
 * ones the sandbox made out of host git's way (repos.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pathcheck.h"
#include "core/quarantine.h"
#include "core/repos.h"

/* Deeper directories are not read (each level holds a descriptor). */
#define DEPTH_MAX 128
#define GITFILE_MAX 4096
#define HEAD_MAX 255

struct walk {
	const struct lz_tokens *skip;
	struct lz_repos *out;
};

struct entry {
	char *name;
	int dir;
};

static int head_valid(int dfd);
static int gitdir_fd(int dfd);
static void add(struct lz_repos *r, const char *path, int kind,
    const struct stat *st);
static void dotgit(struct walk *w, int dfd, const char *path);
static void walk(struct walk *w, int dfd, struct lz_buf *rel, int depth);
static void read_dir(int dfd, struct entry **v, size_t *n);
static const struct lz_repo *find_known(const struct lz_repos *launch,
    const struct lz_repo *e);
static int clean_components(const char *p);
static int in_modules(int wsfd, const char *dir, int dfd);
static void stopper(int dfd, const char *name, const char *to);
static int gitfile_live(int dfd);
static int move(int wsfd, const char *ws, const char *dir, const char *name,
    const char *prefix, const char *why, struct lz_buf *log,
    struct lz_err *err);

/* validate_headref (git's path.c) on dfd/HEAD, never blocking. */
static int
head_valid(int dfd)
{
	char buf[HEAD_MAX + 1], *p;
	struct stat st;
	ssize_t len;
	int fd, i;

	if (fstatat(dfd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	if (S_ISLNK(st.st_mode)) {
		len = readlinkat(dfd, "HEAD", buf, sizeof buf - 1);
		return len >= 5 && memcmp(buf, "refs/", 5) == 0;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	fd = openat(dfd, "HEAD", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, HEAD_MAX);
	close(fd);
	if (len < 0)
		return 0;
	buf[len] = '\0';
	if (strncmp(buf, "ref:", 4) == 0) {
		for (p = buf + 4; *p == ' ' || *p == '\t' || *p == '\n'; p++)
			;
		return strncmp(p, "refs/", 5) == 0;
	}
	for (i = 0; i < 40 && ((buf[i] >= '0' && buf[i] <= '9') ||
	    (buf[i] >= 'a' && buf[i] <= 'f')); i++)
		;
	return i == 40;
}

/* is_gitdir on an open directory. */
static int
gitdir_fd(int dfd)
{
	struct stat o, r;

	if (!head_valid(dfd))
		return 0;
	if (fstatat(dfd, "commondir", &o, AT_SYMLINK_NOFOLLOW) == 0)
		return 1;
	return fstatat(dfd, "objects", &o, 0) == 0 && S_ISDIR(o.st_mode) &&
	    fstatat(dfd, "refs", &r, 0) == 0 && S_ISDIR(r.st_mode);
}

int
lz_repos_is_gitdir(int dirfd, const char *name)
{
	int fd, r;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = gitdir_fd(fd);
	close(fd);
	return r;
}

static void
add(struct lz_repos *r, const char *path, int kind, const struct stat *st)
{
	struct lz_repo *e;

	r->v = lz_xgrow(r->v, r->n + 1, &r->alloc, sizeof *r->v);
	e = &r->v[r->n++];
	memset(e, 0, sizeof *e);
	e->path = lz_xstrdup(path);
	e->kind = kind;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
}

/* Every entry of dfd but "." and "..", with whether it is a directory. */
static void
read_dir(int dfd, struct entry **v, size_t *n)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	size_t alloc = 0;
	int fd, isdir;

	*v = NULL;
	*n = 0;
	if ((fd = dup(dfd)) < 0)
		return;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		isdir = de->d_type == DT_DIR;
		if (de->d_type == DT_UNKNOWN &&
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			isdir = S_ISDIR(st.st_mode);
		*v = lz_xgrow(*v, *n + 1, &alloc, sizeof **v);
		(*v)[*n].name = lz_xstrdup(de->d_name);
		(*v)[(*n)++].dir = isdir;
	}
	closedir(d);
}

/* The ".git" entry of dfd, at path. */
static void
dotgit(struct walk *w, int dfd, const char *path)
{
	struct lz_repo *e;
	struct stat st;

	if (fstatat(dfd, ".git", &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	add(w->out, path, S_ISDIR(st.st_mode) ? LZ_REPO_DOTGIT_DIR :
	    S_ISREG(st.st_mode) ? LZ_REPO_DOTGIT_FILE : LZ_REPO_DOTGIT_OTHER,
	    &st);
	e = &w->out->v[w->out->n - 1];
	if (e->kind == LZ_REPO_DOTGIT_DIR) {
		e->valid = lz_repos_is_gitdir(dfd, ".git");
		e->commondir = fstatat(dfd, ".git/commondir", &st,
		    AT_SYMLINK_NOFOLLOW) == 0;
	}
}

static void
walk(struct walk *w, int dfd, struct lz_buf *rel, int depth)
{
	struct entry *v;
	struct stat st;
	size_t i, n, len = rel->len;
	int fd;

	if (rel->len > 0 && gitdir_fd(dfd)) {
		if (fstat(dfd, &st) == 0) {
			add(w->out, rel->buf, LZ_REPO_GITDIR, &st);
			w->out->v[w->out->n - 1].commondir = fstatat(dfd,
			    "commondir", &st, AT_SYMLINK_NOFOLLOW) == 0;
		}
		return;
	}
	w->out->dirs++;
	read_dir(dfd, &v, &n);
	for (i = 0; i < n; i++) {
		lz_buf_addf(rel, "%s%s", len > 0 ? "/" : "", v[i].name);
		if (strcmp(v[i].name, ".git") == 0 && len > 0)
			dotgit(w, dfd, rel->buf);
		else if (v[i].dir && strcmp(v[i].name, ".git") != 0 &&
		    depth < DEPTH_MAX) {
			if (!lz_path_listed(w->skip, rel->buf)) {
				fd = openat(dfd, v[i].name, O_RDONLY |
				    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (fd >= 0) {
					walk(w, fd, rel, depth + 1);
					close(fd);
				}
			}
		}
		rel->len = len;
		rel->buf[len] = '\0';
		free(v[i].name);
	}
	free(v);
}

int
lz_repos_scan(const char *workspace, const struct lz_tokens *skip,
    struct lz_repos *out, struct lz_err *err)
{
	struct walk w = { skip, out };
	struct lz_buf rel = LZ_BUF_INIT;
	int fd;

	fd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot read '%s': %s",
		    workspace, strerror(errno));
	lz_buf_adds(&rel, "");
	walk(&w, fd, &rel, 0);
	close(fd);
	lz_buf_release(&rel);
	return 0;
}

static const struct lz_repo *
find_known(const struct lz_repos *launch, const struct lz_repo *e)
{
	const struct lz_repo *l;
	size_t i;

	for (i = 0; launch != NULL && i < launch->n; i++) {
		l = &launch->v[i];
		if (l->kind != e->kind || l->dev != e->dev || l->ino != e->ino)
			continue;
		if (e->kind == LZ_REPO_DOTGIT_DIR ||
		    e->kind == LZ_REPO_GITDIR || strcmp(l->path, e->path) == 0)
			return l;
	}
	return NULL;
}

int
lz_repos_known(const struct lz_repos *launch, const struct lz_repo *e)
{
	return find_known(launch, e) != NULL;
}

/* 1 when p (relative) has no empty, "." or ".." component. */
static int
clean_components(const char *p)
{
	const char *c = p, *slash;
	size_t len;

	for (;;) {
		slash = strchr(c, '/');
		len = slash ? (size_t)(slash - c) : strlen(c);
		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		if (slash == NULL)
			return 1;
		c = slash + 1;
	}
}

/*
 * 1 when the ".git" file in dfd (the directory dir, relative to the
 * workspace wsfd) says "gitdir: X" with X inside .git/modules, as git
 * writes it ("../" only at its start, then plain names; absolute paths
 * refused), reached with no symlink on the way.
 */
static int
in_modules(int wsfd, const char *dir, int dfd)
{
	char buf[GITFILE_MAX + 1], *x, *rel = NULL, *base, *p;
	const char *slash;
	ssize_t len;
	int fd, k, up = 0, depth = 1, ok = 0;

	if ((fd = openat(dfd, ".git", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) < 0)
		return 0;
	len = read(fd, buf, GITFILE_MAX);
	close(fd);
	if (len <= 8 || strncmp(buf, "gitdir: ", 8) != 0)
		return 0;
	buf[len] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	for (x = buf + 8; strncmp(x, "../", 3) == 0; x += 3)
		up++;
	for (slash = dir; (slash = strchr(slash, '/')) != NULL; slash++)
		depth++;
	if (x[0] == '/' || up > depth || !clean_components(x))
		return 0;
	/* The first depth - up components of dir, then x. */
	base = lz_xstrdup(dir);
	if (up == depth)
		base[0] = '\0';
	else {
		for (p = base, k = 1; k < depth - up; k++)
			p = strchr(p, '/') + 1;
		if ((p = strchr(p, '/')) != NULL)
			*p = '\0';
	}
	rel = base[0] ? lz_xasprintf("%s/%s", base, x) : lz_xstrdup(x);
	free(base);
	if (strncmp(rel, ".git/modules/", 13) == 0 &&
	    (fd = lz_open_beneath(wsfd, rel, O_RDONLY | O_DIRECTORY, 0)) >= 0) {
		close(fd);
		ok = 1;
	}
	free(rel);
	return ok;
}

/*
 * A ".git" file in dfd that git refuses ("invalid gitfile format": it
 * does not start with "gitdir: "), so git run there stops with an error
 * instead of going up to the workspace's own repository (the agent's next
 * "git add" would land there), saying why. The census leaves such a file
 * alone (gitfile_live).
 */
static void
stopper(int dfd, const char *name, const char *to)
{
	char *text;
	int fd;

	fd = openat(dfd, ".git", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	text = lz_xasprintf("lazaret: Git Sentry (SR-4) moved %s here to "
	    "%s: host git would have read the configuration of a repository "
	    "made in the workspace while a Domain ran. This file stops git "
	    "here. Make repositories outside /workspace (/tmp) or in a "
	    "Git-ignored directory.\n", strcmp(name, "HEAD") == 0 ?
	    "this git directory's HEAD" : ".git", to);
	(void)!write(fd, text, strlen(text));
	close(fd);
	free(text);
}

/* 1 when the ".git" file in dfd is one git follows ("gitdir: ..."). */
static int
gitfile_live(int dfd)
{
	char buf[8];
	int fd;
	ssize_t n;

	fd = openat(dfd, ".git", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof buf);
	close(fd);
	return n == (ssize_t)sizeof buf && memcmp(buf, "gitdir: ", 8) == 0;
}

/*
 * Renames name in the directory dir (relative to the workspace) to a
 * quarantine name. 1 when moved (a line in log), 0 when there was nothing
 * to move, or an error.
 */
static int
move(int wsfd, const char *ws, const char *dir, const char *name,
    const char *prefix, const char *why, struct lz_buf *log,
    struct lz_err *err)
{
	char *to = NULL, *head = NULL;
	int dfd, qfd, rc = 0;

	if ((dfd = lz_open_beneath(wsfd, dir, O_RDONLY | O_DIRECTORY, 0)) < 0)
		return 0;	/* gone or changed since the scan */
	if (lz_quarantine(dfd, name, prefix, &to) != 0) {
		if (errno != ENOENT)
			rc = lz_err_set(err, LZ_ESYS, "cannot move %s/%s/%s "
			    "out of host Git's way: %s; remove it before "
			    "running git on the host", ws, dir, name,
			    strerror(errno));
		close(dfd);
		return rc;
	}
	/* A moved directory keeps no HEAD: no git directory either. */
	if (strcmp(name, ".git") == 0 && (qfd = openat(dfd, to, O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		(void)lz_quarantine(qfd, "HEAD", LZ_REPOS_Q_HEAD, &head);
		close(qfd);
	}
	if (strcmp(name, "commondir") != 0)
		stopper(dfd, name, to);
	lz_buf_addf(log, "Git Sentry (SR-4): moved %s/%s/%s to %s/%s/%s",
	    ws, dir, name, ws, dir, to);
	if (head != NULL)
		lz_buf_addf(log, " (and its HEAD to %s)", head);
	lz_buf_addf(log, ": %s\n", why);
	free(head);
	free(to);
	close(dfd);
	return 1;
}

int
lz_repos_guard(const char *workspace, const struct lz_repos *launch,
    const struct lz_repos *now, struct lz_buf *log, struct lz_err *err)
{
	const struct lz_repo *e, *l;
	struct lz_err sub = LZ_ERR_INIT;
	char *dir;
	size_t i;
	int wsfd, dfd, r, moved = 0, rc = 0;

	if ((wsfd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
	for (i = 0; i < now->n; i++) {
		e = &now->v[i];
		l = find_known(launch, e);
		r = 0;
		if (e->kind == LZ_REPO_GITDIR) {
			if (l == NULL)
				r = move(wsfd, workspace, e->path, "HEAD",
				    LZ_REPOS_Q_HEAD, "that directory became a "
				    "git directory while the Domain ran (host "
				    "git run in it would read its config)",
				    log, &sub);
			else if (e->commondir && !l->commondir)
				r = move(wsfd, workspace, e->path,
				    "commondir", LZ_REPOS_Q_COMMONDIR, "it "
				    "would send host git to another "
				    "directory's config and hooks", log,
				    &sub);
		} else if (l != NULL) {
			if (e->kind == LZ_REPO_DOTGIT_DIR && e->commondir &&
			    !l->commondir)
				r = move(wsfd, workspace, e->path,
				    "commondir", LZ_REPOS_Q_COMMONDIR, "it "
				    "would send host git to another "
				    "directory's config and hooks", log,
				    &sub);
		} else {
			dir = lz_xstrndup(e->path, strlen(e->path) - 5);
			dfd = lz_open_beneath(wsfd, dir, O_RDONLY |
			    O_DIRECTORY, 0);
			if (dfd >= 0 && (e->kind != LZ_REPO_DOTGIT_FILE ||
			    (gitfile_live(dfd) && !in_modules(wsfd, dir, dfd))))
				r = move(wsfd, workspace, dir, ".git",
				    LZ_REPOS_Q_DOTGIT, "a repository that was "
				    "not there at launch (host git run in that "
				    "directory, or a shell prompt there, would "
				    "read its config)", log, &sub);
			if (dfd >= 0)
				close(dfd);
			free(dir);
		}
		if (r > 0)
			moved++;
		else if (r < 0 && rc == 0) {
			rc = lz_err_set(err, r, "%s", sub.msg);
			lz_err_release(&sub);
		} else
			lz_err_release(&sub);
	}
	close(wsfd);
	return rc != 0 ? rc : moved;
}

void
lz_repos_release(struct lz_repos *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].path);
	free(r->v);
	memset(r, 0, sizeof *r);
}
