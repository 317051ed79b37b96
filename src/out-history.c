/*
 * out-history.c: printing a repository's kept history (out-history.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/snapshot.h"
#include "core/visible.h"
#include "src/out-history.h"

struct commits {
	FILE *f;		/* human form, or NULL */
	json_t *a;		/* JSON form, or NULL */
	long n;
	long max;
};

static int one_commit(void *ctx, const char *oid, const char *subject,
    long long when);
static const char *who_words(enum lz_hist_who who);
static void size_words(uint64_t bytes, char *buf, size_t size);

char *
lz_out_history_name(const char *name)
{
	return lz_visible_str(name, 0);
}

static const char *
who_words(enum lz_hist_who who)
{
	switch (who) {
	case LZ_HIST_HOST:
		return "on the host (no sandbox of this Domain ran)";
	case LZ_HIST_DOMAIN:
		return "while the Domain ran";
	default:
		return "by lazaret git restore";
	}
}

static void
size_words(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= 10ull << 20)
		snprintf(buf, size, "%llu MiB", (unsigned long long)(bytes >>
		    20));
	else
		snprintf(buf, size, "%llu KiB", (unsigned long long)((bytes +
		    1023) >> 10));
}

static int
one_commit(void *ctx, const char *oid, const char *subject, long long when)
{
	struct commits *c = ctx;
	char *s = lz_visible_str(subject, 0);

	if (c->f != NULL)
		fprintf(c->f, "      %.12s %s\n", oid, s);
	else
		json_array_append_new(c->a, json_pack("{s:s,s:s,s:I}", "id",
		    oid, "subject", s, "time", (json_int_t)when));
	free(s);
	return ++c->n >= c->max;
}

void
lz_out_history_value(struct lz_histview *v, const char *value,
    struct lz_buf *b)
{
	struct lz_buf subj = LZ_BUF_INIT;
	char *s;

	if (value == NULL) {
		lz_buf_adds(b, "(missing)");
		return;
	}
	if (strncmp(value, "ref:", 4) == 0) {
		s = lz_visible_str(value + 4, 0);
		lz_buf_addf(b, "ref: %s", s);
		free(s);
		return;
	}
	lz_buf_addf(b, "%.12s", value);
	if (lz_histgit_subject(v->git, value, &subj) == 0) {
		s = lz_visible_str(subj.buf, LZ_VISIBLE_QUOTE);
		lz_buf_addf(b, " %s", s);
		free(s);
	}
	lz_buf_release(&subj);
}

void
lz_out_history(FILE *f, struct lz_histview *v, int64_t keep_ms)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct commits c = { f, NULL, 0, LZ_OUT_HISTORY_COMMITS };
	const struct lz_histloss *l;
	const char *p, *nl;
	char when[32], size[32], *name;
	size_t i;

	name = lz_out_history_name(v->rel);
	fprintf(f, "%s%s\n", name, v->missing ? "  (gone: no HEAD, no "
	    "objects; restore makes it again)" : "");
	free(name);
	for (i = 0; i < v->plan.n; i++) {
		l = &v->plan.v[i];
		name = lz_out_history_name(l->name);
		lz_hist_time_fmt(l->ms, when, sizeof when);
		lz_buf_reset(&b);
		lz_out_history_value(v, l->target, &b);
		fprintf(f, "  %s: %s %s, %s\n    was %s\n", name,
		    l->now == NULL ? "missing since" : "moved", when,
		    who_words(l->who), b.buf);
		lz_buf_reset(&b);
		lz_out_history_value(v, l->now, &b);
		if (l->now != NULL)
			fprintf(f, "    now %s\n", b.buf);
		if (l->lost > 0) {
			fprintf(f, "    %ld commit%s no ref reaches:\n", l->lost,
			    l->lost == 1 ? "" : "s");
			c.n = 0;
			(void)lz_histview_commits(v, l, LZ_OUT_HISTORY_COMMITS,
			    one_commit, &c);
			if (l->lost > c.n)
				fprintf(f, "      (and %ld more)\n",
				    l->lost - c.n);
		} else if (l->lost < 0)
			fprintf(f, "    its commits cannot all be read (not "
			    "kept, or damaged)\n");
		fprintf(f, "    restore would %s it%s\n", l->action ==
		    LZ_HISTLOSS_CREATE ? "create" : "move", l->ask ? ", after "
		    "asking you (it moved since: not a fast-forward)" : "");
		if (l->earlier > 0)
			fprintf(f, "    %u earlier loss%s of it %s not in that "
			    "value: 'lazaret git restore --ref %s --to @%lld' "
			    "goes back to before the first\n", l->earlier,
			    l->earlier == 1 ? "" : "es", l->earlier == 1 ?
			    "is" : "are", name, (long long)((l->earlier_ms - 1) /
			    1000));
		free(name);
	}
	if (v->plan.n == 0)
		fprintf(f, "  nothing lost\n");
	for (i = 0; i < v->now.n; i++) {
		if (strncmp(v->now.v[i].name, LZ_SNAPSHOT_REFS,
		    strlen(LZ_SNAPSHOT_REFS)) != 0)
			continue;
		name = lz_out_history_name(v->now.v[i].name);
		fprintf(f, "  snapshot %s ('git stash apply %s' puts it "
		    "back)\n", name, name);
		free(name);
	}
	size_words(v->space.held, size, sizeof size);
	fprintf(f, "  kept: %llu files, %llu of them shared with the "
	    "repository (hard links: free), %s only in the store",
	    (unsigned long long)v->space.files,
	    (unsigned long long)v->space.shared, size);
	if (v->space.dropped > 0) {
		lz_hist_time_fmt(v->space.oldest_drop_ms + keep_ms, when,
		    sizeof when);
		size_words(v->space.dropped_bytes, size, sizeof size);
		fprintf(f, "; %llu the repository dropped (%s), the first "
		    "released at the launch after %s",
		    (unsigned long long)v->space.dropped, size, when);
	}
	if (v->space.copies > 0) {
		size_words(v->space.copy_bytes, size, sizeof size);
		fprintf(f, "; %llu copies (%s: the repository cannot be "
		    "hard-linked there)", (unsigned long long)v->space.copies,
		    size);
	}
	fprintf(f, "\n");
	for (p = v->warnings.buf; (nl = strchr(p, '\n')) != NULL;
	    p = nl + 1)
		fprintf(f, "  note: %.*s\n", (int)(nl - p), p);
	lz_buf_release(&b);
}

