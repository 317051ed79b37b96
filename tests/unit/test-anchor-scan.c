/*
 * test-anchor-scan.c: an upper layer against its lower layer, as
 * overlayfs merges them (core/anchor-scan.h): added, modified, deleted
 * (a 0:0 character device), opaque directories, new trees as one group,
 * symlinks reported and never followed, notes for device nodes and
 * setuid files, and the merged-view lookup (whiteouts, opaque
 * directories, symlinks on the way). Runs as root (mknod).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/anchor-scan.h"
#include "tests/unit/testlib.h"

static char base[64];
static int upfd, lowfd;

static void
put(const char *rel, const char *text)
{
	lz_test_put(base, rel, text);
}

static void
p(char *buf, size_t n, const char *rel)
{
	snprintf(buf, n, "%s/%s", base, rel);
}

static int
setup(void **state)
{
	char b[512];

	(void)state;
	snprintf(base, sizeof base, "/tmp/lz-scan.XXXXXX");
	if (mkdtemp(base) == NULL)
		return -1;
	/* The image's directory (lower). */
	put("lower/bin/ls", "ls\n");
	put("lower/bin/cat", "cat\n");
	put("lower/etc/a", "a\n");
	put("lower/share/doc/x/README", "x\n");
	put("lower/share/doc/y/README", "y\n");
	p(b, sizeof b, "lower/sbin");
	symlink("bin", b);
	/* The upper layer. */
	put("upper/bin/ls", "new ls\n");		/* modified */
	put("upper/bin/lzhello", "hello\n");		/* added */
	put("upper/etc/b", "b\n");			/* in an opaque dir */
	put("upper/new/tree/f1", "1\n");		/* a new tree */
	put("upper/new/tree/f2", "2\n");
	put("upper/share/doc/placeholder", "");
	p(b, sizeof b, "upper/share/doc/placeholder");
	unlink(b);
	p(b, sizeof b, "upper/share/doc/x");
	if (mknod(b, S_IFCHR, makedev(0, 0)) != 0)	/* deleted */
		return -1;
	p(b, sizeof b, "upper/etc");
	if (setxattr(b, "user.overlay.opaque", "y", 1, 0) != 0)
		return -1;
	p(b, sizeof b, "upper/evil");
	symlink("/etc/shadow", b);			/* added, a link */
	p(b, sizeof b, "upper/null");
	mknod(b, S_IFCHR | 0666, makedev(1, 3));	/* a device node */
	put("upper/bin/suid", "s\n");
	p(b, sizeof b, "upper/bin/suid");
	chmod(b, 04755);
	p(b, sizeof b, "upper");
	upfd = open(b, O_RDONLY | O_DIRECTORY);
	p(b, sizeof b, "lower");
	lowfd = open(b, O_RDONLY | O_DIRECTORY);
	return upfd < 0 || lowfd < 0 ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	close(upfd);
	close(lowfd);
	lz_test_rmrf(base);
	return 0;
}

static const struct lz_change *
find(const struct lz_scan *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].path, path) == 0)
			return &s->v[i];
	}
	return NULL;
}

static const struct lz_scan_group *
group(const struct lz_scan *s, const char *dir)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++) {
		if (strcmp(s->groups[i].dir, dir) == 0)
			return &s->groups[i];
	}
	return NULL;
}

