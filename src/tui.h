/*
 * tui.h: the full-screen TUI (`lazaret` on a terminal, `lazaret attach`).
 * One process, one poll loop: the host terminal (keys in, frames out), a
 * control connection to the Domain's coordinator (session list, status),
 * and one connection per pane, each bound to one Client Session (one
 * Client CLI ID per session, FR-10). Every pane keeps a mirror of the
 * session's screen (ui/pane.h fed with the session's output; the
 * coordinator's pane stays the one that answers the program and survives
 * a detach); the renderer (ui/render.h) draws the mirrors once per frame.
 *
 * Files: tui-main.c (the loop, start and exit), tui-pane.c (pane sources:
 * a session connection, or a host pty in bench mode), tui-draw.c (layout,
 * borders, status line, synchronized output), tui-action.c (what bound
 * keys do), tui-copy.c (scrollback, search, selection, OSC 52),
 * tui-overlay.c (help, session list, questions), tui-prompt.c
 * (escalation prompts over their pane), tui-mouse.c (the mouse),
 * tui-host.c (the host's colours and cell size).
 */
#ifndef LZ_TUI_H
#define LZ_TUI_H

#include <sys/types.h>
#include <time.h>

#include "src/client-attention.h"
#include "src/client-conn.h"
#include "ui/hyperlink.h"
#include "ui/keys.h"
#include "ui/layout.h"
#include "ui/pane.h"
#include "ui/prompt.h"
#include "ui/render.h"
#include "ui/term.h"

#define TUI_MAX_PANES 64
#define TUI_FRAME_MS 16
#define TUI_FLOOD_BYTES 512	/* a frame's output from this on: throttle */
#define TUI_PANE_INPUT_MAX (1024 * 1024)	/* keys queued for a pane */
#define TUI_SYNC_MS 1000	/* longest hold of a synchronized update */
#define TUI_HOST_MS 2000	/* longest wait for the host's DA1 answer */
#define TUI_HOST_ANSWER_MAX 128	/* a longer "answer" is keys */
/* The status line while the Git history guard reports a loss. */
#define TUI_HISTORY_NOTE \
	"history changed: `lazaret git restore` brings it back"

enum tui_mode {
	TUI_NORMAL,
	TUI_COPY,		/* scrollback of the active pane */
	TUI_SEARCH,		/* typing a search in copy mode */
	TUI_HELP,
	TUI_LIST,
	TUI_CONFIRM,		/* a y/n question on the status line */
};

struct tui_pane {
	int id;				/* layout leaf */
	int is_pty;			/* bench mode: a host pty */
	struct lz_conn_client cc;	/* session connection */
	int fd;				/* cc.fd, or the pty master */
	pid_t pid;			/* bench mode child */
	char session[33];
	char *command;			/* for the status line and list */
	struct lz_pane *pane;		/* mirror of the session's screen */
	int restoring;			/* in a snapshot (tui_pane_snapshot) */
	int more;			/* its last frame was flagged MORE */
	struct lz_rect rect;
	struct lz_buf inq;		/* keys waiting for the window */
	struct lz_buf sendq;		/* frames (bytes) not yet written */
	size_t dropped;			/* keys over TUI_PANE_INPUT_MAX */
	int ended;			/* EXIT or error: remove it */
	int status;
	/*
	 * A synchronized update (?2026) in progress: the pane as the last
	 * frame showed it (hold, hold_rect), shown until the update ends or
	 * TUI_SYNC_MS passes (then sync_expired until ?2026 is reset).
	 */
	struct lz_cell *hold;
	struct lz_rect hold_rect;
	int hold_crow, hold_ccol, hold_cvis;
	struct timespec hold_since;
	int sync_expired;
	/* Copy mode. */
	size_t back;			/* lines scrolled back */
	int cy, cx;			/* cursor in view coordinates */
	int sel;			/* selection started */
	long sel_line;
	int sel_col;
	/* Escalation prompts of this pane's session, the shown one first
	 * (tui-prompt.c); while there is one it takes the pane's keys. */
	struct lz_prompt *prompts;
	size_t nprompts, prompts_alloc;
	int wheel;			/* copy mode came from the mouse */
	int guard_drawn;		/* the head was drawn in its guard */
};

struct tui_listent {
	char session[33];
	char *command;
	int running, attached, here;
};

