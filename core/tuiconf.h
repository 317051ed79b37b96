/*
 * tuiconf.h: the [tui] section of config.ini: the prefix key, key
 * bindings, colours and scrollback length of the full-screen TUI. Host
 * settings of the developer's terminal, so not part of any profile and not
 * in the Configuration Fingerprint.
 *
 *   [tui]
 *   prefix = C-a
 *   bind = v split-right        ; KEY ACTION, repeatable; "none" unbinds
 *   status-bg = #203040         ; default, a colour name, colour0-255, #rrggbb
 *   history = 10000             ; scrollback lines per pane
 *   notify-osc = off            ; no OSC 9/777 desktop notification
 *   notify = notify-send Lazaret ; ARGV run when a request waits (JSON
 *                               ; on its stdin, no shell, 5 s limit)
 *   mouse = on                  ; on (the default) or off
 */
#ifndef LZ_TUICONF_H
#define LZ_TUICONF_H

#include <stddef.h>
#include <stdint.h>

#include "core/keyspec.h"
#include "core/util.h"

/*
 * Colours use the encoding of ui/grid.h: 0 is the terminal's default,
 * 0x01000000 | index, 0x02000000 | 0xRRGGBB.
 */
enum lz_tui_color {
	LZ_TUI_STATUS_FG,
	LZ_TUI_STATUS_BG,
	LZ_TUI_BORDER_FG,
	LZ_TUI_ACTIVE_BORDER_FG,
	LZ_TUI_WAITING_FG,	/* a pane with an escalation waiting */
	LZ_TUI_COLOR_COUNT
};

#define LZ_TUI_HISTORY_DEFAULT 10000
#define LZ_TUI_HISTORY_MAX 200000

struct lz_tui_bind {
	struct lz_key key;
	enum lz_action action;		/* LZ_ACT_NONE: unbound */
};

struct lz_tui_conf {
	struct lz_key prefix;
	struct lz_tui_bind *binds;	/* the defaults, then the config's */
	size_t nbinds, binds_alloc;
	uint32_t color[LZ_TUI_COLOR_COUNT];
	size_t history;
	/* Attention to a waiting escalation request: besides the bell, an
	 * OSC 9 or OSC 777 desktop notification (notify-osc, on by
	 * default) and an optional command (notify: an argv, never a
	 * shell; empty when not set). */
	int notify_osc;
	struct lz_tokens notify;
	int mouse;			/* take the host's mouse (tui-mouse.c) */
};

/* The built-in settings. */
void lz_tui_conf_default(struct lz_tui_conf *t);
/* One key of [tui]; the error says what is accepted. */
int lz_tui_conf_set(struct lz_tui_conf *t, const char *key, const char *value,
    struct lz_err *err);
/* The action bound to k, LZ_ACT_NONE if none (the last binding wins). */
enum lz_action lz_tui_conf_lookup(const struct lz_tui_conf *t,
    const struct lz_key *k);
/* Whether some binding's key starts with the len bytes of b. */
int lz_tui_conf_is_prefix(const struct lz_tui_conf *t,
    const unsigned char *b, size_t len);
/* A colour: default, black..white, bright*, colourN/colorN, #rrggbb. */
int lz_tui_color_parse(const char *s, uint32_t *out, struct lz_err *err);
void lz_tui_conf_release(struct lz_tui_conf *t);

#endif
