/*
 * cmd-state-helper.c: "lazaret __state", the hidden helper of "lazaret
 * state" that runs inside podman's rootless namespace (see
 * state-helper.h). Not for people: the usage is the contract with
 * src/state-domain.c (which runs it). Verbs:
 *
 *   sizes  ID...                anchors with generation and size on disk
 *   scan   --domain ID ...      inspect and diff (state-helper-scan.c)
 *   cat    --domain ID ... PATH one file of the sandbox's view
 *   verify --domain ID ...      lock, inactive, recover, structure checks
 *   reset  --domain ID ...      lock, inactive, recover, reset (OR-5)
 *
 * It refuses to run outside a user namespace.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/anchor-mount.h"
#include "core/anchor-scan.h"
#include "core/domain-busy.h"
#include "core/domain-meta.h"
#include "core/ignored.h"
#include "core/pathcheck.h"
#include "core/rmtree.h"
#include "core/sandbox.h"
#include "core/visible.h"
#include "src/cmd.h"
#include "src/state-helper.h"

static const char *get_env(const char *name);
static int	 setup(struct lz_state_helper *h, const char *id,
		     struct lz_err *err);
static void	 release(struct lz_state_helper *h);
static void	 print(json_t *j);
static json_t	*sizes_one(struct lz_state_helper *h);
static int	 do_sizes(int argc, char **argv);
static int	 quiesce(struct lz_state_helper *h, struct lz_quiet *q,
		     json_t *o);
static void	 recover_all(struct lz_state_helper *h, json_t *o);
static int	 do_verify(struct lz_state_helper *h);
static int	 do_reset(struct lz_state_helper *h);
static int	 reset_ignored(struct lz_state_helper *h, json_t *o);
static json_t	*strings(const struct lz_tokens *t);
static int	 operand_has(const struct lz_state_helper *h, const char *path);
static int	 cmd_state_helper_exec(struct lz_cmd_ctx *ctx, int argc,
		     char **argv);

static const char *
get_env(const char *name)
{
	return getenv(name);
}

static void
print(json_t *j)
{
	if (json_dumpf(j, stdout, JSON_COMPACT) != 0)
		lz_cmd_error("cannot write JSON");
	fputc('\n', stdout);
	json_decref(j);
}

static json_t *
strings(const struct lz_tokens *t)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < t->n; i++)
		json_array_append_new(a, json_string(t->v[i]));
	return a;
}

/* The Domain Root of id and its anchors, by descriptor. */
static int
setup(struct lz_state_helper *h, const char *id, struct lz_err *err)
{
	char *path;
	int rc;

	if ((rc = lz_paths_init(&h->paths, get_env, LZ_RUN_USER_DIR, err)) != 0)
		return rc;
	if ((h->rootfd = lz_domain_root_open(h->paths.storage_root, id, err)) <
	    0)
		return h->rootfd;
	snprintf(h->id, sizeof h->id, "%s", id);
	path = lz_xasprintf("%s/domains/%s", h->paths.storage_root, id);
	h->droot = realpath(path, NULL);
	free(path);
	if (h->droot == NULL)
		return lz_err_set(err, LZ_ESYS, "cannot resolve the Domain "
		    "Root of %s: %s", id, strerror(errno));
	h->anchorsfd = lz_anchor_dir_open(h->rootfd, 0);
	return lz_anchor_set_read(h->rootfd, h->persist.n ? &h->persist : NULL,
	    &h->set, err);
}

static void
release(struct lz_state_helper *h)
{
	lz_state_helper_unmount(h);
	if (h->rootfd >= 0)
		close(h->rootfd);
	if (h->anchorsfd >= 0)
		close(h->anchorsfd);
	lz_anchor_set_release(&h->set);
	lz_tokens_release(&h->persist);
	lz_paths_release(&h->paths);
	free(h->droot);
	free(h->image_root);
	free(h->image_error);
}

