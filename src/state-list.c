/*
 * state-list.c: "lazaret state list": the user's Domains (ID, profile,
 * workspace, last use, running or not), each with its State Anchors
 * (generation, size on disk) and image (its ID and the recipe label
 * scripts/setup-image.sh stamps), and the size of its Ignored Workspace
 * State, whether its workspace is missing (a deleted project) and how many
 * containers are prepared for its next start (core/sandbox-prep.h). Sizes
 * come from the helper inside podman's namespace, in one call for every
 * Domain; image details from one "podman image inspect"; the prepared
 * containers from one "podman ps -a --external".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/domain-busy.h"
#include "core/pathcheck.h"
#include "core/rundir.h"
#include "core/sandbox.h"
#include "core/spawn.h"
#include "core/visible.h"
#include "src/cmd.h"
#include "src/state.h"

#define RECIPE_LABEL "org.lazaret.recipe"

static const char	*run_state(const struct lz_paths *p, const char *id);
static json_t		*images(const struct lz_tokens *names);
static json_t		*one(const struct lz_paths *p,
			     const struct lz_config *cfg, const char *id,
			     json_t *sizes, json_t *imgs,
			     const struct lz_sandbox_list *ctrs, int listed);
static json_int_t	 prepared(const struct lz_sandbox_list *l,
			     const char *id);
static void		 print_one(json_t *d);
static void		 when(struct lz_buf *b, json_t *t);

/* "running", "busy" (lock held, no coordinator) or "stopped". */
static const char *
run_state(const struct lz_paths *p, const char *id)
{
	char *sub = lz_xasprintf("lazaret/%s", id);
	char *rt = lz_xasprintf("%s/%s", p->runtime_base, id);
	char *sock = lz_xasprintf("%s/control.sock", rt);
	const char *st = "stopped";
	int dir, fd;

	if (lz_busy_socket(sock))
		st = "running";
	else if ((dir = lz_rundir_open(p->xdg_runtime, sub, NULL)) >= 0) {
		if ((fd = lz_rundir_lock(dir, rt, 1, NULL)) == LZ_EBUSY)
			st = "busy";
		else if (fd >= 0)
			close(fd);
		close(dir);
	}
	free(sub);
	free(rt);
	free(sock);
	return st;
}

/* {name: {"id": ..., "recipe": ...}} of the images podman knows. */
static json_t *
images(const struct lz_tokens *names)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	json_t *arr, *out = json_object(), *img, *labels, *tag;
	const char *id, *recipe;
	char *podman = NULL;
	size_t i, k;

	if (names->n == 0 || lz_spawn_find("podman", NULL, &podman, NULL) != 0)
		return out;
	lz_spawn_result_init(&res);
	lz_tokens_push(&t, podman);
	lz_tokens_push(&t, "image");
	lz_tokens_push(&t, "inspect");
	lz_tokens_push(&t, "--format");
	lz_tokens_push(&t, "json");
	for (i = 0; i < names->n; i++)
		lz_tokens_push(&t, names->v[i]);
	memset(&o, 0, sizeof o);
	o.timeout_ms = 60000;
	o.cwd = "/";
	/* A missing image makes podman fail, but it still lists the rest. */
	if (lz_spawn_capture((const char *const *)t.v, &o, &res, NULL) == 0 &&
	    (arr = json_loads(res.out.buf, 0, NULL)) != NULL) {
		json_array_foreach(arr, i, img) {
			id = json_string_value(json_object_get(img, "Id"));
			labels = json_object_get(img, "Labels");
			recipe = json_string_value(json_object_get(labels,
			    RECIPE_LABEL));
			json_array_foreach(json_object_get(img, "RepoTags"), k,
			    tag) {
				if (json_is_string(tag) && id != NULL)
					json_object_set_new(out,
					    json_string_value(tag), json_pack(
					    "{s:s,s:s?}", "id", id, "recipe",
					    recipe));
			}
		}
		json_decref(arr);
	}
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	free(podman);
	return out;
}

/* How many containers of l are prepared for Domain id's next start. */
static json_int_t
prepared(const struct lz_sandbox_list *l, const char *id)
{
	json_int_t n = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		n += lz_sandbox_entry_prepared(&l->v[i]) &&
		    strcmp(l->v[i].domain, id) == 0;
	return n;
}

