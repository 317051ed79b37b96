/*
 * ignored-fit.c: fitting the Ignored Workspace State into the mounts a
 * sandbox can take (ignored.h: lz_ignored_fit). Past LZ_IGNORED_MAX_MOUNTS
 * paths, those under a directory that holds nothing Git tracks are
 * isolated as that directory instead (isolation only grows: the sandbox
 * sees none of the host's files there, tracked or not, as before); when
 * even that is too many, the error names the paths recorded last, which
 * pushed the count over, and the command that recovers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/domain.h"
#include "core/ignored.h"

#define SHOWN 8		/* paths named in the error */

struct top {
	char *top;		/* collapsible ancestor ("out/"), or NULL */
	size_t idx;		/* index in ig->paths */
};

struct entry {
	char *path;
	long long added;
};

static char	*untracked_top(git_index *index, const char *p);
static int	 top_cmp(const void *a, const void *b);
static int	 entry_cmp(const void *a, const void *b);
static int	 age_cmp(const void *a, const void *b, void *ig);
static void	 sort_paths(struct lz_ignored *ig);
static int	 collapse(const char *workspace, struct lz_ignored *ig);
static int	 too_many(const struct lz_ignored *ig, struct lz_err *err);

/* The highest proper ancestor of p that holds nothing tracked, or NULL. */
static char *
untracked_top(git_index *index, const char *p)
{
	const char *e;
	char *prefix;
	size_t pos;

	for (e = strchr(p, '/'); e != NULL && e[1] != '\0'; e = strchr(e + 1,
	    '/')) {
		prefix = lz_xstrndup(p, (size_t)(e - p) + 1);
		if (git_index_find_prefix(&pos, index, prefix) == GIT_ENOTFOUND)
			return prefix;
		free(prefix);
	}
	return NULL;
}

static int
top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->top == NULL || y->top == NULL)
		return (x->top == NULL) - (y->top == NULL);
	return strcmp(x->top, y->top);
}

static int
entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
	    ((const struct entry *)b)->path);
}

/* Sorts ig->paths, keeping ig->added beside each. */
static void
sort_paths(struct lz_ignored *ig)
{
	struct entry *e = lz_xcalloc(ig->paths.n + 1, sizeof *e);
	size_t i;

	for (i = 0; i < ig->paths.n; i++) {
		e[i].path = ig->paths.v[i];
		e[i].added = ig->added[i];
	}
	qsort(e, ig->paths.n, sizeof *e, entry_cmp);
	for (i = 0; i < ig->paths.n; i++) {
		ig->paths.v[i] = e[i].path;
		ig->added[i] = e[i].added;
	}
	free(e);
}

/* Replaces paths sharing a collapsible ancestor by it; 1 if any was. */
static int
collapse(const char *workspace, struct lz_ignored *ig)
{
	struct lz_tokens out = LZ_TOKENS_INIT;
	git_repository *repo = NULL;
	git_index *index = NULL;
	struct top *t;
	long long *added, newest;
	size_t i, j, k, n = ig->paths.n;
	int changed = 0;

	lz_git_init();
	if (git_repository_open(&repo, workspace) != 0 ||
	    git_repository_index(&index, repo) != 0) {
		git_repository_free(repo);
		return 0;
	}
	t = lz_xcalloc(n + 1, sizeof *t);
	for (i = 0; i < n; i++) {
		t[i].top = untracked_top(index, ig->paths.v[i]);
		t[i].idx = i;
	}
	qsort(t, n, sizeof *t, top_cmp);
	added = lz_xcalloc(n + 1, sizeof *added);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && t[i].top != NULL && t[j].top != NULL &&
		    strcmp(t[i].top, t[j].top) == 0; j++)
			;
		if (t[i].top != NULL && j - i >= 2) {
			newest = 0;
			for (k = i; k < j; k++)
				if (ig->added != NULL && ig->added[t[k].idx] >
				    newest)
					newest = ig->added[t[k].idx];
			added[out.n] = newest;
			lz_tokens_push(&out, t[i].top);
			changed = 1;
			continue;
		}
		for (k = i; k < j; k++) {
			added[out.n] = ig->added != NULL ?
			    ig->added[t[k].idx] : 0;
			lz_tokens_push(&out, ig->paths.v[t[k].idx]);
		}
	}
	for (i = 0; i < n; i++)
		free(t[i].top);
	free(t);
	if (changed) {
		lz_tokens_release(&ig->paths);
		ig->paths = out;
		free(ig->added);
		ig->added = added;
		sort_paths(ig);
	} else {
		lz_tokens_release(&out);
		free(added);
	}
	git_index_free(index);
	git_repository_free(repo);
	return changed;
}

static int
age_cmp(const void *a, const void *b, void *arg)
{
	const struct lz_ignored *ig = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	long long ax = ig->added ? ig->added[x] : 0;
	long long ay = ig->added ? ig->added[y] : 0;

	if (ax != ay)
		return ax < ay ? -1 : 1;
	return strcmp(ig->paths.v[x], ig->paths.v[y]);
}

/* The error of too many paths, with the ones recorded last. */
static int
too_many(const struct lz_ignored *ig, struct lz_err *err)
{
	struct lz_buf last = LZ_BUF_INIT;
	size_t *order, i, over, n = ig->paths.n, shown = 0;
	int rc;

	/* Oldest first (unknown times first), then by path: what lies
	 * beyond the limit came last. */
	order = lz_xcalloc(n + 1, sizeof *order);
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof *order, age_cmp, (void *)ig);
	over = n - LZ_IGNORED_MAX_MOUNTS;
	for (i = n - over; i < n && shown < SHOWN; i++, shown++)
		lz_buf_addf(&last, "%s'%s'", shown ? ", " : "",
		    ig->paths.v[order[i]]);
	if (over > shown)
		lz_buf_addf(&last, " and %zu more", over - shown);
	rc = lz_err_set(err, LZ_EINVAL, "the workspace has %zu ignored paths "
	    "to isolate, more than the %d mounts a sandbox is given (paths "
	    "under a directory that holds nothing tracked already count as "
	    "that directory); the paths recorded last, which pushed it over: "
	    "%s. %zu of the %zu are only in the Domain's record (the ignore "
	    "rules no longer name them). If the sandbox changed .gitignore, "
	    "restore it and run 'lazaret state reset --ignored "
	    "--forget-paths' (it shows what the next launch would share and "
	    "asks first); otherwise name a parent directory in .gitignore "
	    "instead of many below it ('out/' for 'out/a' and 'out/b'), or "
	    "set ignored-isolation = off in the profile", n,
	    LZ_IGNORED_MAX_MOUNTS, last.buf, ig->stale.n, n);
	lz_buf_release(&last);
	free(order);
	return rc;
}

int
lz_ignored_fit(const char *workspace, struct lz_ignored *ig,
    struct lz_err *err)
{
	if (ig->paths.n <= LZ_IGNORED_MAX_MOUNTS)
		return 0;
	collapse(workspace, ig);
	return ig->paths.n <= LZ_IGNORED_MAX_MOUNTS ? 0 : too_many(ig, err);
}
