/*
 * coordinator-watch.c: Domain failure detection. The coordinator watches
 * the Network Sidecar's process and the Agent Sandbox's (gVisor's) process
 * through pidfds. When the sidecar ends, the sandbox has no network any
 * more (it fails closed); when the sandbox ends, every session in it is
 * gone. Either way the Domain is failed: every attached client is told
 * why, what Lazaret does and where the log is (ERROR domain-failure; the
 * client exits 125), every session is hung up, and the normal teardown
 * removes the sandbox, then the sidecar, then the anchors (FR-7 order).
 */
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "src/coordinator.h"

/* One watched process: the sidecar's or the sandbox's. */
struct watch {
	uv_poll_t poll;
	int fd;
	const char *why;	/* the Domain failure it means */
};

static struct watch sidecar = { .fd = -1, .why = "the Network Sidecar "
    "stopped, so the sandbox has no network" };
static struct watch sandbox = { .fd = -1, .why = "the Agent Sandbox (its "
    "gVisor process) ended unexpectedly" };

static void on_exit_event(uv_poll_t *h, int status, int events);
static void on_watch_closed(uv_handle_t *h);
static int watch(struct watch *w, int pidfd, struct lz_err *err);
static void fail(struct watch *w);

static void
on_watch_closed(uv_handle_t *h)
{
	struct watch *w = h->data;

	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

void
lz_coord_unwatch(void)
{
	struct watch *ws[] = { &sidecar, &sandbox };
	size_t i;

	for (i = 0; i < 2; i++)
		if (ws[i]->fd >= 0 && !uv_is_closing((uv_handle_t *)
		    &ws[i]->poll))
			uv_close((uv_handle_t *)&ws[i]->poll, on_watch_closed);
}

/* Tells every attached client and stops the Domain. */
void
lz_coord_fail(const char *why)
{
	fprintf(stderr, "coordinator %s: Domain failure: %s\n", lz_coord.id,
	    why);
	lz_coord_tell_all("domain-failure", why);
	lz_coord_stop(why);
}

static void
on_exit_event(uv_poll_t *h, int status, int events)
{
	(void)status;
	(void)events;
	fail(h->data);
}

void
lz_coord_watch_check(void)
{
	struct watch *ws[] = { &sidecar, &sandbox };
	struct pollfd pfd;
	size_t i;

	for (i = 0; i < 2; i++) {
		pfd.fd = ws[i]->fd;
		pfd.events = POLLIN;
		if (ws[i]->fd >= 0 && poll(&pfd, 1, 0) > 0) {
			fail(ws[i]);
			return;
		}
	}
}

/* w's process ended: the Domain fails, and the clients hear why. */
static void
fail(struct watch *w)
{
	struct lz_buf msg = LZ_BUF_INIT;

	lz_coord_unwatch();
	if (lz_coord.reg.stopping)
		return;
	lz_buf_addf(&msg, "%s; Lazaret stops the Domain and removes its "
	    "sandbox, sidecar and mounts (nothing is left running); the "
	    "coordinator's log is '%s/coordinator.log'; run lazaret again to "
	    "start anew", w->why, lz_coord.cfg.domain.runtime);
	lz_coord_fail(msg.buf);
	lz_buf_release(&msg);
}

static int
watch(struct watch *w, int pidfd, struct lz_err *err)
{
	if (pidfd < 0)
		return lz_err_set(err, LZ_ESYS, "a process of the Domain is not "
		    "known, so its failure could not be seen");
	w->fd = pidfd;
	w->poll.data = w;
	uv_poll_init(lz_coord.loop, &w->poll, w->fd);
	uv_poll_start(&w->poll, UV_READABLE, on_exit_event);
	return 0;
}

/*
 * Takes over the pidfds of the sidecar's process as the start checked it
 * (no "podman inspect" of our own: that was 0.1-0.2 s of every cold
 * start) and of the sandbox's, opened from its PID file.
 */
int
lz_coord_watch(int sidecar_pidfd, int sandbox_pidfd, struct lz_err *err)
{
	int rc = watch(&sidecar, sidecar_pidfd, err);

	if (rc == 0)
		rc = watch(&sandbox, sandbox_pidfd, err);
	else if (sandbox_pidfd >= 0)
		close(sandbox_pidfd);
	return rc;
}
