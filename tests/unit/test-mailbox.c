/*
 * test-mailbox.c: the Escalation Mailbox records (protocol/mailbox.h,
 * protocol/wire.md section 2): the exact canonical JSON the encoders
 * write, the signed bytes (canonical, without sig and mac) whatever the
 * layout of the input, the exact key set of each kind, every type and
 * limit at and past its edge, duplicate keys, NUL and invalid UTF-8, the
 * record size limits, and the file names (lz_record_name_parse).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "protocol/mailbox.h"
#include "protocol/msg.h"

#define CANON (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII)
#define HEX16 "0123456789abcdef"
#define HEX32 HEX16 HEX16
#define DOM "fedcba9876543210"
#define SESS "00112233445566778899aabbccddeeff"
#define NONCE "ffeeddccbbaa99887766554433221100"
#define MAC HEX32 HEX32
/* Base64 of 64 zero bytes, the shape of an Ed25519 signature. */
#define SIG "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" \
	"AAAAAAAAAAAAAAAAAAAA=="

/* n bytes of c (allocated). */
static char *
run_of(size_t n, char c)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* A valid record of kind as a JSON object (every key it must have). */
static json_t *
valid(enum lz_record_kind kind)
{
	json_t *o;

	if (kind == LZ_RECORD_RESULT)
		return json_pack("{s:i,s:s,s:s,s:s}", "v", 1, "id", HEX32,
		    "outcome", "denied", "mac", MAC);
	o = json_pack("{s:i,s:s,s:s,s:s}", "v", 1, "id", HEX32, "session",
	    SESS, "mac", MAC);
	if (kind == LZ_RECORD_ACK)
		return o;
	json_object_set_new(o, "domain", json_string(DOM));
	json_object_set_new(o, "t", json_integer(1700000000000LL));
	json_object_set_new(o, "nonce", json_string(NONCE));
	json_object_set_new(o, "cert", json_string("-----BEGIN CERTIFICATE-----"
	    "\nMII\n-----END CERTIFICATE-----\n"));
	json_object_set_new(o, "sig", json_string(SIG));
	if (kind == LZ_RECORD_CANCEL)
		return o;
	json_object_set_new(o, "argv", json_pack("[s,s]", "git", "push"));
	json_object_set_new(o, "cwd", json_string("/workspace"));
	json_object_set_new(o, "why", json_string("publish"));
	json_object_set_new(o, "timeout", json_integer(30));
	return o;
}

/* The canonical text of o (allocated); o is released. */
static char *
text_of(json_t *o)
{
	char *s = json_dumps(o, CANON);

	assert_non_null(s);
	json_decref(o);
	return s;
}

/* Decodes text as kind: 0 or the decoder's code, err set on failure. */
static int
decode_text(enum lz_record_kind kind, const char *buf, size_t len,
    struct lz_err *err)
{
	struct lz_request r;
	struct lz_result res;
	int rc;

	if (kind == LZ_RECORD_RESULT) {
		rc = lz_result_decode(buf, len, &res, err);
		lz_result_release(&res);
	} else {
		rc = lz_request_decode(kind, buf, len, &r, err);
		lz_request_release(&r);
	}
	return rc;
}

/* buf (len bytes) is refused as kind with a message holding needle. */
static void
refused_text(enum lz_record_kind kind, const char *buf, size_t len,
    const char *needle)
{
	struct lz_err err = LZ_ERR_INIT;

	if (decode_text(kind, buf, len, &err) != LZ_EINVAL)
		fail_msg("accepted (wanted '%s'): %.300s", needle, buf);
	assert_non_null(err.msg);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", err.msg, needle);
	lz_err_release(&err);
}

/* o (released) is refused as kind with a message holding needle. */
static void
refused(enum lz_record_kind kind, json_t *o, const char *needle)
{
	char *s = text_of(o);

	refused_text(kind, s, strlen(s), needle);
	free(s);
}

/* o (released) decodes as kind. */
static void
accepted(enum lz_record_kind kind, json_t *o)
{
	struct lz_err err = LZ_ERR_INIT;
	char *s = text_of(o);

	if (decode_text(kind, s, strlen(s), &err) != 0)
		fail_msg("refused: %s: %s", err.msg, s);
	free(s);
}

/* A record of kind with its identifiers and MAC set, nothing else. */
static void
request_of(struct lz_request *r, enum lz_record_kind kind)
{
	lz_request_init(r);
	r->kind = kind;
	strcpy(r->id, HEX32);
	strcpy(r->domain, DOM);
	strcpy(r->session, SESS);
	strcpy(r->nonce, NONCE);
	strcpy(r->mac, MAC);
}

/* A result of outcome with its ID and MAC set, nothing else. */
static void
result_of(struct lz_result *r, enum lz_outcome outcome)
{
	lz_result_init(r);
	strcpy(r->id, HEX32);
	strcpy(r->mac, MAC);
	r->outcome = outcome;
}

/* valid(kind) with key set to v (NULL: without key). */
static json_t *
with(enum lz_record_kind kind, const char *key, json_t *v)
{
	json_t *o = valid(kind);

	if (v == NULL)
		json_object_del(o, key);
	else
		json_object_set_new(o, key, v);
	return o;
}

/* valid(kind) with key set to a string of n bytes of c. */
static json_t *
with_run(enum lz_record_kind kind, const char *key, size_t n, char c)
{
	char *s = run_of(n, c);
	json_t *o = with(kind, key, json_string(s));

	free(s);
	return o;
}

