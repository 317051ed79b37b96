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
/*
 * The same, into the directory todir (same file system): for a file
 * whose own directory git reads every name of (objects/xx, refs/),
 * where even a quarantine name would be read (a ref) or warned about.
 */
int lz_quarantine_to(int dirfd, const char *name, int todir,
    const char *prefix, char **to);

#endif
