/*
 * esc-forge.c: the tests' attacker inside the sandbox. Writes one
 * Escalation Mailbox record the way lazaret-escalate does
 * (core/esc-client.h), with one thing wrong, so a test can check that the
 * coordinator drops it: nothing shown, nothing run, no result. Built
 * static with the tests only; never installed.
 *
 *   esc-forge [-w MS] [-i DIR] [-c CWD] [-s SESSION] MUTATION [ID]
 *       [-- ARGV...]
 *
 * Prints the request ID. With -w, waits MS ms for a result: exit 0 and
 * its outcome, then the command's stdout, printed when one came, 3 when
 * none did. -i takes the identity from DIR (a copy of another start's or
 * another Domain's /run/lazaret/identity); -c sets the record's cwd; -s
 * claims another session (MACed with this session's anchor).
 * MUTATION: ok, bad-mac, bad-sig, altered (a byte of argv changed after
 * sealing), truncated, not-utf8, stale, future, unknown-session,
 * wrong-domain, name-mismatch, replay (the same bytes again once the first
 * was read), replay-nonce (a new ID, the last nonce), unknown-key,
 * dup-key, big-why, cancel ID, ack ID (of another session's request).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/esc-client.h"
#include "core/ids.h"

static void
fail(const char *what, const struct lz_err *err)
{
	fprintf(stderr, "esc-forge: %s: %s\n", what, err->msg);
	exit(2);
}

/* The record's bytes with text inserted after its first '{'. */
static void
insert_after_brace(struct lz_buf *rec, const char *text)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_buf_addch(&b, '{');
	lz_buf_adds(&b, text);
	lz_buf_add(&b, rec->buf + 1, rec->len - 1);
	lz_buf_reset(rec);
	lz_buf_add(rec, b.buf, b.len);
	lz_buf_release(&b);
}

static void
post(const char *name, const struct lz_buf *rec)
{
	struct lz_err err = LZ_ERR_INIT;

	if (lz_esc_post(LZ_ESC_DIR_REQUESTS, name, rec, &err) != 0)
		fail("post", &err);
}

/* Waits until the record name is gone from the request directory. */
static void
wait_read(const char *name)
{
	char *path = lz_xasprintf("%s/%s", LZ_ESC_DIR_REQUESTS, name);
	int i;

	for (i = 0; i < 1000 && access(path, F_OK) == 0; i++)
		poll(NULL, 0, 10);
	free(path);
}