static void
test_classify(void **state)
{
	struct lz_scan s;
	const struct lz_change *c;
	const struct lz_scan_group *g;
	size_t i;
	int saw_dev = 0, saw_suid = 0;

	(void)state;
	assert_int_equal(lz_scan_tree(upfd, lowfd, "", LZ_SCAN_KEEP |
	    LZ_SCAN_GROUPS | LZ_SCAN_XATTRS, &s, NULL), 0);
	assert_int_equal(find(&s, "bin/ls")->kind, LZ_CHANGE_MODIFIED);
	assert_int_equal(find(&s, "bin/lzhello")->kind, LZ_CHANGE_ADDED);
	c = find(&s, "share/doc/x");
	assert_int_equal(c->kind, LZ_CHANGE_DELETED);
	assert_int_equal(c->type, 'd');
	assert_int_equal(find(&s, "etc")->kind, LZ_CHANGE_OPAQUE);
	assert_int_equal(find(&s, "etc/b")->kind, LZ_CHANGE_ADDED);
	assert_int_equal(find(&s, "new")->kind, LZ_CHANGE_ADDED);
	assert_int_equal(find(&s, "new/tree/f2")->kind, LZ_CHANGE_ADDED);
	c = find(&s, "evil");
	assert_int_equal(c->type, 'l');
	assert_string_equal(c->link, "/etc/shadow");
	assert_null(find(&s, "bin"));		/* in both: no change */
	assert_null(find(&s, "share/doc/y"));
	assert_int_equal(s.count[LZ_CHANGE_DELETED], 1);
	assert_int_equal(s.count[LZ_CHANGE_OPAQUE], 1);
	assert_int_equal(s.count[LZ_CHANGE_MODIFIED], 1);
	/* bin/lzhello bin/suid etc/b new new/tree f1 f2 evil null */
	assert_int_equal(s.count[LZ_CHANGE_ADDED], 9);
	/* Paths come out sorted. */
	for (i = 1; i < s.n; i++)
		assert_true(strcmp(s.v[i - 1].path, s.v[i].path) < 0);
	assert_string_equal(s.v[0].path, "bin/ls");
	/* Groups: the new tree is one, with its files. */
	g = group(&s, "new");
	assert_non_null(g);
	assert_int_equal(g->kind, 'A');
	assert_int_equal(g->files[LZ_CHANGE_ADDED], 2);
	assert_int_equal(g->dirs, 1);
	g = group(&s, "bin");
	assert_int_equal(g->kind, 'E');
	assert_int_equal(g->files[LZ_CHANGE_ADDED], 2);
	assert_int_equal(g->files[LZ_CHANGE_MODIFIED], 1);
	assert_int_equal(group(&s, "etc")->kind, 'O');
	assert_int_equal(group(&s, "share/doc")->files[LZ_CHANGE_DELETED], 1);
	for (i = 0; i < s.nnotes; i++) {
		saw_dev |= strcmp(s.notes[i].path, "null") == 0 &&
		    strstr(s.notes[i].what, "device node (c 1:3)") != NULL;
		saw_suid |= strcmp(s.notes[i].path, "bin/suid") == 0 &&
		    strstr(s.notes[i].what, "setuid") != NULL;
	}
	assert_true(saw_dev && saw_suid);
	assert_int_equal(s.nnotes, 2);	/* the whiteout is no note */
	for (i = 0; i < s.ntops; i++) {
		if (strcmp(s.tops[i].name, "bin") == 0)
			assert_int_equal(s.tops[i].count[LZ_CHANGE_ADDED], 2);
	}
	lz_scan_release(&s);
	/* No lower: everything is added. */
	assert_int_equal(lz_scan_tree(upfd, -1, "", 0, &s, NULL), 0);
	assert_int_equal(s.count[LZ_CHANGE_MODIFIED], 0);
	assert_int_equal(s.n, 0);		/* not kept */
	assert_true(s.entries > 10);
	lz_scan_release(&s);
}

static void
test_lookup(void **state)
{
	int where, u, l;
	char *link;

	(void)state;
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "bin/ls", &where, &u, &l,
	    NULL, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_UPPER);
	assert_true(u >= 0 && l < 0);	/* the upper file hides the lower */
	close(u);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "bin", &where, &u, &l,
	    NULL, NULL), 0);
	assert_true(u >= 0 && l >= 0);	/* merged directories */
	close(u);
	close(l);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "bin/cat", &where, &u, &l,
	    NULL, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_LOWER);
	assert_true(u < 0 && l >= 0);
	close(l);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "share/doc/x/README",
	    &where, &u, &l, NULL, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_DELETED);
	/* An opaque directory hides the lower's entries. */
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "etc/a", &where, &u, &l,
	    NULL, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_NONE);
	/* Symlinks, in either layer, are reported, never followed. */
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "evil", &where, &u, &l,
	    &link, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_SYMLINK);
	assert_string_equal(link, "/etc/shadow");
	free(link);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "sbin/ls", &where, &u,
	    &l, &link, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_SYMLINK);
	assert_string_equal(link, "bin");
	free(link);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "nope/x", &where, &u, &l,
	    NULL, NULL), 0);
	assert_int_equal(where, LZ_LOOKUP_NONE);
	assert_int_equal(lz_scan_lookup(upfd, lowfd, "bin/../etc", &where, &u,
	    &l, NULL, NULL), LZ_EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_lookup),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
