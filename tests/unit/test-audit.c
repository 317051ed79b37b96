/*
 * test-audit.c: the escalation audit log (core/audit.h): each kind of
 * record encodes as one canonical ASCII line and decodes back; an argv
 * too large for a line is cut, marked, and still named by its hash; the
 * writer rotates within its bound and the reader gives the records
 * oldest first, naming a corrupt line; a symlinked log is refused; the
 * human form shows the sandbox's text escaped and whole.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/audit.h"
#include "testlib.h"

static char tmp[] = "/tmp/lz-audit-XXXXXX";
static const char id1[] = "0123456789abcdef0123456789abcdef";

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmp) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	lz_test_rmrf(tmp);
	return 0;
}

static void
request(struct lz_audit_entry *e, const char *id)
{
	memset(e, 0, sizeof *e);
	e->kind = LZ_AUDIT_REQUEST;
	e->t = 1796126400123LL;
	snprintf(e->id, sizeof e->id, "%s", id);
	e->session = "00112233445566778899aabbccddeeff";
	e->pane = 2;
	e->profile = "default";
	e->command = "bash -l";
	lz_tokens_push(&e->argv, "git");
	lz_tokens_push(&e->argv, "push");
	lz_tokens_push(&e->argv, "\033]0;owned\007\xe2\x80\xae" "niam");
	e->cwd = "/workspace/src";
	e->host_cwd = "/home/dev/proj/src";
	e->why = "push it\nProfile: trusted";
}

static void
roundtrip(const struct lz_audit_entry *e, struct lz_audit_entry *back,
    struct lz_buf *line)
{
	struct lz_err err = LZ_ERR_INIT;
	size_t i;

	lz_buf_reset(line);
	if (lz_audit_encode(e, line, &err) != 0)
		fail_msg("%s", err.msg);
	/* One line of ASCII: nothing raw from the sandbox. */
	for (i = 0; i < line->len; i++)
		assert_true(line->buf[i] >= 0x20 && line->buf[i] < 0x7f);
	if (lz_audit_decode(line->buf, line->len, back, &err) != 0)
		fail_msg("%s: %s", line->buf, err.msg);
	assert_int_equal(back->kind, e->kind);
	assert_string_equal(back->id, e->id);
	assert_true(back->t == e->t);
}

static void
test_kinds(void **state)
{
	struct lz_audit_entry e, back;
	struct lz_buf line = LZ_BUF_INIT;

	(void)state;
	request(&e, id1);
	roundtrip(&e, &back, &line);
	assert_non_null(strstr(line.buf, "\"argv\":[\"git\",\"push\","
	    "\"\\u001B]0;owned\\u0007\\u202Eniam\"]"));
	assert_string_equal(back.why, e.why);
	assert_string_equal(back.host_cwd, e.host_cwd);
	assert_int_equal(back.pane, 2);
	assert_int_equal(back.argv.n, 3);
	assert_string_equal(back.argv.v[2], e.argv.v[2]);
	assert_int_equal(strlen(back.argv_sha256), 64);
	assert_false(back.cut);
	lz_audit_entry_release(&back);

	/* A human's edit, with the Client CLI named. */
	lz_tokens_release(&e.argv);
	memset(&e, 0, sizeof e);
	e.kind = LZ_AUDIT_DECISION;
	e.t = 5;
	memcpy(e.id, id1, sizeof id1);
	e.by = LZ_AUDIT_BY_HUMAN;
	e.decision = "edit";
	e.client = "client 0011223344556677";
	e.edited = 1;
	lz_tokens_push(&e.argv, "git");
	lz_tokens_push(&e.argv, "push");
	roundtrip(&e, &back, &line);
	assert_int_equal(back.by, LZ_AUDIT_BY_HUMAN);
	assert_string_equal(back.decision, "edit");
	assert_string_equal(back.client, e.client);
	assert_true(back.edited);
	assert_int_equal(back.argv.n, 2);
	lz_audit_entry_release(&back);
	lz_tokens_release(&e.argv);

	/* A timeout is its own decision and outcome, never a denial. */
	memset(&e, 0, sizeof e);
	e.kind = LZ_AUDIT_DECISION;
	e.t = 6;
	memcpy(e.id, id1, sizeof id1);
	e.by = LZ_AUDIT_BY_TIMEOUT;
	e.decision = "timeout";
	roundtrip(&e, &back, &line);
	assert_int_equal(back.by, LZ_AUDIT_BY_TIMEOUT);
	assert_null(strstr(line.buf, "argv"));
	lz_audit_entry_release(&back);

	memset(&e, 0, sizeof e);
	e.kind = LZ_AUDIT_RESULT;
	e.t = 7;
	memcpy(e.id, id1, sizeof id1);
	e.outcome = "completed";
	e.ran = 1;
	e.status = 1;
	e.duration_ms = 812;
	e.stdout_bytes = 3 << 20;
	e.truncated = 1;
	roundtrip(&e, &back, &line);
	assert_true(back.ran);
	assert_int_equal(back.status, 1);
	assert_true(back.duration_ms == 812);
	assert_true(back.stdout_bytes == 3u << 20);
	assert_true(back.truncated);
	lz_audit_entry_release(&back);
	lz_buf_release(&line);
}

