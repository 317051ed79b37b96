/*
 * state-reset.c: "lazaret state verify" and "lazaret state reset"
 * (FR-11, SR-14, DX-6, OR-5). Both need the Domain inactive: a running
 * one is refused with its sessions, an ending one is waited for (up to
 * 10 s). The helper then takes the lifecycle lock itself, proves that
 * nothing uses the Domain and works (domain-busy.h, anchor-store.h);
 * killed, it leaves the lock with its death and what it did consistent.
 * Reset first shows the Domain, profile, workspace and exact scope, and
 * asks; --yes skips only the question.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ignored.h"
#include "core/visible.h"
#include "src/cmd.h"
#include "src/state.h"

#define OUT_MAX ((size_t)16 * 1024 * 1024)

static int	 ask(FILE *f, const struct lz_state_opts *o);
static void	 print_list(const char *title, json_t *a);
static json_t	*sizes_of(const struct lz_state_dom *d, const char *self);
static int	 selected(const struct lz_state_opts *o, const char *path);
static json_t	*size_of(json_t *sizes, const char *name);
static void	 show_scope(FILE *f, const struct lz_state_dom *d,
		     const struct lz_state_opts *o, json_t *sizes);
static int	 show_forget(FILE *f, const struct lz_state_dom *d);

static void
print_list(const char *title, json_t *a)
{
	json_t *v;
	size_t i;

	if (json_array_size(a) == 0)
		return;
	printf("%s:\n", title);
	json_array_foreach(a, i, v)
		printf("  %s\n", json_string_value(v));
}

int
lz_state_verify(const struct lz_state_opts *o)
{
	struct lz_state_dom d;
	json_t *doc = NULL;
	int rc;

	if (o->npaths > 0) {
		lz_cmd_error("state verify checks the whole Domain; it takes "
		    "no PATH");
		return LZ_EXIT_USAGE;
	}
	if ((rc = lz_state_resolve(&d, o)) != LZ_EXIT_OK)
		return rc;
	if ((rc = lz_state_wait_quiet(&d, o->self)) != LZ_EXIT_OK)
		goto out;
	if ((rc = lz_state_run(&d, o->self, "verify", NULL, OUT_MAX, NULL,
	    &doc)) != LZ_EXIT_OK)
		goto out;
	if (o->o.json) {
		json_object_set_new(doc, "domain", lz_state_domain_json(&d));
		lz_client_print_json(json_incref(doc));
	} else {
		lz_state_print_domain(&d);
		print_list("recovered (what a crash or an interrupted reset "
		    "left)", json_object_get(doc, "recovered"));
		print_list("PROBLEMS", json_object_get(doc, "problems"));
		print_list("notes", json_object_get(doc, "notes"));
		printf("%lld State Anchors checked: %zu problems\n",
		    (long long)json_integer_value(json_object_get(doc,
		    "anchors")), json_array_size(json_object_get(doc,
		    "problems")));
	}
	rc = json_array_size(json_object_get(doc, "problems")) > 0 ?
	    LZ_EXIT_FAILURE : LZ_EXIT_OK;
out:
	json_decref(doc);
	lz_state_dom_release(&d);
	return rc;
}

/* The sizes of d's anchors (the helper's "sizes" entry), or NULL. */
static json_t *
sizes_of(const struct lz_state_dom *d, const char *self)
{
	struct lz_tokens id = LZ_TOKENS_INIT;
	json_t *doc = NULL, *one;

	lz_tokens_push(&id, d->id);
	if (lz_state_run(NULL, self, "sizes", &id, OUT_MAX, NULL, &doc) !=
	    LZ_EXIT_OK)
		doc = NULL;
	lz_tokens_release(&id);
	one = json_incref(json_array_get(json_object_get(doc, "domains"), 0));
	json_decref(doc);
	return one;
}

static int
selected(const struct lz_state_opts *o, const char *path)
{
	int k;

	if (o->all)
		return 1;
	for (k = 0; path != NULL && k < o->npaths; k++) {
		if (strcmp(o->paths[k], path) == 0)
			return 1;
	}
	return 0;
}

/* The helper's sizes entry of anchor directory name, or NULL. */
static json_t *
size_of(json_t *sizes, const char *name)
{
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(sizes, "anchors"), i, a) {
		if (strcmp(json_string_value(json_object_get(a, "name")) ?: "",
		    name) == 0)
			return a;
	}
	return NULL;
}

