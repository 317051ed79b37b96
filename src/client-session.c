/*
 * client-session.c: the relay of a raw Client Session. Sandbox output that
 * reaches a terminal always goes through the VT filter (ui/vtfilter.h):
 * no OSC 52, title change or query answered by the host terminal. The
 * host terminal is restored on every path (client-tty.c).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/client-session.h"
#include "src/client-tty.h"
#include "src/cmd.h"
#include "termdb/termdb.h"
#include "ui/escape.h"
#include "ui/vtfilter.h"

struct sink {
	int fd;
	int broken;
};

static void write_all(const char *buf, size_t len, void *user);
static void emit(struct lz_vtfilter *f, struct sink *s, const void *buf,
    size_t len);

/* Sandbox bytes to a sink: through the filter when it is a terminal. */
static void
emit(struct lz_vtfilter *f, struct sink *s, const void *buf, size_t len)
{
	if (f != NULL)
		lz_vtfilter_feed(f, buf, len);
	else
		write_all(buf, len, s);
}

static void
write_all(const char *buf, size_t len, void *user)
{
	struct sink *s = user;
	ssize_t n;

	while (len > 0 && !s->broken) {
		n = write(s->fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd p = { s->fd, POLLOUT, 0 };

			poll(&p, 1, -1);
			continue;
		}
		if (n < 0) {
			s->broken = 1;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

json_t *
lz_client_open_request(const struct lz_client *c, char **argv, int argc,
    int tty, unsigned rows, unsigned cols, const char *term)
{
	char cwd[PATH_MAX], *ti = NULL;
	const char *rel = "";
	size_t wl = strlen(c->domain.workspace), i;
	json_t *req, *a, *env;

	/* The sandbox directory that matches the current one, if inside. */
	if (getcwd(cwd, sizeof cwd) != NULL &&
	    strncmp(cwd, c->domain.workspace, wl) == 0 && cwd[wl] == '/')
		rel = cwd + wl + 1;
	req = json_pack("{s:s,s:b}", "cwd", rel, "tty", tty);
	if (argc > 0) {
		a = json_array();
		for (i = 0; i < (size_t)argc; i++)
			json_array_append_new(a, json_string(argv[i]));
		json_object_set_new(req, "argv", a);
	}
	if (tty) {
		json_object_set_new(req, "rows", json_integer(rows));
		json_object_set_new(req, "cols", json_integer(cols));
		if (term != NULL) {
			json_object_set_new(req, "term", json_string(term));
			if ((strcmp(term, LZ_TERMDB_LAZARET) == 0 ?
			    lz_termdb_lazaret_entry(NULL, lz_termdb_getenv, &ti,
			    NULL) : lz_termdb_find(term, lz_termdb_getenv, &ti,
			    NULL)) == 0)
				json_object_set_new(req, "terminfo",
				    json_string(ti));
			free(ti);
		}
	}
	env = json_object();
	for (i = 0; i < c->profile->env.n; i++) {
		const char *v = getenv(c->profile->env.v[i]);

		if (v != NULL)
			json_object_set_new(env, c->profile->env.v[i],
			    json_string(v));
	}
	json_object_set_new(req, "env", env);
	return req;
}

int
lz_client_session(struct lz_conn_client *cc, const struct lz_client *c,
    char **argv, int argc, int tty, const char *attach)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT, payload = LZ_BUF_INIT;
	struct sink out = { 1, 0 }, errs = { 2, 0 };
	struct lz_vtfilter *fout = NULL, *ferr = NULL;
	struct pollfd pfd[3];
	struct lz_frame f;
	unsigned rows, cols;
	unsigned char sig;
	char buf[65536];
	int status = -1, rc, sigfd, stdin_open = 1, eof;
	struct lz_escape esc = { 0 };
	struct lz_buf keys = LZ_BUF_INIT;
	char *session = NULL;
	ssize_t n;
	json_t *j;

	sigfd = lz_tty_signal_pipe();
	if (attach != NULL) {
		lz_tty_size(0, &rows, &cols);
		j = json_pack("{s:s,s:i,s:i}", "session", attach, "rows",
		    rows, "cols", cols);
		lz_frame_add_json(&b, LZ_FRAME_ATTACH, j);
		session = lz_xstrdup(attach);
	} else {
		lz_tty_size(0, &rows, &cols);
		j = lz_client_open_request(c, argv, argc, tty, rows, cols,
		    getenv("TERM"));
		lz_frame_add_json(&b, LZ_FRAME_OPEN, j);
	}
	json_decref(j);
	if (lz_conn_send(cc, &b, &err) != 0 ||
	    lz_conn_wait(cc, &f, &payload, &err) != 0)
		goto fail;
	if (f.type == LZ_FRAME_OPENED && attach == NULL) {
		j = lz_frame_json(&f, NULL);
		session = lz_xstrdup(json_string_value(json_object_get(j,
		    "session")) ?: "?");
		json_decref(j);
	} else if (f.type != LZ_FRAME_ATTACHED) {
		lz_err_set(&err, LZ_EINVAL, "unexpected %s frame",
		    lz_frame_type_name(f.type));
		goto fail;
	}
	if (tty && lz_tty_raw(0) != 0)
		tty = 0;
	/* Anything that reaches a terminal is filtered (DESIGN "Terminals"). */
	if (isatty(1))
		fout = lz_vtfilter_new(write_all, &out);
	if (isatty(2))
		ferr = lz_vtfilter_new(write_all, &errs);
	/* The screen of a session attached to comes first. */
	if (f.type == LZ_FRAME_ATTACHED)
		emit(fout, &out, f.payload, f.len);
	for (;;) {
		pfd[0].fd = cc->fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = stdin_open ? 0 : -1;
		pfd[1].events = POLLIN;
		pfd[2].fd = sigfd;
		pfd[2].events = POLLIN;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[2].revents & POLLIN) {
			while (read(sigfd, &sig, 1) == 1) {
				if (sig == SIGWINCH && tty) {
					lz_tty_size(0, &rows, &cols);
					lz_frame_add_resize(&b, rows, cols);
				} else if (sig != SIGWINCH) {
					lz_tty_restore();
					lz_err_set(&err, LZ_ESYS, "stopped by "
					    "%s; %s", strsignal(sig), tty ?
					    "the session keeps running "
					    "('lazaret attach' returns to it)" :
					    "the command is hung up");
					goto fail;
				}
			}
		}
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(0, buf, sizeof buf);
			if (n > 0 && tty) {
				lz_buf_reset(&keys);
				if (lz_escape_filter(&esc, buf, (size_t)n,
				    &keys)) {
					lz_frame_add(&b, LZ_FRAME_DETACH, NULL,
					    0);
					lz_conn_send(cc, &b, NULL);
					lz_tty_restore();
					fprintf(stderr, "\r\n[detached from "
					    "session %.12s: 'lazaret attach' "
					    "returns to it]\r\n", session);
					status = 0;
					goto done;
				}
				if (keys.len > 0)
					lz_frame_add(&b, LZ_FRAME_INPUT,
					    keys.buf, keys.len);
			} else if (n > 0)
				lz_frame_add(&b, LZ_FRAME_INPUT, buf, (size_t)n);
			else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				stdin_open = 0;
				lz_frame_add(&b, LZ_FRAME_INPUT, NULL, 0);
			}
		}
		if (b.len > 0 && lz_conn_send(cc, &b, &err) != 0)
			goto fail;
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		rc = lz_conn_fill(cc, &err);
		if (rc < 0)
			goto fail;
		eof = rc == 0;
		while ((rc = lz_conn_next(cc, &f, &payload, &err)) == 1) {
			if (f.type == LZ_FRAME_OUTPUT ||
			    f.type == LZ_FRAME_ATTACHED)
				emit(fout, &out, f.payload, f.len);
			else if (f.type == LZ_FRAME_STDERR)
				emit(ferr, &errs, f.payload, f.len);
			else if (f.type == LZ_FRAME_EXIT) {
				j = lz_frame_json(&f, NULL);
				status = (int)json_integer_value(
				    json_object_get(j, "status"));
				json_decref(j);
				goto done;
			} else if (f.type == LZ_FRAME_ERROR) {
				j = lz_frame_json(&f, NULL);
				lz_err_set(&err, LZ_EINVAL, "%s",
				    json_string_value(json_object_get(j,
				    "message")) ?: "error");
				json_decref(j);
				goto fail;
			}
		}
		if (rc < 0)
			goto fail;
		if (eof) {
			lz_err_set(&err, LZ_ESYS, "the coordinator went away "
			    "(its log is coordinator.log in the Domain's "
			    "runtime directory)");
			goto fail;
		}
	}
fail:
	lz_tty_restore();
	lz_cmd_error("%s", err.msg ? err.msg : "the session failed");
	status = -1;
done:
	lz_tty_restore();
	free(session);
	lz_buf_release(&keys);
	lz_vtfilter_free(fout);
	lz_vtfilter_free(ferr);
	lz_buf_release(&b);
	lz_buf_release(&payload);
	lz_err_release(&err);
	return status;
}
