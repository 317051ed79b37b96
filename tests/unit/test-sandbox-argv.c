/*
 * test-sandbox-argv.c: the podman command lines of the Agent Sandbox:
 * flag set and order, mounts in plan order, -v versus --mount with CSV
 * quoting, environment passthrough, refusals; also the parser of "podman
 * ps --format json" used by recovery.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/sandbox-argv.h"
#include "core/sandbox.h"
#include "core/sidecar-seccomp.h"

#define ID "0123456789abcdef"

static const char *
fake_env(const char *name)
{
	if (strcmp(name, "LANG") == 0)
		return "C.UTF-8";
	if (strcmp(name, "ODD") == 0)
		return "a b=c\nd";
	return NULL;
}

/* Index of the first token equal to s at or after from, or -1. */
static long
find(const struct lz_tokens *t, const char *s, size_t from)
{
	size_t i;

	for (i = from; i < t->n; i++) {
		if (strcmp(t->v[i], s) == 0)
			return (long)i;
	}
	return -1;
}

static void
spec_init(struct lz_sandbox_spec *s, struct lz_mountplan *mp,
    struct lz_tokens *env)
{
	memset(s, 0, sizeof *s);
	s->domain_id = ID;
	s->runtime = "/usr/local/bin/lazaret-runsc";
	s->image = "localhost/lazaret/base:bookworm";
	s->plan = mp;
	s->env = env;
	s->getenv_fn = fake_env;
}

