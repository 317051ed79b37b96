/*
 * coordinator.h: the Session Coordinator ("lazaret __coordinator"), one per
 * Domain: the libuv glue that owns the sandbox, the control socket and
 * every Client Session's process and pty (OR-1). Its state is struct
 * lz_coord, as redis has "server", plus the file-local state of its two
 * watches (the processes in coordinator-watch.c, the shared .git in
 * coordinator-gitwatch.c). Who is bound to whom is the session registry's
 * (core/registry.h), whose actions lz_coord_act carries out; logic that
 * needs no loop lives in core/ and protocol/. docs/architecture.md tells
 * how a keystroke and a byte of output travel through these files.
 *
 * Files: coordinator-main.c (start-up, signals, teardown),
 * coordinator-server.c (socket, connections, frame dispatch),
 * coordinator-session.c (session processes, ptys, input and output
 * queues, backpressure),
 * coordinator-relay.c (sessions through runsc exec and their relay),
 * coordinator-watch.c (the sidecar's and sandbox's pidfds, Domain
 * failure),
 * coordinator-gitwatch.c (Git Sentry's watch on the shared .git),
 * coordinator-history.c (the Git history guard, told by that watch).
 */
#ifndef LZ_COORDINATOR_H
#define LZ_COORDINATOR_H

#include <sys/types.h>

#include <uv.h>

#include "core/ids.h"
#include "core/registry.h"
#include "core/sandbox-prep.h"
#include "core/tokens.h"
#include "core/util.h"
#include "protocol/frame.h"
#include "protocol/mailbox.h"
#include "src/client-setup.h"
#include "ui/pane.h"

/*
 * Backpressure towards a client (DESIGN.md "The coordinator's loop"):
 * above this many bytes queued for a connection, a pipe session's output
 * is no longer read (its command blocks, as on a slow pipe) and a pty
 * session's OUTPUT to it stops (its pane keeps the screen); once the
 * queue is under the low mark the output resumes, after one SNAPSHOT for
 * a pty session.
 */
#define LZ_CONN_HIGH_WATER (1024u * 1024)
#define LZ_CONN_LOW_WATER (256u * 1024)
/*
 * A session's input queue holds at most the client's window
 * (LZ_REG_INPUT_WINDOW, twice across a takeover) plus this much of the
 * pane's answers to queries; answers past it are dropped and counted.
 */
#define LZ_SESSION_REPLY_MAX (64u * 1024)

/* One accepted connection: one Client CLI ID (DESIGN.md "Terms"). */
struct lz_conn {
	uv_pipe_t pipe;
	struct lz_reg_conn *reg;	/* NULL once it left the registry */
	struct lz_buf in;		/* bytes not yet decoded */
	size_t queued;			/* bytes in the write queue */
	int lagging;			/* pty OUTPUT held back (slow) */
	unsigned long history;		/* scrollback lines of a SNAPSHOT */
	int closing;
};

struct lz_session {
	struct lz_reg_session *reg;
	struct lz_tokens argv;
	pid_t pid;
	int tty;
	int open_streams;		/* output handles still open */
	uv_pipe_t out;			/* pty master or stdout pipe */
	uv_pipe_t err;			/* stderr pipe (pipe mode) */
	uv_pipe_t in;			/* pty master (dup) or stdin pipe */
	int in_open;
	size_t in_queued;		/* input bytes not yet written */
	unsigned long replies_dropped;	/* pane answers over the bound */
	int paused;			/* pipe output not read: slow client */
	uv_timer_t hold;		/* status 128: is the sandbox gone? */
	uv_timer_t kill;		/* hung up: killed if still there */
	int killing;
	struct lz_pane *pane;		/* the pty's screen (pty sessions) */
};

struct lz_coord {
	uv_loop_t *loop;
	struct lz_client cfg;		/* paths, config, profile, Domain */
	struct lz_registry reg;		/* connections and sessions */
	struct lz_trust *trust;		/* this instance's Trust Anchor */
	char id[2 * LZ_ID_COORDINATOR_BYTES + 1];
	/* This start's runtime component IDs (SR-9). */
	char sidecar_id[2 * LZ_ID_COMPONENT_BYTES + 1];
	char sandbox_id[2 * LZ_ID_COMPONENT_BYTES + 1];
	char *sock_path;
	char *pid_path;			/* coordinator.pid (diagnostics) */
	char *log_path;			/* coordinator.log: stdout, stderr */
	char *container;		/* sandbox container ID */
	/* The command lines the next start would run: created when this
	 * Domain ends cleanly (lz_domain_prepare, core/sandbox-prep.h). */
	struct lz_sandbox_plan next;
	char *self;			/* absolute path of this binary */
	char *podman;			/* absolute path of podman */
	char *terminfo;			/* runtime dir's terminfo copy, or NULL */
	uv_pipe_t server;
	uv_signal_t sig_term, sig_int, sig_hup, sig_chld;
	uv_timer_t idle;
	uv_timer_t trim;		/* malloc_trim after output (5 s) */
	uv_timer_t log_check;		/* the log's bound (coordinator-log.c) */
	int trim_wanted;
	uint64_t last_output;		/* uv_now() of the last output read */
	int closed;			/* handles closed: the loop ends */
};

