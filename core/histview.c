/*
 * histview.c: a repository's kept history, read for "lazaret git
 * restore" (histview.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/history.h"
#include "core/histview.h"
#include "core/pathcheck.h"
#include "core/readat.h"

static long q_lost(void *ctx, const char *value);
static int q_ff(void *ctx, const char *from, const char *to);

static long
q_lost(void *ctx, const char *value)
{
	struct lz_histview *v = ctx;

	return lz_histgit_lost(v->git, value, &v->now, LZ_HISTGIT_LOST_MAX,
	    NULL, NULL);
}

static int
q_ff(void *ctx, const char *from, const char *to)
{
	return lz_histgit_ff(((struct lz_histview *)ctx)->git, from, to);
}

int
lz_histview_stores(const char *domain_root, struct lz_tokens *keys,
    struct lz_tokens *rels, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct dirent *de;
	char *dir = lz_xasprintf("%s/" LZ_HISTORY_DIR, domain_root);
	DIR *d;
	int fd, sub;
	size_t i, j;
	char *t;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS, "cannot "
		    "open the history stores: %s", strerror(errno));
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return lz_err_set(err, LZ_ESYS, "cannot list the history "
		    "stores: %s", strerror(errno));
	}
	while ((de = readdir(d)) != NULL) {
		if (strlen(de->d_name) != 16 ||
		    strspn(de->d_name, "0123456789abcdef") != 16 ||
		    (sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) < 0)
			continue;
		if (lz_readat(sub, LZ_HISTORY_GITDIR_FILE, PATH_MAX, &b,
		    NULL) == LZ_READAT_OK && b.len > 1 &&
		    b.buf[b.len - 1] == '\n' && memchr(b.buf, '\0', b.len) ==
		    NULL) {
			b.buf[--b.len] = '\0';
			lz_tokens_push(keys, de->d_name);
			lz_tokens_push(rels, b.buf);
		}
		close(sub);
	}
	closedir(d);
	lz_buf_release(&b);
	/* By path: the workspace's .git first. */
	for (i = 1; i < rels->n; i++)
		for (j = i; j > 0 && strcmp(rels->v[j - 1], rels->v[j]) > 0;
		    j--) {
			t = rels->v[j];
			rels->v[j] = rels->v[j - 1];
			rels->v[j - 1] = t;
			t = keys->v[j];
			keys->v[j] = keys->v[j - 1];
			keys->v[j - 1] = t;
		}
	return 0;
}

int
lz_histview_open(struct lz_histview *v, const char *ws,
    const char *domain_root, const char *key, const char *only,
    int64_t to_ms, struct lz_err *err)
{
	struct lz_histsync sync = LZ_HISTSYNC_INIT;
	struct lz_histstore st;
	struct lz_histq q = { q_lost, q_ff, v };
	struct lz_buf rel = LZ_BUF_INIT, full = LZ_BUF_INIT;
	struct lz_refset then;
	const char *dirs[1], *name = NULL;
	size_t i;
	int partial = 0, rc;

	memset(v, 0, sizeof *v);
	lz_buf_init(&v->warnings);
	v->storefd = v->gitfd = -1;
	st.fd = -1;
	v->ws = lz_xstrdup(ws);
	v->key = lz_xstrdup(key);
	v->store = lz_xasprintf("%s/" LZ_HISTORY_DIR "/%s", domain_root, key);
	v->storefd = open(v->store, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (v->storefd < 0) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "cannot open the history "
		    "store '%s': %s", v->store, strerror(errno));
		goto out;
	}
	if (lz_readat(v->storefd, LZ_HISTORY_GITDIR_FILE, PATH_MAX, &rel,
	    NULL) != LZ_READAT_OK || rel.len < 2) {
		rc = lz_err_set(err, LZ_EINVAL, "the history store '%s' does "
		    "not say which git directory it keeps", v->store);
		goto out;
	}
	rel.buf[strcspn(rel.buf, "\n")] = '\0';
	v->rel = lz_xstrdup(rel.buf);
	v->gitfd = lz_history_gitdir(ws, v->rel);
	if ((rc = lz_histlog_read(v->storefd, &v->log, &v->warnings,
	    err)) != 0 || (rc = lz_histstore_open(&st, v->storefd, 0,
	    err)) != 0)
		goto out;
	/* The repository's objects of now, into the store (never read). */
	if (v->gitfd >= 0)
		rc = lz_histstore_sync(&st, v->gitfd, 1,
		    lz_history_now_ms(), &sync, err);
	if (rc == 0 && v->gitfd >= 0)
		rc = lz_histrefs_read(v->gitfd, &v->cache, &v->now,
		    &v->warnings, &partial, err);
	if (rc != 0)
		goto out;
	/* An unreadable packed-refs: its refs stand as the log has them. */
	v->partial = partial;
	if (partial) {
		lz_histlog_state(&v->log, INT64_MAX, &then);
		for (i = 0; i < then.n; i++)
			if (lz_refset_get(&v->now, then.v[i].name) == NULL)
				lz_refset_push(&v->now, then.v[i].name,
				    then.v[i].value);
		lz_refset_sort(&v->now);
		lz_refset_release(&then);
	}
	lz_buf_adds(&v->warnings, sync.notes.buf);
	v->missing = v->gitfd < 0 || (sync.objects_gone &&
	    lz_refset_get(&v->now, "HEAD") == NULL);
	lz_buf_addf(&full, "%s/objects", v->store);
	dirs[0] = full.buf;
	if ((rc = lz_histgit_open(&v->git, dirs, 1, err)) != 0)
		goto out;
	if (only != NULL && (name = lz_histplan_ref(&v->log, &v->now, only,
	    &rel)) == NULL) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "no ref '%s' in what the "
		    "guard recorded for %s", only, v->rel);
		goto out;
	}
	lz_histplan_make(&v->log, &v->now, name, to_ms, &q, &v->plan);
	rc = lz_histstore_space(v->storefd, v->gitfd, &v->space, err);
