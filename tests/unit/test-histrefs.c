/*
 * test-histrefs.c: a git directory's refs read without trusting it
 * (histrefs.h): git's ref name rules, loose ref contents, packed-refs
 * lines (header, peeled, malformed counted with the first one's number),
 * and a real directory: loose refs win over packed ones, a symlink and a
 * FIFO among the refs left out and said (the FIFO is never opened for
 * reading: the read returns), a HEAD symlink, a packed-refs too large
 * (the last good read stands, partial said) or malformed; new branches
 * packed in "git pack-refs"'s order while the reader runs (no read misses
 * a ref: loose refs are read before packed-refs); a ref and packed-refs
 * rewritten within the same timestamp tick (read again all the same); and
 * the refset's sort, set and diff.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/histrefs.h"
#include "core/readat.h"
#include "tests/unit/testlib.h"

#define A "1111111111111111111111111111111111111111"
#define B "2222222222222222222222222222222222222222"

static void
test_names(void **state)
{
	static const char *const ok[] = { "HEAD", "refs/heads/main",
	    "refs/heads/a/b", "refs/tags/v1.0", "refs/heads/caf\xc3\xa9",
	    "refs/heads/x@y" };
	static const char *const bad[] = { "main", "refs/heads/", "refs//x",
	    "refs/heads/.x", "refs/heads/x.lock", "refs/heads/a..b",
	    "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^", "refs/x:y",
	    "refs/x?", "refs/x*", "refs/x[", "refs/x\\y", "refs/x@{1}",
	    "refs/x.", "refs/x\x1b", "refs/x\x7f", "refs/heads/x/" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof *ok; i++)
		assert_true(lz_refname_ok(ok[i]));
	for (i = 0; i < sizeof bad / sizeof *bad; i++)
		assert_false(lz_refname_ok(bad[i]));
}

static void
test_values(void **state)
{
	char *v;

	(void)state;
	v = lz_ref_value_parse(A "\n", 41);
	assert_string_equal(v, A);
	free(v);
	v = lz_ref_value_parse("ref: refs/heads/main\n", 21);
	assert_string_equal(v, "ref:refs/heads/main");
	free(v);
	assert_null(lz_ref_value_parse(A "0\n", 42));
	assert_null(lz_ref_value_parse("ref: main\n", 10));
	assert_null(lz_ref_value_parse("ref: refs/a\0b\n", 14));
	assert_null(lz_ref_value_parse("", 0));
	assert_null(lz_ref_value_parse(A "\0", 41));
}

static void
test_packed(void **state)
{
	const char *text = "# pack-refs with: peeled fully-peeled sorted\n"
	    A " refs/heads/main\n"
	    A " refs/tags/v1\n"
	    "^" B "\n"
	    "^" B "\n"			/* a second peel: malformed */
	    "garbage\n"
	    B " refs/heads/bad name\n"
	    B " HEAD\n"
	    B " refs/heads/last";	/* no newline at the end: fine */
	struct lz_refset s = LZ_REFSET_INIT;
	unsigned first, bad;

	(void)state;
	bad = lz_packed_refs_parse(text, strlen(text), &s, &first);
	lz_refset_sort(&s);
	assert_int_equal(bad, 4);
	assert_int_equal(first, 5);
	assert_int_equal(s.n, 3);
	assert_string_equal(lz_refset_get(&s, "refs/tags/v1"), A);
	assert_string_equal(lz_refset_get(&s, "refs/heads/last"), B);
	lz_refset_release(&s);
}

