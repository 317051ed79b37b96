/*
 * escape.c: the detach key of raw sessions (see escape.h).
 */
#include "ui/escape.h"

int
lz_escape_filter(struct lz_escape *e, const char *in, size_t n,
    struct lz_buf *out)
{
	size_t i;
	char c;

	for (i = 0; i < n; i++) {
		c = in[i];
		if (!e->pending) {
			if (c == LZ_ESCAPE_BYTE)
				e->pending = 1;
			else
				lz_buf_addch(out, c);
			continue;
		}
		e->pending = 0;
		if (c == 'd')
			return 1;
		lz_buf_addch(out, LZ_ESCAPE_BYTE);
		if (c != LZ_ESCAPE_BYTE)
			lz_buf_addch(out, c);
	}
	return 0;
}
