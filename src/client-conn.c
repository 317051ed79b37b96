/*
 * client-conn.c: connecting to (or starting) the Domain's coordinator and
 * blocking frame I/O. Starting is done under the Domain's lifecycle lock,
 * which the new coordinator inherits and keeps: one owner at a time (OR-1).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/rundir.h"
#include "src/domain-sandbox.h"
#include "src/client-conn.h"

/* How long a client waits for the lock and for a coordinator to start. */
#define LOCK_WAIT_MS 120000
#define START_WAIT_MS 180000

static int try_connect(const char *path, int *fd);
static int hello(struct lz_conn_client *cc, const struct lz_client *c,
    struct lz_err *err);
static int start_coordinator(const struct lz_client *c, const char *self,
    int lock_fd, struct lz_err *err);
static int lock_wait(int dir_fd, const char *path, struct lz_err *err);

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

static int
lock_wait(int dir_fd, const char *path, struct lz_err *err)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int waited = 0, fd;

	for (;;) {
		fd = lz_rundir_lock(dir_fd, path, 1, err);
		if (fd != LZ_EBUSY || waited >= LOCK_WAIT_MS)
			return fd;
		lz_err_release(err);
		nanosleep(&ts, NULL);
		waited += 50;
	}
}

/*
 * Starts "lazaret __coordinator" detached, handing it the lock, and waits
 * for its "ok" line on a pipe, or its error.
 */
