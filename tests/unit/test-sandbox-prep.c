/*
 * test-sandbox-prep.c: the next start's containers made ahead
 * (core/sandbox-prep.h): what the fingerprint covers and what it leaves
 * out, the record's form, and every check of podman's inspection before
 * a prepared pair is started (removed, started by another, image changed,
 * made for other command lines, another Domain).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/sandbox-prep.h"

#define ID "0123456789abcdef"
#define FP "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define SID "1111111111111111111111111111111111111111111111111111111111111111"
#define BID "2222222222222222222222222222222222222222222222222222222222222222"
#define IMG "3333333333333333333333333333333333333333333333333333333333333333"
#define SIMG "4444444444444444444444444444444444444444444444444444444444444444"

struct fix {
	struct lz_mountplan mp;
	struct lz_sidecar_attach attach;
	struct lz_sandbox_spec s;
};

static void
fix_init(struct fix *f)
{
	memset(f, 0, sizeof *f);
	lz_mountplan_add(&f->mp, LZ_MOUNT_BIND, "/home/u/proj", "/workspace",
	    0, "w");
	f->attach.keyfile = "/run/user/1/lazaret/" ID "/sidecar.key";
	f->attach.key_hex = "aa";
	f->attach.sidecar_id = "5555555555555555";
	f->attach.sandbox_id = "6666666666666666";
	f->s.domain_id = ID;
	f->s.runtime = "/usr/local/bin/lazaret-runsc";
	f->s.image = "localhost/lazaret/base:bookworm";
	f->s.plan = &f->mp;
	f->s.netpolicy = "lazaret-netpolicy 1\nallow 0.0.0.0/0\n";
	f->s.sidecar_log = "/run/user/1/lazaret/" ID "/sidecar.log";
	f->s.sidecar_pidfile = "/run/user/1/lazaret/" ID "/sidecar.pid";
	f->s.sandbox_pidfile = "/run/user/1/lazaret/" ID "/sandbox.pid";
	f->s.anchors = "W1tdXQ==";
	f->s.attach = &f->attach;
	f->s.sidecar_seccomp = "/run/user/1/lazaret/" ID "/sidecar-seccomp.json";
	f->s.sidecar_seccomp_sha = "11111111111111111111111111111111"
	    "11111111111111111111111111111111";
}

static void
refix(struct fix *f)
{
	lz_mountplan_release(&f->mp);
	fix_init(f);
}

/* The fingerprint of f's spec into fp. */
static void
fp_of(const struct fix *f, const char *podman, char fp[65])
{
	struct lz_sandbox_plan p = LZ_SANDBOX_PLAN_INIT;

	assert_int_equal(lz_sandbox_plan_make(podman, &f->s, &p, NULL), 0);
	memcpy(fp, p.fp, 65);
	lz_sandbox_plan_release(&p);
}

