/*
 * test-keys.c: key names, the [tui] config section, the prefix state
 * machine across reads, and cursor-key translation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/config.h"
#include "ui/keys.h"

static void
test_key_names(void **state)
{
	static const char *const names[] = { "C-]", "C-a", "M-x", "Up",
	    "C-Left", "PageUp", "F5", "%", "|", "Tab", "Enter", "C-Space" };
	struct lz_err err = LZ_ERR_INIT;
	struct lz_key k, k2;
	char name[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		assert_int_equal(lz_key_parse(names[i], &k, NULL), 0);
		lz_key_name(&k, name, sizeof name);
		assert_int_equal(lz_key_parse(name, &k2, NULL), 0);
		assert_true(lz_key_equal(&k, &k2));
	}
	assert_int_equal(lz_key_parse("C-]", &k, NULL), 0);
	assert_int_equal(k.len, 1);
	assert_int_equal(k.b[0], 0x1d);
	assert_int_equal(lz_key_parse("Up", &k, NULL), 0);
	assert_memory_equal(k.b, "\033[A", 3);
	assert_int_equal(lz_key_parse("C-1", &k, &err), LZ_EINVAL);
	assert_non_null(strstr(err.msg, "'C-1'"));
	lz_err_release(&err);
	assert_int_equal(lz_key_parse("ab", &k, NULL), LZ_EINVAL);
	assert_int_equal(lz_key_parse("", &k, NULL), LZ_EINVAL);
	assert_int_equal(lz_action_parse("split-right"), LZ_ACT_SPLIT_RIGHT);
	assert_int_equal(lz_action_parse("nope"), LZ_ACT_NONE);
	assert_string_equal(lz_action_name(LZ_ACT_DETACH), "detach");
}

static void
test_tui_config(void **state)
{
	static const char text[] =
	    "[tui]\n"
	    "prefix = C-a\n"
	    "bind = v split-right\n"
	    "bind = d none\n"
	    "status-bg = #102030\n"
	    "border-fg = colour244\n"
	    "history = 500\n"
	    "notify-osc = off\n"
	    "notify = /usr/bin/notify-send Lazaret%20asks\n"
	    "waiting-fg = red\n"
	    "mouse = off\n";
	struct lz_err err = LZ_ERR_INIT;
	struct lz_config cfg;
	struct lz_key k;

	(void)state;
	assert_int_equal(lz_config_load_buffer(&cfg, "t.ini", text,
	    sizeof text - 1, &err), 0);
	assert_int_equal(cfg.tui.prefix.b[0], 0x01);
	lz_key_parse("v", &k, NULL);
	assert_int_equal(lz_tui_conf_lookup(&cfg.tui, &k), LZ_ACT_SPLIT_RIGHT);
	/* "none" unbinds a default. */
	lz_key_parse("d", &k, NULL);
	assert_int_equal(lz_tui_conf_lookup(&cfg.tui, &k), LZ_ACT_NONE);
	lz_key_parse("z", &k, NULL);
	assert_int_equal(lz_tui_conf_lookup(&cfg.tui, &k), LZ_ACT_ZOOM);
	assert_int_equal(cfg.tui.color[LZ_TUI_STATUS_BG], 0x02102030u);
	assert_int_equal(cfg.tui.color[LZ_TUI_BORDER_FG], 0x01000000u | 244);
	assert_int_equal(cfg.tui.history, 500);
	assert_false(cfg.tui.notify_osc);
	assert_int_equal(cfg.tui.notify.n, 2);
	assert_string_equal(cfg.tui.notify.v[1], "Lazaret asks");
	assert_int_equal(cfg.tui.color[LZ_TUI_WAITING_FG], 0x01000000u | 1);
	assert_int_equal(cfg.tui.mouse, 0);
	lz_config_release(&cfg);
	/* The defaults: notifications on, no command. */
	assert_int_equal(lz_config_load_buffer(&cfg, "t.ini", "", 0, &err), 0);
	assert_true(cfg.tui.notify_osc);
	assert_int_equal(cfg.tui.notify.n, 0);
	lz_config_release(&cfg);
	/* The mouse is on unless said otherwise. */
	assert_int_equal(lz_config_load_buffer(&cfg, "t.ini", "[tui]\n", 6,
	    &err), 0);
	assert_int_equal(cfg.tui.mouse, 1);
	lz_config_release(&cfg);
}

static void
expect_error(const char *text, const char *want)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_config cfg;

	assert_int_equal(lz_config_load_buffer(&cfg, "t.ini", text,
	    strlen(text), &err), LZ_EINVAL);
	if (strstr(err.msg, want) == NULL)
		fail_msg("error '%s' lacks '%s'", err.msg, want);
	lz_err_release(&err);
}

