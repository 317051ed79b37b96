/*
 * lazaret-escalate.c: the Escalation Client, the sandbox's one way to ask
 * the developer for host authority (spec 3.6). A static program on the
 * sandbox's PATH from a read-only control mount. It writes a signed,
 * anchored request record into /run/lazaret/requests (tmp, fsync,
 * rename), polls /run/lazaret/results for its result (gVisor does not see
 * host writes through inotify), checks the result's MAC, writes the host
 * command's stdout and stderr to its own and exits with its status, or
 * with its own documented status for a denial, a timeout, a cancellation
 * or a failure, saying why on stderr. Ctrl-C or SIGTERM writes a cancel
 * record: the host command is killed. Record formats: protocol/wire.md 2.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "core/hmac.h"
#include "core/trust.h"
#include "protocol/mailbox.h"

#define PROG "lazaret-escalate"
#define DIR_IDENTITY "/run/lazaret/identity"
#define DIR_REQUESTS "/run/lazaret/requests"
#define DIR_RESULTS "/run/lazaret/results"

/* Exit statuses of its own (documented in --help and lazaret(1)). */
#define EXIT_DENIED 77
#define EXIT_TIMED_OUT 124
#define EXIT_LAZARET 125	/* no mailbox, no identity, a bad result */
#define EXIT_FAILED 127		/* the host command could not start */
#define EXIT_CANCELLED 130

static volatile sig_atomic_t cancelled;

static void usage(FILE *f);
static void die(const char *fmt, ...) __attribute__((noreturn,
    format(printf, 1, 2)));

static void
usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [-j JUSTIFICATION] [-t SECONDS] -- COMMAND [ARG...]\n"
"\n"
"Asks the developer to run COMMAND on the host, outside this sandbox, with\n"
"the developer's own authority (git push with their keys, opening a pull\n"
"request, building an image). The developer sees the exact command, the\n"
"directory and your justification, and approves, denies or edits it; a\n"
"rule in their configuration may approve it at once. The host command's\n"
"output comes back on stdout and stderr and its exit status is this\n"
"program's. No shell runs it: pass the arguments one by one.\n"
"\n"
"  -j TEXT   why the command is needed (shown to the developer as yours)\n"
"  -t SECS   give up after SECS seconds (the profile may allow less)\n"
"\n"
"Exit status: the command's; 77 denied (the developer's message on\n"
"stderr); 124 timed out; 125 Lazaret could not ask (no mailbox); 127 the\n"
"host command could not start; 130 cancelled (Ctrl-C).\n");
}

static void
die(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_LAZARET);
}

static void
on_signal(int sig)
{
	(void)sig;
	cancelled = 1;
}

/* A whole small file (at most max bytes) into b. */
static int
slurp(const char *path, size_t max, struct lz_buf *b)
{
	char chunk[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	lz_buf_reset(b);
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if (b->len + (size_t)n > max) {
			close(fd);
			return -EFBIG;
		}
		lz_buf_add(b, chunk, (size_t)n);
	}
	close(fd);
	return n < 0 ? -errno : 0;
}

