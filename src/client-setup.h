/*
 * client-setup.h: what every Domain-aware subcommand does first, as git's
 * RUN_SETUP does: resolve the XDG paths, load and check the config, pick
 * the profile, find the canonical workspace and its Domain, run the SR-2
 * mount checks and compute the Configuration Fingerprint. Errors are
 * printed here, with the exit code to return.
 */
#ifndef LZ_CLIENT_SETUP_H
#define LZ_CLIENT_SETUP_H

#include "core/config.h"
#include "core/domain.h"
#include "core/fingerprint.h"

struct lz_client {
	struct lz_paths paths;
	struct lz_config cfg;
	const struct lz_profile *profile;
	struct lz_domain domain;
	char fingerprint[LZ_FINGERPRINT_HEX + 1];
};

enum lz_client_flags {
	LZ_CLIENT_CONFIG = 1 << 0,	/* paths and config only */
	LZ_CLIENT_DOMAIN = 1 << 1,	/* also profile, Domain, checks */
	/*
	 * With LZ_CLIENT_DOMAIN: the Domain is the one whose kept Git
	 * history (core/histview.h) lies nearest, at or above the
	 * directory, so that it is found even when the work tree's .git is
	 * gone; else the usual one.
	 */
	LZ_CLIENT_KEPT = 1 << 2,
	/*
	 * With LZ_CLIENT_DOMAIN: dir is the workspace the starting client
	 * resolved (the coordinator's -C), taken as it is
	 * (lz_domain_given); lz_domain_verify asks Git later.
	 */
	LZ_CLIENT_HANDED = 1 << 3,
};

/*
 * profile NULL means the config's default profile; dir NULL means the
 * current directory. Returns LZ_EXIT_OK or the exit code after printing the
 * error. On failure c is released.
 */
int lz_client_setup(struct lz_client *c, const char *profile,
    const char *dir, int flags);
void lz_client_release(struct lz_client *c);
/* The exit code for a negative LZ_E* code. */
int lz_client_exit_code(int code);
/* Prints a jansson value to stdout, indented, and releases it. */
void lz_client_print_json(json_t *j);

#endif