static void
test_request_canonical(void **state)
{
	static const char want[] = "{\"argv\":[\"ls\",\"-l\",\"caf\\u00E9 "
	    "\\u2603\"],\"cert\":\"PEM\\n\",\"cwd\":\"/workspace/a b\","
	    "\"domain\":\"" DOM "\",\"id\":\"" HEX32 "\",\"mac\":\"" MAC "\","
	    "\"nonce\":\"" NONCE "\",\"session\":\"" SESS "\",\"sig\":\"" SIG
	    "\",\"t\":1700000000123,\"timeout\":86400,\"v\":1,\"why\":"
	    "\"say \\\"hi\\\"\\n\\t\\u0001\"}";
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_request r, d;
	struct lz_err err = LZ_ERR_INIT;
	json_t *o;
	char *pretty, *p;

	(void)state;
	request_of(&r, LZ_RECORD_REQUEST);
	lz_tokens_push(&r.argv, "ls");
	lz_tokens_push(&r.argv, "-l");
	lz_tokens_push(&r.argv, "caf\xc3\xa9 \xe2\x98\x83");
	r.cwd = lz_xstrdup("/workspace/a b");
	r.why = lz_xstrdup("say \"hi\"\n\t\x01");
	r.timeout = LZ_MAILBOX_TIMEOUT_MAX;
	r.t = 1700000000123LL;
	r.cert = lz_xstrdup("PEM\n");
	r.sig = lz_xstrdup(SIG);
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	/* Compact, keys sorted bytewise, ASCII only. */
	assert_string_equal(out.buf, want);
	/* The signed bytes: the same without sig and mac. */
	o = json_loads(want, 0, NULL);
	json_object_del(o, "sig");
	json_object_del(o, "mac");
	p = text_of(o);
	assert_string_equal(sb.buf, p);
	assert_null(strstr(sb.buf, "\"sig\""));
	assert_null(strstr(sb.buf, "\"mac\""));

	/* Decoding gives the fields back and the same signed bytes. */
	assert_int_equal(lz_request_decode(LZ_RECORD_REQUEST, out.buf, out.len,
	    &d, &err), 0);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	assert_int_equal(d.argv.n, 3);
	assert_string_equal(d.argv.v[2], "caf\xc3\xa9 \xe2\x98\x83");
	assert_string_equal(d.cwd, r.cwd);
	assert_string_equal(d.why, r.why);
	assert_string_equal(d.cert, "PEM\n");
	assert_string_equal(d.sig, SIG);
	assert_string_equal(d.mac, MAC);
	assert_string_equal(d.nonce, NONCE);
	assert_string_equal(d.domain, DOM);
	assert_int_equal(d.timeout, LZ_MAILBOX_TIMEOUT_MAX);
	assert_true(d.t == 1700000000123LL);
	lz_request_release(&d);

	/* The same record laid out otherwise (indented, keys unsorted, raw
	 * UTF-8) has the same signed bytes: they are the canonical ones. */
	o = json_loads(want, 0, NULL);
	pretty = json_dumps(o, JSON_INDENT(3) | JSON_PRESERVE_ORDER);
	json_decref(o);
	assert_non_null(strstr(pretty, "\xe2\x98\x83"));
	assert_int_equal(lz_request_decode(LZ_RECORD_REQUEST, pretty,
	    strlen(pretty), &d, &err), 0);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	lz_request_release(&d);

	free(pretty);
	free(p);
	lz_buf_release(&sb);
	lz_buf_release(&out);
	lz_request_release(&r);
}

/* Cancels lack argv, cwd, why and timeout; acks have only v, id, session
 * and mac; each kind's encoder writes exactly its keys. */
static void
test_cancel_and_ack_canonical(void **state)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_request r, d;
	struct lz_err err = LZ_ERR_INIT;

	(void)state;
	request_of(&r, LZ_RECORD_CANCEL);
	r.t = 5;
	r.cert = lz_xstrdup("C");
	r.sig = lz_xstrdup(SIG);
	/* Request-only fields set by mistake are not written. */
	lz_tokens_push(&r.argv, "x");
	r.timeout = 9;
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	assert_string_equal(out.buf, "{\"cert\":\"C\",\"domain\":\"" DOM "\","
	    "\"id\":\"" HEX32 "\",\"mac\":\"" MAC "\",\"nonce\":\"" NONCE "\","
	    "\"session\":\"" SESS "\",\"sig\":\"" SIG "\",\"t\":5,\"v\":1}");
	assert_string_equal(sb.buf, "{\"cert\":\"C\",\"domain\":\"" DOM "\","
	    "\"id\":\"" HEX32 "\",\"nonce\":\"" NONCE "\",\"session\":\"" SESS
	    "\",\"t\":5,\"v\":1}");
	assert_int_equal(lz_request_decode(LZ_RECORD_CANCEL, out.buf, out.len,
	    &d, &err), 0);
	assert_int_equal(d.kind, LZ_RECORD_CANCEL);
	assert_int_equal(d.argv.n, 0);
	assert_null(d.cwd);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	lz_request_release(&d);
	/* A cancel is not a request: argv and the rest are missing. */
	refused_text(LZ_RECORD_REQUEST, out.buf, out.len, "'argv' is missing");

	r.kind = LZ_RECORD_ACK;
	lz_buf_reset(&out);
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	assert_string_equal(out.buf, "{\"id\":\"" HEX32 "\",\"mac\":\"" MAC
	    "\",\"session\":\"" SESS "\",\"v\":1}");
	assert_string_equal(sb.buf, "{\"id\":\"" HEX32 "\",\"session\":\"" SESS
	    "\",\"v\":1}");
	assert_int_equal(lz_request_decode(LZ_RECORD_ACK, out.buf, out.len,
	    &d, &err), 0);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	assert_null(d.cert);
	assert_null(d.sig);
	lz_request_release(&d);
	/* An ack is neither a cancel nor a request. */
	refused_text(LZ_RECORD_CANCEL, out.buf, out.len, "is missing");
	refused_text(LZ_RECORD_ACK, "{}", 2, "'id' is missing");

	lz_buf_release(&sb);
	lz_buf_release(&out);
	lz_request_release(&r);
}

