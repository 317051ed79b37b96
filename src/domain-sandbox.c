/*
 * domain-sandbox.c: a Domain's transient resources up and down (see
 * domain-sandbox.h). Builds the mount plan, makes the directories the plan
 * binds, and drives core/sandbox.c (podman, the anchors' overlays).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/domain-meta.h"
#include "core/gitsentry.h"
#include "core/hmac.h"
#include "core/ignored.h"
#include "core/mountplan.h"
#include "core/netpolicy.h"
#include "core/rundir.h"
#include "core/sandbox.h"
#include "core/sidecar-seccomp.h"
#include "src/domain-sandbox.h"


int
lz_domain_mark_clean(const struct lz_client *c, int op)
{
	char *p = lz_xasprintf("%s/clean", c->domain.runtime);
	int fd, rc = 0;

	if (op == 1) {
		fd = open(p, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	} else {
		rc = access(p, F_OK) == 0;
		unlink(p);
	}
	free(p);
	return rc;
}

static int compile_policy(const struct lz_client *c, struct lz_buf *text,
    struct lz_buf *tampered, struct lz_err *err);
static int write_resolv(const struct lz_client *c, char **path,
    struct lz_err *err);

/*
 * Test hook: with LAZARET_TEST_SIDECAR_TAMPER=1 in the coordinator's
 * environment the sidecar is given the policy plus one extra deny rule,
 * so its digest differs from the compiled one and the start must stop
 * before the sandbox exists (tests/network); with "attach" the
 * coordinator checks the sidecar's readiness MAC with another key than
 * the one it gave it, as a report of another start would be. It can only
 * make the start fail, never weaken the policy.
 */
#define TAMPER_ENV "LAZARET_TEST_SIDECAR_TAMPER"
#define TAMPER_RULE "198.51.100.0/24"

/*
 * The sidecar's policy text: the profile's effective table (built-ins,
 * resolver routes, the developer's rules; conflicts already refused at
 * load) and its resolvers.
 */
static int
compile_policy(const struct lz_client *c, struct lz_buf *text,
    struct lz_buf *tampered, struct lz_err *err)
{
	struct lz_policy eff = LZ_POLICY_INIT;
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_cidr *res = NULL, extra;
	const char *hook;
	size_t i;
	int rc;

	if ((rc = lz_profile_policy(c->profile, &eff, err)) != 0)
		goto out;
	res = lz_xcalloc(c->profile->nresolvers + 1, sizeof *res);
	for (i = 0; i < c->profile->nresolvers; i++)
		res[i] = c->profile->resolvers[i].addr;
	if ((rc = lz_netpolicy_compile(&np, &eff, res, c->profile->nresolvers,
	    err)) != 0)
		goto out;
	lz_netpolicy_format(&np, text);
	hook = getenv(TAMPER_ENV);
	if (hook != NULL && strcmp(hook, "1") == 0) {
		lz_netpolicy_release(&np);
		if (lz_cidr_parse(TAMPER_RULE, 0, &extra, NULL) != 0)
			LZ_BUG("bad tamper rule");
		lz_policy_add(&eff, &extra, LZ_POLICY_DENY, "test hook");
		lz_policy_normalize(&eff);
		if ((rc = lz_netpolicy_compile(&np, &eff, res,
		    c->profile->nresolvers, err)) != 0)
			goto out;
		lz_netpolicy_format(&np, tampered);
	}
out:
	free(res);
	lz_netpolicy_release(&np);
	lz_policy_release(&eff);
	return rc;
}

/*
 * Writes path anew (tmp, then rename; never through a symlink) with mode.
 */
static int
put_file(const char *path, const char *data, size_t len, mode_t mode,
    struct lz_err *err)
{
	char *tmp = lz_xasprintf("%s.tmp", path);
	int fd, rc = 0, e;

	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    mode);
	if (fd < 0 || lz_write_all(fd, data, len) != 0 ||
	    fchmod(fd, mode) != 0 || close(fd) != 0 || (fd = -1,
	    rename(tmp, path) != 0)) {
		e = errno;
		if (fd >= 0)
			close(fd);
		(void)unlink(tmp);
		rc = lz_err_set(err, LZ_ESYS, "cannot write '%s': %s", path,
		    strerror(e));
	}
	free(tmp);
	return rc;
}

/*
 * Writes text to the runtime directory's file name (0644: bound read-only
 * into the sandbox), atomically; *path gets its path (allocated).
 */
