/*
 * sandbox.c: starting, stopping and listing the Agent Sandbox through
 * rootless podman (sandbox.h). Builds argument vectors (sandbox-argv.c)
 * and runs them with lz_spawn_capture; the State Anchors are mounted by
 * the runtime shim (anchor-annot.h) and unmounted by the "__anchor" helper
 * inside "podman unshare".
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/anchor.h"
#include "core/anchor-annot.h"
#include "core/gate.h"
#include "core/netpolicy.h"
#include "core/hmac.h"
#include "core/pathcheck.h"
#include "core/sandbox.h"
#include "core/spawn.h"
#include "core/ws-view.h"

#define ANCHOR_UMOUNT_WHAT "State Anchor unmount (podman unshare)"

static int	 run_podman(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *argv, struct lz_spawn_result *res,
		     const char *what, struct lz_err *err);
static void	 podman_opts(const struct lz_sandbox_ctx *c,
		     struct lz_spawn_opts *o);
static int	 podman_done(int rc, const struct lz_spawn_result *res,
		     const char *what, struct lz_err *err);
static int	 anchors_value(const struct lz_mountplan *plan,
		     const char *domain_root, char **value,
		     struct lz_err *err);
static void	 helper_argv(const struct lz_sandbox_ctx *c, const char *verb,
		     struct lz_tokens *t);
static int	 umount_argv(const struct lz_sandbox_ctx *c,
		     const char *domain_root, struct lz_tokens *t);
static void	 keep_first(int r, struct lz_err *sub, int *rc,
		     struct lz_err *err);
static void	 trim(struct lz_buf *b);
static char	*stderr_text(const struct lz_spawn_result *res);
static int	 image_exists(const struct lz_sandbox_ctx *c, const char *image);
static int	 remove_ids(const struct lz_sandbox_ctx *c,
		     const struct lz_tokens *ids, struct lz_err *err);
static char	*json_str(json_t *o, const char *key);
static void	 sweep(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_list *all, const char *domain_id);
static int	 list_external(const struct lz_sandbox_ctx *c,
		     struct lz_sandbox_list *out);
static int	 take_id(struct lz_buf *out, char **id, const char *what,
		     struct lz_err *err);
static int	 sidecar_run(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, char **id,
		     struct lz_err *err);
static int	 sidecar_ready(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, const char *id,
		     pid_t running, int *pidfd, pid_t *pid,
		     struct lz_err *err);
static int	 start_once(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, const char *domain_root,
		     struct lz_sandbox_started *st, struct lz_err *err);
static int	 start_prepared(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s, struct lz_sandbox_use *u,
		     struct lz_sandbox_started *st, struct lz_err *err);
static int	 image_store_begin(const struct lz_sandbox_ctx *c,
		     struct lz_spawn_proc *p);
static void	 image_store_end(struct lz_spawn_proc *p, int running,
		     char out[LZ_SANDBOX_PREP_PATH_MAX]);
static int	 images_of(const struct lz_sandbox_ctx *c,
		     struct lz_sandbox_prepared *p, struct lz_err *err);
static int	 use_judge(struct lz_sandbox_use *u, const char *domain_id,
		     const char *pidfile, struct lz_err *err);
static int	 sidecar_idle(const struct lz_sandbox_spec *s,
		     struct lz_err *err);
static int	 sidecar_still(int pidfd, struct lz_err *err);
static int	 sidecar_files_reset(const struct lz_sandbox_spec *s,
		     struct lz_err *err);
static int	 sidecar_pid(const struct lz_sandbox_spec *s, pid_t running,
		     int64_t deadline, int *pidfd, pid_t *pid,
		     struct lz_err *err);
static int	 gate_tell(int fd, pid_t sidecar, const char *why,
		     struct lz_err *err);
static int	 sandbox_gated(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s,
		     const struct lz_tokens *argv, pid_t sidecar, char **id,
		     struct lz_err *err);
static void	 podman_argv(const struct lz_sandbox_ctx *c,
		     struct lz_tokens *t, const char *verb, const char *a1,
		     const char *a2, const char *a3, const char *a4);
static int	 exited(int pidfd);
static int	 sidecar_output(const struct lz_sandbox_ctx *c,
		     const struct lz_sandbox_spec *s,
		     const struct lz_tokens *logs, int ms,
		     struct lz_spawn_result *res, struct lz_err *err);
static int	 read_small(const char *path, struct lz_buf *b,
		     struct lz_err *err);
static int	 find_ready(const char *out,
		     char got[LZ_NETPOLICY_DIGEST_LEN + 1], char mac[65]);
static int	 attached(const struct lz_sandbox_spec *s, const char *digest,
		     const char *mac, struct lz_err *err);

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
	free(c->mailbox);
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

/* "PODMAN unshare -- SELF __anchor VERB" into t. */
static void
helper_argv(const struct lz_sandbox_ctx *c, const char *verb,
    struct lz_tokens *t)
{
	lz_tokens_push(t, c->podman);
	lz_tokens_push(t, "unshare");
	lz_tokens_push(t, "--");
	lz_tokens_push(t, c->self);
	lz_tokens_push(t, "__anchor");
	lz_tokens_push(t, verb);
}

/*
 * Prepares the directories of plan's ANCHOR entries and encodes them as
 * the "lazaret.anchors" annotation for the runtime shim, which mounts them
 * (anchor-annot.h); *value stays NULL when there is none.
 */
static int
anchors_value(const struct lz_mountplan *plan, const char *domain_root,
    char **value, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_anchor a;
	size_t i;
	int rc = 0;

	*value = NULL;
	for (i = 0; i < plan->n; i++) {
		if (plan->v[i].kind != LZ_MOUNT_ANCHOR)
			continue;
		memset(&a, 0, sizeof a);
		if ((rc = lz_anchor_prepare(domain_root, plan->v[i].target, &a,
		    err)) != 0)
			break;
		if (plan->v[i].source == NULL ||
		    strcmp(a.merged, plan->v[i].source) != 0) {
			rc = lz_err_set(err, LZ_EINVAL, "mount plan names '%s' "
			    "for State Anchor '%s', not its merged directory "
			    "'%s'", plan->v[i].source ? plan->v[i].source : "",
			    a.path, a.merged);
			lz_anchor_release(&a);
			break;
		}
		lz_tokens_push(&t, a.path);
		lz_tokens_push(&t, a.upper);
		lz_tokens_push(&t, a.work);
		lz_tokens_push(&t, a.merged);
		lz_tokens_push(&t, a.lower_empty);
		lz_anchor_release(&a);
	}
	if (rc == 0 && t.n > 0)
		*value = lz_anchor_annot_encode(&t);
	lz_tokens_release(&t);
	return rc;
}