/* The fingerprint of f now differs from a; f is put back. */
static void
changed(struct fix *f, const char *a)
{
	char b[65];

	fp_of(f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(f);
}

static void
test_plan(void **state)
{
	struct fix f;
	struct lz_sandbox_plan p = LZ_SANDBOX_PLAN_INIT;
	char a[65], b[65];
	size_t i;
	int net = 0;

	(void)state;
	fix_init(&f);
	assert_int_equal(lz_sandbox_plan_make("/usr/bin/podman", &f.s, &p,
	    NULL), 0);
	assert_int_equal(strspn(p.fp, "0123456789abcdef"), 64);
	/* Both are "podman create" with the label naming the fingerprint. */
	assert_string_equal(p.sidecar.v[1], "create");
	assert_string_equal(p.sandbox.v[1], "create");
	assert_string_equal(p.sidecar.v[2], "--label");
	assert_non_null(strstr(p.sidecar.v[3], p.fp));
	assert_non_null(strstr(p.sandbox.v[3], p.fp));
	for (i = 0; i < p.sandbox.n; i++)
		net += strcmp(p.sandbox.v[i], "--network=container:"
		    LZ_SANDBOX_PREP_PEER) == 0;
	assert_int_equal(net, 1);
	/* Nothing of a start: neither component ID on either line. */
	for (i = 0; i < p.sidecar.n; i++) {
		assert_null(strstr(p.sidecar.v[i], f.attach.sidecar_id));
		assert_null(strstr(p.sidecar.v[i], f.attach.sandbox_id));
	}
	for (i = 0; i < p.sandbox.n; i++)
		assert_null(strstr(p.sandbox.v[i], f.attach.sandbox_id));
	memcpy(a, p.fp, 65);
	lz_sandbox_plan_release(&p);
	assert_string_equal(p.fp, "");

	/* The same spec, the same fingerprint; not podman's own path, nor
	 * the per-start key and IDs. */
	fp_of(&f, "/opt/podman/bin/podman", b);
	assert_string_equal(a, b);
	f.attach.sidecar_id = "7777777777777777";
	f.attach.sandbox_id = "8888888888888888";
	f.attach.key_hex = "bb";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_equal(a, b);

	/* Each of these changes it. */
	f.s.netpolicy = "lazaret-netpolicy 1\ndeny 0.0.0.0/0\n";
	changed(&f, a);
	f.s.netpolicy_sent = "lazaret-netpolicy 1\ndeny 1.0.0.0/8\n";
	changed(&f, a);
	f.s.image = "localhost/other:1";
	changed(&f, a);
	f.s.sidecar_image = "localhost/lazaret/netpolicy:other";
	changed(&f, a);
	f.s.anchors = "W1siL2V0YyJdXQ==";
	changed(&f, a);
	f.s.runtime = "/tmp/stage/lazaret-runsc";
	changed(&f, a);
	lz_mountplan_add(&f.mp, LZ_MOUNT_BIND, "/home/u/data", "/data", 1,
	    "volume");
	changed(&f, a);
	f.mp.v[0].readonly = 1;
	changed(&f, a);
	f.s.mailbox = "/run/user/1/lazaret/" ID "/mailbox/requests";
	changed(&f, a);
	/* Another seccomp profile for the sidecar. */
	f.s.sidecar_seccomp_sha = "22222222222222222222222222222222"
	    "22222222222222222222222222222222";
	changed(&f, a);

	/* Only a start with a sidecar is prepared. */
	f.s.netpolicy = NULL;
	assert_int_equal(lz_sandbox_plan_make("/usr/bin/podman", &f.s, &p,
	    NULL), LZ_EINVAL);
	lz_mountplan_release(&f.mp);
}

/* A pair's record fields, with the image store's stamp and file. */
static void
prepared_init(struct lz_sandbox_prepared *p)
{
	memset(p, 0, sizeof *p);
	memcpy(p->fp, FP, 65);
	memcpy(p->sidecar, SID, 65);
	memcpy(p->sandbox, BID, 65);
	memcpy(p->sidecar_image, SIMG, 65);
	memcpy(p->sandbox_image, IMG, 65);
	snprintf(p->stamp, sizeof p->stamp, "2049 1564700 3188 1796134083 "
	    "404640423");
	snprintf(p->store, sizeof p->store, "/home/u/.local/share/containers/"
	    "storage/overlay-images/images.json");
}

static void
test_record(void **state)
{
	static const char *const bad_tail[] = {
	    "", "x\n/s\n", "1 2 3 4\n/s\n", "1 2 3 4 5 6\n/s\n",
	    "1  2 3 4 5\n/s\n", "1 2 3 4 5 \n/s\n", "1 2 3 4 5\nrel\n",
	    "1 2 3 4 5\n\n", "1 2 3 4 5\n/s\nextra\n", "1 2 3 4 5\n/s",
	    "-\n" };
	struct lz_sandbox_prepared p, q;
	struct lz_buf b = LZ_BUF_INIT, t = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	size_t head, i;
	char *bad;

	(void)state;
	prepared_init(&p);
	lz_sandbox_prep_format(&p, &b);
	assert_string_equal(b.buf, "lazaret-prepared 1\n" FP "\n" SID "\n" BID
	    "\n" SIMG "\n" IMG "\n2049 1564700 3188 1796134083 404640423\n"
	    "/home/u/.local/share/containers/storage/overlay-images/"
	    "images.json\n");
	assert_int_equal(lz_sandbox_prep_parse(b.buf, b.len, &q, NULL), 0);
	assert_memory_equal(&p, &q, sizeof p);
	/* Unknown stamp and store: "-". */
	snprintf(p.stamp, sizeof p.stamp, "-");
	snprintf(p.store, sizeof p.store, "-");
	lz_buf_reset(&t);
	lz_sandbox_prep_format(&p, &t);
	assert_int_equal(lz_sandbox_prep_parse(t.buf, t.len, &q, NULL), 0);
	assert_string_equal(q.stamp, "-");
	assert_string_equal(q.store, "-");
	/* Cut short, one byte more, another version, upper case, a NUL. */
	assert_int_equal(lz_sandbox_prep_parse(b.buf, b.len - 1, &q, &e),
	    LZ_EINVAL);
	assert_non_null(strstr(e.msg, "record of prepared containers"));
	assert_string_equal(q.fp, "");
	lz_err_release(&e);
	lz_buf_addch(&b, '\n');
	assert_int_equal(lz_sandbox_prep_parse(b.buf, b.len, &q, NULL),
	    LZ_EINVAL);
	b.len--;
	b.buf[b.len] = '\0';
	bad = lz_xstrdup(b.buf);
	bad[17] = '2';
	assert_int_equal(lz_sandbox_prep_parse(bad, strlen(bad), &q, NULL),
	    LZ_EINVAL);
	free(bad);
	bad = lz_xstrdup(b.buf);
	bad[19] = 'A';
	assert_int_equal(lz_sandbox_prep_parse(bad, strlen(bad), &q, NULL),
	    LZ_EINVAL);
	bad[19] = '\0';
	assert_int_equal(lz_sandbox_prep_parse(bad, b.len, &q, NULL),
	    LZ_EINVAL);
	free(bad);
	bad = lz_xstrdup(b.buf);
	bad[19 + 64] = ' ';
	assert_int_equal(lz_sandbox_prep_parse(bad, strlen(bad), &q, NULL),
	    LZ_EINVAL);
	free(bad);
	/* The stamp and store lines: each malformed tail is refused. */
	head = sizeof "lazaret-prepared 1\n" - 1 + 5 * 65;
	for (i = 0; i < sizeof bad_tail / sizeof bad_tail[0]; i++) {
		lz_buf_reset(&t);
		lz_buf_add(&t, b.buf, head);
		lz_buf_adds(&t, bad_tail[i]);
		if (lz_sandbox_prep_parse(t.buf, t.len, &q, NULL) != LZ_EINVAL)
			fail_msg("tail '%s' accepted", bad_tail[i]);
	}
	lz_buf_release(&t);
	lz_buf_release(&b);
}

/* The stamp follows the file: any rewrite of it changes the stamp. */
static void
test_stamp(void **state)
{
	char path[] = "/tmp/lz-test-stamp.XXXXXX";
	char a[LZ_SANDBOX_PREP_STAMP_MAX], c[LZ_SANDBOX_PREP_STAMP_MAX];
	char tmp[64];
	struct lz_sandbox_prepared p;
	FILE *f;
	int fd;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, "[]", 2), 2);
	close(fd);
	assert_int_equal(lz_sandbox_prep_stamp(path, a), 0);
	assert_int_equal(lz_sandbox_prep_stamp(path, c), 0);
	assert_string_equal(a, c);
	prepared_init(&p);
	snprintf(p.store, sizeof p.store, "%s", path);
	memcpy(p.stamp, a, sizeof a);
	assert_true(lz_sandbox_prep_images_same(&p));
	/* Rewritten as containers/storage does (a new file renamed over). */
	snprintf(tmp, sizeof tmp, "%s.new", path);
	assert_non_null(f = fopen(tmp, "w"));
	fputs("[{}]", f);
	fclose(f);
	assert_int_equal(rename(tmp, path), 0);
	assert_false(lz_sandbox_prep_images_same(&p));
	/* Unknown or unreadable: never "the same". */
	snprintf(p.stamp, sizeof p.stamp, "-");
	assert_false(lz_sandbox_prep_images_same(&p));
	unlink(path);
	assert_int_equal(lz_sandbox_prep_stamp(path, c), -1);
	assert_string_equal(c, "-");
	memcpy(p.stamp, a, sizeof a);
	assert_false(lz_sandbox_prep_images_same(&p));
	assert_int_equal(lz_sandbox_prep_stamp("relative", c), -1);
}

