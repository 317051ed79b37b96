/*
 * sandbox-argv.c: building the podman argument vectors of the Agent
 * Sandbox (sandbox-argv.h). Pure: no I/O, no environment access except
 * through the caller's getenv function.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/anchor-annot.h"
#include "core/domain.h"
#include "core/gate.h"
#include "core/mailbox-mount.h"
#include "core/netpolicy.h"
#include "core/sandbox-argv.h"
#include "core/sidecar-seccomp.h"
#include "core/ws-view.h"

static void	 pushf(struct lz_tokens *t, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));
static int	 id_valid(const char *id);
static int	 exec_check(const struct lz_sandbox_exec *x,
		     struct lz_err *err);
static const char *env_get(const char *name);
static int	 v_safe(const char *path);
static int	 add_mount(struct lz_tokens *t, const struct lz_mount *m,
		     struct lz_err *err);
static void	 verb(struct lz_tokens *out, const char *podman,
		     const char *prepared);
static int	 prepared_valid(const char *prepared, struct lz_err *err);
static int	 add_env(struct lz_tokens *t, const char *name,
		     const char *value, struct lz_err *err);

static void
pushf(struct lz_tokens *t, const char *fmt, ...)
{
	struct lz_buf b = LZ_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	lz_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	lz_tokens_push(t, b.buf);
	lz_buf_release(&b);
}

static const char *
env_get(const char *name)
{
	return getenv(name);
}

/* A Domain ID is LZ_DOMAIN_ID_LEN lower-case hex digits. */
static int
id_valid(const char *id)
{
	size_t i;

	if (id == NULL || strlen(id) != LZ_DOMAIN_ID_LEN)
		return 0;
	for (i = 0; i < LZ_DOMAIN_ID_LEN; i++) {
		if (strchr("0123456789abcdef", id[i]) == NULL || id[i] == '\0')
			return 0;
	}
	return 1;
}

int
lz_sandbox_env_name_valid(const char *name)
{
	const char *p;

	if (name == NULL || name[0] == '\0' || (name[0] >= '0' &&
	    name[0] <= '9'))
		return 0;
	for (p = name; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	}
	return 1;
}

char *
lz_sandbox_name(const char *domain_id)
{
	return lz_xasprintf(LZ_SANDBOX_NAME_PREFIX "%s", domain_id);
}

/*
 * 1 when "-v" can carry path: absolute, and none of the bytes podman's
 * "-v" splitter (':') or its option parser (',') treat specially, nor a
 * newline, which is kept out of "-v" so one rule covers every odd byte.
 */
static int
v_safe(const char *path)
{
	return path[0] == '/' && strpbrk(path, ":,\n\r") == NULL;
}

int
lz_sandbox_csv_field(struct lz_buf *b, const char *field, struct lz_err *err)
{
	const char *p;

	if (strchr(field, '\r') != NULL)
		return lz_err_set(err, LZ_EINVAL, "cannot pass '%s' to podman "
		    "--mount: it contains a carriage return, which podman's "
		    "CSV parser does not keep (rename the path)", field);
	if (strpbrk(field, ",\"\n") == NULL && field[0] != ' ') {
		lz_buf_adds(b, field);
		return 0;
	}
	lz_buf_addch(b, '"');
	for (p = field; *p != '\0'; p++) {
		if (*p == '"')
			lz_buf_addch(b, '"');
		lz_buf_addch(b, *p);
	}
	lz_buf_addch(b, '"');
	return 0;
}