static void
test_tui_config_errors(void **state)
{
	(void)state;
	expect_error("[tui]\nprefix = Up\n", "t.ini:2");
	expect_error("[tui]\nprefix = Up\n", "not one byte");
	expect_error("[tui]\n\nbind = v explode\n", "t.ini:3");
	expect_error("[tui]\nbind = v explode\n", "unknown action 'explode'");
	expect_error("[tui]\nbind = vv zoom\n", "unknown key 'vv'");
	expect_error("[tui]\nbind = zoom\n", "KEY ACTION");
	expect_error("[tui]\nstatus-fg = #12345\n", "unknown colour");
	expect_error("[tui]\nhistory = -1\n", "history");
	expect_error("[tui]\nmouse = yes\n", "mouse 'yes' is not on or off");
	expect_error("[tui]\nhistory = 999999999\n", "0 to");
	expect_error("[tui]\nfoo = 1\n", "unknown key 'foo' in [tui]");
	expect_error("[tui]\n\nnotify-osc = yes\n", "t.ini:3: notify-osc "
	    "must be 'on'");
	expect_error("[tui]\nnotify = ''\n", "t.ini:2: notify needs a "
	    "program");
	expect_error("[tui]\nnotify = a%zz\n", "t.ini:2: bad escape");
}

static void
feed_all(struct lz_keyin *k, const struct lz_tui_conf *t, const char *in,
    struct lz_buf *out, enum lz_action *acts, int *nacts)
{
	size_t off = 0, n = strlen(in), used;
	enum lz_action a;

	while (off < n) {
		used = lz_keyin_feed(k, t, (const unsigned char *)in + off,
		    n - off, out, &a);
		assert_true(used > 0);
		off += used;
		if (a != LZ_ACT_NONE)
			acts[(*nacts)++] = a;
	}
}

static void
test_prefix(void **state)
{
	struct lz_tui_conf t;
	struct lz_keyin k = { 0 };
	struct lz_buf out = LZ_BUF_INIT;
	enum lz_action acts[8];
	int n = 0;

	(void)state;
	lz_tui_conf_default(&t);
	/* Text, prefix |, text: the action in the middle of a read. */
	feed_all(&k, &t, "ab\x1d|cd", &out, acts, &n);
	assert_int_equal(n, 1);
	assert_int_equal(acts[0], LZ_ACT_SPLIT_RIGHT);
	assert_int_equal(out.len, 4);
	assert_memory_equal(out.buf, "abcd", 4);
	/* Prefix twice sends it once; an unbound key is dropped. */
	lz_buf_reset(&out);
	n = 0;
	feed_all(&k, &t, "\x1d\x1d\x1dQx", &out, acts, &n);
	assert_int_equal(n, 1);
	assert_int_equal(acts[0], LZ_ACT_SEND_PREFIX);
	assert_int_equal(out.len, 1);
	assert_memory_equal(out.buf, "x", 1);
	/* An arrow after the prefix, split over three reads, SS3 form. */
	n = 0;
	feed_all(&k, &t, "\x1d", &out, acts, &n);
	feed_all(&k, &t, "\033", &out, acts, &n);
	assert_true(lz_keyin_pending(&k));
	feed_all(&k, &t, "OD", &out, acts, &n);
	assert_int_equal(n, 1);
	assert_int_equal(acts[0], LZ_ACT_LEFT);
	/* A lone Escape after the prefix: complete at the timeout. */
	feed_all(&k, &t, "\x1d\033", &out, acts, &n);
	assert_int_equal(lz_keyin_timeout(&k, &t), LZ_ACT_NONE);
	assert_false(lz_keyin_pending(&k));
	lz_buf_release(&out);
	lz_tui_conf_release(&t);
}

static void
test_key_next_and_translate(void **state)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_key k;

	(void)state;
	assert_int_equal(lz_key_next((const unsigned char *)"\033[1;5A", 6,
	    &k), 6);
	assert_int_equal(lz_key_next((const unsigned char *)"\033[1;5", 5,
	    &k), 0);
	assert_int_equal(lz_key_next((const unsigned char *)"\xe6\xbc\xa2x", 4,
	    &k), 3);
	assert_int_equal(lz_key_next((const unsigned char *)"\xe6\xbc", 2,
	    &k), 0);
	assert_int_equal(lz_key_next((const unsigned char *)"\033x", 2, &k), 2);
	lz_keys_translate((const unsigned char *)"a\033[Ab\033[5~", 9, 1, &out);
	assert_int_equal(out.len, 9);
	assert_memory_equal(out.buf, "a\033OAb\033[5~", 9);
	lz_buf_reset(&out);
	lz_keys_translate((const unsigned char *)"\033[A", 3, 0, &out);
	assert_memory_equal(out.buf, "\033[A", 3);
	/* tmux's Home and End become xterm's, in either cursor mode. */
	lz_buf_reset(&out);
	lz_keys_translate((const unsigned char *)"\033[1~x\033[4~", 9, 0,
	    &out);
	assert_int_equal(out.len, 7);
	assert_memory_equal(out.buf, "\033[Hx\033[F", 7);
	lz_buf_reset(&out);
	lz_keys_translate((const unsigned char *)"\033[1~", 4, 1, &out);
	assert_memory_equal(out.buf, "\033OH", 3);
	lz_buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_tui_config),
		cmocka_unit_test(test_tui_config_errors),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_key_next_and_translate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
