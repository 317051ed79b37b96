/*
 * state.h: the parts of "lazaret state" (src/cmd-state.c): which Domain
 * (state-domain.c), its listing (state-list.c), inspect and diff
 * (state-show.c), verify and reset (state-reset.c). The work on the
 * Domain's files is done by "lazaret __state" inside podman's namespace
 * (state-helper.h); these print what it finds, ask, and decide. The
 * --json output is described in docs/schemas/state-*.schema.json.
 */
#ifndef LZ_STATE_H
#define LZ_STATE_H

#include <jansson.h>

#include "core/domain-meta.h"
#include "core/anchor-store.h"
#include "src/client-setup.h"
#include "src/cmd-opts.h"

struct lz_state_opts {
	struct lz_cmd_opts o;		/* -p -C --json --help */
	const char *domain;		/* --domain ID */
	int yes, all, contents, ignored, forget;
	char **paths;			/* PATH operands */
	int npaths;
	const char *self;		/* this binary, for the helper */
};

/* A Domain resolved from trusted host metadata only (spec 3.7). */
struct lz_state_dom {
	struct lz_client c;		/* paths and config; the Domain too
					 * when from the current project */
	int from_project;
	char id[LZ_DOMAIN_ID_LEN + 1];
	char *root;			/* the Domain Root */
	char *runtime;			/* its runtime directory */
	struct lz_domain_meta meta;	/* domain.json */
	const struct lz_profile *profile;	/* NULL: not in the config */
	const char *profile_name;	/* NULL: unknown */
	const char *workspace;		/* NULL: unknown */
	const char *image;		/* NULL: unknown */
	struct lz_anchor_set set;	/* the anchors on disk */
};

/*
 * Resolves the Domain of o: --domain ID (one of the user's Domain Roots)
 * or the current project and profile, as "run" does. Returns an enum
 * lz_exit value after printing what is wrong.
 */
int lz_state_resolve(struct lz_state_dom *d, const struct lz_state_opts *o);
void lz_state_dom_release(struct lz_state_dom *d);
/* "Domain ID (profile P, workspace W)" for the human outputs. */
void lz_state_print_domain(const struct lz_state_dom *d);
/* The Domain as a JSON object (the "domain" member of the outputs). */
json_t *lz_state_domain_json(const struct lz_state_dom *d);
/*
 * Checks PATH operands (normalised, absolute) against the configured
 * anchors (the profile's, else those on disk). beneath allows a path
 * inside an anchor. Prints the error and returns an exit code.
 */
int lz_state_check_paths(const struct lz_state_dom *d,
    const struct lz_state_opts *o, int beneath);

/*
 * Runs "podman unshare -- SELF __state VERB --domain ID ..." with the
 * Domain's persist paths and image and the extra arguments, and returns
 * its exit code after printing its error. Its stdout (up to max bytes) is
 * in out; when json is not NULL it is parsed into *json.
 */
int lz_state_run(const struct lz_state_dom *d, const char *self,
    const char *verb, const struct lz_tokens *extra, size_t max,
    struct lz_buf *out, json_t **json);
/*
 * Before a verify or a reset: a Domain whose coordinator runs is refused
 * with its sessions and how to end them; one that is ending (its lock
 * held, no coordinator) is waited for, up to 10 s, saying so. Returns an
 * exit code.
 */
int lz_state_wait_quiet(const struct lz_state_dom *d, const char *self);

/* Sizes for people: "3.1 MiB". */
void lz_state_size(struct lz_buf *b, unsigned long long bytes);

int lz_state_list(const struct lz_state_opts *o);
int lz_state_show(const struct lz_state_opts *o, int diff);
int lz_state_verify(const struct lz_state_opts *o);
int lz_state_reset(const struct lz_state_opts *o);

#endif
