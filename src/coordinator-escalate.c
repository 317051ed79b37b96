/*
 * coordinator-escalate.c: Host Escalation in the coordinator (spec 3.6,
 * SR-7, SR-8, FR-5, OR-2, OR-3). A verified request (core/escalate.h) is
 * decided by, in order: a trusted auto-approval rule (runs at once), this
 * session's approval of this exact argv, a session without a terminal
 * (denied at once: nobody can be asked), or the developer: a PROMPT to the
 * connection bound to the request's session (one at a time per session,
 * the others queued behind it), answered by a signed DECISION from that
 * connection only. An approved command runs on the host under
 * core/hostcmd.c's supervisor; its output is read here within the wire
 * limits. Every accepted request gets exactly one result record (OR-2):
 * completed, denied, timed-out, cancelled or failed; a timeout is never a
 * denial. One clock from acceptance covers waiting and running. Cancel
 * records, the session's end and the Domain's end kill what runs. Every
 * request, decision and result is a line of the audit log.
 */
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/audit.h"
#include "core/escalate.h"
#include "core/hostcmd.h"
#include "core/ignored.h"
#include "core/rulesave.h"
#include "protocol/mailbox.h"
#include "protocol/msg.h"
#include "src/coordinator.h"

#define ESC_MAX 256			/* requests at once */
#define ESC_SESSION_MAX 32		/* of one session */
#define ESC_RESULT_KEEP_MS 60000	/* an unacknowledged result stays */

enum esc_state {
	ESC_QUEUED,		/* waiting for the developer (no prompt yet) */
	ESC_SHOWN,		/* a PROMPT is on a client */
	ESC_RUNNING,		/* the host command runs */
	ESC_DONE,		/* its result is written, not acknowledged */
};

struct esc {
	char id[LZ_MAILBOX_ID_HEX + 1];
	char session[LZ_MSG_SESSION_HEX + 1];
	enum esc_state state;
	struct lz_tokens argv;		/* as asked */
	struct lz_tokens run;		/* as approved (edited) */
	char *why, *cwd;		/* the sandbox's words and directory */
	struct lz_hostcmd_dir dir;	/* where it would run, on the host */
	struct lz_tokens env;		/* the approver's escalation-env */
	int edited;
	enum lz_audit_by by;
	char *rule;			/* the rule that approved it */
	char client[LZ_MSG_CLIENT_HEX + 1];	/* the prompt's client */
	struct lz_hostcmd h;
	uv_pipe_t out, err;
	int open_pipes;
	struct lz_hostcmd_output o_out, o_err;
	int waited, wstatus, exited;
	int64_t accepted, deadline;	/* ms of the monotonic clock */
	unsigned told;			/* the "pending" its PROMPT said */
	int cancel;			/* cancelled while it ran */
	int timed_out;			/* timed out while it ran */
	struct esc *next;
};

static struct {
	struct esc *list;
	unsigned n;
	struct lz_esc_seen seen;
	struct lz_audit audit;
	uv_timer_t tick;		/* timeouts and old results */
	int started;
	/* Exact argvs approved for the rest of a session: each the session
	 * ID and the argv, NUL-separated (approval_key). */
	struct lz_buf *approved;
	size_t napproved, approved_alloc;
} esc = { NULL, 0, { NULL, 0, 0 }, { -1, -1, 0 }, { 0 }, 0, NULL, 0, 0 };

static void finish(struct esc *e, enum lz_outcome o, const char *reason,
    const char *message);
static void next_prompt(const char *session);
static void run_command(struct esc *e);
static void audit_request(const struct esc *e, const struct lz_reg_session *s);
static void audit_decision(const struct esc *e, const char *decision,
    const char *client, const char *message);

/* The key of a session approval: session ID, then each element, NUL-
 * separated (an element holds no NUL). */
static void
approval_key(const char *session, const struct lz_tokens *argv,
    struct lz_buf *b)
{
	size_t i;

	lz_buf_reset(b);
	lz_buf_adds(b, session);
	for (i = 0; i < argv->n; i++) {
		lz_buf_addch(b, '\0');
		lz_buf_adds(b, argv->v[i]);
	}
}

