/*
 * sandbox.c: starting, stopping and listing the Agent Sandbox through
 * rootless podman (sandbox.h). Builds argument vectors (sandbox-argv.c)
 * and runs them with lz_spawn_capture; the State Anchor mounts are made by
 * the "__anchor" helper inside "podman unshare".
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/anchor.h"
#include "core/sandbox.h"
#include "core/spawn.h"

static int	 run_podman(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *argv, struct lz_spawn_result *res,
		     const char *what, struct lz_err *err);
static void	 trim(struct lz_buf *b);
static char	*stderr_text(const struct lz_spawn_result *res);
static int	 image_exists(const struct lz_sandbox_ctx *c, const char *image);
static int	 remove_ids(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *ids, struct lz_err *err);
static char	*json_str(json_t *o, const char *key);

int
lz_sandbox_ctx_init(struct lz_sandbox_ctx *c, const char *podman,
    const char *self, struct lz_err *err)
{
	char buf[PATH_MAX];
	ssize_t n;
	int rc;

	memset(c, 0, sizeof *c);
	c->timeout_ms = LZ_SANDBOX_TIMEOUT_MS;
	if (podman != NULL)
		c->podman = lz_xstrdup(podman);
	else if (lz_spawn_find("podman", NULL, &c->podman, NULL) != 0 &&
	    access(LZ_SANDBOX_PODMAN_FALLBACK, X_OK) == 0)
		c->podman = lz_xstrdup(LZ_SANDBOX_PODMAN_FALLBACK);
	if (c->podman == NULL) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "podman not found in PATH "
		    "or at '%s' (run scripts/setup.sh)",
		    LZ_SANDBOX_PODMAN_FALLBACK);
		goto fail;
	}
	if (self != NULL)
		c->self = lz_xstrdup(self);
	else {
		if ((n = readlink("/proc/self/exe", buf, sizeof buf - 1)) < 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot find the lazaret "
			    "executable ('/proc/self/exe'): %s",
			    strerror(errno));
			goto fail;
		}
		buf[n] = '\0';
		c->self = lz_xstrdup(buf);
	}
	return 0;
fail:
	lz_sandbox_ctx_release(c);
	return rc;
}

void
lz_sandbox_ctx_release(struct lz_sandbox_ctx *c)
{
	free(c->podman);
	free(c->self);
	memset(c, 0, sizeof *c);
}

static void
trim(struct lz_buf *b)
{
	while (b->len > 0 && (b->buf[b->len - 1] == '\n' ||
	    b->buf[b->len - 1] == '\r' || b->buf[b->len - 1] == ' '))
		b->buf[--b->len] = '\0';
}

/*
 * podman's stderr without its "not a shared mount" warning, which every
 * call on these hosts prints and which explains nothing. Allocated.
 */
static char *
stderr_text(const struct lz_spawn_result *res)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *p = res->err.buf, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (strstr(p, "is not a shared mount") == NULL ||
		    strstr(p, "is not a shared mount") > nl) {
			if (b.len > 0)
				lz_buf_adds(&b, "; ");
			if (strncmp(p, "lazaret: ", 9) == 0)
				p += 9;
			lz_buf_add(&b, p, nl - p);
		}
		p = *nl == '\n' ? nl + 1 : nl;
	}
	trim(&b);
	if (b.len == 0)
		lz_buf_addf(&b, "exit status %d", res->status);
	return lz_buf_detach(&b);
}

/*
 * Runs argv; 0 when podman exited 0. Otherwise an error "WHAT failed:
 * STDERR" (res still holds the output).
 */
static int
run_podman(const struct lz_sandbox_ctx *c, const struct lz_tokens *argv,
    struct lz_spawn_result *res, const char *what, struct lz_err *err)
{
	struct lz_spawn_opts o;
	char *text;
	int rc;

	memset(&o, 0, sizeof o);
	o.timeout_ms = c->timeout_ms;
	rc = lz_spawn_capture((const char *const *)argv->v, &o, res, err);
	if (rc != 0)
		return lz_err_prefix(err, rc, "%s", what);
	if (res->status == 0)
		return 0;
	text = stderr_text(res);
	rc = lz_err_set(err, LZ_ESYS, "%s failed: %s", what, text);
	free(text);
	return rc;
}

/* 1 when podman knows image, 0 when it does not (or cannot tell). */
static int
image_exists(const struct lz_sandbox_ctx *c, const char *image)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	int rc;

	lz_spawn_result_init(&res);
	memset(&o, 0, sizeof o);
	o.timeout_ms = c->timeout_ms;
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "image");
	lz_tokens_push(&t, "exists");
	lz_tokens_push(&t, image);
	rc = lz_spawn_capture((const char *const *)t.v, &o, &res, NULL);
	rc = rc == 0 && res.status == 0;
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