static void
random_hex(char out[LZ_MAILBOX_ID_HEX + 1])
{
	unsigned char r[LZ_MAILBOX_ID_HEX / 2];

	if (RAND_bytes(r, sizeof r) != 1)
		die("no random bytes");
	lz_hex(r, sizeof r, out);
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The anchor from the environment (64 hex digits). */
static void
anchor_of(unsigned char key[32])
{
	const char *h = getenv("LAZARET_SESSION_ANCHOR");
	unsigned v;
	int i;

	if (h == NULL || strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64)
		die("LAZARET_SESSION_ANCHOR is not set: run me in a Lazaret "
		    "session");
	for (i = 0; i < 32; i++) {
		sscanf(h + 2 * i, "%2x", &v);
		key[i] = (unsigned char)v;
	}
}

/* Signs and MACs r, then writes it into requests/ (tmp, fsync, rename). */
static void
post(struct lz_request *r, EVP_PKEY *key, const unsigned char anchor[32])
{
	struct lz_buf sb = LZ_BUF_INIT, sig = LZ_BUF_INIT, out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *name, tmp[PATH_MAX], dst[PATH_MAX];
	int fd;

	if (lz_request_encode(r, &sb, NULL, &err) != 0)
		die("%s", err.msg);
	if (r->kind != LZ_RECORD_ACK) {
		if (lz_key_sign(key, sb.buf, sb.len, &sig, &err) != 0)
			die("%s", err.msg);
		free(r->sig);
		r->sig = lz_buf_detach(&sig);
	}
	lz_hmac_hex(anchor, 32, sb.buf, sb.len, r->mac);
	if (lz_request_encode(r, &sb, &out, &err) != 0)
		die("%s", err.msg);
	name = lz_record_name(r->kind, r->id);
	snprintf(tmp, sizeof tmp, DIR_REQUESTS "/%s.tmp", name);
	snprintf(dst, sizeof dst, DIR_REQUESTS "/%s", name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0 || lz_write_all(fd, out.buf, out.len) != 0 ||
	    fsync(fd) != 0 || close(fd) != 0 || rename(tmp, dst) != 0)
		die("cannot write '%s': %s (the mailbox is full or missing)",
		    dst, strerror(errno));
	free(name);
	lz_buf_release(&sb);
	lz_buf_release(&out);
}

/* Waits for result-<id>.json and checks it; 1 when r holds it. */
static int
wait_result(const char *id, const unsigned char anchor[32], int64_t until,
    struct lz_result *r)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char path[PATH_MAX], mac[65];
	int64_t t0 = now_ms();
	int ms, rc;

	snprintf(path, sizeof path, DIR_RESULTS "/result-%s.json", id);
	while (now_ms() < until) {
		rc = slurp(path, LZ_MAILBOX_RESULT_MAX, &b);
		if (rc == 0 && lz_result_decode(b.buf, b.len, r, &err) == 0) {
			lz_hmac_hex(anchor, 32, r->signed_bytes.buf,
			    r->signed_bytes.len, mac);
			if (strcmp(r->id, id) == 0 && lz_hmac_equal(mac,
			    r->mac)) {
				lz_buf_release(&b);
				return 1;
			}
			lz_result_release(r);
			die("a result for request %.12s does not carry this "
			    "session's MAC: refused", id);
		}
		lz_err_release(&err);
		if (cancelled)
			return 0;
		/* Poll fast at first: most answers are rules, in ms. */
		ms = now_ms() - t0 < 200 ? 2 : now_ms() - t0 < 5000 ? 20 : 100;
		poll(NULL, 0, ms);
	}
	lz_buf_release(&b);
	return 0;
}

