/*
 * history.c: the Git history guard's passes (history.h): objects kept
 * (histstore.c), refs read (histrefs.c) and compared with the log
 * (histlog.c), each change asked about (histgit.c, in a child while the
 * sandbox runs), and what was lost said.
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

#include <openssl/evp.h>

#include "core/gitdirs.h"
#include "core/gsreport.h"
#include "core/histfiles.h"
#include "core/histgit.h"
#include "core/histlog.h"
#include "core/history.h"
#include "core/packidx.h"
#include "core/pathcheck.h"
#include "core/repos.h"
#include "core/rundir.h"
#include "core/snapshot.h"
#include "core/spawn.h"
#include "core/visible.h"

#define WALK_FILE "walk.req"

struct change {
	char *name, *old, *new;
	long lost;		/* commits lost, -1 not known */
	int ff;
	char kind;
};

struct changes {
	struct change *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};

static int repo_open(struct lz_history *h, const char *rel,
    struct lz_buf *log, struct lz_err *err);
static void say_once(struct lz_histrepo *r, struct lz_buf *log,
    const char *lines);
static int on_diff(void *ctx, const char *name, const char *old,
    const char *new);
static void ask_inproc(struct lz_history *h, struct lz_histrepo *r,
    struct changes *c, const struct lz_refset *now);
static void ask_child(struct lz_history *h, struct lz_histrepo *r,
    struct changes *c, const struct lz_refset *now, struct lz_buf *log);
static char kind_of(const struct change *c);
static void detect(const struct lz_histrepo *r, const struct change *c,
    struct lz_tokens *found);
static long vanished(int gitfd, int storeobjs, const struct lz_histsync *s);
static int pass_repo(struct lz_history *h, struct lz_histrepo *r,
    int full, enum lz_hist_who who, int inproc, int ask, int64_t now_ms,
    struct lz_buf *log, struct lz_tokens *found, struct lz_err *err);
static void short_value(const char *v, char out[16]);

int
lz_history_gitdir(const char *ws, const char *rel)
{
	int wsfd, fd = -1;

	if ((wsfd = open(ws, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fd = lz_open_beneath(wsfd, rel, O_RDONLY | O_DIRECTORY, 0);
		close(wsfd);
	}
	return fd;
}

int64_t
lz_history_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
lz_history_key(const char *rel, char key[17])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_Digest(rel, strlen(rel), md, &n, EVP_sha256(), NULL) != 1 ||
	    n < 8)
		LZ_BUG("SHA-256 failed");
	lz_hex(md, 8, key);
}

static void
short_value(const char *v, char out[16])
{
	if (v == NULL)
		snprintf(out, 16, "nothing");
	else if (strncmp(v, "ref:", 4) == 0)
		snprintf(out, 16, "%.15s", v + 4);
	else
		snprintf(out, 16, "%.7s", v);
}

/* Lines of notes not said before for r, each once, into log. */
static void
say_once(struct lz_histrepo *r, struct lz_buf *log, const char *lines)
{
	const char *p, *nl;
	char *line;

	for (p = lines; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		line = lz_xstrndup(p, (size_t)(nl - p));
		if (!lz_tokens_has(&r->said, line)) {
			lz_tokens_push(&r->said, line);
			lz_buf_addf(log, "Git history guard: %s: %s\n", r->rel,
			    line);
		}
		free(line);
	}
}

static int
repo_open(struct lz_history *h, const char *rel, struct lz_buf *log,
    struct lz_err *err)
{
	struct lz_buf warn = LZ_BUF_INIT, sub = LZ_BUF_INIT;
	struct lz_histlog hl = LZ_HISTLOG_INIT;
	struct lz_histrepo *r;
	char key[17];
	int fd, rc;