/*
 * The unmount helper's argv in t: the anchors' overlays, the workspace
 * view (ws-view.h) and the mailbox's tmpfs (mailbox-mount.h); 0 when
 * nothing of ours can be mounted (none of them exists), and then t stays
 * empty.
 */
static int
umount_argv(const struct lz_sandbox_ctx *c, const char *domain_root,
    struct lz_tokens *t)
{
	char *dir = lz_xasprintf("%s/anchors", domain_root);
	char *view = lz_xasprintf("%s/" LZ_VIEW_DIR, domain_root);
	int anchors = access(dir, F_OK) == 0 || errno != ENOENT;
	int ws = access(view, F_OK) == 0 || errno != ENOENT;
	int mailbox = c->mailbox != NULL && access(c->mailbox, F_OK) == 0;

	if (anchors || ws || mailbox)
		helper_argv(c, "umount", t);
	if (anchors) {
		lz_tokens_push(t, "-u");
		lz_tokens_push(t, dir);
	}
	if (ws) {
		lz_tokens_push(t, "-w");
		lz_tokens_push(t, view);
	}
	if (mailbox) {
		lz_tokens_push(t, "-m");
		lz_tokens_push(t, c->mailbox);
	}
	free(dir);
	free(view);
	return anchors || ws || mailbox;
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

/*
 * Before a sidecar starts: its log file and PID file removed, so that no
 * line or process of an earlier sidecar can be taken for this one's.
 */
static int
sidecar_files_reset(const struct lz_sandbox_spec *s, struct lz_err *err)
{
	if (s->sidecar_log != NULL && unlink(s->sidecar_log) != 0 &&
	    errno != ENOENT)
		return lz_err_set(err, LZ_ESYS, "cannot remove '%s': %s",
		    s->sidecar_log, strerror(errno));
	if (s->sidecar_pidfile == NULL)
		return lz_err_set(err, LZ_EINVAL, "incomplete sidecar "
		    "specification (a PID file is needed)");
	if (unlink(s->sidecar_pidfile) != 0 && errno != ENOENT)
		return lz_err_set(err, LZ_ESYS, "cannot remove '%s': %s",
		    s->sidecar_pidfile, strerror(errno));
	return 0;
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
	if ((rc = sidecar_files_reset(s, err)) != 0)
		return rc;
	rc = lz_sandbox_argv_sidecar(c->podman, s, NULL, &t, err);
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

void
lz_sandbox_log_split(const char *text, struct lz_buf *out, struct lz_buf *err)
{
	const char *p = text, *nl, *f[3];
	struct lz_buf *b;
	int i;

	for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		/* "TIME STREAM TAG TEXT": the three spaces before TEXT. */
		f[0] = memchr(p, ' ', (size_t)(nl - p));
		for (i = 1; i < 3 && f[i - 1] != NULL; i++)
			f[i] = memchr(f[i - 1] + 1, ' ', (size_t)(nl -
			    f[i - 1] - 1));
		if (i < 3 || f[2] == NULL)
			continue;
		if (f[1] - f[0] == 7 && strncmp(f[0] + 1, "stdout", 6) == 0)
			b = out;
		else if (f[1] - f[0] == 7 && strncmp(f[0] + 1, "stderr", 6) == 0)
			b = err;
		else
			continue;
		lz_buf_add(b, f[2] + 1, (size_t)(nl - f[2] - 1));
		/* "P" is a partial line, continued by the next entry. */
		if (f[2] - f[1] != 2 || f[1][1] != 'P')
			lz_buf_addch(b, '\n');
	}
}

/*
 * The sidecar's output so far, stdout in res->out and stderr in
 * res->err: from its log file (polled every 5 ms for up to ms, until a
 * "ready" line or any error output shows), or from one "podman logs".
 */
static int
sidecar_output(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    const struct lz_tokens *logs, int ms, struct lz_spawn_result *res,
    struct lz_err *err)
{
	struct timespec pause = { 0, 5 * 1000 * 1000 };
	struct lz_buf text = LZ_BUF_INIT;
	int64_t until = lz_spawn_now_ms() + ms;
	int rc = 0;

	if (s->sidecar_log == NULL)
		return run_podman(c, logs, res, "podman logs (network sidecar)",
		    err);
	for (;;) {
		lz_buf_reset(&res->out);
		lz_buf_reset(&res->err);
		lz_buf_reset(&text);
		if ((rc = read_small(s->sidecar_log, &text, err)) != 0)
			break;
		lz_sandbox_log_split(text.buf, &res->out, &res->err);
		if (find_ready(res->out.buf, NULL, NULL) || res->err.len > 0 ||
		    lz_spawn_now_ms() >= until)
			break;
		nanosleep(&pause, NULL);
	}
	lz_buf_release(&text);
	return rc;
}

/*
 * Reads path (at most 1 MiB) into b; a file not there yet is empty.
 */
static int
read_small(const char *path, struct lz_buf *b, struct lz_err *err)
{
	char chunk[4096];
	ssize_t n;
	int fd, rc = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS,
		    "cannot open '%s': %s", path, strerror(errno));
	while (b->len < 1024 * 1024 && (n = read(fd, chunk, sizeof chunk)) !=
	    0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot read '%s': %s",
			    path, strerror(errno));
			break;
		}
		lz_buf_add(b, chunk, (size_t)n);
	}
	close(fd);
	return rc;
}

/*
 * 1 when out has a line "ready <digest>[ <mac>]"; the digest goes to got
 * and the MAC (or "") to mac, when they are not NULL.
 */
static int
find_ready(const char *out, char got[LZ_NETPOLICY_DIGEST_LEN + 1],
    char mac[65])
{
	const char *p, *m;
	size_t n;

	for (p = out; (p = strstr(p, "ready ")) != NULL; p++) {
		if (p != out && p[-1] != '\n')
			continue;
		if (strlen(p + 6) < LZ_NETPOLICY_DIGEST_LEN)
			return 0;
		if (got != NULL) {
			memcpy(got, p + 6, LZ_NETPOLICY_DIGEST_LEN);
			got[LZ_NETPOLICY_DIGEST_LEN] = '\0';
		}
		if (mac != NULL) {
			m = p + 6 + LZ_NETPOLICY_DIGEST_LEN;
			n = *m == ' ' ? strspn(m + 1, "0123456789abcdef") : 0;
			snprintf(mac, 65, "%.*s", n == 64 ? 64 : 0, m + 1);
		}
		return 1;
	}
	return 0;
}

