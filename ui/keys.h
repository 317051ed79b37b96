/*
 * keys.h: the TUI's keyboard input. Bytes from the host terminal go to the
 * focused pane unchanged, except the prefix key (one byte, [tui] prefix):
 * the key after it is looked up in the bindings and becomes an action;
 * the prefix twice sends it once; an unbound key after the prefix is
 * dropped, as tmux does. A key is one byte, an escape sequence (CSI or
 * SS3, with ESC O folded into ESC [ so either arrow form matches), Escape
 * followed by a byte (Meta), or one UTF-8 character.
 */
#ifndef LZ_KEYS_H
#define LZ_KEYS_H

#include <stddef.h>

#include "core/tuiconf.h"

struct lz_keyin {
	int after_prefix;
	unsigned char pend[32];		/* an incomplete key after the prefix */
	size_t npend;
};

/*
 * Length of the key at in[0..n): > 0 with the key in k (ESC O x given as
 * ESC [ x), 0 when the bytes may be the start of a longer key (a lone ESC,
 * an unfinished sequence or UTF-8 character). Garbage is one byte a key.
 */
size_t lz_key_next(const unsigned char *in, size_t n, struct lz_key *k);

/*
 * lz_key_next for input that is all there is (the end of a read, a paste):
 * a lone Escape or a cut sequence at the end is taken as one byte. Never
 * returns 0 for n > 0.
 */
size_t lz_key_take(const unsigned char *in, size_t n, struct lz_key *k);

/* Whether k is the key named name (core/keyspec.h's names). */
int lz_key_is(const struct lz_key *k, const char *name);

/*
 * Feeds input: what goes to the pane is appended to out. Stops after a
 * key that makes an action, stored in *action (LZ_ACT_NONE otherwise), and
 * returns the bytes consumed; the caller handles the action and feeds the
 * rest.
 */
size_t lz_keyin_feed(struct lz_keyin *k, const struct lz_tui_conf *t,
    const unsigned char *in, size_t n, struct lz_buf *out,
    enum lz_action *action);
/* Whether a key after the prefix waits for more bytes. */
int lz_keyin_pending(const struct lz_keyin *k);
/*
 * Nothing more came (the caller's timeout, e.g. 50 ms): the bytes waiting
 * are taken as complete (a lone Escape). Returns the action, if any.
 */
enum lz_action lz_keyin_timeout(struct lz_keyin *k, const struct lz_tui_conf *t);

/*
 * Appends in to out with the cursor keys in the form the pane asked for:
 * with app_cursor set (DECCKM), ESC [ A-D, H, F become ESC O A-D, H, F;
 * Home and End sent as ESC [ 1 ~ / 4 ~ (or rxvt's 7 ~ / 8 ~) become
 * xterm's, which the pane's terminfo entry claims.
 */
void lz_keys_translate(const unsigned char *in, size_t n, int app_cursor,
    struct lz_buf *out);

#endif