static void
test_read(void **state)
{
	char dir[] = "/tmp/lz-test-histrefs-XXXXXX", p[256];
	struct lz_histrefs_cache c = LZ_HISTREFS_CACHE_INIT;
	struct lz_refset s;
	struct lz_buf notes = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	int fd, partial;

	(void)state;
	assert_non_null(mkdtemp(dir));
	lz_test_put(dir, "HEAD", "ref: refs/heads/main\n");
	lz_test_put(dir, "refs/heads/main", B "\n");
	lz_test_put(dir, "refs/heads/x.lock", A "\n");
	lz_test_put(dir, "refs/heads/junk", "hello\n");
	lz_test_put(dir, "packed-refs", "# pack-refs with: peeled\n"
	    A " refs/heads/main\n" A " refs/heads/packed\n");
	snprintf(p, sizeof p, "%s/refs/heads/fifo", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof p, "%s/refs/heads/link", dir);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial, &e),
	    0);
	assert_int_equal(partial, 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(lz_refset_get(&s, "refs/heads/main"), B);
	assert_string_equal(lz_refset_get(&s, "refs/heads/packed"), A);
	assert_string_equal(lz_refset_get(&s, "HEAD"), "ref:refs/heads/main");
	assert_non_null(strstr(notes.buf, "ref 'refs/heads/fifo' is a FIFO"));
	assert_non_null(strstr(notes.buf, "ref 'refs/heads/link' is a "
	    "symbolic link"));
	assert_non_null(strstr(notes.buf, "'refs/heads/junk' holds neither"));
	lz_refset_release(&s);
	/* Read again from the cache; a ref written in place is read anew. */
	assert_int_equal(c.nloose, 1);
	snprintf(p, sizeof p, "%s/refs/heads/main", dir);
	{
		FILE *f = fopen(p, "r+");

		assert_non_null(f);
		fputs(A "\n", f);
		fclose(f);
	}
	assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial, &e),
	    0);
	assert_string_equal(lz_refset_get(&s, "refs/heads/main"), A);
	lz_refset_release(&s);

	/* packed-refs blown up: not read, the last good read stands. */
	snprintf(p, sizeof p, "%s/packed-refs", dir);
	assert_int_equal(truncate(p, LZ_HISTREFS_PACKED_MAX + 1), 0);
	lz_buf_reset(&notes);
	assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial, &e),
	    0);
	assert_int_equal(partial, 1);
	assert_string_equal(lz_refset_get(&s, "refs/heads/packed"), A);
	assert_non_null(strstr(notes.buf, "over the 67108864 the guard "
	    "reads"));
	lz_refset_release(&s);

	/* Malformed: the readable lines read, the rest counted. */
	lz_test_put(dir, "packed-refs", A " refs/heads/packed\nxx\n");
	lz_buf_reset(&notes);
	assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial, &e),
	    0);
	assert_int_equal(partial, 0);
	assert_string_equal(lz_refset_get(&s, "refs/heads/packed"), A);
	assert_non_null(strstr(notes.buf, "packed-refs has 1 line git cannot "
	    "read (the first is line 2)"));
	lz_refset_release(&s);

	/* A HEAD symlink (old git) is read as symbolic, never followed. */
	snprintf(p, sizeof p, "%s/HEAD", dir);
	unlink(p);
	assert_int_equal(symlink("refs/heads/main", p), 0);
	assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial, &e),
	    0);
	assert_string_equal(lz_refset_get(&s, "HEAD"), "ref:refs/heads/main");
	lz_refset_release(&s);
	lz_histrefs_cache_release(&c);
	lz_buf_release(&notes);
	close(fd);
	lz_test_rmrf(dir);
}

/* Rewrites base/rel in place (same inode) with text. */
static void
rewrite(const char *base, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", base, rel);
	assert_non_null(f = fopen(path, "r+"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/*
 * A loose ref and packed-refs each rewritten in place to the same size
 * right after a read: their status (inode, size, and times of the same
 * timestamp tick) can be what the cache has, and the new value is read
 * all the same ("racy git"). On a kernel before 6.13, whose timestamps
 * are taken once a tick, the times can be the same; one with multigrain
 * timestamps gives a file whose times were read a new one when it
 * changes, so there only lz_readat_racy's own checks below can fail.
 */
static void
test_read_racy(void **state)
{
	char dir[] = "/tmp/lz-test-histrefs-XXXXXX";
	struct lz_histrefs_cache c = LZ_HISTREFS_CACHE_INIT;
	struct lz_refset s;
	struct lz_buf notes = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct stat st;
	int fd, partial, i;

	(void)state;
	memset(&st, 0, sizeof st);
	clock_gettime(CLOCK_REALTIME, &st.st_ctim);
	assert_true(lz_readat_racy(&st));
	st.st_ctim.tv_sec -= LZ_READAT_RACY_NS / 1000000000 + 1;
	assert_false(lz_readat_racy(&st));
	assert_non_null(mkdtemp(dir));
	lz_test_put(dir, "HEAD", "ref: refs/heads/main\n");
	lz_test_put(dir, "refs/heads/main", A "\n");
	lz_test_put(dir, "packed-refs", A " refs/heads/packed\n");
	assert_true((fd = open(dir, O_RDONLY | O_DIRECTORY)) >= 0);
	for (i = 0; i < 20; i++) {
		assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial,
		    &e), 0);
		lz_refset_release(&s);
		rewrite(dir, "refs/heads/main", i % 2 ? A "\n" : B "\n");
		rewrite(dir, "packed-refs", i % 2 ? A " refs/heads/packed\n" :
		    B " refs/heads/packed\n");
		assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial,
		    &e), 0);
		assert_string_equal(lz_refset_get(&s, "refs/heads/main"),
		    i % 2 ? A : B);
		assert_string_equal(lz_refset_get(&s, "refs/heads/packed"),
		    i % 2 ? A : B);
		lz_refset_release(&s);
	}
	lz_histrefs_cache_release(&c);
	lz_buf_release(&notes);
	close(fd);
	lz_test_rmrf(dir);
}