/*
 * The sidecar's readiness MAC: made with this start's key over the policy
 * digest and the (Domain ID, Network Sidecar ID, Agent Sandbox ID) tuple,
 * so a report of another start, another Domain or another sidecar is
 * refused (network attachment, SR-9).
 */
static int
attached(const struct lz_sandbox_spec *s, const char *digest, const char *mac,
    struct lz_err *err)
{
	unsigned char key[LZ_NETPOLICY_KEY_BYTES];
	char want[65];

	if (s->attach == NULL)
		return 0;
	if (lz_netpolicy_key_parse(s->attach->key_hex,
	    strlen(s->attach->key_hex), key, err) != 0)
		return LZ_EINVAL;
	lz_netpolicy_attach_mac(key, sizeof key, digest, s->domain_id,
	    s->attach->sidecar_id, s->attach->sandbox_id, want);
	if (mac[0] == '\0')
		return lz_err_set(err, LZ_EUNSAFE, "network sidecar reported "
		    "ready without attesting its attachment (its image is "
		    "older than this lazaret: run scripts/setup.sh); the "
		    "sandbox is not started");
	if (!lz_hmac_equal(mac, want))
		return lz_err_set(err, LZ_EUNSAFE, "network sidecar's readiness "
		    "report is not this start's (its MAC does not bind Domain "
		    "%s, sidecar %s and sandbox %s with this start's key); the "
		    "sandbox is not started", s->domain_id,
		    s->attach->sidecar_id, s->attach->sandbox_id);
	return 0;
}

/*
 * A container's process: its ID from the PID file podman wrote before
 * "run -d" returned, as a pidfd (so a later exit cannot be mistaken for
 * another process's). what names it in messages.
 */
int
lz_sandbox_pidfd(const char *pidfile, const char *what, int *pidfd,
    pid_t *pid_out, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *end;
	long pid;
	int rc;

	if ((rc = read_small(pidfile, &b, err)) != 0)
		goto out;
	errno = 0;
	pid = b.len > 0 ? strtol(b.buf, &end, 10) : 0;
	if (pid <= 0 || pid > INT_MAX || errno != 0 || (*end != '\0' &&
	    *end != '\n'))
		rc = lz_err_set(err, LZ_ESYS, "%s: podman wrote no process ID "
		    "to '%s'", what, pidfile);
	else if ((*pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0)) < 0)
		rc = lz_err_set(err, LZ_ESYS, "%s exited as it started "
		    "(pidfd_open %ld: %s)", what, pid, strerror(errno));
	else if (pid_out != NULL)
		*pid_out = (pid_t)pid;
out:
	lz_buf_release(&b);
	return rc;
}

/* 1 when the process of pidfd has exited. */
static int
exited(int pidfd)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	return poll(&pfd, 1, 0) != 0;
}

/*
 * The sidecar's process from its PID file: there at once after its own
 * "podman run -d"; while running (a podman that starts it as the
 * sandbox's dependency, 0 for none) has not ended, looked for again every
 * 5 ms until deadline.
 */
static int
sidecar_pid(const struct lz_sandbox_spec *s, pid_t running, int64_t deadline,
    int *pidfd, pid_t *pid, struct lz_err *err)
{
	struct timespec pause = { 0, 5 * 1000 * 1000 };
	struct lz_err sub = LZ_ERR_INIT;
	int rc;

	for (;;) {
		lz_err_release(&sub);
		rc = lz_sandbox_pidfd(s->sidecar_pidfile, "network sidecar",
		    pidfd, pid, &sub);
		if (rc == 0)
			break;
		if (running <= 0)
			rc = lz_err_set(err, rc, "%s", sub.msg);
		else if (lz_spawn_ended(running))
			rc = lz_err_set(err, LZ_EAGAIN, "podman ended before the "
			    "network sidecar ran");
		else if (lz_spawn_now_ms() > deadline)
			rc = lz_err_set(err, -ETIMEDOUT, "the network sidecar "
			    "did not start within %d ms",
			    LZ_SANDBOX_SIDECAR_READY_MS);
		else {
			nanosleep(&pause, NULL);
			continue;
		}
		break;
	}
	lz_err_release(&sub);
	return rc;
}

/*
 * Waits for "ready <digest>" from the sidecar and checks the digest and
 * that its process is still alive after it; *pidfd gets a pidfd of that
 * process and *pid its ID. The container ID is the one podman printed and the process
 * the one it wrote to the PID file: no "podman inspect" (0.1-0.2 s on
 * the critical path) is needed.
 */
static int
sidecar_ready(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    const char *id, pid_t running, int *pidfd, pid_t *pid,
    struct lz_err *err)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	struct lz_tokens logs = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	char want[LZ_NETPOLICY_DIGEST_LEN + 1];
	char got[LZ_NETPOLICY_DIGEST_LEN + 1], mac[65];
	char *text = NULL;
	int64_t deadline = lz_spawn_now_ms() + LZ_SANDBOX_SIDECAR_READY_MS;
	int rc, ready, gone;

	*pidfd = -1;
	lz_spawn_result_init(&res);
	if ((rc = lz_netpolicy_digest(s->netpolicy, strlen(s->netpolicy), want,
	    err)) != 0)
		goto out;
	if ((rc = sidecar_pid(s, running, deadline, pidfd, pid, err)) != 0)
		goto out;
	lz_tokens_push(&logs, c->podman);
	lz_tokens_push(&logs, "logs");
	lz_tokens_push(&logs, id);
	for (;;) {
		/* Read before the exit check: a last "ready" is not lost. */
		gone = exited(*pidfd);
		if ((rc = sidecar_output(c, s, &logs, 250, &res, err)) != 0)
			goto out;
		ready = find_ready(res.out.buf, got, mac);
		free(text);
		text = stderr_text(&res);
		if (ready && strcmp(got, want) != 0)
			rc = lz_err_set(err, LZ_EUNSAFE, "network sidecar "
			    "installed policy %.16s..., but Lazaret compiled "
			    "%.16s...: the policy changed on its way; the "
			    "sandbox is not started", got, want);
		else if (ready && (rc = attached(s, got, mac, err)) != 0)
			;
		else if (ready && exited(*pidfd))
			rc = lz_err_set(err, LZ_ESYS, "network sidecar exited "
			    "before the sandbox started: %s", text);
		else if (!ready && (gone || res.err.len > 0))
			rc = lz_err_set(err, LZ_ESYS, "network sidecar failed "
			    "before the sandbox started: %s%s", res.err.len > 0 ?
			    text : "it exited without a word",
			    strstr(text, "usage:") != NULL ? " (its image is "
			    "older than this lazaret: run scripts/setup.sh)" :
			    "");
		else if (!ready && lz_spawn_now_ms() > deadline)
			rc = lz_err_set(err, -ETIMEDOUT, "network sidecar did "
			    "not report ready within %d ms: %s",
			    LZ_SANDBOX_SIDECAR_READY_MS, text);
		if (rc != 0 || ready)
			break;
		/* One "podman logs" per round: not a busy loop. */
		if (s->sidecar_log == NULL)
			nanosleep(&pause, NULL);
	}
