/*
 * hostcmd-dir.c: where and with what an approved host command runs
 * (hostcmd.h): its program found in PATH, its working directory beneath
 * the host workspace, its environment, and its output kept within the
 * wire limit. Starting it is hostcmd.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hostcmd.h"
#include "core/pathcheck.h"
#include "core/spawn.h"

static int	clean_rel(const char *in, struct lz_buf *out);
static int	isolated_has(const struct lz_tokens *isolated,
		    const char *rel);

int
lz_hostcmd_resolve(const char *name, const char *path, char **out,
    struct lz_err *err)
{
	if (path == NULL || *path == '\0')
		path = LZ_SPAWN_PATH_DEFAULT;
	return lz_spawn_find(name, path, out, err);
}

/*
 * The components of in without empty and "." ones, joined by '/'.
 * Returns -1 when one is "..".
 */
static int
clean_rel(const char *in, struct lz_buf *out)
{
	const char *p = in, *end;
	size_t n;

	while (*p != '\0') {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -1;
		if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (out->len > 0)
				lz_buf_addch(out, '/');
			lz_buf_add(out, p, n);
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Whether rel is an isolated path or lies beneath one. */
static int
isolated_has(const struct lz_tokens *isolated, const char *rel)
{
	struct lz_buf e = LZ_BUF_INIT;
	size_t i;
	int hit = 0;

	for (i = 0; isolated != NULL && i < isolated->n && !hit; i++) {
		lz_buf_reset(&e);
		if (clean_rel(isolated->v[i], &e) == 0 && e.len > 0)
			hit = lz_path_beneath(rel, e.buf);
	}
	lz_buf_release(&e);
	return hit;
}

int
lz_hostcmd_dir_open(const char *workspace, const char *sandbox_cwd,
    const struct lz_tokens *isolated, struct lz_hostcmd_dir *d,
    struct lz_err *err)
{
	static const char ws[] = LZ_HOSTCMD_SANDBOX_WORKSPACE;
	struct lz_buf rel = LZ_BUF_INIT;
	int wsfd, fd = -1;

	memset(d, 0, sizeof *d);
	d->fd = -1;
	wsfd = open(workspace, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (wsfd < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open the workspace "
		    "'%s': %s", workspace, strerror(errno));
	if (strncmp(sandbox_cwd, ws, sizeof ws - 1) != 0 ||
	    (sandbox_cwd[sizeof ws - 1] != '\0' &&
	    sandbox_cwd[sizeof ws - 1] != '/'))
		d->why = "the request's directory is not in /workspace";
	else if (clean_rel(sandbox_cwd + sizeof ws - 1, &rel) != 0)
		d->why = "the request's directory names a parent with '..'";
	else if (rel.len > 0 && isolated_has(isolated, rel.buf))
		d->why = "the request's directory is in a Git-ignored path "
		    "the sandbox has its own copy of";
	else if (rel.len > 0 && (fd = lz_open_beneath(wsfd, rel.buf,
	    O_PATH | O_DIRECTORY, 0)) < 0)
		d->why = errno == ENOSYS ? "this kernel has no openat2 to "
		    "open the request's directory safely" : "the request's "
		    "directory does not resolve beneath the workspace "
		    "without a symlink";
	if (d->why != NULL || rel.len == 0) {
		lz_buf_reset(&rel);
		d->fd = wsfd;
	} else {
		d->fd = fd;
		close(wsfd);
	}
	d->rel = lz_buf_detach(&rel);
	d->host = d->rel[0] ? lz_xasprintf("%s/%s", workspace, d->rel) :
	    lz_xstrdup(workspace);
	return 0;
}

void
lz_hostcmd_dir_release(struct lz_hostcmd_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->rel);
	free(d->host);
	memset(d, 0, sizeof *d);
	d->fd = -1;
}

void
lz_hostcmd_env_collect(const struct lz_tokens *names,
    char *(*get)(const char *), struct lz_tokens *out)
{
	const char *v;
	size_t i;

	for (i = 0; i < names->n; i++)
		if ((v = get(names->v[i])) != NULL)
			lz_tokens_pushf(out, "%s=%s", names->v[i], v);
}

void
lz_hostcmd_env(const struct lz_tokens *names, const struct lz_tokens *given,
    struct lz_tokens *envp)
{
	size_t i, j, n;

	for (i = 0; i < names->n; i++) {
		n = strlen(names->v[i]);
		if (strcmp(names->v[i], "GIT_TERMINAL_PROMPT") == 0)
			continue;
		for (j = 0; given != NULL && j < given->n; j++) {
			if (strncmp(given->v[j], names->v[i], n) == 0 &&
			    given->v[j][n] == '=') {
				lz_tokens_push(envp, given->v[j]);
				break;
			}
		}
	}
	lz_tokens_push(envp, "GIT_TERMINAL_PROMPT=0");
}

void
lz_hostcmd_output_init(struct lz_hostcmd_output *o)
{
	memset(o, 0, sizeof *o);
	lz_buf_init(&o->buf);
}

void
lz_hostcmd_output_add(struct lz_hostcmd_output *o, const void *data,
    size_t len)
{
	size_t room = o->buf.len < LZ_HOSTCMD_OUTPUT_MAX ?
	    LZ_HOSTCMD_OUTPUT_MAX - o->buf.len : 0;

	o->total += len;
	if (len > room)
		o->truncated = 1;
	lz_buf_add(&o->buf, data, len < room ? len : room);
}

void
lz_hostcmd_output_release(struct lz_hostcmd_output *o)
{
	lz_buf_release(&o->buf);
	o->total = 0;
	o->truncated = 0;
}