static int
write_runtime_file(const struct lz_client *c, const char *name,
    const struct lz_buf *text, char **path, struct lz_err *err)
{
	int rc;

	*path = lz_xasprintf("%s/%s", c->domain.runtime, name);
	if ((rc = put_file(*path, text->buf, text->len, 0644, err)) != 0) {
		free(*path);
		*path = NULL;
	}
	return rc;
}

/*
 * The sandbox's /etc/resolv.conf: Lazaret's file in the runtime directory
 * naming the profile's resolvers, bound read-only over the /etc State
 * Anchor (so the anchor never decides DNS), rewritten at every start.
 */
static int
write_resolv(const struct lz_client *c, char **path, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	char a[32];
	size_t i;
	int rc;

	lz_buf_addf(&b, "# Lazaret: DNS resolvers of profile '%s' "
	    "(resolver = ...)\n", c->profile->name);
	for (i = 0; i < c->profile->nresolvers; i++) {
		lz_cidr_format(&c->profile->resolvers[i].addr, a, sizeof a);
		*strchr(a, '/') = '\0';
		lz_buf_addf(&b, "nameserver %s\n", a);
	}
	rc = write_runtime_file(c, "resolv.conf", &b, path, err);
	lz_buf_release(&b);
	return rc;
}

/*
 * The Network Sidecar's seccomp profile (core/sidecar-seccomp.h), written
 * anew at every start for podman to read when it creates the sidecar
 * (now, or at this Domain's end for its next start); sha gets its SHA-256.
 */
static int
write_seccomp(const struct lz_client *c, char **path, char sha[65],
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	int rc;

	lz_sidecar_seccomp_json(&b);
	lz_sha256_hex(b.buf, b.len, sha);
	rc = write_runtime_file(c, LZ_SIDECAR_SECCOMP_FILE, &b, path, err);
	lz_buf_release(&b);
	return rc;
}

int
lz_domain_notice(const struct lz_client *c, const struct lz_mountplan *mp,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	char *path = NULL;
	int rc;

	lz_gitsentry_notice(mp, c->profile, &b);
	rc = write_runtime_file(c, LZ_MOUNTPLAN_NOTICE, &b, &path, err);
	free(path);
	lz_buf_release(&b);
	return rc;
}

#define SIDECAR_KEY "sidecar.key"

/*
 * This start's identity material (SR-9), made by the coordinator: the
 * sidecar's attachment file (key and component IDs, netpolicy.h; read by
 * the sidecar only, through its own bind) and the Agent Sandbox's
 * certificate, key and CA certificate in identity/ (bound read-only at
 * /run/lazaret/identity). Written anew at every start, before either
 * container starts (prepared ones included): a restarted sandbox never
 * sees the earlier start's, and the Domain's end empties them
 * (forget_identity).
 */
static const char *const identity_files[] = { "ca.crt", "sandbox.crt",
    "sandbox.key", "sandbox.id", "domain" };

static int
write_identity(const struct lz_client *c, const struct lz_domain_identity *id,
    char **keyfile, struct lz_err *err)
{
	const char *const *names = identity_files;
	const char *data[5] = { id->ca_pem, id->cert_pem, id->key_pem,
	    id->sandbox_id, c->domain.id };
	char *p;
	size_t i;
	int rc;

	struct lz_buf attach = LZ_BUF_INIT;

	*keyfile = lz_xasprintf("%s/" SIDECAR_KEY, c->domain.runtime);
	rc = lz_netpolicy_attach_format(id->attach_key, id->sidecar_id,
	    id->sandbox_id, &attach, err);
	if (rc == 0)
		rc = put_file(*keyfile, attach.buf, attach.len, 0600, err);
	lz_buf_wipe(&attach);
	for (i = 0; rc == 0 && i < 5; i++) {
		p = lz_xasprintf("%s/identity/%s", c->domain.runtime, names[i]);
		rc = put_file(p, data[i], strlen(data[i]), 0600, err);
		free(p);
	}
	return rc;
}

/*
 * The start's key material goes with it (the sandbox and sidecar that read
 * it are gone): nothing signed with it could be verified any more, but a
 * private key is not left lying in the runtime directory. The attachment
 * file stays, empty: a prepared sidecar binds it (lz_domain_prepare).
 */