out:
	if (rc != 0 && *pidfd >= 0) {
		close(*pidfd);
		*pidfd = -1;
	}
	free(text);
	lz_spawn_result_release(&res);
	lz_tokens_release(&logs);
	return rc;
}

void
lz_sandbox_started_init(struct lz_sandbox_started *st)
{
	memset(st, 0, sizeof *st);
	st->sidecar_pidfd = -1;
	lz_buf_init(&st->note);
}

void
lz_sandbox_started_release(struct lz_sandbox_started *st)
{
	free(st->container_id);
	free(st->sidecar_id);
	if (st->sidecar_pidfd >= 0)
		close(st->sidecar_pidfd);
	lz_sandbox_plan_release(&st->next);
	lz_buf_release(&st->note);
	lz_sandbox_started_init(st);
}

int
lz_sandbox_start(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    char **container_id, struct lz_err *err)
{
	struct lz_sandbox_started st;
	int rc;

	lz_sandbox_started_init(&st);
	rc = lz_sandbox_start_net(c, s, domain_root, &st, err);
	*container_id = st.container_id;
	st.container_id = NULL;
	lz_sandbox_started_release(&st);
	return rc;
}

/*
 * The prepared pair first when s->use matches this spec; any failure on
 * that way is noted, the Domain's containers are removed and the start
 * runs in full. A full start is tried again once when podman refused a
 * container name still in use: containers of this Domain left behind
 * where the caller skipped recovery (a new Domain's; its Storage Root
 * deleted by hand). The failed start has removed them.
 */
int
lz_sandbox_start_net(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, const char *domain_root,
    struct lz_sandbox_started *st, struct lz_err *err)
{
	struct lz_err first = LZ_ERR_INIT, why = LZ_ERR_INIT;
	struct lz_sandbox_spec net = *s;
	char *anchors = NULL;
	int rc;

	if ((rc = anchors_value(s->plan, domain_root, &anchors, err)) != 0)
		goto undo;
	net.anchors = anchors;
	net.prepared = NULL;
	if (s->netpolicy != NULL &&
	    (rc = lz_sandbox_plan_make(c->podman, &net, &st->next, err)) != 0)
		goto undo;
	if (s->use != NULL) {
		if (s->netpolicy == NULL)
			lz_err_set(&why, LZ_EINVAL, "this start has no network "
			    "sidecar");
		else if (strcmp(s->use->p.fp, st->next.fp) != 0)
			lz_err_set(&why, LZ_EINVAL, "the configuration, policy "
			    "or mount plan changed since they were made "
			    "(fingerprint %.16s..., now %.16s...)",
			    s->use->p.fp, st->next.fp);
		else if (start_prepared(c, &net, s->use, st, &why) == 0) {
			/* The next preparation stamps this file at once. */
			snprintf(st->next.store, sizeof st->next.store, "%s",
			    s->use->p.store[0] == '/' ? s->use->p.store : "");
			lz_buf_addf(&st->note, "started the containers "
			    "prepared when the Domain last ended (sidecar "
			    "%.12s, sandbox %.12s; %s)\n", s->use->p.sidecar,
			    s->use->p.sandbox, s->use->inspected ? "images "
			    "checked with podman inspect" : "image store "
			    "unchanged since");
			goto out;
		}
		lz_sandbox_use_end(s->use, why.msg);
		lz_buf_addf(&st->note, "prepared containers not used: %s; "
		    "removing them and starting afresh\n", why.msg ? why.msg :
		    "unknown failure");
		if ((rc = lz_sandbox_stop(c, s->domain_id, domain_root,
		    err)) != 0) {
			lz_err_prefix(err, rc, "removing the prepared containers "
			    "failed");
			goto out;
		}
	}
	rc = start_once(c, &net, domain_root, st, &first);
	if (rc != 0 && first.msg != NULL &&
	    strstr(first.msg, "already in use") != NULL &&
	    strstr(first.msg, "cleaning up also failed") == NULL)
		rc = start_once(c, &net, domain_root, st, err);
	else if (rc != 0)
		rc = lz_err_set(err, rc, "%s", first.msg ? first.msg :
		    "sandbox start failed");
	goto out;
undo:
	/* A launched start holds the sandbox's lock at the gate: "no"
	 * first, or the removal would wait for it. */
	if (s->use != NULL)
		lz_sandbox_use_end(s->use, err != NULL ? err->msg : NULL);
	lz_sandbox_stop(c, s->domain_id, domain_root, NULL);
out:
	free(anchors);
	lz_err_release(&first);
	lz_err_release(&why);
	return rc;
}

/*
 * The sidecar's process after the sandbox's start: podman starts a
 * dependency that is not running on its own (a sandbox joining a sidecar
 * that has exited would get a new sidecar nobody checked), so the one
 * checked must still be the one alive.
 */
static int
sidecar_still(int pidfd, struct lz_err *err)
{
	if (pidfd >= 0 && exited(pidfd))
		return lz_err_set(err, LZ_ESYS, "network sidecar exited while "
		    "the sandbox started; the sandbox is not used");
	return 0;
}

/*
 * Tells the sandbox's creation, held at the gate (gate.h, open as fd),
 * "go PID" (the verified sidecar's process) or, with why, "no WHY".
 */
static int
gate_tell(int fd, pid_t sidecar, const char *why, struct lz_err *err)
{
	char line[LZ_GATE_LINE_MAX - 2];

	if (why != NULL)
		snprintf(line, sizeof line, "no %s", why);
	else
		snprintf(line, sizeof line, "go %ld", (long)sidecar);
	/* A gate line is one line. */
	line[strcspn(line, "\n")] = '\0';
	return lz_gate_say(fd, line, err);
}

/*
 * The sandbox's "podman run -d" (argv), its creation let through the gate
 * s->gate, when there is one, for the verified sidecar process sidecar;
 * *id gets the ID podman printed.
 */
static int
sandbox_gated(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    const struct lz_tokens *argv, pid_t sidecar, char **id,
    struct lz_err *err)
{
	struct lz_spawn_result res;
	int rc, fd = -1;

