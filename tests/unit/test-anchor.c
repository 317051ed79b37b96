/*
 * test-anchor.c: State Anchor storage (core/anchor.h, anchor-store.h):
 * injective names ("/usr/local" and "/usr-local" never share a
 * directory), the migration of legacy directories, reading a Domain's
 * anchors, the structural checks, reset (a symlink to a host directory in
 * the upper layer is removed, its target untouched) and, in a child per
 * fault point, that a reset killed anywhere leaves the old or a new empty
 * generation current and that recovery removes the rest (OR-5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/anchor.h"
#include "core/anchor-store.h"
#include "core/fault.h"
#include "tests/unit/testlib.h"

static char base[64], root[128];

static int
setup(void **state)
{
	(void)state;
	snprintf(base, sizeof base, "/tmp/lz-anchor.XXXXXX");
	if (mkdtemp(base) == NULL)
		return -1;
	snprintf(root, sizeof root, "%s/domain", base);
	return mkdir(root, 0700);
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static int
exists(const char *rel)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof p, "%s/%s", root, rel);
	return lstat(p, &st) == 0;
}

static char *
current(const char *name)
{
	static char t[64];
	char p[512];
	ssize_t n;

	snprintf(p, sizeof p, "%s/anchors/%s/current", root, name);
	n = readlink(p, t, sizeof t - 1);
	t[n < 0 ? 0 : n] = '\0';
	return t;
}

static void
test_names(void **state)
{
	char *a, *b, *c, *d;

	(void)state;
	a = lz_anchor_name("/usr/local");
	b = lz_anchor_name("/usr-local");
	c = lz_anchor_name("/a,b:c d%");
	d = lz_anchor_legacy_name("/usr/local");
	assert_string_equal(a, "usr%2Flocal");
	assert_string_equal(b, "usr-local");
	assert_string_not_equal(a, b);
	assert_string_equal(c, "a%2Cb%3Ac%20d%25");
	assert_string_equal(d, "usr-local");
	free(a);
	free(b);
	free(c);
	free(d);
	a = lz_anchor_name("/usr");
	assert_string_equal(a, "usr");
	free(a);
	assert_int_equal(lz_anchor_gen_number("gen-12"), 12);
	assert_int_equal(lz_anchor_gen_number("gen-012"), 0);
	assert_int_equal(lz_anchor_gen_number("gen-"), 0);
	assert_int_equal(lz_anchor_gen_number("gen-1x"), 0);
	assert_int_equal(lz_anchor_gen_number("gen-99999999999"), 0);
}

/* /usr/local and /usr-local get separate directories and records. */
static void
test_prepare_injective(void **state)
{
	struct lz_anchor a, b;

	(void)state;
	assert_int_equal(lz_anchor_prepare(root, "/usr/local", &a, NULL), 0);
	assert_int_equal(lz_anchor_prepare(root, "/usr-local", &b, NULL), 0);
	assert_string_not_equal(a.upper, b.upper);
	assert_int_equal(a.gen, 1);
	assert_true(exists("anchors/usr%2Flocal/gen-1/upper"));
	assert_true(exists("anchors/usr-local/gen-1/work"));
	assert_true(exists("anchors/usr-local/path"));
	assert_string_equal(current("usr%2Flocal"), "gen-1");
	lz_test_put(a.upper, "bin/tool", "tool\n");
	lz_anchor_release(&a);
	lz_anchor_release(&b);
	/* Prepared again: the same directories, the content kept. */
	assert_int_equal(lz_anchor_prepare(root, "/usr/local", &a, NULL), 0);
	assert_true(exists("anchors/usr%2Flocal/gen-1/upper/bin/tool"));
	assert_false(exists("anchors/usr-local/gen-1/upper/bin/tool"));
	lz_anchor_release(&a);
}

