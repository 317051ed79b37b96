/*
 * histgit.c: libgit2 over the history store (histgit.h).
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/domain.h"
#include "core/histgit.h"

struct lz_histgit {
	git_odb *odb;
	git_repository *repo;
};

static int commit_of(struct lz_histgit *g, const char *value, git_oid *out);
static void subject_of(const git_commit *c, struct lz_buf *b);

int
lz_histgit_open(struct lz_histgit **out, const char *const *objdirs,
    size_t n, struct lz_err *err)
{
	struct lz_histgit *g = lz_xcalloc(1, sizeof *g);
	git_odb_backend *b;
	const git_error *ge;
	size_t i;
	int prio = 100;

	*out = NULL;
	lz_git_init();
	if (git_odb_new(&g->odb) != 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if (git_odb_backend_loose(&b, objdirs[i], -1, 0, 0, 0) != 0 ||
		    git_odb_add_backend(g->odb, b, prio--) != 0)
			goto fail;
		if (git_odb_backend_pack(&b, objdirs[i]) != 0 ||
		    git_odb_add_backend(g->odb, b, prio--) != 0)
			goto fail;
	}
	if (git_repository_wrap_odb(&g->repo, g->odb) != 0)
		goto fail;
	*out = g;
	return 0;
fail:
	ge = git_error_last();
	lz_histgit_free(g);
	return lz_err_set(err, LZ_ESYS, "cannot read the kept objects: %s",
	    ge != NULL ? ge->message : "libgit2 failed");
}

void
lz_histgit_free(struct lz_histgit *g)
{
	if (g == NULL)
		return;
	git_repository_free(g->repo);
	git_odb_free(g->odb);
	free(g);
}

/* The commit value names (a tag peeled): 0, 1 not a commit, -1 missing. */
static int
commit_of(struct lz_histgit *g, const char *value, git_oid *out)
{
	git_object *o = NULL, *c = NULL;
	git_oid id;
	int rc;

	if (value == NULL || strlen(value) != GIT_OID_HEXSZ ||
	    git_oid_fromstr(&id, value) != 0)
		return -1;
	if (git_object_lookup(&o, g->repo, &id, GIT_OBJECT_ANY) != 0)
		return -1;
	rc = git_object_peel(&c, o, GIT_OBJECT_COMMIT);
	if (rc == 0)
		git_oid_cpy(out, git_object_id(c));
	git_object_free(c);
	git_object_free(o);
	return rc == 0 ? 0 : rc == GIT_ENOTFOUND ? -1 : 1;
}

static void
subject_of(const git_commit *c, struct lz_buf *b)
{
	const char *m = git_commit_message(c), *nl;

	if (m == NULL)
		return;
	nl = strchr(m, '\n');
	lz_buf_add(b, m, nl != NULL ? (size_t)(nl - m) : strlen(m));
}

long
lz_histgit_lost(struct lz_histgit *g, const char *value,
    const struct lz_refset *hide, long max, lz_histgit_commit_fn fn,
    void *ctx)
{
	struct lz_buf subj = LZ_BUF_INIT;
	git_revwalk *w = NULL;
	git_commit *c;
	git_oid id, h;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	long n = 0;
	int rc, call = fn != NULL;

	if (value != NULL && strncmp(value, "ref:", 4) == 0)
		return 0;
	if ((rc = commit_of(g, value, &id)) != 0)
		return rc > 0 ? 0 : -1;
	if (git_revwalk_new(&w, g->repo) != 0 ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) != 0 ||
	    git_revwalk_push(w, &id) != 0) {
		git_revwalk_free(w);
		return -1;
	}
	/* Lazaret's own refs (snapshots) do not make a commit safe. */
	for (i = 0; hide != NULL && i < hide->n; i++)
		if (strncmp(hide->v[i].name, "refs/lazaret/", 13) != 0 &&
		    commit_of(g, hide->v[i].value, &h) == 0)
			(void)git_revwalk_hide(w, &h);
	while (n < max && (rc = git_revwalk_next(&id, w)) == 0) {
		n++;
		if (!call)
			continue;
		if (git_commit_lookup(&c, g->repo, &id) != 0) {
			n = -1;
			break;
		}
		lz_buf_reset(&subj);
		subject_of(c, &subj);
		git_oid_tostr(hex, sizeof hex, &id);
		call = fn(ctx, hex, subj.buf, (long long)git_commit_time(c))
		    == 0;
		git_commit_free(c);
	}
	if (rc != 0 && rc != GIT_ITEROVER)
		n = -1;
	git_revwalk_free(w);
	lz_buf_release(&subj);
	return n;
}