	lz_spawn_result_init(&res);
	if (s->gate != NULL) {
		if ((fd = lz_gate_open(s->gate, err)) < 0)
			return fd;
		if ((rc = gate_tell(fd, sidecar, NULL, err)) != 0)
			goto out;
	}
	if ((rc = run_podman(c, argv, &res, "podman run", err)) == 0)
		rc = take_id(&res.out, id, "podman run", err);
out:
	if (fd >= 0)
		close(fd);
	lz_spawn_result_release(&res);
	return rc;
}

/*
 * The sidecar first (run, readiness, digest), then the sandbox, whose
 * creation waits at the gate for the verified sidecar and whose runtime
 * shim mounts the State Anchors before runsc creates it. s has its
 * anchors' annotation; st gets the IDs and the sidecar's pidfd.
 */
static int
start_once(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    const char *domain_root, struct lz_sandbox_started *st,
    struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_err undo = LZ_ERR_INIT;
	struct lz_sandbox_spec net;
	char *sid = NULL, *network = NULL;
	pid_t spid = 0;
	int rc, pidfd = -1;

	net = *s;
	if (s->netpolicy != NULL) {
		rc = sidecar_run(c, s, &sid, err);
		if (rc == 0)
			rc = sidecar_ready(c, s, sid, 0, &pidfd, &spid, err);
		if (rc != 0)
			goto fail;
		network = lz_xasprintf("container:%s", sid);
		net.network = network;
	}
	if ((rc = lz_sandbox_argv_run(c->podman, &net, &t, err)) != 0)
		goto fail;
	if ((rc = sandbox_gated(c, s, &t, spid, &st->container_id, err)) != 0)
		goto fail;
	if ((rc = sidecar_still(pidfd, err)) != 0)
		goto fail;
	st->sidecar_id = sid;
	sid = NULL;
	st->sidecar_pidfd = pidfd;
	pidfd = -1;
	goto out;
fail:
	free(st->container_id);
	st->container_id = NULL;
	if (!image_exists(c, s->image))
		rc = lz_err_set(err, LZ_ENOTFOUND, "image '%s' not found; run "
		    "scripts/setup.sh or set image = ... in the profile "
		    "(podman said: %s)", s->image, err && err->msg ? err->msg :
		    "nothing");
	if (lz_sandbox_stop(c, s->domain_id, domain_root, &undo) != 0)
		lz_err_set(err, rc, "%s; cleaning up also failed: %s",
		    err && err->msg ? err->msg : "sandbox start failed",
		    undo.msg);
out:
	if (pidfd >= 0)
		close(pidfd);
	free(sid);
	free(network);
	lz_err_release(&undo);
	lz_tokens_release(&t);
	return rc;
}

/* "PODMAN VERB ARGS..." (up to four arguments, NULL-ended) into t. */
static void
podman_argv(const struct lz_sandbox_ctx *c, struct lz_tokens *t,
    const char *verb, const char *a1, const char *a2, const char *a3,
    const char *a4)
{
	const char *v[] = { a1, a2, a3, a4 };
	size_t i;

	lz_tokens_push(t, c->podman);
	lz_tokens_push(t, verb);
	for (i = 0; i < 4 && v[i] != NULL; i++)
		lz_tokens_push(t, v[i]);
}

int
lz_sandbox_use_begin(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_prepared *p, const char *image,
    const char *sidecar_image, struct lz_sandbox_use *u, struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_opts o;
	int rc;

	memset(u, 0, sizeof *u);
	u->p = *p;
	/* Nothing changed in the image store since the pair was made. */
	if (lz_sandbox_prep_images_same(p))
		return 0;
	podman_opts(c, &o);
	/* Not the sandbox: a start holds its lock while it waits at the
	 * gate, and this runs beside that start. */
	podman_argv(c, &t, "inspect", p->sidecar, image, sidecar_image != NULL ?
	    sidecar_image : LZ_SANDBOX_SIDECAR_IMAGE, NULL);
	rc = lz_spawn_start((const char *const *)t.v, &o, &u->inspect, err);
	u->running = rc == 0;
	lz_tokens_release(&t);
	return rc;
}

/*
 * The inspection's verdict (sandbox-prep.h); the process is reaped. The
 * sidecar's process ID is read from pidfile after the inspection ended:
 * a sidecar it saw running is this start's only if podman wrote that ID
 * there since the start emptied it.
 */
static int
use_judge(struct lz_sandbox_use *u, const char *domain_id,
    const char *pidfile, struct lz_err *err)
{
	struct lz_spawn_result res;
	struct lz_buf b = LZ_BUF_INIT;
	char *text;
	long pid = 0;
	int rc;

	if (!u->running)
		return 0;
	u->inspected = 1;
	lz_spawn_result_init(&res);
	rc = lz_spawn_wait(&u->inspect, &res, err);
	u->running = 0;
	if (rc == 0 && (res.status != 0 || res.truncated)) {
		text = stderr_text(&res);
		rc = lz_err_set(err, LZ_ESYS, "podman inspect: %s", text);
		free(text);
	}
	if (rc == 0 && read_small(pidfile, &b, NULL) == 0 && b.len > 0)
		pid = strtol(b.buf, NULL, 10);
	if (rc == 0)
		rc = lz_sandbox_prep_check(res.out.buf, &u->p, domain_id, pid,
		    err);
	lz_buf_release(&b);
	lz_spawn_result_release(&res);
	return rc;
}

int
lz_sandbox_use_end(struct lz_sandbox_use *u, const char *why)
{
	struct lz_spawn_result res;
	int refused = u->launched;

	if (u->launched) {
		(void)gate_tell(u->gate, 0, why != NULL ? why : "the start "
		    "did not use the prepared containers", NULL);
		lz_spawn_result_init(&res);
		(void)lz_spawn_wait(&u->start, &res, NULL);
		lz_spawn_result_release(&res);
		close(u->gate);
		u->launched = 0;
	}
	if (u->running) {
		lz_spawn_result_init(&res);
		(void)lz_spawn_wait(&u->inspect, &res, NULL);
		lz_spawn_result_release(&res);
		u->running = 0;
	}
	return refused;
}

/*
 * Before a prepared sidecar starts: its last PID file must not name a
 * live lazaret-netpolicy (a sidecar somebody else started; at rest the
 * file names a process that has ended).
 */
