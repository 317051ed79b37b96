/*
 * tuiconf.c: the [tui] section (see tuiconf.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tokens.h"
#include "core/tuiconf.h"

static const char *const color_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"brightblack", "brightred", "brightgreen", "brightyellow",
	"brightblue", "brightmagenta", "brightcyan", "brightwhite",
};

static const struct {
	const char *key;
	enum lz_tui_color which;
} color_keys[] = {
	{ "status-fg", LZ_TUI_STATUS_FG },
	{ "status-bg", LZ_TUI_STATUS_BG },
	{ "border-fg", LZ_TUI_BORDER_FG },
	{ "active-border-fg", LZ_TUI_ACTIVE_BORDER_FG },
	{ "waiting-fg", LZ_TUI_WAITING_FG },
};
#define NCOLOR_KEYS (sizeof color_keys / sizeof color_keys[0])

static void
add_bind(struct lz_tui_conf *t, const struct lz_key *k, enum lz_action a)
{
	t->binds = lz_xgrow(t->binds, t->nbinds + 1, &t->binds_alloc,
	    sizeof *t->binds);
	t->binds[t->nbinds].key = *k;
	t->binds[t->nbinds].action = a;
	t->nbinds++;
}

void
lz_tui_conf_default(struct lz_tui_conf *t)
{
	struct lz_key k;
	size_t i;

	memset(t, 0, sizeof *t);
	if (lz_key_parse(LZ_KEY_PREFIX_DEFAULT, &t->prefix, NULL) != 0)
		LZ_BUG("default prefix");
	for (i = 0; i < lz_bindings_default_count; i++) {
		if (lz_key_parse(lz_bindings_default[i].key, &k, NULL) != 0)
			LZ_BUG("default binding %s",
			    lz_bindings_default[i].key);
		add_bind(t, &k, lz_bindings_default[i].action);
	}
	t->color[LZ_TUI_STATUS_FG] = 0x01000000u | 0;		/* black */
	t->color[LZ_TUI_STATUS_BG] = 0x01000000u | 6;		/* cyan */
	t->color[LZ_TUI_BORDER_FG] = 0x01000000u | 8;		/* grey */
	t->color[LZ_TUI_ACTIVE_BORDER_FG] = 0x01000000u | 2;	/* green */
	t->color[LZ_TUI_WAITING_FG] = 0x01000000u | 11;	/* bright yellow */
	t->history = LZ_TUI_HISTORY_DEFAULT;
	t->notify_osc = 1;
	t->mouse = 1;
}

int
lz_tui_color_parse(const char *s, uint32_t *out, struct lz_err *err)
{
	unsigned long v;
	char *end;
	size_t i;

	if (strcmp(s, "default") == 0) {
		*out = 0;
		return 0;
	}
	for (i = 0; i < 16; i++) {
		if (strcmp(s, color_names[i]) == 0) {
			*out = 0x01000000u | (uint32_t)i;
			return 0;
		}
	}
	if (strncmp(s, "colour", 6) == 0 || strncmp(s, "color", 5) == 0) {
		const char *d = s + (s[5] == 'r' ? 6 : 5);

		v = strtoul(d, &end, 10);
		if (*d >= '0' && *d <= '9' && *end == '\0' && v <= 255) {
			*out = 0x01000000u | (uint32_t)v;
			return 0;
		}
	} else if (s[0] == '#' && strlen(s) == 7) {
		v = strtoul(s + 1, &end, 16);
		if (*end == '\0' &&
		    strspn(s + 1, "0123456789abcdefABCDEF") == 6) {
			*out = 0x02000000u | (uint32_t)v;
			return 0;
		}
	}
	return lz_err_set(err, LZ_EINVAL, "unknown colour '%s' (default, "
	    "black, red, green, yellow, blue, magenta, cyan, white, their "
	    "bright* forms, colour0 to colour255, or #rrggbb)", s);
}

static int
set_bind(struct lz_tui_conf *t, const char *value, struct lz_err *err)
{
	char keyname[64];
	const char *sp = strchr(value, ' ');
	enum lz_action a;
	struct lz_key k;

	if (sp == NULL || (size_t)(sp - value) >= sizeof keyname)
		return lz_err_set(err, LZ_EINVAL, "bind needs 'KEY ACTION', "
		    "e.g. 'bind = v split-right'");
	memcpy(keyname, value, (size_t)(sp - value));
	keyname[sp - value] = '\0';
	while (*sp == ' ')
		sp++;
	if (lz_key_parse(keyname, &k, err) != 0)
		return LZ_EINVAL;
	a = lz_action_parse(sp);
	if (a == LZ_ACT_NONE && strcmp(sp, "none") != 0) {
		struct lz_buf names = LZ_BUF_INIT;
		int i, rc;

		for (i = 0; i < LZ_ACT_COUNT; i++)
			lz_buf_addf(&names, "%s%s", i ? ", " : "",
			    lz_action_name((enum lz_action)i));
		rc = lz_err_set(err, LZ_EINVAL, "unknown action '%s' (known: "
		    "%s)", sp, names.buf);
		lz_buf_release(&names);
		return rc;
	}
	add_bind(t, &k, a);
	return 0;
}