/* Every key of each kind is required and no other is allowed. */
static void
test_exact_key_sets(void **state)
{
	static const enum lz_record_kind kinds[] = { LZ_RECORD_REQUEST,
	    LZ_RECORD_CANCEL, LZ_RECORD_ACK };
	static const char *const extra[] = { "argv", "cwd", "why", "timeout",
	    "t", "nonce", "cert", "sig", "domain", "outcome", "x", "V", "" };
	struct lz_request r;
	struct lz_err err = LZ_ERR_INIT;
	const char *k;
	json_t *o, *v;
	size_t i, j;
	char need[64];

	(void)state;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		accepted(kinds[i], valid(kinds[i]));
		o = valid(kinds[i]);
		json_object_foreach(o, k, v) {
			(void)v;
			snprintf(need, sizeof need, "'%s' is missing", k);
			refused(kinds[i], with(kinds[i], k, NULL), need);
		}
		for (j = 0; j < sizeof extra / sizeof extra[0]; j++) {
			if (json_object_get(o, extra[j]) != NULL)
				continue;
			snprintf(need, sizeof need, "unknown key '%s'",
			    extra[j]);
			refused(kinds[i], with(kinds[i], extra[j],
			    json_integer(1)), need);
		}
		json_decref(o);
	}
	/* A result in requests/ is refused whatever it holds. */
	assert_int_equal(lz_request_decode(LZ_RECORD_RESULT, "{}", 2, &r,
	    &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "a result in requests/"));
	lz_err_release(&err);
}

/* The hex identifiers: exactly their length, lower-case hex, strings. */
static void
test_hex_fields(void **state)
{
	static const struct {
		enum lz_record_kind kind;
		const char *key;
		size_t n;
	} f[] = {
		{ LZ_RECORD_REQUEST, "id", 32 },
		{ LZ_RECORD_REQUEST, "session", 32 },
		{ LZ_RECORD_REQUEST, "nonce", 32 },
		{ LZ_RECORD_REQUEST, "domain", 16 },
		{ LZ_RECORD_REQUEST, "mac", 64 },
		{ LZ_RECORD_CANCEL, "nonce", 32 },
		{ LZ_RECORD_CANCEL, "domain", 16 },
		{ LZ_RECORD_ACK, "id", 32 },
		{ LZ_RECORD_ACK, "session", 32 },
		{ LZ_RECORD_ACK, "mac", 64 },
		{ LZ_RECORD_RESULT, "id", 32 },
		{ LZ_RECORD_RESULT, "mac", 64 },
	};
	char need[64], *s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		snprintf(need, sizeof need, "'%s'", f[i].key);
		accepted(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n, 'a'));
		accepted(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n, '9'));
		refused(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n - 1,
		    'a'), need);
		refused(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n + 1,
		    'a'), need);
		refused(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n, 'A'),
		    need);
		refused(f[i].kind, with_run(f[i].kind, f[i].key, f[i].n, 'g'),
		    need);
		refused(f[i].kind, with_run(f[i].kind, f[i].key, 0, 'a'),
		    need);
		refused(f[i].kind, with(f[i].kind, f[i].key, json_integer(7)),
		    need);
		refused(f[i].kind, with(f[i].kind, f[i].key, json_null()),
		    need);
		/* One upper-case or space digit among lower-case ones. */
		s = run_of(f[i].n, 'b');
		s[f[i].n / 2] = 'B';
		refused(f[i].kind, with(f[i].kind, f[i].key, json_string(s)),
		    need);
		s[f[i].n / 2] = ' ';
		refused(f[i].kind, with(f[i].kind, f[i].key, json_string(s)),
		    need);
		free(s);
	}
}

/* The integers: v is 1, t is Unix ms, timeout 0..86400 (JSON integers,
 * never strings, reals or booleans). */
static void
test_integer_fields(void **state)
{
	static const enum lz_record_kind all[] = { LZ_RECORD_REQUEST,
	    LZ_RECORD_CANCEL, LZ_RECORD_ACK, LZ_RECORD_RESULT };
	enum lz_record_kind q = LZ_RECORD_REQUEST;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		refused(all[i], with(all[i], "v", json_integer(0)), "'v'");
		refused(all[i], with(all[i], "v", json_integer(2)), "'v'");
		refused(all[i], with(all[i], "v", json_string("1")), "'v'");
		refused(all[i], with(all[i], "v", json_real(1.0)), "'v'");
		refused(all[i], with(all[i], "v", json_true()), "'v'");
	}
	accepted(q, with(q, "timeout", json_integer(0)));
	accepted(q, with(q, "timeout", json_integer(LZ_MAILBOX_TIMEOUT_MAX)));
	refused(q, with(q, "timeout", json_integer(LZ_MAILBOX_TIMEOUT_MAX + 1)),
	    "'timeout' is 86401, outside 0..86400");
	refused(q, with(q, "timeout", json_integer(-1)), "'timeout'");
	refused(q, with(q, "timeout", json_string("30")), "'timeout' must be "
	    "an integer");
	refused(q, with(q, "timeout", json_real(1.5)), "'timeout'");
	refused(q, with(q, "timeout", json_integer(1LL << 40)), "'timeout'");
	accepted(q, with(q, "t", json_integer(0)));
	refused(q, with(q, "t", json_integer(-1)), "'t'");
	refused(q, with(q, "t", json_string("1700000000000")), "'t' must be "
	    "an integer");
	refused(q, with(q, "t", json_real(1700000000000.0)), "'t'");
	refused(LZ_RECORD_CANCEL, with(LZ_RECORD_CANCEL, "t", json_null()),
	    "'t'");
}

