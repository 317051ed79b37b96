/*
 * test-anchor-mount.c: the mountinfo parser (fields, optional fields,
 * octal escapes, malformed lines), option lookup, the topmost mount at a
 * path, and the image lower-layer lookup (openat2 stays inside the image
 * root). Mounting itself needs podman's namespace: the integration test
 * covers it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/anchor-mount.h"

static const char sample[] =
    "43 42 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
    "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 shared:2 - ext3 "
    "/dev/root rw,errors=continue\n"
    "90 43 0:50 / /d/anchors/usr/merged rw,relatime - overlay lzanchor "
    "rw,lowerdir=/img/usr,upperdir=/d/anchors/usr/gen-1/upper,"
    "workdir=/d/anchors/usr/gen-1/work,userxattr\n"
    "91 90 0:51 / /d/anchors/usr/merged rw,relatime - overlay lzanchor "
    "rw,lowerdir=/img/usr,upperdir=/d/a\\054b/up,workdir=/w,userxattr\n"
    "92 87 0:4 net:[4026532288] /run/user/1002/netns/netns-x rw shared:1 "
    "- nsfs nsfs rw\n";

static void
test_parse(void **state)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_err e = LZ_ERR_INIT;
	const struct lz_mountinfo_entry *top;
	char *v;

	(void)state;
	assert_int_equal(lz_mountinfo_parse(sample, &mi, &e), 0);
	assert_int_equal(mi.n, 5);
	assert_string_equal(mi.v[4].root, "net:[4026532288]");
	assert_int_equal(mi.v[0].id, 43);
	assert_int_equal(mi.v[0].parent, 42);
	assert_string_equal(mi.v[0].mountpoint, "/");
	assert_string_equal(mi.v[0].fstype, "ext4");
	assert_string_equal(mi.v[1].mountpoint, "/mnt two");
	assert_string_equal(mi.v[1].root, "/mnt1");
	assert_string_equal(mi.v[1].fstype, "ext3");
	assert_string_equal(mi.v[1].source, "/dev/root");
	assert_string_equal(mi.v[1].superopts, "rw,errors=continue");
	/* The topmost of two stacked mounts is the later line. */
	top = lz_mountinfo_top(&mi, "/d/anchors/usr/merged");
	assert_non_null(top);
	assert_int_equal(top->id, 91);
	v = lz_mountinfo_option(top->superopts, "upperdir");
	assert_string_equal(v, "/d/a,b/up");
	free(v);
	v = lz_mountinfo_option(mi.v[2].superopts, "upperdir");
	assert_string_equal(v, "/d/anchors/usr/gen-1/upper");
	free(v);
	assert_null(lz_mountinfo_option(mi.v[2].superopts, "upper"));
	assert_null(lz_mountinfo_option(mi.v[2].superopts, "userxattr"));
	assert_null(lz_mountinfo_top(&mi, "/d/anchors/usr"));
	lz_mountinfo_release(&mi);
	assert_int_equal(mi.n, 0);
}

static void
test_parse_bad(void **state)
{
	static const char *bad[] = {
		"43 42 254:0 / / rw,relatime ext4 /dev/vda rw\n",
		"x 42 254:0 / / rw - ext4 /dev/vda rw\n",
		"43 42 254:0 rel / rw - ext4 /dev/vda rw\n",
		"43 42 254:0 / / rw - ext4 /dev/vda rw extra\n",
		"43 42 254:0 / /\n",
		"43 42 254:0 net:[x] / rw - nsfs nsfs rw\n",
		"43 42 254:0 net:[1]x / rw - nsfs nsfs rw\n",
	};
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_mountinfo_parse(bad[i], &mi, &e),
		    LZ_EINVAL);
		assert_non_null(strstr(e.msg, "line 1"));
		assert_int_equal(mi.n, 0);
		lz_err_release(&e);
	}
	/* The error names the line and drops what was parsed before. */
	assert_int_equal(lz_mountinfo_parse("43 42 254:0 / / rw - ext4 d rw\n"
	    "\nbroken\n", &mi, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "line 3"));
	assert_int_equal(mi.n, 0);
	lz_err_release(&e);
	assert_int_equal(lz_mountinfo_parse("", &mi, &e), 0);
	assert_int_equal(mi.n, 0);
}

