/*
 * client-attention.h: making a waiting escalation request noticed (Host
 * Escalation, item 5), in the TUI and in a raw session alike: the bell,
 * a desktop notification through the terminal (OSC 9, or OSC 777 where
 * that is what the terminal speaks; [tui] notify-osc = off turns it off)
 * and the optional [tui] notify command: an argv from trusted config,
 * never a shell, the request as JSON on its stdin, its output discarded,
 * killed with its process group after LZ_ATTENTION_LIMIT_MS.
 */
#ifndef LZ_CLIENT_ATTENTION_H
#define LZ_CLIENT_ATTENTION_H

#include <sys/types.h>

#include <stdint.h>

#include "core/tuiconf.h"
#include "core/util.h"
#include "protocol/msg.h"

#define LZ_ATTENTION_LIMIT_MS 5000
#define LZ_ATTENTION_JSON_MAX (60 * 1024)	/* fits an empty pipe */

struct lz_attention {
	pid_t pid;		/* the notify command running, or 0 */
	int64_t started;	/* CLOCK_MONOTONIC ms */
};

/*
 * A request m is waiting in pane (0: a raw session): appends the bell and
 * the notification to out (the host terminal's bytes) and starts the
 * notify command unless one is still running. Returns 0, or an error
 * (the command could not be started) for the caller to show.
 */
int lz_attention_raise(struct lz_attention *a, const struct lz_tui_conf *conf,
    const struct lz_msg_prompt *m, int pane, struct lz_buf *out,
    struct lz_err *err);
/*
 * Reaps the command once it ended, or kills its process group when its
 * time is up. Returns the milliseconds until it must be called again, or
 * -1 when nothing runs.
 */
int lz_attention_tick(struct lz_attention *a);
/* Kills and reaps a command still running. */
void lz_attention_release(struct lz_attention *a);

/* The JSON a notify command reads (bounded; exposed for the tests). */
char *lz_attention_json(const struct lz_msg_prompt *m, int pane);

#endif