/*
 * podman's inspection of the sidecar and both images, with one part
 * changed: the sidecar's status and process, the image it was made from,
 * its fingerprint label, name and Domain; the images' IDs now.
 */
struct insp {
	const char *status, *simg, *sfp, *sname, *domain, *img_now;
	long pid;
	int images;
};

static char *
inspection(const struct insp *x)
{
	struct lz_buf b = LZ_BUF_INIT;

	lz_buf_addf(&b, "[{\"Id\":\"%s\",\"Name\":\"%s\",\"State\":{\"Status\":"
	    "\"%s\",\"StartedAt\":\"2026-12-01T10:00:00Z\",\"Pid\":%ld},"
	    "\"Image\":\"%s\",\"Config\":{\"Labels\":{\"lazaret.domain\":"
	    "\"%s\",\"lazaret.role\":\"sidecar\",\"lazaret.prepared\":\"%s\","
	    "\"org.lazaret.recipe\":\"x\"}},\"HostConfig\":{\"NetworkMode\":"
	    "\"slirp4netns\"}}", SID, x->sname ? x->sname : "lz-" ID "-net",
	    x->status ? x->status : "created", x->pid, x->simg ? x->simg :
	    SIMG, x->domain ? x->domain : ID, x->sfp ? x->sfp : FP);
	if (x->images > 0)
		lz_buf_addf(&b, ",{\"Id\":\"%s\",\"RepoTags\":[\"b\"]}",
		    x->img_now ? x->img_now : IMG);
	if (x->images > 1)
		lz_buf_adds(&b, ",{\"Id\":\"" SIMG "\",\"RepoTags\":[\"n\"]}");
	lz_buf_adds(&b, "]");
	return lz_buf_detach(&b);
}