static int
sidecar_idle(const struct lz_sandbox_spec *s, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT, cmd = LZ_BUF_INIT;
	char *proc = NULL;
	long pid = 0;
	int rc = 0;

	if (read_small(s->sidecar_pidfile, &b, NULL) == 0 && b.len > 0)
		pid = strtol(b.buf, NULL, 10);
	if (pid > 0) {
		proc = lz_xasprintf("/proc/%ld/cmdline", pid);
		if (read_small(proc, &cmd, NULL) == 0 && strcmp(cmd.len > 0 ?
		    cmd.buf : "", LZ_SANDBOX_SIDECAR_PROGRAM) == 0)
			rc = lz_err_set(err, LZ_EINVAL, "the prepared network "
			    "sidecar is running already as process %ld "
			    "(another start took it?)", pid);
	}
	free(proc);
	lz_buf_release(&cmd);
	lz_buf_release(&b);
	return rc;
}

int
lz_sandbox_use_launch(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_spec *s, struct lz_sandbox_use *u,
    struct lz_err *err)
{
	struct lz_tokens ts = LZ_TOKENS_INIT;
	struct lz_spawn_opts o;
	int rc, gate;

	if (u->launched)
		return 0;
	if (s->gate == NULL)
		return lz_err_set(err, LZ_EINVAL, "a prepared sandbox is "
		    "started only through the gate");
	if ((rc = sidecar_idle(s, err)) != 0 ||
	    (rc = sidecar_files_reset(s, err)) != 0)
		return rc;
	if ((gate = lz_gate_open(s->gate, err)) < 0)
		return gate;
	podman_opts(c, &o);
	podman_argv(c, &ts, "start", u->p.sandbox, NULL, NULL, NULL);
	rc = lz_spawn_start((const char *const *)ts.v, &o, &u->start, err);
	lz_tokens_release(&ts);
	if (rc != 0) {
		close(gate);
		return rc;
	}
	u->gate = gate;
	u->launched = 1;
	return 0;
}

/*
 * Lets the pair launched by lz_sandbox_use_launch (launched here when it
 * was not) be used: the sandbox's creation waits at the gate until the
 * inspection under way since lz_sandbox_use_begin passed
 * lz_sandbox_prep_check and the sidecar's readiness passed the checks of
 * a full start; anything else answers "no" there, so no sandbox is
 * created. A "podman start" that returns with the gate's line unread
 * found the sandbox running already: another start has it. On failure
 * err says why and the caller removes both.
 */
static int
start_prepared(const struct lz_sandbox_ctx *c, const struct lz_sandbox_spec *s,
    struct lz_sandbox_use *u, struct lz_sandbox_started *st,
    struct lz_err *err)
{
	const struct lz_sandbox_prepared *p = &u->p;
	struct lz_spawn_result rs;
	struct lz_err sub = LZ_ERR_INIT;
	pid_t spid = 0;
	int rc, pidfd = -1, g, unread = 0;

	lz_spawn_result_init(&rs);
	if ((rc = lz_sandbox_use_launch(c, s, u, err)) != 0)
		goto out;
	rc = use_judge(u, s->domain_id, s->sidecar_pidfile, err);
	if (rc == 0)
		rc = sidecar_ready(c, s, p->sidecar, u->start.pid, &pidfd,
		    &spid, err);
	g = gate_tell(u->gate, spid, rc != 0 ? (err && err->msg ? err->msg :
	    "refused") : NULL, &sub);
	lz_err_release(&sub);
	/*
	 * Our refusal is the reason when podman got as far as the gate;
	 * when it ended before that (a container removed by hand), its own
	 * error is.
	 */
	u->launched = 0;
	if (podman_done(lz_spawn_wait(&u->start, &rs, &sub), &rs,
	    "podman start", &sub) != 0 && (rc == 0 || rc == LZ_EAGAIN)) {
		rc = lz_err_set(err, LZ_ESYS, "%s", sub.msg);
	} else if (rc == 0 && g != 0)
		rc = lz_err_set(err, g, "cannot say go at the gate");
	/* The creation reads the line; a sandbox already running does not. */
	if (rc == 0 && (ioctl(u->gate, FIONREAD, &unread) != 0 || unread != 0))
		rc = lz_err_set(err, LZ_EINVAL, "the prepared sandbox was running "
		    "already: its start never reached this start's gate "
		    "(another start took it?)");
	close(u->gate);
	if (rc == 0)
		rc = sidecar_still(pidfd, err);
	if (rc != 0)
		goto out;
	st->container_id = lz_xstrdup(p->sandbox);
	st->sidecar_id = lz_xstrdup(p->sidecar);
	st->sidecar_pidfd = pidfd;
	pidfd = -1;
out:
	if (pidfd >= 0)
		close(pidfd);
	lz_err_release(&sub);
	lz_spawn_result_release(&rs);
	return rc;
}

/*
 * The file in which podman's image store lists its images
 * (containers/storage: GRAPHROOT/DRIVER-images/images.json), or "-" when
 * podman does not say: "podman info" (0.3-0.4 s: it asks dpkg for
 * package versions) started by image_store_begin (1 when it runs) and
 * read by image_store_end, which reaps it.
 */
static int
image_store_begin(const struct lz_sandbox_ctx *c, struct lz_spawn_proc *p)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_opts o;
	int rc;

	podman_opts(c, &o);
	podman_argv(c, &t, "info", "--format", "{{.Store.GraphRoot}}/"
	    "{{.Store.GraphDriverName}}-images/images.json", NULL, NULL);
	rc = lz_spawn_start((const char *const *)t.v, &o, p, NULL);
	lz_tokens_release(&t);
	return rc == 0;
}

static void
image_store_end(struct lz_spawn_proc *p, int running,
    char out[LZ_SANDBOX_PREP_PATH_MAX])
{
	struct lz_spawn_result res;

	snprintf(out, LZ_SANDBOX_PREP_PATH_MAX, "-");
	if (!running)
		return;
	lz_spawn_result_init(&res);
	if (lz_spawn_wait(p, &res, NULL) == 0 && res.status == 0 &&
	    !res.truncated) {
		trim(&res.out);
		if (res.out.len > 0 && res.out.len < LZ_SANDBOX_PREP_PATH_MAX &&
		    res.out.buf[0] == '/' && strchr(res.out.buf, '\n') == NULL)
			memcpy(out, res.out.buf, res.out.len + 1);
	}
	lz_spawn_result_release(&res);
}

