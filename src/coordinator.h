/*
 * coordinator.h: the Session Coordinator ("lazaret __coordinator"), one per
 * Domain: the libuv glue that owns the sandbox, the control socket and
 * every Client Session's process and pty (OR-1). The only singleton is
 * struct lz_coord, as redis has "server". Logic that needs no loop lives in
 * core/ and protocol/.
 *
 * Files: coordinator-main.c (start-up, signals, teardown),
 * coordinator-server.c (socket, connections, frame dispatch),
 * coordinator-session.c (session processes, ptys, output relay),
 * coordinator-relay.c (sessions through runsc exec and their relay),
 * coordinator-watch.c (the Network Sidecar's pidfd, Domain failure),
 * coordinator-gitwatch.c (Git Sentry's watch on the shared .git).
 */
#ifndef LZ_COORDINATOR_H
#define LZ_COORDINATOR_H

#include <sys/types.h>

#include <uv.h>

#include "core/ids.h"
#include "core/tokens.h"
#include "core/util.h"
#include "src/client-setup.h"
#include "ui/pane.h"

struct lz_session;

/* One accepted connection: one Client CLI ID (DESIGN.md "Terms"). */
struct lz_conn {
	uv_pipe_t pipe;
	char client_id[2 * LZ_ID_CLIENT_BYTES + 1];
	struct lz_buf in;		/* bytes not yet decoded */
	int hello;			/* HELLO accepted */
	int closing;
	struct lz_session *session;	/* bound session, at most one */
	struct lz_conn *next;
};

enum lz_session_state {
	LZ_SESSION_RUNNING,
	LZ_SESSION_EXITED,	/* process gone, output draining */
};

struct lz_session {
	char id[2 * LZ_ID_SESSION_BYTES + 1];
	struct lz_tokens argv;
	char *cwd;
	int tty;
	pid_t pid;
	int status;			/* exit code, or 128 + signal */
	int signal;
	enum lz_session_state state;
	int open_streams;		/* output handles still open */
	uv_pipe_t out;			/* pty master or stdout pipe */
	uv_pipe_t err;			/* stderr pipe (pipe mode) */
	int in_fd;			/* pty master (dup) or stdin pipe */
	time_t started;
	struct lz_pane *pane;		/* the pty's screen (pty sessions) */
	struct lz_conn *conn;		/* attached client, or NULL */
	struct lz_session *next;
};

struct lz_coord {
	uv_loop_t *loop;
	struct lz_client cfg;		/* paths, config, profile, Domain */
	char id[2 * LZ_ID_COORDINATOR_BYTES + 1];
	char *sock_path;
	char *pid_path;			/* coordinator.pid (diagnostics) */
	char *container;		/* sandbox container ID */
	char *self;			/* absolute path of this binary */
	char *podman;			/* absolute path of podman */
	char *terminfo;			/* runtime dir's terminfo copy, or NULL */
	uv_pipe_t server;
	uv_signal_t sig_term, sig_int, sig_hup, sig_chld;
	uv_timer_t idle;
	uv_timer_t trim;		/* malloc_trim after output (5 s) */
	int trim_wanted;
	uint64_t last_output;		/* uv_now() of the last output read */
	struct lz_conn *conns;
	struct lz_session *sessions;
	unsigned nsessions;
	int stopping;
};

extern struct lz_coord lz_coord;

/* coordinator-server.c */
void lz_coord_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf);
int lz_coord_listen(struct lz_err *err);
void lz_coord_send(struct lz_conn *c, struct lz_buf *frames);
void lz_coord_conn_close(struct lz_conn *c);
void lz_coord_close_all_conns(void);

/* coordinator-session.c */
int lz_session_open(struct lz_conn *c, json_t *req, struct lz_err *err);
int lz_session_attach(struct lz_conn *c, json_t *req, struct lz_err *err);
/* The client went away or detached: a pty session keeps running. */
void lz_session_detach(struct lz_session *s);
void lz_session_input(struct lz_session *s, const unsigned char *buf,
    size_t len);
void lz_session_resize(struct lz_session *s, unsigned rows, unsigned cols);
void lz_session_hangup(struct lz_session *s);
void lz_session_reap(void);
json_t *lz_session_list(void);

/* coordinator-watch.c */
int lz_coord_watch_sidecar(int pidfd, struct lz_err *err);
void lz_coord_unwatch(void);

/* coordinator-gitwatch.c: .git/commondir moved away while the Domain runs
 * (watch), the handles closed (unwatch), a last check after teardown. */
int lz_coord_watch_git(const char *workspace, struct lz_err *err);
void lz_coord_unwatch_git(void);
void lz_coord_git_final(void);
void lz_coord_fail(const char *why);

/* coordinator-main.c */
void lz_coord_session_gone(void);
void lz_coord_stop(const char *why);

#endif
