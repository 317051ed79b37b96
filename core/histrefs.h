/*
 * histrefs.h: the refs of a git directory as the Git history guard sees
 * them (history.h): HEAD, every loose ref under refs/ and packed-refs,
 * read without trusting anything the sandbox could have written there:
 * no symlink is followed, no FIFO opened for reading, no file read past
 * its bound, and a malformed line or name is left out and said, never
 * guessed at.
 *
 * Loose refs win over packed ones of the same name, as in git, and are
 * read before packed-refs, as git does, so "git pack-refs" running
 * meanwhile (packed-refs written, then the loose files deleted) never
 * hides a ref from both. Lock files ("*.lock", git's updates in flight)
 * are skipped silently; a loose ref that is a symlink, FIFO or other
 * non-file, whose name git would refuse (lz_refname_ok), or whose content
 * is neither an object name nor "ref: NAME", is left out with a note. A
 * packed-refs file over LZ_HISTREFS_PACKED_MAX, or that is not a regular
 * file, is not read: the packed refs of the last good read stand in for it
 * (so a file the sandbox blew up does not read as every packed ref
 * deleted), and *partial says so. Its malformed lines are skipped and
 * counted (host git refuses such a file whole: the note says it).
 */
#ifndef LZ_HISTREFS_H
#define LZ_HISTREFS_H

#include <sys/stat.h>

#include "core/refset.h"
#include "core/util.h"

#define LZ_HISTREFS_PACKED_MAX (64u * 1024 * 1024)
#define LZ_HISTREFS_MAX (1000000u)	/* loose refs read */
#define LZ_HISTREFS_DEPTH 32		/* directories under refs/ */

/* A loose ref as last read. */
struct lz_histrefs_loose {
	char *name;
	char *value;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	int racy;		/* changed too recently: read again */
};

/*
 * What the last read found: packed-refs (reread only when its status
 * changes) and each loose ref with its status (reread only when that
 * changes: a ref written in place changes its ctime), so a pass over
 * 1,000 unchanged refs stats them and opens none. A file changed less
 * than LZ_READAT_RACY_NS before it was read is read again all the same
 * (lz_readat_racy: its status could hide a second change).
 */
struct lz_histrefs_cache {
	int valid;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	int racy;			/* changed too recently: read again */
	struct lz_refset packed;
	unsigned bad;			/* malformed lines */
	unsigned first_bad;		/* line number of the first */
	struct lz_histrefs_loose *loose;	/* sorted by name */
	size_t nloose;
};
#define LZ_HISTREFS_CACHE_INIT { 0, 0, 0, 0, { 0, 0 }, { 0, 0 }, 0, \
	LZ_REFSET_INIT, 0, 0, NULL, 0 }

/*
 * Reads the refs of the git directory gitfd into out (sorted). One
 * '\n'-terminated line per thing left out goes to notes (a caller that
 * reads often says each line once). *partial is set when
 * packed-refs could not be read (see above). Returns 0, or an error when
 * refs/ cannot be listed for another reason than its absence.
 */
int lz_histrefs_read(int gitfd, struct lz_histrefs_cache *cache,
    struct lz_refset *out, struct lz_buf *notes, int *partial,
    struct lz_err *err);
void lz_histrefs_cache_release(struct lz_histrefs_cache *cache);

/*
 * Parses packed-refs text into out (pushed, not sorted): "# ..." header
 * lines, "OID NAME" lines, "^OID" peeled lines after a ref. Returns the
 * number of malformed lines, the first one's number in *first_bad.
 */
unsigned lz_packed_refs_parse(const char *buf, size_t len,
    struct lz_refset *out, unsigned *first_bad);
/*
 * The value of a loose ref file's content: "OID" or "ref:NAME"
 * (allocated), or NULL when it holds neither.
 */
char *lz_ref_value_parse(const char *buf, size_t len);
/*
 * 1 when git would take name as a ref name (refs.c
 * check_refname_format): "HEAD" or "refs/..." whose components are not
 * empty, do not start with '.' or end with ".lock", with no "..", "@{",
 * control character, space or any of ~ ^ : ? * [ \, not ending in '/'
 * or '.'.
 */
int lz_refname_ok(const char *name);

#endif