	lz_history_key(rel, key);
	lz_buf_addf(&sub, LZ_HISTORY_DIR "/%s", key);
	fd = lz_rundir_ensure(h->root, 0, sub.buf, err);
	lz_buf_release(&sub);
	if (fd < 0)
		return lz_err_prefix(err, fd, "cannot make the history store "
		    "of '%s'", rel);
	h->repos = lz_xgrow(h->repos, h->n + 1, &h->alloc, sizeof *h->repos);
	r = &h->repos[h->n++];
	memset(r, 0, sizeof *r);
	r->rel = lz_xstrdup(rel);
	r->key = lz_xstrdup(key);
	r->storefd = fd;
	r->objs.fd = -1;
	/* Which git directory this store keeps, for restore's listing. */
	lz_buf_addf(&warn, "%s\n", rel);
	fd = openat(r->storefd, LZ_HISTORY_GITDIR_FILE, O_WRONLY | O_CREAT |
	    O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || lz_write_all(fd, warn.buf, warn.len) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot write the history store "
		    "of '%s': %s", rel, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	lz_buf_reset(&warn);
	if ((rc = lz_histstore_open(&r->objs, r->storefd, 0, err)) != 0 ||
	    (rc = lz_histlog_read(r->storefd, &hl, &warn, err)) != 0)
		goto out;
	say_once(r, log, warn.buf);
	lz_histlog_state(&hl, INT64_MAX, &r->known);
out:
	lz_histlog_release(&hl);
	lz_buf_release(&warn);
	return rc;
}

int
lz_history_init(struct lz_history *h, const char *workspace,
    const char *domain_root, const struct lz_tokens *isolated,
    int64_t keep_ms, uint64_t copy_max, const char *walker,
    struct lz_buf *log, struct lz_err *err)
{
	struct lz_repos census = LZ_REPOS_INIT;
	struct lz_gitdirs dirs = LZ_GITDIRS_INIT;
	size_t i;
	int rc;

