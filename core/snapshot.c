/*
 * snapshot.c: uncommitted work kept as a stash-like commit (snapshot.h),
 * with libgit2 on the host repository; work tree files read by this file
 * beneath the work tree, never by libgit2 (which would open a FIFO).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "core/domain.h"
#include "core/gitconfig.h"
#include "core/pathcheck.h"
#include "core/readat.h"
#include "core/snapshot.h"

struct names {
	struct lz_tokens v;
};

static int git_fail(struct lz_err *err, const char *what);
static int open_repo(const char *ws, git_repository **repo,
    struct lz_err *err);
static int work_entry(git_repository *repo, int wsfd, const char *path,
    git_index_entry *e, struct lz_buf *notes);
static int collect(const char *name, void *payload);
static int latest_same(git_repository *repo, const git_oid *tree,
    const git_oid *head, char **same_as);
static void message(git_repository *repo, const git_commit *head,
    const char *what, struct lz_buf *b);

static int
git_fail(struct lz_err *err, const char *what)
{
	const git_error *ge = git_error_last();

	return lz_err_set(err, LZ_EINVAL, "%s: %s", what, ge != NULL ?
	    ge->message : "libgit2 failed");
}

static int
open_repo(const char *ws, git_repository **repo, struct lz_err *err)
{
	int rc;

	/* Before libgit2 follows includes (a FIFO there would hang it). */
	if ((rc = lz_gitconfig_check(ws, err)) != 0)
		return rc;
	lz_git_init();
	if (git_repository_open_ext(repo, ws, GIT_REPOSITORY_OPEN_NO_SEARCH,
	    NULL) != 0)
		return git_fail(err, "cannot open the repository");
	return 0;
}

/*
 * The work tree's version of path as an index entry (a blob written to
 * the repository): 0, or 1 when it is left as the index has it (said
 * in notes).
 */
static int
work_entry(git_repository *repo, int wsfd, const char *path,
    git_index_entry *e, struct lz_buf *notes)
{
	struct lz_buf data = LZ_BUF_INIT;
	const char *base = strrchr(path, '/');
	char *dir, target[4096];
	struct stat st;
	ssize_t n;
	int dfd, rc = 1, r;

	dir = base != NULL ? lz_xstrndup(path, (size_t)(base - path)) : NULL;
	base = base != NULL ? base + 1 : path;
	dfd = dir != NULL ? lz_open_beneath(wsfd, dir, O_RDONLY | O_DIRECTORY,
	    0) : dup(wsfd);
	if (dfd < 0 || fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		lz_buf_addf(notes, "%s: a directory on its way is a symlink "
		    "or cannot be opened: kept as the index has it\n", path);
		goto out;
	}
	memset(e, 0, sizeof *e);
	e->path = path;
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dfd, base, target, sizeof target);
		if (n < 0 || (size_t)n >= sizeof target) {
			lz_buf_addf(notes, "%s: a symlink that cannot be read: "
			    "kept as the index has it\n", path);
			goto out;
		}
		e->mode = GIT_FILEMODE_LINK;
		rc = git_blob_create_from_buffer(&e->id, repo, target,
		    (size_t)n) == 0 ? 0 : -1;
	} else if (S_ISREG(st.st_mode)) {
		r = lz_readat(dfd, base, LZ_SNAPSHOT_FILE_MAX, &data, &st);
		if (r != LZ_READAT_OK) {
			lz_buf_addf(notes, "%s: %s: kept as the index has it\n",
			    path, r == LZ_READAT_TOOBIG ? "over the snapshot's "
			    "size limit" : "cannot be read");
			goto out;
		}
		e->mode = st.st_mode & 0111 ? GIT_FILEMODE_BLOB_EXECUTABLE :
		    GIT_FILEMODE_BLOB;
		rc = git_blob_create_from_buffer(&e->id, repo, data.buf,
		    data.len) == 0 ? 0 : -1;
	} else
		lz_buf_addf(notes, "%s is %s: kept as the index has it\n",
		    path, lz_readat_kind(st.st_mode));
out:
	if (dfd >= 0)
		close(dfd);
	free(dir);
	lz_buf_release(&data);
	return rc;
}

static int
collect(const char *name, void *payload)
{
	lz_tokens_push(&((struct names *)payload)->v, name);
	return 0;
}

