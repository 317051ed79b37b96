/*
 * ansi-stream.h: the deterministic ANSI-heavy stream of the pane benches
 * (issue 6): coloured "ls -l"-like lines with about five SGR sequences
 * each (16, 256 and 24-bit colours, bold), some CJK file names and emoji,
 * ending in CR LF. A fixed LCG seed, so every program and every run gets
 * the same bytes. Header-only so each bench stays one source file.
 */
#ifndef LZ_BENCH_ANSI_STREAM_H
#define LZ_BENCH_ANSI_STREAM_H

#include <stdint.h>

#include "core/util.h"

struct ansi_rng {
	uint32_t seed;
};

static uint32_t
ansi_rnd(struct ansi_rng *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return g->seed >> 8;
}

static const char *const ansi_words[] = {
	"main.c", "util.h", "README.md", "node_modules", "build", ".git",
	"\xe6\x96\x87\xe6\xa1\xa3.txt", "\xe6\xb5\x8b\xe8\xaf\x95_data",
	"\xf0\x9f\x9a\x80launch.sh", "Makefile", "src",
	"photo_\xf0\x9f\x93\xb7.jpg", "libvterm-0.1.4.tar.gz",
	"CMakeLists.txt", "test-pane.c",
};
#define ANSI_NWORDS (sizeof ansi_words / sizeof *ansi_words)

/* Appends exactly size bytes of the stream (seed 12345) to b. */
static void
ansi_stream(struct lz_buf *b, size_t size)
{
	static const char *const month[] = { "Jan", "Feb", "Mar", "Nov" };
	static const int colour[] = { 34, 32, 36, 35, 33, 31 };
	struct ansi_rng g = { 12345 };
	size_t start = b->len;
	uint32_t r;

	while (b->len - start < size) {
		r = ansi_rnd(&g);
		lz_buf_addf(b, "\033[0;%dm%c%s\033[0m %3u \033[33muser%u\033[0m "
		    "\033[38;5;%umstaff\033[0m %9u %s %2u %02u:%02u "
		    "\033[1;%dm%s\033[0m",
		    r % 3 == 0 ? 34 : 0, r % 3 == 0 ? 'd' : '-',
		    r % 2 ? "rwxr-xr-x" : "rw-r--r--", r % 40 + 1, r % 7,
		    16 + r % 200, ansi_rnd(&g) % 100000000, month[r % 4],
		    ansi_rnd(&g) % 28 + 1, ansi_rnd(&g) % 24,
		    ansi_rnd(&g) % 60, colour[r % 6],
		    ansi_words[ansi_rnd(&g) % ANSI_NWORDS]);
		if (r % 5 == 0)
			lz_buf_addf(b, " -> \033[38;2;%u;%u;%um%s\033[0m",
			    ansi_rnd(&g) % 256, ansi_rnd(&g) % 256,
			    ansi_rnd(&g) % 256,
			    ansi_words[ansi_rnd(&g) % ANSI_NWORDS]);
		lz_buf_adds(b, "\r\n");
	}
	b->len = start + size;
	b->buf[b->len] = '\0';
}

#endif