json_t *
lz_out_history_json(struct lz_histview *v)
{
	struct commits c = { NULL, NULL, 0, LZ_OUT_HISTORY_COMMITS_JSON };
	const struct lz_histloss *l;
	json_t *o, *lost, *e, *snaps, *warn;
	const char *p, *nl;
	char *s, *t, *n;
	size_t i;

	lost = json_array();
	for (i = 0; i < v->plan.n; i++) {
		l = &v->plan.v[i];
		s = lz_out_history_name(l->name);
		t = lz_visible_str(l->target, 0);
		n = l->now != NULL ? lz_visible_str(l->now, 0) : NULL;
		c.a = json_array();
		c.n = 0;
		if (l->lost > 0)
			(void)lz_histview_commits(v, l,
			    LZ_OUT_HISTORY_COMMITS_JSON, one_commit, &c);
		e = json_pack("{s:s,s:s,s:s?,s:I,s:s,s:I,s:b,s:s,s:o,s:I,s:I}",
		    "ref", s, "target", t, "now", n, "time_ms",
		    (json_int_t)l->ms, "who", lz_hist_who_name(l->who),
		    "lost_commits", (json_int_t)l->lost, "ask", l->ask,
		    "action", l->action == LZ_HISTLOSS_CREATE ? "create" :
		    "move", "commits", c.a, "earlier_losses",
		    (json_int_t)l->earlier, "earlier_ms",
		    (json_int_t)l->earlier_ms);
		json_array_append_new(lost, e);
		free(s);
		free(t);
		free(n);
	}
	snaps = json_array();
	for (i = 0; i < v->now.n; i++)
		if (strncmp(v->now.v[i].name, LZ_SNAPSHOT_REFS,
		    strlen(LZ_SNAPSHOT_REFS)) == 0) {
			s = lz_out_history_name(v->now.v[i].name);
			json_array_append_new(snaps, json_pack("{s:s,s:s}",
			    "ref", s, "id", v->now.v[i].value));
			free(s);
		}
	warn = json_array();
	for (p = v->warnings.buf; (nl = strchr(p, '\n')) != NULL;
	    p = nl + 1) {
		t = lz_xstrndup(p, (size_t)(nl - p));
		s = lz_visible_str(t, 0);
		json_array_append_new(warn, json_string(s));
		free(s);
		free(t);
	}
	s = lz_out_history_name(v->rel);
	o = json_pack("{s:s,s:b,s:o,s:o,s:o,s:{s:I,s:I,s:I,s:I,s:I,s:I,"
	    "s:I,s:I}}", "gitdir", s, "missing", v->missing, "lost", lost,
	    "snapshots", snaps, "notes", warn, "space", "files",
	    (json_int_t)v->space.files, "shared", (json_int_t)v->space.shared,
	    "held_bytes", (json_int_t)v->space.held, "dropped",
	    (json_int_t)v->space.dropped, "dropped_bytes",
	    (json_int_t)v->space.dropped_bytes, "oldest_drop_ms",
	    (json_int_t)v->space.oldest_drop_ms, "copies",
	    (json_int_t)v->space.copies, "copy_bytes",
	    (json_int_t)v->space.copy_bytes);
	free(s);
	return o;
}
