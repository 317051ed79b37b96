/*
 * domain-sandbox.c: a Domain's transient resources up and down (see
 * domain-sandbox.h). Builds the mount plan, makes the directories the plan
 * binds, and drives core/sandbox.c (podman, the anchors' overlays).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/anchor.h"
#include "core/ignored.h"
#include "core/mountplan.h"
#include "core/rundir.h"
#include "core/sandbox.h"
#include "src/domain-sandbox.h"

static int make_control_dirs(const struct lz_client *c, struct lz_err *err);

/* The runtime directories the plan binds into the sandbox. */
static int
make_control_dirs(const struct lz_client *c, struct lz_err *err)
{
	static const char *const subs[] = { "mailbox/requests",
	    "mailbox/results", "terminfo" };
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

int
lz_domain_up(const struct lz_client *c, const char *self, char **container,
    struct lz_buf *warn, struct lz_err *err)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_sandbox_ctx ctx;
	struct lz_sandbox_spec spec;
	struct lz_ignored ig;
	char *shim = NULL, *dir = NULL;
	int rc, have_ctx = 0;

	memset(&ig, 0, sizeof ig);
	rc = make_control_dirs(c, err);
	if (rc != 0)
		goto out;
	rc = lz_mountplan_build(&mp, &c->domain, c->profile, warn, err);
	if (rc != 0)
		goto out;
	if (c->profile->ignored_isolation) {
		rc = lz_ignored_scan(c->domain.workspace, &ig, err);
		if (rc == 0)
			rc = lz_ignored_merge(c->domain.root, &ig, err);
		if (rc == 0)
			rc = lz_ignored_prepare(c->domain.workspace,
			    c->domain.root, &ig, &mp, err);
		if (rc != 0)
			goto out;
	}
	/* The shim lives beside this binary (setup installs both). */
	dir = lz_xstrdup(self);
	*strrchr(dir, '/') = '\0';
	shim = lz_xasprintf("%s/lazaret-runsc", dir);
	if (access(shim, X_OK) != 0) {
		rc = lz_err_set(err, LZ_ENOTFOUND, "runtime shim '%s' is "
		    "missing: %s (run scripts/setup.sh)", shim, strerror(errno));
		goto out;
	}
	rc = lz_sandbox_ctx_init(&ctx, NULL, self, err);
	if (rc != 0)
		goto out;
	have_ctx = 1;
	memset(&spec, 0, sizeof spec);
	spec.domain_id = c->domain.id;
	spec.runtime = shim;
	spec.image = c->profile->image;
	spec.plan = &mp;
	spec.env = NULL;	/* passed per session, from the client */
	spec.network = "none";	/* until the Network Sidecar lands */
	rc = lz_sandbox_start(&ctx, &spec, c->domain.root, container, err);
out:
	if (have_ctx)
		lz_sandbox_ctx_release(&ctx);
	lz_ignored_release(&ig);
	lz_mountplan_release(&mp);
	free(shim);
	free(dir);
	return rc;
}

int
lz_domain_down(const struct lz_client *c, const char *self,
    struct lz_err *err)
{
	struct lz_sandbox_ctx ctx;
	int rc;

	rc = lz_sandbox_ctx_init(&ctx, NULL, self, err);
	if (rc != 0)
		return rc;
	rc = lz_sandbox_stop(&ctx, c->domain.id, c->domain.root,
	    c->profile->image, err);
	lz_sandbox_ctx_release(&ctx);
	return rc;
}