static int
approved_for_session(const char *session, const struct lz_tokens *argv)
{
	struct lz_buf k = LZ_BUF_INIT;
	size_t i;
	int found = 0;

	approval_key(session, argv, &k);
	for (i = 0; i < esc.napproved && !found; i++)
		found = esc.approved[i].len == k.len &&
		    memcmp(esc.approved[i].buf, k.buf, k.len) == 0;
	lz_buf_release(&k);
	return found;
}

static int64_t
mono_ms(void)
{
	return (int64_t)uv_now(lz_coord.loop);
}

static int64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct esc *
find(const char *id)
{
	struct esc *e;

	for (e = esc.list; e != NULL; e = e->next)
		if (strcmp(e->id, id) == 0)
			return e;
	return NULL;
}

static void
esc_free(struct esc *e)
{
	struct esc **pp;

	for (pp = &esc.list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	esc.n--;
	lz_tokens_release(&e->argv);
	lz_tokens_release(&e->run);
	lz_tokens_release(&e->env);
	lz_hostcmd_dir_release(&e->dir);
	lz_hostcmd_output_release(&e->o_out);
	lz_hostcmd_output_release(&e->o_err);
	free(e->why);
	free(e->cwd);
	free(e->rule);
	free(e);
}

/* A result that is over: its file and its entry go. */
static void
drop_result(struct esc *e)
{
	char *name = lz_record_name(LZ_RECORD_RESULT, e->id);

	lz_coord_mailbox_remove(name);
	free(name);
	esc_free(e);
}

/* The session's registry entry, while it runs. */
static struct lz_reg_session *
session_of(const struct esc *e)
{
	struct lz_reg_session *s = lz_reg_find(&lz_coord.reg, e->session);

	return s != NULL && s->state == LZ_REG_RUNNING ? s : NULL;
}

/* The connection a session's prompts go to (FR-5), or NULL. */
static struct lz_conn *
client_of(const struct lz_reg_session *s)
{
	return s != NULL && s->conn != NULL && !s->conn->closing ?
	    s->conn->glue : NULL;
}

/* Writes the result record, MACed with the session's anchor. */
static void
write_result(struct esc *e, const struct lz_result *r)
{
	struct lz_reg_session *s = session_of(e);
	struct lz_result w = *r, bare;
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *name;
	int rc;

	if (s == NULL)
		return;		/* the session ended: nobody is there to read */
	if ((rc = lz_result_encode(&w, &sb, NULL, &err)) != 0) {
		/*
		 * Over the record's limit (both streams full and a long
		 * edited argv): the sandbox still gets its one result, without
		 * the output, saying why, rather than waiting for nothing.
		 */
		fprintf(stderr, "coordinator %s: result %.12s: %s\n",
		    lz_coord.id, e->id, err.msg);
		lz_err_release(&err);
		lz_result_init(&bare);
		memcpy(bare.id, r->id, sizeof bare.id);
		bare.outcome = LZ_OUTCOME_FAILED;
		bare.reason = "the result was over the mailbox's limit; see "
		    "lazaret audit on the host";
		w = bare;
		lz_buf_reset(&sb);
		rc = lz_result_encode(&w, &sb, NULL, &err);
	}
	if (rc == 0) {
		lz_esc_mac(s, &sb, w.mac);
		lz_buf_reset(&sb);
		if (lz_result_encode(&w, &sb, &out, &err) == 0) {
			name = lz_record_name(LZ_RECORD_RESULT, e->id);
			lz_coord_mailbox_write(name, &out);
			free(name);
		}
	}
	if (err.msg != NULL)
		fprintf(stderr, "coordinator %s: result %.12s: %s\n",
		    lz_coord.id, e->id, err.msg);
	lz_err_release(&err);
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

static void
audit_result(const struct esc *e, enum lz_outcome o, const char *reason,
    int ran, int status, int sig)
{
	struct lz_audit_entry a;
	struct lz_err err = LZ_ERR_INIT;

	memset(&a, 0, sizeof a);
	a.kind = LZ_AUDIT_RESULT;
	snprintf(a.id, sizeof a.id, "%s", e->id);
	a.outcome = (char *)lz_outcome_name(o);
	a.ran = ran;
	a.status = status;
	a.signal = sig;
	a.duration_ms = mono_ms() - e->accepted;
	a.stdout_bytes = e->o_out.total;
	a.stderr_bytes = e->o_err.total;
	a.truncated = e->o_out.truncated || e->o_err.truncated;
	a.reason = (char *)reason;
	if (lz_audit_append(&esc.audit, &a, &err) != 0)
		fprintf(stderr, "coordinator %s: audit: %s\n", lz_coord.id,
		    err.msg);
	lz_err_release(&err);
}

/* A PROMPT still shown is taken off its client (WITHDRAWN, why). */
static void
withdraw(struct esc *e, const char *why)
{
	struct lz_msg_withdrawn w;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_reg_session *s;
	struct lz_conn *c;

	if (e->state != ESC_SHOWN)
		return;
	e->state = ESC_QUEUED;
	if ((s = session_of(e)) == NULL || (c = client_of(s)) == NULL)
		return;
	snprintf(w.id, sizeof w.id, "%s", e->id);
	snprintf(w.why, sizeof w.why, "%s", why);
	lz_msg_withdrawn_add(&b, &w);
	lz_coord_send(c, &b);
}

/*
 * The one result of an accepted request (OR-2). A prompt still shown is
 * withdrawn first; the session's next request is shown.
 */
static void
finish(struct esc *e, enum lz_outcome o, const char *reason,
    const char *message)
{
	struct lz_result r;
	int status = 0, sig = 0;

	withdraw(e, o == LZ_OUTCOME_TIMED_OUT ? "timed-out" :
	    o == LZ_OUTCOME_CANCELLED ? "cancelled" : "decided");
	lz_result_init(&r);
	snprintf(r.id, sizeof r.id, "%s", e->id);
	r.outcome = o;
	if (e->waited) {
		lz_hostcmd_status(e->wstatus, &status, &sig);
		lz_tokens_copy(&r.argv, &e->run);
		r.edited = e->edited;
		r.ran = 1;
		r.status = status;
		lz_buf_add(&r.out, e->o_out.buf.buf, e->o_out.buf.len);
		lz_buf_add(&r.err, e->o_err.buf.buf, e->o_err.buf.len);
		r.truncated = e->o_out.truncated || e->o_err.truncated;
	}
	r.reason = reason ? lz_xstrdup(reason) : NULL;
	r.message = message ? lz_xstrdup(message) : NULL;
	write_result(e, &r);
	audit_result(e, o, reason, e->waited, status, sig);
	lz_result_release(&r);
	e->state = ESC_DONE;
	e->deadline = mono_ms() + ESC_RESULT_KEEP_MS;
	next_prompt(e->session);
}

/*
 * Shows the session's oldest waiting request on its client, if none is
 * shown; one shown already is sent again with the number now queued
 * behind it (its modal says "+N pending"; the client keeps the rest).
 */
static void
next_prompt(const char *session)
{
	struct lz_reg_session *s = lz_reg_find(&lz_coord.reg, session);
	struct lz_conn *c = client_of(s);
	struct lz_msg_prompt p;
	struct lz_buf b = LZ_BUF_INIT, where = LZ_BUF_INIT;
	struct esc *e, *first = NULL, *shown = NULL;
	unsigned queued = 0, pending;

	if (c == NULL)
		return;
	for (e = esc.list; e != NULL; e = e->next) {
		if (strcmp(e->session, session) != 0)
			continue;
		if (e->state == ESC_SHOWN)
			shown = e;	/* one modal at a time */
		if (e->state != ESC_QUEUED)
			continue;
		/* The list is newest first: the last one found is oldest. */
		queued++;
		first = e;
	}
	if (shown != NULL) {
		if (queued == shown->told)
			return;
		first = shown;
		pending = queued;
	} else if (first == NULL)
		return;
	else
		pending = queued - 1;
	memset(&p, 0, sizeof p);
	snprintf(p.id, sizeof p.id, "%s", first->id);
	snprintf(p.session, sizeof p.session, "%s", session);
	snprintf(p.profile, sizeof p.profile, "%s",
	    lz_coord.cfg.profile->name);
	p.command = s->command;
	p.argv = first->argv;
	/* Where it runs, and why it is not where the sandbox was. */
	if (first->dir.why != NULL)
		lz_buf_addf(&where, "%s (not %s: %s)", first->dir.host,
		    first->cwd, first->dir.why);
	else
		lz_buf_adds(&where, first->dir.host);
	p.cwd = where.buf;
	p.why = first->why;
	p.timeout_ms = (unsigned long)(first->deadline > mono_ms() ?
	    first->deadline - mono_ms() : 0);
	p.pending = pending;
	lz_msg_prompt_add(&b, &p);
	lz_buf_release(&where);
	lz_coord_send(c, &b);
	first->state = ESC_SHOWN;
	first->told = pending;
	snprintf(first->client, sizeof first->client, "%s",
	    s->conn->client_id);
}

static void
on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf)
{
	struct esc *e = st->data;

	if (n > 0)
		lz_hostcmd_output_add((uv_pipe_t *)st == &e->out ? &e->o_out :
		    &e->o_err, buf->base, (size_t)n);
	else if (n < 0) {
		uv_close((uv_handle_t *)st, NULL);
		e->open_pipes--;
	}
	if (e->open_pipes == 0 && e->exited && !e->waited)
		lz_coord_esc_reap();
}

static void
read_pipe(struct esc *e, uv_pipe_t *p, int fd)
{
	uv_pipe_init(lz_coord.loop, p, 0);
	p->data = e;
	if (uv_pipe_open(p, fd) != 0) {
		close(fd);
		uv_close((uv_handle_t *)p, NULL);
		return;
	}
	e->open_pipes++;
	uv_read_start((uv_stream_t *)p, lz_coord_alloc, on_read);
}

/* Runs e->run on the host (SR-7: it was approved or matched a rule). */
static void
run_command(struct esc *e)
{
	struct lz_tokens envp = LZ_TOKENS_INIT;
	struct lz_hostcmd_spec sp;
	struct lz_err err = LZ_ERR_INIT;
	char *program = NULL;
	int rc;

	rc = lz_hostcmd_resolve(e->run.v[0], getenv("PATH"), &program, &err);
	lz_hostcmd_env(&lz_coord.cfg.profile->escalation_env, &e->env, &envp);
	memset(&sp, 0, sizeof sp);
	sp.argv = (const char *const *)e->run.v;
	sp.program = program;
	sp.envp = (const char *const *)envp.v;
	sp.dirfd = e->dir.fd;
	if (rc == 0)
		rc = lz_hostcmd_start(&sp, &e->h, &err);
	lz_tokens_release(&envp);
	free(program);
	if (rc != 0) {
		finish(e, LZ_OUTCOME_FAILED, err.msg, NULL);
		lz_err_release(&err);
		return;
	}
	e->state = ESC_RUNNING;
	lz_hostcmd_output_init(&e->o_out);
	lz_hostcmd_output_init(&e->o_err);
	read_pipe(e, &e->out, e->h.out);
	read_pipe(e, &e->err, e->h.err);
}

void
lz_coord_esc_reap(void)
{
	struct esc *e, *next;
	int st;

	for (e = esc.list; e != NULL; e = next) {
		next = e->next;
		if (e->state != ESC_RUNNING)
			continue;
		if (!e->exited && waitpid(e->h.pid, &st, WNOHANG) == e->h.pid) {
			e->exited = 1;
			e->wstatus = st;
		}
		/* Its output is all read once both pipes are closed. */
		if (!e->exited || e->open_pipes > 0)
			continue;
		e->waited = 1;
		if (e->cancel)
			finish(e, LZ_OUTCOME_CANCELLED, "cancelled by the "
			    "sandbox", NULL);
		else if (e->timed_out)
			finish(e, LZ_OUTCOME_TIMED_OUT, "the time allowed ran "
			    "out while the command ran", NULL);
		else
			finish(e, LZ_OUTCOME_COMPLETED, NULL, NULL);
	}
}

/* The approval kinds that need no human (SR-8, session approvals). */
static int
decided_without_human(struct esc *e, struct lz_reg_session *s)
{
	const struct lz_profile *p = lz_coord.cfg.profile;
	const struct lz_rule *rule;
	char *program = NULL;

	lz_hostcmd_resolve(e->argv.v[0], getenv("PATH"), &program, NULL);
	rule = lz_rules_find(p->approve, p->napprove, e->argv.v, e->argv.n,
	    program);
	free(program);
	if (rule != NULL) {
		e->by = LZ_AUDIT_BY_RULE;
		e->rule = lz_xstrdup(rule->source);
		lz_tokens_copy(&e->run, &e->argv);
		/* Values of the coordinator's start (no human to ask). */
		lz_hostcmd_env_collect(&p->escalation_env, getenv, &e->env);
		audit_decision(e, "approve", NULL, NULL);
		run_command(e);
		return 1;
	}
	if (approved_for_session(e->session, &e->argv)) {
		e->by = LZ_AUDIT_BY_SESSION;
		lz_tokens_copy(&e->run, &e->argv);
		lz_hostcmd_env_collect(&p->escalation_env, getenv, &e->env);
		audit_decision(e, "approve", NULL, NULL);
		run_command(e);
		return 1;
	}
	if (!s->tty) {
		e->by = LZ_AUDIT_BY_NO_TERMINAL;
		audit_decision(e, "deny", NULL, NULL);
		finish(e, LZ_OUTCOME_DENIED, "no terminal to ask; add an "
		    "auto-approve rule", NULL);
		return 1;
	}
	return 0;
}

/* A verified request: accepted (it will get exactly one result). */
static void
accept_request(struct lz_request *r, struct lz_reg_session *s)
{
	struct lz_ignored ig = LZ_IGNORED_INIT;
	struct esc *e, *x, *oldest = NULL;
	unsigned n = 0, all = 0, done = 0, limit;

	/* Bounds a flood by its own session: what waits or runs, and the
	 * results it did not acknowledge (the oldest goes). */
	for (x = esc.list; x != NULL; x = x->next) {
		if (x->state != ESC_DONE)
			all++;
		if (strcmp(x->session, r->session) != 0)
			continue;
		if (x->state != ESC_DONE)
			n++;
		else {
			done++;
			oldest = x;	/* newest first: the last is oldest */
		}
	}
	if (done >= ESC_SESSION_MAX && oldest != NULL)
		drop_result(oldest);
	e = lz_xcalloc(1, sizeof *e);
	snprintf(e->id, sizeof e->id, "%s", r->id);
	snprintf(e->session, sizeof e->session, "%s", r->session);
	lz_tokens_copy(&e->argv, &r->argv);
	e->why = lz_xstrdup(r->why ? r->why : "");
	e->cwd = lz_xstrdup(r->cwd ? r->cwd : "/workspace");
	e->dir.fd = -1;
	e->accepted = mono_ms();
	limit = lz_coord.cfg.profile->escalation_timeout;
	if (r->timeout > 0 && r->timeout < limit)
		limit = r->timeout;
	e->deadline = e->accepted + (int64_t)limit * 1000;
	e->next = esc.list;
	esc.list = e;
	esc.n++;
	if (lz_coord.cfg.profile->ignored_isolation)
		(void)lz_ignored_load(lz_coord.cfg.domain.root, &ig, NULL);
	(void)lz_hostcmd_dir_open(lz_coord.cfg.domain.workspace, e->cwd,
	    &ig.paths, &e->dir, NULL);
	lz_ignored_release(&ig);
	audit_request(e, s);
	if (n >= ESC_SESSION_MAX || all >= ESC_MAX) {
		finish(e, LZ_OUTCOME_DENIED, "too many requests at once: "
		    "the earlier ones need answers first", NULL);
		return;
	}
	if (e->dir.fd < 0) {
		finish(e, LZ_OUTCOME_FAILED, "the workspace cannot be opened "
		    "on the host", NULL);
		return;
	}
	if (!decided_without_human(e, s))
		next_prompt(e->session);
}

void
lz_coord_record(enum lz_record_kind kind, const char *id, const char *buf,
    size_t len)
{
	struct lz_esc_ctx x;
	struct lz_request r;
	struct lz_reg_session *s;
	struct lz_err err = LZ_ERR_INIT;
	struct esc *e;

	if (lz_request_decode(kind, buf, len, &r, &err) != 0)
		goto drop;
	if (strcmp(r.id, id) != 0) {
		lz_err_set(&err, LZ_EINVAL, "its ID is not its file name's");
		goto drop;
	}
	x.trust = lz_coord.trust;
	x.reg = &lz_coord.reg;
	x.sandbox_id = lz_coord.sandbox_id;
	x.seen = &esc.seen;
	x.now_ms = wall_ms();
	if (lz_esc_verify(&x, &r, &s, &err) != 0)
		goto drop;
	e = find(r.id);
	switch (kind) {
	case LZ_RECORD_REQUEST:
		if (e != NULL) {
			lz_err_set(&err, LZ_EINVAL, "request ID in use");
			goto drop;
		}
		if (lz_coord.reg.stopping) {
			lz_err_set(&err, LZ_EINVAL, "the Domain is stopping");
			goto drop;
		}
		accept_request(&r, s);
		break;
	case LZ_RECORD_CANCEL:
		if (e == NULL || strcmp(e->session, r.session) != 0) {
			lz_err_set(&err, LZ_EINVAL, "cancel of a request this "
			    "session does not have");
			goto drop;
		}
		if (e->state == ESC_RUNNING) {
			e->cancel = 1;
			lz_hostcmd_kill(&e->h);
		} else if (e->state != ESC_DONE)
			finish(e, LZ_OUTCOME_CANCELLED, "cancelled by the "
			    "sandbox", NULL);
		break;
	case LZ_RECORD_ACK:
		if (e != NULL && e->state == ESC_DONE &&
		    strcmp(e->session, r.session) == 0)
			drop_result(e);
		break;
	default:
		break;
	}
	lz_request_release(&r);
	return;
drop:
	/* Never shown to anyone: a line for the developer's log. */
	fprintf(stderr, "coordinator %s: mailbox: %s record dropped: %s\n",
	    lz_coord.id, kind == LZ_RECORD_REQUEST ? "request" :
	    kind == LZ_RECORD_CANCEL ? "cancel" : "ack", err.msg);
	lz_err_release(&err);
	lz_request_release(&r);
}

static void
audit_request(const struct esc *e, const struct lz_reg_session *s)
{
	struct lz_audit_entry a;
	struct lz_err err = LZ_ERR_INIT;

	memset(&a, 0, sizeof a);
	a.kind = LZ_AUDIT_REQUEST;
	snprintf(a.id, sizeof a.id, "%s", e->id);
	a.session = (char *)e->session;
	a.profile = (char *)lz_coord.cfg.profile->name;
	a.command = s->command;
	a.argv = e->argv;
	a.cwd = e->cwd;
	a.host_cwd = e->dir.host;
	a.why = e->why;
	if (lz_audit_append(&esc.audit, &a, &err) != 0)
		fprintf(stderr, "coordinator %s: audit: %s\n", lz_coord.id,
		    err.msg);
	lz_err_release(&err);
}

static void
audit_decision(const struct esc *e, const char *decision, const char *client,
    const char *message)
{
	struct lz_audit_entry a;
	struct lz_err err = LZ_ERR_INIT;

	memset(&a, 0, sizeof a);
	a.kind = LZ_AUDIT_DECISION;
	snprintf(a.id, sizeof a.id, "%s", e->id);
	a.by = e->by;
	a.decision = (char *)decision;
	a.client = (char *)client;
	a.rule = e->rule;
	a.edited = e->edited;
	a.message = (char *)message;
	a.argv = e->run;
	if (lz_audit_append(&esc.audit, &a, &err) != 0)
		fprintf(stderr, "coordinator %s: audit: %s\n", lz_coord.id,
		    err.msg);
	lz_err_release(&err);
}

/* Adopts a rule saved into the Domain's config: new panes still join. */
static int
save_rule(const struct esc *e, struct lz_err *err)
{
	char fp[LZ_FINGERPRINT_HEX + 1];
	int rc;

	rc = lz_rulesave(&lz_coord.cfg.cfg, lz_coord.cfg.profile->name,
	    &e->run, getenv("PATH"), fp, err);
	if (rc == 0) {
		snprintf(lz_coord.cfg.fingerprint,
		    sizeof lz_coord.cfg.fingerprint, "%s", fp);
		lz_reg_adopt(&lz_coord.reg, fp);
		/* The profile may have been reallocated with its rules. */
		lz_coord.cfg.profile = lz_config_profile(&lz_coord.cfg.cfg,
		    lz_coord.cfg.domain.profile);
	}
	return rc;
}

void
lz_coord_decision(struct lz_conn *c, const struct lz_frame *f)
{
	struct lz_msg_decision d;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf sb = LZ_BUF_INIT, msg = LZ_BUF_INIT, key = LZ_BUF_INIT;
	struct esc *e;
	const struct lz_tokens *argv;

	if (lz_msg_decision_decode(f, &d, &err) != 0) {
		lz_msg_error_add(&msg, "frame", err.msg);
		lz_coord_send(c, &msg);
		lz_coord_conn_close(c);
		goto out;
	}
	e = find(d.id);
	/*
	 * Only from the connection the PROMPT went to, while it is bound to
	 * that session: the whole session control tuple (SR-9, FR-10).
	 */
	if (e == NULL || e->state != ESC_SHOWN ||
	    strcmp(e->client, c->reg->client_id) != 0 ||
	    lz_reg_authorize(&lz_coord.reg, c->reg, lz_coord.reg.domain,
	    lz_coord.reg.coordinator, e->client, e->session, &err) != 0) {
		lz_msg_error_add(&msg, "order", e == NULL || e->state !=
		    ESC_SHOWN ? "no such prompt is waiting (answered, "
		    "withdrawn or timed out)" : err.msg);
		lz_coord_send(c, &msg);
		goto out;
	}
	argv = d.decision == LZ_DECISION_EDIT ? &d.argv : &e->argv;
	lz_msg_decision_signed(&d, lz_coord.reg.domain, lz_coord.reg.coordinator,
	    c->reg->client_id, e->session, argv, &sb);
	if (lz_key_verify(c->reg->key, sb.buf, sb.len, d.sig, &err) != 0) {
		lz_msg_error_add(&msg, "order", "the decision is not signed by "
		    "this client's key");
		lz_coord_send(c, &msg);
		goto out;
	}
	e->by = LZ_AUDIT_BY_HUMAN;
	lz_buf_addf(&key, "%s sig=%s", c->reg->client_id, d.sig);
	if (d.decision == LZ_DECISION_DENY) {
		audit_decision(e, "deny", key.buf, d.message);
		finish(e, LZ_OUTCOME_DENIED, "denied by the developer",
		    d.message ? d.message : "");
		goto out;
	}
	lz_tokens_copy(&e->run, argv);
	e->edited = d.decision == LZ_DECISION_EDIT;
	lz_tokens_copy(&e->env, &d.env);
	if (d.decision == LZ_DECISION_SAVE_RULE && save_rule(e, &err) != 0) {
		/* The command still runs (it was approved); the rule is not. */
		lz_buf_reset(&msg);
		lz_msg_error_add(&msg, "open", err.msg);
		lz_coord_send(c, &msg);
	}
	if (d.decision == LZ_DECISION_APPROVE_SESSION &&
	    !approved_for_session(e->session, &e->run)) {
		esc.approved = lz_xgrow(esc.approved, esc.napproved + 1,
		    &esc.approved_alloc, sizeof *esc.approved);
		lz_buf_init(&esc.approved[esc.napproved]);
		approval_key(e->session, &e->run,
		    &esc.approved[esc.napproved++]);
	}
	audit_decision(e, lz_decision_name(d.decision), key.buf, NULL);
	withdraw(e, "decided");
	run_command(e);
	next_prompt(e->session);
out:
	lz_msg_decision_release(&d);
	lz_err_release(&err);
	lz_buf_release(&sb);
	lz_buf_release(&msg);
	lz_buf_release(&key);
}

void
lz_coord_esc_attached(const char *session)
{
	struct esc *e;

	/* A prompt shown to a connection that left is shown again. */
	for (e = esc.list; e != NULL; e = e->next)
		if (e->state == ESC_SHOWN && strcmp(e->session, session) == 0)
			e->state = ESC_QUEUED;
	next_prompt(session);
}

void
lz_coord_esc_session_gone(const char *session)
{
	struct esc *e, *next;
	struct lz_buf *a;
	size_t i, k = 0;

	/* Its approvals end with it. */
	for (i = 0; i < esc.napproved; i++) {
		a = &esc.approved[i];
		if (strncmp(a->buf, session, LZ_MSG_SESSION_HEX) == 0)
			lz_buf_release(a);
		else
			esc.approved[k++] = *a;
	}
	esc.napproved = k;
	/* OR-3: what it asked for dies with it; its results go. */
	for (e = esc.list; e != NULL; e = next) {
		next = e->next;
		if (strcmp(e->session, session) != 0)
			continue;
		if (e->state == ESC_RUNNING) {
			e->cancel = 1;
			lz_hostcmd_kill(&e->h);
			continue;
		}
		if (e->state != ESC_DONE)
			audit_result(e, LZ_OUTCOME_CANCELLED, "the session "
			    "ended", 0, 0, 0);
		drop_result(e);
	}
}

static void
on_tick(uv_timer_t *t)
{
	struct esc *e, *next;

	(void)t;
	for (e = esc.list; e != NULL; e = next) {
		next = e->next;
		if (mono_ms() < e->deadline)
			continue;
		switch (e->state) {
		case ESC_QUEUED:
		case ESC_SHOWN:
			e->by = LZ_AUDIT_BY_TIMEOUT;
			audit_decision(e, "timeout", NULL, NULL);
			finish(e, LZ_OUTCOME_TIMED_OUT, "nobody decided in "
			    "time", NULL);
			break;
		case ESC_RUNNING:
			if (!e->timed_out) {
				e->timed_out = 1;
				lz_hostcmd_kill(&e->h);
			}
			break;
		case ESC_DONE:
			/* Never acknowledged: the result goes after 60 s. */
			drop_result(e);
			break;
		}
	}
}

int
lz_coord_esc_start(struct lz_err *err)
{
	int rc;

	if ((rc = lz_audit_open(&esc.audit, lz_coord.cfg.domain.root,
	    err)) != 0)
		return rc;
	if ((rc = lz_coord_mailbox_start(err)) != 0)
		return rc;
	uv_timer_init(lz_coord.loop, &esc.tick);
	uv_timer_start(&esc.tick, on_tick, 250, 250);
	esc.started = 1;
	return 0;
}

void
lz_coord_esc_stop(void)
{
	struct esc *e;

	/* OR-3: the Domain's end ends every host command. */
	for (e = esc.list; e != NULL; e = e->next)
		if (e->state == ESC_RUNNING)
			lz_hostcmd_kill(&e->h);
	if (!esc.started)
		return;
	esc.started = 0;
	uv_close((uv_handle_t *)&esc.tick, NULL);
	lz_coord_mailbox_stop();
}

void
lz_coord_esc_release(void)
{
	size_t i;

	while (esc.list != NULL)
		esc_free(esc.list);
	lz_esc_seen_release(&esc.seen);
	for (i = 0; i < esc.napproved; i++)
		lz_buf_release(&esc.approved[i]);
	free(esc.approved);
	lz_audit_close(&esc.audit);
}

unsigned
lz_coord_esc_pending(const char *session)
{
	struct esc *e;
	unsigned n = 0;

	for (e = esc.list; e != NULL; e = e->next)
		if (strcmp(e->session, session) == 0 &&
		    (e->state == ESC_QUEUED || e->state == ESC_SHOWN))
			n++;
	return n;
}