/* The strings and argv at and past their limits. */
static void
test_string_limits(void **state)
{
	enum lz_record_kind q = LZ_RECORD_REQUEST, c = LZ_RECORD_CANCEL;
	char *big = run_of(LZ_MSG_ARG_MAX + 1, 'x');
	json_t *a;
	size_t i;

	(void)state;
	/* argv: 1..256 strings of at most 4096 bytes. */
	refused(q, with(q, "argv", json_array()), "'argv' is empty");
	a = json_array();
	for (i = 0; i < LZ_MSG_ARGV_MAX; i++)
		json_array_append_new(a, json_string("a"));
	accepted(q, with(q, "argv", json_deep_copy(a)));
	json_array_append_new(a, json_string("a"));
	refused(q, with(q, "argv", a), "'argv' has 257 elements, over the "
	    "limit of 256");
	accepted(q, with(q, "argv", json_pack("[s,s#]", "echo", big,
	    (size_t)LZ_MSG_ARG_MAX)));
	refused(q, with(q, "argv", json_pack("[s,s]", "echo", big)),
	    "argv[1] must be a string of at most 4096 bytes");
	refused(q, with(q, "argv", json_pack("[s,i]", "echo", 1)), "argv[1]");
	refused(q, with(q, "argv", json_pack("[s,n]", "echo")), "argv[1]");
	refused(q, with(q, "argv", json_pack("[[s]]", "echo")), "argv[0]");
	refused(q, with(q, "argv", json_string("echo hi")), "'argv' must be "
	    "an array of strings");
	refused(q, with(q, "argv", json_pack("{s:s}", "0", "echo")), "'argv'");
	/* An empty argument is an argument. */
	accepted(q, with(q, "argv", json_pack("[s,s]", "printf", "")));

	accepted(q, with_run(q, "cwd", LZ_MSG_PATH_MAX, '/'));
	refused(q, with_run(q, "cwd", LZ_MSG_PATH_MAX + 1, '/'), "'cwd' is "
	    "4097 bytes, over the limit of 4096");
	refused(q, with(q, "cwd", json_integer(1)), "'cwd' must be a string");
	accepted(q, with_run(q, "cwd", 0, '/'));

	accepted(q, with_run(q, "why", LZ_MAILBOX_WHY_MAX, 'w'));
	refused(q, with_run(q, "why", LZ_MAILBOX_WHY_MAX + 1, 'w'), "'why' is "
	    "2049 bytes, over the limit of 2048");
	refused(q, with(q, "why", json_array()), "'why' must be a string");

	accepted(q, with_run(q, "cert", LZ_MAILBOX_CERT_MAX, 'c'));
	refused(q, with_run(q, "cert", LZ_MAILBOX_CERT_MAX + 1, 'c'), "'cert' "
	    "is 8193 bytes, over the limit of 8192");
	refused(c, with_run(c, "cert", LZ_MAILBOX_CERT_MAX + 1, 'c'), "bad "
	    "cancel: 'cert'");
	refused(c, with(c, "cert", json_false()), "'cert' must be a string");
	free(big);
}

/* sig is the base64 of 64 bytes: 88 characters, two '=' of padding. */
static void
test_signature_shape(void **state)
{
	static const char *const bad[] = {
		"", "AAAA",
		/* 87 and 89 characters */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAA=",
		SIG "=",
		/* 88 characters, no padding: 66 bytes */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAAAAA",
		/* 88 characters, a character outside base64 */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAA*AA==",
		/* 88 characters with padding inside */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAA=AAAAAAAAAAAA==",
		/* the last character carries bits past the 64 bytes */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAAB==",
		/* whitespace */
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAA A==",
	};
	char good[] = SIG;
	size_t i;

	(void)state;
	/* Every character of the alphabet; the last before the padding
	 * carries 2 bits, the 4 below them zero. */
	memcpy(good, "+/09azAZ", 8);
	good[85] = 'w';
	accepted(LZ_RECORD_REQUEST, with(LZ_RECORD_REQUEST, "sig",
	    json_string(good)));
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		refused(LZ_RECORD_REQUEST, with(LZ_RECORD_REQUEST, "sig",
		    json_string(bad[i])), "'sig'");
		refused(LZ_RECORD_CANCEL, with(LZ_RECORD_CANCEL, "sig",
		    json_string(bad[i])), "'sig'");
	}
	refused(LZ_RECORD_REQUEST, with(LZ_RECORD_REQUEST, "sig",
	    json_integer(0)), "'sig' must be a string");
}

/* A request (or cancel, ack) record of exactly n bytes. */
static char *
request_of_size(size_t n)
{
	json_t *o = valid(LZ_RECORD_REQUEST), *a = json_array();
	char *s, *arg = run_of(LZ_MSG_ARG_MAX, 'a');
	size_t i, len;

	for (i = 0; i < 15; i++)
		json_array_append_new(a, json_string(arg));
	json_array_append_new(a, json_string(""));
	json_object_set_new(o, "argv", a);
	s = json_dumps(o, CANON);
	len = strlen(s);
	assert_true(len <= n && n - len <= LZ_MSG_ARG_MAX);
	free(s);
	json_array_set_new(a, 15, json_stringn(arg, n - len));
	s = text_of(o);
	assert_int_equal(strlen(s), n);
	free(arg);
	return s;
}

/* Requests, cancels and acks are at most 64 KiB; results 3 MiB. */
static void
test_record_size(void **state)
{
	struct lz_request r;
	struct lz_err err = LZ_ERR_INIT;
	char *s;

	(void)state;
	s = request_of_size(LZ_MAILBOX_REQUEST_MAX);
	assert_int_equal(lz_request_decode(LZ_RECORD_REQUEST, s,
	    LZ_MAILBOX_REQUEST_MAX, &r, &err), 0);
	lz_request_release(&r);
	free(s);
	s = request_of_size(LZ_MAILBOX_REQUEST_MAX + 1);
	refused_text(LZ_RECORD_REQUEST, s, strlen(s), "request record of "
	    "65537 bytes, over the limit of 65536");
	free(s);
	/* The limit is on the bytes, whatever they are. */
	s = run_of(LZ_MAILBOX_REQUEST_MAX + 1, ' ');
	refused_text(LZ_RECORD_ACK, s, strlen(s), "over the limit");
	refused_text(LZ_RECORD_CANCEL, s, strlen(s), "over the limit");
	free(s);
	s = run_of(LZ_MAILBOX_RESULT_MAX + 1, ' ');
	refused_text(LZ_RECORD_RESULT, s, strlen(s), "over the limit");
	free(s);
}