/* What a reset will change and what it keeps (DX-6). */
static void
show_scope(FILE *f, const struct lz_state_dom *d,
    const struct lz_state_opts *o, json_t *sizes)
{
	struct lz_buf sz = LZ_BUF_INIT, kept = LZ_BUF_INIT;
	const struct lz_anchor_info *a;
	json_t *s;
	size_t i;
	int k;

	fprintf(f, "Domain      %s\nprofile     %s\nworkspace   %s\nDomain "
	    "Root %s\n", d->id, d->profile_name ? d->profile_name : "unknown",
	    d->workspace ? d->workspace : "unknown", d->root);
	for (i = 0; i < d->set.n; i++) {
		a = &d->set.v[i];
		if (!selected(o, a->path)) {
			lz_buf_addf(&kept, " %s", a->path ? a->path : a->name);
			continue;
		}
		lz_buf_reset(&sz);
		if ((s = size_of(sizes, a->name)) != NULL) {
			lz_state_size(&sz, (unsigned long long)
			    json_integer_value(json_object_get(s, "bytes")));
			lz_buf_addf(&sz, ", %lld entries", (long long)
			    json_integer_value(json_object_get(s, "entries")));
		} else
			lz_buf_adds(&sz, "size unknown");
		fprintf(f, "reset       State Anchor %s (directory %s): "
		    "generation %u, %s; the next launch sees the image's "
		    "directory\n", a->path ? a->path : "of unknown path",
		    a->name, a->gen, sz.buf);
	}
	for (k = 0; k < o->npaths && !o->all; k++) {
		if (lz_anchor_set_find(&d->set, o->paths[k]) == NULL)
			fprintf(f, "reset       State Anchor %s: no state yet "
			    "(nothing to remove)\n", o->paths[k]);
	}
	if (o->ignored) {
		lz_buf_reset(&sz);
		lz_state_size(&sz, (unsigned long long)json_integer_value(
		    json_object_get(json_object_get(sizes, "ignored"),
		    "bytes")));
		fprintf(f, "reset       Ignored Workspace State: %s "
		    "emptied%s\n", sz.buf, o->forget ? ", and its list of "
		    "isolated paths forgotten" : " (the list of isolated "
		    "paths stays)");
	}
	fprintf(f, "kept        the workspace, the image%s%s%s\n", o->ignored ?
	    "" : ", Ignored Workspace State", kept.len ? ", State Anchors" :
	    "", kept.buf);
	lz_buf_release(&sz);
	lz_buf_release(&kept);
}

/*
 * --forget-paths: the host paths the next launch would share with the
 * sandbox, because the record isolates them but the ignore rules no
 * longer name them (an agent may have un-ignored .env).
 */
