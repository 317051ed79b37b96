/*
 * objcheck.h: whether a kept object file still holds what its name says
 * (issue 20): the Git history guard keeps objects by hard link, and the
 * sandbox can write into an object file in place (it owns it); "lazaret
 * git restore" checks what it brings back with these. Read with
 * readat.h's care (no symlink, no FIFO); loose objects up to
 * LZ_OBJCHECK_LOOSE_MAX bytes inflated, pack files streamed.
 */
#ifndef LZ_OBJCHECK_H
#define LZ_OBJCHECK_H

#define LZ_OBJCHECK_LOOSE_MAX (512u * 1024 * 1024)

enum lz_objcheck {
	LZ_OBJCHECK_OK = 1,
	LZ_OBJCHECK_DAMAGED = 0,
	LZ_OBJCHECK_UNKNOWN = -1,	/* SHA-256, too large, unreadable */
};

/*
 * The loose object dfd/name (its file in a fan-out directory) inflates
 * to "TYPE SIZE\0" and SIZE bytes whose SHA-1 is hex (40 digits).
 */
int lz_objcheck_loose(int dfd, const char *name, const char *hex);
/*
 * A pack (.pack) or pack index (.idx) file dfd/name ends with the SHA-1
 * of everything before it (its own checksum); a .pack's also equals the
 * name's hash. Other pack files (.rev, .bitmap, ...) are not checked.
 */
int lz_objcheck_pack(int dfd, const char *name);

#endif