/* One Domain's entry of the listing; ctrs: the account's containers
 * (when listed). */
static json_t *
one(const struct lz_paths *p, const struct lz_config *cfg, const char *id,
    json_t *sizes, json_t *imgs, const struct lz_sandbox_list *ctrs,
    int listed)
{
	struct lz_domain_meta m;
	const struct lz_profile *prof = NULL;
	json_t *o, *s = NULL, *v;
	const char *image;
	size_t i;
	int fd;

	memset(&m, 0, sizeof m);
	if ((fd = lz_domain_root_open(p->storage_root, id, NULL)) >= 0) {
		lz_domain_meta_read(fd, id, &m);
		close(fd);
	}
	if (m.profile != NULL)
		prof = lz_config_profile(cfg, m.profile);
	image = prof != NULL ? prof->image : m.image;
	json_array_foreach(sizes, i, v) {
		if (strcmp(json_string_value(json_object_get(v, "domain_id")) ?:
		    "", id) == 0)
			s = v;
	}
	o = json_pack("{s:s,s:s?,s:s?,s:s,s:s?,s:O*,s:s*}", "domain_id", id,
	    "profile", m.profile, "workspace", m.workspace, "state",
	    run_state(p, id), "image", image, "image_details", image ?
	    json_object_get(imgs, image) : NULL, "record_problem", m.problem);
	/* A project deleted or moved: its Domain stays until reset. */
	json_object_set_new(o, "workspace_missing", json_boolean(m.workspace !=
	    NULL && lz_path_gone(m.workspace)));
	json_object_set_new(o, "prepared", listed ? json_integer(prepared(ctrs,
	    id)) : json_null());
	json_object_set_new(o, "created", m.created ? json_integer(m.created) :
	    json_null());
	json_object_set_new(o, "last_used", m.last_used ?
	    json_integer(m.last_used) : json_null());
	v = json_object_get(s, "anchors");
	json_object_set_new(o, "anchors", v ? json_incref(v) : json_array());
	v = json_object_get(s, "ignored");
	json_object_set_new(o, "ignored", v ? json_incref(v) : json_null());
	if (s == NULL || json_is_string(json_object_get(s, "error")))
		json_object_set_new(o, "sizes_error", json_string(s ?
		    json_string_value(json_object_get(s, "error")) : "the State "
		    "Anchor helper did not run (see above)"));
	lz_domain_meta_release(&m);
	return o;
}

static void
when(struct lz_buf *b, json_t *t)
{
	char buf[32];
	time_t v = (time_t)json_integer_value(t);
	struct tm tm;

	if (!json_is_integer(t) || localtime_r(&v, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm) == 0)
		lz_buf_adds(b, "unknown");
	else
		lz_buf_adds(b, buf);
}

static void
print_one(json_t *d)
{
	struct lz_buf b = LZ_BUF_INIT, sz = LZ_BUF_INIT;
	json_t *a, *img = json_object_get(d, "image_details"), *ig;
	const char *p;
	size_t i;

	when(&b, json_object_get(d, "last_used"));
	printf("%s  %-9s %s  last used %s\n", json_string_value(
	    json_object_get(d, "domain_id")), json_string_value(
	    json_object_get(d, "profile")) ?: "unknown", json_string_value(
	    json_object_get(d, "state")), b.buf);
	printf("  workspace  %s", json_string_value(json_object_get(d,
	    "workspace")) ?: "unknown (made before Lazaret recorded it; the "
	    "next launch does)");
	if (json_is_true(json_object_get(d, "workspace_missing")))
		printf(" (missing: the project was deleted or moved; 'lazaret "
		    "state reset --all --domain %s' empties its state)",
		    json_string_value(json_object_get(d, "domain_id")));
	printf("\n");
	if (json_integer_value(json_object_get(d, "prepared")) > 0)
		printf("  prepared   %lld containers made ahead for the next "
		    "start (created, never run)\n", json_integer_value(
		    json_object_get(d, "prepared")));
	printf("  image      %s", json_string_value(json_object_get(d,
	    "image")) ?: "unknown");
	if (img != NULL)
		printf(" (id %.12s, recipe %s)", json_string_value(
		    json_object_get(img, "id")) ?: "?", json_string_value(
		    json_object_get(img, "recipe")) ?: "none");
	else if (json_is_string(json_object_get(d, "image")))
		printf(" (not in podman's storage)");
	printf("\n");
	json_array_foreach(json_object_get(d, "anchors"), i, a) {
		lz_buf_reset(&sz);
		lz_state_size(&sz, (unsigned long long)json_integer_value(
		    json_object_get(a, "bytes")));
		p = json_string_value(json_object_get(a, "path"));
		printf("  anchor     %-12s generation %-3d %10s  %lld entries%s"
		    "%s\n", p ? p : json_string_value(json_object_get(a,
		    "name")), (int)json_integer_value(json_object_get(a,
		    "generation")), sz.buf, json_integer_value(
		    json_object_get(a, "entries")), p ? "" : " (path unknown: "
		    "a legacy directory)", json_is_string(json_object_get(a,
		    "problem")) ? "  PROBLEM (see 'state verify')" : "");
	}
	if ((ig = json_object_get(d, "ignored")) != NULL && !json_is_null(ig)) {
		lz_buf_reset(&sz);
		lz_state_size(&sz, (unsigned long long)json_integer_value(
		    json_object_get(ig, "bytes")));
		printf("  ignored    Ignored Workspace State %s, %lld "
		    "entries\n", sz.buf, json_integer_value(json_object_get(ig,
		    "entries")));
	} else
		printf("  sizes      unknown: %s\n", json_string_value(
		    json_object_get(d, "sizes_error")) ?: "?");
	lz_buf_release(&b);
	lz_buf_release(&sz);
}