static void
test_unescape(void **state)
{
	char *s;

	(void)state;
	s = lz_mountinfo_unescape("a\\040b\\011c\\134d\\012");
	assert_string_equal(s, "a b\tc\\d\n");
	free(s);
	s = lz_mountinfo_unescape("\\9xy\\04");
	assert_string_equal(s, "\\9xy\\04");
	free(s);
	s = lz_mountinfo_unescape("");
	assert_string_equal(s, "");
	free(s);
}

static void
test_read_self(void **state)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_mountinfo_read(&mi, &e), 0);
	assert_true(mi.n > 0);
	assert_non_null(lz_mountinfo_top(&mi, "/proc"));
	lz_mountinfo_release(&mi);
}

static void
test_lower(void **state)
{
	char tmpl[] = "/tmp/lz-test-anchor-XXXXXX", *root, *p, *out = NULL;
	char buf[512];
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	root = mkdtemp(tmpl);
	assert_non_null(root);
	snprintf(buf, sizeof buf, "%s/usr", root);
	assert_int_equal(mkdir(buf, 0700), 0);
	snprintf(buf, sizeof buf, "%s/usr/local", root);
	assert_int_equal(mkdir(buf, 0700), 0);
	snprintf(buf, sizeof buf, "%s/file", root);
	fclose(fopen(buf, "w"));
	/* An absolute symlink resolves inside the image, not on the host. */
	snprintf(buf, sizeof buf, "%s/opt", root);
	assert_int_equal(symlink("/usr/local", buf), 0);
	snprintf(buf, sizeof buf, "%s/etc", root);
	assert_int_equal(symlink("/etc", buf), 0);

	assert_int_equal(lz_anchor_lower(root, "/usr/local", "/empty", &out,
	    &e), 0);
	p = lz_xasprintf("%s/usr/local", root);
	assert_string_equal(out, p);
	free(out);
	assert_int_equal(lz_anchor_lower(root, "/opt", "/empty", &out, &e), 0);
	assert_string_equal(out, p);
	free(out);
	free(p);
	/* "/etc" -> "/etc" inside the root: a loop-free miss, not the host. */
	out = NULL;
	if (lz_anchor_lower(root, "/etc", "/empty", &out, &e) == 0)
		assert_string_not_equal(out, "/etc");
	lz_err_release(&e);
	free(out);
	assert_int_equal(lz_anchor_lower(root, "/root", "/empty", &out, &e),
	    0);
	assert_string_equal(out, "/empty");
	free(out);
	assert_int_equal(lz_anchor_lower(root, "/file", "/empty", &out, &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not a directory"));
	lz_err_release(&e);
	assert_int_equal(lz_anchor_lower(root, "/", "/empty", &out, &e),
	    LZ_EINVAL);
	lz_err_release(&e);

	snprintf(buf, sizeof buf, "%s/etc", root);
	unlink(buf);
	snprintf(buf, sizeof buf, "%s/opt", root);
	unlink(buf);
	snprintf(buf, sizeof buf, "%s/file", root);
	unlink(buf);
	snprintf(buf, sizeof buf, "%s/usr/local", root);
	rmdir(buf);
	snprintf(buf, sizeof buf, "%s/usr", root);
	rmdir(buf);
	rmdir(root);
}

static void
test_in_userns(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	int r;

	(void)state;
	r = lz_anchor_in_userns(&e);
	assert_true(r == 0 || r == 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_read_self),
		cmocka_unit_test(test_lower),
		cmocka_unit_test(test_in_userns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
