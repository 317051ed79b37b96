/*
 * pane-memory.c: issue 6's memory figure for the coordinator's side. Eight
 * lz_panes of 200x50 (so a line of 100 characters does not wrap) with
 * 10,000 lines of scrollback each are fed the same file, as a coordinator
 * holding eight sessions would be, and the process's VmRSS is printed;
 * pane-memory.sh puts it next to a tmux server holding the same.
 *
 *   pane-memory -w FILE	writes the content: 10,000 lines of 100
 *			characters, each character in its own 256-colour
 *			foreground (SGR 38;5;N before every one), CR LF
 *   pane-memory FILE	feeds FILE to 8 panes in 4 KiB reads and prints
 *			"baseline KB", "rss KB", the scrollback lines and
 *			encoded bytes of pane 0, checks pane 0's newest,
 *			middle and oldest scrollback lines against the
 *			file, then frees every other pane and prints the
 *			VmRSS left ("half_freed_rss_kb")
 *
 * The input is read in 4 KiB pieces into a static buffer, so the heap
 * holds only what the panes keep. Not a ctest test.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "ui/pane.h"

#define NPANES 8
#define ROWS 50
#define COLS 200
#define LINES 10000
#define WIDTH 100

static char
line_char(int line, int col)
{
	static const char set[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	return set[(line * 31 + col * 7) % (int)(sizeof set - 1)];
}

static int
write_content(const char *path)
{
	FILE *f = fopen(path, "w");
	int line, col;

	if (f == NULL) {
		perror(path);
		return 1;
	}
	for (line = 0; line < LINES; line++) {
		for (col = 0; col < WIDTH; col++)
			fprintf(f, "\033[38;5;%dm%c", (line + col * 5) % 256,
			    line_char(line, col));
		fputs("\033[0m\r\n", f);
	}
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

static long
rss_kb(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	}
	fclose(f);
	return kb;
}

static void
feed_file(struct lz_pane *p, const char *path)
{
	static char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd == -1) {
		perror(path);
		exit(1);
	}
	while ((n = read(fd, buf, sizeof buf)) > 0)
		lz_pane_feed(p, buf, (size_t)n);
	close(fd);
}

/* Scrollback line idx (0 = newest) holds the file's line n, colours too. */
static int
check_line(const struct lz_pane *p, size_t idx, int n)
{
	struct lz_buf b = LZ_BUF_INIT;
	const struct lz_cell *c;
	int col, ok;

	lz_pane_line_text(p, -1 - (long)idx, &b);
	ok = b.len == WIDTH;
	for (col = 0; col < WIDTH && ok; col++) {
		c = lz_pane_scrollback_cell(p, idx, col);
		ok = b.buf[col] == line_char(n, col) && c != NULL &&
		    c->fg == LZ_COLOR_INDEXED((n + col * 5) % 256);
	}
	lz_buf_release(&b);
	return ok;
}

/*
 * The screen keeps the last ROWS - 1 lines above an empty cursor row; the
 * scrollback holds all lines before them, newest first.
 */
static int
check(const struct lz_pane *p)
{
	size_t sb = lz_pane_scrollback_lines(p);
	int first = LINES - (ROWS - 1) - 1;

	return sb == (size_t)first + 1 && check_line(p, 0, first) &&
	    check_line(p, sb / 2, first - (int)(sb / 2)) &&
	    check_line(p, sb - 1, 0);
}

int
main(int argc, char **argv)
{
	struct lz_pane *p[NPANES];
	long base, rss;
	int i;

	if (argc == 3 && strcmp(argv[1], "-w") == 0)
		return write_content(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: pane-memory -w FILE | pane-memory FILE\n");
		return 2;
	}
	base = rss_kb();
	for (i = 0; i < NPANES; i++) {
		p[i] = lz_pane_new(ROWS, COLS, LINES, NULL, NULL);
		feed_file(p[i], argv[1]);
	}
	rss = rss_kb();
	printf("panes %d, %dx%d, scrollback limit %d lines\n", NPANES, COLS,
	    ROWS, LINES);
	printf("baseline_kb %ld\n", base);
	printf("rss_kb %ld\n", rss);
	printf("pane0 scrollback_lines %zu bytes %zu\n",
	    lz_pane_scrollback_lines(p[0]), lz_pane_scrollback_bytes(p[0]));
	printf("check %s\n", check(p[0]) ? "ok" : "FAILED");
	/* Every other pane closed: what the process gives back. */
	for (i = 0; i < NPANES; i += 2)
		lz_pane_free(p[i]);
	printf("half_freed_rss_kb %ld\n", rss_kb());
	for (i = 1; i < NPANES; i += 2)
		lz_pane_free(p[i]);
	return 0;
}