static void
test_run_flags(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_tokens env = LZ_TOKENS_INIT, t = LZ_TOKENS_INIT;
	struct lz_sandbox_spec s;
	struct lz_err e = LZ_ERR_INIT;
	const char *want[] = { "/usr/bin/podman", "run", "-d", "--name",
	    "lz-" ID, "--label", "lazaret.domain=" ID, "--label",
	    "lazaret.role=sandbox", "--runtime", "/usr/local/bin/lazaret-runsc",
	    "--pull=never", "--cgroupns=private", "--network=none",
	    "--hostname", "lazaret", "--init" };
	size_t i;

	(void)state;
	lz_tokens_push(&env, "LANG");
	lz_tokens_push(&env, "UNSET");
	lz_tokens_push(&env, "ODD");
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/home/u/proj", "/workspace", 0,
	    "w");
	spec_init(&s, &mp, &env);
	s.term = "xterm-256color";
	s.terminfo = "/run/lazaret/terminfo";
	assert_int_equal(lz_sandbox_argv_run("/usr/bin/podman", &s, &t, &e),
	    0);
	for (i = 0; i < sizeof want / sizeof *want; i++)
		assert_string_equal(t.v[i], want[i]);
	assert_true(find(&t, "LANG=C.UTF-8", 0) > 0);
	assert_true(find(&t, "ODD=a b=c\nd", 0) > 0);
	assert_int_equal(find(&t, "UNSET", 0), -1);
	assert_true(find(&t, "TERM=xterm-256color", 0) > 0);
	assert_true(find(&t, "TERMINFO=/run/lazaret/terminfo", 0) > 0);
	/* No host namespace, no added capability, no privilege. */
	for (i = 0; i < t.n; i++) {
		assert_null(strstr(t.v[i], "=host"));
		assert_null(strstr(t.v[i], "--cap-add"));
		assert_null(strstr(t.v[i], "--privileged"));
		assert_null(strstr(t.v[i], "--pid"));
		assert_null(strstr(t.v[i], "--ipc"));
		assert_null(strstr(t.v[i], "--uts"));
		assert_null(strstr(t.v[i], "--userns"));
	}
	/* The tail: workdir, image, the long-running init. */
	assert_string_equal(t.v[t.n - 5], "-w");
	assert_string_equal(t.v[t.n - 4], "/workspace");
	assert_string_equal(t.v[t.n - 3], "localhost/lazaret/base:bookworm");
	assert_string_equal(t.v[t.n - 2], "sleep");
	assert_string_equal(t.v[t.n - 1], "infinity");
	assert_null(t.v[t.n]);
	assert_int_equal(find(&t, "--annotation", 0), -1);
	lz_tokens_release(&t);
	/* The State Anchors for the shim: one annotation after the labels. */
	s.anchors = "W1tdXQ==";
	assert_int_equal(lz_sandbox_argv_run("/usr/bin/podman", &s, &t, &e),
	    0);
	assert_string_equal(t.v[9], "--annotation");
	assert_string_equal(t.v[10], "lazaret.anchors=W1tdXQ==");
	assert_string_equal(t.v[11], "--runtime");
	lz_tokens_release(&t);
	/* Created ahead: "create", its label after the verb, the rest
	 * the same; a label that is no fingerprint is refused. */
	s.prepared = "00112233445566778899aabbccddeeff"
	    "00112233445566778899aabbccddeeff";
	assert_int_equal(lz_sandbox_argv_run("/usr/bin/podman", &s, &t, &e),
	    0);
	assert_string_equal(t.v[1], "create");
	assert_string_equal(t.v[2], "--label");
	assert_string_equal(t.v[3], "lazaret.prepared=00112233445566778899"
	    "aabbccddeeff00112233445566778899aabbccddeeff");
	assert_string_equal(t.v[4], "--name");
	assert_string_equal(t.v[t.n - 1], "infinity");
	lz_tokens_release(&t);
	s.prepared = "0011";
	assert_int_equal(lz_sandbox_argv_run("/usr/bin/podman", &s, &t, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(t.n, 0);
	lz_tokens_release(&env);
	lz_mountplan_release(&mp);
}

static void
test_run_mounts_in_order(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_sandbox_spec s;
	struct lz_err e = LZ_ERR_INIT;
	long a, b, c, d, f;

	(void)state;
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/home/u/my proj", "/workspace",
	    0, "w");
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/home/u/my proj/.git",
	    "/workspace/.git", 0, "g");
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/home/u/my proj/.git/config",
	    "/workspace/.git/config", 1, "c");
	lz_mountplan_add(&mp, LZ_MOUNT_TMPFS, NULL, "/workspace/.git/hooks", 0,
	    "h");
	lz_mountplan_add(&mp, LZ_MOUNT_ANCHOR, "/d/anchors/usr/merged", "/usr",
	    1, "a");
	spec_init(&s, &mp, NULL);
	s.network = "container:lz-side";
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), 0);
	a = find(&t, "/home/u/my proj:/workspace", 0);
	b = find(&t, "/home/u/my proj/.git:/workspace/.git", 0);
	c = find(&t, "/home/u/my proj/.git/config:/workspace/.git/config:ro",
	    0);
	d = find(&t, "type=tmpfs,destination=/workspace/.git/hooks", 0);
	/* An anchor is read-write whatever the plan says. */
	f = find(&t, "/d/anchors/usr/merged:/usr", 0);
	assert_true(a > 0 && b > a && c > b && d > c && f > d);
	assert_string_equal(t.v[a - 1], "-v");
	assert_string_equal(t.v[d - 1], "--mount");
	assert_true(find(&t, "--network=container:lz-side", 0) > 0);
	lz_tokens_release(&t);
	lz_mountplan_release(&mp);
}

static void
test_run_odd_paths(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_sandbox_spec s;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/h/a,b", "/workspace", 0, "w");
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/h/new\nline/.git/config",
	    "/workspace/.git/config", 1, "c");
	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/h/x:y\"q", "/v", 0, "v");
	lz_mountplan_add(&mp, LZ_MOUNT_TMPFS, NULL, "/t,mp", 1, "t");
	spec_init(&s, &mp, NULL);
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), 0);
	assert_true(find(&t, "type=bind,\"source=/h/a,b\","
	    "destination=/workspace", 0) > 0);
	assert_true(find(&t, "type=bind,\"source=/h/new\nline/.git/config\","
	    "destination=/workspace/.git/config,ro", 0) > 0);
	assert_true(find(&t, "type=bind,\"source=/h/x:y\"\"q\","
	    "destination=/v", 0) > 0);
	assert_true(find(&t, "type=tmpfs,\"destination=/t,mp\",ro", 0) > 0);
	lz_tokens_release(&t);
	lz_mountplan_release(&mp);
}