/* Generation, size on disk and entries of each anchor, and of ignored/. */
static json_t *
sizes_one(struct lz_state_helper *h)
{
	struct lz_scan s;
	struct lz_anchor_info *a;
	json_t *arr = json_array(), *o;
	char *rel;
	size_t i;
	int fd;

	for (i = 0; i < h->set.n; i++) {
		a = &h->set.v[i];
		memset(&s, 0, sizeof s);
		rel = lz_xasprintf("%s/gen-%u/upper", a->name, a->gen);
		fd = a->gen > 0 ? lz_open_beneath(h->anchorsfd, rel, O_RDONLY |
		    O_DIRECTORY, 0) : -1;
		if (fd >= 0)
			lz_scan_tree(fd, -1, "", 0, &s, NULL);
		o = json_pack("{s:o,s:s,s:i,s:b,s:o,s:o,s:I,s:I}", "path",
		    a->path ? json_string(a->path) : json_null(), "name",
		    a->name, "generation", (int)a->gen, "legacy", a->legacy,
		    "problem", a->problem ? json_string(a->problem) :
		    json_null(), "leftovers", strings(&a->leftovers),
		    "entries", (json_int_t)s.entries, "bytes",
		    (json_int_t)s.bytes);
		json_array_append_new(arr, o);
		lz_scan_release(&s);
		free(rel);
		if (fd >= 0)
			close(fd);
	}
	memset(&s, 0, sizeof s);
	fd = lz_open_beneath(h->rootfd, "ignored", O_RDONLY | O_DIRECTORY, 0);
	if (fd >= 0)
		lz_scan_tree(fd, -1, "", 0, &s, NULL);
	o = json_pack("{s:s,s:o,s:{s:I,s:I}}", "domain_id", h->id, "anchors",
	    arr, "ignored", "entries", (json_int_t)s.entries, "bytes",
	    (json_int_t)s.bytes);
	lz_scan_release(&s);
	if (fd >= 0)
		close(fd);
	return o;
}

/* "sizes ID...": sizes_one for each of the user's Domains named. */
static int
do_sizes(int argc, char **argv)
{
	struct lz_state_helper h;
	struct lz_err err = LZ_ERR_INIT;
	json_t *all = json_array();
	int k;

	for (k = 0; k < argc; k++) {
		memset(&h, 0, sizeof h);
		h.rootfd = h.anchorsfd = -1;
		if (setup(&h, argv[k], &err) == 0)
			json_array_append_new(all, sizes_one(&h));
		else
			json_array_append_new(all, json_pack("{s:s,s:s}",
			    "domain_id", argv[k], "error", err.msg));
		lz_err_release(&err);
		release(&h);
	}
	print(json_pack("{s:o}", "domains", all));
	return LZ_EXIT_OK;
}

/*
 * The lock and SR-14's proof (domain-busy.h); what it recovered goes to
 * o's "recovered". On failure the message is printed and the exit code
 * returned.
 */
static int
quiesce(struct lz_state_helper *h, struct lz_quiet *q, json_t *o)
{
	struct lz_sandbox_ctx ctx;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf why = LZ_BUF_INIT;
	size_t i;
	int rc;

	if ((rc = lz_sandbox_ctx_init(&ctx, NULL, NULL, &err)) == 0) {
		rc = lz_domain_quiesce(h->paths.xdg_runtime, h->id, h->droot,
		    &ctx, q, &err);
		lz_sandbox_ctx_release(&ctx);
	}
	json_object_set_new(o, "recovered", strings(&q->recovered));
	if (rc == 0)
		goto out;
	for (i = 0; i < q->busy.n; i++)
		lz_buf_addf(&why, "\n  %s", q->busy.v[i]);
	rc = lz_cmd_fail(rc == LZ_EBUSY ? LZ_EXIT_BUSY :
	    LZ_EXIT_FAILURE, "%s%s", err.msg ? err.msg : "cannot lock the "
	    "Domain", why.buf);
out:
	lz_buf_release(&why);
	lz_err_release(&err);
	return rc;
}

