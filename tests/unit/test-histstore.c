/*
 * test-histstore.c: the Git history guard's object store (histstore.h) on
 * real files: hard links to loose objects and packs, what the
 * repository drops marked and released after the keep time (a clock
 * passed in), a file that comes back unmarked, FIFOs and symlinks with
 * object names never followed or read (and said), the copy fallback and
 * its cap (through a copy-only store), the space, and a kept object
 * checked against its name (objcheck.h) before and after the sandbox
 * wrote into it in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/histstore.h"
#include "core/objcheck.h"
#include "tests/unit/testlib.h"

#define A38 "00000000000000000000000000000000000000"
#define DAY (86400ll * 1000)

static char base[64], git[256], store[256];
static int gitfd, storefd;

static int
setup(void **state)
{
	(void)state;
	snprintf(base, sizeof base, "/tmp/lz-test-histstore-XXXXXX");
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(git, sizeof git, "%s/git", base);
	snprintf(store, sizeof store, "%s/store", base);
	if (mkdir(git, 0755) != 0 || mkdir(store, 0700) != 0)
		return -1;
	gitfd = open(git, O_RDONLY | O_DIRECTORY);
	storefd = open(store, O_RDONLY | O_DIRECTORY);
	return gitfd < 0 || storefd < 0 ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	close(gitfd);
	close(storefd);
	lz_test_rmrf(base);
	return 0;
}

static int
stat_at(const char *dir, const char *rel, struct stat *st)
{
	char p[512];

	snprintf(p, sizeof p, "%s/%s", dir, rel);
	return lstat(p, st);
}

static void
rm(const char *dir, const char *rel)
{
	char p[512];

	snprintf(p, sizeof p, "%s/%s", dir, rel);
	assert_int_equal(unlink(p), 0);
}

/* Links, marks, keeps while not expired, releases after. */
static void
test_link_mark_release(void **state)
{
	struct lz_histstore s;
	struct lz_histsync r = LZ_HISTSYNC_INIT;
	struct lz_histspace sp;
	struct stat a, b;

	(void)state;
	lz_test_put(git, "objects/ab/" A38, "loose");
	lz_test_put(git, "objects/pack/pack-" A38 "00.pack", "PACK");
	lz_test_put(git, "objects/pack/tmp_pack_x", "in flight");
	lz_test_put(git, "objects/ab/tmp_obj_x", "in flight");
	assert_int_equal(lz_histstore_open(&s, storefd, 0, NULL), 0);
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 1000, &r, NULL), 0);
	assert_int_equal(r.kept, 2);
	assert_int_equal(r.copies, 0);
	assert_int_equal(r.dropped, 0);
	assert_int_equal(stat_at(git, "objects/ab/" A38, &a), 0);
	assert_int_equal(stat_at(store, "objects/ab/" A38, &b), 0);
	assert_true(a.st_ino == b.st_ino);	/* a hard link: free */
	assert_int_not_equal(stat_at(store, "objects/ab/tmp_obj_x", &b), 0);
	assert_int_not_equal(stat_at(store, "objects/pack/tmp_pack_x", &b), 0);
	lz_histsync_release(&r);

	/* Nothing changed: an incremental sync does nothing. */
	assert_int_equal(lz_histstore_sync(&s, gitfd, 0, 1000, &r, NULL), 0);
	assert_int_equal(r.kept + r.dropped, 0);
	lz_histsync_release(&r);

	/* The repository drops both (git gc): marked, listed, kept. */
	rm(git, "objects/ab/" A38);
	rm(git, "objects/pack/pack-" A38 "00.pack");
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 2 * DAY, &r, NULL),
	    0);
	assert_int_equal(r.dropped, 2);
	assert_int_equal(r.gone_loose.n, 1);
	assert_string_equal(r.gone_loose.v[0], "ab" A38);
	assert_int_equal(stat_at(store, "objects/ab/" A38, &b), 0);
	assert_true(b.st_mode & S_ISVTX);
	lz_histsync_release(&r);
	/* Said once: the next sync finds nothing new. */
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 3 * DAY, &r, NULL),
	    0);
	assert_int_equal(r.dropped, 0);
	lz_histsync_release(&r);

	/* Within the keep time: held; after it: released. */
	assert_int_equal(lz_histstore_expire(&s, gitfd, 8 * DAY, 7 * DAY, &sp,
	    NULL), 0);
	assert_int_equal(sp.released, 0);
	assert_int_equal(sp.dropped, 2);
	assert_true(sp.oldest_drop_ms == 2 * DAY);
	assert_int_equal(lz_histstore_space(storefd, gitfd, &sp, NULL), 0);
	assert_int_equal(sp.dropped, 2);
	assert_true(sp.held > 0);
	assert_int_equal(lz_histstore_expire(&s, gitfd, 9 * DAY + 1, 7 * DAY,
	    &sp, NULL), 0);
	assert_int_equal(sp.released, 2);
	assert_int_not_equal(stat_at(store, "objects/ab/" A38, &b), 0);
	lz_histstore_close(&s);
}