/* notify = ARGV (tokens.h syntax; a program, never a shell line). */
static int
set_notify(struct lz_tui_conf *t, const char *value, struct lz_err *err)
{
	struct lz_tokens argv = LZ_TOKENS_INIT;

	if (lz_tokens_split(value, &argv, err) != 0)
		return LZ_EINVAL;
	if (argv.n == 0 || argv.v[0][0] == '\0') {
		lz_tokens_release(&argv);
		return lz_err_set(err, LZ_EINVAL, "notify needs a program to "
		    "run, e.g. 'notify = notify-send Lazaret' (it gets the "
		    "request as JSON on its stdin)");
	}
	lz_tokens_release(&t->notify);
	t->notify = argv;
	return 0;
}

int
lz_tui_conf_set(struct lz_tui_conf *t, const char *key, const char *value,
    struct lz_err *err)
{
	unsigned long v;
	char *end;
	size_t i;

	if (strcmp(key, "prefix") == 0) {
		struct lz_key k;

		if (lz_key_parse(value, &k, err) != 0)
			return LZ_EINVAL;
		if (k.len != 1)
			return lz_err_set(err, LZ_EINVAL, "prefix '%s' is not "
			    "one byte: use a control key such as C-a or C-] "
			    "(or a printable character)", value);
		t->prefix = k;
		return 0;
	}
	if (strcmp(key, "bind") == 0)
		return set_bind(t, value, err);
	if (strcmp(key, "history") == 0) {
		v = strtoul(value, &end, 10);
		if (value[0] < '0' || value[0] > '9' || *end != '\0' ||
		    v > LZ_TUI_HISTORY_MAX)
			return lz_err_set(err, LZ_EINVAL, "history '%s' is not "
			    "a number of lines from 0 to %d", value,
			    LZ_TUI_HISTORY_MAX);
		t->history = v;
		return 0;
	}
	if (strcmp(key, "notify-osc") == 0) {
		if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
			return lz_err_set(err, LZ_EINVAL, "notify-osc must be "
			    "'on' (a desktop notification through the terminal "
			    "when a request waits, the default) or 'off', not "
			    "'%s'", value);
		t->notify_osc = value[1] == 'n';
		return 0;
	}
	if (strcmp(key, "notify") == 0)
		return set_notify(t, value, err);
	if (strcmp(key, "mouse") == 0) {
		if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
			return lz_err_set(err, LZ_EINVAL, "mouse '%s' is not "
			    "on or off", value);
		t->mouse = strcmp(value, "on") == 0;
		return 0;
	}
	for (i = 0; i < NCOLOR_KEYS; i++) {
		if (strcmp(key, color_keys[i].key) == 0)
			return lz_tui_color_parse(value,
			    &t->color[color_keys[i].which], err);
	}
	return lz_err_set(err, LZ_EINVAL, "unknown key '%s' in [tui] (known: "
	    "prefix, bind, history, mouse, notify, notify-osc, status-fg, "
	    "status-bg, border-fg, active-border-fg, waiting-fg)", key);
}

enum lz_action
lz_tui_conf_lookup(const struct lz_tui_conf *t, const struct lz_key *k)
{
	size_t i = t->nbinds;

	while (i-- > 0) {
		if (lz_key_equal(&t->binds[i].key, k))
			return t->binds[i].action;
	}
	return LZ_ACT_NONE;
}

int
lz_tui_conf_is_prefix(const struct lz_tui_conf *t, const unsigned char *b,
    size_t len)
{
	size_t i;

	for (i = 0; i < t->nbinds; i++) {
		if (t->binds[i].key.len > len &&
		    memcmp(t->binds[i].key.b, b, len) == 0)
			return 1;
	}
	return 0;
}

void
lz_tui_conf_release(struct lz_tui_conf *t)
{
	free(t->binds);
	t->binds = NULL;
	t->nbinds = 0;
	lz_tokens_release(&t->notify);
}
