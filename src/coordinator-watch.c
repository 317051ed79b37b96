/*
 * coordinator-watch.c: Domain failure detection. The coordinator watches
 * the Network Sidecar's process through a pidfd: when it ends, the sandbox
 * has no network any more (it fails closed), and the Domain is failed:
 * every attached client is told why, every session is hung up, and the
 * normal teardown removes the sandbox, then the sidecar, then the anchors
 * (FR-7 order).
 */
#include <stdio.h>
#include <unistd.h>

#include "src/coordinator.h"

static uv_poll_t sidecar_watch;
static int sidecar_fd = -1;

static void on_sidecar_exit(uv_poll_t *h, int status, int events);
static void on_watch_closed(uv_handle_t *h);

static void
on_watch_closed(uv_handle_t *h)
{
	(void)h;
	if (sidecar_fd >= 0)
		close(sidecar_fd);
	sidecar_fd = -1;
}

void
lz_coord_unwatch(void)
{
	if (sidecar_fd >= 0 && !uv_is_closing((uv_handle_t *)&sidecar_watch))
		uv_close((uv_handle_t *)&sidecar_watch, on_watch_closed);
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
on_sidecar_exit(uv_poll_t *h, int status, int events)
{
	(void)h;
	(void)status;
	(void)events;
	lz_coord_unwatch();
	if (!lz_coord.reg.stopping)
		lz_coord_fail("the Network Sidecar stopped, so the sandbox has "
		    "no network; the Domain is stopping (run lazaret again to "
		    "start it anew)");
}

/*
 * Takes over pidfd, the sidecar's process as the start checked it (no
 * "podman inspect" of our own: that was 0.1-0.2 s of every cold start).
 */
int
lz_coord_watch_sidecar(int pidfd, struct lz_err *err)
{
	if (pidfd < 0)
		return lz_err_set(err, LZ_ESYS, "the Network Sidecar's process "
		    "is not known, so its failure could not be seen");
	sidecar_fd = pidfd;
	uv_poll_init(lz_coord.loop, &sidecar_watch, sidecar_fd);
	uv_poll_start(&sidecar_watch, UV_READABLE, on_sidecar_exit);
	return 0;
}
