/*
 * quarantine.h: moving a file the sandbox wrote out of host Git's way
 * without deleting it (SR-4; repos.h, gitguard.h): it is renamed, in
 * the same directory, to a name Git never reads, for the developer to look
 * at.
 */
#ifndef LZ_QUARANTINE_H
#define LZ_QUARANTINE_H

/*
 * Renames name in the directory dirfd to "<prefix><unix time>.<n>", the
 * first n for which nothing of that name exists (renameat2
 * RENAME_NOREPLACE: never onto anything). 0 and *to (allocated: the new
 * name), or -1 with errno (ENOENT: name is not there).
 */
int lz_quarantine(int dirfd, const char *name, const char *prefix,
    char **to);

#endif