int
lz_state_list(const struct lz_state_opts *o)
{
	struct lz_client c;
	struct lz_tokens ids = LZ_TOKENS_INIT, names = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_domain_meta m;
	struct lz_sandbox_ctx ctx;
	struct lz_sandbox_list ctrs = LZ_SANDBOX_LIST_INIT;
	json_t *sizes = NULL, *imgs, *all = json_array(), *d;
	const struct lz_profile *prof;
	size_t i;
	int rc, fd, listed = 0;

	if ((rc = lz_client_setup(&c, NULL, NULL, LZ_CLIENT_CONFIG)) != 0)
		return rc;
	if (lz_domain_list(c.paths.storage_root, &ids, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	for (i = 0; i < ids.n; i++) {
		memset(&m, 0, sizeof m);
		if ((fd = lz_domain_root_open(c.paths.storage_root, ids.v[i],
		    NULL)) >= 0) {
			lz_domain_meta_read(fd, ids.v[i], &m);
			close(fd);
		}
		prof = m.profile ? lz_config_profile(&c.cfg, m.profile) : NULL;
		if ((prof || m.image) && !lz_tokens_has(&names, prof ?
		    prof->image : m.image))
			lz_tokens_push(&names, prof ? prof->image : m.image);
		lz_domain_meta_release(&m);
	}
	if (ids.n > 0 && lz_state_run(NULL, o->self, "sizes", &ids, 64 <<
	    20, NULL, &sizes) != LZ_EXIT_OK)
		lz_cmd_error("sizes of the State Anchors are unknown");
	imgs = images(&names);
	/* The containers prepared for each Domain's next start. */
	if (ids.n > 0 && lz_sandbox_ctx_init(&ctx, NULL, o->self, &err) == 0) {
		listed = lz_sandbox_list_all(&ctx, &ctrs, &err) == 0;
		lz_sandbox_ctx_release(&ctx);
	}
	if (ids.n > 0 && !listed)
		lz_cmd_error("the containers prepared for the next starts are "
		    "unknown: %s", err.msg);
	for (i = 0; i < ids.n; i++)
		json_array_append_new(all, one(&c.paths, &c.cfg, ids.v[i],
		    json_object_get(sizes, "domains"), imgs, &ctrs, listed));
	lz_sandbox_list_release(&ctrs);
	json_decref(imgs);
	if (o->o.json)
		lz_client_print_json(json_incref(all));
	else if (ids.n == 0)
		printf("no Domains yet in %s/domains ('lazaret run' in a Git "
		    "project makes one)\n", c.paths.storage_root);
	else {
		json_array_foreach(all, i, d)
			print_one(d);
	}
	rc = LZ_EXIT_OK;
out:
	json_decref(all);
	json_decref(sizes);
	lz_tokens_release(&ids);
	lz_tokens_release(&names);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}