/* packed-refs written as git writes it: a lock file, then renamed. */
static int
write_packed(const char *git, const struct lz_refset *refs)
{
	char path[512], lock[520];
	size_t i;
	FILE *f;

	snprintf(lock, sizeof lock, "%s/packed-refs.lock", git);
	snprintf(path, sizeof path, "%s/packed-refs", git);
	if ((f = fopen(lock, "w")) == NULL)
		return -1;
	fputs("# pack-refs with: peeled fully-peeled sorted \n", f);
	for (i = 0; i < refs->n; i++)
		fprintf(f, "%s %s\n", refs->v[i].value, refs->v[i].name);
	return fclose(f) != 0 || rename(lock, path) != 0 ? -1 : 0;
}

#define ROUND_REFS 16

/* Round k's refs, as the child makes them and the reader looks for them. */
static void
round_ref(char *out, size_t size, int k, int i)
{
	snprintf(out, size, "refs/heads/r%d-%02d", k, i);
}

/*
 * Round k, each step in git's own order: ROUND_REFS new branches, each
 * written loose as "git branch" writes one (a lock file, then renamed);
 * *created = k; "git pack-refs --all" as git's files backend does it
 * (files_pack_refs: packed-refs written with every ref, then the loose
 * files deleted, the last first); *deleting = k - 1, and round k - 1's
 * branches deleted (packed-refs written without them).
 */
