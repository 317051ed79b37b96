/*
 * client-attention.c: the bell, the terminal's desktop notification and
 * the notify command for a waiting escalation request (see
 * client-attention.h). Nothing the sandbox wrote reaches the terminal
 * here: the notification text is escaped to printable ASCII.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/spawn.h"
#include "core/tokens.h"
#include "core/visible.h"
#include "src/client-attention.h"

static int	osc_777(void);
static void	feed(int fd, const char *buf, size_t len);

/*
 * Writes what the pipe takes now (it is empty: all of a JSON within
 * LZ_ATTENTION_JSON_MAX, unless the pipe was made smaller), never
 * blocking, and with SIGPIPE held back: a command that exits without
 * reading must not end the TUI.
 */
static void
feed(int fd, const char *buf, size_t len)
{
	struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old;
	ssize_t n;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while (len > 0 && ((n = write(fd, buf, len)) > 0 || (n < 0 &&
	    errno == EINTR))) {
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		}
	}
	while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Terminals that take OSC 777 notify rather than OSC 9. */
static int
osc_777(void)
{
	const char *term = getenv("TERM"), *vte = getenv("VTE_VERSION");

	return (vte != NULL && *vte != '\0') || (term != NULL &&
	    (strncmp(term, "foot", 4) == 0 || strncmp(term, "rxvt", 4) == 0));
}


char *
lz_attention_json(const struct lz_msg_prompt *m, int pane)
{
	static const size_t cuts[] = { 0, 256, 16 };
	json_t *o, *w;
	char *text = NULL;
	size_t i, why;

	for (i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		free(text);
		why = cuts[i] == 0 ? strlen(m->why) : cuts[i] * 16;
		if (why > strlen(m->why))
			why = strlen(m->why);
		while (why > 0 && ((unsigned char)m->why[why] & 0xc0) == 0x80)
			why--;
		if ((w = json_stringn(m->why, why)) == NULL)
			w = json_string("");
		o = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s?,s:o,s:s?,s:o,s:I,"
		    "s:b}", "event", "escalation-request", "id", m->id,
		    "session", m->session, "pane", pane, "profile",
		    m->profile, "command", m->command, "argv",
		    lz_tokens_json(&m->argv, cuts[i]), "cwd", m->cwd, "why", w,
		    "timeout_ms", (json_int_t)m->timeout_ms,
		    "cut", cuts[i] != 0);
		text = o ? json_dumps(o, JSON_COMPACT) : NULL;
		json_decref(o);
		if (text != NULL && strlen(text) < LZ_ATTENTION_JSON_MAX)
			break;
	}
	return text;
}

int
lz_attention_raise(struct lz_attention *a, const struct lz_tui_conf *conf,
    const struct lz_msg_prompt *m, int pane, struct lz_buf *out,
    struct lz_err *err)
{
	struct lz_buf text = LZ_BUF_INIT, prog = LZ_BUF_INIT;
	struct lz_spawn_spec sp;
	struct lz_spawn_child c;
	const char *base;
	char *json;
	int rc = 0;

	lz_buf_addch(out, '\a');
	base = m->argv.n > 0 ? strrchr(m->argv.v[0], '/') : NULL;
	base = base ? base + 1 : m->argv.n > 0 ? m->argv.v[0] : "?";
	lz_visible_add(&prog, base, strnlen(base, 40), LZ_VISIBLE_ASCII);
	if (pane > 0)
		lz_buf_addf(&text, "pane %d asks to run %s on the host", pane,
		    prog.buf);
	else
		lz_buf_addf(&text, "a session asks to run %s on the host",
		    prog.buf);
	if (conf->notify_osc && osc_777())
		lz_buf_addf(out, "\033]777;notify;Lazaret;%s\033\\", text.buf);
	else if (conf->notify_osc)
		lz_buf_addf(out, "\033]9;Lazaret: %s\033\\", text.buf);
	lz_buf_release(&text);
	lz_buf_release(&prog);
	if (conf->notify.n == 0 || a->pid > 0)
		return 0;
	memset(&sp, 0, sizeof sp);
	sp.argv = (const char *const *)conf->notify.v;
	sp.stdio = LZ_SPAWN_PIPES;
	sp.pdeathsig = SIGKILL;	/* it does not outlive the client */
	if ((rc = lz_spawn_child(&sp, &c, err)) != 0)
		return lz_err_prefix(err, rc, "[tui] notify");
	/* Its output is not read: nothing of it reaches the terminal. */
	close(c.out);
	close(c.err);
	json = lz_attention_json(m, pane);
	if (json != NULL)
		feed(c.in, json, strlen(json));
	free(json);
	close(c.in);
	a->pid = c.pid;
	a->started = lz_spawn_now_ms();
	return 0;
}

int
lz_attention_tick(struct lz_attention *a)
{
	int64_t left;

	if (a->pid <= 0)
		return -1;
	if (waitpid(a->pid, NULL, WNOHANG) == a->pid) {
		a->pid = 0;
		return -1;
	}
	left = a->started + LZ_ATTENTION_LIMIT_MS - lz_spawn_now_ms();
	if (left > 0)
		return (int)left;
	lz_attention_release(a);
	return -1;
}

void
lz_attention_release(struct lz_attention *a)
{
	if (a->pid <= 0)
		return;
	kill(-a->pid, SIGKILL);
	while (waitpid(a->pid, NULL, 0) < 0 && errno == EINTR)
		;
	a->pid = 0;
}
