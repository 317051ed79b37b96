/*
 * gitconfig.c: listing the files host git reads as configuration, with
 * host git (gitconfig.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gitconfig.h"
#include "core/hostgit.h"
#include "core/pathcheck.h"
#include "core/protect.h"

/* git's MAX_INCLUDE_DEPTH (config.c). */
#define INCLUDE_DEPTH_MAX 10

struct list {
	const char *ws;
	struct lz_gitconfig_files *out;
	struct lz_tokens read;		/* files whose directives were read */
	int special;			/* a target git must not be given */
	struct lz_buf *warnings;
};

static struct lz_gitconfig_file *add(struct list *l, const char *path,
    const char *why);
static char *in_workspace(const char *ws, const char *path);
static char *target(const char *value, const char *from);
static int is_directive(const char *key);
static int parse(struct list *l, const struct lz_buf *out, int depth,
    int origins, struct lz_err *err);
static int read_file(struct list *l, const char *path, int depth,
    int filter, struct lz_err *err);
static int mentions_include(const char *path);
static int regular(const char *ws, const char *path, struct stat *st);

/*
 * path relative to ws when it lies in it: lexically, by its real path, or
 * (missing) by the real path of its nearest existing directory. NULL
 * otherwise. Allocated.
 */
static char *
in_workspace(const char *ws, const char *path)
{
	size_t n = strlen(ws);
	char *real = NULL, *dir, *slash, *rel = NULL, *full;

	if (lz_path_beneath(path, ws) && path[n] == '/')
		return lz_xstrdup(path + n + 1);
	if ((real = realpath(path, NULL)) != NULL) {
		if (lz_path_beneath(real, ws) && real[n] == '/')
			rel = lz_xstrdup(real + n + 1);
		free(real);
		return rel;
	}
	dir = lz_xstrdup(path);
	while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if ((real = realpath(dir, NULL)) != NULL)
			break;
	}
	if (real != NULL) {
		full = lz_xasprintf("%s%s", real, path + strlen(dir));
		if (lz_path_beneath(full, ws) && full[n] == '/')
			rel = lz_xstrdup(full + n + 1);
		free(full);
		free(real);
	}
	free(dir);
	return rel;
}

static struct lz_gitconfig_file *
add(struct list *l, const char *path, const char *why)
{
	struct lz_gitconfig_file *f;
	struct stat st;
	size_t i;

	for (i = 0; i < l->out->n; i++) {
		if (strcmp(l->out->v[i].path, path) == 0)
			return &l->out->v[i];
	}
	l->out->v = lz_xreallocarray(l->out->v, l->out->n + 1,
	    sizeof *l->out->v);
	f = &l->out->v[l->out->n++];
	f->path = lz_xstrdup(path);
	f->rel = in_workspace(l->ws, path);
	f->why = lz_xstrdup(why);
	f->exists = lstat(path, &st) == 0;
	return f;
}

/*
 * The file an include directive in from names (handle_path_include and
 * interpolate_path): NULL when it names none Lazaret can place (no
 * value, "%(prefix)/", an unknown user). Allocated, normalised.
 */
static char *
target(const char *value, const char *from)
{
	const char *home, *rest, *slash;
	struct passwd *pw;
	char *user, *abs, *norm;

	if (value == NULL || *value == '\0' ||
	    strncmp(value, "%(prefix)/", 10) == 0)
		return NULL;
	if (value[0] == '~') {
		slash = strchr(value, '/');
		rest = slash != NULL ? slash : "";
		if (slash == value + 1 || value[1] == '\0')
			home = getenv("HOME");
		else {
			user = slash ? lz_xstrndup(value + 1,
			    (size_t)(slash - value - 1)) :
			    lz_xstrdup(value + 1);
			pw = getpwnam(user);
			free(user);
			home = pw != NULL ? pw->pw_dir : NULL;
		}
		if (home == NULL || home[0] != '/')
			return NULL;
		abs = lz_xasprintf("%s%s", home, rest);
	} else if (value[0] == '/')
		abs = lz_xstrdup(value);
	else
		abs = lz_xasprintf("%.*s/%s", (int)(strrchr(from, '/') - from),
		    from, value);
	norm = lz_path_normalise(abs);
	free(abs);
	return norm;
}

/* include.path or includeif.<condition>.path (git lower-cases both). */
static int
is_directive(const char *key)
{
	size_t n = strlen(key);

	return strcmp(key, "include.path") == 0 ||
	    (strncmp(key, "includeif.", 10) == 0 && n > 15 &&
	    strcmp(key + n - 5, ".path") == 0);
}

/*
 * Reads "SCOPE\0ORIGIN\0KEY\nVALUE\0" records. origins: every "file:"
 * origin is a configuration file (a listing of what git reads). Each
 * include directive's target is added and read in turn.
 */
static int
parse(struct list *l, const struct lz_buf *out, int depth, int origins,
    struct lz_err *err)
{
	const char *p = out->buf, *end = out->buf + out->len;
	const char *scope, *origin, *kv, *nl;
	char *from, *abs, *key, *to, *why;
	int rc = 0;