out:
	lz_histstore_close(&st);
	lz_histsync_release(&sync);
	lz_buf_release(&rel);
	lz_buf_release(&full);
	return rc;
}

long
lz_histview_commits(struct lz_histview *v, const struct lz_histloss *l,
    long max, lz_histgit_commit_fn fn, void *ctx)
{
	return lz_histgit_lost(v->git, l->target, &v->now, max, fn, ctx);
}

void
lz_histview_release(struct lz_histview *v)
{
	lz_histgit_free(v->git);
	lz_histplan_release(&v->plan);
	lz_histrefs_cache_release(&v->cache);
	lz_refset_release(&v->now);
	lz_histlog_release(&v->log);
	lz_buf_release(&v->warnings);
	if (v->storefd >= 0)
		close(v->storefd);
	if (v->gitfd >= 0)
		close(v->gitfd);
	free(v->ws);
	free(v->rel);
	free(v->key);
	free(v->store);
	memset(v, 0, sizeof *v);
	lz_buf_init(&v->warnings);
	v->storefd = v->gitfd = -1;
}

int
lz_histview_domain(struct lz_domain *d, const struct lz_paths *paths,
    const char *profile, const char *dir, struct lz_err *err)
{
	char *p, *slash, *hist;
	char id[LZ_DOMAIN_ID_LEN + 1];
	struct stat st;
	int found = 0;

	memset(d, 0, sizeof *d);
	if ((p = realpath(dir, NULL)) == NULL)
		return lz_err_set(err, errno == ENOENT ? LZ_ENOTFOUND : LZ_ESYS,
		    "cannot use '%s': %s", dir, strerror(errno));
	for (;;) {
		lz_domain_id(profile, p, id);
		hist = lz_xasprintf("%s/domains/%s/" LZ_HISTORY_DIR,
		    paths->storage_root, id);
		found = lstat(hist, &st) == 0 && S_ISDIR(st.st_mode);
		free(hist);
		if (found)
			break;
		if ((slash = strrchr(p, '/')) == NULL || slash == p)
			break;
		*slash = '\0';
	}
	if (!found) {
		free(p);
		return lz_err_set(err, LZ_ENOTFOUND, "no history kept for "
		    "'%s' or a directory above it with profile '%s'", dir,
		    profile);
	}
	d->workspace = p;
	d->profile = lz_xstrdup(profile);
	memcpy(d->id, id, sizeof d->id);
	d->root = lz_xasprintf("%s/domains/%s", paths->storage_root, d->id);
	d->runtime = lz_xasprintf("%s/%s", paths->runtime_base, d->id);
	return 0;
}
