/*
 * cmd-git.c: "lazaret git restore" and "lazaret git snapshot", the Git
 * history guard's commands (core/history.h, issue 20).
 *
 *   git restore [--list] [--to TIME] [--ref NAME] [--repo GITDIR] [--json]
 *   git snapshot [--json]
 *
 * restore lists (--list) or brings back what the Domain's history stores
 * keep (core/histview.h, core/histrestore.h). Writing takes the Domain's
 * lifecycle lock, so it never runs while the sandbox can write .git:
 * while the Domain runs it refuses and says why; while it starts or
 * stops it waits. A ref that moved since the loss is only moved back
 * after a yes on the terminal. snapshot saves the uncommitted work
 * (core/snapshot.h).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/gsreport.h"
#include "core/histrestore.h"
#include "core/history.h"
#include "core/rundir.h"
#include "core/snapshot.h"
#include "core/spawn.h"
#include "src/client-setup.h"
#include "src/cmd-opts.h"
#include "src/cmd.h"
#include "src/out-history.h"
#include "src/out-profile.h"

#define LOCK_WAIT_MS 180000
#define LOCK_POLL_MS 20

struct ropts {
	int list;
	const char *to;
	const char *ref;
	const char *repo;
	int64_t to_ms;
	int json;
	int interactive;
};

/* What one restore run did, over every repository. */
struct rrun {
	int found;		/* some repository knows --ref */
	int kept;		/* refs left alone: no terminal to ask */
	int failed;		/* refs or objects that could not be put back */
	json_t *repos;
};

static int listening(const char *runtime);
static int take_lock(const struct lz_client *c, int *lock,
    struct lz_err *err);
static int ask(struct lz_histview *v, const struct lz_histloss *l);
static void restore_one(struct lz_client *c, const char *key,
    const struct ropts *o, struct rrun *run);
static int cmd_restore(struct lz_cmd_ctx *ctx, int argc, char **argv);
static int cmd_snapshot(struct lz_cmd_ctx *ctx, int argc, char **argv);
static int no_history(const struct lz_client *c, int json);

/* 1 when a coordinator listens on the Domain's control socket. */
static int
listening(const char *runtime)
{
	struct sockaddr_un sa;
	int fd, ok;

	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if ((size_t)snprintf(sa.sun_path, sizeof sa.sun_path,
	    "%s/control.sock", runtime) >= sizeof sa.sun_path)
		return 0;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(fd);
	return ok;
}

/*
 * The lifecycle lock: no sandbox of this Domain runs while it is held.
 * A running Domain is refused (its sandbox may be writing .git right
 * now); one starting or stopping is waited for.
 */
static int
take_lock(const struct lz_client *c, int *lock, struct lz_err *err)
{
	int64_t t0 = lz_spawn_now_ms();
	int dir, told = 0;

	*lock = -1;
	dir = lz_rundir_ensure(c->paths.xdg_runtime, 0, c->domain.runtime +
	    strlen(c->paths.xdg_runtime) + 1, err);
	if (dir < 0)
		return dir;
	for (;;) {
		*lock = lz_rundir_lock(dir, c->domain.runtime, 1, err);
		if (*lock >= 0 || *lock != LZ_EBUSY)
			break;
		lz_err_release(err);
		if (listening(c->domain.runtime)) {
			*lock = lz_err_set(err, LZ_EBUSY, "Domain %s is "
			    "running: its sandbox can write .git at any moment, "
			    "so nothing is restored while it runs; end its "
			    "sessions (exit them, or C-] x in the TUI), then "
			    "run this again ('lazaret git restore --list' works "
			    "while it runs)", c->domain.id);
			break;
		}
		if (lz_spawn_now_ms() - t0 > LOCK_WAIT_MS) {
			*lock = lz_err_set(err, LZ_EBUSY, "Domain %s did not "
			    "finish starting or stopping in %d s (see "
			    "coordinator.log in '%s')", c->domain.id,
			    LOCK_WAIT_MS / 1000, c->domain.runtime);
			break;
		}
		if (!told && lz_spawn_now_ms() - t0 > 1000) {
			fprintf(stderr, "lazaret: waiting for Domain %s: it is "
			    "starting or stopping\n", c->domain.id);
			told = 1;
		}
		poll(NULL, 0, LOCK_POLL_MS);
	}
	close(dir);
	return *lock >= 0 ? 0 : *lock;
}

