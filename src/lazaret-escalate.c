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

#include "core/esc-client.h"
#include "core/visible.h"

#define PROG "lazaret-escalate"

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

/* Seals r and posts it into the request directory. */
static void
post(const struct lz_esc_identity *id, struct lz_request *r)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;
	char *name = lz_record_name(r->kind, r->id);

	if (lz_esc_seal(id, r, &out, &err) != 0 ||
	    lz_esc_post(LZ_ESC_DIR_REQUESTS, name, &out, &err) != 0)
		die("%s", err.msg);
	free(name);
	lz_buf_release(&out);
}

/* Waits for the result of request rid; 1 when r holds it. */
static int
wait_result(const struct lz_esc_identity *id, const char *rid, int64_t until,
    struct lz_result *r)
{
	struct lz_err err = LZ_ERR_INIT;
	int64_t t0 = lz_esc_now_ms(), now;
	int rc;

	while ((now = lz_esc_now_ms()) < until) {
		if ((rc = lz_esc_result(id, LZ_ESC_DIR_RESULTS, rid, r,
		    &err)) == 1)
			return 1;
		if (rc != 0)
			die("%s", err.msg);
		if (cancelled)
			return 0;
		/* Poll fast at first: most answers are rules, in ms (gVisor
		 * does not see the host's writes through inotify). */
		poll(NULL, 0, now - t0 < 200 ? 2 : now - t0 < 5000 ? 20 : 100);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct lz_esc_identity id;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_request req, c;
	struct lz_result res;
	struct lz_buf ran = LZ_BUF_INIT;
	const char *why = "";
	char cwd[PATH_MAX], *end;
	unsigned long timeout = 0;
	struct sigaction sa;
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
			errno = 0;
			timeout = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || optarg[0] == '-' ||
			    timeout == 0 || timeout > LZ_MAILBOX_TIMEOUT_MAX)
				die("-t wants 1-%d seconds, not '%s'",
				    LZ_MAILBOX_TIMEOUT_MAX, optarg);
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
	if (lz_esc_identity_load(&id, LZ_ESC_DIR_IDENTITY, &err) != 0)
		die("%s", err.msg);
	lz_esc_record(&id, LZ_RECORD_REQUEST, NULL, &req);
	for (i = optind; i < argc; i++)
		lz_tokens_push(&req.argv, argv[i]);
	req.cwd = lz_xstrdup(getcwd(cwd, sizeof cwd) ? cwd : "/");
	req.why = lz_xstrdup(why);
	req.timeout = (unsigned)timeout;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	post(&id, &req);
	/* The coordinator times out first; this is only a last guard. */
	until = lz_esc_now_ms() + (int64_t)(timeout ? timeout :
	    LZ_MAILBOX_TIMEOUT_MAX) * 1000 + 60000;
	if (!wait_result(&id, req.id, until, &res)) {
		if (!cancelled)
			die("no answer to request %.12s (is the Domain's "
			    "coordinator running?)", req.id);
		/* Ctrl-C: the host command is killed; wait for the word. */
		lz_esc_record(&id, LZ_RECORD_CANCEL, req.id, &c);
		post(&id, &c);
		lz_request_release(&c);
		cancelled = 0;
		if (!wait_result(&id, req.id, lz_esc_now_ms() + 5000, &res)) {
			fprintf(stderr, PROG ": cancelled\n");
			return EXIT_CANCELLED;
		}
	}
	/* The coordinator may delete the result now. */
	lz_esc_record(&id, LZ_RECORD_ACK, req.id, &c);
	post(&id, &c);
	lz_request_release(&c);
	lz_esc_identity_release(&id);
	if (res.edited) {
		/* Each element quoted and escaped: where one ends is plain. */
		for (i = 0; i < (int)res.argv.n; i++) {
			lz_buf_addch(&ran, ' ');
			lz_visible_add(&ran, res.argv.v[i],
			    strlen(res.argv.v[i]), LZ_VISIBLE_QUOTE);
		}
		fprintf(stderr, PROG ": the developer edited the command; "
		    "ran:%s\n", ran.buf);
		lz_buf_release(&ran);
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
		fprintf(stderr, PROG ": denied%s%s%s\n", res.reason ? " (" :
		    "", res.reason ? res.reason : "", res.reason ? ")" : "");
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
	lz_result_release(&res);
	lz_request_release(&req);
	return status;
}
