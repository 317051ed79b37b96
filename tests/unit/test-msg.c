/*
 * test-msg.c: the typed control messages (protocol/msg.h): each encoder's
 * output decodes to the same values, and each decoder refuses, with a
 * message naming the field, wrong types, missing keys, numbers out of
 * range, huge strings, bad identifiers, invalid UTF-8 and duplicate keys,
 * while it ignores unknown keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "protocol/msg.h"

#define HEX16 "0123456789abcdef"
#define HEX32 HEX16 HEX16
#define HEX64 HEX32 HEX32
#define KEY "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
#define SIG KEY KEY

/* A frame of type t whose payload is the given text. */
static struct lz_frame
frame(enum lz_frame_type t, const char *payload)
{
	struct lz_frame f;

	f.type = t;
	f.payload = (const unsigned char *)payload;
	f.len = (uint32_t)strlen(payload);
	return f;
}

/* The first frame of b. */
static struct lz_frame
first(const struct lz_buf *b)
{
	struct lz_frame f;
	size_t used;

	assert_int_equal(lz_frame_decode((const unsigned char *)b->buf, b->len,
	    &f, &used, NULL), 1);
	return f;
}

static void
refused(int rc, struct lz_err *e, const char *needle)
{
	assert_int_equal(rc, LZ_EINVAL);
	assert_non_null(e->msg);
	if (strstr(e->msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", e->msg, needle);
	lz_err_release(e);
}

static void
test_hello(void **state)
{
	struct lz_msg_hello h, h2;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;

	(void)state;
	memset(&h, 0, sizeof h);
	h.version = 2;
	strcpy(h.domain, HEX16);
	strcpy(h.profile, "my-agent_1");
	strcpy(h.fingerprint, HEX64);
	strcpy(h.key, KEY);
	lz_msg_hello_add(&b, &h);
	f = first(&b);
	assert_int_equal(lz_msg_hello_decode(&f, &h2, NULL), 0);
	assert_memory_equal(&h, &h2, sizeof h);
	lz_buf_release(&b);

	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"domain\":\"" HEX16 "\","
	    "\"profile\":\"p\",\"fingerprint\":\"" HEX64 "\",\"key\":\"" KEY
	    "\",\"extra\":[1]}");
	assert_int_equal(lz_msg_hello_decode(&f, &h2, NULL), 0);
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"domain\":\"" HEX16 "\","
	    "\"profile\":\"p\",\"fingerprint\":\"" HEX64 "\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "'key' is missing");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"domain\":\"" HEX16 "\","
	    "\"profile\":\"p\",\"fingerprint\":\"" HEX64 "\",\"key\":\"AAAA\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "'key' must be");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"profile\":\"p\","
	    "\"fingerprint\":\"" HEX64 "\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "'domain' is missing");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"domain\":\"ABCDEF0123456789"
	    "\",\"profile\":\"p\",\"fingerprint\":\"" HEX64 "\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "lower-case hex");
	f = frame(LZ_FRAME_HELLO, "{\"version\":\"2\",\"domain\":\"" HEX16
	    "\",\"profile\":\"p\",\"fingerprint\":\"" HEX64 "\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "must be an integer");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"domain\":\"" HEX16 "\","
	    "\"profile\":\"../x\",\"fingerprint\":\"" HEX64 "\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "'profile'");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"version\":3}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "duplicate");
	f = frame(LZ_FRAME_HELLO, "{\"version\":2,\"profile\":\"\xff\"}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "bad HELLO");
	f = frame(LZ_FRAME_OPEN, "{}");
	refused(lz_msg_hello_decode(&f, &h2, &e), &e, "expected a HELLO");
}

static void
test_open(void **state)
{
	struct lz_msg_open o, o2;
	struct lz_buf b = LZ_BUF_INIT, big = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;
	int i;

	(void)state;
	lz_msg_open_init(&o);
	lz_tokens_push(&o.argv, "sh");
	lz_tokens_push(&o.argv, "-c");
	lz_tokens_push(&o.argv, "echo \"quoted\" and ünïcode");
	o.cwd = lz_xstrdup("src/sub");
	o.tty = 1;
	o.rows = 50;
	o.cols = 200;
	strcpy(o.term, "xterm-256color");
	o.terminfo = lz_xstrdup("/usr/share/terminfo/x/xterm-256color");
	lz_tokens_push(&o.env, "API_KEY=a=b=c");
	assert_int_equal(lz_msg_open_add(&b, &o, NULL), 0);
	f = first(&b);
	assert_int_equal(lz_msg_open_decode(&f, &o2, NULL), 0);
	assert_int_equal(o2.argv.n, 3);
	assert_string_equal(o2.argv.v[2], o.argv.v[2]);
	assert_string_equal(o2.cwd, "src/sub");
	assert_int_equal(o2.rows, 50);
	assert_int_equal(o2.cols, 200);
	assert_string_equal(o2.term, "xterm-256color");
	assert_string_equal(o2.terminfo, o.terminfo);
	assert_int_equal(o2.env.n, 1);
	assert_string_equal(o2.env.v[0], "API_KEY=a=b=c");
	lz_msg_open_release(&o2);
	lz_buf_release(&b);

	/* The encoder refuses what the user gave that cannot travel. */
	lz_tokens_push(&o.argv, "bad \xff byte");
	assert_int_equal(lz_msg_open_add(&b, &o, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "argument 4 of the command is not "
	    "valid UTF-8"));
	assert_int_equal(b.len, 0);
	lz_err_release(&e);
	lz_msg_open_release(&o);

	f = frame(LZ_FRAME_OPEN, "{\"rows\":0,\"cols\":80}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "outside 1..1000");
	f = frame(LZ_FRAME_OPEN, "{\"rows\":24}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "go together");
	f = frame(LZ_FRAME_OPEN, "{\"rows\":24,\"cols\":100000}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "'cols' is 100000");
	f = frame(LZ_FRAME_OPEN, "{\"argv\":\"sh\"}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "'argv' must be an array");
	f = frame(LZ_FRAME_OPEN, "{\"argv\":[\"sh\",1]}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "argv[1]");
	f = frame(LZ_FRAME_OPEN, "{\"tty\":1}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "true or false");
	f = frame(LZ_FRAME_OPEN, "{\"term\":\"../../etc\"}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "'term'");
	f = frame(LZ_FRAME_OPEN, "{\"env\":{\"A=B\":\"x\"}}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "without '='");
	f = frame(LZ_FRAME_OPEN, "{\"env\":{\"A\":1}}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "env 'A'");
	f = frame(LZ_FRAME_OPEN, "{\"cwd\":\"a\\u0000b\"}");
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "bad OPEN");
	/* A string past its limit, and too many elements. */
	lz_buf_adds(&big, "{\"cwd\":\"");
	for (i = 0; i < LZ_MSG_PATH_MAX + 1; i++)
		lz_buf_addch(&big, 'a');
	lz_buf_adds(&big, "\"}");
	f = frame(LZ_FRAME_OPEN, big.buf);
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "over the limit of 4096");
	lz_buf_reset(&big);
	lz_buf_adds(&big, "{\"argv\":[");
	for (i = 0; i < LZ_MSG_ARGV_MAX + 1; i++)
		lz_buf_adds(&big, i ? ",\"x\"" : "\"x\"");
	lz_buf_adds(&big, "]}");
	f = frame(LZ_FRAME_OPEN, big.buf);
	refused(lz_msg_open_decode(&f, &o2, &e), &e, "257 elements");
	lz_buf_release(&big);
	/* Unknown keys are ignored; absent keys take their defaults. */
	f = frame(LZ_FRAME_OPEN, "{\"future\":{\"x\":1}}");
	assert_int_equal(lz_msg_open_decode(&f, &o2, NULL), 0);
	assert_int_equal(o2.argv.n, 0);
	assert_string_equal(o2.cwd, "");
	assert_null(o2.terminfo);
	lz_msg_open_release(&o2);
}

static void
test_attach_exit_error(void **state)
{
	struct lz_msg_attach a, a2;
	struct lz_msg_exit x, x2;
	struct lz_msg_error er;
	struct lz_buf b = LZ_BUF_INIT, msg = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;
	int i;

	(void)state;
	memset(&a, 0, sizeof a);
	strcpy(a.session, HEX32);
	a.rows = 24;
	a.cols = 80;
	a.takeover = 1;
	a.history = 10000;
	lz_msg_attach_add(&b, &a);
	f = first(&b);
	assert_int_equal(lz_msg_attach_decode(&f, &a2, NULL), 0);
	assert_memory_equal(&a, &a2, sizeof a);
	lz_buf_reset(&b);
	f = frame(LZ_FRAME_ATTACH, "{\"session\":\"" HEX16 "\"}");
	refused(lz_msg_attach_decode(&f, &a2, &e), &e, "32 lower-case hex");
	f = frame(LZ_FRAME_ATTACH, "{\"session\":\"" HEX32 "\",\"history\":"
	    "-1}");
	refused(lz_msg_attach_decode(&f, &a2, &e), &e, "'history' is -1");

	x.status = 130;
	x.signal = 2;
	x.reason = "the sandbox ended";
	lz_msg_exit_add(&b, &x);
	f = first(&b);
	assert_int_equal(lz_msg_exit_decode(&f, &x2, NULL), 0);
	assert_int_equal(x2.status, 130);
	assert_int_equal(x2.signal, 2);
	assert_string_equal(x2.reason, "the sandbox ended");
	lz_msg_exit_release(&x2);
	lz_buf_reset(&b);
	f = frame(LZ_FRAME_EXIT, "{\"status\":256,\"signal\":0}");
	refused(lz_msg_exit_decode(&f, &x2, &e), &e, "'status' is 256");

	/* A long message with bytes that are not UTF-8 is cut and mended. */
	for (i = 0; i < 5000; i++)
		lz_buf_adds(&msg, i == 10 ? "\xff" : "\xc3\xa9");
	lz_msg_error_add(&b, "open", msg.buf);
	f = first(&b);
	assert_int_equal(lz_msg_error_decode(&f, &er, NULL), 0);
	assert_string_equal(er.code, "open");
	assert_true(strlen(er.message) <= LZ_MSG_MESSAGE_MAX);
	/* 10 two-byte characters, the stray byte, then more of them. */
	assert_memory_equal(er.message, "\xc3\xa9", 2);
	assert_int_equal(er.message[20], '?');
	assert_memory_equal(er.message + 21, "\xc3\xa9", 2);
	lz_msg_error_release(&er);
	lz_buf_release(&msg);
	lz_buf_release(&b);
	f = frame(LZ_FRAME_ERROR, "{\"code\":\"Bad Code\",\"message\":\"x\"}");
	refused(lz_msg_error_decode(&f, &er, &e), &e, "'code'");
}

/*
 * Sessions whose command lines fill a frame: each command is cut at
 * LZ_MSG_COMMAND_MAX, the list stops within one frame and counts the
 * rest in "omitted" (a list of two commands of 800 KB was one frame of
 * 1.6 MB, and the coordinator's encoder stopped it with LZ_BUG).
 */
static void
test_sessions_bounded(void **state)
{
	struct lz_msg_sessions s = LZ_MSG_SESSIONS_INIT, s2;
	struct lz_msg_session one;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_frame f;
	size_t used, k, total = 0;
	char *big;

	(void)state;
	big = malloc(800 * 1024 + 1);
	assert_non_null(big);
	memset(big, 'a', 800 * 1024);
	big[800 * 1024] = '\0';
	memset(&one, 0, sizeof one);
	strcpy(one.session, HEX32);
	one.command = big;
	one.cwd = big;
	one.running = 1;
	for (k = 0; k < 40; k++)
		lz_msg_sessions_push(&s, &one);
	/* Control characters take six bytes each in the frame. */
	memset(big, '\001', 800 * 1024);
	for (k = 0; k < 40; k++)
		lz_msg_sessions_push(&s, &one);
	lz_msg_sessions_add(&b, &s);
	assert_int_equal(lz_frame_decode((unsigned char *)b.buf, b.len, &f,
	    &used, NULL), 1);
	assert_int_equal(used, b.len);
	assert_int_equal(lz_msg_sessions_decode(&f, &s2, NULL), 0);
	assert_true(s2.n > 0);
	assert_int_equal(s2.n + s2.omitted, 80);
	for (k = 0; k < s2.n; k++) {
		assert_int_equal(strlen(s2.v[k].command), LZ_MSG_COMMAND_MAX);
		assert_int_equal(strlen(s2.v[k].cwd), LZ_MSG_PATH_MAX);
		total += strlen(s2.v[k].command);
	}
	assert_true(total < LZ_FRAME_MAX);
	lz_msg_sessions_release(&s2);
	lz_msg_sessions_release(&s);
	lz_buf_release(&b);
	free(big);
}

static void
test_sessions_ack(void **state)
{
	struct lz_msg_sessions s = LZ_MSG_SESSIONS_INIT, s2;
	struct lz_msg_session one;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;
	uint32_t n;

	(void)state;
	memset(&one, 0, sizeof one);
	strcpy(one.session, HEX32);
	one.command = "bash -l";
	one.cwd = "/workspace";
	one.tty = 1;
	one.running = 1;
	one.started = 1764590000;
	strcpy(one.client, HEX16);
	lz_msg_sessions_push(&s, &one);
	one.client[0] = '\0';
	one.running = 0;
	lz_msg_sessions_push(&s, &one);
	lz_msg_sessions_add(&b, &s);
	f = first(&b);
	assert_int_equal(lz_msg_sessions_decode(&f, &s2, NULL), 0);
	assert_int_equal(s2.n, 2);
	assert_string_equal(s2.v[0].client, HEX16);
	assert_true(s2.v[0].running);
	assert_string_equal(s2.v[1].client, "");
	assert_false(s2.v[1].running);
	assert_string_equal(s2.v[1].command, "bash -l");
	assert_null(s2.history);
	lz_msg_sessions_release(&s2);
	/* The history guard's note (optional; human text, escaped). */
	s.history = strdup("refs/heads/main moved from 1a2b3c4 to 5d6e7f8");
	lz_buf_reset(&b);
	lz_msg_sessions_add(&b, &s);
	f = first(&b);
	assert_int_equal(lz_msg_sessions_decode(&f, &s2, NULL), 0);
	assert_string_equal(s2.history, s.history);
	lz_msg_sessions_release(&s2);
	lz_msg_sessions_release(&s);
	lz_buf_reset(&b);
	f = frame(LZ_FRAME_SESSIONS, "{\"sessions\":[],\"history\":5}");
	refused(lz_msg_sessions_decode(&f, &s2, &e), &e, "'history'");
	lz_buf_reset(&b);
	f = frame(LZ_FRAME_SESSIONS, "{\"sessions\":[{\"session\":\"" HEX32
	    "\",\"command\":\"x\",\"cwd\":\"/\",\"tty\":true,\"state\":"
	    "\"zombie\",\"started\":1}]}");
	refused(lz_msg_sessions_decode(&f, &s2, &e), &e, "'state'");

	lz_msg_ack_add(&b, 70000);
	f = first(&b);
	assert_int_equal(lz_msg_ack_decode(&f, &n, NULL), 0);
	assert_int_equal(n, 70000);
	f.len = 3;
	assert_int_equal(lz_msg_ack_decode(&f, &n, &e), LZ_EINVAL);
	lz_err_release(&e);
	lz_buf_release(&b);
}

static void
test_escalation_frames(void **state)
{
	struct lz_msg_prompt p, p2;
	struct lz_msg_decision d, d2;
	struct lz_msg_withdrawn w, w2;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;

	(void)state;
	memset(&p, 0, sizeof p);
	strcpy(p.id, HEX32);
	strcpy(p.session, HEX32);
	strcpy(p.profile, "default");
	p.command = "bash -l";
	lz_tokens_push(&p.argv, "git");
	lz_tokens_push(&p.argv, "push");
	lz_tokens_push(&p.argv, "\x1b]0;owned\x07\xe2\x80\xae");
	p.cwd = "/home/dev/project";
	p.why = "push the branch";
	p.timeout_ms = 300000;
	p.pending = 2;
	lz_msg_prompt_add(&b, &p);
	f = first(&b);
	assert_int_equal(lz_msg_prompt_decode(&f, &p2, NULL), 0);
	assert_int_equal(p2.argv.n, 3);
	assert_string_equal(p2.argv.v[2], p.argv.v[2]);
	assert_string_equal(p2.why, "push the branch");
	assert_int_equal(p2.timeout_ms, 300000);
	assert_int_equal(p2.pending, 2);
	lz_msg_prompt_release(&p2);
	lz_tokens_release(&p.argv);
	lz_buf_reset(&b);

	memset(&d, 0, sizeof d);
	strcpy(d.id, HEX32);
	d.decision = LZ_DECISION_EDIT;
	lz_tokens_push(&d.argv, "git");
	lz_tokens_push(&d.argv, "push");
	lz_tokens_push(&d.argv, "--dry-run");
	lz_tokens_push(&d.env, "SSH_AUTH_SOCK=/run/user/1000/ssh");
	memset(d.sig, 'A', 86);
	strcpy(d.sig + 86, "==");
	assert_int_equal(lz_msg_decision_add(&b, &d, NULL), 0);
	f = first(&b);
	assert_int_equal(lz_msg_decision_decode(&f, &d2, NULL), 0);
	assert_int_equal(d2.decision, LZ_DECISION_EDIT);
	assert_int_equal(d2.argv.n, 3);
	assert_string_equal(d2.env.v[0], "SSH_AUTH_SOCK=/run/user/1000/ssh");
	lz_msg_decision_release(&d2);
	lz_msg_decision_release(&d);
	lz_buf_reset(&b);
	f = frame(LZ_FRAME_DECISION, "{\"id\":\"" HEX32 "\",\"decision\":"
	    "\"edit\",\"sig\":\"" SIG "\"}");
	refused(lz_msg_decision_decode(&f, &d2, &e), &e, "'argv' is missing");
	f = frame(LZ_FRAME_DECISION, "{\"id\":\"" HEX32 "\",\"decision\":"
	    "\"yes\",\"sig\":\"" SIG "\"}");
	refused(lz_msg_decision_decode(&f, &d2, &e), &e, "'decision' must be");
	f = frame(LZ_FRAME_DECISION, "{\"id\":\"" HEX32 "\",\"decision\":"
	    "\"deny\",\"message\":\"not now\",\"sig\":\"" SIG "\"}");
	assert_int_equal(lz_msg_decision_decode(&f, &d2, NULL), 0);
	assert_string_equal(d2.message, "not now");
	lz_msg_decision_release(&d2);

	strcpy(w.id, HEX32);
	strcpy(w.why, "timed-out");
	lz_msg_withdrawn_add(&b, &w);
	f = first(&b);
	assert_int_equal(lz_msg_withdrawn_decode(&f, &w2, NULL), 0);
	assert_string_equal(w2.why, "timed-out");
	lz_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_attach_exit_error),
		cmocka_unit_test(test_sessions_ack),
		cmocka_unit_test(test_sessions_bounded),
		cmocka_unit_test(test_escalation_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
