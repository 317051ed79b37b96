/*
 * test-escape.c: the raw session's detach key across reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ui/escape.h"

static void
test_escape(void **state)
{
	struct lz_escape e = { 0 };
	struct lz_buf b = LZ_BUF_INIT;

	(void)state;
	assert_int_equal(lz_escape_filter(&e, "ls\r", 3, &b), 0);
	assert_string_equal(b.buf, "ls\r");
	lz_buf_reset(&b);
	/* Escape, escape: one literal escape byte. */
	assert_int_equal(lz_escape_filter(&e, "a\x1d\x1d" "b", 4, &b), 0);
	assert_memory_equal(b.buf, "a\x1d" "b", 3);
	assert_int_equal(b.len, 3);
	lz_buf_reset(&b);
	/* Escape then another key: both go through. */
	assert_int_equal(lz_escape_filter(&e, "\x1dx", 2, &b), 0);
	assert_memory_equal(b.buf, "\x1dx", 2);
	lz_buf_reset(&b);
	/* Split across reads: escape now, 'd' next time detaches. */
	assert_int_equal(lz_escape_filter(&e, "q\x1d", 2, &b), 0);
	assert_string_equal(b.buf, "q");
	assert_true(e.pending);
	assert_int_equal(lz_escape_filter(&e, "dzz", 3, &b), 1);
	assert_string_equal(b.buf, "q");
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
