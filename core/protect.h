/*
 * protect.h: files of the workspace that a host tool runs or trusts on
 * its own, outside Git (SR-4; spec 3.3 lets Lazaret protect "supported
 * host editor configuration"): VS Code tasks and settings, JetBrains run
 * configurations, dev container definitions (initializeCommand runs on
 * the host), mise configuration (trusted by path, not content). The list
 * is the profile's "protect" key; its built-in value is lz_protect_default.
 * The inventory of what the host runs, and why these, is in
 * docs/host-trust.md.
 *
 * Files, not directories: a file that exists at launch is bound read-only
 * (Git Sentry, gitsentry.h), its directories pinned by binding each over
 * itself, while the rest of the directory stays the agent's (launch.json,
 * a Dockerfile). One that does not exist cannot be protected without
 * creating something on the host, so nothing is created: the coordinator
 * reports one that appears while the Domain runs (gitguard.h).
 *
 * Patterns are workspace-relative paths; a component may hold '*' and '?'
 * (fnmatch, never across '/'). Nothing is ever followed: a symlink met on
 * the way or at the end is refused at launch, like a FIFO, a device or a
 * directory where a file is expected.
 */
#ifndef LZ_PROTECT_H
#define LZ_PROTECT_H

#include <sys/types.h>

#include "core/tokens.h"
#include "core/util.h"

/* Larger protected files are refused (Git config) or warned about. */
#define LZ_PROTECT_MAX_SIZE (16 * 1024 * 1024)

extern const char *const lz_protect_default[];

/* Fills t with the built-in list. */
void lz_protect_defaults(struct lz_tokens *t);

/*
 * A pattern of the "protect" key (globs allowed) or a path of
 * "trust-git-config" (globs = 0): relative, normalised, no "." or ".."
 * component, at most 200 bytes, not ".git" or beneath it (Git Sentry's
 * own), no '[' or '\\'. key names the setting in the message.
 */
int lz_protect_pattern_valid(const char *p, int globs, const char *key,
    struct lz_err *err);

struct lz_protected {
	char *path;		/* relative to the workspace */
	int kind;		/* 'f' regular file, 'l' symlink, 'd', 'o' */
};

struct lz_protect_set {
	struct lz_protected *v;
	size_t n;
	size_t alloc;		/* lz_xgrow's */
};
#define LZ_PROTECT_SET_INIT { NULL, 0, 0 }

/*
 * Every existing path of the workspace (wsfd) that one of patterns names,
 * reached with no symlink followed, sorted, without duplicates. A symlink
 * or non-directory met where a pattern needs a directory is listed at its
 * own path with its kind: a pattern cannot be checked through it. Paths
 * at or beneath a skip entry ("dir/" or a file, as ignored.h writes them)
 * are left out.
 */
void lz_protect_expand(int wsfd, const struct lz_tokens *patterns,
    const struct lz_tokens *skip, struct lz_protect_set *out);

/* The entry of s at path, or NULL. */
const struct lz_protected *lz_protect_find(const struct lz_protect_set *s,
    const char *path);

void lz_protect_release(struct lz_protect_set *s);

/*
 * Checks a file Lazaret is about to protect, at rel beneath wsfd (ws
 * names it in messages), without following or opening anything but a
 * regular file (O_NONBLOCK: a FIFO never blocks). Returns 'f' for a
 * regular file, 0 when nothing is there, or LZ_EUNSAFE for a symlink
 * (also one on the way), FIFO, socket, device or directory. strict (a
 * file host git reads as configuration) also refuses a file that cannot
 * be read or is over LZ_PROTECT_MAX_SIZE; otherwise those are warning
 * lines. fix ends every message: what the developer can do.
 */
int lz_protect_inspect(int wsfd, const char *ws, const char *rel, int strict,
    const char *fix, struct lz_buf *warnings, struct lz_err *err);

#endif
