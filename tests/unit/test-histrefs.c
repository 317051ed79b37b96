/*
 * test-histrefs.c: a git directory's refs read without trusting it
 * (histrefs.h): git's ref name rules, loose ref contents, packed-refs
 * lines (header, peeled, malformed counted with the first one's number),
 * and a real directory: loose refs win over packed ones, a symlink and a
 * FIFO among the refs left out and said (the FIFO is never opened for
 * reading: the read returns), a HEAD symlink, a packed-refs too large
 * (the last good read stands, partial said) or malformed; and the
 * refset's sort, set and diff.
 */
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

#include "core/histrefs.h"
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
		cmocka_unit_test(test_refset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
