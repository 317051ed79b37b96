/*
 * quarantine.c: renaming a file out of host Git's way (quarantine.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/quarantine.h"
#include "core/util.h"

#define TRIES 100

int
lz_quarantine(int dirfd, const char *name, const char *prefix, char **to)
{
	return lz_quarantine_to(dirfd, name, dirfd, prefix, to);
}

int
lz_quarantine_to(int dirfd, const char *name, int todir, const char *prefix,
    char **to)
{
	int n;

	for (n = 0; n < TRIES; n++) {
		*to = lz_xasprintf("%s%lld.%d", prefix, (long long)time(NULL),
		    n);
		if (renameat2(dirfd, name, todir, *to, RENAME_NOREPLACE) == 0)
			return 0;
		free(*to);
		*to = NULL;
		if (errno != EEXIST)
			break;
	}
	return -1;
}