/* Asks on the terminal whether to move l's ref; 1 for yes. */
static int
ask(struct lz_histview *v, const struct lz_histloss *l)
{
	struct lz_buf now = LZ_BUF_INIT, to = LZ_BUF_INIT;
	char line[64], *name = lz_out_history_name(l->name);
	int yes;

	lz_out_history_value(v, l->now, &now);
	lz_out_history_value(v, l->target, &to);
	fprintf(stderr, "%s moved since it lost commits (not by the loss "
	    "the guard saw, or not forward):\n  now     %s\n  restore %s\n"
	    "Move %s back? What it holds now stays kept in the history "
	    "store. [y/N] ", name, now.buf, to.buf, name);
	fflush(stderr);
	yes = fgets(line, sizeof line, stdin) != NULL &&
	    (strcmp(line, "y\n") == 0 || strcmp(line, "yes\n") == 0 ||
	    strcmp(line, "Y\n") == 0);
	lz_buf_release(&now);
	lz_buf_release(&to);
	free(name);
	return yes;
}

static void
restore_one(struct lz_client *c, const char *key, const struct ropts *o,
    struct rrun *run)
{
	struct lz_histview v;
	struct lz_histdone d = LZ_HISTDONE_INIT;
	struct lz_err err = LZ_ERR_INIT;
	const struct lz_histloss **done = NULL;
	const struct lz_histloss *l;
	json_t *jo = NULL, *refs = json_array();
	const char *why;
	char *name;
	size_t i, nd = 0;
	int rc;

	rc = lz_histview_open(&v, c->domain.workspace, c->domain.root, key,
	    o->ref, o->to_ms, &err);
	if (rc == LZ_ENOTFOUND && o->ref != NULL)
		goto out;	/* another repository may know it */
	if (rc != 0) {
		lz_cmd_error("%s", err.msg);
		run->failed++;
		goto out;
	}
	run->found = 1;
	if (o->list) {
		if (o->json)
			json_array_append_new(run->repos,
			    lz_out_history_json(&v));
		else
			lz_out_history(stdout, &v, (int64_t)
			    c->profile->history_keep * 1000);
		goto out;
	}
	if ((rc = lz_histrestore_objects(&v, &d, &err)) != 0) {
		lz_cmd_error("%s", err.msg);
		run->failed++;
		goto report;
	}
	done = lz_xcalloc(v.plan.n + 1, sizeof *done);
	for (i = 0; i < v.plan.n; i++) {
		l = &v.plan.v[i];
		why = NULL;
		if (l->ask && !o->interactive) {
			why = "moved since the loss: left alone (run 'lazaret "
			    "git restore' on a terminal to be asked)";
			run->kept++;
		} else if (l->ask && !ask(&v, l))
			why = "moved since the loss: left alone (you said no)";
		else if ((rc = lz_histrestore_ref(&v, l, &d, &err)) != 0) {
			why = err.msg;
			run->failed++;
		} else
			done[nd++] = l;
		name = lz_out_history_name(l->name);
		json_array_append_new(refs, json_pack("{s:s,s:s,s:s?}", "ref",
		    name, "result", why == NULL ? "restored" : "left",
		    "why", why));
		if (why != NULL && !o->json)
			fprintf(stderr, "lazaret: %s: %s\n", name, why);
		free(name);
		lz_err_release(&err);
	}
	if (lz_histrestore_finish(&v, done, nd, &d, &err) != 0) {
		lz_cmd_error("%s", err.msg);
		run->failed++;
	}
	/* The next launch's warnings say it was brought back. */
	if (d.refs > 0 || d.objects > 0) {
		char *line = lz_xasprintf("Git history guard: %s: lazaret git "
		    "restore brought back %zu ref%s and %zu object file%s\n",
		    v.rel, d.refs, d.refs == 1 ? "" : "s", d.objects,
		    d.objects == 1 ? "" : "s");

		lz_gsreport_add(c->domain.root, line);
		free(line);
	}
report:
	if (o->json) {
		name = lz_out_history_name(v.rel);
		jo = json_pack("{s:s,s:O,s:{s:I,s:I,s:I,s:I,s:I,s:b},s:s}",
		    "gitdir", name, "refs", refs, "restored", "objects",
		    (json_int_t)d.objects, "damaged", (json_int_t)d.damaged,
		    "moved_away", (json_int_t)d.moved, "files",
		    (json_int_t)d.files, "refs", (json_int_t)d.refs, "index",
		    d.index, "log", d.lines.buf);
		json_array_append_new(run->repos, jo);
		free(name);
	} else {
		name = lz_out_history_name(v.rel);
		printf("%s: %s", name, d.lines.len > 0 ? "\n" : "nothing to "
		    "bring back\n");
		for (i = 0; i < d.lines.len; ) {
			size_t n = strcspn(d.lines.buf + i, "\n");

			printf("  %.*s\n", (int)n, d.lines.buf + i);
			i += n + 1;
		}
		free(name);
	}
	run->failed += d.damaged > 0;
out:
	json_decref(refs);
	free(done);
	lz_histdone_release(&d);
	lz_histview_release(&v);
	lz_err_release(&err);
}