/* A dropped file written again loses its mark. */
static void
test_comes_back(void **state)
{
	struct lz_histstore s;
	struct lz_histsync r = LZ_HISTSYNC_INIT;
	struct lz_histspace sp;
	struct stat b;

	(void)state;
	lz_test_put(git, "objects/cd/" A38, "x");
	assert_int_equal(lz_histstore_open(&s, storefd, 0, NULL), 0);
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 1000, &r, NULL), 0);
	lz_histsync_release(&r);
	rm(git, "objects/cd/" A38);
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 2000, &r, NULL), 0);
	assert_int_equal(r.dropped, 1);
	lz_histsync_release(&r);
	lz_test_put(git, "objects/cd/" A38, "x");
	assert_int_equal(lz_histstore_expire(&s, gitfd, 100 * DAY, DAY, &sp,
	    NULL), 0);
	assert_int_equal(sp.released, 0);
	assert_int_equal(stat_at(store, "objects/cd/" A38, &b), 0);
	assert_false(b.st_mode & S_ISVTX);
	assert_int_equal(sp.copies, 1);	/* the store's own inode now */
	lz_histstore_close(&s);
}

/* FIFOs and symlinks named like objects: never opened for reading. */
static void
test_planted(void **state)
{
	struct lz_histstore s;
	struct lz_histsync r = LZ_HISTSYNC_INIT;
	struct stat b;
	char p[512];

	(void)state;
	lz_test_put(git, "objects/ef/" A38, "real");
	snprintf(p, sizeof p, "%s/objects/ef/1" A38 "", git);
	p[strlen(p) - 1] = '\0';	/* 38 hex digits */
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof p, "%s/objects/pack/pack-1" A38 "0.idx", git);
	lz_test_put(git, "objects/pack/README", "");
	assert_int_equal(symlink("/etc/passwd", p), 0);
	assert_int_equal(lz_histstore_open(&s, storefd, 0, NULL), 0);
	/* A FIFO opened for reading would block: this returns. */
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 1000, &r, NULL), 0);
	assert_int_equal(r.kept, 1);
	assert_non_null(strstr(r.notes.buf, "is a FIFO: never followed or "
	    "read, not kept"));
	assert_non_null(strstr(r.notes.buf, "pack-1" A38 "0.idx is a "
	    "symbolic link: never followed or read, not kept"));
	assert_int_not_equal(stat_at(store, "objects/pack/pack-1" A38 "0.idx",
	    &b), 0);
	lz_histsync_release(&r);
	lz_histstore_close(&s);
}

/* Copies where links are refused, and their cap. */
static void
test_copy_cap(void **state)
{
	struct lz_histstore s;
	struct lz_histsync r = LZ_HISTSYNC_INIT;
	struct stat a, b;

	(void)state;
	lz_test_put(git, "objects/11/" A38, "0123456789");
	lz_test_put(git, "objects/22/" A38, "0123456789012345678901234567");
	assert_int_equal(lz_histstore_open(&s, storefd, 20, NULL), 0);
	s.cross = 1;	/* as after EXDEV: another file system */
	assert_int_equal(lz_histstore_sync(&s, gitfd, 1, 1000, &r, NULL), 0);
	assert_int_equal(r.kept, 1);
	assert_int_equal(r.copies, 1);
	assert_non_null(strstr(r.notes.buf, "past its cap of 0 MiB"));
	assert_int_equal(stat_at(git, "objects/11/" A38, &a), 0);
	assert_int_equal(stat_at(store, "objects/11/" A38, &b), 0);
	assert_true(a.st_ino != b.st_ino && b.st_size == 10);
	assert_int_equal(b.st_mode & 0777, 0444);
	assert_int_not_equal(stat_at(store, "objects/22/" A38, &b), 0);
	lz_histsync_release(&r);
	lz_histstore_close(&s);
}

/* A loose object against its name, before and after an in-place write. */
static void
test_objcheck(void **state)
{
	char *init[] = { "git", "init", "-q", "--bare", git, NULL };
	char *hash[] = { "git", "--git-dir", git, "hash-object", "-w", "-t",
	    "blob", "/dev/null", NULL };
	/* The empty blob's name. */
	const char *hex = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
	char p[512];
	FILE *f;
	int fd;

	(void)state;
	lz_test_run(init);
	lz_test_run(hash);
	snprintf(p, sizeof p, "%s/objects/e6", git);
	fd = open(p, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(lz_objcheck_loose(fd, hex + 2, hex), LZ_OBJCHECK_OK);
	/* Written into in place (the sandbox owns the file). */
	snprintf(p, sizeof p, "%s/objects/e6/%s", git, hex + 2);
	chmod(p, 0644);
	f = fopen(p, "r+");
	assert_non_null(f);
	fputs("xxxx", f);
	fclose(f);
	assert_int_equal(lz_objcheck_loose(fd, hex + 2, hex),
	    LZ_OBJCHECK_DAMAGED);
	assert_int_equal(lz_objcheck_loose(fd, "missing", hex),
	    LZ_OBJCHECK_UNKNOWN);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_link_mark_release, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_comes_back, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_planted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_objcheck, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
