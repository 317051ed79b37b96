/*
 * gitconfig.c: listing the files host git reads as configuration, with
 * host git, one checked file at a time (gitconfig.h).
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

/*
 * Keys whose value is a program git runs (git 2.39's Documentation/config
 * pages); "*" is a subsection (which may hold dots). A value naming a
 * file by a path with a '/' in the workspace makes that file something
 * host git runs.
 */
static const char *const command_keys[] = {
	"alias.*", "browser.*.cmd", "browser.*.path", "core.askpass",
	"core.editor", "core.fsmonitor", "core.gitproxy", "core.pager",
	"core.sshcommand", "credential.*.helper", "credential.helper",
	"diff.*.command", "diff.*.textconv", "diff.external",
	"difftool.*.cmd", "difftool.*.path", "filter.*.clean",
	"filter.*.process", "filter.*.smudge", "gpg.*.program",
	"gpg.program", "gpg.ssh.defaultkeycommand", "guitool.*.cmd",
	"instaweb.httpd", "interactive.difffilter", "man.*.cmd",
	"man.*.path", "merge.*.driver", "mergetool.*.cmd",
	"mergetool.*.path", "pager.*", "remote.*.receivepack",
	"remote.*.uploadpack", "sendemail.smtpserver", "sequence.editor",
	"tar.*.command", "uploadpack.packobjectshook", "web.browser",
	NULL
};

struct list {
	const char *ws;
	int wsfd;
	struct lz_gitconfig_files *out;
	struct lz_tokens read;		/* files already read */
};

static struct lz_gitconfig_file *add(struct list *l, const char *path,
    const char *why);
static char *target(const char *value, const char *from);
static int is_directive(const char *key);
static int parse(struct list *l, const struct lz_buf *out, int depth,
    int origins, struct lz_err *err);
static int checked(struct list *l, const struct lz_gitconfig_file *f,
    struct lz_err *err);
static int read_file(struct list *l, const char *path, int depth,
    struct lz_err *err);
static int mentions_include(const char *path);
static int standard(struct list *l, struct lz_err *err);
static char *workspace_of(const char *dir);
static int is_command(const char *key);
static char *program(const char *ws, const char *value);

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
	l->out->v = lz_xgrow(l->out->v, l->out->n + 1, &l->out->alloc,
	    sizeof *l->out->v);
	f = &l->out->v[l->out->n++];
	f->path = lz_xstrdup(path);
	f->rel = lz_path_in(l->ws, path);
	f->why = lz_xstrdup(why);
	f->exists = lstat(path, &st) == 0;
	f->program = 0;
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

/* 1 when key (lower case, as git lists it) names a program git runs. */
static int
is_command(const char *key)
{
	const char *pat, *star;
	size_t i, n = strlen(key), pre, suf;

	for (i = 0; command_keys[i] != NULL; i++) {
		pat = command_keys[i];
		if ((star = strchr(pat, '*')) == NULL) {
			if (strcmp(key, pat) == 0)
				return 1;
			continue;
		}
		pre = (size_t)(star - pat);
		suf = strlen(star + 1);
		if (n > pre + suf && strncmp(key, pat, pre) == 0 &&
		    strcmp(key + n - suf, star + 1) == 0)
			return 1;
	}
	return 0;
}

/*
 * The file the program of a command value names when it is a path (has a
 * '/'): its first word (after an alias's '!', quotes stripped), relative
 * to the workspace, where git runs such commands. NULL for a name git
 * looks up in PATH. Allocated, normalised.
 */
static char *
program(const char *ws, const char *value)
{
	const char *p = value, *e;
	char *word, *abs, *norm;
	char q = 0;

	while (*p == ' ' || *p == '\t' || *p == '!')
		p++;
	if (*p == '"' || *p == '\'')
		q = *p++;
	for (e = p; *e != '\0' && (q ? *e != q : *e != ' ' && *e != '\t' &&
	    *e != ';' && *e != '|' && *e != '&'); e++)
		;
	word = lz_xstrndup(p, (size_t)(e - p));
	if (strchr(word, '/') == NULL) {
		free(word);
		return NULL;
	}
	abs = word[0] == '/' ? lz_xstrdup(word) : lz_xasprintf("%s/%s", ws,
	    word);
	norm = lz_path_normalise(abs);
	free(abs);
	free(word);
	return norm;
}

