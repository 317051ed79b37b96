/*
 * client-conn.c: connecting to (or starting) the Domain's coordinator and
 * blocking frame I/O. Starting is done under the Domain's lifecycle lock,
 * which the new coordinator inherits and keeps: one owner at a time (OR-1).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/hostcmd.h"
#include "core/rundir.h"
#include "core/trust.h"
#include "core/spawn.h"
#include "protocol/msg.h"
#include "src/domain-sandbox.h"
#include "src/client-conn.h"

/* How long a client waits for a Domain that starts or stops. */
#define JOIN_WAIT_MS 180000
#define JOIN_TELL_MS 1000	/* then it says what it waits for */
#define JOIN_POLL_MS 20
#define LZ_CONN_READ 65536	/* bytes asked of one read of the socket */

static int try_connect(const char *path, int *fd);
static int hello(struct lz_conn_client *cc, const struct lz_client *c,
    struct lz_err *err);
static int start_coordinator(const struct lz_client *c, const char *self,
    int lock_fd, int flags, struct lz_err *err);
static int lead(struct lz_conn_client *cc, const struct lz_client *c,
    const char *self, int lock, int fresh, int flags, struct lz_err *err);

/* 0 connected; -errno otherwise (ENOENT, ECONNREFUSED: nobody listens). */
static int
try_connect(const char *path, int *fd)
{
	struct sockaddr_un sa;
	int s, e;

	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path)
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path));
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	if (connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
		e = errno;
		close(s);
		return -e;
	}
	*fd = s;
	return 0;
}

/*
 * Starts "lazaret __coordinator" detached (a daemon of core/spawn.c),
 * handing it the lock, and waits for its "ok" line on a pipe, or its
 * error. Its "warning: ..." lines are shown as they come.
 */
static int
start_coordinator(const struct lz_client *c, const char *self, int lock_fd,
    int flags, struct lz_err *err)
{
	struct lz_spawn_spec sp;
	struct lz_spawn_child child;
	struct lz_buf msg = LZ_BUF_INIT;
	char fdarg[16], buf[512], *log = NULL, *nl;
	const char *argv[9];
	struct pollfd pfd;
	int ready[2] = { -1, -1 }, logfd = -1, rc = 0;
	int64_t until = lz_spawn_now_ms() + JOIN_WAIT_MS;
	ssize_t n;

	log = lz_xasprintf("%s/coordinator.log", c->domain.runtime);
	logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (logfd < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot open '%s': %s", log,
		    strerror(errno));
		goto out;
	}
	if (pipe2(ready, O_CLOEXEC) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "pipe: %s", strerror(errno));
		goto out;
	}
	snprintf(fdarg, sizeof fdarg, "%d", ready[1]);
	argv[0] = self;
	argv[1] = "__coordinator";
	argv[2] = "-p";
	argv[3] = c->domain.profile;
	argv[4] = "-C";
	argv[5] = c->domain.workspace;
	argv[6] = "--ready-fd";
	argv[7] = fdarg;
	argv[8] = NULL;
	memset(&sp, 0, sizeof sp);
	sp.argv = argv;
	sp.stdio = LZ_SPAWN_NULL;
	sp.log_fd = logfd;
	sp.new_session = 1;
	sp.daemon = 1;
	/* The lock and the ready pipe are the only fds it keeps. */
	sp.keep[0] = lock_fd;
	sp.keep[1] = ready[1];
	sp.nkeep = 2;
	if ((rc = lz_spawn_child(&sp, &child, err)) != 0)
		goto out;
	close(ready[1]);
	ready[1] = -1;
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while (lz_spawn_now_ms() < until) {
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			break;
		if (pfd.revents == 0)
			continue;
		n = read(ready[0], buf, sizeof buf);
		if (n <= 0)
			break;
		lz_buf_add(&msg, buf, (size_t)n);
		/* "warning: ..." lines come first; show them as they come. */
		while ((nl = strchr(msg.buf, '\n')) != NULL &&
		    strncmp(msg.buf, "warning: ", 9) == 0) {
			if (!(flags & LZ_CONN_QUIET))
				fprintf(stderr, "lazaret: %.*s\n",
				    (int)(nl - msg.buf), msg.buf);
			lz_buf_drop(&msg, (size_t)(nl + 1 - msg.buf));
		}
		if (msg.len >= 3 && strncmp(msg.buf, "ok\n", 3) == 0)
			goto out;
	}
	if (msg.len == 0)
		rc = lz_err_set(err, LZ_ESYS, "the coordinator did not start "
		    "(see '%s')", log);
	else
		rc = lz_err_set(err, LZ_ESYS, "cannot start the Domain: %s"
		    "(coordinator log: %s)", strncmp(msg.buf, "error: ", 7) ?
		    msg.buf : msg.buf + 7, log);