static int
start_coordinator(const struct lz_client *c, const char *self, int lock_fd,
    struct lz_err *err)
{
	struct lz_buf msg = LZ_BUF_INIT;
	char fdarg[16], buf[512], *log = NULL, *nl;
	struct pollfd pfd;
	int ready[2] = { -1, -1 }, logfd = -1, rc = 0, waited = 0;
	ssize_t n;
	pid_t pid;

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
	pid = fork();
	if (pid < 0) {
		rc = lz_err_set(err, LZ_ESYS, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* A grandchild, so the coordinator is nobody's child. */
		if (fork() != 0)
			_exit(0);
		setsid();
		dup2(logfd, 1);
		dup2(logfd, 2);
		close(0);
		open("/dev/null", O_RDONLY);
		/* The lock and the ready pipe are the only fds it keeps. */
		fcntl(lock_fd, F_SETFD, 0);
		fcntl(ready[1], F_SETFD, 0);
		snprintf(fdarg, sizeof fdarg, "%d", ready[1]);
		execl(self, self, "__coordinator", "-p", c->domain.profile,
		    "-C", c->domain.workspace, "--ready-fd", fdarg,
		    (char *)NULL);
		dprintf(ready[1], "error: cannot run '%s': %s\n", self,
		    strerror(errno));
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	close(ready[1]);
	ready[1] = -1;
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while (waited < START_WAIT_MS) {
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			break;
		waited += 1000;
		if (pfd.revents == 0)
			continue;
		n = read(ready[0], buf, sizeof buf);
		if (n <= 0)
			break;
		lz_buf_add(&msg, buf, (size_t)n);
		/* "warning: ..." lines come first; show them as they come. */
		while ((nl = strchr(msg.buf, '\n')) != NULL &&
		    strncmp(msg.buf, "warning: ", 9) == 0) {
			fprintf(stderr, "lazaret: %.*s\n", (int)(nl - msg.buf),
			    msg.buf);
			memmove(msg.buf, nl + 1, msg.len - (size_t)(nl + 1 -
			    msg.buf) + 1);
			msg.len -= (size_t)(nl + 1 - msg.buf);
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

static int
hello(struct lz_conn_client *cc, const struct lz_client *c,
    struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct lz_frame f;
	json_t *j;
	int rc;

	j = json_pack("{s:i,s:s,s:s,s:s}", "version", LZ_FRAME_VERSION,
	    "domain", c->domain.id, "profile", c->domain.profile,
	    "fingerprint", c->fingerprint);
	lz_frame_add_json(&b, LZ_FRAME_HELLO, j);
	json_decref(j);
	rc = lz_conn_send(cc, &b, err);
	if (rc == 0)
		rc = lz_conn_wait(cc, &f, &payload, err);
	if (rc == 0 && f.type != LZ_FRAME_WELCOME)
		rc = lz_err_set(err, LZ_EINVAL, "unexpected %s frame",
		    lz_frame_type_name(f.type));
	if (rc == 0 && (j = lz_frame_json(&f, err)) != NULL) {
		cc->client_id = lz_xstrdup(json_string_value(json_object_get(j,
		    "client")) ?: "?");
		cc->coordinator_id = lz_xstrdup(json_string_value(
		    json_object_get(j, "coordinator")) ?: "?");
		json_decref(j);
	} else if (rc == 0)
		rc = LZ_EINVAL;
	lz_buf_release(&payload);
	return rc;
}

int
lz_conn_open(struct lz_conn_client *cc, const struct lz_client *c,
    const char *self, int start, struct lz_err *err)
{
	char *sock = lz_xasprintf("%s/control.sock", c->domain.runtime);
	char *sub = NULL;
	int dir = -1, lock = -1, rc, fresh;

	memset(cc, 0, sizeof *cc);
	cc->fd = -1;
	lz_buf_init(&cc->in);
	if (try_connect(sock, &cc->fd) == 0)
		goto connected;
	if (!start) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "no running Domain %s for "
		    "this project and profile", c->domain.id);
		goto out;
	}
	/* A Domain never started before has nothing to recover. */
	fresh = access(c->domain.root, F_OK) != 0 && errno == ENOENT;
	sub = lz_xasprintf("domains/%s", c->domain.id);
	dir = lz_rundir_ensure(c->paths.storage_root, 1, sub, err);
	if (dir < 0) {
		rc = dir;
		goto out;
	}
	close(dir);
	dir = lz_rundir_ensure(c->paths.xdg_runtime, 0, c->domain.runtime +
	    strlen(c->paths.xdg_runtime) + 1, err);
	if (dir < 0) {
		rc = dir;
		goto out;
	}
	lock = lock_wait(dir, c->domain.runtime, err);
	if (lock < 0) {
		rc = lock;
		goto out;
	}
	/* A leader that finished while we waited: join it. */
	if (try_connect(sock, &cc->fd) == 0)
		goto connected;
	/*
	 * Whatever is left is stale: recover before starting (FR-7), unless
	 * the last coordinator recorded, after its teardown had succeeded,
	 * that it left nothing (the marker is consumed either way), or the
	 * Domain is new. (Containers of a Domain whose Storage Root was
	 * deleted by hand make the start fail on their names; it then
	 * removes them and starts again: lz_sandbox_start_net.)
	 */
	unlink(sock);
	rc = lz_domain_mark_clean(c, -1) || fresh ? 0 :
	    lz_domain_down(c, self, err);
	if (rc != 0) {
		lz_err_prefix(err, rc, "cannot clean up after an earlier run");
		goto out;
	}
	rc = start_coordinator(c, self, lock, err);
	if (rc != 0)
		goto out;
	close(lock);
	lock = -1;
	if ((rc = try_connect(sock, &cc->fd)) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot connect to '%s': %s",
		    sock, strerror(-rc));
		goto out;
	}
connected:
	rc = hello(cc, c, err);
out:
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
	free(cc->client_id);
	free(cc->coordinator_id);
	cc->client_id = cc->coordinator_id = NULL;
}

int
lz_conn_send(struct lz_conn_client *cc, struct lz_buf *frames,
    struct lz_err *err)
{
	const char *p = frames->buf;
	size_t left = frames->len;
	ssize_t n;
	int rc = 0;

	while (left > 0) {
		n = send(cc->fd, p, left, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = lz_err_set(err, LZ_ESYS, "lost the coordinator: "
			    "%s", strerror(errno));
			break;
		}
		p += n;
		left -= (size_t)n;
	}
	lz_buf_release(frames);
	return rc;
}

int
lz_conn_fill(struct lz_conn_client *cc, struct lz_err *err)
{
	char buf[65536];
	ssize_t n;

	do
		n = read(cc->fd, buf, sizeof buf);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return lz_err_set(err, LZ_ESYS, "lost the coordinator: %s",
		    strerror(errno));
	lz_buf_add(&cc->in, buf, (size_t)n);
	return (int)n;
}

int
lz_conn_next(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err)
{
	size_t used;
	int rc;

	rc = lz_frame_decode((unsigned char *)cc->in.buf, cc->in.len, f,
	    &used, err);
	if (rc != 1)
		return rc;
	lz_buf_reset(payload);
	lz_buf_add(payload, f->payload, f->len);
	f->payload = (unsigned char *)payload->buf;
	memmove(cc->in.buf, cc->in.buf + used, cc->in.len - used);
	cc->in.len -= used;
	cc->in.buf[cc->in.len] = '\0';
	return 1;
}

int
lz_conn_wait(struct lz_conn_client *cc, struct lz_frame *f,
    struct lz_buf *payload, struct lz_err *err)
{
	const char *code, *m;
	json_t *j;
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
	if (f->type != LZ_FRAME_ERROR)
		return 0;
	j = lz_frame_json(f, NULL);
	code = json_string_value(json_object_get(j, "code"));
	m = json_string_value(json_object_get(j, "message"));
	rc = lz_err_set(err, code && strcmp(code, "fingerprint") == 0 ?
	    LZ_EBUSY : LZ_EINVAL, "%s", m ? m : "the coordinator refused");
	json_decref(j);
	return rc;
}