/* Bytes that are not one JSON object of valid UTF-8 without NUL. */
static void
test_bad_bytes(void **state)
{
	static const enum lz_record_kind all[] = { LZ_RECORD_REQUEST,
	    LZ_RECORD_CANCEL, LZ_RECORD_ACK, LZ_RECORD_RESULT };
	static const char *const not_utf8[] = {
		"\xff", "\xc0\xaf", "\xe2\x98", "\xed\xa0\x80", "\xf8\x88\x80\x80"
		"\x80", "\x80", "\xf4\x90\x80\x80",
	};
	static const char *const escapes[] = {
		"\\u0000", "a\\u0000b", "\\ud800", "\\udc00", "\\ud800\\u0041",
	};
	struct lz_buf b = LZ_BUF_INIT;
	char *s, *p;
	const char *key;
	size_t i, j, len;

	(void)state;
	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		s = text_of(valid(all[i]));
		len = strlen(s);
		/* A duplicate key, first or last, the same value or not. */
		lz_buf_reset(&b);
		lz_buf_addf(&b, "{\"v\":1,%s", s + 1);
		refused_text(all[i], b.buf, b.len, "duplicate");
		lz_buf_reset(&b);
		lz_buf_add(&b, s, len - 1);
		lz_buf_addf(&b, ",\"mac\":\"%s\"}", MAC);
		refused_text(all[i], b.buf, b.len, "duplicate");
		lz_buf_reset(&b);
		lz_buf_add(&b, s, len - 1);
		lz_buf_adds(&b, ",\"id\":\"" HEX32 "\"}");
		refused_text(all[i], b.buf, b.len, "duplicate");
		/* A NUL byte after the object, in it, or in place of it. */
		lz_buf_reset(&b);
		lz_buf_add(&b, s, len + 1);
		refused_text(all[i], b.buf, b.len, "bad");
		p = strstr(s, MAC);
		p[5] = '\0';
		refused_text(all[i], s, len, "bad");
		p[5] = MAC[5];
		refused_text(all[i], "\0", 1, "bad");
		/* Truncated, empty, trailing junk, not an object. */
		refused_text(all[i], s, len - 1, "bad");
		refused_text(all[i], s, len / 2, "bad");
		refused_text(all[i], "", 0, "bad");
		lz_buf_reset(&b);
		lz_buf_addf(&b, "%s{}", s);
		refused_text(all[i], b.buf, b.len, "bad");
		lz_buf_reset(&b);
		lz_buf_addf(&b, "[%s]", s);
		refused_text(all[i], b.buf, b.len, "bad");
		refused_text(all[i], "\"x\"", 3, "bad");
		refused_text(all[i], "7", 1, "bad");
		refused_text(all[i], "null", 4, "bad");
		/* The text of a string member: invalid UTF-8 and NUL. */
		key = all[i] == LZ_RECORD_REQUEST ? "\"why\":\"publish" :
		    all[i] == LZ_RECORD_RESULT ? "\"outcome\":\"denied" :
		    all[i] == LZ_RECORD_CANCEL ? "\"cert\":\"-----BEGIN" :
		    "\"mac\":\"0123";
		for (j = 0; j < sizeof not_utf8 /
		    sizeof not_utf8[0]; j++) {
			p = strstr(s, key) + strlen(key);
			lz_buf_reset(&b);
			lz_buf_add(&b, s, (size_t)(p - s));
			lz_buf_adds(&b, not_utf8[j]);
			lz_buf_adds(&b, p);
			refused_text(all[i], b.buf, b.len, "bad");
		}
		for (j = 0; j < sizeof escapes /
		    sizeof escapes[0]; j++) {
			p = strstr(s, key) + strlen(key);
			lz_buf_reset(&b);
			lz_buf_add(&b, s, (size_t)(p - s));
			lz_buf_adds(&b, escapes[j]);
			lz_buf_adds(&b, p);
			refused_text(all[i], b.buf, b.len, "bad");
		}
		/* An invalid UTF-8 key. */
		lz_buf_reset(&b);
		lz_buf_addf(&b, "{\"\xff\":1,%s", s + 1);
		refused_text(all[i], b.buf, b.len, "bad");
		free(s);
	}
	/* In argv, a NUL or invalid UTF-8 byte is refused too. */
	s = text_of(valid(LZ_RECORD_REQUEST));
	p = strstr(s, "\"push\"");
	lz_buf_reset(&b);
	lz_buf_add(&b, s, (size_t)(p - s) + 2);
	lz_buf_adds(&b, "\\u0000");
	lz_buf_adds(&b, p + 2);
	refused_text(LZ_RECORD_REQUEST, b.buf, b.len, "bad request record");
	lz_buf_reset(&b);
	lz_buf_add(&b, s, (size_t)(p - s) + 2);
	lz_buf_adds(&b, "\xfe");
	lz_buf_adds(&b, p + 2);
	refused_text(LZ_RECORD_REQUEST, b.buf, b.len, "bad request record");
	free(s);
	lz_buf_release(&b);
}

/* A result with n bytes of output c on stdout (and 1 on stderr). */
static void
result_with_output(struct lz_result *r, size_t n, char c)
{
	result_of(r, LZ_OUTCOME_COMPLETED);
	r->ran = 1;
	lz_buf_grow(&r->out, n);
	memset(r->out.buf, c, n);
	r->out.len = n;
	r->out.buf[n] = '\0';
	lz_buf_adds(&r->err, "e");
}

