/*
 * protect.c: the protected host-tool files of the workspace: the built-in
 * list, pattern checks, finding what exists without following anything,
 * and the launch checks of one file (protect.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pathcheck.h"
#include "core/protect.h"

#define PATTERN_MAX 200

/*
 * What the host runs or trusts on its own (docs/host-trust.md): VS Code
 * (folderOpen tasks; settings naming programs, shells and interpreters;
 * a .code-workspace carries both), JetBrains (run configurations, in
 * .idea or shared in .run), dev containers (initializeCommand runs on the
 * host; also the one-file form and named configurations), mise (a
 * trusted path stays trusted whatever the file then says: hooks, env
 * sourcing, tasks).
 */
const char *const lz_protect_default[] = {
	".vscode/tasks.json",
	".vscode/settings.json",
	"*.code-workspace",
	".idea/workspace.xml",
	".idea/runConfigurations/*.xml",
	".run/*.run.xml",
	".devcontainer/devcontainer.json",
	".devcontainer.json",
	".devcontainer/*/devcontainer.json",
	"mise.toml",
	"mise.*.toml",
	".mise.toml",
	".mise.*.toml",
	"mise/config.toml",
	".mise/config.toml",
	".config/mise.toml",
	".config/mise/config.toml",
	".config/mise/conf.d/*.toml",
	NULL
};

struct expand {
	const struct lz_tokens *skip;
	struct lz_protect_set *out;
};

static int has_glob(const char *s, size_t n);
static void add(struct lz_protect_set *s, const char *path, int kind);
static void expand(struct expand *x, int dfd, struct lz_buf *rel,
    const char *rest);
static int cmp_protected(const void *a, const void *b);

void
lz_protect_defaults(struct lz_tokens *t)
{
	size_t i;

	for (i = 0; lz_protect_default[i] != NULL; i++)
		lz_tokens_push(t, lz_protect_default[i]);
}

static int
has_glob(const char *s, size_t n)
{
	return memchr(s, '*', n) != NULL || memchr(s, '?', n) != NULL;
}

int
lz_protect_pattern_valid(const char *p, int globs, const char *key,
    struct lz_err *err)
{
	const char *c = p, *slash;
	size_t len;

	if (strlen(p) > PATTERN_MAX)
		return lz_err_set(err, LZ_EINVAL, "%s '%.40s...' is longer "
		    "than %d bytes", key, p, PATTERN_MAX);
	if (strpbrk(p, "[\\") != NULL || (!globs && strpbrk(p, "*?")))
		return lz_err_set(err, LZ_EINVAL, "%s '%s' has a '%c'; %s", key,
		    p, *strpbrk(p, globs ? "[\\" : "*?[\\"), globs ?
		    "only '*' and '?' are wildcards (within one name)" :
		    "name one file, without wildcards");
	for (;;) {
		slash = strchr(c, '/');
		len = slash ? (size_t)(slash - c) : strlen(c);
		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return lz_err_set(err, LZ_EINVAL, "%s '%s' must be a "
			    "path relative to the workspace, without '.', "
			    "'..', '//' or a '/' at either end (e.g. "
			    "'.vscode/tasks.json')", key, p);
		if (c == p && len == 4 && strncmp(c, ".git", 4) == 0)
			return lz_err_set(err, LZ_EINVAL, "%s '%s' lies in "
			    ".git, which Git Sentry protects on its own", key,
			    p);
		if (slash == NULL)
			return 0;
		c = slash + 1;
	}
}

static void
add(struct lz_protect_set *s, const char *path, int kind)
{
	s->v = lz_xgrow(s->v, s->n + 1, &s->alloc, sizeof *s->v);
	s->v[s->n].path = lz_xstrdup(path);
	s->v[s->n++].kind = kind;
}

/*
 * rest is what is left of the pattern below rel (the directory dfd): its
 * first component is matched against dfd's entries.
 */