/* There is no store: say why as well as it can be told. */
static int
no_history(const struct lz_client *c, int json)
{
	char *git = lz_xasprintf("%s/.git", c->domain.workspace);
	struct stat st;
	int file = lstat(git, &st) == 0 && S_ISREG(st.st_mode);

	if (json)
		printf("{\"domain\": \"%s\", \"repositories\": []}\n",
		    c->domain.id);
	lz_cmd_error("no Git history is kept for Domain %s (profile %s, "
	    "workspace %s): the guard keeps it while a Domain runs, and none "
	    "has run here%s", c->domain.id, c->domain.profile,
	    c->domain.workspace, file ? "; its .git is a file (a linked "
	    "worktree or a submodule checkout), where Lazaret runs no "
	    "Domain: the Domain of the main work tree keeps the history of "
	    "the repository it shares" : "");
	free(git);
	return LZ_EXIT_ENV;
}

static int
cmd_restore(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ "list", no_argument, NULL, 'l' },
		{ "to", required_argument, NULL, 't' },
		{ "ref", required_argument, NULL, 'r' },
		{ "repo", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts co = { NULL, NULL, ctx->json, 0 };
	struct lz_tokens keys = LZ_TOKENS_INIT, rels = LZ_TOKENS_INIT;
	struct ropts o;
	struct rrun run = { 0, 0, 0, NULL };
	struct lz_err err = LZ_ERR_INIT;
	struct lz_client c;
	char keep[32];
	size_t i;
	int ch, rc, lock = -1;

	memset(&o, 0, sizeof o);
	o.to_ms = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1) {
		if (lz_cmd_opts_take(&co, ch, optarg))
			continue;
		if (ch == 'l')
			o.list = 1;
		else if (ch == 't')
			o.to = optarg;
		else if (ch == 'r')
			o.ref = optarg;
		else if (ch == 'R')
			o.repo = optarg;
		else
			return lz_cmd_usage(&lz_cmd_git);
	}
	if (co.help) {
		printf("usage: lazaret git restore [-p PROFILE] [-C DIR] "
		    "[--list] [--to TIME] [--ref NAME] [--repo GITDIR] "
		    "[--json]\n");
		return LZ_EXIT_OK;
	}
	if (optind != argc)
		return lz_cmd_usage(&lz_cmd_git);
	if (o.to != NULL && lz_hist_time_parse(o.to, lz_history_now_ms(),
	    &o.to_ms, &err) != 0) {
		lz_cmd_error("--to: %s", err.msg);
		lz_err_release(&err);
		return LZ_EXIT_USAGE;
	}
	o.json = co.json;
	o.interactive = !o.json && isatty(0) && isatty(2);
	rc = lz_client_setup(&c, co.profile, co.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN | LZ_CLIENT_KEPT);
	if (rc != LZ_EXIT_OK)
		return rc;
	if ((rc = lz_histview_stores(c.domain.root, &keys, &rels, &err)) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
		goto out;
	}
	if (keys.n == 0) {
		rc = no_history(&c, o.json);
		goto out;
	}
	if (!o.list && (rc = take_lock(&c, &lock, &err)) != 0) {
		lz_cmd_error("%s", err.msg);
		rc = lz_client_exit_code(rc);
		goto out;
	}
	lz_out_keep(c.profile->history_keep, keep, sizeof keep);
	if (!o.json && o.list)
		printf("Git history kept by Domain %s (profile %s) for %s; "
		    "what the repository dropped is kept for %s after it "
		    "went (history-keep)\n\n", c.domain.id, c.domain.profile,
		    c.domain.workspace, keep);
	run.repos = json_array();
	for (i = 0; i < keys.n; i++)
		if (o.repo == NULL || strcmp(o.repo, rels.v[i]) == 0) {
			run.found |= o.ref == NULL;
			restore_one(&c, keys.v[i], &o, &run);
		}
	if (o.repo != NULL && !lz_tokens_has(&rels, o.repo)) {
		lz_cmd_error("--repo: no history kept for '%s' (kept: %s%s)",
		    o.repo, rels.v[0], rels.n > 1 ? ", ..." : "");
		rc = LZ_EXIT_USAGE;
	} else if (!run.found) {
		lz_cmd_error("--ref: no ref '%s' in the kept history", o.ref);
		rc = LZ_EXIT_FAILURE;
	} else
		rc = run.failed || run.kept ? LZ_EXIT_FAILURE : LZ_EXIT_OK;
	if (o.json)
		lz_client_print_json(json_pack("{s:s,s:s,s:s,s:I,s:s,s:O}",
		    "domain", c.domain.id, "profile", c.domain.profile,
		    "workspace", c.domain.workspace, "keep_seconds",
		    (json_int_t)c.profile->history_keep, "mode", o.list ?
		    "list" : "restore", "repositories", run.repos));
	if (run.kept > 0)
		lz_cmd_error("%d ref%s left as %s: restoring %s would take "
		    "commits off it; run 'lazaret git restore' on a terminal "
		    "to be asked", run.kept, run.kept == 1 ? "" : "s",
		    run.kept == 1 ? "it is" : "they are", run.kept == 1 ?
		    "it" : "them");
	json_decref(run.repos);
