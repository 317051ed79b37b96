/*
 * test-domain-meta.c: domain.json (core/domain-meta.h): written and read
 * back, "created" kept across launches, a record of another Domain or a
 * malformed one ignored with a reason; the list of Domain IDs; opening a
 * Domain Root by ID (malformed, absent).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/domain-meta.h"
#include "tests/unit/testlib.h"

static char base[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(base, sizeof base, "/tmp/lz-meta.XXXXXX");
	return mkdtemp(base) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(base);
	return 0;
}

static void
test_write_read(void **state)
{
	struct lz_domain d;
	struct lz_domain_meta m;
	char dir[256], p[300];
	int fd;

	(void)state;
	memset(&d, 0, sizeof d);
	lz_domain_id("default", "/home/u/proj", d.id);
	snprintf(dir, sizeof dir, "%s/domains", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof dir, "%s/domains/%s", base, d.id);
	assert_int_equal(mkdir(dir, 0700), 0);
	d.root = dir;
	d.profile = "default";
	d.workspace = "/home/u/proj";
	assert_int_equal(lz_domain_meta_write(&d, "img:1", 2000000000LL, NULL),
	    0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	lz_domain_meta_read(fd, d.id, &m);
	assert_null(m.problem);
	assert_string_equal(m.profile, "default");
	assert_string_equal(m.workspace, "/home/u/proj");
	assert_string_equal(m.image, "img:1");
	assert_int_equal(m.last_used, 2000000000LL);
	assert_true(m.created > 0 && m.created <= 2000000000LL);
	lz_domain_meta_release(&m);
	/* A later launch keeps "created". */
	assert_int_equal(lz_domain_meta_write(&d, "img:2", 2000000100LL, NULL),
	    0);
	lz_domain_meta_read(fd, d.id, &m);
	assert_int_equal(m.last_used, 2000000100LL);
	assert_string_equal(m.image, "img:2");
	lz_domain_meta_release(&m);
	/* Read under another ID: not this Domain's record. */
	lz_domain_meta_read(fd, "0000000000000000", &m);
	assert_null(m.profile);
	assert_non_null(strstr(m.problem, "another Domain ID"));
	lz_domain_meta_release(&m);
	snprintf(p, sizeof p, "%s/domain.json", dir);
	lz_test_put(dir, "domain.json", "{\"profile\": 1}");
	chmod(p, 0600);
	lz_domain_meta_read(fd, d.id, &m);
	assert_null(m.profile);
	assert_non_null(m.problem);
	lz_domain_meta_release(&m);
	unlink(p);
	lz_domain_meta_read(fd, d.id, &m);
	assert_null(m.problem);		/* none: unknown, not a problem */
	assert_null(m.profile);
	lz_domain_meta_release(&m);
	close(fd);
}

static void
test_list_open(void **state)
{
	struct lz_tokens ids = LZ_TOKENS_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char dir[256];
	int fd;

	(void)state;
	assert_int_equal(lz_domain_list(base, &ids, NULL), 0);
	assert_int_equal(ids.n, 0);
	chmod(base, 0700);
	snprintf(dir, sizeof dir, "%s/domains", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof dir, "%s/domains/ffffffffffffffff", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof dir, "%s/domains/0123456789abcdef", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof dir, "%s/domains/not-an-id", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(lz_domain_list(base, &ids, NULL), 0);
	assert_int_equal(ids.n, 2);
	assert_string_equal(ids.v[0], "0123456789abcdef");
	lz_tokens_release(&ids);
	fd = lz_domain_root_open(base, "0123456789abcdef", NULL);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(lz_domain_root_open(base, "0123456789abcdee", &e),
	    LZ_ENOTFOUND);
	assert_non_null(strstr(e.msg, "lazaret state list"));
	lz_err_release(&e);
	assert_int_equal(lz_domain_root_open(base, "../../etc", &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_domain_root_open(base, "0123456789ABCDEF", &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_true(lz_domain_id_valid("0123456789abcdef"));
	assert_false(lz_domain_id_valid("0123456789abcde"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_read, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_open, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
