/*
 * fuzz-vtfilter.c: libFuzzer target for the sandbox output filter
 * (ui/vtfilter.c). The first byte of the input picks how it is cut into
 * feed calls. Whatever comes in, the output must hold nothing the policy
 * drops: filtering it a second time must drop nothing and change nothing,
 * and it never contains an OSC 52, a status query, a DCS or an APC.
 * Needs lzui (and libvterm) on the target's link line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/vtfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
collect(const char *buf, size_t len, void *user)
{
	lz_buf_add(user, buf, len);
}

static const char *const forbidden[] = {
	"\033]52", "\033]0;", "\033]2;", "\033[6n", "\033[5n", "\033[c",
	"\033[>c", "\033[?6n", "\033P", "\033_", "\033^", "\033X", "\033Z",
	"\005",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_buf once = LZ_BUF_INIT, twice = LZ_BUF_INIT;
	struct lz_vtfilter *f;
	size_t i, n, step;

	if (size == 0)
		return 0;
	step = 1 + data[0] % 17;
	data++;
	size--;
	f = lz_vtfilter_new(collect, &once);
	for (i = 0; i < size; i += n) {
		n = size - i < step ? size - i : step;
		lz_vtfilter_feed(f, (const char *)data + i, n);
		step = 1 + (step * 7 + 3) % 23;
	}
	lz_vtfilter_free(f);

	for (i = 0; i < sizeof forbidden / sizeof *forbidden; i++) {
		if (memmem(once.buf, once.len, forbidden[i],
		    strlen(forbidden[i])) != NULL)
			abort();
	}
	f = lz_vtfilter_new(collect, &twice);
	lz_vtfilter_feed(f, once.buf, once.len);
	if (lz_vtfilter_dropped(f) != 0 || twice.len != once.len ||
	    memcmp(twice.buf, once.buf, once.len) != 0)
		abort();
	lz_vtfilter_free(f);
	lz_buf_release(&once);
	lz_buf_release(&twice);
	return 0;
}