/* OR-5: removes what interrupted resets left (anchors and ignored/). */
static void
recover_all(struct lz_state_helper *h, json_t *o)
{
	struct lz_tokens removed = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	json_t *rec = json_object_get(o, "recovered");
	struct lz_anchor_info *a;
	char *shown;
	size_t i, k;

	for (i = 0; i < h->set.n; i++) {
		a = &h->set.v[i];
		if (a->leftovers.n == 0 || a->problem != NULL)
			continue;
		shown = lz_xasprintf("anchors/%s", a->name);
		if (lz_anchor_recover(h->anchorsfd, a->name, shown, &removed,
		    &err) != 0)
			json_array_append_new(rec, json_sprintf("not removed: "
			    "%s", err.msg));
		for (k = 0; k < removed.n; k++)
			json_array_append_new(rec, json_sprintf("%s/%s (left "
			    "by an interrupted reset)", shown, removed.v[k]));
		lz_tokens_release(&removed);
		lz_tokens_release(&a->leftovers);
		lz_err_release(&err);
		free(shown);
	}
	lz_ignored_state_recover(h->rootfd, &removed, NULL);
	for (k = 0; k < removed.n; k++)
		json_array_append_new(rec, json_sprintf("%s (left by an "
		    "interrupted reset --ignored)", removed.v[k]));
	lz_tokens_release(&removed);
}

