/*
 * coordinator-main.c: "lazaret __coordinator", the Session Coordinator of
 * one Domain (hidden; started by the first client, see src/client-conn.c
 * lz_conn_open). It inherits the Domain's lifecycle lock and holds it
 * for its whole life (OR-1), starts the sandbox, listens on the control
 * socket, reports readiness on a pipe, runs the libuv loop, and tears the
 * transient resources down when the last Client Session ends (FR-6):
 * socket withdrawn first, then sandbox, then anchors (FR-7 order).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/domain-sandbox.h"
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "core/sandbox.h"
#include "core/trust.h"
#include "core/spawn.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"
#include "src/coordinator.h"

/* A coordinator with no session for this long stops (its client died). */
#define IDLE_MS 15000
#define TRIM_MS 5000

struct lz_coord lz_coord;

static void on_signal(uv_signal_t *h, int signum);
static void on_idle(uv_timer_t *t);
static int start(int ready_fd, struct lz_err *err);
static void report(int fd, const char *msg);

static void
report(int fd, const char *msg)
{
	if (fd >= 0)
		(void)lz_write_all(fd, msg, strlen(msg));
}

/* Once no session is left, closing every handle ends the loop. */
void
lz_coord_close(void)
{
	uv_handle_t *hs[] = { (uv_handle_t *)&lz_coord.server,
	    (uv_handle_t *)&lz_coord.sig_term, (uv_handle_t *)&lz_coord.sig_int,
	    (uv_handle_t *)&lz_coord.sig_hup, (uv_handle_t *)&lz_coord.sig_chld,
	    (uv_handle_t *)&lz_coord.idle, (uv_handle_t *)&lz_coord.trim,
	    (uv_handle_t *)&lz_coord.log_check };
	struct lz_reg_conn *c, *next;
	size_t i;

	if (!lz_coord.reg.stopping) {
		lz_coord_stop("the last Client Session ended");
		return;
	}
	if (lz_coord.closed)
		return;
	lz_coord.closed = 1;
	for (c = lz_coord.reg.conns; c != NULL; c = next) {
		next = c->next;
		lz_coord_conn_close(c->glue);
	}
	lz_coord_unwatch();
	lz_coord_unwatch_git();
	lz_coord_history_stop();
	lz_coord_esc_stop();
	for (i = 0; i < sizeof hs / sizeof hs[0]; i++) {
		if (uv_is_active(hs[i]) || hs[i]->type != UV_UNKNOWN_HANDLE) {
			if (!uv_is_closing(hs[i]))
				uv_close(hs[i], NULL);
		}
	}
}

void
lz_coord_stop(const char *why)
{
	struct lz_acts a = LZ_ACTS_INIT;

	if (!lz_coord.reg.stopping) {
		fprintf(stderr, "coordinator %s: stopping: %s\n", lz_coord.id,
		    why);
		/* Withdraw publication first: no new client can join. */
		unlink(lz_coord.sock_path);
	}
	lz_reg_stop(&lz_coord.reg, &a);
	lz_coord_act(&a);
}

static void
on_signal(uv_signal_t *h, int signum)
{
	(void)h;
	if (signum == SIGCHLD) {
		lz_session_reap();
		lz_coord_esc_reap();
		return;
	}
	lz_coord_stop(strsignal(signum));
	/* A second signal while sessions drain ends them for good. */
	if (signum == SIGTERM && lz_coord.reg.nsessions > 0) {
		struct lz_reg_session *r;

		for (r = lz_coord.reg.sessions; r != NULL; r = r->next)
			if (((struct lz_session *)r->glue)->pid > 0)
				kill(-((struct lz_session *)r->glue)->pid,
				    SIGKILL);
	}
}

/*
 * Output floods leave freed heap that glibc keeps: hand it back to the
 * system once things are quiet again, so the resident size follows what
 * the panes hold (ui/pane.h's bound), not the largest burst.
 */