/* Appends the options of one plan entry. */
static int
add_mount(struct lz_tokens *t, const struct lz_mount *m, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT, f = LZ_BUF_INIT;
	int rc = 0;

	if (m->target == NULL || m->target[0] != '/') {
		rc = lz_err_set(err, LZ_EINVAL, "sandbox mount target '%s' is "
		    "not an absolute path", m->target ? m->target : "(none)");
		goto out;
	}
	if (m->kind == LZ_MOUNT_TMPFS) {
		lz_buf_adds(&f, "destination=");
		lz_buf_adds(&f, m->target);
		lz_buf_adds(&b, "type=tmpfs,");
		if ((rc = lz_sandbox_csv_field(&b, f.buf, err)) != 0)
			goto out;
		if (m->readonly)
			lz_buf_adds(&b, ",ro");
		lz_tokens_push(t, "--mount");
		lz_tokens_push(t, b.buf);
		goto out;
	}
	if (m->source == NULL || m->source[0] != '/') {
		rc = lz_err_set(err, LZ_EINVAL, "sandbox mount source '%s' for "
		    "'%s' is not an absolute path", m->source ? m->source :
		    "(none)", m->target);
		goto out;
	}
	/* An anchor is always read-write: it is the sandbox's own state. */
	if (v_safe(m->source) && v_safe(m->target)) {
		lz_tokens_push(t, "-v");
		pushf(t, "%s:%s%s", m->source, m->target,
		    m->readonly && m->kind == LZ_MOUNT_BIND ? ":ro" : "");
		goto out;
	}
	lz_buf_adds(&b, "type=bind,");
	lz_buf_adds(&f, "source=");
	lz_buf_adds(&f, m->source);
	if ((rc = lz_sandbox_csv_field(&b, f.buf, err)) != 0)
		goto out;
	lz_buf_reset(&f);
	lz_buf_adds(&f, "destination=");
	lz_buf_adds(&f, m->target);
	lz_buf_addch(&b, ',');
	if ((rc = lz_sandbox_csv_field(&b, f.buf, err)) != 0)
		goto out;
	if (m->readonly && m->kind == LZ_MOUNT_BIND)
		lz_buf_adds(&b, ",ro");
	lz_tokens_push(t, "--mount");
	lz_tokens_push(t, b.buf);
out:
	lz_buf_release(&f);
	lz_buf_release(&b);
	return rc;
}

static int
add_env(struct lz_tokens *t, const char *name, const char *value,
    struct lz_err *err)
{
	if (!lz_sandbox_env_name_valid(name))
		return lz_err_set(err, LZ_EINVAL, "cannot pass environment "
		    "variable '%s' to the sandbox: not a valid name (letters, "
		    "digits and '_', not starting with a digit)", name);
	lz_tokens_push(t, "-e");
	pushf(t, "%s=%s", name, value);
	return 0;
}

int
lz_sandbox_argv_run(const char *podman, const struct lz_sandbox_spec *s,
    struct lz_tokens *out, struct lz_err *err)
{
	const char *(*get)(const char *) = s->getenv_fn;
	const char *v;
	size_t i;
	int rc = 0;