out:
	if (ready[0] >= 0)
		close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
	if (logfd >= 0)
		close(logfd);
	free(log);
	lz_buf_release(&msg);
	return rc;
}

/* LZ_EAGAIN-like: the Domain is stopping; wait for it and start anew. */
#define CONN_STOPPING 1

static int
hello(struct lz_conn_client *cc, const struct lz_client *c,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT, pub = LZ_BUF_INIT;
	struct lz_msg_hello h;
	struct lz_msg_welcome w;
	struct lz_frame f;
	int rc;

	memset(&h, 0, sizeof h);
	h.version = LZ_FRAME_VERSION;
	snprintf(h.domain, sizeof h.domain, "%s", c->domain.id);
	snprintf(h.profile, sizeof h.profile, "%s", c->domain.profile);
	snprintf(h.fingerprint, sizeof h.fingerprint, "%s", c->fingerprint);
	/* This connection's identity: a key made here, never sent elsewhere. */
	EVP_PKEY_free(cc->key);
	if ((cc->key = lz_key_new(err)) == NULL)
		return LZ_EINVAL;
	lz_key_public_b64(cc->key, &pub);
	snprintf(h.key, sizeof h.key, "%s", pub.buf);
	lz_buf_release(&pub);
	lz_msg_hello_add(&b, &h);
	rc = lz_conn_send(cc, &b, err);
	if (rc == 0)
		rc = lz_conn_wait(cc, &f, &payload, err);
	if (rc == LZ_EAGAIN)
		rc = CONN_STOPPING;
	if (rc == 0 && lz_msg_welcome_decode(&f, &w, err) == 0) {
		memcpy(cc->client_id, w.client, sizeof cc->client_id);
		memcpy(cc->coordinator_id, w.coordinator,
		    sizeof cc->coordinator_id);
		free(cc->cert);
		cc->cert = w.cert;
	} else if (rc == 0)
		rc = LZ_EINVAL;
	lz_buf_release(&payload);
	return rc;
}

/*
 * Holding the lifecycle lock with nobody listening: whatever is left is
 * stale. Recover (FR-7), unless the last coordinator recorded, after its
 * teardown had succeeded, that it left nothing (the marker is consumed
 * either way), or the Domain is new; then start a coordinator, which
 * inherits the lock. (Containers of a Domain whose Storage Root was
 * deleted by hand make the start fail on their names; it then removes
 * them and starts again: lz_sandbox_start_net.)
 */
static int
lead(struct lz_conn_client *cc, const struct lz_client *c, const char *self,
    int lock, int fresh, int flags, struct lz_err *err)
{
	char *sock = lz_xasprintf("%s/control.sock", c->domain.runtime);
	int rc;

	unlink(sock);
	rc = lz_domain_mark_clean(c, -1) || fresh ? 0 :
	    lz_domain_down(c, self, NULL, err);
	if (rc != 0)
		lz_err_prefix(err, rc, "cannot clean up after an earlier run");
	else
		rc = start_coordinator(c, self, lock, flags, err);
	if (rc == 0 && (rc = try_connect(sock, &cc->fd)) != 0)
		rc = lz_err_set(err, LZ_ESYS, "cannot connect to '%s': %s",
		    sock, strerror(-rc));
	free(sock);
	return rc;
}

/*
 * LZ_DOMAIN_START_WAITING in the runtime directory dir: made (on) or
 * removed. 1 when it was made.
 */