static void
test_run_refusals(void **state)
{
	struct lz_mountplan mp = LZ_MOUNTPLAN_INIT;
	struct lz_tokens t = LZ_TOKENS_INIT, env = LZ_TOKENS_INIT;
	struct lz_sandbox_spec s;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	spec_init(&s, &mp, NULL);
	s.domain_id = "0123";
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "Domain ID"));
	assert_int_equal(t.n, 0);
	lz_err_release(&e);

	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "/h/cr\rhere", "/workspace", 0,
	    "w");
	spec_init(&s, &mp, NULL);
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "carriage return"));
	assert_int_equal(t.n, 0);
	assert_null(t.v);
	lz_err_release(&e);
	lz_mountplan_release(&mp);

	lz_mountplan_add(&mp, LZ_MOUNT_BIND, "relative", "/workspace", 0, "w");
	spec_init(&s, &mp, NULL);
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "not an absolute path"));
	lz_err_release(&e);
	lz_mountplan_release(&mp);

	lz_tokens_push(&env, "LANG");
	lz_tokens_push(&env, "BAD-NAME");
	spec_init(&s, &mp, &env);
	s.getenv_fn = fake_env;
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), 0);
	lz_tokens_release(&t);
	s.getenv_fn = NULL;
	/* A set variable with an invalid name is refused. */
	setenv("BAD-NAME", "x", 1);
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "BAD-NAME"));
	unsetenv("BAD-NAME");
	lz_err_release(&e);
	lz_tokens_release(&env);
	s.runtime = "lazaret-runsc";
	assert_int_equal(lz_sandbox_argv_run("podman", &s, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
}

static void
test_exec(void **state)
{
	struct lz_tokens t = LZ_TOKENS_INIT, env = LZ_TOKENS_INIT;
	struct lz_sandbox_exec x;
	struct lz_err e = LZ_ERR_INIT;
	char *cmd[] = { "git", "status", "-s", NULL };
	const char *want[] = { "podman", "exec", "-i", "-t", "--detach-keys=",
	    "-w", "/workspace/sub", "-e", "TERM=xterm", "lz-" ID, "git",
	    "status", "-s" };
	size_t i;

	(void)state;
	memset(&x, 0, sizeof x);
	x.domain_id = ID;
	x.tty = 1;
	x.cwd = "/workspace/sub";
	lz_tokens_push(&env, "TERM=xterm");
	x.env = &env;
	x.argv = cmd;
	assert_int_equal(lz_sandbox_argv_exec("podman", &x, &t, &e), 0);
	assert_int_equal(t.n, sizeof want / sizeof *want);
	for (i = 0; i < t.n; i++)
		assert_string_equal(t.v[i], want[i]);
	lz_tokens_release(&t);

	x.tty = 0;
	x.cwd = NULL;
	x.env = NULL;
	assert_int_equal(lz_sandbox_argv_exec("podman", &x, &t, &e), 0);
	assert_string_equal(t.v[2], "-i");
	assert_string_equal(t.v[3], "-w");
	assert_string_equal(t.v[4], "/workspace");
	assert_string_equal(t.v[5], "lz-" ID);
	lz_tokens_release(&t);

	lz_tokens_release(&env);
	lz_tokens_push(&env, "NOEQUALS");
	x.env = &env;
	assert_int_equal(lz_sandbox_argv_exec("podman", &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	x.env = NULL;
	x.cwd = "rel";
	assert_int_equal(lz_sandbox_argv_exec("podman", &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	x.cwd = NULL;
	cmd[0] = NULL;
	assert_int_equal(lz_sandbox_argv_exec("podman", &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(t.n, 0);
	lz_tokens_release(&env);
}

static void
test_csv_field(void **state)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;

	(void)state;
	assert_int_equal(lz_sandbox_csv_field(&b, "source=/a b", &e), 0);
	assert_string_equal(b.buf, "source=/a b");
	lz_buf_reset(&b);
	assert_int_equal(lz_sandbox_csv_field(&b, " lead", &e), 0);
	assert_string_equal(b.buf, "\" lead\"");
	lz_buf_reset(&b);
	assert_int_equal(lz_sandbox_csv_field(&b, "a\"b,c", &e), 0);
	assert_string_equal(b.buf, "\"a\"\"b,c\"");
	lz_buf_release(&b);
	assert_true(lz_sandbox_env_name_valid("_A1"));
	assert_false(lz_sandbox_env_name_valid("1A"));
	assert_false(lz_sandbox_env_name_valid(""));
	assert_false(lz_sandbox_env_name_valid("A*"));
}

static void
test_list_parse(void **state)
{
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	struct lz_err e = LZ_ERR_INIT;
	const char *json = "[ { \"Id\": \"abc\", \"Names\": [ \"lz-" ID "\" ],"
	    " \"State\": \"running\", \"Labels\": { \"lazaret.domain\": \""
	    ID "\", \"lazaret.role\": \"sandbox\" } },"
	    " { \"Id\": \"def\", \"State\": \"created\", \"Labels\": null },"
	    " { \"Id\": \"ghi\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.prepared\": \"ff\" } },"
	    " { \"Id\": \"jkl\", \"State\": \"exited\", \"Labels\": {"
	    " \"lazaret.prepared\": \"ff\" } } ]";

	(void)state;
	assert_int_equal(lz_sandbox_list_parse(json, &l, &e), 0);
	assert_int_equal(l.n, 4);
	/* Prepared for a next start: labelled so and never run. */
	assert_false(lz_sandbox_entry_prepared(&l.v[0]));
	assert_false(lz_sandbox_entry_prepared(&l.v[1]));
	assert_true(lz_sandbox_entry_prepared(&l.v[2]));
	assert_false(lz_sandbox_entry_prepared(&l.v[3]));
	assert_string_equal(l.v[0].id, "abc");
	assert_string_equal(l.v[0].name, "lz-" ID);
	assert_string_equal(l.v[0].role, "sandbox");
	assert_string_equal(l.v[0].state, "running");
	assert_string_equal(l.v[1].role, "");
	assert_string_equal(l.v[1].name, "");
	lz_sandbox_list_release(&l);
	assert_int_equal(lz_sandbox_list_parse("\n", &l, &e), 0);
	assert_int_equal(lz_sandbox_list_parse("[]", &l, &e), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(lz_sandbox_list_parse("{", &l, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_sandbox_list_parse("[{\"Names\":[]}]", &l, &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "no Id"));
	lz_err_release(&e);
	lz_sandbox_list_release(&l);
}

/*
 * The stop's selection from "ps -a --external": the Domain's labelled
 * containers, and its two names even unlabelled (storage leftovers).
 */
static void
test_list_select(void **state)
{
	struct lz_sandbox_list all = LZ_SANDBOX_LIST_INIT;
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	const char *json = "["
	    " { \"Id\": \"a1\", \"Names\": [ \"lz-" ID "\" ],"
	    " \"State\": \"storage\", \"Labels\": null },"
	    " { \"Id\": \"b2\", \"Names\": [ \"lz-" ID "-net\" ],"
	    " \"Labels\": { \"lazaret.domain\": \"" ID "\","
	    " \"lazaret.role\": \"sidecar\" } },"
	    " { \"Id\": \"c3\", \"Names\": [ \"other\" ],"
	    " \"Labels\": { \"lazaret.domain\": \"" ID "\" } },"
	    " { \"Id\": \"d4\", \"Names\": [ \"lz-fedcba9876543210\" ],"
	    " \"Labels\": { \"lazaret.domain\": \"fedcba9876543210\","
	    " \"lazaret.role\": \"sandbox\" } },"
	    " { \"Id\": \"e5\", \"Names\": [ \"lz-" ID "x\" ] },"
	    " { \"Id\": \"f6\", \"Names\": [ \"lz-" ID "-net\" ] } ]";

	(void)state;
	assert_int_equal(lz_sandbox_list_parse(json, &all, NULL), 0);
	assert_int_equal(all.n, 6);
	assert_string_equal(all.v[1].domain, ID);
	assert_string_equal(all.v[0].domain, "");
	lz_sandbox_list_select(&all, ID, &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0].id, "a1");
	assert_string_equal(l.v[0].role, "sandbox");	/* from its name */
	assert_string_equal(l.v[1].id, "b2");
	assert_string_equal(l.v[1].role, "sidecar");
	assert_string_equal(l.v[2].id, "c3");
	assert_string_equal(l.v[2].role, "");		/* "any other" */
	assert_string_equal(l.v[3].id, "f6");
	assert_string_equal(l.v[3].role, "sidecar");
	lz_sandbox_list_release(&l);
	lz_sandbox_list_select(&all, "0000000000000000", &l);
	assert_int_equal(l.n, 0);
	lz_sandbox_list_release(&l);
	lz_sandbox_list_release(&all);
}

/*
 * A prepared container no start will claim: another Domain's, created,
 * labelled, naming a Domain Root or workspace that is gone. "/" exists;
 * a path below a regular file (ENOTDIR) or missing (ENOENT) does not.
 */
static void
test_entry_orphan(void **state)
{
	struct lz_sandbox_list l = LZ_SANDBOX_LIST_INIT;
	const char *json = "["
	    " { \"Id\": \"a\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\","
	    " \"lazaret.domain-root\": \"/nonexistent/lz-root\","
	    " \"lazaret.workspace\": \"/\" } },"
	    " { \"Id\": \"b\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\","
	    " \"lazaret.domain-root\": \"/\","
	    " \"lazaret.workspace\": \"/dev/null/ws\" } },"
	    " { \"Id\": \"c\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\","
	    " \"lazaret.domain-root\": \"/\", \"lazaret.workspace\": \"/\" } },"
	    " { \"Id\": \"d\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\" } },"
	    " { \"Id\": \"e\", \"State\": \"running\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\","
	    " \"lazaret.domain-root\": \"/nonexistent/lz-root\" } },"
	    " { \"Id\": \"f\", \"State\": \"created\", \"Labels\": {"
	    " \"lazaret.domain\": \"" ID "\", \"lazaret.prepared\": \"ff\","
	    " \"lazaret.domain-root\": \"relative/root\" } } ]";

	(void)state;
	assert_int_equal(lz_sandbox_list_parse(json, &l, NULL), 0);
	assert_int_equal(l.n, 6);
	assert_string_equal(l.v[0].owner_root, "/nonexistent/lz-root");
	assert_string_equal(l.v[0].owner_workspace, "/");
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[0], "x"), 1);
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[1], "x"), 2);
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[2], "x"), 0);
	/* Made before the labels: never judged. */
	assert_string_equal(l.v[3].owner_root, "");
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[3], "x"), 0);
	/* Running: not a prepared one. */
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[4], "x"), 0);
	/* Not absolute: not judged. */
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[5], "x"), 0);
	/* The Domain's own: its own stop removes them anyway. */
	assert_int_equal(lz_sandbox_entry_orphan(&l.v[0], ID), 0);
	lz_sandbox_list_release(&l);
}

