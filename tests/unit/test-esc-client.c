/*
 * test-esc-client.c: the sandbox's side of the Escalation Mailbox
 * (core/esc-client.h) against the coordinator's checks (esc-fixture.h):
 * the identity directory and environment a session gets, records made
 * and sealed by it that lz_request_decode and lz_esc_verify accept,
 * lz_esc_post's tmp-then-rename (watched with inotify) and its failures,
 * and lz_esc_result's checks of a result's ID and MAC.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/esc-fixture.h"
#include "tests/unit/testlib.h"

struct state {
	struct lz_fix f;
	char dir[64];			/* this test's temporary tree */
	char *ident;			/* dir/identity */
	char *box;			/* dir/box, a mailbox directory */
};

static int
setup(void **state)
{
	struct state *s = calloc(1, sizeof *s);

	lz_fix_setup(&s->f);
	strcpy(s->dir, "/tmp/lz-esc-client-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	s->ident = lz_xasprintf("%s/identity", s->dir);
	s->box = lz_xasprintf("%s/box", s->dir);
	assert_int_equal(mkdir(s->box, 0700), 0);
	lz_fix_identity_dir(&s->f, 0, s->ident);
	*state = s;
	return 0;
}

static int
teardown(void **state)
{
	struct state *s = *state;

	unsetenv("LAZARET_SESSION");
	unsetenv("LAZARET_SESSION_ANCHOR");
	lz_test_rmrf(s->dir);
	free(s->ident);
	free(s->box);
	lz_fix_release(&s->f);
	free(s);
	return 0;
}

/* The identity loads, or the test fails. */
static void
loaded(struct state *s, struct lz_esc_identity *id)
{
	struct lz_err err = LZ_ERR_INIT;

	if (lz_esc_identity_load(id, s->ident, &err) != 0)
		fail_msg("identity: %s", err.msg);
}

/* Loading fails with code and needle in the message; id is left empty. */
static void
not_loaded(struct state *s, int code, const char *needle)
{
	struct lz_esc_identity id;
	struct lz_err err = LZ_ERR_INIT;

	assert_int_equal(lz_esc_identity_load(&id, s->ident, &err), code);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", err.msg, needle);
	assert_null(id.key);
	assert_null(id.cert);
	lz_err_release(&err);
}

/* The number of open file descriptors. */
static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

/* Whether dir holds a name ending in ".tmp". */
static int
has_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n;
	int found = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if ((n = strlen(e->d_name)) > 4 &&
		    strcmp(e->d_name + n - 4, ".tmp") == 0)
			found = 1;
	closedir(d);
	return found;
}

/* A session's identity round trip: what the client seals, the
 * coordinator accepts, for that session. */
static void
test_identity_round_trip(void **state)
{
	struct state *s = *state;
	struct lz_esc_identity id;
	struct lz_buf rec = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_reg_session *got;
	struct lz_request r, d;
	struct lz_err err = LZ_ERR_INIT;
	enum lz_record_kind k;
	char rid[LZ_MAILBOX_ID_HEX + 1], *name, *path;

	loaded(s, &id);
	assert_non_null(id.key);
	assert_string_equal(id.cert, s->f.cert.buf);
	assert_string_equal(id.domain, LZ_FIX_DOMAIN);
	assert_string_equal(id.session, s->f.s[0]->id);
	assert_memory_equal(id.anchor, s->f.s[0]->anchor, sizeof id.anchor);
	rid[0] = '\0';
	for (k = LZ_RECORD_REQUEST; k <= LZ_RECORD_ACK; k++) {
		lz_esc_record(&id, k, rid[0] ? rid : NULL, &r);
		if (k == LZ_RECORD_REQUEST) {
			lz_tokens_push(&r.argv, "make");
			lz_tokens_push(&r.argv, "install");
			r.cwd = lz_xstrdup("/workspace/sub dir");
			r.why = lz_xstrdup("needs root on the host");
			r.timeout = 120;
			strcpy(rid, r.id);
		}
		lz_buf_reset(&rec);
		assert_int_equal(lz_esc_seal(&id, &r, &rec, &err), 0);
		/* Posted into the mailbox, read back, accepted. */
		name = lz_record_name(k, rid);
		assert_int_equal(lz_esc_post(s->box, name, &rec, &err), 0);
		path = lz_xasprintf("%s/%s", s->box, name);
		assert_int_equal(lz_esc_slurp(path, LZ_MAILBOX_REQUEST_MAX,
		    &back), 0);
		assert_int_equal(back.len, rec.len);
		assert_memory_equal(back.buf, rec.buf, rec.len);
		if (lz_fix_verify(&s->f, k, &back, &got, &err) != 0)
			fail_msg("%s refused: %s", name, err.msg);
		assert_ptr_equal(got, s->f.s[0]);
		/* The request's fields arrive as sealed. */
		if (k == LZ_RECORD_REQUEST) {
			assert_int_equal(lz_request_decode(k, back.buf,
			    back.len, &d, &err), 0);
			assert_int_equal(d.argv.n, 2);
			assert_string_equal(d.argv.v[1], "install");
			assert_string_equal(d.cwd, "/workspace/sub dir");
			assert_string_equal(d.why, "needs root on the host");
			assert_int_equal(d.timeout, 120);
			lz_request_release(&d);
		}
		free(path);
		free(name);
		lz_request_release(&r);
	}
	lz_esc_identity_release(&id);
	lz_buf_release(&rec);
	lz_buf_release(&back);
}