static int
mark_waiting(int dir, int on)
{
	int fd;

	if (!on)
		return unlinkat(dir, LZ_DOMAIN_START_WAITING, 0) == 0;
	fd = openat(dir, LZ_DOMAIN_START_WAITING, O_WRONLY | O_CREAT |
	    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * One path for starting and joining (FR-2): connect when a coordinator
 * listens; otherwise take the lifecycle lock without waiting and lead the
 * start; otherwise somebody else holds it (a Domain starting, or ending
 * its teardown): look again every JOIN_POLL_MS, for the socket and for
 * the lock alike, so that a client arriving during a start joins that
 * start as soon as it publishes its socket, and one arriving during a
 * teardown starts anew as soon as it is over. A coordinator that refuses
 * with "stopping" (the last session ended between our connect and our
 * HELLO) is waited out the same way.
 */
int
lz_conn_open(struct lz_conn_client *cc, const struct lz_client *c,
    const char *self, int flags, struct lz_err *err)
{
	char *sock = lz_xasprintf("%s/control.sock", c->domain.runtime);
	char *sub = NULL;
	int64_t t0 = lz_spawn_now_ms();
	int dir = -1, lock = -1, rc, fresh = 0, told = 0, waiting = 0;

	memset(cc, 0, sizeof *cc);
	cc->fd = -1;
	lz_buf_init(&cc->in);
	for (;;) {
		if (cc->fd >= 0 || try_connect(sock, &cc->fd) == 0) {
			rc = hello(cc, c, err);
			if (rc != CONN_STOPPING)
				break;
			lz_err_release(err);
			close(cc->fd);
			cc->fd = -1;
			lz_buf_reset(&cc->in);
			cc->in_off = 0;
		} else if (!(flags & LZ_CONN_START)) {
			rc = lz_err_set(err, LZ_ENOTFOUND, "no running Domain "
			    "%s for this project and profile", c->domain.id);
			break;
		} else {
			if (dir < 0) {
				/* A Domain never started before has nothing
				 * to recover. */
				fresh = access(c->domain.root, F_OK) != 0 &&
				    errno == ENOENT;
				sub = lz_xasprintf("domains/%s", c->domain.id);
				dir = lz_rundir_ensure(c->paths.storage_root,
				    1, sub, err);
				if (dir >= 0) {
					close(dir);
					dir = lz_rundir_ensure(
					    c->paths.xdg_runtime, 0,
					    c->domain.runtime +
					    strlen(c->paths.xdg_runtime) + 1,
					    err);
				}
				if (dir < 0) {
					rc = dir;
					break;
				}
			}
			lock = lz_rundir_lock(dir, c->domain.runtime, 1, err);
			if (lock >= 0) {
				/* A leader that finished meanwhile: join it. */
				if (try_connect(sock, &cc->fd) != 0 &&
				    (rc = lead(cc, c, self, lock, fresh, flags,
				    err)) != 0)
					break;
				close(lock);
				lock = -1;
				continue;
			}
			if (lock != LZ_EBUSY) {
				rc = lock;
				break;
			}
			lz_err_release(err);
			/* Tell an ending coordinator not to prepare. */
			if (!waiting)
				waiting = mark_waiting(dir, 1);
		}
		if (lz_spawn_now_ms() - t0 > JOIN_WAIT_MS) {
			rc = lz_err_set(err, LZ_EBUSY, "Domain %s did not "
			    "become ready in %d s (another lazaret holds its "
			    "lock; see coordinator.log in '%s')", c->domain.id,
			    JOIN_WAIT_MS / 1000, c->domain.runtime);
			break;
		}
		if (!told && !(flags & LZ_CONN_QUIET) &&
		    lz_spawn_now_ms() - t0 > JOIN_TELL_MS) {
			fprintf(stderr, "lazaret: waiting for Domain %s: "
			    "another lazaret is starting or stopping it\n",
			    c->domain.id);
			told = 1;
		}
		poll(NULL, 0, JOIN_POLL_MS);
	}
	if (waiting)
		(void)mark_waiting(dir, 0);
	if (lock >= 0)
		close(lock);
	if (dir >= 0)
		close(dir);
	free(sub);
	free(sock);
	if (rc != 0)
		lz_conn_close(cc);
	return rc;
}

void
lz_conn_close(struct lz_conn_client *cc)
{
	if (cc->fd >= 0)
		close(cc->fd);
	cc->fd = -1;
	lz_buf_release(&cc->in);
	cc->credit = 0;
	EVP_PKEY_free(cc->key);
	cc->key = NULL;
	free(cc->cert);
	cc->cert = NULL;
}

int
lz_conn_send(struct lz_conn_client *cc, struct lz_buf *frames,
    struct lz_err *err)
{
	int rc = 0, e;

	if (frames->len > 0 && (e = lz_write_all(cc->fd, frames->buf,
	    frames->len)) != 0)
		rc = lz_err_set(err, LZ_ESYS, "lost the coordinator: %s",
		    strerror(-e));
	lz_buf_release(frames);
	return rc;
}

int
lz_conn_buffered(const struct lz_conn_client *cc)
{
	return cc->in.len > cc->in_off;
}

/*
 * The decoded bytes leave cc->in here, once per read, not once per frame
 * (a read brings a few dozen OUTPUT frames in a flood), and the socket is
 * read straight into it.
 */
int
lz_conn_fill(struct lz_conn_client *cc, struct lz_err *err)
{
	ssize_t n;

	lz_buf_drop(&cc->in, cc->in_off);
	cc->in_off = 0;
	lz_buf_grow(&cc->in, LZ_CONN_READ);
	do
		n = read(cc->fd, cc->in.buf + cc->in.len, LZ_CONN_READ);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return lz_err_set(err, LZ_ESYS, "lost the coordinator: %s",
		    strerror(errno));
	cc->in.len += (size_t)n;
	cc->in.buf[cc->in.len] = '\0';
	return (int)n;
}

int
lz_conn_next(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err)
{
	size_t used;
	int rc;

	rc = lz_frame_decode((unsigned char *)cc->in.buf + cc->in_off,
	    cc->in.len - cc->in_off, f, &used, err);
	if (rc != 1)
		return rc;
	lz_buf_reset(payload);
	lz_buf_add(payload, f->payload, f->len);
	f->payload = (unsigned char *)payload->buf;
	cc->in_off += used;
	if (cc->in_off == cc->in.len) {
		lz_buf_reset(&cc->in);
		cc->in_off = 0;
	}
	return 1;
}

int
lz_conn_error(const struct lz_frame *f, struct lz_err *err)
{
	struct lz_msg_error m;
	int rc;

	if (lz_msg_error_decode(f, &m, err) != 0)
		return LZ_EINVAL;
	rc = strcmp(m.code, "fingerprint") == 0 ? LZ_EBUSY :
	    strcmp(m.code, "stopping") == 0 ? LZ_EAGAIN :
	    strcmp(m.code, "domain-failure") == 0 ? LZ_EFAILED : LZ_EINVAL;
	lz_err_set(err, rc, "%s", m.message);
	lz_msg_error_release(&m);
	return rc;
}

int
lz_conn_wait(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err)
{
	int rc;

	while ((rc = lz_conn_next(cc, f, payload, err)) == 0) {
		rc = lz_conn_fill(cc, err);
		if (rc < 0)
			return rc;
		if (rc == 0)
			return lz_err_set(err, LZ_ESYS, "the coordinator "
			    "closed the connection");
	}
	if (rc < 0)
		return rc;
	return f->type == LZ_FRAME_ERROR ? lz_conn_error(f, err) : 0;
}

/* Sends an empty frame of type ask and waits for the answer in f. */
static int
request(struct lz_conn_client *cc, enum lz_frame_type ask, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	int rc;

	lz_frame_add(&b, ask, NULL, 0);
	rc = lz_conn_send(cc, &b, err);
	return rc != 0 ? rc : lz_conn_wait(cc, f, payload, err);
}

int
lz_conn_list(struct lz_conn_client *cc, struct lz_msg_sessions *out,
    struct lz_err *err)
{
	struct lz_buf payload = LZ_BUF_INIT;
	struct lz_frame f;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = request(cc, LZ_FRAME_LIST, &f, &payload, err)) == 0)
		rc = lz_msg_sessions_decode(&f, out, err);
	lz_buf_release(&payload);
	return rc;
}