static void
expand(struct expand *x, int dfd, struct lz_buf *rel, const char *rest)
{
	const char *slash = strchr(rest, '/');
	size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
	size_t len = rel->len;
	char *comp = lz_xstrndup(rest, n);
	struct dirent *de;
	struct lz_tokens names = LZ_TOKENS_INIT;
	struct stat st;
	DIR *d;
	size_t i;
	int fd;

	if (has_glob(comp, n)) {
		if ((fd = dup(dfd)) >= 0 && (d = fdopendir(fd)) != NULL) {
			while ((de = readdir(d)) != NULL) {
				if (strcmp(de->d_name, ".") != 0 &&
				    strcmp(de->d_name, "..") != 0 &&
				    fnmatch(comp, de->d_name, 0) == 0)
					lz_tokens_push(&names, de->d_name);
			}
			closedir(d);
		} else if (fd >= 0)
			close(fd);
	} else
		lz_tokens_push(&names, comp);
	for (i = 0; i < names.n; i++) {
		lz_buf_addf(rel, "%s%s", len ? "/" : "", names.v[i]);
		if (lz_path_listed(x->skip, rel->buf) ||
		    fstatat(dfd, names.v[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
			;
		else if (slash == NULL)
			add(x->out, rel->buf, S_ISREG(st.st_mode) ? 'f' :
			    S_ISLNK(st.st_mode) ? 'l' : S_ISDIR(st.st_mode) ?
			    'd' : 'o');
		else if (S_ISLNK(st.st_mode))
			add(x->out, rel->buf, 'l');
		else if (S_ISDIR(st.st_mode) && (fd = openat(dfd, names.v[i],
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			expand(x, fd, rel, slash + 1);
			close(fd);
		}
		rel->len = len;
		rel->buf[len] = '\0';
	}
	lz_tokens_release(&names);
	free(comp);
}

static int
cmp_protected(const void *a, const void *b)
{
	return strcmp(((const struct lz_protected *)a)->path,
	    ((const struct lz_protected *)b)->path);
}

void
lz_protect_expand(int wsfd, const struct lz_tokens *patterns,
    const struct lz_tokens *skip, struct lz_protect_set *out)
{
	struct expand x = { skip, out };
	struct lz_buf rel = LZ_BUF_INIT;
	size_t i, j;

	lz_buf_adds(&rel, "");
	for (i = 0; i < patterns->n; i++)
		expand(&x, wsfd, &rel, patterns->v[i]);
	lz_buf_release(&rel);
	if (out->n == 0)
		return;
	qsort(out->v, out->n, sizeof *out->v, cmp_protected);
	for (i = j = 1; i < out->n; i++) {
		if (strcmp(out->v[i].path, out->v[j - 1].path) == 0)
			free(out->v[i].path);
		else
			out->v[j++] = out->v[i];
	}
	out->n = j;
}

const struct lz_protected *
lz_protect_find(const struct lz_protect_set *s, const char *path)
{
	struct lz_protected key = { (char *)path, 0 };

	if (s->n == 0)
		return NULL;
	return bsearch(&key, s->v, s->n, sizeof *s->v, cmp_protected);
}

void
lz_protect_release(struct lz_protect_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int
lz_protect_inspect(int wsfd, const char *ws, const char *rel, int strict,
    const char *fix, struct lz_buf *warnings, struct lz_err *err)
{
	struct stat st;
	const char *what;
	int fd;

	fd = lz_open_beneath(wsfd, rel, O_PATH, 0);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && errno == ELOOP)
		return lz_err_set(err, LZ_EUNSAFE, "'%s/%s' cannot be reached "
		    "without following a symbolic link, and Lazaret follows "
		    "none (SR-4); %s", ws, rel, fix);
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return lz_err_set(err, LZ_ESYS, "cannot inspect '%s/%s': %s; "
		    "%s", ws, rel, strerror(errno), fix);
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		what = S_ISLNK(st.st_mode) ? "a symbolic link (Lazaret "
		    "follows none, so it cannot protect what it names)" :
		    S_ISDIR(st.st_mode) ? "a directory, where a file is "
		    "expected" : S_ISFIFO(st.st_mode) ? "a FIFO, not a file" :
		    S_ISSOCK(st.st_mode) ? "a socket, not a file" :
		    "a device, not a file";
		return lz_err_set(err, LZ_EUNSAFE, "'%s/%s' is %s (SR-4); %s",
		    ws, rel, what, fix);
	}
	fd = lz_open_beneath(wsfd, rel, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0) {
		if (strict)
			return lz_err_set(err, LZ_EUNSAFE, "cannot read "
			    "'%s/%s': %s (host git cannot either); %s", ws, rel,
			    strerror(errno), fix);
		lz_buf_addf(warnings, "'%s/%s' cannot be read (%s): mounted "
		    "read-only as it is (SR-4)\n", ws, rel, strerror(errno));
		return 'f';
	}
	close(fd);
	if (st.st_size > LZ_PROTECT_MAX_SIZE) {
		if (strict)
			return lz_err_set(err, LZ_EUNSAFE, "'%s/%s' is %lld "
			    "bytes, over Lazaret's limit of %d MiB for a file "
			    "host git reads as configuration (a sandbox may "
			    "have written it); %s", ws, rel,
			    (long long)st.st_size,
			    LZ_PROTECT_MAX_SIZE / (1024 * 1024), fix);
		lz_buf_addf(warnings, "'%s/%s' is %lld bytes, unusually large "
		    "for an editor or tool file: mounted read-only as it is; "
		    "check it (SR-4)\n", ws, rel, (long long)st.st_size);
	}
	return 'f';
}
