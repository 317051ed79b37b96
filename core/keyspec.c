/*
 * keyspec.c: key and action names (see keyspec.h). The byte forms are what
 * xterm-like terminals send in normal cursor mode; a terminal that sends
 * the application-mode form (ESC O A) for an arrow is matched by ui/keys.c,
 * which folds ESC O into ESC [ before looking a key up.
 */
#include <stdio.h>
#include <string.h>

#include "core/keyspec.h"

static const struct {
	const char *name;
	const char *bytes;
} named_keys[] = {
	{ "Up", "\033[A" },
	{ "Down", "\033[B" },
	{ "Right", "\033[C" },
	{ "Left", "\033[D" },
	{ "C-Up", "\033[1;5A" },
	{ "C-Down", "\033[1;5B" },
	{ "C-Right", "\033[1;5C" },
	{ "C-Left", "\033[1;5D" },
	{ "Home", "\033[H" },
	{ "End", "\033[F" },
	{ "Insert", "\033[2~" },
	{ "Delete", "\033[3~" },
	{ "PageUp", "\033[5~" },
	{ "PageDown", "\033[6~" },
	{ "Tab", "\t" },
	{ "Enter", "\r" },
	{ "Escape", "\033" },
	{ "Space", " " },
	{ "BSpace", "\177" },
	{ "F1", "\033OP" },
	{ "F2", "\033OQ" },
	{ "F3", "\033OR" },
	{ "F4", "\033OS" },
	{ "F5", "\033[15~" },
	{ "F6", "\033[17~" },
	{ "F7", "\033[18~" },
	{ "F8", "\033[19~" },
	{ "F9", "\033[20~" },
	{ "F10", "\033[21~" },
	{ "F11", "\033[23~" },
	{ "F12", "\033[24~" },
};
#define NNAMED (sizeof named_keys / sizeof named_keys[0])

static const struct {
	const char *name;
	const char *help;
} actions[LZ_ACT_COUNT] = {
	[LZ_ACT_NONE] = { "none", "unbind the key" },
	[LZ_ACT_NEW_PANE] = { "new-pane", "new session in a pane, split "
	    "along the longer side" },
	[LZ_ACT_SPLIT_RIGHT] = { "split-right", "new session in a pane to "
	    "the right" },
	[LZ_ACT_SPLIT_DOWN] = { "split-down", "new session in a pane below" },
	[LZ_ACT_NEXT] = { "next-pane", "go to the next pane" },
	[LZ_ACT_PREV] = { "previous-pane", "go to the previous pane" },
	[LZ_ACT_LEFT] = { "select-left", "go to the pane on the left" },
	[LZ_ACT_RIGHT] = { "select-right", "go to the pane on the right" },
	[LZ_ACT_UP] = { "select-up", "go to the pane above" },
	[LZ_ACT_DOWN] = { "select-down", "go to the pane below" },
	[LZ_ACT_GROW_LEFT] = { "resize-left", "move the pane's left or "
	    "right border left" },
	[LZ_ACT_GROW_RIGHT] = { "resize-right", "move the border right" },
	[LZ_ACT_GROW_UP] = { "resize-up", "move the pane's top or bottom "
	    "border up" },
	[LZ_ACT_GROW_DOWN] = { "resize-down", "move the border down" },
	[LZ_ACT_ZOOM] = { "zoom", "zoom the pane to the whole window, or "
	    "back" },
	[LZ_ACT_CLOSE] = { "close-pane", "end the pane's session (asks "
	    "first)" },
	[LZ_ACT_DETACH] = { "detach", "detach; the sessions keep running "
	    "('lazaret attach')" },
	[LZ_ACT_LIST] = { "list-sessions", "list the Domain's sessions; "
	    "Enter shows one in a pane" },
	[LZ_ACT_COPY_MODE] = { "copy-mode", "scroll back, search (/ ?), "
	    "select (Space) and copy (Enter)" },
	[LZ_ACT_PASTE] = { "paste", "type the last copied text into the "
	    "pane" },
	[LZ_ACT_HELP] = { "help", "this list" },
	[LZ_ACT_SEND_PREFIX] = { "send-prefix", "send the prefix key "
	    "itself to the pane" },
	[LZ_ACT_REDRAW] = { "redraw", "redraw the whole terminal" },
};

