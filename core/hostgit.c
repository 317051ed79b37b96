/*
 * hostgit.c: running the host's git without the caller's GIT_* variables
 * (hostgit.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostgit.h"
#include "core/pathcheck.h"
#include "core/tokens.h"

extern char **environ;

int
lz_hostgit(const char *workspace, const char *cwd, const char *const *args,
    int flags, struct lz_spawn_result *res, const char *what,
    struct lz_err *err)
{
	struct lz_tokens env = LZ_TOKENS_INIT, argv = LZ_TOKENS_INIT;
	struct lz_spawn_opts o;
	char **e, *path;
	size_t i;
	int rc;

	/* Never empty: an empty (NULL) list would pass environ. */
	lz_tokens_push(&env, "LC_ALL=C");
	for (e = environ; *e != NULL; e++) {
		if (strncmp(*e, "GIT_", 4) != 0 &&
		    strncmp(*e, "LC_ALL=", 7) != 0)
			lz_tokens_push(&env, *e);
	}
	if (flags & LZ_HOSTGIT_NO_CONFIG) {
		lz_tokens_push(&env, "GIT_CONFIG_NOSYSTEM=1");
		lz_tokens_push(&env, "GIT_CONFIG_GLOBAL=/dev/null");
	}
	lz_tokens_push(&argv, "git");
	lz_tokens_push(&argv, "--no-pager");
	for (i = 0; args[i] != NULL; i++)
		lz_tokens_push(&argv, args[i]);
	memset(&o, 0, sizeof o);
	path = lz_path_env_scrub(getenv("PATH"), workspace, NULL);
	o.path = path[0] != '\0' ? path : NULL;
	o.envp = (const char *const *)env.v;
	o.cwd = cwd;
	o.max_output = LZ_HOSTGIT_MAX_OUTPUT;
	o.timeout_ms = LZ_HOSTGIT_TIMEOUT_MS;
	rc = lz_spawn_capture((const char *const *)argv.v, &o, res, err);
	if (rc == -ETIMEDOUT)
		rc = lz_err_prefix(err, LZ_EUNSAFE, "%s: git did not answer "
		    "in %d s (a FIFO or device among the files your Git "
		    "configuration includes?)", what,
		    LZ_HOSTGIT_TIMEOUT_MS / 1000);
	else if (rc != 0)
		rc = lz_err_prefix(err, rc, "%s", what);
	else if (res->status != 0 || res->truncated) {
		while (res->err.len > 0 &&
		    res->err.buf[res->err.len - 1] == '\n')
			res->err.buf[--res->err.len] = '\0';
		rc = lz_err_set(err, LZ_EINVAL, "%s (git %s: %s)", what,
		    args[0], res->truncated ? "more than 64 MiB of output" :
		    res->err.len > 0 ? res->err.buf : "failed");
	}
	lz_tokens_release(&env);
	lz_tokens_release(&argv);
	free(path);
	return rc;
}
