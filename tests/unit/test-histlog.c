/*
 * test-histlog.c: the Git history guard's ref log (histlog.h): names
 * encoded with one spelling each and decoded back byte for byte,
 * records to lines and back, every field's bad forms refused, a file
 * parsed with its bad lines named and a cut last line ignored, appended
 * (with its header) and refused past LZ_HISTLOG_MAX, compacted with the
 * same state, replayed to a time, and the times "--to" takes.
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

#include "core/histlog.h"
#include "tests/unit/testlib.h"

#define OID_A "1111111111111111111111111111111111111111"
#define OID_B "2222222222222222222222222222222222222222"
#define OID_S "3333333333333333333333333333333333333333333333333333333333333333"

static void
test_names(void **state)
{
	static const char *const names[] = { "refs/heads/main",
	    "refs/heads/a b", "refs/heads/50%", "refs/heads/x\ny",
	    "refs/heads/\x1b[31m", "refs/heads/caf\xc3\xa9",
	    "refs/heads/\xff\x80", "HEAD" };
	static const char *const bad[] = { "a b", "%2f", "%41", "%00",
	    "%4", "%", "", "a\x7f", "%2G" };
	struct lz_buf b = LZ_BUF_INIT;
	char *out;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof names / sizeof *names; i++) {
		lz_buf_reset(&b);
		lz_histname_encode(&b, names[i]);
		assert_null(strchr(b.buf, ' '));
		assert_null(strchr(b.buf, '\n'));
		assert_int_equal(lz_histname_decode(b.buf, b.len, &out), 0);
		assert_string_equal(out, names[i]);
		free(out);
	}
	lz_buf_reset(&b);
	lz_histname_encode(&b, "refs/heads/a b%\n");
	assert_string_equal(b.buf, "refs/heads/a%20b%25%0A");
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_histname_decode(bad[i], strlen(bad[i]),
		    &out), LZ_EINVAL);
		assert_null(out);
	}
	lz_buf_release(&b);
}

static void
test_records(void **state)
{
	struct lz_histrec r = { 1764580923123, LZ_HIST_DOMAIN, '!',
	    "refs/heads/a b", OID_A, NULL }, d;
	struct lz_histrec s = { 0, LZ_HIST_RESTORE, '~', "HEAD",
	    "ref:refs/heads/main", OID_S };
	static const char *const bad[] = {
		"1 domain ! refs/heads/x - -  ",
		"01 domain ! refs/heads/x - -",
		"1 guest ! refs/heads/x - -",
		"1 domain x refs/heads/x - -",
		"1 domain !! refs/heads/x - -",
		"1 domain ! refs/heads/x - 12",
		"1 domain ! refs/heads/x " OID_A "A -",
		"1 domain ! refs/heads/x ref: -",
		"1 domain ! refs/heads/x -",
		"1 domain ! refs/heads/x - - extra",
		"x domain ! refs/heads/x - -",
		"1234567890123456789 domain ! refs/heads/x - -",
	};
	struct lz_err e = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	size_t i;

	(void)state;
	lz_histrec_encode(&b, &r);
	assert_string_equal(b.buf, "1764580923123 domain ! refs/heads/a%20b "
	    OID_A " -\n");
	assert_int_equal(lz_histrec_decode(b.buf, b.len - 1, &d, &e), 0);
	assert_true(d.ms == r.ms && d.who == r.who && d.kind == '!');
	assert_string_equal(d.name, "refs/heads/a b");
	assert_string_equal(d.old, OID_A);
	assert_null(d.new);
	lz_histrec_release(&d);
	lz_buf_reset(&b);
	lz_histrec_encode(&b, &s);
	assert_string_equal(b.buf, "0 restore ~ HEAD ref:refs/heads/main "
	    OID_S "\n");
	assert_int_equal(lz_histrec_decode(b.buf, b.len - 1, &d, &e), 0);
	assert_string_equal(d.old, "ref:refs/heads/main");
	lz_histrec_release(&d);
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_histrec_decode(bad[i], strlen(bad[i]), &d,
		    &e), LZ_EINVAL);
		assert_non_null(e.msg);
		lz_err_release(&e);
	}
	lz_buf_release(&b);
}

static void
test_parse(void **state)
{
	const char *text = LZ_HISTLOG_HEADER
	    "1 host + refs/heads/main - " OID_A "\n"
	    "garbage\n"
	    "2 domain ! refs/heads/main " OID_A " " OID_B "\n"
	    "3 domain - refs/heads/main " OID_B " -";	/* cut short */
	struct lz_histlog log;
	struct lz_buf warn = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_refset st;

	(void)state;
	assert_int_equal(lz_histlog_parse(text, strlen(text), &log, &warn, &e),
	    0);
	assert_int_equal(log.n, 2);
	assert_non_null(strstr(warn.buf, "refs.log:3: "));
	lz_histlog_state(&log, 1, &st);
	assert_string_equal(lz_refset_get(&st, "refs/heads/main"), OID_A);
	lz_refset_release(&st);
	lz_histlog_state(&log, INT64_MAX, &st);
	assert_string_equal(lz_refset_get(&st, "refs/heads/main"), OID_B);
	lz_refset_release(&st);
	lz_histlog_release(&log);
	assert_int_equal(lz_histlog_parse("lazaret-history 2\n", 18, &log,
	    &warn, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not a ref log of this Lazaret"));
	lz_err_release(&e);
	lz_buf_release(&warn);
}

static void
test_file(void **state)
{
	char dir[] = "/tmp/lz-test-histlog-XXXXXX", path[128];
	struct lz_histrec v[3] = {
		{ 1000, LZ_HIST_HOST, '+', "refs/heads/main", NULL, OID_A },
		{ 2000, LZ_HIST_DOMAIN, '+', "refs/heads/t", NULL, OID_A },
		{ 3000, LZ_HIST_DOMAIN, '!', "refs/heads/main", OID_A, OID_B },
	};
	struct lz_histrec del = { 4000, LZ_HIST_DOMAIN, '-', "refs/heads/t",
	    OID_A, NULL };
	struct lz_histlog log;
	struct lz_refset a, b;
	struct lz_err e = LZ_ERR_INIT;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lz_histlog_append(fd, v, 3, &e), 0);
	assert_int_equal(lz_histlog_append(fd, &del, 1, &e), 0);
	assert_int_equal(lz_histlog_read(fd, &log, NULL, &e), 0);
	assert_int_equal(log.n, 4);
	lz_histlog_state(&log, INT64_MAX, &a);
	assert_int_equal(a.n, 1);
	lz_histlog_release(&log);
	/* Compacted at 3500: three records folded, the state the same. */
	assert_int_equal(lz_histlog_compact(fd, 3500, &e), 0);
	assert_int_equal(lz_histlog_read(fd, &log, NULL, &e), 0);
	assert_int_equal(log.n, 3);	/* two '=' and the deletion */
	assert_int_equal(log.v[0].kind, '=');
	assert_int_equal(log.v[2].kind, '-');
	assert_true(log.v[0].ms == 3000 && log.v[0].who == LZ_HIST_DOMAIN);
	lz_histlog_state(&log, INT64_MAX, &b);
	assert_int_equal(b.n, a.n);
	assert_string_equal(b.v[0].value, a.v[0].value);
	lz_refset_release(&a);
	lz_refset_release(&b);
	lz_histlog_release(&log);
	/* Nothing older than the cutoff now: nothing rewritten. */
	assert_int_equal(lz_histlog_compact(fd, 3500, &e), 0);
	/* Past the bound: refused, nothing written. */
	snprintf(path, sizeof path, "%s/" LZ_HISTLOG_FILE, dir);
	assert_int_equal(truncate(path, LZ_HISTLOG_MAX - 10), 0);
	assert_int_equal(lz_histlog_append(fd, v, 1, &e), 1);
	/* A log that is not a regular file is refused. */
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(lz_histlog_read(fd, &log, NULL, &e), LZ_EUNSAFE);
	lz_err_release(&e);
	close(fd);
	lz_test_rmrf(dir);
}