static int
pack_round(const char *git, struct lz_refset *refs, int k,
    volatile int *shared)
{
	char path[512], lock[520], name[64];
	const char *oid = refs->v[0].value;
	int i, fd, rc = 0;

	for (i = 0; i < ROUND_REFS && rc == 0; i++) {
		round_ref(name, sizeof name, k, i);
		snprintf(path, sizeof path, "%s/%s", git, name);
		snprintf(lock, sizeof lock, "%s.lock", path);
		if ((fd = open(lock, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
		    write(fd, oid, 40) != 40 || write(fd, "\n", 1) != 1)
			rc = -1;
		if (fd >= 0)
			close(fd);
		if (rc == 0 && rename(lock, path) != 0)
			rc = -1;
		lz_refset_set(refs, name, oid);
	}
	__atomic_store_n(&shared[0], k, __ATOMIC_SEQ_CST);
	if (rc != 0 || write_packed(git, refs) != 0)
		return -1;
	for (i = ROUND_REFS; i-- > 0; ) {
		round_ref(name, sizeof name, k, i);
		snprintf(path, sizeof path, "%s/%s", git, name);
		if (unlink(path) != 0)
			return -1;
	}
	__atomic_store_n(&shared[1], k - 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < ROUND_REFS; i++) {
		round_ref(name, sizeof name, k - 1, i);
		lz_refset_set(refs, name, NULL);
	}
	return write_packed(git, refs);
}

/*
 * Branches made and packed over and over while the guard reads the refs:
 * no read may miss a ref that was there before it began and was still
 * there when it ended (with packed-refs read before refs/, some did: the
 * ref log then recorded them as deleted).
 */
static void
test_read_racing_pack(void **state)
{
	char dir[] = "/tmp/lz-test-histrefs-XXXXXX", git[256], name[64];
	char *init[] = { "git", "init", "-q", "-b", "main", dir, NULL };
	char *commit[] = { "git", "-C", dir, "-c", "user.name=t", "-c",
	    "user.email=t@e.invalid", "commit", "-q", "--allow-empty", "-m",
	    "x", NULL };
	char *branch[] = { "git", "-C", dir, "branch", name, NULL };
	char *tag[] = { "git", "-C", dir, "tag", name, NULL };
	char *pack[] = { "git", "-C", dir, "pack-refs", "--all", NULL };
	struct lz_histrefs_cache c = LZ_HISTREFS_CACHE_INIT;
	struct lz_refset s, base;
	struct lz_buf notes = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t reads = 0, checked = 0, missed = 0, j;
	struct timespec t0, t;
	volatile int *shared;
	int fd, partial, i, k, r0, status;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(lz_test_git_home(dir), 0);
	lz_test_run(init);
	lz_test_run(commit);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof name, "b%02d", i);
		lz_test_run(branch);
		snprintf(name, sizeof name, "v%02d", i);
		lz_test_run(tag);
	}
	lz_test_run(pack);
	snprintf(git, sizeof git, "%s/.git", dir);
	fd = open(git, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(lz_histrefs_read(fd, &c, &base, &notes, &partial,
	    &e), 0);
	assert_int_equal(base.n, 18);	/* HEAD, main, 8 branches, 8 tags */
	shared = mmap(NULL, 2 * sizeof *shared, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(shared != MAP_FAILED);
	shared[0] = shared[1] = -1;
	/* A child makes and packs branches for two seconds; this reads. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		lz_refset_set(&base, "HEAD", NULL);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		k = 0;
		do {
			if (pack_round(git, &base, k++, shared) != 0)
				_exit(1);
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 < 2000);
		_exit(0);
	}
	do {
		r0 = __atomic_load_n(&shared[0], __ATOMIC_SEQ_CST);
		assert_int_equal(lz_histrefs_read(fd, &c, &s, &notes, &partial,
		    &e), 0);
		reads++;
		for (j = 0; j < base.n; j++)
			missed += lz_refset_get(&s, base.v[j].name) == NULL;
		/* Round r0's branches, unless their deletion has begun. */
		if (r0 >= 0 && __atomic_load_n(&shared[1],
		    __ATOMIC_SEQ_CST) < r0) {
			checked++;
			for (i = 0; i < ROUND_REFS; i++) {
				round_ref(name, sizeof name, r0, i);
				missed += lz_refset_get(&s, name) == NULL;
			}
		}
		lz_refset_release(&s);
		lz_buf_reset(&notes);
	} while (waitpid(pid, &status, WNOHANG) == 0);
	print_message("%zu reads while branches were made and packed, %zu "
	    "checked for a round's branches: %zu refs missed\n", reads,
	    checked, missed);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(checked > 10);
	assert_int_equal(missed, 0);
	munmap((void *)shared, 2 * sizeof *shared);
	lz_refset_release(&base);
	lz_histrefs_cache_release(&c);
	lz_buf_release(&notes);
	close(fd);
	lz_test_rmrf(dir);
}

static int
collect(void *ctx, const char *name, const char *old, const char *new)
{
	struct lz_buf *b = ctx;

	lz_buf_addf(b, "%s:%s:%s ", name, old ? old : "-", new ? new : "-");
	return 0;
}

static void
test_refset(void **state)
{
	struct lz_refset a = LZ_REFSET_INIT, b = LZ_REFSET_INIT;
	struct lz_buf d = LZ_BUF_INIT;

	(void)state;
	lz_refset_push(&a, "x", "1");
	lz_refset_push(&a, "y", "1");
	lz_refset_push(&a, "x", "2");	/* the last pushed wins */
	lz_refset_push(&a, "z", "1");
	lz_refset_push(&a, "z", NULL);	/* removed */
	lz_refset_sort(&a);
	assert_int_equal(a.n, 2);
	assert_string_equal(lz_refset_get(&a, "x"), "2");
	lz_refset_copy(&b, &a);
	lz_refset_set(&b, "y", NULL);
	lz_refset_set(&b, "w", "9");
	lz_refset_set(&b, "x", "3");
	assert_int_equal(lz_refset_diff(&a, &b, collect, &d), 0);
	assert_string_equal(d.buf, "w:-:9 x:2:3 y:1:- ");
	lz_refset_release(&a);
	lz_refset_release(&b);
	lz_buf_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_packed),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_racy),
		cmocka_unit_test(test_read_racing_pack),
		cmocka_unit_test(test_refset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