/* A legacy directory (no record) moves to the new name of its path. */
static void
test_migration(void **state)
{
	struct lz_anchor a;
	struct lz_anchor_set s;
	char p[512];
	int fd;

	(void)state;
	lz_test_put(root, "anchors/usr-local/gen-1/upper/bin/old", "old\n");
	snprintf(p, sizeof p, "%s/anchors/usr-local/gen-1/work", root);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/anchors/usr-local/current", root);
	assert_int_equal(symlink("gen-1", p), 0);
	lz_test_put(root, "anchors/usr/gen-1/upper/x", "x\n");
	snprintf(p, sizeof p, "%s/anchors/usr/current", root);
	assert_int_equal(symlink("gen-1", p), 0);
	chmod(root, 0700);
	snprintf(p, sizeof p, "%s/anchors", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr-local", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr/gen-1", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr-local/gen-1", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr/gen-1/upper", root);
	chmod(p, 0700);
	snprintf(p, sizeof p, "%s/anchors/usr-local/gen-1/upper", root);
	chmod(p, 0700);

	/* Read before any launch: legacy, paths known only where sure. */
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
	assert_int_equal(s.n, 2);
	assert_non_null(lz_anchor_set_find(&s, "/usr"));
	assert_true(lz_anchor_set_find(&s, "/usr")->legacy);
	assert_null(s.v[1].path);	/* "usr-local": ambiguous */
	lz_anchor_set_release(&s);

	assert_int_equal(lz_anchor_prepare(root, "/usr/local", &a, NULL), 0);
	assert_false(exists("anchors/usr-local"));
	assert_true(exists("anchors/usr%2Flocal/gen-1/upper/bin/old"));
	assert_true(exists("anchors/usr%2Flocal/path"));
	lz_anchor_release(&a);
	assert_int_equal(lz_anchor_prepare(root, "/usr", &a, NULL), 0);
	assert_true(exists("anchors/usr/gen-1/upper/x"));
	assert_true(exists("anchors/usr/path"));
	lz_anchor_release(&a);
	/* /usr-local now is a new anchor of its own. */
	assert_int_equal(lz_anchor_prepare(root, "/usr-local", &a, NULL), 0);
	assert_false(exists("anchors/usr-local/gen-1/upper/bin/old"));
	lz_anchor_release(&a);
	assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
	assert_int_equal(s.n, 3);
	assert_false(lz_anchor_set_find(&s, "/usr/local")->legacy);
	assert_non_null(lz_anchor_set_find(&s, "/usr-local"));
	assert_ptr_equal(lz_anchor_set_cover(&s, "/usr/local/bin"),
	    lz_anchor_set_find(&s, "/usr/local"));
	assert_ptr_equal(lz_anchor_set_cover(&s, "/usr/bin"),
	    lz_anchor_set_find(&s, "/usr"));
	assert_null(lz_anchor_set_cover(&s, "/srv"));
	lz_anchor_set_release(&s);
	close(fd);
}

/* A record naming another path, or a bad "current", is refused. */
static void
test_bad_layout(void **state)
{
	struct lz_anchor a;
	struct lz_anchor_set s;
	struct lz_err e = LZ_ERR_INIT;
	char p[512];
	int fd;

	(void)state;
	assert_int_equal(lz_anchor_prepare(root, "/opt", &a, NULL), 0);
	lz_anchor_release(&a);
	lz_test_put(root, "anchors/opt/path", "/etc\n");
	assert_int_equal(lz_anchor_prepare(root, "/opt", &a, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_test_put(root, "anchors/opt/path", "/opt\n");
	snprintf(p, sizeof p, "%s/anchors/opt/current", root);
	unlink(p);
	assert_int_equal(symlink("../../../etc", p), 0);
	assert_int_equal(lz_anchor_prepare(root, "/opt", &a, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "will not follow"));
	lz_err_release(&e);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].gen, 0);
	assert_non_null(strstr(s.v[0].problem, "state reset /opt"));
	lz_anchor_set_release(&s);
	/* A missing upper layer. */
	unlink(p);
	assert_int_equal(symlink("gen-1", p), 0);
	snprintf(p, sizeof p, "%s/anchors/opt/gen-1/upper", root);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
	assert_non_null(strstr(s.v[0].problem, "upper layer"));
	assert_non_null(strstr(s.v[0].problem, "missing"));
	lz_anchor_set_release(&s);
	close(fd);
}

static int
anchors_fd(void)
{
	char p[512];

	snprintf(p, sizeof p, "%s/anchors", root);
	return open(p, O_RDONLY | O_DIRECTORY);
}

/* Reset: a new empty generation, the old one gone, symlinks' targets kept. */
static void
test_reset(void **state)
{
	struct lz_anchor a;
	struct lz_tokens removed = LZ_TOKENS_INIT;
	char p[512], q[512];
	unsigned gen;
	int afd;

	(void)state;
	assert_int_equal(lz_anchor_prepare(root, "/etc", &a, NULL), 0);
	lz_test_put(a.upper, "passwd", "root:x:0:0\n");
	lz_test_put(base, "host/shadow", "secret\n");
	snprintf(p, sizeof p, "%s/host/shadow", base);
	snprintf(q, sizeof q, "%s/shadow-link", a.upper);
	assert_int_equal(symlink(p, q), 0);
	snprintf(p, sizeof p, "%s/host", base);
	snprintf(q, sizeof q, "%s/hostdir", a.upper);
	assert_int_equal(symlink(p, q), 0);
	lz_anchor_release(&a);
	afd = anchors_fd();
	assert_int_equal(lz_anchor_reset(afd, "etc", "anchors/etc", &gen,
	    NULL), 0);
	assert_int_equal(gen, 2);
	assert_string_equal(current("etc"), "gen-2");
	assert_false(exists("anchors/etc/gen-1"));
	assert_true(exists("anchors/etc/gen-2/upper"));
	assert_true(exists("anchors/etc/gen-2/work"));
	assert_true(exists("anchors/etc/path"));
	snprintf(p, sizeof p, "%s/host/shadow", base);
	assert_int_equal(access(p, F_OK), 0);
	/* Leftovers of an interrupted reset go on recovery. */
	lz_test_put(root, "anchors/etc/gen-7/upper/f", "f\n");
	snprintf(p, sizeof p, "%s/anchors/etc/current.tmp", root);
	assert_int_equal(symlink("gen-7", p), 0);
	assert_int_equal(lz_anchor_recover(afd, "etc", "anchors/etc", &removed,
	    NULL), 0);
	assert_int_equal(removed.n, 2);
	assert_false(exists("anchors/etc/gen-7"));
	assert_false(exists("anchors/etc/current.tmp"));
	assert_true(exists("anchors/etc/gen-2/upper"));
	lz_tokens_release(&removed);
	/* A bad current: recovery refuses, reset repairs. */
	snprintf(p, sizeof p, "%s/anchors/etc/current", root);
	unlink(p);
	assert_int_equal(symlink("/etc", p), 0);
	assert_int_equal(lz_anchor_recover(afd, "etc", "anchors/etc", NULL,
	    NULL), LZ_EUNSAFE);
	assert_int_equal(lz_anchor_reset(afd, "etc", "anchors/etc", &gen,
	    NULL), 0);
	assert_int_equal(gen, 3);
	assert_string_equal(current("etc"), "gen-3");
	assert_false(exists("anchors/etc/gen-2"));
	close(afd);
}