/* Outside a session, or with a broken identity: a clear error. */
static void
test_identity_refused(void **state)
{
	static const char *const sessions[] = { "", "0123",
	    "0123456789ABCDEF0123456789abcdef",
	    "0123456789abcdef0123456789abcdef0",
	    "0123456789abcdef0123456789abcdeg" };
	struct state *s = *state;
	char *anchor = lz_xstrdup(getenv("LAZARET_SESSION_ANCHOR"));
	char *sess = lz_xstrdup(getenv("LAZARET_SESSION"));
	char *path, *big;
	size_t i;

	unsetenv("LAZARET_SESSION");
	not_loaded(s, LZ_ENOTFOUND, "run this in a Lazaret session");
	for (i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
		setenv("LAZARET_SESSION", sessions[i], 1);
		not_loaded(s, LZ_ENOTFOUND, "LAZARET_SESSION");
	}
	setenv("LAZARET_SESSION", sess, 1);
	unsetenv("LAZARET_SESSION_ANCHOR");
	not_loaded(s, LZ_ENOTFOUND, "LAZARET_SESSION_ANCHOR");
	anchor[63] = '\0';
	setenv("LAZARET_SESSION_ANCHOR", anchor, 1);
	not_loaded(s, LZ_ENOTFOUND, "LAZARET_SESSION_ANCHOR");
	anchor[63] = 'A';
	setenv("LAZARET_SESSION_ANCHOR", anchor, 1);
	not_loaded(s, LZ_ENOTFOUND, "LAZARET_SESSION_ANCHOR");
	lz_fix_identity_dir(&s->f, 0, s->ident);

	/* Each file missing. */
	path = lz_xasprintf("%s/sandbox.key", s->ident);
	assert_int_equal(unlink(path), 0);
	not_loaded(s, LZ_ENOTFOUND, "no sandbox identity: '");
	lz_fix_identity_dir(&s->f, 0, s->ident);
	free(path);
	path = lz_xasprintf("%s/domain", s->ident);
	assert_int_equal(unlink(path), 0);
	not_loaded(s, LZ_ENOTFOUND, "/domain'");
	lz_fix_identity_dir(&s->f, 0, s->ident);
	free(path);
	/* Not a key; a symbolic link; a certificate over 8 KiB. */
	lz_test_put(s->ident, "sandbox.key", "-----BEGIN PRIVATE KEY-----\n"
	    "AAAA\n-----END PRIVATE KEY-----\n");
	not_loaded(s, LZ_EINVAL, "");
	lz_fix_identity_dir(&s->f, 0, s->ident);
	path = lz_xasprintf("%s/sandbox.crt", s->ident);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	not_loaded(s, LZ_ENOTFOUND, "sandbox.crt");
	assert_int_equal(unlink(path), 0);
	big = calloc(1, LZ_MAILBOX_CERT_MAX + 2);
	memset(big, 'c', LZ_MAILBOX_CERT_MAX + 1);
	lz_test_put(s->ident, "sandbox.crt", big);
	not_loaded(s, LZ_ENOTFOUND, "sandbox.crt");
	free(big);
	free(path);
	free(anchor);
	free(sess);
}

/* Each record is new: a fresh ID and nonce, the time now, the
 * identity's Domain, session and certificate (none in acks). */