static void
on_trim(uv_timer_t *t)
{
	/*
	 * Only once output has paused for a second: a trim walks the heap,
	 * and an interactive session's echo must not wait behind it.
	 */
	if (lz_coord.trim_wanted &&
	    uv_now(t->loop) - lz_coord.last_output >= 1000) {
		lz_coord.trim_wanted = 0;
		malloc_trim(0);
	}
}

static void
on_idle(uv_timer_t *t)
{
	(void)t;
	if (lz_coord.reg.nsessions == 0)
		lz_coord_stop("no session was opened");
}

/*
 * The identities of this instance and start (SR-9): the coordinator's own
 * certificate, this start's Network Sidecar ID and attachment key, and
 * the Agent Sandbox's ID, key and certificate. material holds the
 * strings id points into (PEMs and the key; the caller wipes it once
 * they are written).
 */
static int
issue_identities(struct lz_domain_identity *id, struct lz_buf *material,
    struct lz_err *err)
{
	unsigned char key[32];
	char hex[65];
	struct lz_buf parts[3] = { LZ_BUF_INIT, LZ_BUF_INIT, LZ_BUF_INIT };
	EVP_PKEY *k = NULL;
	size_t off[4], i;
	int rc;

	lz_id_random(lz_coord.sidecar_id, LZ_ID_COMPONENT_BYTES);
	lz_id_random(lz_coord.sandbox_id, LZ_ID_COMPONENT_BYTES);
	if ((k = lz_key_new(err)) == NULL)
		return LZ_EINVAL;
	rc = lz_trust_issue(lz_coord.trust, LZ_ROLE_COORDINATOR, lz_coord.id, k,
	    &parts[0], err);
	EVP_PKEY_free(k);
	lz_buf_reset(&parts[0]);
	if (rc == 0 && (k = lz_key_new(err)) == NULL)
		rc = LZ_EINVAL;
	if (rc == 0)
		rc = lz_trust_issue(lz_coord.trust, LZ_ROLE_SANDBOX,
		    lz_coord.sandbox_id, k, &parts[1], err);
	if (rc == 0)
		rc = lz_key_private_pem(k, &parts[2], err);
	EVP_PKEY_free(k);
	if (rc == 0 && RAND_bytes(key, sizeof key) != 1)
		rc = lz_err_set(err, LZ_ESYS, "no random bytes");
	if (rc != 0)
		goto out;
	lz_hex(key, sizeof key, hex);
	OPENSSL_cleanse(key, sizeof key);
	/* One buffer, NUL-separated: ca, cert, key, attach key. */
	off[0] = material->len;
	lz_buf_adds(material, lz_trust_ca_pem(lz_coord.trust));
	lz_buf_addch(material, '\0');
	off[1] = material->len;
	lz_buf_add(material, parts[1].buf, parts[1].len + 1);
	off[2] = material->len;
	lz_buf_add(material, parts[2].buf, parts[2].len + 1);
	off[3] = material->len;
	lz_buf_adds(material, hex);
	OPENSSL_cleanse(hex, sizeof hex);
	id->ca_pem = material->buf + off[0];
	id->cert_pem = material->buf + off[1];
	id->key_pem = material->buf + off[2];
	id->attach_key = material->buf + off[3];
	id->sidecar_id = lz_coord.sidecar_id;
	id->sandbox_id = lz_coord.sandbox_id;
out:
	for (i = 0; i < 3; i++)
		lz_buf_wipe(&parts[i]);
	return rc;
}

void
lz_coord_trusted(struct lz_buf *frames)
{
	const struct lz_trust_issued *v;
	struct lz_msg_trusted t;
	struct lz_msg_identity *id;
	size_t n, i;

	memset(&t, 0, sizeof t);
	snprintf(t.anchor, sizeof t.anchor, "%s",
	    lz_trust_fingerprint(lz_coord.trust));
	v = lz_trust_list(lz_coord.trust, &n, NULL);
	t.v = lz_xcalloc(n + 1, sizeof *t.v);
	for (i = 0; i < n; i++) {
		id = &t.v[t.n++];
		snprintf(id->role, sizeof id->role, "%s",
		    lz_role_name(v[i].role));
		snprintf(id->component, sizeof id->component, "%s",
		    v[i].component);
		snprintf(id->serial, sizeof id->serial, "%s", v[i].serial);
		id->not_after = v[i].not_after;
		snprintf(id->fingerprint, sizeof id->fingerprint, "%s",
		    v[i].fingerprint);
	}
	/* The sidecar is known by its attachment key, not a certificate. */
	id = &t.v[t.n++];
	snprintf(id->role, sizeof id->role, "sidecar");
	snprintf(id->component, sizeof id->component, "%s",
	    lz_coord.sidecar_id);
	lz_msg_trusted_add(frames, &t);
	free(t.v);
}