static void
test_times(void **state)
{
	struct lz_err e = LZ_ERR_INIT;
	int64_t t, now = 1764580000000;

	(void)state;
	setenv("TZ", "UTC", 1);
	assert_int_equal(lz_hist_time_parse("@1764580923", now, &t, &e), 0);
	assert_true(t == 1764580923000);
	assert_int_equal(lz_hist_time_parse("90m", now, &t, &e), 0);
	assert_true(t == now - 90 * 60000);
	assert_int_equal(lz_hist_time_parse("2d", now, &t, &e), 0);
	assert_true(t == now - 2 * 86400000ll);
	assert_int_equal(lz_hist_time_parse("2026-12-01T10:30Z", now, &t, &e),
	    0);
	assert_true(t == 1796121000000);
	assert_int_equal(lz_hist_time_parse("2026-12-01 10:30:15", now, &t,
	    &e), 0);
	assert_true(t == 1796121015000);
	assert_int_equal(lz_hist_time_parse("2026-12-01", now, &t, &e), 0);
	assert_true(t == 1796083200000);
	assert_int_equal(lz_hist_time_parse("2026-12-01Z", now, &t, &e), 0);
	static const char *const bad[] = { "yesterday", "10x", "2026-13-01",
	    "2026-02-30", "2026-12-01T25:00", "2026-12-01T10:30Q", "@",
	    "@12x", "-5m", "" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(lz_hist_time_parse(bad[i], now, &t, &e),
		    LZ_EINVAL);
		assert_non_null(strstr(e.msg, "is not a time"));
		lz_err_release(&e);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