static void
test_record_fields(void **state)
{
	struct state *s = *state;
	struct lz_esc_identity id;
	struct lz_request a, b, c;
	int64_t t0, t1;

	loaded(s, &id);
	t0 = lz_esc_now_ms();
	lz_esc_record(&id, LZ_RECORD_REQUEST, NULL, &a);
	lz_esc_record(&id, LZ_RECORD_REQUEST, NULL, &b);
	t1 = lz_esc_now_ms();
	assert_true(lz_msg_hex_ok(a.id, LZ_MAILBOX_ID_HEX));
	assert_true(lz_msg_hex_ok(a.nonce, LZ_MAILBOX_ID_HEX));
	assert_string_not_equal(a.id, b.id);
	assert_string_not_equal(a.nonce, b.nonce);
	assert_string_not_equal(a.id, a.nonce);
	assert_true(a.t >= t0 && a.t <= t1);
	assert_string_equal(a.domain, LZ_FIX_DOMAIN);
	assert_string_equal(a.session, s->f.s[0]->id);
	assert_string_equal(a.cert, id.cert);
	assert_ptr_not_equal(a.cert, id.cert);
	lz_esc_record(&id, LZ_RECORD_CANCEL, a.id, &c);
	assert_string_equal(c.id, a.id);
	assert_string_not_equal(c.nonce, a.nonce);
	assert_non_null(c.cert);
	lz_request_release(&c);
	lz_esc_record(&id, LZ_RECORD_ACK, a.id, &c);
	assert_string_equal(c.id, a.id);
	assert_null(c.cert);
	lz_request_release(&c);
	lz_request_release(&a);
	lz_request_release(&b);
	lz_esc_identity_release(&id);
}

/* lz_esc_post writes name.tmp, closes it, renames it to name: the
 * coordinator never sees a part of a record under its name. */
static void
test_post_renames(void **state)
{
	struct state *s = *state;
	struct lz_buf rec = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char ev[16 * (sizeof(struct inotify_event) + NAME_MAX + 1)];
	char *path, *p, seen[512];
	const struct inotify_event *e;
	struct stat st;
	ssize_t n;
	int fd, wd;

	lz_buf_adds(&rec, "{\"v\":1}");
	assert_true((fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) >= 0);
	assert_true((wd = inotify_add_watch(fd, s->box, IN_CREATE |
	    IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO)) >= 0);
	assert_int_equal(lz_esc_post(s->box, "ack-x.json", &rec, &err), 0);
	seen[0] = '\0';
	assert_true((n = read(fd, ev, sizeof ev)) > 0);
	for (p = ev; p < ev + n; p += sizeof *e + e->len) {
		e = (const struct inotify_event *)p;
		snprintf(seen + strlen(seen), sizeof seen - strlen(seen),
		    "%s %s;", e->mask & IN_CREATE ? "create" :
		    e->mask & IN_MODIFY ? "modify" : e->mask & IN_CLOSE_WRITE ?
		    "close" : e->mask & IN_MOVED_FROM ? "from" : "to", e->name);
	}
	assert_string_equal(seen, "create ack-x.json.tmp;modify ack-x.json.tmp;"
	    "close ack-x.json.tmp;from ack-x.json.tmp;to ack-x.json;");
	close(fd);
	path = lz_xasprintf("%s/ack-x.json", s->box);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(lz_esc_slurp(path, 64, &back), 0);
	assert_string_equal(back.buf, rec.buf);
	assert_false(has_tmp(s->box));
	free(path);
	lz_buf_release(&rec);
	lz_buf_release(&back);
}

/* A post that cannot be written fails with the reason, leaves no .tmp
 * and no open descriptor behind. */
static void
test_post_fails(void **state)
{
	struct state *s = *state;
	struct lz_buf rec = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct rlimit old, small;
	void (*was)(int);
	char *missing = lz_xasprintf("%s/missing", s->dir), *dst;
	int fds = open_fds();

	lz_buf_adds(&rec, "{\"v\":1,\"id\":\"0123456789abcdef0123456789abcdef\"}");
	assert_int_equal(lz_esc_post(missing, "ack-x.json", &rec, &err),
	    LZ_ESYS);
	assert_non_null(strstr(err.msg, "No such file or directory"));
	assert_non_null(strstr(err.msg, "/missing/ack-x.json'"));
	lz_err_release(&err);
	/* The disk full while writing: RLIMIT_FSIZE (EFBIG). */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 8;
	was = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(lz_esc_post(s->box, "ack-x.json", &rec, &err),
	    LZ_ESYS);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_non_null(strstr(err.msg, "File too large"));
	lz_err_release(&err);
	assert_false(has_tmp(s->box));
	dst = lz_xasprintf("%s/ack-x.json", s->box);
	assert_int_equal(access(dst, F_OK), -1);
	assert_int_equal(open_fds(), fds);
	/* Another writer's tmp of the same name is left alone. */
	lz_test_put(s->box, "ack-y.json.tmp", "theirs");
	assert_int_equal(lz_esc_post(s->box, "ack-y.json", &rec, &err),
	    LZ_ESYS);
	assert_non_null(strstr(err.msg, "File exists"));
	lz_err_release(&err);
	free(dst);
	dst = lz_xasprintf("%s/ack-y.json.tmp", s->box);
	assert_int_equal(lz_esc_slurp(dst, 64, &back), 0);
	assert_string_equal(back.buf, "theirs");
	assert_int_equal(unlink(dst), 0);
	free(dst);
	dst = lz_xasprintf("%s/ack-x.json", s->box);
	assert_int_equal(open_fds(), fds);
	/* Then a post that fits goes through. */
	assert_int_equal(lz_esc_post(s->box, "ack-x.json", &rec, &err), 0);
	assert_int_equal(access(dst, F_OK), 0);
	free(dst);
	free(missing);
	lz_buf_release(&rec);
	lz_buf_release(&back);
}

