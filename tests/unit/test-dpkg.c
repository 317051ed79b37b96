/*
 * test-dpkg.c: dpkg status parsing (installed only, multi-arch, folded
 * fields, missing final newline) and the package difference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/dpkg.h"

static const char image[] =
    "Package: bash\nStatus: install ok installed\nVersion: 5.2-2\n"
    "Architecture: amd64\nDescription: shell\n folded line\n .\n\n"
    "Package: less\nStatus: install ok installed\nArchitecture: amd64\n"
    "Version: 590-2\n\n"
    "Package: oldpkg\nStatus: deinstall ok config-files\nVersion: 1\n\n"
    "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\n"
    "Version: 2.36\n";

static const char now[] =
    "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\n"
    "Version: 2.36\n\n"
    "Package: libc6\nStatus: install ok installed\nArchitecture: i386\n"
    "Version: 2.36\n\n"
    "Package: bash\nStatus: hold ok installed\nVersion: 5.2-3\n"
    "Architecture: amd64\n\n"
    "Package: lzhello\nStatus: install ok installed\nVersion: 1.0\n"
    "Architecture: all\n\n"
    "Package: half\nStatus: install ok half-configured\nVersion: 1\n";

static const char dup[] =
    "Package: a\nStatus: install ok installed\n\n"
    "Package: a\nStatus: install ok installed\nVersion: 2\n\n"
    "Package: \nStatus: install ok installed\n";

static void
test_parse(void **state)
{
	struct lz_dpkg d = LZ_DPKG_INIT;

	(void)state;
	assert_int_equal(lz_dpkg_parse(image, strlen(image), &d, NULL), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.v[0].name, "bash");
	assert_string_equal(d.v[0].version, "5.2-2");
	assert_string_equal(d.v[1].name, "less");
	assert_string_equal(d.v[2].name, "libc6");
	lz_dpkg_release(&d);
	assert_int_equal(lz_dpkg_parse("", 0, &d, NULL), 0);
	assert_int_equal(d.n, 0);
	/* Twice listed counts once; an empty name not at all. */
	assert_int_equal(lz_dpkg_parse(dup, strlen(dup), &d, NULL), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].name, "a");
	lz_dpkg_release(&d);
}

static void
test_diff(void **state)
{
	struct lz_dpkg a = LZ_DPKG_INIT, b = LZ_DPKG_INIT;
	struct lz_dpkg add = LZ_DPKG_INIT, rm = LZ_DPKG_INIT, ch = LZ_DPKG_INIT;

	(void)state;
	assert_int_equal(lz_dpkg_parse(image, strlen(image), &a, NULL), 0);
	assert_int_equal(lz_dpkg_parse(now, strlen(now), &b, NULL), 0);
	lz_dpkg_diff(&a, &b, &add, &rm, &ch);
	assert_int_equal(add.n, 2);
	assert_string_equal(add.v[0].name, "libc6");
	assert_string_equal(add.v[0].arch, "i386");
	assert_string_equal(add.v[1].name, "lzhello");
	assert_int_equal(rm.n, 1);
	assert_string_equal(rm.v[0].name, "less");
	assert_int_equal(ch.n, 1);
	assert_string_equal(ch.v[0].name, "bash");
	assert_string_equal(ch.v[0].old, "5.2-2");
	assert_string_equal(ch.v[0].version, "5.2-3");
	lz_dpkg_release(&a);
	lz_dpkg_release(&b);
	lz_dpkg_release(&add);
	lz_dpkg_release(&rm);
	lz_dpkg_release(&ch);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
