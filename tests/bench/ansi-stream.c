/*
 * ansi-stream.c: writes the deterministic stream of ansi-stream.h to a
 * file, for the benches that need it on disk (a `cat` on a pty, in a
 * Lazaret pane or a tmux pane).
 *
 * Usage: ansi-stream MB FILE	(1 MB = 10^6 bytes)
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "tests/bench/ansi-stream.h"

int
main(int argc, char **argv)
{
	struct lz_buf s = LZ_BUF_INIT;
	FILE *f;
	size_t mb;

	if (argc != 3 || (mb = strtoul(argv[1], NULL, 10)) == 0) {
		fprintf(stderr, "usage: ansi-stream MB FILE\n");
		return 2;
	}
	ansi_stream(&s, mb * 1000000);
	if ((f = fopen(argv[2], "w")) == NULL ||
	    fwrite(s.buf, 1, s.len, f) != s.len || fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	lz_buf_release(&s);
	return 0;
}