	while (rc == 0 && p < end) {
		scope = p;
		origin = scope + strlen(scope) + 1;
		if (origin >= end)
			break;
		kv = origin + strlen(origin) + 1;
		if (kv >= end)
			break;
		p = kv + strlen(kv) + 1;
		if (strncmp(origin, "file:", 5) != 0)
			continue;
		/* Relative origins are relative to git's cwd, the workspace. */
		abs = origin[5] == '/' ? lz_xstrdup(origin + 5) :
		    lz_xasprintf("%s/%s", l->ws, origin + 5);
		from = lz_path_normalise(abs);
		free(abs);
		if (origins) {
			why = lz_xasprintf("%s configuration", scope);
			add(l, from, why);
			free(why);
		}
		nl = strchr(kv, '\n');
		key = nl ? lz_xstrndup(kv, (size_t)(nl - kv)) : lz_xstrdup(kv);
		if (is_directive(key) && (to = target(nl ? nl + 1 : NULL,
		    from)) != NULL) {
			why = lz_xasprintf("%s in %s", key, from);
			add(l, to, why);
			free(why);
			if (depth < INCLUDE_DEPTH_MAX)
				rc = read_file(l, to, depth + 1, 0, err);
			free(to);
		}
		free(key);
		free(from);
	}
	return rc;
}

/*
 * 0 when path is a regular file git may be given (st filled): in the
 * workspace reached with no symlink, elsewhere followed as git would. 1
 * when something else is there outside the workspace, 2 inside it (Git
 * Sentry refuses that), -1 when nothing is.
 */
static int
regular(const char *ws, const char *path, struct stat *st)
{
	size_t n = strlen(ws);
	int wsfd, fd, r;

	if (lz_path_beneath(path, ws) && path[n] == '/') {
		if ((wsfd = open(ws, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			return -1;
		fd = lz_open_beneath(wsfd, path + n + 1, O_PATH, 0);
		r = fd < 0 && errno == ENOENT ? -1 : 2;
		close(wsfd);
		if (fd >= 0 && fstat(fd, st) == 0 && S_ISREG(st->st_mode))
			r = 0;
		if (fd >= 0)
			close(fd);
		return r;
	}
	if (stat(path, st) != 0)
		return -1;
	return S_ISREG(st->st_mode) ? 0 : 1;
}

/* 1 when the regular file at path says "include" (any case) somewhere. */
static int
mentions_include(const char *path)
{
	struct lz_buf b = LZ_BUF_INIT;
	char chunk[8192];
	ssize_t n;
	int fd, found;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 1;	/* let git say what it is */
	while ((n = read(fd, chunk, sizeof chunk)) > 0 &&
	    b.len < LZ_PROTECT_MAX_SIZE)
		lz_buf_add(&b, chunk, (size_t)n);
	close(fd);
	found = b.len > 0 && strcasestr(b.buf, "include") != NULL;
	lz_buf_release(&b);
	return found;
}

/*
 * The include directives of the file at path (read once), through "git
 * config --file". Never given to git unless it is a regular file of at
 * most LZ_PROTECT_MAX_SIZE bytes. filter: skip files that cannot hold a
 * directive.
 */
static int
read_file(struct list *l, const char *path, int depth, int filter,
    struct lz_err *err)
{
	struct lz_spawn_result res;
	struct stat st;
	char *what, *arg;
	const char *args[] = { "config", "--file", NULL, "--list",
	    "--show-origin", "--show-scope", "--no-includes", "-z", NULL };
	int rc, r;

	if (lz_tokens_has(&l->read, path) || lstat(path, &st) != 0)
		return 0;
	lz_tokens_push(&l->read, path);
	/* In the workspace nothing is followed (Git Sentry refuses it). */
	if ((r = regular(l->ws, path, &st)) != 0) {
		if (r < 0)
			return 0;
		l->special = 1;
		if (r == 1)
			lz_buf_addf(l->warnings, "'%s' is Git configuration "
			    "(named by an include) but not a regular file: "
			    "Lazaret does not read it, and host git may hang "
			    "or fail on it (SR-4)\n", path);
		return 0;
	}
	if (st.st_size > LZ_PROTECT_MAX_SIZE ||
	    (filter && !mentions_include(path)))
		return 0;
	arg = lz_xstrdup(path);
	args[2] = arg;
	what = lz_xasprintf("cannot read the include directives of '%s'",
	    path);
	lz_spawn_result_init(&res);
	rc = lz_hostgit(l->ws, args, &res, what, err);
	if (rc == 0)
		rc = parse(l, &res.out, depth, 0, err);
	lz_spawn_result_release(&res);
	free(what);
	free(arg);
	return rc;
}

int
lz_gitconfig_list(const char *workspace, const struct lz_tokens *extra,
    struct lz_gitconfig_files *out, struct lz_buf *warnings,
    struct lz_err *err)
{
	struct list l = { workspace, out, LZ_TOKENS_INIT, 0, warnings };
	struct lz_spawn_result res;
	const char *noinc[] = { "config", "--list", "--show-origin",
	    "--show-scope", "--no-includes", "-z", NULL };
	const char *inc[] = { "config", "--list", "--show-origin",
	    "--show-scope", "--includes", "-z", NULL };
	char *what;
	size_t i;
	int rc;

	what = lz_xasprintf("cannot list the Git configuration files of "
	    "'%s'", workspace);
	lz_spawn_result_init(&res);
	rc = lz_hostgit(workspace, noinc, &res, what, err);
	if (rc == 0)
		rc = parse(&l, &res.out, 0, 1, err);
	for (i = 0; rc == 0 && extra != NULL && i < extra->n; i++)
		rc = read_file(&l, extra->v[i], 0, 1, err);
	/* What git itself reads now, by its own rules. */
	if (rc == 0 && !l.special) {
		rc = lz_hostgit(workspace, inc, &res, what, err);
		if (rc == 0)
			rc = parse(&l, &res.out, 0, 1, err);
	}
	lz_spawn_result_release(&res);
	lz_tokens_release(&l.read);
	free(what);
	return rc;
}

void
lz_gitconfig_release(struct lz_gitconfig_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].rel);
		free(f->v[i].why);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}