static int
do_verify(struct lz_state_helper *h)
{
	struct lz_quiet q = LZ_QUIET_INIT;
	struct lz_tokens problems = LZ_TOKENS_INIT, notes = LZ_TOKENS_INIT;
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_domain_meta meta;
	struct lz_scan s;
	struct lz_err err = LZ_ERR_INIT;
	struct stat st;
	json_t *o = json_object();
	char *rel, *p;
	size_t i, k;
	int rc, fd;

	if ((rc = quiesce(h, &q, o)) != 0)
		goto out;
	recover_all(h, o);
	if (fstat(h->rootfd, &st) != 0 || lz_pathcheck_private_dir(&st,
	    h->droot, &err) != 0)
		lz_tokens_pushf(&problems, "%s", err.msg ? err.msg :
		    "the Domain Root cannot be checked");
	lz_domain_meta_read(h->rootfd, h->id, &meta);
	if (meta.problem != NULL)
		lz_tokens_pushf(&notes, "%s (the next launch rewrites it)",
		    meta.problem);
	lz_domain_meta_release(&meta);
	(void)lz_mountinfo_read(&mi, NULL);
	lz_anchor_set_release(&h->set);
	lz_anchor_set_read(h->rootfd, h->persist.n ? &h->persist : NULL,
	    &h->set, NULL);
	for (i = 0; i < h->set.n; i++) {
		lz_anchor_check(h->anchorsfd, &h->set.v[i], &mi, h->droot,
		    &problems, &notes);
		if (h->set.v[i].problem != NULL || h->set.v[i].gen == 0)
			continue;
		rel = lz_xasprintf("%s/gen-%u/upper", h->set.v[i].name,
		    h->set.v[i].gen);
		fd = lz_open_beneath(h->anchorsfd, rel, O_RDONLY | O_DIRECTORY,
		    0);
		free(rel);
		if (fd < 0 || lz_scan_tree(fd, -1, "", LZ_SCAN_XATTRS, &s,
		    NULL) != 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (k = 0; k < s.nnotes; k++) {
			p = lz_visible_str(s.notes[k].path, 0);
			lz_tokens_pushf(s.truncated ? &problems : &notes,
			    "%s/%s: %s", h->set.v[i].path, p, s.notes[k].what);
			free(p);
		}
		lz_scan_release(&s);
		close(fd);
	}
	json_object_set_new(o, "problems", strings(&problems));
	json_object_set_new(o, "notes", strings(&notes));
	json_object_set_new(o, "anchors", json_integer((json_int_t)h->set.n));
	print(json_incref(o));
	/* The report is the result; "state verify" exits 1 on problems. */
	rc = LZ_EXIT_OK;
out:
	json_decref(o);
	lz_mountinfo_release(&mi);
	lz_tokens_release(&problems);
	lz_tokens_release(&notes);
	lz_quiet_release(&q);
	lz_err_release(&err);
	return rc;
}

static int
do_reset(struct lz_state_helper *h)
{
	struct lz_quiet q = LZ_QUIET_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_anchor_info *a;
	json_t *o = json_object(), *done = json_array();
	char *shown;
	unsigned gen;
	size_t i;
	int k, rc;

	json_object_set_new(o, "reset", done);
	/* Every operand names an anchor on disk (or one with no state). */
	for (k = 0; k < h->argc; k++) {
		if (lz_anchor_set_find(&h->set, h->argv[k]) == NULL &&
		    !lz_tokens_has(&h->persist, h->argv[k])) {
			rc = lz_cmd_fail(LZ_EXIT_USAGE, "'%s' is not a "
			    "State Anchor of Domain %s", h->argv[k], h->id);
			goto out;
		}
	}
	if ((rc = quiesce(h, &q, o)) != 0)
		goto out;
	recover_all(h, o);
	/* A legacy directory gets its record before it is reset. */
	for (i = 0; i < h->persist.n && h->anchorsfd >= 0; i++)
		(void)lz_anchor_adopt(h->anchorsfd, "anchors", h->persist.v[i],
		    NULL);
	lz_anchor_set_release(&h->set);
	if (lz_anchor_set_read(h->rootfd, h->persist.n ? &h->persist : NULL,
	    &h->set, &err) != 0) {
		rc = lz_cmd_fail(LZ_EXIT_FAILURE, "%s", err.msg);
		goto out;
	}
	for (i = 0; i < h->set.n; i++) {
		a = &h->set.v[i];
		if (!(h->flags & LZ_SH_ALL) && (a->path == NULL ||
		    !operand_has(h, a->path)))
			continue;
		shown = lz_xasprintf("anchors/%s", a->name);
		rc = lz_anchor_reset(h->anchorsfd, a->name, shown, &gen, &err);
		free(shown);
		if (rc != 0) {
			rc = lz_cmd_fail(LZ_EXIT_FAILURE, "%s", err.msg);
			goto out;
		}
		json_array_append_new(done, json_pack("{s:s?,s:s,s:i,s:i}",
		    "path", a->path, "name", a->name, "from", (int)a->gen,
		    "to", (int)gen));
	}
	if ((h->flags & LZ_SH_IGNORED) && (rc = reset_ignored(h, o)) != 0)
		goto out;
	print(json_incref(o));
	rc = LZ_EXIT_OK;
out:
	json_decref(o);
	lz_quiet_release(&q);
	lz_err_release(&err);
	return rc;
}

/* 1 when path is one of the PATH operands. */
static int
operand_has(const struct lz_state_helper *h, const char *path)
{
	int k;

	for (k = 0; k < h->argc; k++) {
		if (strcmp(h->argv[k], path) == 0)
			return 1;
	}
	return 0;
}

/* reset --ignored [--forget-paths]: lz_ignored_state_reset's work. */
static int
reset_ignored(struct lz_state_helper *h, json_t *o)
{
	struct lz_err err = LZ_ERR_INIT;
	int rc;

	rc = lz_ignored_state_reset(h->rootfd, h->flags & LZ_SH_FORGET, &err);
	if (rc != 0)
		rc = lz_cmd_fail(LZ_EXIT_FAILURE, "%s", err.msg);
	else
		json_object_set_new(o, "ignored", json_pack("{s:b,s:b}",
		    "emptied", 1, "forgot_paths", (h->flags & LZ_SH_FORGET) !=
		    0));
	lz_err_release(&err);
	return rc;
}

static int
cmd_state_helper_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "domain", required_argument, NULL, 'd' },
		{ "persist", required_argument, NULL, 'P' },
		{ "image", required_argument, NULL, 'i' },
		{ "entries", no_argument, NULL, 'e' },
		{ "groups", no_argument, NULL, 'g' },
		{ "dpkg", no_argument, NULL, 'k' },
		{ "all", no_argument, NULL, 'a' },
		{ "ignored", no_argument, NULL, 'I' },
		{ "forget-paths", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct { int ch, flag; } flagmap[] = {
		{ 'e', LZ_SH_ENTRIES }, { 'g', LZ_SH_GROUPS },
		{ 'k', LZ_SH_DPKG }, { 'a', LZ_SH_ALL },
		{ 'I', LZ_SH_IGNORED }, { 'F', LZ_SH_FORGET },
	};
	struct lz_state_helper h;
	struct lz_err err = LZ_ERR_INIT;
	const char *verb, *id = NULL;
	json_t *doc = NULL;
	size_t i;
	int ch, rc, r;

	(void)ctx;
	memset(&h, 0, sizeof h);
	h.rootfd = h.anchorsfd = -1;
	if (argc < 2)
		return lz_cmd_usage(&lz_cmd_state_helper);
	verb = argv[1];
	optind = 1;
	while ((ch = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
		for (i = 0; i < sizeof flagmap / sizeof *flagmap; i++) {
			if (flagmap[i].ch == ch)
				h.flags |= flagmap[i].flag;
		}
		if (ch == 'd')
			id = optarg;
		else if (ch == 'P')
			lz_tokens_push(&h.persist, optarg);
		else if (ch == 'i')
			h.image = optarg;
		else if (ch == '?')
			return lz_cmd_usage(&lz_cmd_state_helper);
	}
	h.argv = argv + 1 + optind;
	h.argc = argc - 1 - optind;
	if ((r = lz_anchor_in_userns(&err)) <= 0) {
		lz_cmd_error("__state: %s", r < 0 ? err.msg : "not in a user "
		    "namespace; this helper runs under 'podman unshare' only");
		lz_err_release(&err);
		lz_tokens_release(&h.persist);
		return LZ_EXIT_UNSAFE;
	}
	if (strcmp(verb, "sizes") == 0) {
		lz_tokens_release(&h.persist);
		return do_sizes(h.argc, h.argv);
	}
	if (id == NULL) {
		lz_tokens_release(&h.persist);
		return lz_cmd_usage(&lz_cmd_state_helper);
	}
	if ((rc = setup(&h, id, &err)) != 0) {
		rc = lz_cmd_fail(rc == LZ_EINVAL || rc == LZ_ENOTFOUND ?
		    LZ_EXIT_USAGE : LZ_EXIT_FAILURE, "%s", err.msg);
		goto out;
	}
	if (strcmp(verb, "scan") == 0) {
		rc = lz_state_helper_scan(&h, &doc);
		if (rc == LZ_EXIT_OK)
			print(doc);
	} else if (strcmp(verb, "cat") == 0)
		rc = lz_state_helper_cat(&h);
	else if (strcmp(verb, "verify") == 0)
		rc = do_verify(&h);
	else if (strcmp(verb, "reset") == 0)
		rc = do_reset(&h);
	else
		rc = lz_cmd_usage(&lz_cmd_state_helper);
out:
	release(&h);
	lz_err_release(&err);
	return rc;
}

const struct lz_cmd lz_cmd_state_helper = {
	.name = "__state",
	.usage = "sizes ID... | scan|cat|verify|reset --domain ID [--persist "
	    "P]... [--image IMAGE] [options] [PATH...] (internal: run by "
	    "lazaret state under podman unshare)",
	.summary = NULL,	/* hidden */
	.flags = 0,
	.exec = cmd_state_helper_exec,
};
