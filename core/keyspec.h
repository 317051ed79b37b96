/*
 * keyspec.h: the TUI's keys and actions as the config names them. A key
 * name ("C-]", "M-x", "Up", "%", "PageUp") becomes the bytes a host
 * terminal sends for it in normal (not application) cursor mode; an action
 * name ("split-right", "detach") becomes an enum lz_action. Pure data: the
 * config checks [tui] lines with it, ui/keys.c matches input against it.
 */
#ifndef LZ_KEYSPEC_H
#define LZ_KEYSPEC_H

#include <stddef.h>

#include "core/util.h"

#define LZ_KEY_MAX 8

struct lz_key {
	unsigned char b[LZ_KEY_MAX];
	unsigned char len;
};

enum lz_action {
	LZ_ACT_NONE = 0,
	LZ_ACT_NEW_PANE,
	LZ_ACT_SPLIT_RIGHT,
	LZ_ACT_SPLIT_DOWN,
	LZ_ACT_NEXT,
	LZ_ACT_PREV,
	LZ_ACT_LEFT,
	LZ_ACT_RIGHT,
	LZ_ACT_UP,
	LZ_ACT_DOWN,
	LZ_ACT_GROW_LEFT,
	LZ_ACT_GROW_RIGHT,
	LZ_ACT_GROW_UP,
	LZ_ACT_GROW_DOWN,
	LZ_ACT_ZOOM,
	LZ_ACT_CLOSE,
	LZ_ACT_DETACH,
	LZ_ACT_LIST,
	LZ_ACT_COPY_MODE,
	LZ_ACT_PASTE,
	LZ_ACT_HELP,
	LZ_ACT_SEND_PREFIX,
	LZ_ACT_REDRAW,
	LZ_ACT_COUNT
};

/* Default prefix: Ctrl-], the raw sessions' detach key (ui/escape.h). */
#define LZ_KEY_PREFIX_DEFAULT "C-]"

/*
 * Parses a key name: one printable ASCII character; "C-x" for x in @, a-z,
 * [, \, ], ^, _, "Space" or "?"; "M-x" (Escape then x) for a printable x;
 * Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete,
 * Tab, Enter, Escape, Space, BSpace, F1-F12; "C-Up" and the like for the
 * arrows with Ctrl. The error names the bad part.
 */
int lz_key_parse(const char *name, struct lz_key *k, struct lz_err *err);
/* Writes a name lz_key_parse reads back ("C-]", "Up", "%"). */
void lz_key_name(const struct lz_key *k, char *out, size_t len);
int lz_key_equal(const struct lz_key *a, const struct lz_key *b);

/* LZ_ACT_NONE for an unknown name. */
enum lz_action lz_action_parse(const char *name);
const char *lz_action_name(enum lz_action a);
/* One line for the help screen. */
const char *lz_action_help(enum lz_action a);

/* The default bindings after the prefix: key name and action. */
struct lz_binding_default {
	const char *key;
	enum lz_action action;
};
extern const struct lz_binding_default lz_bindings_default[];
extern const size_t lz_bindings_default_count;

#endif
