/*
 * chunkcat.c: cat for the "many small writes" stream of the pane benches:
 * writes FILE to stdout in pieces of 1 to MAX bytes (a fixed LCG, so every
 * run writes the same pieces), one write(2) each, as a program that
 * prints a line or a progress update at a time does.
 *
 * Usage: chunkcat [-s MAX] FILE	(MAX defaults to 64)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	const char *p;
	struct stat st;
	size_t off = 0, n, max = 64;
	uint32_t seed = 12345;
	ssize_t w;
	int ch, fd;

	while ((ch = getopt(argc, argv, "s:")) != -1) {
		if (ch != 's' || (max = strtoul(optarg, NULL, 10)) == 0)
			goto usage;
	}
	if (argc - optind != 1)
		goto usage;
	if ((fd = open(argv[optind], O_RDONLY)) == -1 || fstat(fd, &st) != 0 ||
	    st.st_size == 0 || (p = mmap(NULL, (size_t)st.st_size, PROT_READ,
	    MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		perror(argv[optind]);
		return 1;
	}
	while (off < (size_t)st.st_size) {
		seed = seed * 1103515245u + 12345u;
		n = 1 + (seed >> 8) % max;
		if (n > (size_t)st.st_size - off)
			n = (size_t)st.st_size - off;
		w = write(1, p + off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("chunkcat: write");
			return 1;
		}
		off += (size_t)w;
	}
	return 0;
usage:
	fprintf(stderr, "usage: chunkcat [-s MAX] FILE\n");
	return 2;
}
