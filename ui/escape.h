/*
 * escape.h: the detach key of a raw terminal session. The escape byte
 * (Ctrl-], 0x1d, as telnet and virsh console use; tmux's Ctrl-b and
 * screen's Ctrl-a stay free for an outer multiplexer) followed by 'd'
 * detaches; followed by itself it sends one escape byte; followed by
 * anything else it sends both bytes. The state survives across reads.
 */
#ifndef LZ_ESCAPE_H
#define LZ_ESCAPE_H

#include <stddef.h>

#include "core/util.h"

#define LZ_ESCAPE_BYTE 0x1d

struct lz_escape {
	int pending;	/* the previous byte was the escape byte */
};

/*
 * Appends to out what of in[0..n) goes to the session. Returns 1 when the
 * detach sequence was typed (what followed it in this read is dropped),
 * else 0.
 */
int lz_escape_filter(struct lz_escape *e, const char *in, size_t n,
    struct lz_buf *out);

#endif