#define SC_SHA "5ec0000000000000000000000000000000000000000000000000000000000005"

/* A sidecar's spec with only what every one needs. */
static struct lz_sandbox_spec
side_spec(void)
{
	struct lz_sandbox_spec s;

	memset(&s, 0, sizeof s);
	s.domain_id = "0123456789abcdef";
	s.netpolicy = "P\n";
	s.sidecar_seccomp = "/run/l/sidecar-seccomp.json";
	s.sidecar_seccomp_sha = SC_SHA;
	return s;
}

/* Builds the sidecar's command line of s; returns its status. */
static int
side_argv(const struct lz_sandbox_spec *s, const char *prepared,
    struct lz_tokens *t)
{
	struct lz_err e = LZ_ERR_INIT;
	int rc;

	rc = lz_sandbox_argv_sidecar("/usr/bin/podman", s, prepared, t, &e);
	if (rc != 0) {
		assert_non_null(e.msg);
		assert_int_equal(t->n, 0);
	}
	lz_err_release(&e);
	return rc;
}

/*
 * The sidecar: crun, NET_ADMIN only, no host loopback, IPv6 off, its own
 * seccomp profile and that profile's digest as a label.
 */
static void
test_sidecar(void **state)
{
	static const char *const want[] = { "/usr/bin/podman", "run", "-d",
	    "--name", "lz-0123456789abcdef-net", "--label",
	    "lazaret.domain=0123456789abcdef", "--label",
	    "lazaret.role=sidecar", "--label", "lazaret.seccomp=" SC_SHA,
	    "--runtime", "crun", "--pull=never",
	    "--network", "slirp4netns:allow_host_loopback=false,"
	    "enable_ipv6=false", "--cap-drop", "all", "--cap-add", "NET_ADMIN",
	    "--sysctl", "net.ipv6.conf.all.disable_ipv6=1", "--sysctl",
	    "net.ipv6.conf.default.disable_ipv6=1", "--read-only",
	    "--security-opt", "no-new-privileges", "--security-opt",
	    "seccomp=/run/l/sidecar-seccomp.json", "--hostname", "lazaret",
	    "--entrypoint", "/lazaret-netpolicy",
	    "localhost/lazaret/netpolicy:" LZ_VERSION, "P\n" };
	struct lz_sandbox_spec s = side_spec(), bad;
	struct lz_tokens t = LZ_TOKENS_INIT;
	size_t i;
	char *name;

	(void)state;
	assert_int_equal(side_argv(&s, NULL, &t), 0);
	assert_int_equal(t.n, sizeof want / sizeof want[0]);
	for (i = 0; i < t.n; i++)
		assert_string_equal(t.v[i], want[i]);
	lz_tokens_release(&t);
	/* The text sent wins over the policy (the tamper test hook). */
	s.netpolicy_sent = "Q\n";
	assert_int_equal(side_argv(&s, NULL, &t), 0);
	assert_string_equal(t.v[t.n - 1], "Q\n");
	lz_tokens_release(&t);
	s.netpolicy_sent = NULL;
	/*
	 * A log file: conmon's k8s-file at that path, after the name; then
	 * the PID file.
	 */
	s.sidecar_log = "/run/l/sidecar.log";
	s.sidecar_pidfile = "/run/l/sidecar.pid";
	assert_int_equal(side_argv(&s, NULL, &t), 0);
	assert_int_equal(t.n, sizeof want / sizeof want[0] + 6);
	assert_string_equal(t.v[4], "lz-0123456789abcdef-net");
	assert_string_equal(t.v[5], "--log-driver");
	assert_string_equal(t.v[6], "k8s-file");
	assert_string_equal(t.v[7], "--log-opt");
	assert_string_equal(t.v[8], "path=/run/l/sidecar.log");
	assert_string_equal(t.v[9], "--pidfile");
	assert_string_equal(t.v[10], "/run/l/sidecar.pid");
	assert_string_equal(t.v[11], want[5]);
	lz_tokens_release(&t);
	bad = side_spec();
	bad.sidecar_pidfile = "rel.pid";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad = side_spec();
	bad.sidecar_log = "/run/a,b/log";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad.sidecar_log = "rel/log";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad = side_spec();
	bad.domain_id = "../x";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad = side_spec();
	bad.netpolicy = "";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	/* No sidecar runs without Lazaret's profile and its digest. */
	bad = side_spec();
	bad.sidecar_seccomp = NULL;
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad.sidecar_seccomp = "rel.json";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad.sidecar_seccomp = "/run/a,b/sc.json";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad = side_spec();
	bad.sidecar_seccomp_sha = NULL;
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	bad.sidecar_seccomp_sha = "abc";
	assert_int_equal(side_argv(&bad, NULL, &t), LZ_EINVAL);
	name = lz_sandbox_sidecar_name("0123456789abcdef");
	assert_string_equal(name, "lz-0123456789abcdef-net");
	free(name);
}