	memset(h, 0, sizeof *h);
	lz_buf_init(&h->note);
	h->ws = lz_xstrdup(workspace);
	h->root = lz_xstrdup(domain_root);
	h->keep_ms = keep_ms;
	h->walker = walker;
	if ((rc = lz_repos_scan(workspace, isolated, &census, err)) != 0 ||
	    (rc = lz_gitdirs_list(workspace, &census, &dirs, err)) != 0)
		goto out;
	for (i = 0; i < dirs.n && rc == 0; i++)
		if (dirs.v[i].kind == LZ_GITDIR_REPO)
			rc = repo_open(h, dirs.v[i].path + strlen(workspace) +
			    1, log, err);
	for (i = 0; i < h->n; i++)
		if (copy_max != 0)
			h->repos[i].objs.copy_max = copy_max;
out:
	lz_gitdirs_release(&dirs);
	lz_repos_release(&census);
	return rc;
}

static int
on_diff(void *ctx, const char *name, const char *old, const char *new)
{
	struct changes *c = ctx;

	c->v = lz_xgrow(c->v, c->n + 1, &c->alloc, sizeof *c->v);
	c->v[c->n].name = lz_xstrdup(name);
	c->v[c->n].old = old != NULL ? lz_xstrdup(old) : NULL;
	c->v[c->n].new = new != NULL ? lz_xstrdup(new) : NULL;
	c->v[c->n].lost = 0;
	c->v[c->n].ff = -1;
	c->n++;
	return 0;
}

/* What a move or deletion lost, answered here (no sandbox runs). */
static void
ask_inproc(struct lz_history *h, struct lz_histrepo *r, struct changes *c,
    const struct lz_refset *now)
{
	struct lz_histgit *g = NULL;
	char *dir = lz_xasprintf("%s/" LZ_HISTORY_DIR "/%s/objects", h->root,
	    r->key);
	const char *dirs[1];
	size_t i;

	dirs[0] = dir;
	if (lz_histgit_open(&g, dirs, 1, NULL) != 0) {
		for (i = 0; i < c->n; i++)
			c->v[i].lost = -1;
		free(dir);
		return;
	}
	for (i = 0; i < c->n; i++) {
		if (c->v[i].old == NULL)
			continue;
		c->v[i].lost = lz_histgit_lost(g, c->v[i].old, now,
		    LZ_HISTGIT_LOST_MAX, NULL, NULL);
		if (c->v[i].new != NULL)
			c->v[i].ff = lz_histgit_ff(g, c->v[i].old, c->v[i].new);
	}
	lz_histgit_free(g);
	free(dir);
}

/* The same questions in a child (histgit.h): the sandbox runs. */
static void
ask_child(struct lz_history *h, struct lz_histrepo *r, struct changes *c,
    const struct lz_refset *now, struct lz_buf *log)
{
	struct lz_spawn_opts o = { NULL, NULL, "/", 0,
	    LZ_HISTORY_WALK_TIMEOUT_MS };
	struct lz_spawn_result res;
	struct lz_buf req = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *file = lz_xasprintf("%s/" LZ_HISTORY_DIR "/%s/" WALK_FILE,
	    h->root, r->key), *p, *end;
	const char *argv[] = { h->walker, "__history-walk", file, NULL };
	int64_t t0;
	size_t i, k = 0;
	int fd, rc;

	lz_spawn_result_init(&res);
	for (i = 0; i < c->n; i++)
		c->v[i].lost = -1;
	lz_buf_addf(&req, "lazaret-history-walk 1\nobjects %s/"
	    LZ_HISTORY_DIR "/%s/objects\n", h->root, r->key);
	for (i = 0; i < now->n; i++)
		if (lz_ref_oid_ok(now->v[i].value) &&
		    strncmp(now->v[i].name, "refs/lazaret/", 13) != 0)
			lz_buf_addf(&req, "hide %s\n", now->v[i].value);
	for (i = 0; i < c->n; i++)
		lz_buf_addf(&req, "check %s %s\n", c->v[i].old != NULL &&
		    lz_ref_oid_ok(c->v[i].old) ? c->v[i].old : "-",
		    c->v[i].new != NULL && lz_ref_oid_ok(c->v[i].new) ?
		    c->v[i].new : "-");
	fd = openat(r->storefd, WALK_FILE, O_WRONLY | O_CREAT | O_TRUNC |
	    O_NOFOLLOW | O_CLOEXEC, 0600);
	rc = fd < 0 ? -errno : lz_write_all(fd, req.buf, req.len);
	if (fd >= 0)
		close(fd);
	t0 = lz_spawn_now_ms();
	if (rc == 0)
		rc = lz_spawn_capture(argv, &o, &res, &err);
	h->walk_ms_now += (uint64_t)(lz_spawn_now_ms() - t0);
	if (rc != 0 || res.status != 0) {
		say_once(r, log, "cannot tell whether commits were lost (the "
		    "history walk failed; see the coordinator log)\n");
		if (rc != 0 || res.err.len > 0)
			lz_buf_addf(log, "Git history guard: %s: history walk: "
			    "%s\n", r->rel, rc != 0 ? err.msg : res.err.buf);
	} else
		for (p = res.out.buf; k < c->n && *p != '\0'; k++) {
			c->v[k].lost = strtol(p, &end, 10);
			c->v[k].ff = (int)strtol(end, &p, 10);
			p += strspn(p, "\n");
		}
	(void)unlinkat(r->storefd, WALK_FILE, 0);
	lz_spawn_result_release(&res);
	lz_err_release(&err);
	lz_buf_release(&req);
	free(file);
}

static char
kind_of(const struct change *c)
{
	if (c->old == NULL)
		return '+';
	if (c->lost < 0)
		return '?';
	if (c->lost > 0)
		return '!';
	if (c->new == NULL)
		return '-';
	return c->ff == 1 ? '>' : '~';
}

/* The detection a change is, if it is one (names escaped: shown later). */
static void
detect(const struct lz_histrepo *r, const struct change *c,
    struct lz_tokens *found)
{
	char o[16], n[16], *name = lz_visible_str(c->name, LZ_VISIBLE_ASCII);

