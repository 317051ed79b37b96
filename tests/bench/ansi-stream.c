/*
 * ansi-stream.c: writes a deterministic stream of ansi-stream.h to a file,
 * for the benches that need it on disk (a `cat` on a pty, in a Lazaret
 * pane or a tmux pane).
 *
 * Usage: ansi-stream [-k KIND] [-r ROWS -c COLS] MB FILE
 *        ansi-stream -l	(the kinds, one a line)
 *
 * 1 MB = 10^6 bytes; KIND defaults to ls, the screen to 50x200.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "tests/bench/ansi-stream.h"

int
main(int argc, char **argv)
{
	struct lz_buf s = LZ_BUF_INIT;
	const char *kind = "ls";
	FILE *f;
	size_t mb, k;
	int ch, rows = 50, cols = 200;

	while ((ch = getopt(argc, argv, "k:r:c:l")) != -1) {
		switch (ch) {
		case 'k':
			kind = optarg;
			break;
		case 'r':
			rows = atoi(optarg);
			break;
		case 'c':
			cols = atoi(optarg);
			break;
		case 'l':
			for (k = 0; k < ANSI_NKINDS; k++)
				puts(ansi_kinds[k]);
			return 0;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2 || rows < 10 || cols < 80 ||
	    (mb = strtoul(argv[optind], NULL, 10)) == 0)
		goto usage;
	if (ansi_stream_kind(&s, kind, mb * 1000000, rows, cols) != 0) {
		fprintf(stderr, "ansi-stream: no kind %s (-l lists them)\n",
		    kind);
		return 2;
	}
	if ((f = fopen(argv[optind + 1], "w")) == NULL ||
	    fwrite(s.buf, 1, s.len, f) != s.len || fclose(f) != 0) {
		perror(argv[optind + 1]);
		return 1;
	}
	lz_buf_release(&s);
	return 0;
usage:
	fprintf(stderr, "usage: ansi-stream [-k KIND] [-r ROWS -c COLS] MB "
	    "FILE | ansi-stream -l\n");
	return 2;
}