/* The coordinator's result record for request rid, MACed with anchor's
 * session, written as dir/result-<name_id>.json. */
static void
put_result(const char *dir, const struct lz_reg_session *mac_of,
    const char *rid, const char *name_id)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_result r;
	char *name;

	lz_result_init(&r);
	strcpy(r.id, rid);
	r.outcome = LZ_OUTCOME_COMPLETED;
	r.ran = 1;
	r.status = 3;
	lz_buf_adds(&r.out, "out\n");
	lz_buf_adds(&r.err, "err\n");
	assert_int_equal(lz_result_encode(&r, &sb, NULL, NULL), 0);
	lz_esc_mac(mac_of, &sb, r.mac);
	assert_int_equal(lz_result_encode(&r, &sb, &out, NULL), 0);
	name = lz_record_name(LZ_RECORD_RESULT, name_id);
	lz_test_put(dir, name, out.buf);
	free(name);
	lz_result_release(&r);
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

/* A result is this session's when its ID and MAC say so; none yet is 0;
 * anything else there is an error (never waited on). */
static void
test_result(void **state)
{
	struct state *s = *state;
	struct lz_esc_identity id;
	struct lz_result r;
	struct lz_err err = LZ_ERR_INIT;
	char rid[LZ_MAILBOX_ID_HEX + 1], other[LZ_MAILBOX_ID_HEX + 1];
	char *path, *big;

	loaded(s, &id);
	strcpy(rid, "0123456789abcdef0123456789abcdef");
	strcpy(other, "fedcba9876543210fedcba9876543210");
	/* Not there yet. */
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), 0);
	assert_null(err.msg);
	/* This session's. */
	put_result(s->box, s->f.s[0], rid, rid);
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), 1);
	assert_int_equal(r.outcome, LZ_OUTCOME_COMPLETED);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out.buf, "out\n");
	assert_string_equal(r.err.buf, "err\n");
	lz_result_release(&r);
	/* MACed with the other session's anchor: refused. */
	put_result(s->box, s->f.s[1], rid, rid);
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "does not carry this session's MAC"));
	lz_err_release(&err);
	assert_int_equal(r.out.len, 0);
	assert_false(r.ran);
	/* Another request's result under this one's name. */
	put_result(s->box, s->f.s[0], other, rid);
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), LZ_EINVAL);
	lz_err_release(&err);
	/* Not a result. */
	path = lz_xasprintf("%s/result-%s.json", s->box, rid);
	lz_test_put(s->box, strrchr(path, '/') + 1, "{\"v\":1}");
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "bad result"));
	lz_err_release(&err);
	/* Too big to be one, or not a file: an error, not a wait. */
	big = calloc(1, LZ_MAILBOX_RESULT_MAX + 2);
	memset(big, ' ', LZ_MAILBOX_RESULT_MAX + 1);
	lz_test_put(s->box, strrchr(path, '/') + 1, big);
	free(big);
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), LZ_ESYS);
	assert_non_null(strstr(err.msg, "File too large"));
	lz_err_release(&err);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(lz_esc_result(&id, s->box, rid, &r, &err), LZ_ESYS);
	assert_non_null(strstr(err.msg, "Is a directory"));
	lz_err_release(&err);
	assert_int_equal(rmdir(path), 0);
	free(path);
	lz_esc_identity_release(&id);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity_round_trip,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_record_fields, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_post_renames, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_post_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_result, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
