/*
 * commondir.c: moving a sandbox-written ".git/commondir" out of host git's
 * way (see commondir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/commondir.h"
#include "core/quarantine.h"

int
lz_commondir_quarantine(int gitfd, char **moved, struct lz_err *err)
{
	struct stat st;

	*moved = NULL;
	if (fstatat(gitfd, "commondir", &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : lz_err_set(err, LZ_ESYS,
		    "cannot check .git/commondir: %s", strerror(errno));
	if (lz_quarantine(gitfd, "commondir", LZ_COMMONDIR_QUARANTINE,
	    moved) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;	/* gone meanwhile */
	return lz_err_set(err, LZ_ESYS, "cannot move .git/commondir out of "
	    "host Git's way: %s; remove it before running git on the host",
	    strerror(errno));
}

void
lz_commondir_warn(const char *git, struct lz_buf *warnings)
{
	struct dirent *e;
	DIR *d;

	if ((d = opendir(git)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, LZ_COMMONDIR_QUARANTINE,
		    strlen(LZ_COMMONDIR_QUARANTINE)) != 0)
			continue;
		lz_buf_addf(warnings, "Git Sentry (SR-4): %s/%s is a "
		    ".git/commondir a sandbox wrote (it would have sent host "
		    "Git to another directory's config and hooks); Lazaret "
		    "moved it there: check what it names, then delete it\n",
		    git, e->d_name);
	}
	closedir(d);
}