/* The images p's two containers were made from, into p. */
static int
images_of(const struct lz_sandbox_ctx *c, struct lz_sandbox_prepared *p,
    struct lz_err *err)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	const char *nl;
	int rc;

	lz_spawn_result_init(&res);
	podman_argv(c, &t, "inspect", "--format", "{{.Image}}", p->sidecar,
	    p->sandbox);
	rc = run_podman(c, &t, &res, "podman inspect (prepared containers)",
	    err);
	nl = res.out.buf;
	if (rc == 0 && (res.out.len != 2 * 65 || strspn(nl, "0123456789abcdef")
	    != 64 || nl[64] != '\n' || strspn(nl + 65, "0123456789abcdef") !=
	    64 || nl[129] != '\n'))
		rc = lz_err_set(err, LZ_ESYS, "podman inspect printed '%.140s', "
		    "not the two image IDs", nl);
	if (rc == 0) {
		memcpy(p->sidecar_image, nl, 64);
		p->sidecar_image[64] = '\0';
		memcpy(p->sandbox_image, nl + 65, 64);
		p->sandbox_image[64] = '\0';
	}
	lz_spawn_result_release(&res);
	lz_tokens_release(&t);
	return rc;
}

/*
 * t's "podman create ..." into out with the owner labels (domain_root,
 * workspace) after "create"; peer, when not NULL, replaces the sandbox's
 * placeholder network (sandbox-prep.h).
 */
static int
owned(const struct lz_tokens *t, const char *domain_root,
    const char *workspace, const char *peer, struct lz_tokens *out,
    struct lz_err *err)
{
	size_t i;

	if (t->n < 2 || strcmp(t->v[1], "create") != 0 ||
	    domain_root[0] != '/' || workspace[0] != '/' ||
	    strchr(domain_root, '\n') != NULL || strchr(workspace, '\n') !=
	    NULL)
		return lz_err_set(err, LZ_EINVAL, "cannot label the prepared "
		    "containers with '%s' and '%s'", domain_root, workspace);
	for (i = 0; i < t->n; i++) {
		lz_tokens_push(out, peer != NULL && strcmp(t->v[i], "--network="
		    "container:" LZ_SANDBOX_PREP_PEER) == 0 ? peer : t->v[i]);
		if (i != 1)
			continue;
		lz_tokens_push(out, "--label");
		lz_tokens_pushf(out, LZ_SANDBOX_LABEL_OWNER_ROOT "=%s",
		    domain_root);
		lz_tokens_push(out, "--label");
		lz_tokens_pushf(out, LZ_SANDBOX_LABEL_OWNER_WORKSPACE "=%s",
		    workspace);
	}
	return 0;
}

int
lz_sandbox_prepare(const struct lz_sandbox_ctx *c,
    const struct lz_sandbox_plan *plan, const char *domain_id,
    const char *domain_root, const char *workspace,
    struct lz_sandbox_prepared *out, struct lz_err *err)
{
	struct lz_tokens side = LZ_TOKENS_INIT, box = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_err undo = LZ_ERR_INIT;
	char *peer = NULL, *id = NULL, before[LZ_SANDBOX_PREP_STAMP_MAX];
	char store[LZ_SANDBOX_PREP_PATH_MAX];
	struct lz_spawn_proc infop;
	int rc, info = 0;

	memset(out, 0, sizeof *out);
	lz_spawn_result_init(&res);
	if (plan->fp[0] == '\0' || plan->sidecar.n == 0 || plan->sandbox.n == 0)
		return lz_err_set(err, LZ_EINVAL, "nothing to prepare");
	if ((rc = owned(&plan->sidecar, domain_root, workspace, NULL, &side,
	    err)) != 0)
		goto out;
	/*
	 * The image store before and after: an image changed in between
	 * leaves the stamp unknown, and the start then asks podman. The
	 * file the last pair's record named (plan->store) is stamped at
	 * once while podman info confirms it beside the creation; another
	 * answer leaves the stamp unknown too.
	 */
	info = image_store_begin(c, &infop);
	if (plan->store[0] == '/')
		snprintf(out->store, sizeof out->store, "%s", plan->store);
	else {
		image_store_end(&infop, info, out->store);
		info = 0;
	}
	lz_sandbox_prep_stamp(out->store, before);
	rc = run_podman(c, &side, &res, "podman create (network "
	    "sidecar)", err);
	if (rc == 0)
		rc = take_id(&res.out, &id, "podman create", err);
	if (rc != 0)
		goto fail;
	memcpy(out->sidecar, id, sizeof out->sidecar);
	peer = lz_xasprintf("--network=container:%s", id);
	free(id);
	id = NULL;
	rc = owned(&plan->sandbox, domain_root, workspace, peer, &box, err);
	if (rc == 0)
		rc = run_podman(c, &box, &res, "podman create (sandbox)", err);
	if (rc == 0)
		rc = take_id(&res.out, &id, "podman create", err);
	if (rc != 0)
		goto fail;
	memcpy(out->sandbox, id, sizeof out->sandbox);
	if ((rc = images_of(c, out, err)) != 0)
		goto fail;
	if (lz_sandbox_prep_stamp(out->store, out->stamp) != 0 ||
	    strcmp(out->stamp, before) != 0)
		snprintf(out->stamp, sizeof out->stamp, "-");
	if (info) {
		image_store_end(&infop, info, store);
		info = 0;
		if (strcmp(store, out->store) != 0) {
			memcpy(out->store, store, sizeof out->store);
			snprintf(out->stamp, sizeof out->stamp, "-");
		}
	}
	memcpy(out->fp, plan->fp, sizeof out->fp);
	goto out;
fail:
	if (lz_sandbox_stop(c, domain_id, domain_root, &undo) != 0)
		lz_err_set(err, rc, "%s; removing what was made also failed: "
		    "%s", err && err->msg ? err->msg : "preparing failed",
		    undo.msg);
	memset(out, 0, sizeof *out);
out:
	image_store_end(&infop, info, store);
	free(id);
	free(peer);
	lz_tokens_release(&side);
	lz_tokens_release(&box);
	lz_err_release(&undo);
	lz_spawn_result_release(&res);
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

/* Keeps the first failure: r with sub's message, into rc and err. */
static void
keep_first(int r, struct lz_err *sub, int *rc, struct lz_err *err)
{
	if (r != 0 && *rc == 0) {
		*rc = r;
		lz_err_set(err, r, "%s", sub->msg ? sub->msg : "failed");
	}
	lz_err_release(sub);
}

int
lz_sandbox_stop(const struct lz_sandbox_ctx *c, const char *domain_id,
    const char *domain_root, struct lz_err *err)
{
	static const char *const order[] = { LZ_SANDBOX_ROLE_SANDBOX,
	    LZ_SANDBOX_ROLE_SIDECAR, NULL };
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	struct lz_sandbox_list all = LZ_SANDBOX_LIST_INIT;
	struct lz_tokens ids = LZ_TOKENS_INIT, ut = LZ_TOKENS_INIT;
	struct lz_err sub = LZ_ERR_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts o;
	struct lz_spawn_proc helper;
	char *name;
	size_t i, k;
	int rc = 0, r, complete, helper_running = 0;

	lz_spawn_result_init(&res);
	/* Everything, storage-only leftovers included, in one call. */
	complete = list_external(c, &all) == 0;
	if (complete)
		lz_sandbox_list_select(&all, domain_id, &l);
	else if ((r = lz_sandbox_list(c, domain_id, &l, &sub)) != 0)
		keep_first(r, &sub, &rc, err);
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
		keep_first(remove_ids(c, &ids, &sub), &sub, &rc, err);
		lz_tokens_release(&ids);
		/*
		 * Only the sandbox uses the anchors: once it is gone they are
		 * unmounted while the sidecar is removed (0.3-0.5 s off a
		 * teardown the next start of this Domain waits for).
		 */
		if (k == 0 && umount_argv(c, domain_root, &ut)) {
			podman_opts(c, &o);
			r = lz_spawn_start((const char *const *)ut.v, &o,
			    &helper, &sub);
			if (r != 0)
				lz_err_prefix(&sub, r, "%s", ANCHOR_UMOUNT_WHAT);
			keep_first(r, &sub, &rc, err);
			helper_running = r == 0;
		}
	}
	if (helper_running) {
		r = lz_spawn_wait(&helper, &res, &sub);
		keep_first(podman_done(r, &res, ANCHOR_UMOUNT_WHAT, &sub), &sub,
		    &rc, err);
	}
	if (complete)
		sweep(c, &all, domain_id);
	lz_spawn_result_release(&res);
	lz_tokens_release(&ut);
	lz_sandbox_list_release(&l);
	lz_sandbox_list_release(&all);
	return rc;
}

