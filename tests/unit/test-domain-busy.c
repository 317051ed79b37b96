/*
 * test-domain-busy.c: what uses a Domain Root (core/domain-busy.h): mounts
 * on or beneath it, overlays with a layer in it, binds of a directory in
 * it shown elsewhere (same device, root beneath); a process whose working
 * directory or open file lies in it; and the control-socket probe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/domain-busy.h"
#include "tests/unit/testlib.h"

static const char mounts[] =
    "20 1 254:1 / / rw - ext4 /dev/vda rw\n"
    "21 20 254:1 /home/u/.local/share/lazaret/domains/d/anchors/usr/gen-1/"
    "upper /mnt/peek rw - ext4 /dev/vda rw\n"
    "22 20 0:40 / /home/u/.local/share/lazaret/domains/d/anchors/usr/merged"
    " rw - overlay lzanchor rw,lowerdir=/img/usr,upperdir=/home/u/.local/"
    "share/lazaret/domains/d/anchors/usr/gen-1/upper,workdir=/w,userxattr\n"
    "23 20 0:41 / /elsewhere rw - overlay x rw,lowerdir=/a:/home/u/.local/"
    "share/lazaret/domains/d/ignored/x,upperdir=/u,workdir=/w\n"
    "24 20 254:1 /home/u/other /mnt/other rw - ext4 /dev/vda rw\n"
    "25 20 0:42 / /home/u/.local/share/lazaret/domains/dd rw - tmpfs t rw\n";

static void
test_mounts(void **state)
{
	struct lz_mountinfo mi = LZ_MOUNTINFO_INIT;
	struct lz_tokens out = LZ_TOKENS_INIT;

	(void)state;
	assert_int_equal(lz_mountinfo_parse(mounts, &mi, NULL), 0);
	lz_busy_mounts(&mi, "/home/u/.local/share/lazaret/domains/d", &out);
	assert_int_equal(out.n, 3);
	assert_non_null(strstr(out.v[0], "bind mount of"));
	assert_non_null(strstr(out.v[0], "/mnt/peek"));
	assert_non_null(strstr(out.v[1], "overlay mount on"));
	assert_non_null(strstr(out.v[2], "/elsewhere' with a layer"));
	lz_tokens_release(&out);
	lz_mountinfo_release(&mi);
}

static void
test_procs(void **state)
{
	struct lz_tokens out = LZ_TOKENS_INIT;
	char dir[] = "/tmp/lz-busy.XXXXXX", sub[64], *real;
	int go[2], status;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	real = realpath(dir, NULL);
	snprintf(sub, sizeof sub, "%s/upper", real);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(lz_busy_procs(real, &out, NULL), 0);
	assert_int_equal(out.n, 0);
	assert_int_equal(pipe(go), 0);
	if ((pid = fork()) == 0) {
		char c;

		if (chdir(sub) != 0)
			_exit(1);
		close(go[1]);
		(void)read(go[0], &c, 1);	/* until the parent is done */
		_exit(0);
	}
	close(go[0]);
	/* Wait until the child sits in the directory. */
	for (status = 0; status < 200 && out.n == 0; status++) {
		lz_tokens_release(&out);
		assert_int_equal(lz_busy_procs(real, &out, NULL), 0);
		if (out.n == 0)
			usleep(10000);
	}
	assert_int_equal(out.n, 1);
	assert_non_null(strstr(out.v[0], "has its cwd in it"));
	close(go[1]);
	waitpid(pid, &status, 0);
	lz_tokens_release(&out);
	lz_test_rmrf(real);
	free(real);
}

static void
test_socket(void **state)
{
	struct sockaddr_un sa;
	char dir[] = "/tmp/lz-sock.XXXXXX", path[128];
	int s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/control.sock", dir);
	assert_false(lz_busy_socket(path));
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, path);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_false(lz_busy_socket(path));	/* a stale socket file */
	assert_int_equal(listen(s, 1), 0);
	assert_true(lz_busy_socket(path));
	close(s);
	lz_test_rmrf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mounts),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_socket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