int
lz_sandbox_anchors_mount(const struct lz_sandbox_ctx *c,
    const struct lz_mountplan *plan, const char *domain_root,
    const char *image, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_anchor a;
	size_t i, n = 0;
	int rc = 0;

	lz_spawn_result_init(&res);
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "unshare");
	lz_tokens_push(&t, "--");
	lz_tokens_push(&t, c->self);
	lz_tokens_push(&t, "__anchor");
	lz_tokens_push(&t, "mount");
	lz_tokens_push(&t, "-P");
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "-i");
	lz_tokens_push(&t, image);
	lz_tokens_push(&t, "--");
	for (i = 0; i < plan->n; i++) {
		if (plan->v[i].kind != LZ_MOUNT_ANCHOR)
			continue;
		memset(&a, 0, sizeof a);
		if ((rc = lz_anchor_prepare(domain_root, plan->v[i].target, &a,
		    err)) != 0)
			goto out;
		if (plan->v[i].source == NULL ||
		    strcmp(a.merged, plan->v[i].source) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "mount plan names '%s' "
			    "for State Anchor '%s', not its merged directory "
			    "'%s'", plan->v[i].source ? plan->v[i].source : "",
			    a.path, a.merged);
			lz_anchor_release(&a);
			goto out;
		}
		lz_tokens_push(&t, a.path);
		lz_tokens_push(&t, a.upper);
		lz_tokens_push(&t, a.work);
		lz_tokens_push(&t, a.merged);
		lz_tokens_push(&t, a.lower_empty);
		lz_anchor_release(&a);
		n++;
	}
	if (n == 0)
		goto out;
	rc = run_podman(c, &t, &res, "State Anchor mount (podman unshare)", err);
out:
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

int
lz_sandbox_anchors_umount(const struct lz_sandbox_ctx *c,
    const char *domain_root, const char *image, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	char *dir = lz_xasprintf("%s/anchors", domain_root);
	int rc = 0;

	lz_spawn_result_init(&res);
	/* No anchors directory, no image: nothing of ours can be mounted. */
	if (access(dir, F_OK) != 0 && errno == ENOENT && image == NULL)
		goto out;
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "unshare");
	lz_tokens_push(&t, "--");
	lz_tokens_push(&t, c->self);
	lz_tokens_push(&t, "__anchor");
	lz_tokens_push(&t, "umount");
	lz_tokens_push(&t, "-P");
	lz_tokens_push(&t, c->podman);
	if (image != NULL) {
		lz_tokens_push(&t, "-i");
		lz_tokens_push(&t, image);
	}
	lz_tokens_push(&t, "-u");
	lz_tokens_push(&t, dir);
	rc = run_podman(c, &t, &res, "State Anchor unmount (podman unshare)", err);
out:
	free(dir);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

