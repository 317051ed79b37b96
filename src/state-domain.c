/*
 * state-domain.c: which Domain "lazaret state" works on, and the helper
 * that works on it (state.h). A Domain comes only from trusted host
 * metadata: the current project and profile, or "--domain ID" naming one
 * of the user's Domain Roots; never a path to an upper layer (spec 3.7).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/domain-busy.h"
#include "core/pathcheck.h"
#include "core/rundir.h"
#include "core/spawn.h"
#include "core/visible.h"
#include "src/client-conn.h"
#include "src/cmd.h"
#include "src/state.h"

#define QUIET_WAIT_MS 10000
#define HELPER_TIMEOUT_MS (30 * 60 * 1000)

static int	 resolve_id(struct lz_state_dom *d, const char *id);
static void	 print_running(const struct lz_state_dom *d, const char *self);
static void	 print_sessions(const struct lz_state_dom *d,
		     const char *self);
static void	 helper_errors(const struct lz_buf *err);

void
lz_state_size(struct lz_buf *b, unsigned long long bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof unit / sizeof *unit) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		lz_buf_addf(b, "%llu B", bytes);
	else
		lz_buf_addf(b, "%.1f %s", v, unit[u]);
}

/* The Domain Root of id among the user's, with its record. */
static int
resolve_id(struct lz_state_dom *d, const char *id)
{
	struct lz_err err = LZ_ERR_INIT;
	int fd, rc = LZ_EXIT_OK;

	fd = lz_domain_root_open(d->c.paths.storage_root, id, &err);
	if (fd < 0) {
		lz_cmd_error("%s", err.msg);
		rc = fd == LZ_EINVAL || fd == LZ_ENOTFOUND ? LZ_EXIT_USAGE :
		    lz_client_exit_code(fd);
		goto out;
	}
	snprintf(d->id, sizeof d->id, "%s", id);
	d->root = lz_xasprintf("%s/domains/%s", d->c.paths.storage_root, id);
	d->runtime = lz_xasprintf("%s/%s", d->c.paths.runtime_base, id);
	lz_domain_meta_read(fd, id, &d->meta);
	if (!d->from_project) {
		d->profile_name = d->meta.profile;
		d->workspace = d->meta.workspace;
		if (d->meta.profile != NULL)
			d->profile = lz_config_profile(&d->c.cfg,
			    d->meta.profile);
	}
	d->image = d->profile != NULL ? d->profile->image : d->meta.image;
	if (lz_anchor_set_read(fd, d->profile ? &d->profile->persist : NULL,
	    &d->set, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = lz_client_exit_code(LZ_EUNSAFE);
	}
	close(fd);
out:
	lz_err_release(&err);
	return rc;
}

int
lz_state_resolve(struct lz_state_dom *d, const struct lz_state_opts *o)
{
	int rc;

	memset(d, 0, sizeof *d);
	if (o->domain != NULL && (o->o.profile != NULL || o->o.dir != NULL)) {
		lz_cmd_error("state: --domain names the Domain; -p and -C do "
		    "not go with it");
		return LZ_EXIT_USAGE;
	}
	if (o->domain != NULL) {
		rc = lz_client_setup(&d->c, NULL, NULL, LZ_CLIENT_CONFIG);
		if (rc == LZ_EXIT_OK && (rc = resolve_id(d, o->domain)) != 0)
			lz_state_dom_release(d);
		return rc;
	}
	rc = lz_client_setup(&d->c, o->o.profile, o->o.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	d->from_project = 1;
	d->profile = d->c.profile;
	d->profile_name = d->c.domain.profile;
	d->workspace = d->c.domain.workspace;
	if (access(d->c.domain.root, F_OK) != 0 && errno == ENOENT) {
		lz_cmd_error("profile '%s' has no Domain in '%s' yet (it is "
		    "made at the first launch: 'lazaret run'); 'lazaret state "
		    "list' shows the Domains there are", d->profile_name,
		    d->workspace);
		lz_state_dom_release(d);
		return LZ_EXIT_FAILURE;
	}
	if ((rc = resolve_id(d, d->c.domain.id)) != 0)
		lz_state_dom_release(d);
	return rc;
}

void
lz_state_dom_release(struct lz_state_dom *d)
{
	lz_client_release(&d->c);
	lz_domain_meta_release(&d->meta);
	lz_anchor_set_release(&d->set);
	free(d->root);
	free(d->runtime);
	memset(d, 0, sizeof *d);
}

void
lz_state_print_domain(const struct lz_state_dom *d)
{
	printf("Domain %s (profile %s, workspace %s)\n", d->id,
	    d->profile_name ? d->profile_name : "unknown",
	    d->workspace ? d->workspace : "unknown");
}

json_t *
lz_state_domain_json(const struct lz_state_dom *d)
{
	return json_pack("{s:s,s:s?,s:s?,s:s?,s:s}", "domain_id", d->id,
	    "profile", d->profile_name, "workspace", d->workspace, "image",
	    d->image, "domain_root", d->root);
}

int
lz_state_check_paths(const struct lz_state_dom *d,
    const struct lz_state_opts *o, int beneath)
{
	struct lz_tokens have = LZ_TOKENS_INIT;
	struct lz_buf list = LZ_BUF_INIT;
	size_t i;
	int k, rc = LZ_EXIT_OK, ok;
	char *v;

	if (d->profile != NULL)
		lz_tokens_copy(&have, &d->profile->persist);
	for (i = 0; d->profile == NULL && i < d->set.n; i++) {
		if (d->set.v[i].path != NULL)
			lz_tokens_push(&have, d->set.v[i].path);
	}
	for (i = 0; i < have.n; i++)
		lz_buf_addf(&list, " %s", have.v[i]);
	for (k = 0; k < o->npaths && rc == LZ_EXIT_OK; k++) {
		v = lz_visible_str(o->paths[k], 0);
		ok = 0;
		for (i = 0; i < have.n && !ok; i++)
			ok = beneath ? lz_path_beneath(o->paths[k],
			    have.v[i]) : strcmp(o->paths[k], have.v[i]) == 0;
		if (lz_pathcheck_host(o->paths[k], NULL) != 0) {
			lz_cmd_error("state: '%s' is not a normalised absolute "
			    "path of the sandbox (like /usr/local)", v);
			rc = LZ_EXIT_USAGE;
		} else if (!ok) {
			lz_cmd_error("state: '%s' is not %sa State Anchor of "
			    "Domain %s (its anchors:%s; 'persist = PATH' in "
			    "the profile's section of %s adds one)", v,
			    beneath ? "in " : "", d->id, list.len ? list.buf :
			    " none",
			    d->c.paths.config_file);
			rc = LZ_EXIT_USAGE;
		}
		free(v);
	}
	lz_tokens_release(&have);
	lz_buf_release(&list);
	return rc;
}

/* The helper's stderr, without podman's "not a shared mount" noise. */
static void
helper_errors(const struct lz_buf *err)
{
	const char *p = err->buf, *nl;

	for (; *p != '\0'; p = *nl ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl == p || (strstr(p, "is not a shared mount") != NULL &&
		    strstr(p, "is not a shared mount") < nl))
			continue;
		fprintf(stderr, "%.*s\n", (int)(nl - p), p);
	}
}

int
lz_state_run(const struct lz_state_dom *d, const char *self, const char *verb,
    const struct lz_tokens *extra, size_t max, struct lz_buf *out,
    json_t **json)
{
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_spawn_result res;
	struct lz_spawn_opts so;
	struct lz_err err = LZ_ERR_INIT;
	json_error_t je;
	char *podman = NULL;
	size_t i;
	int rc;

	if (json != NULL)
		*json = NULL;
	lz_spawn_result_init(&res);
	if (lz_spawn_find("podman", NULL, &podman, &err) != 0) {
		lz_cmd_error("%s (State Anchors are read inside podman's "
		    "namespace; run scripts/setup.sh)", err.msg);
		rc = LZ_EXIT_ENV;
		goto out;
	}
	lz_tokens_push(&t, podman);
	lz_tokens_push(&t, "unshare");
	lz_tokens_push(&t, "--");
	lz_tokens_push(&t, self);
	lz_tokens_push(&t, "__state");
	lz_tokens_push(&t, verb);
	if (d != NULL) {
		lz_tokens_push(&t, "--domain");
		lz_tokens_push(&t, d->id);
		for (i = 0; d->profile != NULL && i < d->profile->persist.n;
		    i++) {
			lz_tokens_push(&t, "--persist");
			lz_tokens_push(&t, d->profile->persist.v[i]);
		}
		if (d->image != NULL) {
			lz_tokens_push(&t, "--image");
			lz_tokens_push(&t, d->image);
		}
	}
	for (i = 0; extra != NULL && i < extra->n; i++)
		lz_tokens_push(&t, extra->v[i]);
	memset(&so, 0, sizeof so);
	so.timeout_ms = HELPER_TIMEOUT_MS;
	so.cwd = "/";
	so.max_output = max;
	if ((rc = lz_spawn_capture((const char *const *)t.v, &so, &res,
	    &err)) != 0) {
		lz_cmd_error("cannot run the State Anchor helper: %s", err.msg);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	helper_errors(&res.err);
	if (res.signal != 0) {
		lz_cmd_error("podman unshare was killed (signal %d); run the "
		    "command again: a reset or verify first completes what was "
		    "interrupted (OR-5)", res.signal);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	if (res.status != 0) {
		rc = res.status <= LZ_EXIT_BUSY ? res.status : LZ_EXIT_FAILURE;
		/* podman unshare gives 255 for a helper killed by a signal. */
		if (res.status == 255)
			lz_cmd_error("the State Anchor helper was killed "
			    "before it finished (podman unshare exit 255); run "
			    "the "
			    "command again: a reset or verify first completes "
			    "what was interrupted (OR-5)");
		else if (res.status > LZ_EXIT_BUSY && res.err.len == 0)
			lz_cmd_error("podman unshare failed (exit %d)",
			    res.status);
		goto out;
	}
	if (res.truncated) {
		lz_cmd_error("the State Anchor helper wrote more than %zu "
		    "bytes", max);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	if (json != NULL && (*json = json_loadb(res.out.buf, res.out.len, 0,
	    &je)) == NULL) {
		lz_cmd_error("the State Anchor helper's output is not JSON: %s",
		    je.text);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	if (out != NULL) {
		lz_buf_add(out, res.out.buf, res.out.len);
	}
	rc = LZ_EXIT_OK;
out:
	free(podman);
	lz_tokens_release(&t);
	lz_spawn_result_release(&res);
	lz_err_release(&err);
	return rc;
}

/* The sessions of a running Domain, from its coordinator. */
static void
print_sessions(const struct lz_state_dom *d, const char *self)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_msg_sessions l;
	struct lz_conn_client cc;
	char *cmd;
	size_t i;

	memset(&l, 0, sizeof l);
	if (!d->from_project || lz_conn_open(&cc, &d->c, self, 0, &err) != 0) {
		lz_err_release(&err);
		return;
	}
	if (lz_conn_list(&cc, &l, &err) == 0) {
		for (i = 0; i < l.n; i++) {
			cmd = lz_visible_str(l.v[i].command, 0);
			fprintf(stderr, "  session %.12s  %s  %s\n",
			    l.v[i].session, l.v[i].client[0] != '\0' ?
			    "attached" : "detached", cmd);
			free(cmd);
		}
	}
	lz_msg_sessions_release(&l);
	lz_conn_close(&cc);
	lz_err_release(&err);
}

static void
print_running(const struct lz_state_dom *d, const char *self)
{
	lz_cmd_error("Domain %s is running (profile %s, workspace %s); its "
	    "Client Sessions:", d->id, d->profile_name ? d->profile_name :
	    "unknown", d->workspace ? d->workspace : "unknown");
	print_sessions(d, self);
	fprintf(stderr, "end them first: leave each session (exit its shell "
	    "or command; 'lazaret attach SESSION' reaches a detached one, "
	    "'lazaret ls' lists them), and the Domain stops after the last; "
	    "then run this again\n");
}

int
lz_state_wait_quiet(const struct lz_state_dom *d, const char *self)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	struct lz_err err = LZ_ERR_INIT;
	char *sock = lz_xasprintf("%s/control.sock", d->runtime);
	char *sub = lz_xasprintf("lazaret/%s", d->id);
	int dir, fd, waited, rc = LZ_EXIT_OK;
	long holder = 0;

	dir = lz_rundir_open(d->c.paths.xdg_runtime, sub, &err);
	if (dir == LZ_ENOTFOUND)
		goto out;	/* never started since boot: nothing runs */
	if (dir < 0) {
		lz_cmd_error("%s", err.msg);
		rc = lz_client_exit_code(dir);
		goto out;
	}
	for (waited = 0;; waited += 100) {
		if (lz_busy_socket(sock)) {
			print_running(d, self);
			rc = LZ_EXIT_BUSY;
			break;
		}
		if ((fd = lz_rundir_lock(dir, d->runtime, 1, &err)) >= 0) {
			close(fd);
			break;
		}
		lz_err_release(&err);
		if (fd != LZ_EBUSY) {
			lz_cmd_error("cannot lock Domain %s", d->id);
			rc = LZ_EXIT_FAILURE;
			break;
		}
		holder = lz_rundir_lock_holder(dir);
		if (waited == 0)
			lz_cmd_error("Domain %s is ending or starting (process "
			    "%ld holds its lifecycle lock); waiting up to %d s",
			    d->id, holder, QUIET_WAIT_MS / 1000);
		if (waited >= QUIET_WAIT_MS) {
			lz_cmd_error("Domain %s is still held by process %ld "
			    "after %d s: a launch or a teardown is under way; "
			    "try again when it has finished ('lazaret ls' "
			    "shows its sessions)", d->id, holder,
			    QUIET_WAIT_MS / 1000);
			rc = LZ_EXIT_BUSY;
			break;
		}
		nanosleep(&pause, NULL);
	}
	close(dir);
out:
	lz_err_release(&err);
	free(sock);
	free(sub);
	return rc;
}