int
lz_histgit_ff(struct lz_histgit *g, const char *from, const char *to)
{
	git_oid a, b;
	int rc;

	if (from == NULL || to == NULL)
		return -1;
	if (strcmp(from, to) == 0)
		return 1;
	if (commit_of(g, from, &a) != 0 || commit_of(g, to, &b) != 0)
		return -1;
	if (git_oid_equal(&a, &b))
		return 1;
	rc = git_graph_descendant_of(g->repo, &b, &a);
	return rc < 0 ? -1 : rc;
}

int
lz_histgit_subject(struct lz_histgit *g, const char *value,
    struct lz_buf *b)
{
	git_commit *c;
	git_oid id;

	if (commit_of(g, value, &id) != 0 ||
	    git_commit_lookup(&c, g->repo, &id) != 0)
		return -1;
	subject_of(c, b);
	git_commit_free(c);
	return 0;
}

int
lz_histgit_answer(const char *req, size_t len, struct lz_buf *out,
    struct lz_err *err)
{
	struct lz_tokens dirs = LZ_TOKENS_INIT;
	struct lz_refset hide = LZ_REFSET_INIT;
	struct lz_histgit *g = NULL;
	const char *p = req, *end = req + len, *nl;
	char *line, *old, *new, *sp;
	int rc = 0, header = 0, opened = 0;
	long lost;

	for (; p < end && rc == 0; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		line = lz_xstrndup(p, (size_t)(nl - p));
		if (!header) {
			header = 1;
			if (strcmp(line, "lazaret-history-walk 1") != 0)
				rc = lz_err_set(err, LZ_EINVAL, "not a "
				    "history walk request");
		} else if (strncmp(line, "objects /", 9) == 0 && !opened)
			lz_tokens_push(&dirs, line + 8);
		else if (strncmp(line, "hide ", 5) == 0 &&
		    lz_ref_oid_ok(line + 5))
			lz_refset_push(&hide, line + 5, line + 5);
		else if (strncmp(line, "check ", 6) == 0 &&
		    (sp = strchr(line + 6, ' ')) != NULL) {
			*sp = '\0';
			old = line + 6;
			new = sp + 1;
			if (!opened) {
				lz_refset_sort(&hide);
				rc = lz_histgit_open(&g,
				    (const char *const *)dirs.v, dirs.n, err);
				opened = 1;
			}
			if (rc == 0 && strcmp(old, "-") != 0 &&
			    lz_ref_oid_ok(old)) {
				lost = lz_histgit_lost(g, old, &hide,
				    LZ_HISTGIT_LOST_MAX, NULL, NULL);
				lz_buf_addf(out, "%ld %d\n", lost,
				    strcmp(new, "-") == 0 ? 0 :
				    lz_histgit_ff(g, old, new));
			} else if (rc == 0)
				lz_buf_adds(out, "0 -1\n");
		} else
			rc = lz_err_set(err, LZ_EINVAL, "bad request line "
			    "'%.60s'", line);
		free(line);
	}
	lz_histgit_free(g);
	lz_refset_release(&hide);
	lz_tokens_release(&dirs);
	return rc;
}