static void
test_refused(void **state)
{
	struct lz_audit_entry e, back;
	struct lz_buf line = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	static const char *const bad[] = {
	    "not json", "[]", "{\"v\":2,\"kind\":\"request\",\"t\":1,\"id\":"
	    "\"0123456789abcdef0123456789abcdef\"}",
	    "{\"v\":1,\"kind\":\"nope\",\"t\":1,\"id\":\"0123456789abcdef0123"
	    "456789abcdef\"}",
	    "{\"v\":1,\"kind\":\"result\",\"t\":1,\"id\":\"0123456789abcdef01"
	    "23456789abcdef\",\"outcome\":\"approved\"}",
	    "{\"v\":1,\"v\":1,\"kind\":\"result\"}",
	    "{\"v\":1,\"kind\":\"request\",\"t\":1,\"id\":\"XYZ\"}",
	};
	size_t i;

	(void)state;
	memset(&e, 0, sizeof e);
	e.kind = LZ_AUDIT_RESULT;
	memcpy(e.id, id1, sizeof id1);
	assert_int_equal(lz_audit_encode(&e, &line, &err), LZ_EINVAL);
	lz_err_release(&err);
	e.outcome = "denied-ish";
	assert_int_equal(lz_audit_encode(&e, &line, &err), LZ_EINVAL);
	lz_err_release(&err);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (lz_audit_decode(bad[i], strlen(bad[i]), &back, &err) == 0)
			fail_msg("accepted '%s'", bad[i]);
		assert_non_null(err.msg);
		lz_err_release(&err);
	}
	lz_buf_release(&line);
}

/* 256 arguments of 4 KiB of bidi overrides: cut, marked, hashed. */
static void
test_cut(void **state)
{
	struct lz_audit_entry e, back, small, sback;
	struct lz_buf line = LZ_BUF_INIT, arg = LZ_BUF_INIT;
	size_t i;

	(void)state;
	while (arg.len + 3 <= 4096)
		lz_buf_adds(&arg, "\xe2\x80\xae");
	request(&e, id1);
	for (i = 0; i < 253; i++)
		lz_tokens_push(&e.argv, arg.buf);
	roundtrip(&e, &back, &line);
	assert_true(line.len <= LZ_AUDIT_LINE_MAX);
	assert_true(back.cut);
	assert_int_equal(back.argv.n, 256);
	for (i = 3; i < back.argv.n; i++) {
		assert_true(strlen(back.argv.v[i]) <= LZ_AUDIT_ARG_CUT);
		assert_int_equal(strlen(back.argv.v[i]) % 3, 0);
		assert_memory_equal(back.argv.v[i], arg.buf,
		    strlen(back.argv.v[i]));
	}
	/* Written again (lazaret audit --json), it keeps the whole's hash. */
	roundtrip(&back, &sback, &line);
	assert_true(sback.cut);
	assert_string_equal(sback.argv_sha256, back.argv_sha256);
	lz_audit_entry_release(&sback);
	/* The hash is of the whole argv: another argv, another hash. */
	request(&small, id1);
	roundtrip(&small, &sback, &line);
	assert_string_not_equal(back.argv_sha256, sback.argv_sha256);
	lz_audit_entry_release(&back);
	lz_audit_entry_release(&sback);
	lz_tokens_release(&e.argv);
	lz_tokens_release(&small.argv);
	lz_buf_release(&line);
	lz_buf_release(&arg);
}

