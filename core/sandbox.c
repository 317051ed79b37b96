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
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/anchor.h"
#include "core/netpolicy.h"
#include "core/sandbox.h"
#include "core/spawn.h"

#define ANCHOR_MOUNT_WHAT "State Anchor mount (podman unshare)"

static int	 run_podman(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *argv, struct lz_spawn_result *res,
		     const char *what, struct lz_err *err);
static void	 podman_opts(const struct lz_sandbox_ctx *c,
		     struct lz_spawn_opts *o);
static int	 podman_done(int rc, const struct lz_spawn_result *res,
		     const char *what, struct lz_err *err);
static int	 anchors_argv(const struct lz_sandbox_ctx *c,
		     const struct lz_mountplan *plan, const char *domain_root,
		     const char *image, struct lz_tokens *t, size_t *n,
		     struct lz_err *err);
static void	 trim(struct lz_buf *b);
static char	*stderr_text(const struct lz_spawn_result *res);
static int	 image_exists(const struct lz_sandbox_ctx *c, const char *image);
static int	 remove_ids(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *ids, struct lz_err *err);
static char	*json_str(json_t *o, const char *key);
static int	 list_external(const struct lz_sandbox_ctx *c,
		     struct lz_sandbox_list *out);
static int	 take_id(struct lz_buf *out, char **id, const char *what,
		     struct lz_err *err);
static long	 now_ms(void);
static int	 sidecar_run(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, char **id,
		     struct lz_err *err);
static int	 sidecar_ready(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, const char *id,
		     struct lz_err *err);

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

	podman_opts(c, &o);
	return podman_done(lz_spawn_capture((const char *const *)argv->v, &o,
	    res, err), res, what, err);
}

/* Options for every podman call: c's timeout, cwd "/". */
static void
podman_opts(const struct lz_sandbox_ctx *c, struct lz_spawn_opts *o)
{
	memset(o, 0, sizeof *o);
	o->timeout_ms = c->timeout_ms;
	/* Not the caller's directory: podman fails when it has gone. */
	o->cwd = "/";
}

/* run_podman's verdict on a finished call whose spawn returned rc. */
static int
podman_done(int rc, const struct lz_spawn_result *res, const char *what,
    struct lz_err *err)
{
	char *text;

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
	podman_opts(c, &o);
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

/*
 * Prepares the directories of plan's ANCHOR entries and builds the
 * helper's argv in t; *n gets the number of anchors (0: nothing to run).
 */
static int
anchors_argv(const struct lz_sandbox_ctx *c, const struct lz_mountplan *plan,
    const char *domain_root, const char *image, struct lz_tokens *t,
    size_t *n, struct lz_err *err)
{
	struct lz_anchor a;
	size_t i;
	int rc = 0;

	*n = 0;
	lz_tokens_push(t, c->podman);
	lz_tokens_push(t, "unshare");
	lz_tokens_push(t, "--");
	lz_tokens_push(t, c->self);
	lz_tokens_push(t, "__anchor");
	lz_tokens_push(t, "mount");
	lz_tokens_push(t, "-P");
	lz_tokens_push(t, c->podman);
	lz_tokens_push(t, "-i");
	lz_tokens_push(t, image);
	lz_tokens_push(t, "--");
	for (i = 0; i < plan->n; i++) {
		if (plan->v[i].kind != LZ_MOUNT_ANCHOR)
			continue;
		memset(&a, 0, sizeof a);
		if ((rc = lz_anchor_prepare(domain_root, plan->v[i].target, &a,
		    err)) != 0)
			return rc;
		if (plan->v[i].source == NULL ||
		    strcmp(a.merged, plan->v[i].source) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "mount plan names '%s' "
			    "for State Anchor '%s', not its merged directory "
			    "'%s'", plan->v[i].source ? plan->v[i].source : "",
			    a.path, a.merged);
			lz_anchor_release(&a);
			return rc;
		}
		lz_tokens_push(t, a.path);
		lz_tokens_push(t, a.upper);
		lz_tokens_push(t, a.work);
		lz_tokens_push(t, a.merged);
		lz_tokens_push(t, a.lower_empty);
		lz_anchor_release(&a);
		(*n)++;
	}
	return 0;
}