static int
show_forget(FILE *f, const struct lz_state_dom *d)
{
	struct lz_ignored now = LZ_IGNORED_INIT;
	struct lz_tokens rec = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	long long *added = NULL;
	struct stat st;
	char *host, *v;
	size_t i, n = 0;
	int rc = LZ_EXIT_OK;

	if (d->workspace == NULL) {
		lz_cmd_error("state reset: --forget-paths needs the Domain's "
		    "workspace, which is unknown; run it from the project ('cd "
		    "PROJECT; lazaret state reset --ignored --forget-paths')");
		return LZ_EXIT_USAGE;
	}
	if (lz_ignored_record_read(d->root, &rec, &added, &err) != 0 ||
	    lz_ignored_scan(d->workspace, &now, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	for (i = 0; i < rec.n; i++) {
		if (lz_tokens_has(&now.paths, rec.v[i]))
			continue;
		if (n++ == 0)
			fprintf(f, "the next launch SHARES these host paths "
			    "with the sandbox (the ignore rules no longer name "
			    "them):\n");
		host = lz_xasprintf("%s/%s", d->workspace, rec.v[i]);
		v = lz_visible_str(rec.v[i], 0);
		if (lstat(host, &st) == 0)
			fprintf(f, "  %s (on the host: %s, %lld bytes)\n", v,
			    S_ISDIR(st.st_mode) ? "a directory" :
			    S_ISREG(st.st_mode) ? "a file" : "not a file",
			    (long long)st.st_size);
		else
			fprintf(f, "  %s (not on the host now)\n", v);
		free(host);
		free(v);
	}
	if (n == 0)
		fprintf(f, "the ignore rules still name every recorded path: "
		    "the next launch isolates the same %zu paths\n", rec.n);
out:
	lz_ignored_release(&now);
	lz_tokens_release(&rec);
	free(added);
	lz_err_release(&err);
	return rc;
}

/* The question, unless --yes; 1 when the answer is yes. */
static int
ask(FILE *f, const struct lz_state_opts *o)
{
	char answer[16];

	if (o->yes)
		return 1;
	fprintf(f, "Reset? This cannot be undone. [y/N] ");
	fflush(f);
	if (fgets(answer, sizeof answer, stdin) == NULL)
		return 0;
	return strcmp(answer, "y\n") == 0 || strcmp(answer, "yes\n") == 0 ||
	    strcmp(answer, "Y\n") == 0;
}

int
lz_state_reset(const struct lz_state_opts *o)
{
	struct lz_tokens extra = LZ_TOKENS_INIT;
	struct lz_state_dom d;
	json_t *doc = NULL, *sizes = NULL, *r;
	FILE *f;
	size_t i;
	int rc, k;

	if (o->npaths == 0 && !o->all && !o->ignored) {
		lz_cmd_error("state reset: name the State Anchors (like /usr), "
		    "or --all, or --ignored");
		return LZ_EXIT_USAGE;
	}
	if (o->forget && !o->ignored) {
		lz_cmd_error("state reset: --forget-paths goes with --ignored");
		return LZ_EXIT_USAGE;
	}
	if (o->all && o->npaths > 0) {
		lz_cmd_error("state reset: --all or PATHs, not both");
		return LZ_EXIT_USAGE;
	}
	if (!o->yes && !isatty(0)) {
		lz_cmd_error("state reset asks first, and standard input is "
		    "not a terminal: add --yes to reset without the question");
		return LZ_EXIT_USAGE;
	}
	if ((rc = lz_state_resolve(&d, o)) != LZ_EXIT_OK)
		return rc;
	if ((rc = lz_state_check_paths(&d, o, 0)) != LZ_EXIT_OK)
		goto out;
	/* With --json the description goes to stderr, beside the question. */
	f = o->o.json ? stderr : stdout;
	sizes = sizes_of(&d, o->self);
	show_scope(f, &d, o, sizes);
	if (o->forget && (rc = show_forget(f, &d)) != LZ_EXIT_OK)
		goto out;
	fflush(f);
	/* Sessions first: no point asking while the Domain runs. */
	if ((rc = lz_state_wait_quiet(&d, o->self)) != LZ_EXIT_OK)
		goto out;
	if (!ask(f, o)) {
		fprintf(f, "nothing changed\n");
		rc = LZ_EXIT_OK;
		goto out;
	}
	if ((rc = lz_state_wait_quiet(&d, o->self)) != LZ_EXIT_OK)
		goto out;
	if (o->all)
		lz_tokens_push(&extra, "--all");
	if (o->ignored)
		lz_tokens_push(&extra, "--ignored");
	if (o->forget)
		lz_tokens_push(&extra, "--forget-paths");
	for (k = 0; k < o->npaths; k++)
		lz_tokens_push(&extra, o->paths[k]);
	if ((rc = lz_state_run(&d, o->self, "reset", &extra, OUT_MAX, NULL,
	    &doc)) != LZ_EXIT_OK)
		goto out;
	if (o->o.json) {
		json_object_set_new(doc, "domain", lz_state_domain_json(&d));
		lz_client_print_json(json_incref(doc));
		goto out;
	}
	print_list("recovered first (what a crash or an interrupted reset "
	    "left)", json_object_get(doc, "recovered"));
	json_array_foreach(json_object_get(doc, "reset"), i, r)
		printf("reset %s: generation %lld -> %lld (empty); the old one "
		    "is removed\n", json_string_value(json_object_get(r,
		    "path")) ?: json_string_value(json_object_get(r, "name")),
		    (long long)json_integer_value(json_object_get(r, "from")),
		    (long long)json_integer_value(json_object_get(r, "to")));
	if (json_object_get(doc, "ignored") != NULL)
		printf("reset Ignored Workspace State: emptied%s\n", o->forget ?
		    "; its list of paths forgotten (the next launch isolates "
		    "what the ignore rules name then)" : "");
out:
	json_decref(doc);
	json_decref(sizes);
	lz_tokens_release(&extra);
	lz_state_dom_release(&d);
	return rc;
}