/*
 * The containers prepared for other Domains that no start will claim
 * (lz_sandbox_entry_orphan) removed, sandboxes first (podman refuses to
 * remove a sidecar a sandbox depends on); said in c->swept.
 */
static void
sweep(const struct lz_sandbox_ctx *c, const struct lz_sandbox_list *all,
    const char *domain_id)
{
	struct lz_tokens ids = LZ_TOKENS_INIT;
	struct lz_err err = LZ_ERR_INIT;
	const struct lz_sandbox_entry *e;
	size_t i;
	int k, why;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < all->n; i++) {
			e = &all->v[i];
			if ((strcmp(e->role, LZ_SANDBOX_ROLE_SANDBOX) == 0) !=
			    (k == 0) || (why = lz_sandbox_entry_orphan(e,
			    domain_id)) == 0)
				continue;
			lz_tokens_push(&ids, e->id);
			if (c->swept != NULL)
				lz_buf_addf(c->swept, "removed %s %.12s "
				    "prepared for Domain %s (its %s is gone)\n",
				    *e->role ? e->role : "container", e->id,
				    e->domain, why == 1 ? "Domain Root" :
				    "workspace");
		}
		if (remove_ids(c, &ids, &err) != 0 && c->swept != NULL)
			lz_buf_addf(c->swept, "removing them failed: %s\n",
			    err.msg);
		lz_err_release(&err);
		lz_tokens_release(&ids);
	}
}

int
lz_sandbox_list_all(const struct lz_sandbox_ctx *c,
    struct lz_sandbox_list *out, struct lz_err *err)
{
	if (list_external(c, out) != 0)
		return lz_err_set(err, LZ_ESYS, "podman ps -a --external "
		    "failed");
	return 0;
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

int
lz_sandbox_list_domain(const struct lz_sandbox_ctx *c, const char *domain_id,
    struct lz_sandbox_list *out, struct lz_err *err)
{
	struct lz_sandbox_list all = LZ_SANDBOX_LIST_INIT;

	if (list_external(c, &all) != 0)
		return lz_sandbox_list(c, domain_id, out, err);
	lz_sandbox_list_select(&all, domain_id, out);
	lz_sandbox_list_release(&all);
	return 0;
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
		out->v = lz_xgrow(out->v, out->n + 1, &out->alloc,
		    sizeof *out->v);
		n = &out->v[out->n++];
		n->id = lz_xstrdup(e->id);
		n->name = lz_xstrdup(e->name);
		n->role = lz_xstrdup(role);
		n->domain = lz_xstrdup(e->domain);
		n->state = lz_xstrdup(e->state);
		n->prepared = lz_xstrdup(e->prepared);
		n->owner_root = lz_xstrdup(e->owner_root);
		n->owner_workspace = lz_xstrdup(e->owner_workspace);
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
		out->v = lz_xgrow(out->v, out->n + 1, &out->alloc,
		    sizeof *out->v);
		e = &out->v[out->n++];
		e->id = json_str(o, "Id");
		e->state = json_str(o, "State");
		labels = json_object_get(o, "Labels");
		e->prepared = json_str(labels, LZ_SANDBOX_LABEL_PREPARED);
		e->role = json_str(labels, LZ_SANDBOX_LABEL_ROLE);
		e->domain = json_str(labels, LZ_SANDBOX_LABEL_DOMAIN);
		e->owner_root = json_str(labels, LZ_SANDBOX_LABEL_OWNER_ROOT);
		e->owner_workspace = json_str(labels,
		    LZ_SANDBOX_LABEL_OWNER_WORKSPACE);
		names = json_object_get(o, "Names");
		e->name = lz_xstrdup(json_is_string(json_array_get(names, 0)) ?
		    json_string_value(json_array_get(names, 0)) : "");
	}
out:
	json_decref(root);
	return rc;
}

int
lz_sandbox_entry_prepared(const struct lz_sandbox_entry *e)
{
	return *e->prepared != '\0' && strcmp(e->state, "created") == 0;
}

/* 1: its Domain Root is gone; 2: its workspace is. */
int
lz_sandbox_entry_orphan(const struct lz_sandbox_entry *e,
    const char *domain_id)
{
	if (!lz_sandbox_entry_prepared(e) || strcmp(e->domain, domain_id) == 0)
		return 0;
	/* Labels of absolute paths only: a relative one is not judged. */
	if (e->owner_root[0] == '/' && lz_path_gone(e->owner_root))
		return 1;
	return e->owner_workspace[0] == '/' &&
	    lz_path_gone(e->owner_workspace) ? 2 : 0;
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
		free(l->v[i].prepared);
		free(l->v[i].owner_root);
		free(l->v[i].owner_workspace);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
