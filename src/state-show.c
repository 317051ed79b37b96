/*
 * state-show.c: "lazaret state inspect [PATH] [--contents]" and "lazaret
 * state diff [PATH]": what the sandbox changed in its State Anchors, from
 * the helper's scan (state-helper.h), for people or as JSON. Names come
 * escaped (core/visible.h); file contents are shown only with --contents,
 * through the VT filter when they go to a terminal (DX-6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/visible.h"
#include "src/cmd.h"
#include "src/state.h"
#include "ui/vtfilter.h"

#define SCAN_MAX ((size_t)1024 * 1024 * 1024)
#define CAT_MAX ((size_t)64 * 1024 * 1024 + 1)
#define GROUP_LINES 80

static void	 write_out(const char *buf, size_t len, void *user);
static int	 contents(const struct lz_state_dom *d,
		     const struct lz_state_opts *o);
static void	 counts(struct lz_buf *b, json_t *c, int dirs);
static void	 lower_line(json_t *doc, json_t *a);
static void	 print_anchor(json_t *doc, json_t *a);
static void	 print_packages(json_t *p);
static void	 print_groups(json_t *doc);

static void
write_out(const char *buf, size_t len, void *user)
{
	(void)user;
	if (fwrite(buf, 1, len, stdout) != len)
		return;
}

/* --contents: one file of the sandbox's view, filtered on a terminal. */
static int
contents(const struct lz_state_dom *d, const struct lz_state_opts *o)
{
	struct lz_tokens extra = LZ_TOKENS_INIT;
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_vtfilter *f;
	int rc;

	if (o->npaths != 1) {
		lz_cmd_error("state inspect: --contents shows one file; name "
		    "it (like /etc/passwd)");
		return LZ_EXIT_USAGE;
	}
	lz_tokens_push(&extra, o->paths[0]);
	rc = lz_state_run(d, o->self, "cat", &extra, CAT_MAX, &out, NULL);
	if (rc == LZ_EXIT_OK && isatty(1)) {
		/* The sandbox wrote it: it reaches a terminal filtered. */
		f = lz_vtfilter_new(write_out, NULL);
		lz_vtfilter_feed(f, out.buf, out.len);
		lz_vtfilter_free(f);
	} else if (rc == LZ_EXIT_OK)
		write_out(out.buf, out.len, NULL);
	fflush(stdout);
	lz_tokens_release(&extra);
	lz_buf_release(&out);
	return rc;
}

/* "40 added, 3 modified, 2 deleted" (zero counts left out). */
static void
counts(struct lz_buf *b, json_t *c, int dirs)
{
	static const char *const k[] = { "added", "modified", "deleted",
	    "opaque" };
	json_int_t v;
	size_t i, start = b->len;

	for (i = 0; i < sizeof k / sizeof *k; i++) {
		if ((v = json_integer_value(json_object_get(c, k[i]))) == 0)
			continue;
		lz_buf_addf(b, "%s%lld %s", b->len > start ? ", " : "",
		    (long long)v, i == 3 ? "opaque directories" : k[i]);
	}
	if (dirs && (v = json_integer_value(json_object_get(c, "dirs"))) > 0)
		lz_buf_addf(b, "%s%lld directories", b->len > start ? ", " :
		    "", (long long)v);
	if (b->len == start)
		lz_buf_adds(b, "no changes");
}

static void
lower_line(json_t *doc, json_t *a)
{
	const char *how = json_string_value(json_object_get(a, "lower")) ?: "";
	const char *img = json_string_value(json_object_get(doc, "image"));
	const char *note = json_string_value(json_object_get(doc,
	    "image_note"));

	if (strcmp(how, "image") == 0)
		printf("  compared with the image %s\n", img ? img : "?");
	else if (strcmp(how, "running") == 0)
		printf("  compared with the lower layer of the running "
		    "sandbox\n");
	else if (strcmp(how, "none") == 0)
		printf("  the image has no such directory: everything is "
		    "added\n");
	else
		printf("  the image cannot be read (%s): everything shows as "
		    "added\n", note ? note : "unknown image");
}