	if (get == NULL)
		get = env_get;
	if (!id_valid(s->domain_id))
		return lz_err_set(err, LZ_EINVAL, "invalid Domain ID '%s' (16 "
		    "lower-case hex digits expected)", s->domain_id ?
		    s->domain_id : "(none)");
	if (podman == NULL || s->runtime == NULL || s->image == NULL ||
	    s->image[0] == '\0' || s->plan == NULL)
		return lz_err_set(err, LZ_EINVAL, "incomplete sandbox "
		    "specification (podman, runtime, image and mount plan are "
		    "needed)");
	if (s->runtime[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "runtime '%s' is not an "
		    "absolute path", s->runtime);
	if (prepared_valid(s->prepared, err) != 0)
		return LZ_EINVAL;
	verb(out, podman, s->prepared);
	lz_tokens_push(out, "--name");
	pushf(out, LZ_SANDBOX_NAME_PREFIX "%s", s->domain_id);
	lz_tokens_push(out, "--label");
	pushf(out, LZ_SANDBOX_LABEL_DOMAIN "=%s", s->domain_id);
	lz_tokens_push(out, "--label");
	lz_tokens_push(out, LZ_SANDBOX_LABEL_ROLE "=" LZ_SANDBOX_ROLE_SANDBOX);
	if (s->anchors != NULL) {
		lz_tokens_push(out, "--annotation");
		pushf(out, LZ_ANCHOR_ANNOTATION "=%s", s->anchors);
	}
	if (s->mailbox != NULL) {
		/* podman splits --annotation values at commas and quotes. */
		if (s->mailbox[0] != '/' || strpbrk(s->mailbox, ",\"\n") !=
		    NULL) {
			rc = lz_err_set(err, LZ_EINVAL, "mailbox path '%s' must "
			    "be absolute, without commas or quotes",
			    s->mailbox);
			goto out;
		}
		lz_tokens_push(out, "--annotation");
		pushf(out, LZ_MAILBOX_ANNOTATION "=%s", s->mailbox);
	}
	if (s->view != NULL) {
		lz_tokens_push(out, "--annotation");
		pushf(out, LZ_VIEW_ANNOTATION "=%s", s->view);
	}
	if (s->gate != NULL) {
		if (s->gate[0] != '/' || strpbrk(s->gate, ",\"\n") != NULL) {
			rc = lz_err_set(err, LZ_EINVAL, "gate path '%s' must be "
			    "absolute, without commas or quotes", s->gate);
			goto out;
		}
		lz_tokens_push(out, "--annotation");
		pushf(out, LZ_GATE_ANNOTATION "=%s", s->gate);
	}
	lz_tokens_push(out, "--runtime");
	lz_tokens_push(out, s->runtime);
	if (s->sandbox_pidfile != NULL) {
		if (s->sandbox_pidfile[0] != '/') {
			rc = lz_err_set(err, LZ_EINVAL, "PID file '%s' must be "
			    "absolute", s->sandbox_pidfile);
			goto out;
		}
		lz_tokens_push(out, "--pidfile");
		lz_tokens_push(out, s->sandbox_pidfile);
	}
	lz_tokens_push(out, "--pull=never");
	lz_tokens_push(out, "--cgroupns=private");
	pushf(out, "--network=%s", s->network ? s->network : "none");
	lz_tokens_push(out, "--hostname");
	lz_tokens_push(out, LZ_SANDBOX_HOSTNAME);
	lz_tokens_push(out, "--init");
	for (i = 0; s->env != NULL && i < s->env->n; i++) {
		if ((v = get(s->env->v[i])) == NULL)
			continue;
		if ((rc = add_env(out, s->env->v[i], v, err)) != 0)
			goto out;
	}
	if (s->term != NULL && (rc = add_env(out, "TERM", s->term, err)) != 0)
		goto out;
	if (s->terminfo != NULL &&
	    (rc = add_env(out, "TERMINFO", s->terminfo, err)) != 0)
		goto out;
	for (i = 0; i < s->plan->n; i++) {
		if ((rc = add_mount(out, &s->plan->v[i], err)) != 0)
			goto out;
	}
	lz_tokens_push(out, "-w");
	lz_tokens_push(out, LZ_SANDBOX_WORKDIR);
	lz_tokens_push(out, s->image);
	lz_tokens_push(out, "sleep");
	lz_tokens_push(out, "infinity");
out:
	if (rc != 0)
		lz_tokens_release(out);
	return rc;
}

char *
lz_sandbox_sidecar_name(const char *domain_id)
{
	return lz_xasprintf(LZ_SANDBOX_NAME_PREFIX "%s"
	    LZ_SANDBOX_SIDECAR_SUFFIX, domain_id);
}

/* A prepared label is empty or a fingerprint: 64 lower-case hex digits. */
static int
prepared_valid(const char *prepared, struct lz_err *err)
{
	size_t n;

	if (prepared == NULL || prepared[0] == '\0')
		return 0;
	n = strlen(prepared);
	if (n == 64 && strspn(prepared, "0123456789abcdef") == n)
		return 0;
	return lz_err_set(err, LZ_EINVAL, "invalid prepared-set fingerprint "
	    "'%.80s' (64 hex digits expected)", prepared);
}

/*
 * "PODMAN run -d", or, with prepared not NULL, "PODMAN create" and (when
 * prepared is not empty) its label, into out.
 */
static void
verb(struct lz_tokens *out, const char *podman, const char *prepared)
{
	lz_tokens_push(out, podman);
	if (prepared == NULL) {
		lz_tokens_push(out, "run");
		lz_tokens_push(out, "-d");
		return;
	}
	lz_tokens_push(out, "create");
	if (prepared[0] != '\0') {
		lz_tokens_push(out, "--label");
		pushf(out, LZ_SANDBOX_LABEL_PREPARED "=%s", prepared);
	}
}

int
lz_sandbox_argv_sidecar(const char *podman, const struct lz_sandbox_spec *s,
    const char *prepared, struct lz_tokens *out, struct lz_err *err)
{
	const char *domain_id = s->domain_id, *log = s->sidecar_log;
	const char *pidfile = s->sidecar_pidfile, *sc = s->sidecar_seccomp;
	const char *policy = s->netpolicy_sent != NULL ? s->netpolicy_sent :
	    s->netpolicy;
	const struct lz_sidecar_attach *attach = s->attach;

	if (!id_valid(domain_id))
		return lz_err_set(err, LZ_EINVAL, "invalid Domain ID '%s' (16 "
		    "lower-case hex digits expected)", domain_id ? domain_id :
		    "(none)");
	if (podman == NULL || policy == NULL || policy[0] == '\0')
		return lz_err_set(err, LZ_EINVAL, "incomplete sidecar "
		    "specification (podman and policy are needed)");
	/* podman splits --log-opt values at commas. */
	if (log != NULL && (log[0] != '/' || strchr(log, ',') != NULL))
		return lz_err_set(err, LZ_EINVAL, "sidecar log path '%s' must "
		    "be absolute and free of commas", log);
	if (pidfile != NULL && pidfile[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "sidecar PID file path '%s' "
		    "must be absolute", pidfile);
	if (sc == NULL || sc[0] != '/' || strchr(sc, ',') != NULL ||
	    s->sidecar_seccomp_sha == NULL || strlen(s->sidecar_seccomp_sha) !=
	    64)
		return lz_err_set(err, LZ_EINVAL, "the sidecar's seccomp "
		    "profile needs an absolute file without ',' and its "
		    "SHA-256 (got '%s')", sc != NULL ? sc : "(none)");
	if (prepared_valid(prepared, err) != 0)
		return LZ_EINVAL;
	if (attach != NULL && (attach->keyfile[0] != '/' ||
	    strpbrk(attach->keyfile, ":,\n") != NULL))
		return lz_err_set(err, LZ_EINVAL, "sidecar attachment: file "
		    "'%s' must be absolute without ':' or ','",
		    attach->keyfile);
	verb(out, podman, prepared);
	lz_tokens_push(out, "--name");
	pushf(out, LZ_SANDBOX_NAME_PREFIX "%s" LZ_SANDBOX_SIDECAR_SUFFIX,
	    domain_id);
	if (log != NULL) {
		lz_tokens_push(out, "--log-driver");
		lz_tokens_push(out, "k8s-file");
		lz_tokens_push(out, "--log-opt");
		pushf(out, "path=%s", log);
	}
	if (pidfile != NULL) {
		lz_tokens_push(out, "--pidfile");
		lz_tokens_push(out, pidfile);
	}
	lz_tokens_push(out, "--label");
	pushf(out, LZ_SANDBOX_LABEL_DOMAIN "=%s", domain_id);
	lz_tokens_push(out, "--label");
	lz_tokens_push(out, LZ_SANDBOX_LABEL_ROLE "=" LZ_SANDBOX_ROLE_SIDECAR);
	lz_tokens_push(out, "--label");
	pushf(out, LZ_SIDECAR_SECCOMP_LABEL "=%s", s->sidecar_seccomp_sha);
	lz_tokens_push(out, "--runtime");
	lz_tokens_push(out, "crun");
	lz_tokens_push(out, "--pull=never");
	lz_tokens_push(out, "--network");
	lz_tokens_push(out, "slirp4netns:allow_host_loopback=false,"
	    "enable_ipv6=false");
	lz_tokens_push(out, "--cap-drop");
	lz_tokens_push(out, "all");
	lz_tokens_push(out, "--cap-add");
	lz_tokens_push(out, "NET_ADMIN");
	lz_tokens_push(out, "--sysctl");
	lz_tokens_push(out, "net.ipv6.conf.all.disable_ipv6=1");
	lz_tokens_push(out, "--sysctl");
	lz_tokens_push(out, "net.ipv6.conf.default.disable_ipv6=1");
	lz_tokens_push(out, "--read-only");
	lz_tokens_push(out, "--security-opt");
	lz_tokens_push(out, "no-new-privileges");
	lz_tokens_push(out, "--security-opt");
	pushf(out, "seccomp=%s", sc);
	lz_tokens_push(out, "--hostname");
	lz_tokens_push(out, LZ_SANDBOX_HOSTNAME);
	if (attach != NULL) {
		lz_tokens_push(out, "-v");
		pushf(out, "%s:" LZ_NETPOLICY_KEY_PATH ":ro", attach->keyfile);
	}
	lz_tokens_push(out, "--entrypoint");
	lz_tokens_push(out, LZ_SANDBOX_SIDECAR_PROGRAM);
	lz_tokens_push(out, s->sidecar_image != NULL ? s->sidecar_image :
	    LZ_SANDBOX_SIDECAR_IMAGE);
	lz_tokens_push(out, policy);
	/* This start's key and IDs are in the file, not here. */
	if (attach != NULL)
		lz_tokens_push(out, domain_id);
	return 0;
}

/* The checks every session command line makes (podman or runsc exec). */
static int
exec_check(const struct lz_sandbox_exec *x, struct lz_err *err)
{
	size_t i;

	if (!id_valid(x->domain_id))
		return lz_err_set(err, LZ_EINVAL, "invalid Domain ID '%s' (16 "
		    "lower-case hex digits expected)", x->domain_id ?
		    x->domain_id : "(none)");
	if (x->argv == NULL || x->argv[0] == NULL)
		return lz_err_set(err, LZ_EINVAL, "no command to run in the "
		    "sandbox");
	if (x->cwd != NULL && x->cwd[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "sandbox working directory "
		    "'%s' is not absolute", x->cwd);
	for (i = 0; x->env != NULL && i < x->env->n; i++) {
		const char *eq = strchr(x->env->v[i], '=');
		char *name;
		int ok;

		if (eq == NULL)
			return lz_err_set(err, LZ_EINVAL, "session environment "
			    "entry '%s' has no '=' (NAME=VALUE expected)",
			    x->env->v[i]);
		name = lz_xstrndup(x->env->v[i], eq - x->env->v[i]);
		ok = lz_sandbox_env_name_valid(name);
		free(name);
		if (!ok)
			return lz_err_set(err, LZ_EINVAL, "session environment "
			    "entry '%s' has an invalid name", x->env->v[i]);
	}
	return 0;
}

int
lz_sandbox_argv_exec(const char *podman, const struct lz_sandbox_exec *x,
    struct lz_tokens *out, struct lz_err *err)
{
	size_t i;
	int rc;

	if ((rc = exec_check(x, err)) != 0)
		return rc;
	lz_tokens_push(out, podman);
	lz_tokens_push(out, "exec");
	lz_tokens_push(out, "-i");
	if (x->tty) {
		lz_tokens_push(out, "-t");
		lz_tokens_push(out, "--detach-keys=");
	}
	lz_tokens_push(out, "-w");
	lz_tokens_push(out, x->cwd ? x->cwd : LZ_SANDBOX_WORKDIR);
	for (i = 0; x->env != NULL && i < x->env->n; i++) {
		lz_tokens_push(out, "-e");
		lz_tokens_push(out, x->env->v[i]);
	}
	pushf(out, LZ_SANDBOX_NAME_PREFIX "%s", x->domain_id);
	for (i = 0; x->argv[i] != NULL; i++)
		lz_tokens_push(out, x->argv[i]);
	return 0;
}

int
lz_sandbox_argv_runsc_exec(const char *shim, const char *root,
    const char *container_id, const struct lz_sandbox_exec *x,
    struct lz_tokens *out, struct lz_err *err)
{
	size_t i, n;
	int rc;

	if ((rc = exec_check(x, err)) != 0)
		return rc;
	n = container_id != NULL ? strlen(container_id) : 0;
	if (n != 64 || strspn(container_id, "0123456789abcdef") != n)
		return lz_err_set(err, LZ_EINVAL, "invalid container ID '%s'",
		    container_id ? container_id : "(none)");
	if (shim == NULL || shim[0] != '/' || root == NULL || root[0] != '/')
		return lz_err_set(err, LZ_EINVAL, "runsc exec needs the "
		    "absolute paths of the shim and of runsc's state root");
	/* runsc splits every --env value at commas. */
	for (i = 0; x->env != NULL && i < x->env->n; i++) {
		if (strchr(x->env->v[i], ',') != NULL)
			return lz_err_set(err, LZ_EINVAL, "session environment "
			    "entry '%s' has a comma, which runsc exec cannot "
			    "pass", x->env->v[i]);
	}
	lz_tokens_push(out, shim);
	lz_tokens_push(out, "--root");
	lz_tokens_push(out, root);
	lz_tokens_push(out, "exec");
	lz_tokens_push(out, "--cwd");
	lz_tokens_push(out, x->cwd ? x->cwd : LZ_SANDBOX_WORKDIR);
	for (i = 0; x->env != NULL && i < x->env->n; i++) {
		lz_tokens_push(out, "--env");
		lz_tokens_push(out, x->env->v[i]);
	}
	lz_tokens_push(out, container_id);
	for (i = 0; x->argv[i] != NULL; i++)
		lz_tokens_push(out, x->argv[i]);
	return 0;
}