static void
test_result_canonical(void **state)
{
	static const char bytes[] = { 'o', 'k', '\0', '\xff', '\n' };
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_result r, d;
	struct lz_err err = LZ_ERR_INIT;
	size_t i;

	(void)state;
	result_of(&r, LZ_OUTCOME_COMPLETED);
	lz_tokens_push(&r.argv, "git");
	lz_tokens_push(&r.argv, "push");
	lz_tokens_push(&r.argv, "\xc3\xa9");
	r.edited = 1;
	r.ran = 1;
	r.status = 255;
	lz_buf_add(&r.out, bytes, sizeof bytes);
	r.truncated = 1;
	r.reason = lz_xstrdup("a\tb");
	r.message = lz_xstrdup("no \xe2\x98\x83");
	assert_int_equal(lz_result_encode(&r, &sb, &out, &err), 0);
	assert_string_equal(out.buf, "{\"argv\":[\"git\",\"push\",\"\\u00E9\"],"
	    "\"edited\":true,\"id\":\"" HEX32 "\",\"mac\":\"" MAC "\","
	    "\"message\":\"no \\u2603\",\"outcome\":\"completed\",\"reason\":"
	    "\"a\\tb\",\"status\":255,\"stderr\":\"\",\"stdout\":\"b2sA/wo=\","
	    "\"truncated\":true,\"v\":1}");
	assert_string_equal(sb.buf, "{\"argv\":[\"git\",\"push\",\"\\u00E9\"],"
	    "\"edited\":true,\"id\":\"" HEX32 "\",\"message\":\"no \\u2603\","
	    "\"outcome\":\"completed\",\"reason\":\"a\\tb\",\"status\":255,"
	    "\"stderr\":\"\",\"stdout\":\"b2sA/wo=\",\"truncated\":true,"
	    "\"v\":1}");
	assert_int_equal(lz_result_decode(out.buf, out.len, &d, &err), 0);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	assert_int_equal(d.out.len, sizeof bytes);
	assert_memory_equal(d.out.buf, bytes, sizeof bytes);
	assert_int_equal(d.err.len, 0);
	assert_int_equal(d.status, 255);
	assert_true(d.ran && d.edited && d.truncated);
	assert_int_equal(d.argv.n, 3);
	assert_string_equal(d.reason, "a\tb");
	assert_string_equal(d.message, r.message);
	assert_string_equal(d.mac, MAC);
	lz_result_release(&d);
	lz_result_release(&r);

	/* Every outcome, nothing run: only v, id, outcome, mac (and the
	 * reason when there is one). */
	for (i = 0; i <= LZ_OUTCOME_FAILED; i++) {
		result_of(&r, (enum lz_outcome)i);
		lz_buf_reset(&out);
		assert_int_equal(lz_result_encode(&r, &sb, &out, &err), 0);
		assert_int_equal(lz_result_decode(out.buf, out.len, &d, &err),
		    0);
		assert_int_equal(d.outcome, i);
		assert_false(d.ran);
		assert_null(d.reason);
		assert_string_equal(d.signed_bytes.buf, sb.buf);
		assert_null(strstr(out.buf, "status"));
		lz_result_release(&d);
		lz_result_release(&r);
	}
	assert_string_equal(lz_outcome_name(LZ_OUTCOME_TIMED_OUT), "timed-out");
	assert_string_equal(lz_outcome_name((enum lz_outcome)99), "?");
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

/* Output: 1 MiB a stream at most, encoding and decoding. */
static void
test_result_output_limit(void **state)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_result r, d;
	struct lz_err err = LZ_ERR_INIT;
	json_t *o;
	char *s;
	size_t n;

	(void)state;
	result_with_output(&r, LZ_MAILBOX_OUTPUT_MAX, '\x80');
	assert_int_equal(lz_result_encode(&r, &sb, &out, &err), 0);
	assert_true(out.len <= LZ_MAILBOX_RESULT_MAX);
	assert_int_equal(lz_result_decode(out.buf, out.len, &d, &err), 0);
	assert_int_equal(d.out.len, LZ_MAILBOX_OUTPUT_MAX);
	assert_memory_equal(d.out.buf, r.out.buf, LZ_MAILBOX_OUTPUT_MAX);
	lz_result_release(&d);
	lz_result_release(&r);

	result_with_output(&r, LZ_MAILBOX_OUTPUT_MAX + 1, 'x');
	lz_buf_reset(&out);
	assert_int_equal(lz_result_encode(&r, &sb, &out, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "over 1048576 bytes"));
	lz_err_release(&err);
	lz_result_release(&r);

	/* A decoder given more than 1 MiB of base64 output refuses it,
	 * padded or not. */
	for (n = LZ_MAILBOX_OUTPUT_MAX + 1; n <= LZ_MAILBOX_OUTPUT_MAX + 2;
	    n++) {
		s = malloc(4 * ((n + 2) / 3) + 1);
		memset(s, 'A', 4 * ((n + 2) / 3));
		s[4 * ((n + 2) / 3)] = '\0';
		if (n % 3 == 1)
			memcpy(s + 4 * ((n + 2) / 3) - 2, "==", 2);
		o = valid(LZ_RECORD_RESULT);
		json_object_set_new(o, "status", json_integer(0));
		json_object_set_new(o, "stderr", json_string(""));
		json_object_set_new(o, "stdout", json_string(s));
		refused(LZ_RECORD_RESULT, o, "'stdout'");
		free(s);
	}
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

/* The result's fields, one at a time. */
static void
test_result_fields(void **state)
{
	static const char *const not_b64[] = { "A", "AAA", "AAAAA", "A===",
	    "====", "AA=A", "AB==", "AAB=", " AAAA", "AAAA ", "AA\nAA==",
	    "AA*A", "AAAA====" };
	enum lz_record_kind k = LZ_RECORD_RESULT;
	static const char *const outcomes[] = { "completed", "denied",
	    "timed-out", "cancelled", "failed" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof outcomes / sizeof outcomes[0]; i++)
		accepted(k, with(k, "outcome", json_string(outcomes[i])));
	refused(k, with(k, "outcome", json_string("approved")), "'outcome'");
	refused(k, with(k, "outcome", json_string("")), "'outcome'");
	refused(k, with(k, "outcome", json_string("Denied")), "'outcome'");
	refused(k, with(k, "outcome", json_integer(1)), "'outcome'");
	refused(k, with(k, "outcome", NULL), "'outcome' is missing");
	refused(k, with(k, "id", NULL), "'id' is missing");
	refused(k, with(k, "mac", NULL), "'mac' is missing");
	refused(k, with(k, "v", NULL), "'v' is missing");
	/* Only the keys of wire.md's table. */
	refused(k, with(k, "extra", json_string("x")), "unknown key 'extra'");
	refused(k, with(k, "nonce", json_string(NONCE)), "unknown key "
	    "'nonce'");
	refused(k, with(k, "session", json_string(SESS)), "unknown key");

	/* A run: status 0..255 with stdout and stderr in base64. */
	accepted(k, json_pack("{s:i,s:s,s:s,s:s,s:i,s:s,s:s}", "v", 1, "id",
	    HEX32, "outcome", "completed", "mac", MAC, "status", 255,
	    "stdout", "aGk=", "stderr", "AAAA"));
#define RAN(st, out, err) json_pack("{s:i,s:s,s:s,s:s,s:o,s:o,s:o}", "v", \
	1, "id", HEX32, "outcome", "completed", "mac", MAC, "status", st, \
	"stdout", out, "stderr", err)
	refused(k, RAN(json_integer(256), json_string(""), json_string("")),
	    "'status' is 256, outside 0..255");
	refused(k, RAN(json_integer(-1), json_string(""), json_string("")),
	    "'status'");
	refused(k, RAN(json_string("0"), json_string(""), json_string("")),
	    "'status' must be an integer");
	refused(k, RAN(json_integer(0), json_integer(0), json_string("")),
	    "'stdout' must be a string");
	refused(k, RAN(json_integer(0), json_string(""), json_null()),
	    "'stderr' must be a string");
	for (i = 0; i < sizeof not_b64 / sizeof not_b64[0]; i++) {
		refused(k, RAN(json_integer(0), json_string(not_b64[i]),
		    json_string("")), "'stdout'");
		refused(k, RAN(json_integer(0), json_string(""),
		    json_string(not_b64[i])), "'stderr'");
	}
#undef RAN
	refused(k, with(k, "status", json_integer(0)), "'stdout' is missing");
	/* Output, or the flag that it was cut, only with a status. */
	refused(k, with(k, "stdout", json_string("aGk=")), "'stdout'");
	refused(k, with(k, "stderr", json_string("")), "'stderr'");
	refused(k, with(k, "truncated", json_true()), "'truncated'");

	/* edited and truncated are true when present (never false). */
	accepted(k, with(k, "edited", json_true()));
	refused(k, with(k, "edited", json_false()), "'edited'");
	refused(k, with(k, "edited", json_integer(1)), "'edited'");
	refused(k, with(k, "edited", json_string("true")), "'edited'");

	/* argv as run: present only when there is one. */
	accepted(k, with(k, "argv", json_pack("[s]", "true")));
	refused(k, with(k, "argv", json_array()), "'argv'");
	refused(k, with(k, "argv", json_string("true")), "'argv'");
	refused(k, with(k, "argv", json_pack("[i]", 1)), "argv[0]");

	accepted(k, with_run(k, "message", LZ_MAILBOX_MESSAGE_MAX, 'm'));
	refused(k, with_run(k, "message", LZ_MAILBOX_MESSAGE_MAX + 1, 'm'),
	    "'message' is 1025 bytes, over the limit of 1024");
	refused(k, with(k, "message", json_integer(1)), "'message'");
	accepted(k, with_run(k, "reason", LZ_MAILBOX_REASON_MAX, 'r'));
	refused(k, with_run(k, "reason", LZ_MAILBOX_REASON_MAX + 1, 'r'),
	    "'reason'");
	refused(k, with(k, "reason", json_false()), "'reason'");
}