/*
 * Reads "SCOPE\0ORIGIN\0KEY\nVALUE\0" records. origins: every "file:"
 * origin is a configuration file (a listing of what git reads). Each
 * include directive's target is added and read in turn; a program a
 * command value names in the workspace is added as well.
 */
static int
parse(struct list *l, const struct lz_buf *out, int depth, int origins,
    struct lz_err *err)
{
	const char *p = out->buf, *end = out->buf + out->len;
	const char *scope, *origin, *kv, *nl;
	struct lz_gitconfig_file *f;
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
				rc = read_file(l, to, depth + 1, err);
			free(to);
		} else if (nl != NULL && is_command(key) &&
		    (to = program(l->ws, nl + 1)) != NULL) {
			why = lz_xasprintf("%s in %s", key, from);
			f = add(l, to, why);
			f->program = f->rel != NULL;
			free(why);
			free(to);
		}
		free(key);
		free(from);
	}
	return rc;
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
 * 1 when f may be given to git: in the workspace a readable regular file
 * of sane size reached with no symlink (refused otherwise), elsewhere a
 * regular file as git follows it (a FIFO or device is refused: git would
 * block on it). 0 when there is nothing to read.
 */
static int
checked(struct list *l, const struct lz_gitconfig_file *f,
    struct lz_err *err)
{
	struct stat st;
	char *fix;
	int k;

	if (f->rel != NULL) {
		fix = lz_xasprintf("it is Git configuration (%s): replace it "
		    "with a regular file, or remove what names it", f->why);
		k = lz_protect_inspect(l->wsfd, l->ws, f->rel, 1, fix, NULL,
		    err);
		free(fix);
		return k < 0 ? k : k > 0;
	}
	if (lstat(f->path, &st) != 0 || stat(f->path, &st) != 0)
		return 0;
	if (!S_ISREG(st.st_mode))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is Git configuration "
		    "(%s) but not a regular file: host git, and Lazaret, "
		    "would block or fail reading it; fix the file or the "
		    "include", f->path, f->why);
	return access(f->path, R_OK) == 0 &&
	    st.st_size <= LZ_PROTECT_MAX_SIZE;
}

/*
 * The include directives (and command values) of the file at path (read
 * once), through "git config --file" with no other configuration read,
 * once checked. depth 0: a file of git's own sequence, skipped when it
 * cannot hold a directive (the final listing has its values).
 */
static int
read_file(struct list *l, const char *path, int depth, struct lz_err *err)
{
	struct lz_spawn_result res;
	const struct lz_gitconfig_file *f;
	char *what;
	const char *args[] = { "config", "--file", path, "--list",
	    "--show-origin", "--show-scope", "--no-includes", "-z", NULL };
	int rc;

	if (lz_tokens_has(&l->read, path))
		return 0;
	lz_tokens_push(&l->read, path);
	f = add(l, path, "configuration");
	/* An included file is read whole (commands); others for includes. */
	if ((rc = checked(l, f, err)) <= 0 ||
	    (depth == 0 && !mentions_include(path)))
		return rc < 0 ? rc : 0;
	what = lz_xasprintf("cannot read the include directives of '%s'",
	    path);
	lz_spawn_result_init(&res);
	rc = lz_hostgit(l->ws, "/", args, LZ_HOSTGIT_NO_CONFIG, &res, what,
	    err);
	if (rc == 0)
		rc = parse(l, &res.out, depth, 0, err);
	lz_spawn_result_release(&res);
	free(what);
	return rc;
}