const struct lz_binding_default lz_bindings_default[] = {
	{ "c", LZ_ACT_NEW_PANE },
	{ "|", LZ_ACT_SPLIT_RIGHT },
	{ "%", LZ_ACT_SPLIT_RIGHT },
	{ "-", LZ_ACT_SPLIT_DOWN },
	{ "\"", LZ_ACT_SPLIT_DOWN },
	{ "o", LZ_ACT_NEXT },
	{ "Tab", LZ_ACT_NEXT },
	{ "p", LZ_ACT_PREV },
	{ "Left", LZ_ACT_LEFT },
	{ "Right", LZ_ACT_RIGHT },
	{ "Up", LZ_ACT_UP },
	{ "Down", LZ_ACT_DOWN },
	{ "h", LZ_ACT_LEFT },
	{ "l", LZ_ACT_RIGHT },
	{ "k", LZ_ACT_UP },
	{ "j", LZ_ACT_DOWN },
	{ "H", LZ_ACT_GROW_LEFT },
	{ "L", LZ_ACT_GROW_RIGHT },
	{ "K", LZ_ACT_GROW_UP },
	{ "J", LZ_ACT_GROW_DOWN },
	{ "C-Left", LZ_ACT_GROW_LEFT },
	{ "C-Right", LZ_ACT_GROW_RIGHT },
	{ "C-Up", LZ_ACT_GROW_UP },
	{ "C-Down", LZ_ACT_GROW_DOWN },
	{ "z", LZ_ACT_ZOOM },
	{ "x", LZ_ACT_CLOSE },
	{ "d", LZ_ACT_DETACH },
	{ "s", LZ_ACT_LIST },
	{ "[", LZ_ACT_COPY_MODE },
	{ "PageUp", LZ_ACT_COPY_MODE },
	{ "]", LZ_ACT_PASTE },
	{ "?", LZ_ACT_HELP },
	{ "r", LZ_ACT_REDRAW },
};
const size_t lz_bindings_default_count = sizeof lz_bindings_default /
    sizeof lz_bindings_default[0];

static void
key_set(struct lz_key *k, const char *bytes, size_t n)
{
	memcpy(k->b, bytes, n);
	k->len = (unsigned char)n;
}

int
lz_key_parse(const char *name, struct lz_key *k, struct lz_err *err)
{
	size_t i, n = strlen(name);
	unsigned char c;

	memset(k, 0, sizeof *k);
	for (i = 0; i < NNAMED; i++) {
		if (strcmp(named_keys[i].name, name) == 0) {
			key_set(k, named_keys[i].bytes,
			    strlen(named_keys[i].bytes));
			return 0;
		}
	}
	if (n == 1 && name[0] > 0x20 && name[0] < 0x7f) {
		key_set(k, name, 1);
		return 0;
	}
	if (n >= 3 && name[1] == '-' && (name[0] == 'C' || name[0] == 'M')) {
		const char *rest = name + 2;

		if (name[0] == 'M') {
			if (strlen(rest) != 1 || rest[0] <= 0x20 ||
			    rest[0] >= 0x7f)
				goto bad;
			k->b[0] = 0x1b;
			k->b[1] = (unsigned char)rest[0];
			k->len = 2;
			return 0;
		}
		if (strcmp(rest, "Space") == 0 || strcmp(rest, "@") == 0) {
			k->len = 1;	/* NUL */
			return 0;
		}
		if (strcmp(rest, "?") == 0) {
			key_set(k, "\177", 1);
			return 0;
		}
		c = (unsigned char)rest[0];
		if (strlen(rest) == 1 && c >= 'a' && c <= 'z')
			c = (unsigned char)(c - 'a' + 'A');
		if (strlen(rest) == 1 && c >= 'A' && c <= '_') {
			k->b[0] = (unsigned char)(c & 0x1f);
			k->len = 1;
			return 0;
		}
	}
bad:
	return lz_err_set(err, LZ_EINVAL, "unknown key '%s' (a printable "
	    "character, C-a to C-z, C-[ C-\\ C-] C-^ C-_ C-Space, M-x, Up, "
	    "Down, Left, Right, C-Up..., Home, End, PageUp, PageDown, Insert, "
	    "Delete, Tab, Enter, Escape, Space, BSpace, F1-F12)", name);
}

void
lz_key_name(const struct lz_key *k, char *out, size_t len)
{
	size_t i;

	for (i = 0; i < NNAMED; i++) {
		if (strlen(named_keys[i].bytes) == k->len &&
		    memcmp(named_keys[i].bytes, k->b, k->len) == 0) {
			snprintf(out, len, "%s", named_keys[i].name);
			return;
		}
	}
	if (k->len == 1 && k->b[0] == 0)
		snprintf(out, len, "C-Space");
	else if (k->len == 1 && k->b[0] < 0x20)
		snprintf(out, len, "C-%c", k->b[0] == 0x1b ? '[' :
		    (k->b[0] | 0x40) + ((k->b[0] | 0x40) >= 'A' &&
		    (k->b[0] | 0x40) <= 'Z' ? 'a' - 'A' : 0));
	else if (k->len == 1)
		snprintf(out, len, "%c", k->b[0]);
	else if (k->len == 2 && k->b[0] == 0x1b)
		snprintf(out, len, "M-%c", k->b[1]);
	else
		snprintf(out, len, "?");
}

int
lz_key_equal(const struct lz_key *a, const struct lz_key *b)
{
	return a->len == b->len && memcmp(a->b, b->b, a->len) == 0;
}

enum lz_action
lz_action_parse(const char *name)
{
	int i;

	for (i = 1; i < LZ_ACT_COUNT; i++) {
		if (strcmp(actions[i].name, name) == 0)
			return (enum lz_action)i;
	}
	return LZ_ACT_NONE;
}

const char *
lz_action_name(enum lz_action a)
{
	return a < LZ_ACT_COUNT ? actions[a].name : "?";
}

const char *
lz_action_help(enum lz_action a)
{
	return a < LZ_ACT_COUNT ? actions[a].help : "";
}