int
lz_sandbox_start(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    char **container_id, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_err undo = LZ_ERR_INIT;
	size_t i;
	int rc, have_image;

	*container_id = NULL;
	lz_spawn_result_init(&res);
	if ((rc = lz_sandbox_argv_run(c->podman, s, &t, err)) != 0)
		goto out;
	if ((rc = lz_sandbox_anchors_mount(c, s->plan, domain_root, s->image,
	    err)) != 0)
		goto fail;
	if ((rc = run_podman(c, &t, &res, "podman run", err)) != 0)
		goto fail;
	trim(&res.out);
	for (i = 0; i < res.out.len; i++) {
		if (strchr("0123456789abcdef", res.out.buf[i]) == NULL)
			break;
	}
	if (res.out.len != 64 || i != res.out.len) {
		rc = lz_err_set(err, LZ_ESYS, "podman run printed '%.80s', not "
		    "a container ID", res.out.buf);
		goto fail;
	}
	*container_id = lz_buf_detach(&res.out);
	goto out;
fail:
	if (!(have_image = image_exists(c, s->image)))
		rc = lz_err_set(err, LZ_ENOTFOUND, "image '%s' not found; run "
		    "scripts/setup.sh or set image = ... in the profile "
		    "(podman said: %s)", s->image, err && err->msg ? err->msg :
		    "nothing");
	if (lz_sandbox_stop(c, s->domain_id, domain_root, have_image ?
	    s->image : NULL, &undo) != 0)
		lz_err_set(err, rc, "%s; cleaning up also failed: %s",
		    err && err->msg ? err->msg : "sandbox start failed",
		    undo.msg);
out:
	lz_err_release(&undo);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

/* Removes the containers in ids (with --ignore: already gone is fine). */
static int
remove_ids(const struct lz_sandbox_ctx *c, const struct lz_tokens *ids,
    struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	size_t i;
	int rc = 0;

	if (ids->n == 0)
		return 0;
	lz_spawn_result_init(&res);
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "rm");
	lz_tokens_push(&t, "-f");
	lz_tokens_push(&t, "-t");
	lz_tokens_push(&t, "0");
	lz_tokens_push(&t, "--ignore");
	lz_tokens_push(&t, "--");
	for (i = 0; i < ids->n; i++)
		lz_tokens_push(&t, ids->v[i]);
	rc = run_podman(c, &t, &res, "podman rm",
	    err);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

int
lz_sandbox_stop(const struct lz_sandbox_ctx *c, const char *domain_id,
    const char *domain_root, const char *image, struct lz_err *err)
{
	static const char *const order[] = { LZ_SANDBOX_ROLE_SANDBOX,
	    LZ_SANDBOX_ROLE_SIDECAR, NULL };
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	struct lz_tokens ids = LZ_TOKENS_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	char *name;
	size_t i, k;
	int rc = 0, r;

	r = lz_sandbox_list(c, domain_id, &l, &sub);
	if (r != 0) {
		rc = lz_err_set(err, r, "%s", sub.msg);
		lz_err_release(&sub);
	}
	/* Sandbox, then sidecar, then anything else with the label. */
	for (k = 0; k < sizeof order / sizeof *order; k++) {
		/* Its name too: a podman killed in "run" may leave it in
		 * storage only, unlabelled (once: the same container twice
		 * in one "rm" makes the second removal fail). */
		if (k == 0) {
			name = lz_sandbox_name(domain_id);
			for (i = 0; i < l.n; i++) {
				if (strcmp(l.v[i].name, name) == 0)
					break;
			}
			if (i == l.n)
				lz_tokens_push(&ids, name);
			free(name);
		}
		for (i = 0; i < l.n; i++) {
			if (order[k] != NULL ? strcmp(l.v[i].role, order[k]) ==
			    0 : (strcmp(l.v[i].role, LZ_SANDBOX_ROLE_SANDBOX) !=
			    0 && strcmp(l.v[i].role, LZ_SANDBOX_ROLE_SIDECAR) !=
			    0))
				lz_tokens_push(&ids, l.v[i].id);
		}
		r = remove_ids(c, &ids, &sub);
		if (r != 0 && rc == 0) {
			rc = r;
			lz_err_set(err, r, "%s", sub.msg);
		}
		lz_err_release(&sub);
		lz_tokens_release(&ids);
	}
	r = lz_sandbox_anchors_umount(c, domain_root, image, &sub);
	if (r != 0 && rc == 0) {
		rc = r;
		lz_err_set(err, r, "%s", sub.msg);
	}
	lz_err_release(&sub);
	lz_sandbox_list_release(&l);
	return rc;
}

int
lz_sandbox_list(const struct lz_sandbox_ctx *c, const char *domain_id,
    struct lz_sandbox_list *out, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	char *filter;
	int rc;

	lz_spawn_result_init(&res);
	lz_tokens_push(&t, c->podman);
	lz_tokens_push(&t, "ps");
	lz_tokens_push(&t, "-a");
	lz_tokens_push(&t, "--filter");
	filter = lz_xasprintf("label=" LZ_SANDBOX_LABEL_DOMAIN "=%s",
	    domain_id);
	lz_tokens_push(&t, filter);
	free(filter);
	lz_tokens_push(&t, "--format");
	lz_tokens_push(&t, "json");
	if ((rc = run_podman(c, &t, &res, "podman ps", err)) != 0)
		goto out;
	rc = lz_sandbox_list_parse(res.out.buf, out, err);
out:
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

/* The string at key, or "" (allocated). */
static char *
json_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return lz_xstrdup(json_is_string(v) ? json_string_value(v) : "");
}

int
lz_sandbox_list_parse(const char *text, struct lz_sandbox_list *out,
    struct lz_err *err)
{
	struct lz_sandbox_entry *e;
	json_error_t je;
	json_t *root, *o, *labels, *names;
	size_t i;
	int rc = 0;

	/* podman 4.3 prints nothing at all (not "[]") for some filters. */
	while (*text == ' ' || *text == '\n' || *text == '\t')
		text++;
	if (*text == '\0')
		return 0;
	if ((root = json_loads(text, 0, &je)) == NULL)
		return lz_err_set(err, LZ_EINVAL, "cannot parse podman's "
		    "container list: %s (line %d)", je.text, je.line);
	if (!json_is_array(root)) {
		rc = lz_err_set(err, LZ_EINVAL, "cannot parse podman's "
		    "container list: not a JSON array");
		goto out;
	}
	json_array_foreach(root, i, o) {
		if (!json_is_object(o) || !json_is_string(json_object_get(o,
		    "Id"))) {
			rc = lz_err_set(err, LZ_EINVAL, "cannot parse podman's "
			    "container list: entry %zu has no Id", i);
			goto out;
		}
		out->v = lz_xreallocarray(out->v, out->n + 1, sizeof *out->v);
		e = &out->v[out->n++];
		e->id = json_str(o, "Id");
		e->state = json_str(o, "State");
		labels = json_object_get(o, "Labels");
		e->role = json_str(labels, LZ_SANDBOX_LABEL_ROLE);
		names = json_object_get(o, "Names");
		e->name = lz_xstrdup(json_is_string(json_array_get(names, 0)) ?
		    json_string_value(json_array_get(names, 0)) : "");
	}
out:
	json_decref(root);
	return rc;
}

void
lz_sandbox_list_release(struct lz_sandbox_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].id);
		free(l->v[i].name);
		free(l->v[i].role);
		free(l->v[i].state);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