int
lz_sandbox_anchors_mount(const struct lz_sandbox_ctx *c,
    const struct lz_mountplan *plan, const char *domain_root,
    const char *image, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	size_t n;
	int rc;

	lz_spawn_result_init(&res);
	rc = anchors_argv(c, plan, domain_root, image, &t, &n, err);
	if (rc == 0 && n > 0)
		rc = run_podman(c, &t, &res, ANCHOR_MOUNT_WHAT, err);
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

/* The 64-hex container ID podman printed, taken from out. */
static int
take_id(struct lz_buf *out, char **id, const char *what, struct lz_err *err)
{
	size_t i;

	trim(out);
	for (i = 0; i < out->len; i++) {
		if (strchr("0123456789abcdef", out->buf[i]) == NULL)
			break;
	}
	if (out->len != 64 || i != out->len)
		return lz_err_set(err, LZ_ESYS, "%s printed '%.80s', not a "
		    "container ID", what, out->buf);
	*id = lz_buf_detach(out);
	return 0;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* "podman run -d" of the Network Sidecar; *id gets its container ID. */
static int
sidecar_run(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    char **id, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	int rc;

	lz_spawn_result_init(&res);
	rc = lz_sandbox_argv_sidecar(c->podman, s->domain_id, s->sidecar_image,
	    s->netpolicy_sent != NULL ? s->netpolicy_sent : s->netpolicy, &t,
	    err);
	if (rc == 0)
		rc = run_podman(c, &t, &res, "podman run (network sidecar)",
		    err);
	if (rc == 0)
		rc = take_id(&res.out, id, "podman run (network sidecar)", err);
	else if (rc == LZ_ESYS && !image_exists(c, s->sidecar_image != NULL ?
	    s->sidecar_image : LZ_SANDBOX_SIDECAR_IMAGE))
		rc = lz_err_set(err, LZ_ENOTFOUND, "network sidecar image '%s' "
		    "not found; run scripts/setup.sh", s->sidecar_image != NULL ?
		    s->sidecar_image : LZ_SANDBOX_SIDECAR_IMAGE);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

int
lz_sandbox_sidecar_check(const char *text, const char *id,
    const char *domain_id, int *running, int *exit_code, struct lz_err *err)
{
	json_error_t je;
	json_t *root, *o, *labels, *state, *v;
	const char *got;
	int rc = 0;

	*running = 0;
	*exit_code = -1;
	if ((root = json_loads(text, 0, &je)) == NULL)
		return lz_err_set(err, LZ_EINVAL, "cannot parse podman's "
		    "inspect of the network sidecar: %s (line %d)", je.text,
		    je.line);
	o = json_array_get(root, 0);
	v = json_object_get(o, "Id");
	if (!json_is_string(v) || strcmp(json_string_value(v), id) != 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "network sidecar '%.12s' is "
		    "not the container Lazaret created (inspect gives ID "
		    "'%.12s')", id, json_is_string(v) ? json_string_value(v) :
		    "none");
		goto out;
	}
	labels = json_object_get(json_object_get(o, "Config"), "Labels");
	got = json_string_value(json_object_get(labels,
	    LZ_SANDBOX_LABEL_DOMAIN));
	if (got == NULL || strcmp(got, domain_id) != 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "network sidecar '%.12s' "
		    "carries Domain label '%s', not '%s'", id, got ? got :
		    "(none)", domain_id);
		goto out;
	}
	got = json_string_value(json_object_get(labels, LZ_SANDBOX_LABEL_ROLE));
	if (got == NULL || strcmp(got, LZ_SANDBOX_ROLE_SIDECAR) != 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "network sidecar '%.12s' "
		    "carries role label '%s', not '" LZ_SANDBOX_ROLE_SIDECAR
		    "'", id, got ? got : "(none)");
		goto out;
	}
	state = json_object_get(o, "State");
	*running = json_is_true(json_object_get(state, "Running"));
	v = json_object_get(state, "ExitCode");
	if (json_is_integer(v))
		*exit_code = (int)json_integer_value(v);
out:
	json_decref(root);
	return rc;
}

/*
 * Waits for "ready <digest>" from the sidecar, then checks the digest and
 * that the container is ours and still running.
 */