struct tui {
	struct lz_client *c;		/* NULL in bench mode */
	const char *self;
	const struct lz_tui_conf *conf;
	struct lz_term term;
	struct lz_render r;
	struct lz_layout layout;
	struct tui_pane *panes[TUI_MAX_PANES];
	int npanes;
	int active;			/* index in panes, or -1 */
	int last_id;			/* the pane focused before */
	int next_id;
	int rows, cols;			/* the host terminal */
	struct lz_keyin keyin;
	enum tui_mode mode;
	int dirty;			/* draw at the next frame */
	size_t output;			/* pane output since the last frame */
	int flooding;			/* the last frame was a flood */
	struct timespec last_frame;	/* of the last flood frame */
	char message[256];		/* on the status line until ... */
	time_t message_until;
	char why[64];			/* why the TUI stopped (a signal) */
	char clock[16];			/* "HH:MM" of clock_minute */
	time_t clock_minute;
	int sigfd;
	int quit;			/* 1: leave the loop */
	int detached;
	int failed;			/* the Domain failed */
	/* The control connection (session list, status). */
	struct lz_conn_client ctl;
	int have_ctl;
	struct tui_listent *list;
	size_t nlist;
	int list_sel;
	time_t list_asked;
	/* A question waiting for y/n, and what yes does. */
	char question[160];
	void (*on_yes)(struct tui *t);
	/* The last copied text. */
	struct lz_buf paste;
	char search[128];
	size_t search_len;
	int search_up;
	int osc52;			/* the host terminal takes OSC 52 */
	int bench;			/* bench mode: no coordinator */
	char **bench_argv;		/* bench mode: every pane runs it */
	int bench_quiet;		/* bench mode, detached: no drawing */
	int last_status;		/* of the last session that ended */
	int history_changed;		/* SESSIONS said history changed */
	struct lz_buf out;
	struct lz_attention attention;	/* a waiting request's notify */
	int prompt_zoom;		/* pane id zoomed for its prompt, -1 */
	/* Where a pane's file links point on the host (ui/hyperlink.h). */
	struct lz_hyperlink_map links;
	char hostname[256];
	char *cwd;			/* bench mode: the workspace */
	/* The host's colours and cell size (tui-host.c). */
	struct lz_pane_host host;
	int host_asking;		/* until DA1's answer or TUI_HOST_MS */
	struct timespec host_since;
	int host_text_w, host_text_h;	/* CSI 14 t's answer, in pixels */
	unsigned char host_pend[TUI_HOST_ANSWER_MAX];	/* a cut answer */
	size_t host_npend;
	/* The mouse (tui-mouse.c). */
	int mouse_on;			/* the host reports it */
	int mouse_any;			/* with any motion (?1003) */
	int drag;			/* tui-mouse.c's enum drag */
	int drag_pane;			/* index in panes */
	int drag_row, drag_col, drag_vertical, drag_moved;
};

/* tui-main.c */
/*
 * Runs the TUI. argv/argc: the first pane's command (bench mode: a host
 * command); attach: session IDs to show instead of opening a new one
 * (NULL-terminated), take: take over sessions attached elsewhere. Returns
 * the exit code.
 */
int lz_tui_run(struct lz_client *c, const char *self, char **argv, int argc,
    char **attach, int take);
int lz_tui_bench(char **argv, int argc, int quiet, unsigned rows,
    unsigned cols);