/*
 * The attachment: only the file's path and the Domain ID on the command
 * line (the key and this start's component IDs are in the file, so a
 * container created ahead carries none); "create" with the prepared label.
 */
static void
test_sidecar_attach_prepared(void **state)
{
	static const char fp[] = "00112233445566778899aabbccddeeff"
	    "00112233445566778899aabbccddeeff";
	struct lz_sidecar_attach a = { "/run/l/sidecar.key", "ab",
	    "1111111111111111", "2222222222222222" };
	struct lz_sandbox_spec s = side_spec();
	struct lz_tokens t = LZ_TOKENS_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t i;

	(void)state;
	s.attach = &a;
	assert_int_equal(side_argv(&s, NULL, &t), 0);
	assert_string_equal(t.v[1], "run");
	assert_string_equal(t.v[t.n - 2], "P\n");
	assert_string_equal(t.v[t.n - 1], "0123456789abcdef");
	for (i = 0; i < t.n; i++) {
		assert_null(strstr(t.v[i], a.sidecar_id));
		assert_null(strstr(t.v[i], a.sandbox_id));
		if (strcmp(t.v[i], "-v") == 0)
			assert_string_equal(t.v[i + 1], "/run/l/sidecar.key:"
			    "/lazaret-attach.key:ro");
	}
	lz_tokens_release(&t);
	assert_int_equal(side_argv(&s, fp, &t), 0);
	assert_string_equal(t.v[1], "create");
	assert_string_equal(t.v[2], "--label");
	assert_string_equal(t.v[3], "lazaret.prepared="
	    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
	assert_string_equal(t.v[4], "--name");
	lz_tokens_release(&t);
	/* "" is create without the label (what the fingerprint hashes). */
	assert_int_equal(side_argv(&s, "", &t), 0);
	assert_string_equal(t.v[1], "create");
	assert_string_equal(t.v[2], "--name");
	lz_tokens_release(&t);
	assert_int_equal(lz_sandbox_argv_sidecar("/usr/bin/podman", &s, "x,y",
	    &t, &e), LZ_EINVAL);
	assert_non_null(strstr(e.msg, "fingerprint"));
	lz_err_release(&e);
	a.keyfile = "/run/a,b/key";
	assert_int_equal(side_argv(&s, NULL, &t), LZ_EINVAL);
}

/* The action the profile p gives the system call name ("" if none). */
static const char *
sc_action(json_t *p, const char *name, json_t **args)
{
	json_t *rule, *n;
	size_t i, j;

	json_array_foreach(json_object_get(p, "syscalls"), i, rule)
		json_array_foreach(json_object_get(rule, "names"), j, n)
			if (strcmp(json_string_value(n), name) == 0) {
				*args = json_object_get(rule, "args");
				return json_string_value(json_object_get(rule,
				    "action"));
			}
	*args = NULL;
	return "";
}

/*
 * The sidecar's seccomp profile: refuses (EPERM) what it does not name,
 * names what the sidecar calls, not what would let it leave its place
 * (mounts, namespaces, ptrace, BPF, modules, new processes, connections),
 * and lets ioctl through only with SIOCGIFINDEX.
 */
static void
test_sidecar_seccomp_profile(void **state)
{
	static const char *const needed[] = { "execve", "close", "socket",
	    "bind", "sendto", "recvfrom", "openat", "read", "write", "pause",
	    "exit_group", "rt_sigreturn", "brk", "mmap" };
	static const char *const refused[] = { "mount", "umount2", "unshare",
	    "setns", "ptrace", "bpf", "init_module", "finit_module",
	    "kexec_load", "keyctl", "clone", "clone3", "fork", "vfork",
	    "connect", "accept4", "listen", "open_by_handle_at", "pivot_root",
	    "chroot", "setuid", "capset", "process_vm_writev", "userfaultfd",
	    "perf_event_open", "io_uring_setup", "personality" };
	struct lz_buf b = LZ_BUF_INIT, again = LZ_BUF_INIT;
	json_error_t je;
	json_t *p, *args, *a;
	size_t i;

	(void)state;
	lz_sidecar_seccomp_json(&b);
	p = json_loads(b.buf, 0, &je);
	assert_non_null(p);
	assert_string_equal(json_string_value(json_object_get(p,
	    "defaultAction")), "SCMP_ACT_ERRNO");
	assert_int_equal(json_integer_value(json_object_get(p,
	    "defaultErrnoRet")), 1);
	/* Native architecture only: no "architectures" list. */
	assert_null(json_object_get(p, "architectures"));
	for (i = 0; i < sizeof needed / sizeof needed[0]; i++) {
		assert_string_equal(sc_action(p, needed[i], &args),
		    "SCMP_ACT_ALLOW");
		assert_null(args);
	}
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
		assert_string_equal(sc_action(p, refused[i], &args), "");
	assert_string_equal(sc_action(p, "ioctl", &args), "SCMP_ACT_ALLOW");
	assert_int_equal(json_array_size(args), 1);
	a = json_array_get(args, 0);
	assert_int_equal(json_integer_value(json_object_get(a, "index")), 1);
	assert_int_equal(json_integer_value(json_object_get(a, "value")),
	    0x8933);
	assert_string_equal(json_string_value(json_object_get(a, "op")),
	    "SCMP_CMP_EQ");
	json_decref(p);
	/* The same text every time: its digest is the sidecar's label. */
	lz_sidecar_seccomp_json(&again);
	assert_string_equal(b.buf, again.buf);
	lz_buf_release(&b);
	lz_buf_release(&again);
}

/* A session's direct runsc exec: the shim, runsc's root, the full ID. */
static void
test_runsc_exec(void **state)
{
	static const char cid[] = "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef";
	struct lz_tokens t = LZ_TOKENS_INIT, env = LZ_TOKENS_INIT;
	struct lz_sandbox_exec x;
	struct lz_err e = LZ_ERR_INIT;
	char *cmd[] = { "git", "-c", "a=b", NULL };
	const char *want[] = { "/bin/shim", "--root", "/run/user/1/runsc",
	    "exec", "--cwd", "/workspace/sub", "--env", "TERM=xterm", "--env",
	    "A=b=c", cid, "git", "-c", "a=b" };
	size_t i;

	(void)state;
	memset(&x, 0, sizeof x);
	x.domain_id = ID;
	x.tty = 1;
	x.cwd = "/workspace/sub";
	lz_tokens_push(&env, "TERM=xterm");
	lz_tokens_push(&env, "A=b=c");
	x.env = &env;
	x.argv = cmd;
	assert_int_equal(lz_sandbox_argv_runsc_exec("/bin/shim",
	    "/run/user/1/runsc", cid, &x, &t, &e), 0);
	assert_int_equal(t.n, sizeof want / sizeof *want);
	for (i = 0; i < t.n; i++)
		assert_string_equal(t.v[i], want[i]);
	lz_tokens_release(&t);
	x.cwd = NULL;
	x.env = NULL;
	assert_int_equal(lz_sandbox_argv_runsc_exec("/bin/shim",
	    "/run/user/1/runsc", cid, &x, &t, &e), 0);
	assert_string_equal(t.v[5], "/workspace");
	assert_string_equal(t.v[6], cid);
	lz_tokens_release(&t);
	/* Refused (podman exec is used instead): a comma, a short ID. */
	lz_tokens_push(&env, "X=a,b");
	x.env = &env;
	assert_int_equal(lz_sandbox_argv_runsc_exec("/bin/shim",
	    "/run/user/1/runsc", cid, &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	x.env = NULL;
	assert_int_equal(lz_sandbox_argv_runsc_exec("/bin/shim",
	    "/run/user/1/runsc", "0123", &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_sandbox_argv_runsc_exec("shim",
	    "/run/user/1/runsc", cid, &x, &t, &e), LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(t.n, 0);
	lz_tokens_release(&env);
}

/* conmon's k8s-file log: streams apart, P lines joined, a torn end left. */
static void
test_log_split(void **state)
{
	struct lz_buf out = LZ_BUF_INIT, err = LZ_BUF_INIT;

	(void)state;
	lz_sandbox_log_split("2026-11-30T08:17:00.1+00:00 stdout F ready ab\n"
	    "2026-11-30T08:17:00.2+00:00 stderr P lazaret-netpolicy: \n"
	    "2026-11-30T08:17:00.3+00:00 stderr F no route\n"
	    "garbage\n"
	    "2026-11-30T08:17:00.4+00:00 stdout F x y z\n"
	    "2026-11-30T08:17:00.5+00:00 stdout F ready cd", &out, &err);
	assert_string_equal(out.buf, "ready ab\nx y z\n");
	assert_string_equal(err.buf, "lazaret-netpolicy: no route\n");
	lz_buf_release(&out);
	lz_buf_release(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_flags),
		cmocka_unit_test(test_run_mounts_in_order),
		cmocka_unit_test(test_run_odd_paths),
		cmocka_unit_test(test_run_refusals),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test(test_list_select),
		cmocka_unit_test(test_entry_orphan),
		cmocka_unit_test(test_sidecar),
		cmocka_unit_test(test_sidecar_attach_prepared),
		cmocka_unit_test(test_sidecar_seccomp_profile),
		cmocka_unit_test(test_log_split),
		cmocka_unit_test(test_runsc_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