/* 1 when the newest snapshot has this tree over this HEAD. */
static int
latest_same(git_repository *repo, const git_oid *tree, const git_oid *head,
    char **same_as)
{
	struct names n = { LZ_TOKENS_INIT };
	git_commit *c = NULL;
	git_oid id;
	const char *last = NULL;
	size_t i;
	int same = 0;

	(void)git_reference_foreach_name(repo, collect, &n);
	for (i = 0; i < n.v.n; i++)
		if (strncmp(n.v.v[i], LZ_SNAPSHOT_REFS,
		    strlen(LZ_SNAPSHOT_REFS)) == 0 &&
		    (last == NULL || strcmp(n.v.v[i], last) > 0))
			last = n.v.v[i];
	if (last != NULL && git_reference_name_to_id(&id, repo, last) == 0 &&
	    git_commit_lookup(&c, repo, &id) == 0 &&
	    git_oid_equal(git_commit_tree_id(c), tree) &&
	    (head == NULL ? git_commit_parentcount(c) == 0 :
	    git_commit_parentcount(c) > 0 &&
	    git_oid_equal(git_commit_parent_id(c, 0), head))) {
		same = 1;
		*same_as = lz_xstrdup(last);
	}
	git_commit_free(c);
	lz_tokens_release(&n.v);
	return same;
}

/* "WHAT on BRANCH: SHORT SUBJECT" as git stash words it. */
static void
message(git_repository *repo, const git_commit *head, const char *what,
    struct lz_buf *b)
{
	git_reference *ref = NULL;
	const char *m;
	char hex[8];

	lz_buf_addf(b, "%s on ", what);
	if (git_repository_head(&ref, repo) == 0 &&
	    git_reference_is_branch(ref))
		lz_buf_adds(b, git_reference_shorthand(ref));
	else
		lz_buf_adds(b, "(no branch)");
	git_reference_free(ref);
	if (head != NULL) {
		git_oid_tostr(hex, sizeof hex, git_commit_id(head));
		m = git_commit_summary((git_commit *)head);
		lz_buf_addf(b, ": %s %s", hex, m != NULL ? m : "");
	}
	lz_buf_addch(b, '\n');
}

int
lz_snapshot_make(const char *workspace, const char *label, int64_t now_ms,
    struct lz_snapshot *out, struct lz_err *err)
{
	git_repository *repo = NULL;
	git_index *idx = NULL, *wi = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	git_commit *head = NULL, *icommit = NULL;
	git_tree *itree_obj = NULL, *wtree_obj = NULL;
	git_signature *sig = NULL;
	git_reference *ref = NULL;
	git_index_entry e;
	const git_diff_delta *d;
	const git_commit *parents[2];
	struct lz_buf msg = LZ_BUF_INIT, name = LZ_BUF_INIT;
	git_oid itree, wtree, hid, iid, wid;
	char stamp[32];
	time_t t = (time_t)(now_ms / 1000);
	struct tm tm;
	size_t i, n;
	int rc, wsfd = -1, k;

