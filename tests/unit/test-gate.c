/*
 * test-gate.c: the sandbox's creation waits for the verified sidecar
 * (core/gate.h): the shim's judgement of the coordinator's line against
 * the network namespace podman chose, and the FIFO both ways (go, no, a
 * coordinator that holds the gate and goes away, nobody holding it, a
 * bundle without a gate).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/gate.h"
#include "core/spawn.h"

static void
test_judge(void **state)
{
	/* Lines that are not "go PID" for that PID's namespace. */
	static const struct {
		const char *line, *ns;
	} other[] = {
		{ "", "/proc/1/ns/net" },
		{ "go\n", "/proc/1/ns/net" },
		{ "go 0\n", "/proc/0/ns/net" },
		{ "go -1\n", "/proc/-1/ns/net" },
		{ "go 01\n", "/proc/1/ns/net" },
		{ "go 1 x\n", "/proc/1/ns/net" },
		{ "GO 1\n", "/proc/1/ns/net" },
		{ "go 99999999999999999999\n", "/proc/1/ns/net" },
	};
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	(void)state;
	assert_int_equal(lz_gate_judge("go 1234\n", "/proc/1234/ns/net", NULL),
	    0);
	assert_int_equal(lz_gate_judge("go 1234", "/proc/1234/ns/net", NULL),
	    0);
	/* Another process's namespace: a sidecar podman started anew. */
	assert_int_equal(lz_gate_judge("go 1234\n", "/proc/1235/ns/net", &e),
	    LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "not the verified network sidecar's"));
	lz_err_release(&e);
	/* A new namespace of its own (no path), or none given. */
	assert_int_equal(lz_gate_judge("go 1234\n", NULL, &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "a new one"));
	lz_err_release(&e);
	assert_int_equal(lz_gate_judge("go 12\n", "/proc/123/ns/net", NULL),
	    LZ_EUNSAFE);
	/* The coordinator's refusal, with its reason. */
	assert_int_equal(lz_gate_judge("no the image changed\n",
	    "/proc/1/ns/net", &e), LZ_EUNSAFE);
	assert_non_null(strstr(e.msg, "the image changed"));
	assert_null(strchr(e.msg, '\n'));
	lz_err_release(&e);
	/* Anything else. */
	for (i = 0; i < sizeof other / sizeof other[0]; i++)
		assert_int_equal(lz_gate_judge(other[i].line, other[i].ns,
		    NULL), LZ_EUNSAFE);
}

struct dir {
	char root[64];
	char bundle[128];
	char gate[128];
};

/* A bundle whose config names gate (or none) and netns (or none). */
static void
bundle(struct dir *d, int with_gate, const char *netns)
{
	char path[192];
	FILE *f;

	snprintf(d->root, sizeof d->root, "/tmp/lz-test-gate.XXXXXX");
	assert_non_null(mkdtemp(d->root));
	snprintf(d->bundle, sizeof d->bundle, "%s", d->root);
	snprintf(d->gate, sizeof d->gate, "%s/gate", d->root);
	snprintf(path, sizeof path, "%s/config.json", d->bundle);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"annotations\":{");
	if (with_gate)
		fprintf(f, "\"" LZ_GATE_ANNOTATION "\":\"%s\"", d->gate);
	fprintf(f, "},\"linux\":{\"namespaces\":[{\"type\":\"pid\"}");
	if (netns != NULL)
		fprintf(f, ",{\"type\":\"network\",\"path\":\"%s\"}", netns);
	fprintf(f, "]}}");
	fclose(f);
}

static void
cleanup(struct dir *d)
{
	char path[192];

	snprintf(path, sizeof path, "%s/config.json", d->bundle);
	unlink(path);
	unlink(d->gate);
	rmdir(d->root);
}

/*
 * The shim's wait in a child; its exit status is 0 when it went on, 1
 * when refused.
 */
static pid_t
shim(const struct dir *d)
{
	struct lz_err e = LZ_ERR_INIT;
	pid_t pid;

	if ((pid = fork()) == 0) {
		/* As after the shim's exec: the coordinator's descriptor is
		 * close-on-exec. */
		close_range(3, ~0U, 0);
		if (lz_gate_annot_wait(d->bundle, &e) != 0) {
			fprintf(stderr, "  (shim: %s)\n", e.msg);
			_exit(1);
		}
		_exit(0);
	}
	assert_true(pid > 0);
	return pid;
}

static int
reap(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void
test_fifo(void **state)
{
	struct dir d;
	int64_t t0;
	pid_t pid;
	int fd;

	(void)state;
	/* go for the namespace podman chose: on. */
	bundle(&d, 1, "/proc/4321/ns/net");
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	pid = shim(&d);
	usleep(50 * 1000);
	assert_int_equal(lz_gate_say(fd, "go 4321", NULL), 0);
	assert_int_equal(reap(pid), 0);
	close(fd);
	/* Said before the shim opened it: the line waits for it. */
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	assert_int_equal(lz_gate_say(fd, "go 4321", NULL), 0);
	assert_int_equal(reap(shim(&d)), 0);
	close(fd);
	/* go for another process: refused. */
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	assert_int_equal(lz_gate_say(fd, "go 4322", NULL), 0);
	assert_int_equal(reap(shim(&d)), 1);
	close(fd);
	/* no: refused. */
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	pid = shim(&d);
	assert_int_equal(lz_gate_say(fd, "no the policy differs", NULL), 0);
	assert_int_equal(reap(pid), 1);
	close(fd);
	/* The coordinator goes away without a word: refused at once. */
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	pid = shim(&d);
	usleep(50 * 1000);
	t0 = lz_spawn_now_ms();
	close(fd);
	assert_int_equal(reap(pid), 1);
	assert_true(lz_spawn_now_ms() - t0 < 5000);
	/* Nobody holds it (a "podman start" by hand): refused at once. */
	t0 = lz_spawn_now_ms();
	assert_int_equal(reap(shim(&d)), 1);
	assert_true(lz_spawn_now_ms() - t0 < 5000);
	/* Not a FIFO: refused. */
	unlink(d.gate);
	close(creat(d.gate, 0600));
	assert_int_equal(reap(shim(&d)), 1);
	/* A line that is not one line is not written. */
	assert_true((fd = lz_gate_open(d.gate, NULL)) >= 0);
	assert_int_equal(lz_gate_say(fd, "go 1\ngo 2", NULL), LZ_EINVAL);
	close(fd);
	cleanup(&d);
	/* No gate annotation (a sandbox without a sidecar): on at once. */
	bundle(&d, 0, NULL);
	assert_int_equal(reap(shim(&d)), 0);
	cleanup(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_fifo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
