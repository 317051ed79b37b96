/*
 * test-packidx.c: pack indexes read without mapping them (packidx.h): a
 * real index git wrote (every object of the repository found, others
 * not), its pack and index checksums (objcheck.h), and the damaged
 * forms refused: cut short, a byte flipped in the fan-out table, names
 * out of order, another version, a name that is not a pack index's.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/objcheck.h"
#include "core/packidx.h"
#include "tests/unit/testlib.h"

static char base[] = "/tmp/lz-test-packidx-XXXXXX";
static char ws[128], packdir[300], idxname[300], path[700];
static unsigned char *idx;
static size_t idxlen;

static int
setup(void **state)
{
	char *init[] = { "git", "init", "-q", ws, NULL };
	char *gc[] = { "git", "-C", ws, "gc", "-q", NULL };
	char *cfg[] = { "git", "-C", ws, "-c", "user.name=t", "-c",
	    "user.email=t@e.invalid", "commit", "-q", "--allow-empty", "-m",
	    "one", NULL };
	struct dirent *de;
	DIR *d;
	FILE *f;
	int i;

	(void)state;
	if (mkdtemp(base) == NULL || lz_test_git_home(base) != 0)
		return -1;
	snprintf(ws, sizeof ws, "%s/ws", base);
	lz_test_run(init);
	for (i = 0; i < 3; i++)
		lz_test_run(cfg);
	lz_test_run(gc);
	snprintf(packdir, sizeof packdir, "%s/.git/objects/pack", ws);
	if ((d = opendir(packdir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strstr(de->d_name, ".idx") != NULL)
			snprintf(idxname, sizeof idxname, "%s", de->d_name);
	closedir(d);
	snprintf(path, sizeof path, "%s/%s", packdir, idxname);
	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	idx = malloc(1 << 20);
	idxlen = fread(idx, 1, 1 << 20, f);
	fclose(f);
	return idxlen > 0 ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	free(idx);
	lz_test_rmrf(base);
	return 0;
}

static unsigned char *
copy(void)
{
	unsigned char *c = malloc(idxlen);

	memcpy(c, idx, idxlen);
	return c;
}

static void
test_real(void **state)
{
	struct lz_packidx x;
	struct lz_err e = LZ_ERR_INIT;
	unsigned char oid[20];
	char hex[41];
	int fd = open(packdir, O_RDONLY | O_DIRECTORY);

	(void)state;
	assert_int_equal(lz_packidx_read(fd, idxname, &x, &e), 0);
	assert_int_equal(x.n, 4);	/* three commits, the empty tree */
	lz_hex(lz_packidx_name(&x, 0), 20, hex);
	assert_int_equal(lz_unhex(hex, 20, oid), 0);
	assert_true(lz_packidx_has(&x, oid));
	oid[19] ^= 1;
	assert_false(lz_packidx_has(&x, oid));
	lz_packidx_release(&x);
	/* The files' own checksums. */
	assert_int_equal(lz_objcheck_pack(fd, idxname), LZ_OBJCHECK_OK);
	snprintf(hex, sizeof hex, "%.40s", idxname + 5);
	{
		char pack[128];

		snprintf(pack, sizeof pack, "pack-%s.pack", hex);
		assert_int_equal(lz_objcheck_pack(fd, pack), LZ_OBJCHECK_OK);
	}
	assert_int_equal(lz_packidx_read(fd, "README", &x, &e), LZ_EINVAL);
	lz_err_release(&e);
	close(fd);
}

static void
test_damaged(void **state)
{
	struct lz_packidx x;
	struct lz_err e = LZ_ERR_INIT;
	unsigned char *c;

	(void)state;
	assert_int_equal(lz_packidx_parse(copy(), idxlen - 1, 20, &x, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	c = copy();
	c[8 + 4 * 200 + 3] = 0xff;	/* fan-out no longer ascending */
	assert_int_equal(lz_packidx_parse(c, idxlen, 20, &x, &e), LZ_EINVAL);
	lz_err_release(&e);
	c = copy();
	c[7] = 3;			/* version 3 */
	assert_int_equal(lz_packidx_parse(c, idxlen, 20, &x, &e), LZ_EINVAL);
	lz_err_release(&e);
	c = copy();
	/* Swap the first two names: out of order. */
	{
		unsigned char t[20];

		memcpy(t, c + 8 + 1024, 20);
		memcpy(c + 8 + 1024, c + 8 + 1024 + 20, 20);
		memcpy(c + 8 + 1024 + 20, t, 20);
	}
	assert_int_equal(lz_packidx_parse(c, idxlen, 20, &x, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_packidx_parse(copy(), idxlen, 32, &x, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_packidx_parse(copy(), idxlen, 20, &x, &e), 0);
	lz_packidx_release(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