static int
sidecar_ready(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    const char *id, struct lz_err *err)
{
	struct lz_tokens logs = LZ_TOKENS_INIT, insp = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	char want[LZ_NETPOLICY_DIGEST_LEN + 1], got[LZ_NETPOLICY_DIGEST_LEN + 1];
	const char *p;
	char *text;
	long deadline = now_ms() + LZ_SANDBOX_SIDECAR_READY_MS;
	int rc, running, code, ready;

	lz_spawn_result_init(&res);
	if ((rc = lz_netpolicy_digest(s->netpolicy, strlen(s->netpolicy), want,
	    err)) != 0)
		goto out;
	lz_tokens_push(&logs, c->podman);
	lz_tokens_push(&logs, "logs");
	lz_tokens_push(&logs, id);
	lz_tokens_push(&insp, c->podman);
	lz_tokens_push(&insp, "inspect");
	lz_tokens_push(&insp, "--type");
	lz_tokens_push(&insp, "container");
	lz_tokens_push(&insp, "--format");
	lz_tokens_push(&insp, "json");
	lz_tokens_push(&insp, id);
	for (;;) {
		if ((rc = run_podman(c, &logs, &res, "podman logs (network "
		    "sidecar)", err)) != 0)
			goto out;
		ready = 0;
		for (p = res.out.buf; (p = strstr(p, "ready ")) != NULL; p++) {
			if (p != res.out.buf && p[-1] != '\n')
				continue;
			if (strlen(p + 6) < LZ_NETPOLICY_DIGEST_LEN)
				break;
			memcpy(got, p + 6, LZ_NETPOLICY_DIGEST_LEN);
			got[LZ_NETPOLICY_DIGEST_LEN] = '\0';
			ready = 1;
			break;
		}
		text = stderr_text(&res);
		if ((rc = run_podman(c, &insp, &res, "podman inspect (network "
		    "sidecar)", err)) != 0) {
			free(text);
			goto out;
		}
		rc = lz_sandbox_sidecar_check(res.out.buf, id, s->domain_id,
		    &running, &code, err);
		if (rc == 0 && ready && strcmp(got, want) != 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "network sidecar "
			    "installed policy %.16s..., but Lazaret compiled "
			    "%.16s...: the policy changed on its way; the "
			    "sandbox is not started", got, want);
		else if (rc == 0 && !running)
			rc = lz_err_set(err, LZ_ESYS, "network sidecar exited "
			    "(status %d) before the sandbox started: %s", code,
			    text);
		else if (rc == 0 && !ready && now_ms() > deadline)
			rc = lz_err_set(err, -ETIMEDOUT, "network sidecar did "
			    "not report ready within %d ms: %s",
			    LZ_SANDBOX_SIDECAR_READY_MS, text);
		free(text);
		if (rc != 0 || ready)
			goto out;
		nanosleep(&pause, NULL);
	}
out:
	lz_spawn_result_release(&res);
	lz_tokens_release(&logs);
	lz_tokens_release(&insp);
	return rc;
}

int
lz_sandbox_start(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    char **container_id, struct lz_err *err)
{
	return lz_sandbox_start_net(c, s, domain_root, container_id, NULL,
	    err);
}

/*
 * With a sidecar, its start (run, readiness, checks) and the anchor helper
 * run at the same time: they share nothing but podman's storage, which
 * podman locks, and the sandbox is run only after both have succeeded.
 */