void tui_message(struct tui *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tui_layout(struct tui *t);
/* Milliseconds since a (CLOCK_MONOTONIC). */
long tui_ms_since(const struct timespec *a);

/* tui-pane.c */
struct tui_pane *tui_pane_open(struct tui *t, char **argv, int argc,
    const char *attach, int take, unsigned rows, unsigned cols,
    struct lz_err *err);
struct tui_pane *tui_pane_spawn(struct tui *t, char **argv, unsigned rows,
    unsigned cols, struct lz_err *err);
/*
 * The mirror takes a snapshot (ATTACHED, or the coordinator's catch-up
 * after a gap in OUTPUT), then output.
 */
void tui_pane_snapshot(struct tui_pane *p, const void *buf, size_t len);
void tui_pane_output(struct tui_pane *p, const void *buf, size_t len);
/*
 * The frames that came in the same read as the answer to OPEN or ATTACH
 * (the rest of an attached screen, a waiting escalation PROMPT): handled
 * once the pane is in t->panes, as its socket will not wake poll for them.
 */
void tui_pane_buffered(struct tui *t, struct tui_pane *p);
/* Reads what the pane's source has; 0, or -1 when the pane ended. */
int tui_pane_read(struct tui *t, struct tui_pane *p);
/* Keys for the pane's program, queued (bounded) and sent without blocking. */
void tui_pane_input(struct tui *t, struct tui_pane *p, const void *buf,
    size_t len);
/* Sends what the pane's queues hold, as far as it goes without blocking. */
void tui_pane_flush(struct tui *t, struct tui_pane *p);
/* A control frame for the pane's session, behind its queued input. */
void tui_pane_control(struct tui *t, struct tui_pane *p,
    struct lz_buf *frame);
/*
 * A new place for the pane: its mirror and its session's pty take the new
 * size. Until the wire can mark where the coordinator's pane resized
 * (issue 17, item 6), the mirror resizes here, at once; with marks it must
 * resize only when it reads one (tui_pane_resized), so that bytes the
 * coordinator emulated at the old size are not emulated at the new one by
 * the mirror.
 */
void tui_pane_resize(struct tui *t, struct tui_pane *p, struct lz_rect r);
/* The coordinator's pane was resized here in the output: the mirror too. */
void tui_pane_resized(struct tui_pane *p, unsigned rows, unsigned cols);
void tui_pane_detach(struct tui *t, struct tui_pane *p);
void tui_pane_hangup(struct tui *t, struct tui_pane *p);
void tui_pane_free(struct tui_pane *p);
struct tui_pane *tui_active(struct tui *t);
/* The pane's number on the status line (1, 2, ...). */
int tui_pane_number(const struct tui *t, const struct tui_pane *p);

/* tui-draw.c */
void tui_draw(struct tui *t);
/* Milliseconds until a held update (?2026) times out, or -1 if none. */
long tui_sync_wait(struct tui *t);
void tui_sync_release(struct tui_pane *p);

/* tui-action.c */
void tui_focus(struct tui *t, int i);
void tui_action(struct tui *t, enum lz_action a);
/* Adds a pane beside the active one (dir: LZ_DIR_RIGHT or DOWN). */
void tui_new_pane(struct tui *t, int dir, const char *attach, int take);
/* The first pane: argv (argc 0: the profile's command). */
void tui_new_pane_argv(struct tui *t, char **argv, int argc,
    struct lz_err *err);
void tui_remove_ended(struct tui *t);

/* tui-copy.c */
void tui_copy_enter(struct tui *t);
void tui_copy_key(struct tui *t, const struct lz_key *k);
void tui_search_key(struct tui *t, const struct lz_key *k);
/* Marks the selection in the back buffer (after the pane is drawn). */
void tui_copy_draw(struct tui *t, struct tui_pane *p);
void tui_copy_scroll(struct tui *t, struct tui_pane *p, int lines);
void tui_copy_select(struct tui *t, struct tui_pane *p, int start, int y,
    int x);
void tui_copy_done(struct tui *t, struct tui_pane *p);

/* tui-copy.c: the host's URI of a pane's link k into out (1), or 0. */
int tui_link_uri(struct tui *t, struct tui_pane *p, int k, struct lz_buf *out);

/* tui-host.c */
/* Asks the host for its colours and cell size (with the first frame). */
void tui_host_ask(struct tui *t);
/* What OPEN, ATTACH and HOST carry of the host terminal. */
void tui_host_msg(const struct tui *t, struct lz_msg_host *m);
/*
 * Takes the host's answers from the start of buf[0..n): the bytes used
 * (an answer cut at the end is kept in host_pend for the next read).
 */
size_t tui_host_input(struct tui *t, const unsigned char *buf, size_t n);

/* tui-mouse.c */
/* Asks the host for the mouse reports the panes need (each frame). */
void tui_mouse_mode(struct tui *t, struct lz_buf *out);
/* What stops them, for every way out of the TUI. */
void tui_mouse_off(struct lz_buf *out);
/*
 * Takes a mouse report at s[0..n): the bytes used, 0 if s does not start
 * with one, n + 1 if one is cut by the read.
 */
size_t tui_mouse_input(struct tui *t, const unsigned char *s, size_t n);

/* tui-prompt.c */
void tui_prompt_add(struct tui *t, struct tui_pane *p,
    const struct lz_frame *f);
void tui_prompt_withdrawn(struct tui *t, struct tui_pane *p,
    const struct lz_frame *f);
/* Whether the pane shows a prompt (its keys then go to it). */
int tui_prompt_up(const struct tui_pane *p);
size_t tui_prompts_waiting(const struct tui *t);
/* Keys typed while the pane has the focus and a prompt. */
void tui_prompt_keys(struct tui *t, struct tui_pane *p,
    const unsigned char *buf, size_t n);
/*
 * Pasted text: only into a denial's message or an element being edited,
 * never read as keys (the paste buffer holds what the sandbox printed).
 */
void tui_prompt_paste(struct tui *t, struct tui_pane *p, const char *text,
    size_t n);
void tui_prompt_fit(struct tui *t);
int tui_prompt_wake(struct tui *t);
void tui_prompt_draw(struct tui *t, struct tui_pane *p);
void tui_prompt_free(struct tui_pane *p);

/* tui-overlay.c */
void tui_ask(struct tui *t, const char *question, void (*on_yes)(struct tui *));
void tui_overlay_key(struct tui *t, const struct lz_key *k);
void tui_overlay_draw(struct tui *t);
void tui_list_refresh(struct tui *t);
void tui_ctl_read(struct tui *t);

#endif