/* The check's verdict on x with the PID file holding pid; *msg its text. */
static int
check(const struct insp *x, long pid, char **msg)
{
	struct lz_sandbox_prepared p;
	struct lz_err e = LZ_ERR_INIT;
	char *json = inspection(x);
	int rc;

	prepared_init(&p);
	rc = lz_sandbox_prep_check(json, &p, ID, pid, &e);
	*msg = e.msg ? lz_xstrdup(e.msg) : NULL;
	lz_err_release(&e);
	free(json);
	return rc;
}

/* x is refused with a message containing want. */
static void
refused(const struct insp *x, long pid, const char *want)
{
	char *msg = NULL;

	assert_int_equal(check(x, pid, &msg), LZ_EINVAL);
	assert_non_null(msg);
	if (strstr(msg, want) == NULL)
		fail_msg("'%s' does not say '%s'", msg, want);
	free(msg);
}

static void
accepted(const struct insp *x, long pid)
{
	char *msg = NULL;

	assert_int_equal(check(x, pid, &msg), 0);
	assert_null(msg);
}

static void
test_check(void **state)
{
	struct lz_sandbox_prepared p;
	struct lz_err e = LZ_ERR_INIT;
	struct insp x;

	(void)state;
	memset(&x, 0, sizeof x);
	x.images = 2;
	/* Inspected before this start's podman reached it, or after it
	 * started it: the PID is the one it wrote. Stopped (started by hand
	 * without this start's attachment, it exits): podman starts it
	 * anew. */
	accepted(&x, 0);
	x.status = "running";
	x.pid = 4321;
	accepted(&x, 4321);
	x.status = "exited";
	x.pid = 0;
	accepted(&x, 0);
	/* Running as a process this start's podman did not write: another
	 * start took it. */
	x.status = "running";
	x.pid = 4321;
	refused(&x, 0, "another start");
	refused(&x, 4322, "running as process 4321");
	x.pid = 0;
	refused(&x, 0, "another start");
	x.status = NULL;
	/* An image name that means another image now. */
	x.img_now = SID;
	refused(&x, 0, "sandbox's image changed");
	x.img_now = NULL;
	x.simg = IMG;
	refused(&x, 0, "network sidecar's image changed");
	x.simg = NULL;
	/* Made for other command lines (the record was replaced). */
	x.sfp = SID;
	refused(&x, 0, "other command lines");
	x.sfp = NULL;
	/* Another Domain's, or renamed. */
	x.domain = "fedcba9876543210";
	refused(&x, 0, "labels");
	x.domain = NULL;
	x.sname = "lz-" ID;
	refused(&x, 0, "named");
	x.sname = NULL;
	/* An image podman no longer has: the inspection is short. */
	x.images = 1;
	refused(&x, 0, "not 3 objects");
	x.images = 2;
	accepted(&x, 0);
	prepared_init(&p);
	assert_int_equal(lz_sandbox_prep_check("not json", &p, ID, 0, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	assert_int_equal(lz_sandbox_prep_check("[]", &p, ID, 0, &e),
	    LZ_EINVAL);
	lz_err_release(&e);
	/* Another sidecar answering for the recorded ID. */
	memcpy(p.sidecar, BID, 65);
	{
		char *json = inspection(&x);

		assert_int_equal(lz_sandbox_prep_check(json, &p, ID, 0, &e),
		    LZ_EINVAL);
		assert_non_null(strstr(e.msg, "gone"));
		lz_err_release(&e);
		free(json);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