static int
forget_identity(const struct lz_client *c, struct lz_err *err)
{
	char *p = lz_xasprintf("%s/" SIDECAR_KEY, c->domain.runtime);
	size_t i;
	int rc;

	rc = put_file(p, "", 0, 0600, err);
	free(p);
	for (i = 0; i < sizeof identity_files / sizeof identity_files[0];
	    i++) {
		p = lz_xasprintf("%s/identity/%s", c->domain.runtime,
		    identity_files[i]);
		if (unlink(p) != 0 && errno != ENOENT && rc == 0)
			rc = lz_err_set(err, LZ_ESYS, "cannot remove '%s': %s",
			    p, strerror(errno));
		free(p);
	}
	return rc;
}

int
lz_domain_dirs(const struct lz_client *c, struct lz_err *err)
{
	static const char *const subs[] = { "mailbox/requests",
	    "mailbox/results", "terminfo", "identity" };
	const char *rel = c->domain.runtime + strlen(c->paths.xdg_runtime) + 1;
	struct lz_buf sub = LZ_BUF_INIT;
	size_t i;
	int fd = 0;

	for (i = 0; i < sizeof subs / sizeof subs[0] && fd >= 0; i++) {
		lz_buf_reset(&sub);
		lz_buf_addf(&sub, "%s/%s", rel, subs[i]);
		fd = lz_rundir_ensure(c->paths.xdg_runtime, 0, sub.buf, err);
		if (fd >= 0)
			close(fd);
	}
	lz_buf_release(&sub);
	return fd < 0 ? fd : 0;
}

char *
lz_domain_mailbox(const struct lz_client *c)
{
	return lz_xasprintf("%s/mailbox/requests", c->domain.runtime);
}

char *
lz_domain_sibling(const char *self, const char *name)
{
	const char *slash = strrchr(self, '/');

	return lz_xasprintf("%.*s%s", slash != NULL ?
	    (int)(slash - self + 1) : 0, self, name);
}

/*
 * Takes the record of a pair prepared when the Domain last ended: renamed
 * to a name of this process first, so that of two starts reading it only
 * one can have it; then read and removed. 1 when *p holds a record; a
 * record that cannot be read is said in note.
 */
static int
claim_prepared(const struct lz_client *c, struct lz_sandbox_prepared *p,
    struct lz_buf *note)
{
	char *rec = lz_xasprintf("%s/" LZ_SANDBOX_PREP_RECORD,
	    c->domain.runtime);
	char *mine = lz_xasprintf("%s.%ld", rec, (long)getpid());
	struct lz_err err = LZ_ERR_INIT;
	char text[512];
	ssize_t n = -1;
	int fd, ok = 0;

	if (rename(rec, mine) != 0) {
		if (errno != ENOENT)
			lz_buf_addf(note, "prepared containers not used: cannot "
			    "take '%s': %s\n", rec, strerror(errno));
		goto out;
	}
	if ((fd = open(mine, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, text, sizeof text);
		close(fd);
	}
	unlink(mine);
	if (n < 0)
		lz_buf_addf(note, "prepared containers not used: cannot read "
		    "their record: %s\n", strerror(errno));
	else if (lz_sandbox_prep_parse(text, (size_t)n, p, &err) != 0)
		lz_buf_addf(note, "prepared containers not used: %s\n",
		    err.msg);
	else
		ok = 1;
out:
	lz_err_release(&err);
	free(rec);
	free(mine);
	return ok;
}

int
lz_domain_up(const struct lz_client *c, const char *self,
    const struct lz_domain_identity *id, struct lz_sandbox_started *st,
    struct lz_buf *warn, struct lz_err *err)
{
	struct lz_sandbox_prepared prepared;
	struct lz_sandbox_use use;
	struct lz_sidecar_attach attach;
	char *keyfile = NULL;
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_sandbox_ctx ctx;
	struct lz_sandbox_spec spec;
	struct lz_ignored ig;
	struct lz_buf policy = LZ_BUF_INIT, tampered = LZ_BUF_INIT;
	struct lz_err meta = LZ_ERR_INIT;
	struct lz_view view;
	char *shim = NULL, *escalate = NULL, *resolv = NULL, *log = NULL;
	char *pidfile = NULL, *sandbox_pid = NULL, *view_annot = NULL;
	char *gate = NULL, *seccomp = NULL, seccomp_sha[65];
	int rc, using = 0;