	(void)r;
	short_value(c->old, o);
	short_value(c->new, n);
	if (c->kind == '!' && c->new != NULL)
		lz_tokens_pushf(found, "%s moved from %s to %s: %ld commit%s "
		    "no ref reaches any more", name, o, n, c->lost,
		    c->lost == 1 ? "" : "s");
	else if (c->kind == '!')
		lz_tokens_pushf(found, "%s (at %s) was deleted: %ld commit%s "
		    "no ref reaches any more", name, o, c->lost,
		    c->lost == 1 ? "" : "s");
	else if (c->kind == '-' && strncmp(c->name, "refs/tags/", 10) == 0)
		lz_tokens_pushf(found, "tag %s (at %s) was deleted", name, o);
	else if (c->kind == '?' && strcmp(c->name, "HEAD") != 0)
		lz_tokens_pushf(found, "%s went from %s to %s, and its old "
		    "commits cannot be read to tell what was lost", name, o,
		    n);
	free(name);
}

/*
 * Objects that left the repository now and are in none of its packs:
 * dropped loose objects not written again, objects of dropped packs.
 */
static long
vanished(int gitfd, int storeobjs, const struct lz_histsync *s)
{
	struct lz_packidx *idx = NULL, gone = LZ_PACKIDX_INIT;
	unsigned char oid[32];
	char hex[65], path[80];
	struct dirent *de;
	struct stat st;
	int objs = -1, rpack = -1, spack, fd;
	size_t nidx = 0, aidx = 0, i, j, k, hl;
	long count = 0;
	DIR *d = NULL;

	if (s->gone_loose.n == 0 && s->gone_packs.n == 0)
		return 0;
	if (gitfd >= 0 && (objs = openat(gitfd, "objects", O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
		rpack = openat(objs, "pack", O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
	spack = openat(storeobjs, "pack", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	/* The packs the repository has now, read from the store's links. */
	if (spack >= 0 && rpack >= 0 && (fd = dup(spack)) >= 0 &&
	    (d = fdopendir(fd)) != NULL)
		while ((de = readdir(d)) != NULL) {
			hl = strlen(de->d_name);
			if (hl < 5 || strcmp(de->d_name + hl - 4, ".idx") != 0 ||
			    fstatat(rpack, de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			idx = lz_xgrow(idx, nidx + 1, &aidx, sizeof *idx);
			if (lz_packidx_read(spack, de->d_name, &idx[nidx],
			    NULL) == 0)
				nidx++;
		}
	if (d != NULL)
		closedir(d);
	for (k = 0; k < s->gone_loose.n + s->gone_packs.n; k++) {
		if (k >= s->gone_loose.n && (spack < 0 ||
		    lz_packidx_read(spack, s->gone_packs.v[k -
		    s->gone_loose.n], &gone, NULL) != 0))
			continue;
		for (j = 0; j < (k < s->gone_loose.n ? 1 : gone.n); j++) {
			if (k < s->gone_loose.n) {
				snprintf(hex, sizeof hex, "%s",
				    s->gone_loose.v[k]);
				hl = strlen(hex) / 2;
				if (lz_unhex(hex, hl, oid) != 0)
					continue;
			} else {
				hl = gone.hashlen;
				memcpy(oid, lz_packidx_name(&gone, (uint32_t)j),
				    hl);
				lz_hex(oid, hl, hex);
			}
			snprintf(path, sizeof path, "%.2s/%s", hex, hex + 2);
			if (objs >= 0 && fstatat(objs, path, &st,
			    AT_SYMLINK_NOFOLLOW) == 0)
				continue;
			for (i = 0; i < nidx; i++)
				if (idx[i].hashlen == hl &&
				    lz_packidx_has(&idx[i], oid))
					break;
			count += i == nidx;
		}
		lz_packidx_release(&gone);
	}
	for (i = 0; i < nidx; i++)
		lz_packidx_release(&idx[i]);
	free(idx);
	if (spack >= 0)
		close(spack);
	if (rpack >= 0)
		close(rpack);
	if (objs >= 0)
		close(objs);
	return count;
}

static int
pass_repo(struct lz_history *h, struct lz_histrepo *r, int full,
    enum lz_hist_who who, int inproc, int ask, int64_t now_ms,
    struct lz_buf *log, struct lz_tokens *found, struct lz_err *err)
{
	struct lz_histsync sync = LZ_HISTSYNC_INIT;
	struct lz_refset now = LZ_REFSET_INIT;
	struct lz_buf notes = LZ_BUF_INIT;
	struct changes c = { NULL, 0, 0 };
	struct lz_histrec *rec = NULL;
	size_t i;
	int gitfd = -1, partial = 0, rc, gone;
	long gone_objs;

	gitfd = lz_history_gitdir(h->ws, r->rel);
	if ((rc = lz_histstore_sync(&r->objs, gitfd, full || gitfd < 0 ||
	    r->gone, now_ms, &sync, err)) != 0)
		goto out;
	say_once(r, log, sync.notes.buf);
	/* config, shallow, info/exclude...: what a .git needs again. */
	if (full && gitfd >= 0)
		lz_histfiles_keep(gitfd, r->storefd, &notes);
	if (gitfd >= 0 && (rc = lz_histrefs_read(gitfd, &r->cache, &now,
	    &notes, &partial, err)) != 0)
		goto out;
	say_once(r, log, notes.buf);
	/* What could not be read stands as it was: no false deletion. */
	for (i = 0; partial && i < r->known.n; i++)
		if (lz_refset_get(&now, r->known.v[i].name) == NULL)
			lz_refset_push(&now, r->known.v[i].name,
			    r->known.v[i].value);
	if (partial)
		lz_refset_sort(&now);
	(void)lz_refset_diff(&r->known, &now, on_diff, &c);
	gone = gitfd < 0 || (sync.objects_gone &&
	    lz_refset_get(&now, "HEAD") == NULL);
	if (c.n > 0 && !inproc && h->walker != NULL && !ask) {
		/*
		 * The walker ran too recently: these ref changes wait for a
		 * later pass (the log keeps the value before them). Objects
		 * were kept above all the same.
		 */
		h->deferred = 1;
		for (i = 0; i < c.n; i++) {
			free(c.v[i].name);
			free(c.v[i].old);
			free(c.v[i].new);
		}
		c.n = 0;
		goto objects;
	}
	if (c.n > 0) {
		if (inproc || h->walker == NULL)
			ask_inproc(h, r, &c, &now);
		else
			ask_child(h, r, &c, &now, log);
	}
	rec = c.n ? lz_xreallocarray(NULL, c.n, sizeof *rec) : NULL;
	for (i = 0; i < c.n; i++) {
		c.v[i].kind = kind_of(&c.v[i]);
		rec[i] = (struct lz_histrec){ now_ms, who, c.v[i].kind,
		    c.v[i].name, c.v[i].old, c.v[i].new };
	}
	rc = lz_histlog_append(r->storefd, rec, c.n, err);
	if (rc == 1 && !r->log_full)
		lz_buf_addf(log, "Git history guard: %s: the ref log reached "
		    "%lld MiB: ref changes are no longer recorded until the "
		    "next launch compacts it\n", r->rel,
		    LZ_HISTLOG_MAX >> 20);
	r->log_full |= rc == 1;
	if (rc < 0)
		goto out;
	rc = 0;
	lz_refset_release(&r->known);
	r->known = now;
	memset(&now, 0, sizeof now);
objects:
	if (who == LZ_HIST_HOST) {
		r->gone = gone;
		goto out;	/* the developer's own doing: nothing to say */
	}
	if (gone && !r->gone)
		lz_tokens_pushf(found, "%s is gone: its HEAD, objects and "
		    "refs; all are kept in the Domain Root", r->rel);
	r->gone = gone;
	for (i = 0; !gone && i < c.n; i++)
		detect(r, &c.v[i], found);
	if (!gone && (gone_objs = vanished(gitfd, r->objs.fd, &sync)) > 0)
		lz_tokens_pushf(found, "%ld object%s left %s/objects and %s in "
		    "no pack it has", gone_objs, gone_objs == 1 ? "" : "s",
		    r->rel, gone_objs == 1 ? "is" : "are");
out:
	if (sync.kept > 0)
		lz_buf_addf(log, "Git history guard: %s: kept %zu file%s "
		    "(%zu copied, %llu KiB)\n", r->rel, sync.kept,
		    sync.kept == 1 ? "" : "s", sync.copies,
		    (unsigned long long)(sync.copy_bytes >> 10));
	if (c.n > 0)
		lz_buf_addf(log, "Git history guard: %s: %zu ref change%s "
		    "recorded\n", r->rel, c.n, c.n == 1 ? "" : "s");
	for (i = 0; i < c.n; i++) {
		free(c.v[i].name);
		free(c.v[i].old);
		free(c.v[i].new);
	}
	free(c.v);
	free(rec);
	if (gitfd >= 0)
		close(gitfd);
	lz_refset_release(&now);
	lz_buf_release(&notes);
	lz_histsync_release(&sync);
	return rc;
}

int
lz_history_launch(struct lz_history *h, int64_t now_ms, struct lz_buf *log,
    struct lz_err *err)
{
	struct lz_tokens found = LZ_TOKENS_INIT;
	struct lz_histspace sp;
	struct lz_snapshot snap;
	struct lz_err sub = LZ_ERR_INIT;
	struct lz_histrepo *r;
	struct timespec t0, t1;
	size_t i;
	int rc = 0, gitfd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* The developer's uncommitted work, before the sandbox can touch it. */
	if (lz_snapshot_prune(h->ws, now_ms - h->keep_ms, &sub) < 0) {
		lz_buf_addf(log, "Git history guard: %s\n", sub.msg);
		lz_err_release(&sub);
	}
	rc = lz_snapshot_make(h->ws, "launch", now_ms, &snap, &sub);
	if (rc == 0) {
		lz_buf_addf(log, "Git history guard: uncommitted work saved "
		    "as %s (%zu path%s of the work tree, %s)\n", snap.ref,
		    snap.paths, snap.paths == 1 ? "" : "s", snap.staged ?
		    "and the index" : "the index as HEAD");
		h->snapshot = lz_xstrdup(snap.ref);
	} else if (rc < 0) {
		lz_buf_addf(log, "Git history guard: %s\n", sub.msg);
		lz_err_release(&sub);
	}
	if (snap.notes.len > 0)
		lz_buf_addf(log, "Git history guard: snapshot: %s",
		    snap.notes.buf);
	lz_snapshot_release(&snap);
	rc = 0;
	for (i = 0; i < h->n && rc == 0; i++) {
		r = &h->repos[i];
		gitfd = lz_history_gitdir(h->ws, r->rel);
		rc = lz_histstore_expire(&r->objs, gitfd, now_ms, h->keep_ms,
		    &sp, err);
		if (gitfd >= 0)
			close(gitfd);
		if (rc == 0 && sp.released > 0)
			lz_buf_addf(log, "Git history guard: %s: released %llu "
			    "file%s (%llu KiB) the repository dropped more "
			    "than the keep time ago\n", r->rel,
			    (unsigned long long)sp.released,
			    sp.released == 1 ? "" : "s",
			    (unsigned long long)(sp.released_bytes >> 10));
		if (rc == 0)
			rc = lz_histlog_compact(r->storefd, now_ms - h->keep_ms,
			    err);
		if (rc == 0)
			rc = pass_repo(h, r, 1, LZ_HIST_HOST, 1, 1, now_ms,
			    log, &found, err);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	lz_buf_addf(log, "Git history guard: launch pass: %zu repositor%s in "
	    "%lld ms\n", h->n, h->n == 1 ? "y" : "ies",
	    (long long)((t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000));
	lz_tokens_release(&found);
	return rc;
}

int
lz_history_due(const struct lz_history *h, uint64_t mono_ms, int poked)
{
	uint64_t gap = h->pass_ms * 20;

	if (poked)
		return mono_ms - h->last_pass >= (gap > LZ_HISTORY_SOON_MS ?
		    gap : LZ_HISTORY_SOON_MS);
	return mono_ms - h->last_pass >= (gap > LZ_HISTORY_PASS_MS ? gap :
	    LZ_HISTORY_PASS_MS);
}

int
lz_history_pass(struct lz_history *h, int final, uint64_t mono_ms,
    int64_t now_ms, struct lz_buf *log, struct lz_err *err)
{
	struct lz_tokens found = LZ_TOKENS_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	struct lz_buf report = LZ_BUF_INIT;
	struct lz_histspace sp;
	struct timespec t0, t1;
	size_t i;
	int rc = 0, r, gitfd, ask;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* The walker at most every 20 times its last run (5% of a CPU). */
	ask = final || mono_ms - h->last_walk >= h->walk_ms * 20;
	h->deferred = 0;
	h->walk_ms_now = 0;
	for (i = 0; i < h->n; i++) {
		r = pass_repo(h, &h->repos[i], final, LZ_HIST_DOMAIN, final,
		    ask, now_ms, log, &found, &sub);
		if (r != 0 && rc == 0)
			rc = lz_err_set(err, r, "%s", sub.msg);
		lz_err_release(&sub);
		if (!final)
			continue;
		gitfd = lz_history_gitdir(h->ws, h->repos[i].rel);
		(void)lz_histstore_expire(&h->repos[i].objs, gitfd, now_ms,
		    h->keep_ms, &sp, NULL);
		if (gitfd >= 0)
			close(gitfd);
	}
	for (i = 0; i < found.n; i++) {
		lz_buf_addf(&report, "Git history guard: history changed: "
		    "%s ('lazaret git restore' brings it back)\n",
		    found.v[i]);
		if (i == 0) {
			lz_buf_reset(&h->note);
			lz_buf_adds(&h->note, found.v[0]);
		}
	}
	if (found.n > 1)
		lz_buf_addf(&h->note, " (and %zu more)", found.n - 1);
	h->detections += (unsigned)found.n;
	if (report.len > 0) {
		lz_buf_add(log, report.buf, report.len);
		lz_gsreport_add(h->root, report.buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* The pass's own time: the walker's is throttled on its own. */
	h->pass_ms = (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000);
	h->pass_ms -= h->walk_ms_now < h->pass_ms ? h->walk_ms_now :
	    h->pass_ms;
	if (h->walk_ms_now > 0) {
		h->walk_ms = h->walk_ms_now;
		h->last_walk = mono_ms;
	}
	h->last_pass = mono_ms;
	lz_buf_release(&report);
	r = (int)found.n;
	lz_tokens_release(&found);
	return rc != 0 ? rc : r;
}

void
lz_history_release(struct lz_history *h)
{
	struct lz_histrepo *r;
	size_t i;

	for (i = 0; i < h->n; i++) {
		r = &h->repos[i];
		free(r->rel);
		free(r->key);
		if (r->storefd >= 0)
			close(r->storefd);
		lz_histstore_close(&r->objs);
		lz_refset_release(&r->known);
		lz_histrefs_cache_release(&r->cache);
		lz_tokens_release(&r->said);
	}
	free(h->repos);
	free(h->ws);
	free(h->root);
	free(h->snapshot);
	lz_buf_release(&h->note);
	memset(h, 0, sizeof *h);
}
