/*
 * hooks.c: the hooks host git runs for the workspace and what they read
 * (hooks.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "core/domain.h"
#include "core/hooks.h"
#include "core/pathcheck.h"

static void hook_dir(const char *dir, struct lz_tokens *patterns);

int
lz_hooks_path(const char *open_path, const char *dir, char **value,
    char **abs, struct lz_err *err)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf v = { NULL, 0, 0 };
	const git_error *ge;
	const char *base;
	char *a;
	int rc = 0, grc;

	*value = *abs = NULL;
	lz_git_init();
	if (git_repository_open(&repo, open_path) != 0 ||
	    git_repository_config_snapshot(&cfg, repo) != 0) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_ENOTFOUND, "cannot read the Git config "
		    "of '%s': %s", open_path, ge != NULL ? ge->message :
		    "unknown libgit2 error");
		goto out;
	}
	/* get_path expands a leading "~/" as git does. */
	grc = git_config_get_path(&v, cfg, "core.hooksPath");
	if (grc != 0 && grc != GIT_ENOTFOUND) {
		ge = git_error_last();
		rc = lz_err_set(err, LZ_EINVAL, "cannot read core.hooksPath "
		    "of '%s': %s", dir, ge != NULL ? ge->message : "?");
		goto out;
	}
	if (grc != 0 || v.ptr == NULL || v.ptr[0] == '\0')
		goto out;
	/* Relative to where hooks run: the work tree, else the gitdir. */
	base = git_repository_workdir(repo);
	a = v.ptr[0] == '/' ? lz_xstrdup(v.ptr) : lz_xasprintf("%s/%s",
	    base != NULL ? base : dir, v.ptr);
	*abs = lz_path_normalise(a);
	*value = lz_xstrdup(v.ptr);
	free(a);
out:
	git_buf_dispose(&v);
	git_config_free(cfg);
	git_repository_free(repo);
	return rc;
}

/*
 * Hook frameworks: a hook the host runs (in .git/hooks or the effective
 * core.hooksPath, read on the host) that hands over to a tool which runs
 * commands from a workspace file. The marker is what the framework's own
 * hook says; the files are where the tool reads its commands.
 */
static const struct {
	const char *marker;
	const char *files;
} frameworks[] = {
	{ "pre-commit.com", ".pre-commit-config.yaml" },
	{ "lefthook", "lefthook.yml lefthook.yaml lefthook.toml lefthook.json "
	    ".lefthook.yml .lefthook.yaml .lefthook.toml .lefthook.json "
	    "lefthook-local.yml lefthook-local.yaml .lefthook-local.yml "
	    ".lefthook-local.yaml .lefthook/*/* .lefthook-local/*/*" },
	{ "overcommit", ".overcommit.yml .git-hooks/*/*" },
	{ "lint-staged", ".lintstagedrc .lintstagedrc.json .lintstagedrc.yaml "
	    ".lintstagedrc.yml .lintstagedrc.js .lintstagedrc.cjs "
	    ".lintstagedrc.mjs lint-staged.config.js lint-staged.config.cjs "
	    "lint-staged.config.mjs" },
};
#define HOOK_READ_MAX (256 * 1024)

/* The frameworks the regular files in dir name, their files added. */
static void
hook_dir(const char *dir, struct lz_tokens *patterns)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct dirent *de;
	struct stat st;
	char buf[HOOK_READ_MAX + 1];
	ssize_t n;
	size_t i, j, len;
	DIR *d;
	int fd;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || (len > 7 &&
		    strcmp(de->d_name + len - 7, ".sample") == 0) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, HOOK_READ_MAX);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		for (i = 0; n > 0 && i < sizeof frameworks /
		    sizeof *frameworks; i++) {
			if (memmem(buf, (size_t)n, frameworks[i].marker,
			    strlen(frameworks[i].marker)) == NULL)
				continue;
			lz_tokens_release(&t);
			if (lz_tokens_split(frameworks[i].files, &t, NULL) != 0)
				LZ_BUG("bad framework file list");
			for (j = 0; j < t.n; j++)
				if (!lz_tokens_has(patterns, t.v[j]))
					lz_tokens_push(patterns, t.v[j]);
		}
	}
	closedir(d);
	lz_tokens_release(&t);
}

void
lz_hooks_frameworks(const char *workspace, struct lz_tokens *patterns)
{
	char *git = lz_xasprintf("%s/.git", workspace), *hooks, *value, *abs;

	hooks = lz_xasprintf("%s/hooks", git);
	hook_dir(hooks, patterns);
	if (lz_hooks_path(workspace, git, &value, &abs, NULL) == 0 &&
	    abs != NULL)
		hook_dir(abs, patterns);
	free(value);
	free(abs);
	free(hooks);
	free(git);
}