/* A result never goes past 3 MiB: the encoder refuses to write one the
 * Escalation Client would not read. */
static void
test_result_record_limit(void **state)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_result r;
	struct lz_err err = LZ_ERR_INIT;
	char *arg = run_of(LZ_MSG_ARG_MAX, '\x01');
	size_t i;

	(void)state;
	result_with_output(&r, LZ_MAILBOX_OUTPUT_MAX, 'o');
	lz_buf_reset(&r.err);
	lz_buf_add(&r.err, r.out.buf, r.out.len);
	/* Each control byte of an edited argv takes 6 bytes (\u0001). */
	for (i = 0; i < 64; i++)
		lz_tokens_push(&r.argv, arg);
	r.edited = 1;
	assert_int_equal(lz_result_encode(&r, &sb, &out, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "over the limit"));
	lz_err_release(&err);
	assert_int_equal(out.len, 0);
	lz_result_release(&r);
	free(arg);
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

/* A request the decoder would refuse is not encoded either: the
 * coordinator would drop it and lazaret-escalate wait in vain. */
static void
test_request_encode_limits(void **state)
{
	struct lz_buf sb = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_request r, d;
	struct lz_err err = LZ_ERR_INIT;
	char *arg = run_of(LZ_MSG_ARG_MAX, 'a');
	size_t i;

	(void)state;
	request_of(&r, LZ_RECORD_REQUEST);
	r.cert = run_of(LZ_MAILBOX_CERT_MAX, 'c');
	r.sig = lz_xstrdup(SIG);
#define REFUSED(needle) do { \
	lz_buf_reset(&out); \
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), LZ_EINVAL); \
	if (strstr(err.msg, needle) == NULL) \
		fail_msg("'%s' lacks '%s'", err.msg, needle); \
	lz_err_release(&err); \
	assert_int_equal(out.len, 0); \
} while (0)
	REFUSED("the command is empty");
	/* 13 arguments of 4 KiB and an 8 KiB certificate fit in 64 KiB. */
	for (i = 0; i < 13; i++)
		lz_tokens_push(&r.argv, arg);
	r.timeout = LZ_MAILBOX_TIMEOUT_MAX;
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	assert_true(out.len <= LZ_MAILBOX_REQUEST_MAX);
	assert_int_equal(lz_request_decode(LZ_RECORD_REQUEST, out.buf, out.len,
	    &d, &err), 0);
	assert_string_equal(d.signed_bytes.buf, sb.buf);
	lz_request_release(&d);
	/* A 14th does not: refused at once, with the limit named. */
	lz_tokens_push(&r.argv, arg);
	REFUSED("over the mailbox's limit of 65536");
	lz_tokens_release(&r.argv);
	lz_tokens_push(&r.argv, "true");
	r.timeout = LZ_MAILBOX_TIMEOUT_MAX + 1;
	REFUSED("timeout of 86401 s is over the limit");
	r.timeout = 0;
	free(r.cert);
	r.cert = run_of(LZ_MAILBOX_CERT_MAX + 1, 'c');
	REFUSED("certificate is 8193 bytes");
	free(r.cert);
	r.cert = lz_xstrdup("C");
	r.why = run_of(LZ_MAILBOX_WHY_MAX + 1, 'w');
	REFUSED("justification is 2049 bytes");
	r.why[LZ_MAILBOX_WHY_MAX] = '\0';
	r.why[0] = '\xff';
	REFUSED("justification is not valid UTF-8");
	free(r.why);
	r.why = NULL;
	r.cwd = run_of(LZ_MSG_PATH_MAX + 1, '/');
	REFUSED("working directory is 4097 bytes");
	free(r.cwd);
	r.cwd = NULL;
	lz_tokens_push(&r.argv, "\xc3");
	REFUSED("argument 2 of the command is not valid UTF-8");
	lz_tokens_release(&r.argv);
	for (i = 0; i <= LZ_MSG_ARGV_MAX; i++)
		lz_tokens_push(&r.argv, "a");
	REFUSED("257 arguments, over the limit of 256");
	lz_tokens_release(&r.argv);
	lz_tokens_push(&r.argv, "a");
	lz_tokens_pushf(&r.argv, "%sb", arg);
	REFUSED("argument 2 of the command is 4097 bytes");
