/*
 * keys.c: prefix handling and key splitting (see keys.h).
 */
#include <string.h>

#include "ui/keys.h"

size_t
lz_key_next(const unsigned char *in, size_t n, struct lz_key *k)
{
	size_t len = 1, i;

	memset(k, 0, sizeof *k);
	if (n == 0)
		return 0;
	if (in[0] == 0x1b) {
		if (n == 1)
			return 0;
		if (in[1] == '[' || in[1] == 'O') {
			/* CSI: parameters and intermediates, then a final. */
			for (i = 2; i < n; i++) {
				if (in[i] >= 0x40 && in[i] <= 0x7e)
					break;
				if (in[i] < 0x20 || in[i] > 0x3f || i >= 16)
					break;	/* not a sequence: ESC alone */
			}
			if (i == n)
				return 0;
			if (in[i] < 0x40 || in[i] > 0x7e) {
				k->b[0] = 0x1b;
				k->len = 1;
				return 1;
			}
			len = i + 1;
			if (len > LZ_KEY_MAX) {
				k->b[0] = 0x1b;
				k->len = 1;
				return len;	/* too long to be bound */
			}
			memcpy(k->b, in, len);
			k->b[1] = '[';
			k->len = (unsigned char)len;
			return len;
		}
		len = 2;
	} else if (in[0] >= 0xc0 && in[0] < 0xf8) {
		len = in[0] >= 0xf0 ? 4 : in[0] >= 0xe0 ? 3 : 2;
		if (n < len)
			return 0;
		for (i = 1; i < len; i++) {
			if ((in[i] & 0xc0) != 0x80) {
				len = 1;
				break;
			}
		}
	}
	memcpy(k->b, in, len);
	k->len = (unsigned char)len;
	return len;
}

size_t
lz_key_take(const unsigned char *in, size_t n, struct lz_key *k)
{
	size_t used = lz_key_next(in, n, k);

	if (used == 0 && n > 0) {
		memset(k, 0, sizeof *k);
		k->b[0] = in[0];
		k->len = 1;
		used = 1;
	}
	return used;
}

int
lz_key_is(const struct lz_key *k, const char *name)
{
	struct lz_key want;

	return lz_key_parse(name, &want, NULL) == 0 && lz_key_equal(k, &want);
}

static enum lz_action
lookup(const struct lz_tui_conf *t, const struct lz_key *key)
{
	enum lz_action a = lz_tui_conf_lookup(t, key);

	if (a == LZ_ACT_NONE && lz_key_equal(key, &t->prefix))
		return LZ_ACT_SEND_PREFIX;
	return a;
}

size_t
lz_keyin_feed(struct lz_keyin *k, const struct lz_tui_conf *t,
    const unsigned char *in, size_t n, struct lz_buf *out,
    enum lz_action *action)
{
	struct lz_key key;
	size_t i = 0, used, take;

	*action = LZ_ACT_NONE;
	while (i < n) {
		if (!k->after_prefix) {
			const unsigned char *p = memchr(in + i,
			    t->prefix.b[0], n - i);
			size_t run = p ? (size_t)(p - (in + i)) : n - i;

			lz_buf_add(out, in + i, run);
			i += run;
			if (p != NULL) {
				k->after_prefix = 1;
				k->npend = 0;
				i++;
			}
			continue;
		}
		take = n - i;
		if (take > sizeof k->pend - k->npend)
			take = sizeof k->pend - k->npend;
		memcpy(k->pend + k->npend, in + i, take);
		used = lz_key_next(k->pend, k->npend + take, &key);
		if (used == 0) {
			/* Incomplete: keep it all for the next read. */
			k->npend += take;
			i += take;
			if (k->npend == sizeof k->pend) {
				k->after_prefix = 0;	/* not a key */
				k->npend = 0;
			}
			continue;
		}
		/*
		 * Bytes of this read that the key took. A key shorter than
		 * what was kept (an unfinished sequence cut by another ESC)
		 * leaves garbage after the prefix: it is dropped with it.
		 */
		if (used > k->npend)
			i += used - k->npend;
		k->npend = 0;
		k->after_prefix = 0;
		*action = lookup(t, &key);
		if (*action != LZ_ACT_NONE)
			return i;
	}
	return i;
}

int
lz_keyin_pending(const struct lz_keyin *k)
{
	return k->after_prefix && k->npend > 0;
}

enum lz_action
lz_keyin_timeout(struct lz_keyin *k, const struct lz_tui_conf *t)
{
	struct lz_key key;
	size_t len = k->npend;

	if (!k->after_prefix || len == 0)
		return LZ_ACT_NONE;
	if (len > LZ_KEY_MAX)
		len = LZ_KEY_MAX;
	memset(&key, 0, sizeof key);
	memcpy(key.b, k->pend, len);
	key.len = (unsigned char)len;
	k->after_prefix = 0;
	k->npend = 0;
	return lookup(t, &key);
}

/*
 * Host forms of keys that terminals disagree on, and xterm's: the pane's
 * terminfo entry (termdb/lazaret.ti) claims xterm's, so programs inside
 * get those whatever the host terminal sends.
 */
static const struct {
	const char *from, *to;
} host_keys[] = {
	{ "\033[1~", "\033[H" },	/* Home: tmux, screen, linux */
	{ "\033[7~", "\033[H" },	/* Home: rxvt */
	{ "\033[4~", "\033[F" },	/* End: tmux, screen, linux */
	{ "\033[8~", "\033[F" },	/* End: rxvt */
};

void
lz_keys_translate(const unsigned char *in, size_t n, int app_cursor,
    struct lz_buf *out)
{
	const char *to;
	size_t i, j, start = 0, len;

	for (i = 0; i + 2 < n; i++) {
		if (in[i] != 0x1b || in[i + 1] != '[')
			continue;
		to = NULL;
		len = 3;
		for (j = 0; j < sizeof host_keys / sizeof host_keys[0]; j++) {
			if (i + 4 <= n && memcmp(in + i, host_keys[j].from,
			    4) == 0) {
				to = host_keys[j].to;
				len = 4;
				break;
			}
		}
		if (to == NULL && (in[i + 2] == 0 ||
		    strchr("ABCDHF", in[i + 2]) == NULL))
			continue;
		lz_buf_add(out, in + start, i - start);
		lz_buf_addch(out, 0x1b);
		lz_buf_addch(out, app_cursor ? 'O' : '[');
		lz_buf_addch(out, to != NULL ? to[2] : (char)in[i + 2]);
		i += len - 1;
		start = i + 1;
	}
	lz_buf_add(out, in + start, n - start);
}