int
main(int argc, char **argv)
{
	struct lz_buf cert = LZ_BUF_INIT, keypem = LZ_BUF_INIT, dom = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_request req, c;
	struct lz_result res;
	unsigned char anchor[32];
	const char *why = "", *sess;
	char cwd[PATH_MAX];
	unsigned long timeout = 0;
	struct sigaction sa;
	EVP_PKEY *key;
	int ch, i, status;
	int64_t until;

	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	while ((ch = getopt_long(argc, argv, "+j:t:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			why = optarg;
			break;
		case 't':
			timeout = strtoul(optarg, NULL, 10);
			if (timeout == 0 || timeout > LZ_MAILBOX_TIMEOUT_MAX)
				die("-t wants 1-%d seconds",
				    LZ_MAILBOX_TIMEOUT_MAX);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	sess = getenv("LAZARET_SESSION");
	if (sess == NULL || strlen(sess) != 32)
		die("LAZARET_SESSION is not set: run me in a Lazaret session");
	anchor_of(anchor);
	if (slurp(DIR_IDENTITY "/sandbox.crt", LZ_MAILBOX_CERT_MAX, &cert) !=
	    0 || slurp(DIR_IDENTITY "/sandbox.key", 4096, &keypem) != 0 ||
	    slurp(DIR_IDENTITY "/domain", 64, &dom) != 0)
		die("no sandbox identity in " DIR_IDENTITY ": %s",
		    strerror(errno));
	if ((key = lz_key_from_pem(keypem.buf, keypem.len, &err)) == NULL)
		die("%s", err.msg);
	lz_buf_wipe(&keypem);
	lz_request_init(&req);
	req.kind = LZ_RECORD_REQUEST;
	random_hex(req.id);
	random_hex(req.nonce);
	snprintf(req.domain, sizeof req.domain, "%.16s", dom.buf);
	snprintf(req.session, sizeof req.session, "%s", sess);
	for (i = optind; i < argc; i++)
		lz_tokens_push(&req.argv, argv[i]);
	req.cwd = lz_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : "/");
	req.why = lz_xstrdup(why);
	req.timeout = (unsigned)timeout;
	req.t = now_ms();
	req.cert = lz_buf_detach(&cert);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	post(&req, key, anchor);
	/* The coordinator times out first; this is only a last guard. */
	until = now_ms() + (int64_t)(timeout ? timeout : LZ_MAILBOX_TIMEOUT_MAX) *
	    1000 + 60000;
	lz_result_init(&res);
	if (!wait_result(req.id, anchor, until, &res)) {
		if (!cancelled)
			die("no answer to request %.12s (is the Domain's "
			    "coordinator running?)", req.id);
		/* Ctrl-C: the host command is killed; wait for the word. */
		c = req;
		memset(&c.argv, 0, sizeof c.argv);
		c.kind = LZ_RECORD_CANCEL;
		random_hex(c.nonce);
		c.t = now_ms();
		c.sig = NULL;
		post(&c, key, anchor);
		free(c.sig);
		cancelled = 0;
		if (!wait_result(req.id, anchor, now_ms() + 5000, &res)) {
			fprintf(stderr, PROG ": cancelled\n");
			return EXIT_CANCELLED;
		}
	}
	/* The coordinator may delete the result now. */
	c = req;
	c.kind = LZ_RECORD_ACK;
	post(&c, NULL, anchor);
	OPENSSL_cleanse(anchor, sizeof anchor);
	if (res.edited) {
		fprintf(stderr, PROG ": the developer edited the command; ran:");
		for (i = 0; i < (int)res.argv.n; i++)
			fprintf(stderr, " %s", res.argv.v[i]);
		fputc('\n', stderr);
	}
	if (res.ran) {
		fwrite(res.out.buf, 1, res.out.len, stdout);
		fflush(stdout);
		fwrite(res.err.buf, 1, res.err.len, stderr);
		if (res.truncated)
			fprintf(stderr, PROG ": output cut at %d bytes a "
			    "stream\n", LZ_MAILBOX_OUTPUT_MAX);
	}
	switch (res.outcome) {
	case LZ_OUTCOME_COMPLETED:
		status = res.status;
		break;
	case LZ_OUTCOME_DENIED:
		fprintf(stderr, PROG ": denied%s%s%s%s\n", res.reason ? " (" :
		    "", res.reason ? res.reason : "", res.reason ? ")" : "",
		    "");
		if (res.message != NULL && res.message[0] != '\0')
			fprintf(stderr, PROG ": the developer says: %s\n",
			    res.message);
		status = EXIT_DENIED;
		break;
	case LZ_OUTCOME_TIMED_OUT:
		fprintf(stderr, PROG ": timed out: %s\n", res.reason ?
		    res.reason : "no decision in time");
		status = EXIT_TIMED_OUT;
		break;
	case LZ_OUTCOME_CANCELLED:
		fprintf(stderr, PROG ": cancelled\n");
		status = EXIT_CANCELLED;
		break;
	default:
		fprintf(stderr, PROG ": failed: %s\n", res.reason ?
		    res.reason : "the host command could not run");
		status = EXIT_FAILED;
		break;
	}
	EVP_PKEY_free(key);
	lz_result_release(&res);
	lz_request_release(&req);
	lz_buf_release(&dom);
	return status;
}