#undef REFUSED
	/* Cancels and acks carry no command. */
	lz_tokens_release(&r.argv);
	r.kind = LZ_RECORD_CANCEL;
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	r.kind = LZ_RECORD_ACK;
	assert_int_equal(lz_request_encode(&r, &sb, &out, &err), 0);
	free(arg);
	lz_request_release(&r);
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

static void
test_record_names(void **state)
{
	static const char *const bad[] = {
		"", "request", "request-", "request-.json",
		"request-" HEX32 ".json.tmp",
		"request-" HEX32 ".tmp",
		"request-" HEX32,
		"request-" HEX32 ".jso",
		"request-" HEX32 ".JSON",
		"request-" HEX32 ".json/",
		"request-" HEX32 ".jsonx",
		"request-" HEX32 "0.json",
		"request-0123456789abcdef0123456789abcde.json",
		"request-0123456789ABCDEF0123456789abcdef.json",
		"request-0123456789abcdeg0123456789abcdef.json",
		"request-01234567-9abcdef0123456789abcdef.json",
		"request-0123456789abcdef/123456789abcdef.json",
		"Request-" HEX32 ".json",
		"request_" HEX32 ".json",
		"requests-" HEX32 ".json",
		"req-" HEX32 ".json",
		"x-" HEX32 ".json",
		".request-" HEX32 ".json",
		"./request-" HEX32 ".json",
		"../request-" HEX32 ".json",
		"requests/request-" HEX32 ".json",
		"/run/lazaret/requests/request-" HEX32 ".json",
		" request-" HEX32 ".json",
		"request-" HEX32 ".json ",
		"request-" HEX32 ".json\n",
		"cancel--" HEX32 ".json",
		"ack-" HEX32 ".json.tmp",
		"result-" HEX32 "json",
	};
	static const char *const prefix[] = { "request", "cancel", "ack",
	    "result" };
	enum lz_record_kind k;
	char id[LZ_MAILBOX_ID_HEX + 1], want[64], *name;
	size_t i;

	(void)state;
	for (i = 0; i <= LZ_RECORD_RESULT; i++) {
		name = lz_record_name((enum lz_record_kind)i, NONCE);
		snprintf(want, sizeof want, "%s-%s.json", prefix[i], NONCE);
		assert_string_equal(name, want);
		memset(id, 'z', sizeof id);
		assert_int_equal(lz_record_name_parse(name, &k, id), 0);
		assert_int_equal(k, i);
		assert_string_equal(id, NONCE);
		free(name);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (lz_record_name_parse(bad[i], &k, id) != LZ_EINVAL)
			fail_msg("name '%s' was accepted", bad[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_canonical),
		cmocka_unit_test(test_cancel_and_ack_canonical),
		cmocka_unit_test(test_exact_key_sets),
		cmocka_unit_test(test_hex_fields),
		cmocka_unit_test(test_integer_fields),
		cmocka_unit_test(test_string_limits),
		cmocka_unit_test(test_signature_shape),
		cmocka_unit_test(test_record_size),
		cmocka_unit_test(test_request_encode_limits),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_result_canonical),
		cmocka_unit_test(test_result_output_limit),
		cmocka_unit_test(test_result_fields),
		cmocka_unit_test(test_result_record_limit),
		cmocka_unit_test(test_record_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
