/*
 * rulesave.h: a rule saved from an escalation prompt (the "save a rule"
 * decision). The exact argv the developer saw becomes an exact
 * auto-approve rule (never a trailing "..."), appended to the config file
 * the Domain loaded, and the Domain adopts it at once, so the next
 * identical request runs without a prompt and new panes are not refused
 * for a changed Configuration Fingerprint.
 *
 * What is written: lz_rule_line's line, under a "[profile P]" header
 * unless the file's last section is already that profile's (config.c
 * lets a profile's section appear again to add auto-approve lines only),
 * after a comment saying where it came from. The file is opened without
 * following a symlink, O_APPEND, and held under flock(LOCK_EX) from the
 * first read to the last; nothing else in it is ever rewritten.
 *
 * Refused, with the reason and the line to add by hand: a config path
 * that is a symlink (a dotfile manager's: Lazaret does not write
 * through it), a file another user owns or others can write, a file that
 * is not the one the Domain loaded or whose profile P no longer reads as
 * the Domain's (edited since), a line over the parser's limit, a file
 * that would grow past LZ_CONFIG_MAX_SIZE. After appending, the file is
 * read again: it must be what it was plus the appended bytes, parse, and
 * its canonical form (fingerprint.h) must differ from before only by
 * this rule in profile P; otherwise it is truncated back and the save
 * fails. A missing config file (the Domain runs on the built-in default)
 * is created 0600 in an existing config directory.
 */
#ifndef LZ_RULESAVE_H
#define LZ_RULESAVE_H

#include "core/config.h"
#include "core/fingerprint.h"
#include "core/util.h"

/*
 * Appends argv as an exact rule of profile (a profile of cfg, the
 * Domain's loaded config) to cfg's file as above. On success the rule is
 * also added to that profile in cfg (its program resolved in path, as at
 * load), cfg's file identity is updated, and the profile's new
 * Configuration Fingerprint is written to fingerprint. On failure cfg is
 * unchanged and the file is as it was. Codes: LZ_EUNSAFE (symlink,
 * owner, mode), LZ_ECONFLICT (not the loaded file, or edited since),
 * LZ_EINVAL (line limit, size, no such profile), LZ_EBUSY (locked),
 * LZ_ESYS.
 */
int lz_rulesave(struct lz_config *cfg, const char *profile,
    const struct lz_tokens *argv, const char *path,
    char fingerprint[LZ_FINGERPRINT_HEX + 1], struct lz_err *err);

#endif
