/*
 * fuzz-keys.c: libFuzzer target for the TUI's keyboard path (ui/keys.c):
 * any bytes from the host terminal, cut anywhere. The prefix byte never
 * reaches a pane, every call makes progress, keys are never longer than
 * LZ_KEY_MAX, and the cursor-key translation never grows its input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lz_tui_conf conf;
	static int ready;
	struct lz_buf out = LZ_BUF_INIT, tr = LZ_BUF_INIT;
	struct lz_keyin k;
	struct lz_key key;
	enum lz_action a;
	size_t off, used, step, n;

	if (!ready) {
		lz_tui_conf_default(&conf);
		ready = 1;
	}
	if (size == 0)
		return 0;
	step = 1 + data[0] % 7;
	memset(&k, 0, sizeof k);
	for (off = 1; off < size; off += n) {
		n = size - off < step ? size - off : step;
		used = 0;
		while (used < n) {
			size_t u = lz_keyin_feed(&k, &conf, data + off + used,
			    n - used, &out, &a);

			if (u == 0 || u > n - used)
				abort();
			used += u;
		}
		if (lz_keyin_pending(&k) && data[off] % 3 == 0)
			lz_keyin_timeout(&k, &conf);
	}
	if (memchr(out.buf ? out.buf : "", conf.prefix.b[0], out.len) != NULL)
		abort();
	for (off = 1; off < size; off += used) {
		used = lz_key_next(data + off, size - off, &key);
		if (used > size - off || key.len > LZ_KEY_MAX)
			abort();
		if (used == 0)
			break;
	}
	lz_keys_translate(data, size, data[0] & 1, &tr);
	if (tr.len > size)
		abort();
	lz_buf_release(&out);
	lz_buf_release(&tr);
	return 0;
}