int
main(int argc, char **argv)
{
	struct lz_esc_identity id;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_request r;
	struct lz_result res;
	struct lz_buf rec = LZ_BUF_INIT;
	const char *iddir = LZ_ESC_DIR_IDENTITY, *m, *target = NULL;
	const char *cwd = "/workspace", *claim = NULL;
	char *name, nonce[LZ_MAILBOX_ID_HEX + 1];
	long wait_ms = 0;
	int ch, i, rc;
	int64_t until;

	while ((ch = getopt(argc, argv, "+w:i:c:s:")) != -1) {
		if (ch == 'w')
			wait_ms = strtol(optarg, NULL, 10);
		else if (ch == 'i')
			iddir = optarg;
		else if (ch == 'c')
			cwd = optarg;
		else if (ch == 's')
			claim = optarg;
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	m = argv[optind++];
	if ((strcmp(m, "cancel") == 0 || strcmp(m, "ack") == 0) &&
	    optind < argc)
		target = argv[optind++];
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (lz_esc_identity_load(&id, iddir, &err) != 0)
		fail("identity", &err);
	lz_esc_record(&id, strcmp(m, "cancel") == 0 ? LZ_RECORD_CANCEL :
	    strcmp(m, "ack") == 0 ? LZ_RECORD_ACK : LZ_RECORD_REQUEST, target,
	    &r);
	if (r.kind == LZ_RECORD_REQUEST) {
		for (i = optind; i < argc; i++)
			lz_tokens_push(&r.argv, argv[i]);
		if (r.argv.n == 0)
			lz_tokens_push(&r.argv, "true");
		r.cwd = lz_xstrdup(cwd);
		r.why = lz_xstrdup("esc-forge");
	}
	if (claim != NULL)
		snprintf(r.session, sizeof r.session, "%s", claim);
	if (strcmp(m, "stale") == 0)
		r.t -= 10 * 60 * 1000;
	else if (strcmp(m, "future") == 0)
		r.t += 10 * 60 * 1000;
	else if (strcmp(m, "unknown-session") == 0)
		lz_id_random(r.session, LZ_MAILBOX_ID_HEX / 2);
	else if (strcmp(m, "wrong-domain") == 0)
		memcpy(r.domain, "0000000000000000", 16);
	if (lz_esc_seal(&id, &r, &rec, &err) != 0)
		fail("seal", &err);
	if (strcmp(m, "big-why") == 0) {
		/* The codec refuses to make it: the bytes are edited. */
		struct lz_buf w = LZ_BUF_INIT;
		char *p = strstr(rec.buf, "\"why\":\"esc-forge\"");

		lz_buf_add(&w, rec.buf, (size_t)(p - rec.buf));
		lz_buf_adds(&w, "\"why\":\"");
		for (i = 0; i < LZ_MAILBOX_WHY_MAX + 10; i++)
			lz_buf_addch(&w, 'a');
		lz_buf_adds(&w, p + strlen("\"why\":\"esc-forge"));
		lz_buf_reset(&rec);
		lz_buf_add(&rec, w.buf, w.len);
		lz_buf_release(&w);
	}
	if (strcmp(m, "bad-mac") == 0) {
		char *p = strstr(rec.buf, "\"mac\":\"");

		p[7] = p[7] == '0' ? '1' : '0';
	} else if (strcmp(m, "bad-sig") == 0) {
		char *p = strstr(rec.buf, "\"sig\":\"");

		p[8] = p[8] == 'A' ? 'B' : 'A';
	} else if (strcmp(m, "altered") == 0) {
		char *p = strstr(rec.buf, "\"argv\":[\"");

		p[9] ^= 1;
	} else if (strcmp(m, "truncated") == 0)
		rec.len /= 2;
	else if (strcmp(m, "not-utf8") == 0) {
		char *p = strstr(rec.buf, "esc-forge");

		p[0] = (char)0xff;
	} else if (strcmp(m, "unknown-key") == 0)
		insert_after_brace(&rec, "\"aaa\":1,");
	else if (strcmp(m, "dup-key") == 0)
		insert_after_brace(&rec, "\"v\":1,");
	name = lz_record_name(r.kind, r.id);
	if (strcmp(m, "name-mismatch") == 0) {
		char other[LZ_MAILBOX_ID_HEX + 1];

		free(name);
		lz_id_random(other, LZ_MAILBOX_ID_HEX / 2);
		name = lz_record_name(r.kind, other);
	}
	post(name, &rec);
	if (strcmp(m, "replay") == 0) {
		wait_read(name);
		post(name, &rec);
	} else if (strcmp(m, "replay-nonce") == 0) {
		wait_read(name);
		memcpy(nonce, r.nonce, sizeof nonce);
		lz_request_release(&r);
		lz_esc_record(&id, LZ_RECORD_REQUEST, NULL, &r);
		memcpy(r.nonce, nonce, sizeof nonce);
		lz_tokens_push(&r.argv, "true");
		r.cwd = lz_xstrdup("/workspace");
		r.why = lz_xstrdup("esc-forge");
		lz_buf_reset(&rec);
		if (lz_esc_seal(&id, &r, &rec, &err) != 0)
			fail("seal", &err);
		free(name);
		name = lz_record_name(r.kind, r.id);
		post(name, &rec);
	}
	printf("%s\n", r.id);
	fflush(stdout);
	rc = 0;
	if (wait_ms > 0) {
		rc = 3;
		until = lz_esc_now_ms() + wait_ms;
		while (lz_esc_now_ms() < until) {
			if (lz_esc_result(&id, LZ_ESC_DIR_RESULTS, r.id, &res,
			    &err) == 1) {
				printf("%s\n", lz_outcome_name(res.outcome));
				fwrite(res.out.buf, 1, res.out.len, stdout);
				lz_result_release(&res);
				rc = 0;
				break;
			}
			lz_err_release(&err);
			poll(NULL, 0, 20);
		}
	}
	free(name);
	lz_buf_release(&rec);
	lz_request_release(&r);
	lz_esc_identity_release(&id);
	return rc;
}