	memset(out, 0, sizeof *out);
	lz_buf_init(&out->notes);
	if ((rc = open_repo(workspace, &repo, err)) != 0)
		return rc;
	if (git_repository_index(&idx, repo) != 0) {
		rc = git_fail(err, "cannot read the index");
		goto out;
	}
	if (git_index_has_conflicts(idx)) {
		rc = lz_err_set(err, LZ_EINVAL, "the index has unmerged paths "
		    "(a merge or rebase waits for its conflicts): no snapshot "
		    "of uncommitted work was made; resolve them, or commit or "
		    "stash by hand");
		goto out;
	}
	if (git_index_write_tree(&itree, idx) != 0) {
		rc = git_fail(err, "cannot write the index's tree");
		goto out;
	}
	if (git_reference_name_to_id(&hid, repo, "HEAD") == 0 &&
	    git_commit_lookup(&head, repo, &hid) != 0) {
		rc = git_fail(err, "cannot read HEAD's commit");
		goto out;
	}
	out->staged = head != NULL ? !git_oid_equal(git_commit_tree_id(head),
	    &itree) : git_index_entrycount(idx) > 0;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_IGNORE_SUBMODULES;
	if (git_diff_index_to_workdir(&diff, repo, idx, &opts) != 0) {
		rc = git_fail(err, "cannot compare the work tree with the "
		    "index");
		goto out;
	}
	n = git_diff_num_deltas(diff);
	if (!out->staged && n == 0) {
		rc = 1;
		goto out;
	}
	if ((wsfd = open(workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    git_index_new(&wi) != 0 ||
	    git_tree_lookup(&itree_obj, repo, &itree) != 0 ||
	    git_index_read_tree(wi, itree_obj) != 0) {
		rc = git_fail(err, "cannot start the snapshot's tree");
		goto out;
	}
	for (i = 0; i < n; i++) {
		d = git_diff_get_delta(diff, i);
		if (d->status == GIT_DELTA_DELETED) {
			(void)git_index_remove(wi, d->old_file.path, 0);
			out->paths++;
		} else if (d->status == GIT_DELTA_MODIFIED ||
		    d->status == GIT_DELTA_TYPECHANGE) {
			k = work_entry(repo, wsfd, d->old_file.path, &e,
			    &out->notes);
			if (k < 0 || (k == 0 && git_index_add(wi, &e) != 0)) {
				rc = git_fail(err, "cannot store a changed "
				    "file");
				goto out;
			}
			out->paths += k == 0;
		}
	}
	if (git_index_write_tree_to(&wtree, wi, repo) != 0) {
		rc = git_fail(err, "cannot write the snapshot's tree");
		goto out;
	}
	if (latest_same(repo, &wtree, head != NULL ? &hid : NULL,
	    &out->same_as)) {
		rc = 1;
		goto out;
	}
	if (git_signature_default(&sig, repo) != 0 &&
	    git_signature_now(&sig, "Lazaret", "lazaret@localhost") != 0) {
		rc = git_fail(err, "cannot sign the snapshot");
		goto out;
	}
	parents[0] = head;
	if (head != NULL) {
		message(repo, head, "index", &msg);
		if (git_commit_create(&iid, repo, NULL, sig, sig, NULL, msg.buf,
		    itree_obj, 1, parents) != 0 ||
		    git_commit_lookup(&icommit, repo, &iid) != 0) {
			rc = git_fail(err, "cannot write the index's commit");
			goto out;
		}
		parents[1] = icommit;
	}
	lz_buf_reset(&msg);
	lz_buf_addf(&msg, "lazaret snapshot (%s)", label);
	message(repo, head, msg.buf + 0, &name);
	if (git_tree_lookup(&wtree_obj, repo, &wtree) != 0 ||
	    git_commit_create(&wid, repo, NULL, sig, sig, NULL, name.buf,
	    wtree_obj, head != NULL ? 2 : 0, parents) != 0) {
		rc = git_fail(err, "cannot write the snapshot's commit");
		goto out;
	}
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	for (k = 1; k < 100; k++) {
		lz_buf_reset(&name);
		lz_buf_addf(&name, LZ_SNAPSHOT_REFS "%s-%s", stamp, label);
		if (k > 1)
			lz_buf_addf(&name, "-%d", k);
		rc = git_reference_create(&ref, repo, name.buf, &wid, 0,
		    "lazaret snapshot");
		git_reference_free(ref);
		ref = NULL;
		if (rc != GIT_EEXISTS)
			break;
	}
	if (rc != 0) {
		rc = git_fail(err, "cannot write the snapshot's ref");
		goto out;
	}
	out->ref = lz_buf_detach(&name);
	git_oid_tostr(out->oid, sizeof out->oid, &wid);
out:
	if (wsfd >= 0)
		close(wsfd);
	lz_buf_release(&msg);
	lz_buf_release(&name);
	git_signature_free(sig);
	git_tree_free(wtree_obj);
	git_tree_free(itree_obj);
	git_commit_free(icommit);
	git_commit_free(head);
	git_diff_free(diff);
	git_index_free(wi);
	git_index_free(idx);
	git_repository_free(repo);
	return rc;
}

int
lz_snapshot_prune(const char *workspace, int64_t cutoff_ms,
    struct lz_err *err)
{
	struct names n = { LZ_TOKENS_INIT };
	git_repository *repo = NULL;
	git_reference *ref;
	const char *s;
	struct tm tm;
	size_t i;
	int rc, count = 0;

	if ((rc = open_repo(workspace, &repo, err)) != 0)
		return rc;
	(void)git_reference_foreach_name(repo, collect, &n);
	for (i = 0; i < n.v.n; i++) {
		if (strncmp(n.v.v[i], LZ_SNAPSHOT_REFS,
		    strlen(LZ_SNAPSHOT_REFS)) != 0)
			continue;
		s = n.v.v[i] + strlen(LZ_SNAPSHOT_REFS);
		memset(&tm, 0, sizeof tm);
		if (strptime(s, "%Y%m%d-%H%M%S", &tm) == NULL ||
		    (int64_t)timegm(&tm) * 1000 >= cutoff_ms)
			continue;
		if (git_reference_lookup(&ref, repo, n.v.v[i]) == 0) {
			count += git_reference_delete(ref) == 0;
			git_reference_free(ref);
		}
	}
	lz_tokens_release(&n.v);
	git_repository_free(repo);
	return count;
}

void
lz_snapshot_release(struct lz_snapshot *s)
{
	free(s->ref);
	free(s->same_as);
	lz_buf_release(&s->notes);
	memset(s, 0, sizeof *s);
	lz_buf_init(&s->notes);
}
