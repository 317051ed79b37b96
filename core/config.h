/*
 * config.h: Lazaret's host configuration, $XDG_CONFIG_HOME/lazaret/config.ini.
 * Loading reads the file (refusing one another user could have written),
 * parses it with inih through ini.h, and validates every profile: unknown
 * sections and keys, bad values and policy conflicts are errors with
 * file:line and a fix, all reported at once. The built-in "default" profile
 * exists with no file at all; a "[profile default]" section adjusts it.
 */
#ifndef LZ_CONFIG_H
#define LZ_CONFIG_H

#include <stddef.h>

#include "core/profile.h"
#include "core/tuiconf.h"
#include "core/util.h"

/* Config files larger than this are refused before they are read. */
#define LZ_CONFIG_MAX_SIZE (256 * 1024)

struct lz_config {
	char *path;		/* canonical path of the file read, or NULL */
	char *named;		/* the path lz_config_load was given, or NULL */
	/* The file read (device, inode), both 0 when there was none: what
	 * a saved rule must be appended to (rulesave.h). */
	unsigned long long dev, ino;
	char *default_profile;	/* [lazaret] default-profile, or "default" */
	struct lz_profile *profiles;	/* "default" is always profiles[0] */
	size_t nprofiles, profiles_alloc;
	struct lz_tui_conf tui;	/* [tui] */
	/* "file:line: ..." lines, '\n'-terminated, for the user to see:
	 * auto-approve rules that are flagged or match nothing (rules.h). */
	struct lz_buf warnings;
};

/*
 * Loads path. Each auto-approve rule's program is resolved in $PATH as it
 * is now (rules.h). A missing file gives the built-in profiles only; a file that
 * is not a regular file, is not owned by the user (or root), or is writable
 * by group or others is refused with LZ_EUNSAFE (SR-2 asks that host
 * configuration be the developer's alone). Parse and validation errors give
 * LZ_EINVAL. On failure cfg is empty.
 */
int lz_config_load(struct lz_config *cfg, const char *path,
    struct lz_err *err);
/* Parses and validates text as if read from a file called name. */
int lz_config_load_buffer(struct lz_config *cfg, const char *name,
    const char *text, size_t len, struct lz_err *err);
/* The named profile, or NULL. */
const struct lz_profile *lz_config_profile(const struct lz_config *cfg,
    const char *name);
void lz_config_release(struct lz_config *cfg);

#endif