extern struct lz_coord lz_coord;

/* coordinator-log.c: the log's size bound, checked twice a second. */
#define LZ_COORD_LOG_MAX (8LL * 1024 * 1024)
void lz_coord_log_start(const char *runtime);

/* coordinator-server.c */
void lz_coord_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf);
int lz_coord_listen(struct lz_err *err);
/* Queues frames (taken from the buffer) for c. */
void lz_coord_send(struct lz_conn *c, struct lz_buf *frames);
void lz_coord_conn_close(struct lz_conn *c);
/* Carries out the registry's actions (core/registry.h), then frees them. */
void lz_coord_act(struct lz_acts *a);
/* An ERROR frame to every connection (a Domain failure). */
void lz_coord_tell_all(const char *code, const char *message);

/* coordinator-session.c */
void lz_session_open(struct lz_conn *c, const struct lz_frame *f);
/* Keys or stdin from the client; len 0 is end of input. */
void lz_session_input(struct lz_session *s, const unsigned char *buf,
    size_t len, size_t client_bytes);
/* The pty's size (with pixels from the host's cell) and the pane's; with
 * mark, a RESIZED mark to the attached client (not when an ATTACHED
 * screen of the new size follows). */
void lz_session_resize(struct lz_session *s, unsigned rows, unsigned cols,
    int mark);
/* The attaching or opening client's host terminal, for the pane's
 * answers; lz_session_cell: only the cell's pixels (RESIZE). */
void lz_session_host(struct lz_session *s, const struct lz_msg_host *h);
void lz_session_cell(struct lz_session *s, unsigned w, unsigned h);
void lz_session_hangup(struct lz_session *s);
/*
 * The screen (after up to history lines of scrollback) as frames of type
 * (ATTACHED or SNAPSHOT), several flagged MORE when it is longer than one
 * (lz_frame_add_screen).
 */
void lz_session_screen(struct lz_session *s, unsigned long history,
    enum lz_frame_type type, struct lz_buf *frames);
/* c's write queue fell under the low mark: resume what it held back. */
void lz_session_drained(struct lz_conn *c);
void lz_session_free(struct lz_session *s);
void lz_session_reap(void);

/* coordinator-watch.c: the sidecar's and the sandbox's processes. */
int lz_coord_watch(int sidecar_pidfd, int sandbox_pidfd, struct lz_err *err);
void lz_coord_unwatch(void);
/* Fails the Domain now if a watched process has ended. */
void lz_coord_watch_check(void);

/* coordinator-gitwatch.c: .git/commondir moved away while the Domain runs
 * (watch), the handles closed (unwatch), a last check after teardown. */
int lz_coord_watch_git(const char *workspace, struct lz_err *err);
void lz_coord_unwatch_git(void);
void lz_coord_git_final(void);
void lz_coord_fail(const char *why);

/*
 * coordinator-history.c: the Git history guard (core/history.h). start
 * opens its stores and begins the launch pass on a thread; ready joins
 * it (a failure is a warning line to the starting client on ready_fd;
 * ok 0: the start failed, the guard is put away);
 * poke says the shared .git changed, tick is the one-second check; note
 * is the latest detection for SESSIONS (NULL when none); stop closes its
 * handle; final is the teardown pass, once the sandbox is gone.
 */
int lz_coord_history_start(struct lz_err *err);
void lz_coord_history_ready(int ready_fd, int ok);
void lz_coord_history_poke(void);
void lz_coord_history_tick(void);
const char *lz_coord_history_note(void);
void lz_coord_history_stop(void);
void lz_coord_history_final(void);

/* coordinator-mailbox.c: the mailbox's files. */
int lz_coord_mailbox_start(struct lz_err *err);
void lz_coord_mailbox_stop(void);
/* A result record into results/ (tmp, fsync, rename); removing one. */
void lz_coord_mailbox_write(const char *name, const struct lz_buf *data);
void lz_coord_mailbox_remove(const char *name);

/* coordinator-escalate.c: Host Escalation. */
int lz_coord_esc_start(struct lz_err *err);
void lz_coord_esc_stop(void);
void lz_coord_esc_release(void);
/* A record read from the mailbox file named for kind and id (not yet
 * verified: its own ID must be the name's). */
void lz_coord_record(enum lz_record_kind kind, const char *id,
    const char *buf, size_t len);
/* DECISION from c. */
void lz_coord_decision(struct lz_conn *c, const struct lz_frame *f);
/* A client attached to session: its waiting prompt is shown there. */
void lz_coord_esc_attached(const char *session);
/* The session ended: its host commands are killed, its requests go. */
void lz_coord_esc_session_gone(const char *session);
/* SIGCHLD: host commands that ended. */
void lz_coord_esc_reap(void);
/* Requests of the session waiting for the developer. */
unsigned lz_coord_esc_pending(const char *session);

/* coordinator-main.c */
/* TRUSTED: the Trust Anchor and every identity issued, into frames. */
void lz_coord_trusted(struct lz_buf *frames);
/* Begins teardown: publication withdrawn, every session hung up. */
void lz_coord_stop(const char *why);
/* No session is left: every handle is closed and the loop ends. */
void lz_coord_close(void);

#endif
