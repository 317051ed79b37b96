/*
 * commondir.h: a ".git/commondir" the sandbox writes (SR-4). A main
 * repository never has one; when it appears, host git takes config and
 * hooks from the directory it names, which the sandbox can write. A mount
 * cannot block it (a placeholder file or directory there breaks host git),
 * so the coordinator watches the shared .git and moves the file out of
 * git's way as soon as it appears: to "lazaret-quarantine-commondir.<unix
 * time>.<n>" in the same directory, a name git never reads, kept for the
 * developer to look at. A launch refuses to start over a commondir (Git
 * Sentry) and warns about quarantined ones.
 */
#ifndef LZ_COMMONDIR_H
#define LZ_COMMONDIR_H

#include "core/util.h"

#define LZ_COMMONDIR_QUARANTINE "lazaret-quarantine-commondir."

/*
 * Moves "commondir" in the directory gitfd (a .git directory) to a new
 * quarantine name (renameat2 RENAME_NOREPLACE; never onto anything). 1 and
 * *moved (allocated: the new name) when it was there, 0 when not, an error
 * (naming the file) when it could not be moved.
 */
int lz_commondir_quarantine(int gitfd, char **moved, struct lz_err *err);

/*
 * Appends one warning line per quarantined commondir in the .git directory
 * git to warnings ('\n'-terminated).
 */
void lz_commondir_warn(const char *git, struct lz_buf *warnings);

#endif