/* The checks of "state verify". */
static void
test_check(void **state)
{
	struct lz_tokens problems = LZ_TOKENS_INIT, notes = LZ_TOKENS_INIT;
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_anchor_set s;
	struct lz_anchor a;
	char line[1024];
	int fd, afd;

	(void)state;
	assert_int_equal(lz_anchor_prepare(root, "/var", &a, NULL), 0);
	lz_anchor_release(&a);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	afd = anchors_fd();
	assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
	lz_anchor_check(afd, &s.v[0], NULL, root, &problems, &notes);
	assert_int_equal(problems.n, 0);
	assert_int_equal(notes.n, 0);
	/* Mounted merged, a non-empty lower-empty. */
	snprintf(line, sizeof line, "90 43 0:50 / %s/anchors/var/merged rw - "
	    "overlay lzanchor rw,userxattr\n", root);
	assert_int_equal(lz_mountinfo_parse(line, &mi, NULL), 0);
	lz_test_put(root, "anchors/var/lower-empty/x", "x\n");
	lz_anchor_check(afd, &s.v[0], &mi, root, &problems, &notes);
	assert_int_equal(problems.n, 2);
	assert_non_null(strstr(problems.v[0], "lower-empty"));
	assert_non_null(strstr(problems.v[1], "mount is there"));
	lz_tokens_release(&problems);
	lz_mountinfo_release(&mi);
	lz_anchor_set_release(&s);
	close(afd);
	close(fd);
}

#ifdef LZ_FAULTS
/*
 * For every fault point of a reset: a child resets and is killed there;
 * "current" then names the old generation with its content or a new empty
 * one, never anything else, and recovery leaves exactly that one.
 */
static void
test_reset_killed(void **state)
{
	struct lz_anchor a;
	struct lz_anchor_set s;
	char p[512];
	const char *point, *cur;
	unsigned gen;
	int i, status, afd, fd;
	pid_t pid;

	(void)state;
	for (i = 0; (point = lz_fault_names[i]) != NULL; i++) {
		if (strncmp(point, "reset-", 6) != 0)
			continue;
		assert_int_equal(lz_anchor_prepare(root, "/usr", &a, NULL), 0);
		lz_test_put(a.upper, "bin/tool", "tool\n");
		lz_test_put(a.upper, "lib/a/b", "b\n");
		lz_anchor_release(&a);
		pid = fork();
		if (pid == 0) {
			setenv(LZ_FAULT_ENV, point, 1);
			afd = anchors_fd();
			lz_anchor_reset(afd, "usr", "anchors/usr", &gen, NULL);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		cur = current("usr");
		snprintf(p, sizeof p, "anchors/usr/%s/upper/bin/tool", cur);
		if (strcmp(cur, "gen-1") == 0)
			assert_true(exists(p));	/* the prior one, whole */
		else {
			assert_string_equal(cur, "gen-2");
			snprintf(p, sizeof p, "anchors/usr/gen-2/upper");
			assert_true(exists(p));
			snprintf(p, sizeof p, "anchors/usr/gen-2/work");
			assert_true(exists(p));
			snprintf(p, sizeof p, "anchors/usr/gen-2/upper/bin");
			assert_false(exists(p));	/* empty */
		}
		afd = anchors_fd();
		assert_int_equal(lz_anchor_recover(afd, "usr", "anchors/usr",
		    NULL, NULL), 0);
		fd = open(root, O_RDONLY | O_DIRECTORY);
		assert_int_equal(lz_anchor_set_read(fd, NULL, &s, NULL), 0);
		assert_int_equal(s.v[0].leftovers.n, 0);
		assert_null(s.v[0].problem);
		lz_anchor_set_release(&s);
		close(fd);
		close(afd);
		snprintf(p, sizeof p, "%s/anchors", root);
		lz_test_rmrf(p);
	}
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_prepare_injective, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_migration, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bad_layout, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check, setup, teardown),
#ifdef LZ_FAULTS
		cmocka_unit_test_setup_teardown(test_reset_killed, setup,
		    teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