	memset(&ig, 0, sizeof ig);
	memset(&view, 0, sizeof view);
	memset(&spec, 0, sizeof spec);
	if ((rc = lz_sandbox_ctx_init(&ctx, NULL, self, err)) != 0)
		return rc;
	ctx.mailbox = lz_domain_mailbox(c);
	/*
	 * A pair prepared when the Domain last ended: podman inspects it
	 * while this start is set up (the checks before it is used,
	 * sandbox-prep.h).
	 */
	if (claim_prepared(c, &prepared, &st->note)) {
		if (lz_sandbox_use_begin(&ctx, &prepared, c->profile->image,
		    NULL, &use, &meta) == 0)
			using = 1;
		else
			lz_buf_addf(&st->note, "prepared containers not used: "
			    "%s\n", meta.msg);
		lz_err_release(&meta);
	}
	/* Read directly: "podman logs" would cost a podman start. */
	log = lz_xasprintf("%s/sidecar.log", c->domain.runtime);
	if (strchr(log, ',') == NULL)
		spec.sidecar_log = log;
	pidfile = lz_xasprintf("%s/sidecar.pid", c->domain.runtime);
	spec.sidecar_pidfile = pidfile;
	/* The sandbox is created only for the verified sidecar (gate.h). */
	gate = lz_xasprintf("%s/gate", c->domain.runtime);
	spec.gate = gate;
	spec.domain_id = c->domain.id;
	/* The coordinator watches the sandbox's process through it. */
	sandbox_pid = lz_xasprintf("%s/" LZ_DOMAIN_SANDBOX_PID,
	    c->domain.runtime);
	unlink(sandbox_pid);
	spec.sandbox_pidfile = sandbox_pid;
	rc = lz_domain_dirs(c, err);
	if (rc == 0)
		rc = write_identity(c, id, &keyfile, err);
	if (rc != 0)
		goto out;
	/*
	 * The prepared pair starts now, while the rest is set up: its
	 * sidecar needs only the files above; its sandbox waits at the gate
	 * until lz_sandbox_start_net has checked it against this start's
	 * fingerprint (sandbox.h). A launch that fails leaves the pair to
	 * that check, which starts it the same way or removes it.
	 */
	if (using && lz_sandbox_use_launch(&ctx, &spec, &use, &meta) != 0)
		lz_buf_addf(&st->note, "prepared containers not started early: "
		    "%s\n", meta.msg);
	lz_err_release(&meta);
	/* The workspace the starting client handed over, checked by Git. */
	if ((rc = lz_domain_verify(&c->domain, err)) != 0)
		goto out;
	/* The record "lazaret state" reads (domain-meta.h): a warning only. */
	if (lz_domain_meta_write(&c->domain, c->profile->image,
	    (long long)time(NULL), &meta) != 0)
		lz_buf_addf(warn, "%s ('lazaret state' will show the Domain's "
		    "profile and workspace as unknown)\n", meta.msg);
	/* The isolated paths first (fitted to the limit): Git Sentry leaves
	 * them alone. */
	if (c->profile->ignored_isolation) {
		rc = lz_ignored_scan(c->domain.workspace, &ig, err);
		if (rc == 0)
			rc = lz_ignored_merge(c->domain.root, &ig, err);
		if (rc == 0)
			rc = lz_ignored_fit(c->domain.workspace, &ig, err);
		if (rc != 0)
			goto out;
	}
	rc = lz_mountplan_build(&mp, &c->domain, c->profile, &ig.paths, warn,
	    err);
	if (rc != 0)
		goto out;
	if ((rc = compile_policy(c, &policy, &tampered, err)) != 0)
		goto out;
	if ((rc = write_resolv(c, &resolv, err)) != 0 ||
	    (rc = write_seccomp(c, &seccomp, seccomp_sha, err)) != 0 ||
	    (rc = lz_domain_notice(c, &mp, err)) != 0)
		goto out;
	if (c->profile->ignored_isolation) {
		rc = lz_ignored_prepare(c->domain.workspace, c->domain.root,
		    &ig, &mp, &view, err);
		if (rc != 0)
			goto out;
		if (view.view != NULL)
			view_annot = lz_view_annot_encode(&view);
	}
	/* After every anchor, so it lies over the /etc anchor. */
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, resolv, "/etc/resolv.conf", 1,
	    "DNS resolvers (Lazaret's)");
	shim = lz_domain_shim(self);
	escalate = lz_domain_sibling(self, "lazaret-escalate");
	if (access(shim, X_OK) != 0 || access(escalate, X_OK) != 0) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "'%s' is missing: %s (run "
		    "scripts/setup.sh)", access(shim, X_OK) != 0 ? shim :
		    escalate, strerror(errno));
		goto out;
	}
	/* The Escalation Client (static: any image can run it). */
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, escalate,
	    "/usr/local/bin/lazaret-escalate", 1,
	    "the Escalation Client (Host Escalation)");
	spec.runtime = shim;
	spec.image = c->profile->image;
	spec.plan = &mp;
	spec.view = view_annot;
	spec.env = NULL;	/* passed per session, from the client */
	spec.network = "none";	/* replaced by container:<sidecar ID> */
	spec.netpolicy = policy.buf;
	spec.netpolicy_sent = tampered.len > 0 ? tampered.buf : NULL;
	attach.keyfile = keyfile;
	attach.key_hex = id->attach_key;
	attach.sidecar_id = id->sidecar_id;
	attach.sandbox_id = id->sandbox_id;
	/* Test hook: a report made with another key, as another start's. */
	if (getenv(TAMPER_ENV) != NULL && strcmp(getenv(TAMPER_ENV),
	    "attach") == 0)
		attach.key_hex = "00000000000000000000000000000000"
		    "00000000000000000000000000000000";
	spec.attach = &attach;
	spec.sidecar_seccomp = seccomp;
	spec.sidecar_seccomp_sha = seccomp_sha;
	spec.mailbox = ctx.mailbox;
	if (using)
		spec.use = &use;
	rc = lz_sandbox_start_net(&ctx, &spec, c->domain.root, st, err);
