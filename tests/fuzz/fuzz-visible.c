/*
 * fuzz-visible.c: libFuzzer target for core/visible.c. Any bytes, escaped
 * with and without quotes, must come out as printable ASCII and visible
 * code points only, and read back to the same bytes; any bytes given to
 * the unescaper must give bytes or an error message, never a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/visible.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const uint8_t *data, size_t size, int flags)
{
	struct lz_buf e = LZ_BUF_INIT, back = LZ_BUF_INIT;
	const unsigned char *p;
	size_t i, len, k, off;
	uint32_t cp;

	lz_visible_add(&e, (const char *)data, size, flags);
	p = (const unsigned char *)e.buf;
	for (i = 0; i < e.len; i += len) {
		if ((len = lz_utf8_seq(p + i, e.len - i)) == 0)
			abort();
		cp = len == 1 ? p[i] : p[i] & (0x7fu >> len);
		for (k = 1; k < len; k++)
			cp = cp << 6 | (p[i + k] & 0x3f);
		if (lz_visible_hidden(cp))
			abort();
	}
	off = (flags & LZ_VISIBLE_QUOTE) ? 1 : 0;
	if (lz_visible_unescape(e.buf + off, e.len - 2 * off, &back, NULL) != 0
	    || back.len != size || (size > 0 &&
	    memcmp(back.buf, data, size) != 0))
		abort();
	lz_buf_release(&e);
	lz_buf_release(&back);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_buf out = LZ_BUF_INIT;
	struct lz_err err = LZ_ERR_INIT;

	check(data, size, 0);
	check(data, size, LZ_VISIBLE_QUOTE);
	check(data, size, LZ_VISIBLE_ASCII);
	if (lz_visible_unescape((const char *)data, size, &out, &err) != 0 &&
	    err.msg == NULL)
		abort();	/* every failure says why */
	lz_err_release(&err);
	lz_buf_release(&out);
	return 0;
}