int
lz_sandbox_start_net(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    char **container_id, char **sidecar_id, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT, at = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	struct lz_spawn_proc helper;
	struct lz_err undo = LZ_ERR_INIT, sub = LZ_ERR_INIT;
	struct lz_sandbox_spec net;
	char *sid = NULL, *network = NULL;
	size_t nanchors;
	int rc, r, have_image, helper_running = 0;

	*container_id = NULL;
	if (sidecar_id != NULL)
		*sidecar_id = NULL;
	lz_spawn_result_init(&res);
	net = *s;
	if ((rc = anchors_argv(c, s->plan, domain_root, s->image, &at,
	    &nanchors, err)) != 0)
		goto fail;
	if (s->netpolicy != NULL && nanchors > 0) {
		podman_opts(c, &o);
		if ((rc = lz_spawn_start((const char *const *)at.v, &o,
		    &helper, err)) != 0) {
			rc = lz_err_prefix(err, rc, "%s", ANCHOR_MOUNT_WHAT);
			goto fail;
		}
		helper_running = 1;
	}
	if (s->netpolicy != NULL) {
		rc = sidecar_run(c, s, &sid, err);
		if (rc == 0)
			rc = sidecar_ready(c, s, sid, err);
	}
	if (helper_running) {
		/* Always reaped; the sidecar's failure, if any, is the news. */
		helper_running = 0;
		r = lz_spawn_wait(&helper, &res, rc == 0 ? err : &sub);
		r = podman_done(r, &res, ANCHOR_MOUNT_WHAT, rc == 0 ? err :
		    &sub);
		if (rc == 0)
			rc = r;
	} else if (rc == 0 && nanchors > 0)
		rc = run_podman(c, &at, &res, ANCHOR_MOUNT_WHAT, err);
	if (rc != 0)
		goto fail;
	if (sid != NULL) {
		network = lz_xasprintf("container:%s", sid);
		net.network = network;
	}
	if ((rc = lz_sandbox_argv_run(c->podman, &net, &t, err)) != 0)
		goto fail;
	if ((rc = run_podman(c, &t, &res, "podman run", err)) != 0)
		goto fail;
	if ((rc = take_id(&res.out, container_id, "podman run", err)) != 0)
		goto fail;
	if (sidecar_id != NULL) {
		*sidecar_id = sid;
		sid = NULL;
	}
	goto out;
fail:
	if (helper_running) {
		/* Reaped before the teardown unmounts what it made. */
		(void)lz_spawn_wait(&helper, &res, NULL);
		helper_running = 0;
	}
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
	free(sid);
	free(network);
	lz_err_release(&undo);
	lz_err_release(&sub);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	lz_tokens_release(&at);
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
	struct lz_sandbox_list all = LZ_SANDBOX_LIST_INIT;
	struct lz_tokens ids = LZ_TOKENS_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	char *name;
	size_t i, k;
	int rc = 0, r, complete;

	/* Everything, storage-only leftovers included, in one call. */
	complete = list_external(c, &all) == 0;
	if (complete)
		lz_sandbox_list_select(&all, domain_id, &l);
	else if ((r = lz_sandbox_list(c, domain_id, &l, &sub)) != 0) {
		rc = lz_err_set(err, r, "%s", sub.msg);
		lz_err_release(&sub);
	}
	/* Sandbox, then sidecar, then anything else with the label. */
	for (k = 0; k < sizeof order / sizeof *order; k++) {
		/* Without the full listing, its name too: a podman killed in
		 * "run" may leave it in storage only, unlabelled (once: the
		 * same container twice in one "rm" makes the second removal
		 * fail). */
		if (k < 2 && !complete) {
			name = k == 0 ? lz_sandbox_name(domain_id) :
			    lz_sandbox_sidecar_name(domain_id);
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
	lz_sandbox_list_release(&all);
	return rc;
}

/*
 * Every container of the account, storage-only ones included ("podman ps
 * -a --external"). Non-zero when podman failed or the listing was cut
 * short: the caller then cannot rely on it.
 */
static int
list_external(const struct lz_sandbox_ctx *c, struct lz_sandbox_list *out)
{
	static const char *const argv[] = { "ps", "-a", "--external",
	    "--format", "json", NULL };
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	size_t i;
	int rc;

	lz_spawn_result_init(&res);
	lz_tokens_push(&t, c->podman);
	for (i = 0; argv[i] != NULL; i++)
		lz_tokens_push(&t, argv[i]);
	podman_opts(c, &o);
	o.max_output = 16 * 1024 * 1024;
	rc = lz_spawn_capture((const char *const *)t.v, &o, &res, NULL);
	if (rc == 0 && (res.status != 0 || res.truncated))
		rc = LZ_ESYS;
	if (rc == 0)
		rc = lz_sandbox_list_parse(res.out.buf, out, NULL);
	if (rc != 0)
		lz_sandbox_list_release(out);
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

void
lz_sandbox_list_select(const struct lz_sandbox_list *all,
    const char *domain_id, struct lz_sandbox_list *out)
{
	const struct lz_sandbox_entry *e;
	struct lz_sandbox_entry *n;
	char *box = lz_sandbox_name(domain_id);
	char *side = lz_sandbox_sidecar_name(domain_id);
	const char *role;
	size_t i;

	for (i = 0; i < all->n; i++) {
		e = &all->v[i];
		role = e->role;
		if (strcmp(e->name, box) == 0 && *e->role == '\0')
			role = LZ_SANDBOX_ROLE_SANDBOX;
		else if (strcmp(e->name, side) == 0 && *e->role == '\0')
			role = LZ_SANDBOX_ROLE_SIDECAR;
		else if (strcmp(e->domain, domain_id) != 0 &&
		    strcmp(e->name, box) != 0 && strcmp(e->name, side) != 0)
			continue;
		out->v = lz_xreallocarray(out->v, out->n + 1, sizeof *out->v);
		n = &out->v[out->n++];
		n->id = lz_xstrdup(e->id);
		n->name = lz_xstrdup(e->name);
		n->role = lz_xstrdup(role);
		n->domain = lz_xstrdup(e->domain);
		n->state = lz_xstrdup(e->state);
	}
	free(box);
	free(side);
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
		e->domain = json_str(labels, LZ_SANDBOX_LABEL_DOMAIN);
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
		free(l->v[i].domain);
		free(l->v[i].state);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