out:
	/* A set-up that failed: no sandbox (the caller removes the
	 * Domain's containers, the launched sidecar with them). */
	if (using && lz_sandbox_use_end(&use, err != NULL &&
	    err->msg != NULL ? err->msg : NULL))
		lz_buf_addf(&st->note, "prepared containers started early, "
		    "refused at the gate: the set-up failed\n");
	lz_sandbox_ctx_release(&ctx);
	lz_ignored_release(&ig);
	lz_view_release(&view);
	free(view_annot);
	lz_mountplan_release(&mp);
	free(shim);
	free(escalate);
	free(log);
	free(pidfile);
	free(sandbox_pid);
	free(gate);
	free(keyfile);
	free(resolv);
	free(seccomp);
	lz_buf_release(&policy);
	lz_buf_release(&tampered);
	lz_err_release(&meta);
	return rc;
}

int
lz_domain_down(const struct lz_client *c, const char *self,
    struct lz_buf *swept, struct lz_err *err)
{
	struct lz_sandbox_ctx ctx;
	char *rec = lz_xasprintf("%s/" LZ_SANDBOX_PREP_RECORD,
	    c->domain.runtime);
	int rc;

	/* Whatever it names is removed below. */
	unlink(rec);
	free(rec);
	rc = lz_sandbox_ctx_init(&ctx, NULL, self, err);
	if (rc != 0)
		return rc;
	ctx.mailbox = lz_domain_mailbox(c);
	ctx.swept = swept;
	rc = lz_sandbox_stop(&ctx, c->domain.id, c->domain.root, err);
	lz_sandbox_ctx_release(&ctx);
	if (rc == 0)
		(void)forget_identity(c, NULL);
	return rc;
}

int
lz_domain_prepare(const struct lz_client *c, const char *self,
    const struct lz_sandbox_plan *next, struct lz_buf *note,
    struct lz_err *err)
{
	struct lz_sandbox_ctx ctx;
	struct lz_sandbox_prepared p;
	struct lz_buf rec = LZ_BUF_INIT;
	char *path = NULL;
	int rc;

	if ((rc = forget_identity(c, err)) != 0 || next->fp[0] == '\0')
		return rc;
	if ((rc = lz_sandbox_ctx_init(&ctx, NULL, self, err)) != 0)
		return rc;
	ctx.mailbox = lz_domain_mailbox(c);
	rc = lz_sandbox_prepare(&ctx, next, c->domain.id, c->domain.root,
	    c->domain.workspace, &p, err);
	if (rc == 0) {
		lz_sandbox_prep_format(&p, &rec);
		path = lz_xasprintf("%s/" LZ_SANDBOX_PREP_RECORD,
		    c->domain.runtime);
		if ((rc = put_file(path, rec.buf, rec.len, 0600, err)) != 0)
			lz_sandbox_stop(&ctx, c->domain.id, c->domain.root,
			    NULL);
		else
			lz_buf_addf(note, "prepared the next start's containers "
			    "(sidecar %.12s, sandbox %.12s)\n", p.sidecar,
			    p.sandbox);
	}
	free(path);
	lz_buf_release(&rec);
	lz_sandbox_ctx_release(&ctx);
	return rc;
}