struct seen {
	char ids[64][33];
	int n;
};

static int
collect(const struct lz_audit_entry *e, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 64)
		memcpy(s->ids[s->n++], e->id, 33);
	return 0;
}

static void
test_write_rotate_read(void **state)
{
	struct lz_audit a;
	struct lz_audit_entry e;
	struct lz_buf arg = LZ_BUF_INIT, w = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct seen s = { .n = 0 };
	struct stat st, old;
	char root[128], id[33], path[160];
	int i;

	(void)state;
	snprintf(root, sizeof root, "%s/domain", tmp);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(lz_audit_open(&a, root, &err), 0);
	while (arg.len < 4000)
		lz_buf_adds(&arg, "abcd");
	request(&e, id1);
	for (i = 0; i < 40; i++)
		lz_tokens_push(&e.argv, arg.buf);	/* ~160 KB a line */
	for (i = 0; i < 60; i++) {
		snprintf(id, sizeof id, "%032x", i);
		memcpy(e.id, id, sizeof id);
		if (lz_audit_append(&a, &e, &err) != 0)
			fail_msg("%s", err.msg);
	}
	lz_audit_close(&a);
	snprintf(path, sizeof path, "%s/%s", root, LZ_AUDIT_FILE);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(path, sizeof path, "%s/%s", root, LZ_AUDIT_OLD);
	assert_int_equal(stat(path, &old), 0);
	assert_true(st.st_size <= LZ_AUDIT_FILE_MAX);
	assert_true(old.st_size <= LZ_AUDIT_FILE_MAX);
	/* The newest records, oldest first, the last one last. */
	assert_int_equal(lz_audit_read(root, collect, &s, &w, &err), 0);
	assert_string_equal(w.buf, "");
	assert_true(s.n > 20 && s.n < 60);
	snprintf(id, sizeof id, "%032x", 59);
	assert_string_equal(s.ids[s.n - 1], id);
	for (i = 1; i < s.n; i++)
		assert_true(strcmp(s.ids[i - 1], s.ids[i]) < 0);
	/* A corrupt line is named and skipped. */
	snprintf(path, sizeof path, "%s/%s", root, LZ_AUDIT_FILE);
	lz_test_put(root, LZ_AUDIT_OLD, "{\"v\":1}\n");
	s.n = 0;
	assert_int_equal(lz_audit_read(root, collect, &s, &w, &err), 0);
	assert_non_null(strstr(w.buf, "audit.jsonl.1:1: "));
	assert_true(s.n > 0);
	/* A symlink in its place is refused, never followed. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(lz_audit_open(&a, root, &err), 0);
	assert_int_equal(lz_audit_append(&a, &e, &err), LZ_ESYS);
	lz_err_release(&err);
	lz_audit_close(&a);
	assert_int_equal(lz_audit_read(root, collect, &s, &w, &err), LZ_ESYS);
	lz_err_release(&err);
	/* No log at all: empty. */
	s.n = 0;
	snprintf(path, sizeof path, "%s/none", tmp);
	assert_int_equal(lz_audit_read(path, collect, &s, &w, &err), 0);
	assert_int_equal(s.n, 0);
	lz_tokens_release(&e.argv);
	lz_buf_release(&arg);
	lz_buf_release(&w);
}

static void
test_describe(void **state)
{
	struct lz_audit_entry e, back;
	struct lz_buf line = LZ_BUF_INIT, out = LZ_BUF_INIT;
	size_t i;

	(void)state;
	request(&e, id1);
	roundtrip(&e, &back, &line);
	lz_audit_describe(&back, 0, &out);
	assert_non_null(strstr(out.buf, "    argv: \"git\" \"push\" "
	    "\"\\x1b]0;owned\\x07\\u202eniam\"\n"));
	assert_non_null(strstr(out.buf, "why (the agent's words): \"push it"
	    "\\nProfile: trusted\"\n"));
	assert_non_null(strstr(out.buf, "runs in: /home/dev/proj/src\n"));
	/* Nothing but printable ASCII and newlines. */
	for (i = 0; i < out.len; i++)
		assert_true(out.buf[i] == '\n' || (out.buf[i] >= 0x20 &&
		    out.buf[i] < 0x7f));
	lz_audit_entry_release(&back);
	lz_tokens_release(&e.argv);
	lz_buf_release(&line);
	lz_buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_write_rotate_read),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