out:
	if (lock >= 0)
		close(lock);
	lz_tokens_release(&keys);
	lz_tokens_release(&rels);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

static int
cmd_snapshot(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		LZ_CMD_OPTS_LONG,
		{ NULL, 0, NULL, 0 },
	};
	struct lz_cmd_opts co = { NULL, NULL, ctx->json, 0 };
	struct lz_snapshot s;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_client c;
	struct stat st;
	char *git;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, LZ_CMD_OPTS_SHORT, opts,
	    NULL)) != -1)
		if (!lz_cmd_opts_take(&co, ch, optarg))
			return lz_cmd_usage(&lz_cmd_git);
	if (co.help) {
		printf("usage: lazaret git snapshot [-p PROFILE] [-C DIR] "
		    "[--json]\n");
		return LZ_EXIT_OK;
	}
	if (optind != argc)
		return lz_cmd_usage(&lz_cmd_git);
	rc = lz_client_setup(&c, co.profile, co.dir, LZ_CLIENT_CONFIG |
	    LZ_CLIENT_DOMAIN);
	if (rc != LZ_EXIT_OK)
		return rc;
	git = lz_xasprintf("%s/.git", c.domain.workspace);
	if (lstat(git, &st) != 0 || !S_ISDIR(st.st_mode)) {
		lz_cmd_error("'%s' is not a directory (a linked worktree or a "
		    "submodule checkout): Lazaret runs no Domain here, so no "
		    "guard would keep a snapshot; use 'git stash' here, or "
		    "lazaret in the main work tree", git);
		free(git);
		lz_client_release(&c);
		return LZ_EXIT_ENV;
	}
	free(git);
	rc = lz_snapshot_make(c.domain.workspace, "request",
	    lz_history_now_ms(), &s, &err);
	if (rc < 0) {
		lz_cmd_error("%s", err.msg);
		rc = LZ_EXIT_FAILURE;
	} else if (co.json) {
		lz_client_print_json(json_pack("{s:s?,s:s?,s:I,s:b,s:s?,s:s}",
		    "ref", s.ref, "id", rc == 0 ? s.oid : NULL, "paths",
		    (json_int_t)s.paths, "staged", s.staged, "same_as",
		    s.same_as, "notes", s.notes.buf));
		rc = LZ_EXIT_OK;
	} else {
		if (rc == 0)
			printf("uncommitted work saved as %s (%zu path%s of "
			    "the work tree differ from the index%s); 'git stash "
			    "apply %s' brings it back\n", s.ref, s.paths,
			    s.paths == 1 ? "" : "s", s.staged ? ", and the "
			    "index from HEAD" : "", s.ref);
		else if (s.same_as != NULL)
			printf("nothing new since %s\n", s.same_as);
		else
			printf("nothing uncommitted to save (work tree and "
			    "index match HEAD; untracked files are never "
			    "saved)\n");
		fputs(s.notes.buf, stderr);
		rc = LZ_EXIT_OK;
	}
	lz_snapshot_release(&s);
	lz_err_release(&err);
	lz_client_release(&c);
	return rc;
}

static int
cmd_git_exec(struct lz_cmd_ctx *ctx, int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "restore") == 0)
		return cmd_restore(ctx, argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "snapshot") == 0)
		return cmd_snapshot(ctx, argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0)) {
		printf("usage: lazaret git %s\n%s\n", lz_cmd_git.usage,
		    lz_cmd_git.summary);
		return LZ_EXIT_OK;
	}
	if (argc >= 2)
		lz_cmd_error("git: unknown subcommand '%s' (restore or "
		    "snapshot)", argv[1]);
	return lz_cmd_usage(&lz_cmd_git);
}

const struct lz_cmd lz_cmd_git = {
	.name = "git",
	.usage = "restore [-p PROFILE] [-C DIR] [--list] [--to TIME] "
	    "[--ref NAME] [--repo GITDIR] [--json] | snapshot [-p PROFILE] "
	    "[-C DIR] [--json]",
	.summary = "bring back Git history the sandbox lost; save uncommitted "
	    "work",
	.flags = LZ_CMD_JSON,
	.exec = cmd_git_exec,
};