int
lz_conn_decide(struct lz_conn_client *cc, const struct lz_client *c,
    const char *session, const struct lz_tokens *argv,
    struct lz_msg_decision *d, struct lz_buf *frames, struct lz_err *err)
{
	struct lz_buf sb = LZ_BUF_INIT, sig = LZ_BUF_INIT;
	int rc;

	lz_tokens_release(&d->env);
	if (d->decision != LZ_DECISION_DENY)
		lz_hostcmd_env_collect(&c->profile->escalation_env, getenv,
		    &d->env);
	lz_msg_decision_signed(d, c->domain.id, cc->coordinator_id,
	    cc->client_id, session, d->decision == LZ_DECISION_EDIT ?
	    &d->argv : argv, &sb);
	rc = lz_key_sign(cc->key, sb.buf, sb.len, &sig, err);
	if (rc == 0 && sig.len < sizeof d->sig) {
		memcpy(d->sig, sig.buf, sig.len + 1);
		rc = lz_msg_decision_add(frames, d, err);
	} else if (rc == 0)
		rc = lz_err_set(err, LZ_ESYS, "signature of %zu bytes",
		    sig.len);
	lz_buf_release(&sb);
	lz_buf_release(&sig);
	return rc;
}

int
lz_conn_trusted(struct lz_conn_client *cc, struct lz_msg_trusted *out,
    struct lz_err *err)
{
	struct lz_buf payload = LZ_BUF_INIT;
	struct lz_frame f;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = request(cc, LZ_FRAME_TRUST, &f, &payload, err)) == 0)
		rc = lz_msg_trusted_decode(&f, out, err);
	lz_buf_release(&payload);
	return rc;
}