/* The system, global, repository and worktree files. */
static int
standard(struct list *l, struct lz_err *err)
{
	struct lz_spawn_result res;
	const char *args[] = { "config", "--system", "--list",
	    "--show-origin", "--show-scope", "-z", NULL };
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	char *p[4];
	size_t i;
	int rc = 0;

	/* The system file is git's to find; none is fine. */
	lz_spawn_result_init(&res);
	if (lz_hostgit(l->ws, "/", args, LZ_HOSTGIT_NO_CONFIG, &res, "",
	    NULL) == 0)
		rc = parse(l, &res.out, 0, 1, err);
	lz_spawn_result_release(&res);
	p[0] = xdg != NULL && xdg[0] == '/' ? lz_xasprintf("%s/git/config",
	    xdg) : home != NULL && home[0] == '/' ?
	    lz_xasprintf("%s/.config/git/config", home) : NULL;
	p[1] = home != NULL && home[0] == '/' ?
	    lz_xasprintf("%s/.gitconfig", home) : NULL;
	p[2] = lz_xasprintf("%s/.git/config", l->ws);
	p[3] = lz_xasprintf("%s/.git/config.worktree", l->ws);
	for (i = 0; i < 4; i++) {
		if (p[i] != NULL && rc == 0) {
			add(l, p[i], i < 2 ? "global configuration" : i == 2 ?
			    "repository configuration" : "worktree "
			    "configuration (read once extensions."
			    "worktreeConfig is on)");
			rc = read_file(l, p[i], 0, err);
		}
		free(p[i]);
	}
	return rc;
}

int
lz_gitconfig_list(const char *workspace, const struct lz_tokens *extra,
    struct lz_gitconfig_files *out, struct lz_err *err)
{
	struct list l = { workspace, -1, out, LZ_TOKENS_INIT };
	struct lz_spawn_result res;
	const char *inc[] = { "config", "--list", "--show-origin",
	    "--show-scope", "--includes", "-z", NULL };
	char *what;
	size_t i;
	int rc;

	if ((l.wsfd = open(workspace, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open '%s': %s",
		    workspace, strerror(errno));
	rc = standard(&l, err);
	for (i = 0; rc == 0 && extra != NULL && i < extra->n; i++)
		rc = read_file(&l, extra->v[i], 0, err);
	/* What git itself reads now, by its own rules. */
	what = lz_xasprintf("cannot list the Git configuration files of "
	    "'%s'", workspace);
	lz_spawn_result_init(&res);
	if (rc == 0 && (rc = lz_hostgit(workspace, workspace, inc, 0, &res,
	    what, err)) == 0)
		rc = parse(&l, &res.out, 0, 1, err);
	lz_spawn_result_release(&res);
	lz_tokens_release(&l.read);
	close(l.wsfd);
	free(what);
	return rc;
}

/* The nearest directory at or above dir with a .git directory, or NULL. */
static char *
workspace_of(const char *dir)
{
	char *p = lz_xstrdup(dir), *git, *slash;
	struct stat st;

	for (;;) {
		git = lz_xasprintf("%s/.git", p);
		if (lstat(git, &st) == 0 && S_ISDIR(st.st_mode)) {
			free(git);
			return p;
		}
		free(git);
		slash = strrchr(p, '/');
		if (slash == NULL || slash == p) {
			free(p);
			return NULL;
		}
		*slash = '\0';
	}
}

int
lz_gitconfig_check(const char *dir, struct lz_err *err)
{
	struct lz_gitconfig_files files = LZ_GITCONFIG_FILES_INIT;
	struct list l = { NULL, -1, &files, LZ_TOKENS_INIT };
	char *ws = workspace_of(dir);
	int rc = 0;

	if (ws == NULL)
		return 0;
	l.ws = ws;
	if ((l.wsfd = open(ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		rc = standard(&l, err);
		close(l.wsfd);
	}
	lz_tokens_release(&l.read);
	lz_gitconfig_release(&files);
	free(ws);
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