static int
start(int ready_fd, struct lz_err *err)
{
	struct lz_domain *d = &lz_coord.cfg.domain;
	struct lz_buf warn = LZ_BUF_INIT, material = LZ_BUF_INIT;
	struct lz_domain_identity id;
	struct lz_sandbox_started st;
	char *line, *save = NULL;
	uint64_t t0 = uv_hrtime();
	int rc, fd, pidfd, sandbox_fd = -1;
	char *pidfile;

	lz_id_random(lz_coord.id, LZ_ID_COORDINATOR_BYTES);
	lz_registry_init(&lz_coord.reg, d->id, lz_coord.id,
	    lz_coord.cfg.fingerprint);
	/*
	 * The Trust Anchor's key lives in this process's memory only: no
	 * core file, no same-user ptrace or /proc/PID/mem read of it.
	 */
	if (prctl(PR_SET_DUMPABLE, 0) != 0)
		return lz_err_set(err, LZ_ESYS, "PR_SET_DUMPABLE: %s",
		    strerror(errno));
	if ((lz_coord.trust = lz_trust_new(d->id, d->profile, lz_coord.id,
	    err)) == NULL || (rc = issue_identities(&id, &material, err)) != 0)
		return lz_coord.trust == NULL ? LZ_EINVAL : rc;
	lz_coord.reg.trust = lz_coord.trust;
	lz_coord.sock_path = lz_xasprintf("%s/control.sock", d->runtime);
	/*
	 * For diagnostics and tests (a kill during start-up); the lock, not
	 * this file, is authority. Removed when the coordinator ends.
	 */
	lz_coord.pid_path = lz_xasprintf("%s/coordinator.pid", d->runtime);
	fd = open(lz_coord.pid_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd >= 0) {
		dprintf(fd, "%ld\n", (long)getpid());
		close(fd);
	}
	lz_coord.self = realpath("/proc/self/exe", NULL);
	if (lz_coord.self == NULL)
		return lz_err_set(err, LZ_ESYS, "cannot find this program: %s",
		    strerror(errno));
	rc = lz_spawn_find("podman", NULL, &lz_coord.podman, err);
	if (rc != 0)
		return lz_err_prefix(err, rc, "cannot start the sandbox");
	/* Made (0700) with the other bound directories by lz_domain_up. */
	lz_coord.terminfo = lz_xasprintf("%s/terminfo", d->runtime);
	/*
	 * The Git history guard's launch pass runs while the sandbox
	 * starts: no session exists before ready() below, so nothing in the
	 * sandbox touches the repository meanwhile.
	 */
	if ((rc = lz_coord_history_start(err)) != 0) {
		fprintf(stderr, "coordinator %s: Git history guard: %s\n",
		    lz_coord.id, err->msg);
		dprintf(ready_fd, "warning: the Git history guard did not "
		    "start (%s): this Domain's Git history is not kept\n",
		    err->msg);
		lz_err_release(err);
	}
	lz_sandbox_started_init(&st);
	rc = lz_domain_up(&lz_coord.cfg, lz_coord.self, &id, &st, &warn, err);
	lz_coord_history_ready(ready_fd, rc == 0);
	lz_buf_wipe(&material);
	for (line = strtok_r(st.note.buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "coordinator %s: %s\n", lz_coord.id, line);
	save = NULL;
	lz_coord.container = st.container_id;
	st.container_id = NULL;
	pidfd = st.sidecar_pidfd;
	st.sidecar_pidfd = -1;
	lz_coord.next = st.next;
	memset(&st.next, 0, sizeof st.next);
	lz_sandbox_started_release(&st);
	/* Warnings go to the starting client, which shows them. */
	for (line = strtok_r(warn.buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		fprintf(stderr, "coordinator: warning: %s\n", line);
		dprintf(ready_fd, "warning: %s\n", line);
	}
	lz_buf_release(&warn);
	if (rc != 0)
		return rc;
	fprintf(stderr, "coordinator %s: sandbox %s started in %ld ms\n",
	    lz_coord.id, lz_coord.container, (long)((uv_hrtime() - t0) / 1000000));
	pidfile = lz_xasprintf("%s/" LZ_DOMAIN_SANDBOX_PID, d->runtime);
	rc = lz_sandbox_pidfd(pidfile, "the sandbox", &sandbox_fd, NULL, err);
	free(pidfile);
	if (rc == 0)
		rc = lz_coord_watch(pidfd, sandbox_fd, err);
	else if (pidfd >= 0)
		close(pidfd);
	if (rc != 0)
		return rc;
	rc = lz_coord_watch_git(d->workspace, err);
	if (rc != 0)
		return rc;
	rc = lz_coord_esc_start(err);
	if (rc != 0)
		return rc;
	rc = lz_coord_listen(err);
	if (rc != 0)
		return rc;
	report(ready_fd, "ok\n");
	return 0;
}

/*
 * After a clean teardown, still holding the lifecycle lock: the next
 * start's containers created ahead (lz_domain_prepare), logged; a failure
 * only costs the next start its head start. Not when a start is waiting
 * for the lock (LZ_DOMAIN_START_WAITING): it would wait for the
 * preparation too, longer than the full path costs it.
 */
static void
prepare_next(void)
{
	struct lz_buf note = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	uint64_t t0 = uv_hrtime();
	char *waiting = lz_xasprintf("%s/" LZ_DOMAIN_START_WAITING,
	    lz_coord.cfg.domain.runtime);
	int skip = access(waiting, F_OK) == 0;

	free(waiting);
	if (skip) {
		fprintf(stderr, "coordinator %s: nothing prepared for the next "
		    "start: a start is waiting for this one's end\n",
		    lz_coord.id);
		return;
	}
	if (lz_domain_prepare(&lz_coord.cfg, lz_coord.self, &lz_coord.next,
	    &note, &err) != 0)
		fprintf(stderr, "coordinator %s: nothing prepared for the next "
		    "start: %s\n", lz_coord.id, err.msg);
	else if (note.len > 0)
		fprintf(stderr, "coordinator %s: %.*s in %ld ms\n", lz_coord.id,
		    (int)note.len - 1, note.buf,
		    (long)((uv_hrtime() - t0) / 1000000));
	lz_err_release(&err);
	lz_buf_release(&note);
}

static int
cmd_coordinator_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ "ready-fd", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts o = { NULL, NULL, 0, 0 };
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf msg = LZ_BUF_INIT;
	int ch, rc, ready_fd = -1;

	(void)ctx;
	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (lz_cmd_opts_take(&o, ch, optarg))
			continue;
		if (ch != 'r')
			return LZ_EXIT_USAGE;
		ready_fd = atoi(optarg);
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The Domain outlives the starting client's working directory. The
	 * workspace is the one that client resolved: Git is asked about it
	 * once the prepared pair's podman runs (lz_domain_up), not before.
	 */
	rc = lz_client_setup(&lz_coord.cfg, o.profile, o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN | LZ_CLIENT_HANDED);
	if (rc != LZ_EXIT_OK) {
		report(ready_fd, "error: the coordinator could not load the "
		    "configuration (see above)\n");
		return rc;
	}
	if (chdir("/") != 0) {
		report(ready_fd, "error: cannot chdir to /\n");
		return LZ_EXIT_FAILURE;
	}
	lz_coord.loop = uv_default_loop();
	uv_disable_stdio_inheritance();
	uv_signal_init(lz_coord.loop, &lz_coord.sig_term);
	uv_signal_init(lz_coord.loop, &lz_coord.sig_int);
	uv_signal_init(lz_coord.loop, &lz_coord.sig_hup);
	uv_signal_init(lz_coord.loop, &lz_coord.sig_chld);
	uv_signal_start(&lz_coord.sig_term, on_signal, SIGTERM);
	uv_signal_start(&lz_coord.sig_int, on_signal, SIGINT);
	uv_signal_start(&lz_coord.sig_hup, on_signal, SIGHUP);
	uv_signal_start(&lz_coord.sig_chld, on_signal, SIGCHLD);
	uv_timer_init(lz_coord.loop, &lz_coord.idle);
	uv_timer_init(lz_coord.loop, &lz_coord.trim);
	if (start(ready_fd, &err) != 0) {
		lz_buf_addf(&msg, "error: %s\n", err.msg);
		fprintf(stderr, "coordinator: %s", msg.buf);
		lz_domain_down(&lz_coord.cfg, lz_coord.self, NULL, NULL);
		report(ready_fd, msg.buf);
		lz_buf_release(&msg);
		lz_err_release(&err);
		if (lz_coord.sock_path != NULL)
			unlink(lz_coord.sock_path);
		if (lz_coord.pid_path != NULL)
			unlink(lz_coord.pid_path);
		return LZ_EXIT_FAILURE;
	}
	if (ready_fd >= 0)
		close(ready_fd);
	uv_timer_start(&lz_coord.idle, on_idle, IDLE_MS, 0);
	uv_timer_start(&lz_coord.trim, on_trim, TRIM_MS, TRIM_MS);
	lz_coord_log_start(lz_coord.cfg.domain.runtime);
	uv_run(lz_coord.loop, UV_RUN_DEFAULT);
	/*
	 * Every handle is closed: tear down in FR-7 order. A signal from here
	 * on waits for the end (SIGKILL aside): the teardown and the next
	 * start's preparation are finished, never left half-way (a sidecar
	 * prepared without its sandbox or record). Ignored, not blocked:
	 * libuv's threads would take a blocked one. Children start with
	 * default dispositions (core/spawn.c); every podman call has its
	 * timeout.
	 */
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	unlink(lz_coord.sock_path);
	rc = lz_domain_down(&lz_coord.cfg, lz_coord.self, &msg, &err);
	if (rc != 0) {
		fprintf(stderr, "coordinator %s: teardown: %s\n", lz_coord.id,
		    err.msg);
		lz_err_release(&err);
	}
	if (msg.len > 0)
		fprintf(stderr, "coordinator %s: %.*s\n", lz_coord.id,
		    (int)msg.len - 1, msg.buf);
	/*
	 * The sandbox is gone: nothing can write a new one after this. Before
	 * the next start's containers are made (a second or so), so that
	 * host git is not left that long with what the last session wrote.
	 */
	lz_coord_git_final();
	lz_coord_history_final();
	if (rc == 0) {
		prepare_next();
		lz_domain_mark_clean(&lz_coord.cfg, 1);
	}
	unlink(lz_coord.pid_path);
	fprintf(stderr, "coordinator %s: stopped\n", lz_coord.id);
	uv_loop_close(lz_coord.loop);
	lz_coord_esc_release();
	lz_registry_release(&lz_coord.reg);
	lz_trust_free(lz_coord.trust);
	lz_client_release(&lz_coord.cfg);
	free(lz_coord.sock_path);
	free(lz_coord.pid_path);
	free(lz_coord.log_path);
	free(lz_coord.self);
	free(lz_coord.podman);
	free(lz_coord.container);
	lz_sandbox_plan_release(&lz_coord.next);
	free(lz_coord.terminfo);
	lz_buf_release(&msg);
	return LZ_EXIT_OK;
}

const struct lz_cmd lz_cmd_coordinator = {
	.name = "__coordinator",
	.usage = "-p PROFILE -C WORKSPACE --ready-fd N",
	.summary = NULL,
	.flags = 0,
	.exec = cmd_coordinator_exec,
};
