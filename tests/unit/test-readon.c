/*
 * test-readon.c: lz_read_on (core/util.h), the loop the readers of a
 * session's output run after the read that woke them: it takes what a
 * pipe or a pty's master holds, up to the buffer's end, and never waits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fcntl.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include "core/util.h"

static void
nonblock(int fd)
{
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK),
	    0);
}

/* A pipe: everything written, in pieces; the cap; end of file. */
static void
test_pipe(void **state)
{
	char buf[64], big[100];
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	nonblock(fds[0]);
	/* Nothing there: at once, with what the caller had. */
	assert_int_equal(lz_read_on(fds[0], buf, 3, sizeof buf), 3);
	assert_int_equal(write(fds[1], "abc", 3), 3);
	assert_int_equal(write(fds[1], "defgh", 5), 5);
	assert_int_equal(lz_read_on(fds[0], buf, 0, sizeof buf), 8);
	assert_memory_equal(buf, "abcdefgh", 8);
	/* Never past cap; the rest stays for the next read. */
	memset(big, 'x', sizeof big);
	assert_int_equal(write(fds[1], big, sizeof big), (ssize_t)sizeof big);
	assert_int_equal(lz_read_on(fds[0], buf, 10, sizeof buf), sizeof buf);
	assert_int_equal(lz_read_on(fds[0], buf, 0, sizeof buf),
	    sizeof big - (sizeof buf - 10));
	assert_int_equal(lz_read_on(fds[0], buf, 0, sizeof buf), 0);
	/* End of file ends it; the next read sees it. */
	assert_int_equal(write(fds[1], "z", 1), 1);
	close(fds[1]);
	assert_int_equal(lz_read_on(fds[0], buf, 0, sizeof buf), 1);
	assert_int_equal(read(fds[0], buf, 1), 0);
	close(fds[0]);
}

/*
 * A pty's master gives at most n_tty's 4 KiB a read; what the slave wrote
 * beyond that comes with the reads that follow, without a poll.
 */
static void
test_pty(void **state)
{
	static char out[12000], in[65536];
	struct termios t;
	ssize_t first, wrote;
	size_t i, got;
	int m, s;

	(void)state;
	assert_int_equal(openpty(&m, &s, NULL, NULL, NULL), 0);
	assert_int_equal(tcgetattr(s, &t), 0);
	cfmakeraw(&t);
	assert_int_equal(tcsetattr(s, TCSANOW, &t), 0);
	nonblock(m);
	/* The slave takes what the pty has room for, without a reader. */
	nonblock(s);
	for (i = 0; i < sizeof out; i++)
		out[i] = (char)('a' + i % 26);
	wrote = write(s, out, sizeof out);
	assert_true(wrote > 4096);
	first = read(m, in, sizeof in);
	assert_true(first > 0 && first <= 4096);
	got = lz_read_on(m, in, (size_t)first, sizeof in);
	assert_int_equal(got, (size_t)wrote);
	assert_memory_equal(in, out, got);
	close(s);
	close(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_pty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