static void
print_anchor(json_t *doc, json_t *a)
{
	struct lz_buf b = LZ_BUF_INIT;
	json_t *t, *v;
	const char *scope = json_string_value(json_object_get(a, "scope"));
	time_t created = (time_t)json_integer_value(json_object_get(a,
	    "created"));
	char when[32] = "unknown";
	struct tm tm;
	size_t i;

	if (created > 0 && localtime_r(&created, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	lz_state_size(&b, (unsigned long long)json_integer_value(
	    json_object_get(a, "upper_bytes")));
	printf("State Anchor %s: generation %lld (made %s)%s%s\n",
	    json_string_value(json_object_get(a, "path")),
	    (long long)json_integer_value(json_object_get(a, "generation")),
	    when, scope ? ", below " : "", scope ? scope : "");
	if (json_is_string(json_object_get(a, "problem"))) {
		printf("  PROBLEM: %s\n", json_string_value(json_object_get(a,
		    "problem")));
		goto out;
	}
	printf("  upper layer %s on disk, %lld entries\n", b.buf,
	    (long long)json_integer_value(json_object_get(a,
	    "upper_entries")));
	lower_line(doc, a);
	lz_buf_reset(&b);
	counts(&b, json_object_get(a, "counts"), 0);
	printf("  changes: %s\n", b.buf);
	json_array_foreach(json_object_get(a, "tops"), i, t) {
		lz_buf_reset(&b);
		counts(&b, t, 0);
		printf("    %-28s %s\n", json_string_value(json_object_get(t,
		    "path")), b.buf);
	}
	if (json_array_size(json_object_get(a, "notes")) > 0)
		printf("  notes:\n");
	json_array_foreach(json_object_get(a, "notes"), i, t)
		printf("    %s: %s\n", json_string_value(json_object_get(t,
		    "path")), json_string_value(json_object_get(t, "note")));
	if (json_array_size(json_object_get(a, "leftovers")) > 0) {
		printf("  left by an interrupted reset (the next 'lazaret "
		    "state reset' or 'verify' removes them):");
		json_array_foreach(json_object_get(a, "leftovers"), i, v)
			printf(" %s", json_string_value(v));
		printf("\n");
	}
out:
	lz_buf_release(&b);
}

static void
print_packages(json_t *p)
{
	static const char *const k[] = { "added", "removed", "changed" };
	static const char mark[] = "+-~";
	const char *from, *arch;
	json_t *e;
	size_t i, j, n = 0;

	if (p == NULL)
		return;
	if (!json_is_string(json_object_get(p, "source"))) {
		printf("Packages: not compared (%s)\n", json_string_value(
		    json_object_get(p, "note")) ?: "?");
		return;
	}
	printf("Packages (dpkg status of the sandbox against the image's):\n");
	for (i = 0; i < sizeof k / sizeof *k; i++) {
		json_array_foreach(json_object_get(p, k[i]), j, e) {
			n++;
			from = json_string_value(json_object_get(e, "from"));
			arch = json_string_value(json_object_get(e, "arch"));
			printf("  %c %s %s%s%s (%s)\n", mark[i],
			    json_string_value(json_object_get(e, "name")),
			    from ? from : "", from ? " -> " : "",
			    json_string_value(json_object_get(e, "version")),
			    arch && *arch ? arch : "no architecture");
		}
	}
	if (n == 0)
		printf("  none added, removed or changed\n");
}

static void
print_groups(json_t *doc)
{
	struct lz_buf b = LZ_BUF_INIT, sz = LZ_BUF_INIT;
	json_t *a, *g, *s;
	size_t i, j, k, lines = 0, total = 0;
	const char *kind;

	printf("Files, by directory:\n");
	json_array_foreach(json_object_get(doc, "anchors"), i, a) {
		json_array_foreach(json_object_get(a, "groups"), j, g) {
			if (++total > GROUP_LINES)
				continue;
			lines++;
			lz_buf_reset(&b);
			lz_buf_reset(&sz);
			kind = json_string_value(json_object_get(g, "kind"));
			counts(&b, g, strcmp(kind, "existing") != 0);
			lz_state_size(&sz, (unsigned long long)
			    json_integer_value(json_object_get(g, "bytes")));
			printf("  %s%s  %s%s, %s", json_string_value(
			    json_object_get(g, "dir")), strcmp(kind,
			    "existing") ? "/" : "", strcmp(kind, "new") == 0 ?
			    "new directory: " : strcmp(kind, "opaque") == 0 ?
			    "replaced directory: " : "", b.buf, sz.buf);
			json_array_foreach(json_object_get(g, "sample"), k, s)
				printf("%s%s", k ? ", " : ": ",
				    json_string_value(s));
			printf("\n");
		}
	}
	if (total == 0)
		printf("  no changes\n");
	else if (total > lines)
		printf("  ... and %zu more directories ('--json' lists them "
		    "all)\n", total - lines);
	lz_buf_release(&b);
	lz_buf_release(&sz);
}

int
lz_state_show(const struct lz_state_opts *o, int diff)
{
	struct lz_tokens extra = LZ_TOKENS_INIT;
	struct lz_state_dom d;
	json_t *doc = NULL, *a, *out;
	size_t i;
	int rc, k;

	if ((rc = lz_state_resolve(&d, o)) != LZ_EXIT_OK)
		return rc;
	if ((rc = lz_state_check_paths(&d, o, 1)) != LZ_EXIT_OK)
		goto out;
	if (o->contents) {
		rc = contents(&d, o);
		goto out;
	}
	if (diff) {
		lz_tokens_push(&extra, "--groups");
		if (o->npaths == 0)
			lz_tokens_push(&extra, "--dpkg");
	} else if (o->o.json)
		lz_tokens_push(&extra, "--entries");
	for (k = 0; k < o->npaths; k++)
		lz_tokens_push(&extra, o->paths[k]);
	rc = lz_state_run(&d, o->self, "scan", &extra, SCAN_MAX, NULL, &doc);
	if (rc != LZ_EXIT_OK)
		goto out;
	if (o->o.json) {
		out = json_pack("{s:o,s:O}", "domain", lz_state_domain_json(&d),
		    "anchors", json_object_get(doc, "anchors"));
		if (json_object_get(doc, "packages") != NULL)
			json_object_set(out, "packages", json_object_get(doc,
			    "packages"));
		lz_client_print_json(out);
		goto out;
	}
	lz_state_print_domain(&d);
	if (diff) {
		print_packages(json_object_get(doc, "packages"));
		print_groups(doc);
		goto out;
	}
	json_array_foreach(json_object_get(doc, "anchors"), i, a)
		print_anchor(doc, a);
	if (json_array_size(json_object_get(doc, "anchors")) == 0)
		printf("no State Anchor has state yet (the first launch makes "
		    "them)\n");
out:
	json_decref(doc);
	lz_tokens_release(&extra);
	lz_state_dom_release(&d);
	return rc;
}
