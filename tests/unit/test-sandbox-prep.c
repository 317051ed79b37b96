/*
 * test-sandbox-prep.c: the next start's containers made ahead
 * (core/sandbox-prep.h): what the fingerprint covers and what it leaves
 * out, the record's form, and every check of podman's inspection before
 * a prepared pair is started (removed, started by another, image changed,
 * made for other command lines, another network, another Domain).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.netpolicy_sent = "lazaret-netpolicy 1\ndeny 1.0.0.0/8\n";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.image = "localhost/other:1";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.sidecar_image = "localhost/lazaret/netpolicy:other";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.anchors = "W1siL2V0YyJdXQ==";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.runtime = "/tmp/stage/lazaret-runsc";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	lz_mountplan_add(&f.mp, LZ_MOUNT_BIND, "/home/u/data", "/data", 1,
	    "volume");
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.mp.v[0].readonly = 1;
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);
	refix(&f);
	f.s.mailbox = "/run/user/1/lazaret/" ID "/mailbox/requests";
	fp_of(&f, "/usr/bin/podman", b);
	assert_string_not_equal(a, b);

	/* Only a start with a sidecar is prepared. */
	refix(&f);
	f.s.netpolicy = NULL;
	assert_int_equal(lz_sandbox_plan_make("/usr/bin/podman", &f.s, &p,
	    NULL), LZ_EINVAL);
	lz_mountplan_release(&f.mp);
}

static void
test_record(void **state)
{
	struct lz_sandbox_prepared p, q;
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_err e = LZ_ERR_INIT;
	char *bad;

	(void)state;
	memcpy(p.fp, FP, 65);
	memcpy(p.sidecar, SID, 65);
	memcpy(p.sandbox, BID, 65);
	lz_sandbox_prep_format(&p, &b);
	assert_string_equal(b.buf, "lazaret-prepared 1\n" FP "\n" SID "\n" BID
	    "\n");
	assert_int_equal(lz_sandbox_prep_parse(b.buf, b.len, &q, NULL), 0);
	assert_string_equal(q.fp, FP);
	assert_string_equal(q.sidecar, SID);
	assert_string_equal(q.sandbox, BID);
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
	lz_buf_release(&b);
}

/*
 * podman's inspection of the pair and both images, with one part
 * changed: the sidecar's and the sandbox's status, the image each was made
 * from, their fingerprint labels, the sandbox's network, names, Domain.
 */
struct insp {
	const char *sstatus, *bstatus, *sstarted, *simg, *bimg, *sfp, *bfp;
	const char *bnet, *sname, *domain;
	int images;
};

static char *
inspection(const struct insp *x)
{
	struct lz_buf b = LZ_BUF_INIT;
	const char *ctr = "{\"Id\":\"%s\",\"Name\":\"%s\",\"State\":"
	    "{\"Status\":\"%s\",\"StartedAt\":\"%s\",\"Pid\":0},"
	    "\"Image\":\"%s\",\"Config\":{\"Labels\":{\"lazaret.domain\":"
	    "\"%s\",\"lazaret.role\":\"%s\",\"lazaret.prepared\":\"%s\","
	    "\"org.lazaret.recipe\":\"x\"}},\"HostConfig\":{\"NetworkMode\":"
	    "\"%s\"}}";

	lz_buf_adds(&b, "[");
	lz_buf_addf(&b, ctr, SID, x->sname ? x->sname : "lz-" ID "-net",
	    x->sstatus ? x->sstatus : "created", x->sstarted ? x->sstarted :
	    "0001-01-01T00:00:00Z", x->simg ? x->simg : SIMG, x->domain ?
	    x->domain : ID, "sidecar", x->sfp ? x->sfp : FP, "slirp4netns");
	lz_buf_adds(&b, ",");
	lz_buf_addf(&b, ctr, BID, "lz-" ID, x->bstatus ? x->bstatus :
	    "created", "0001-01-01T00:00:00Z", x->bimg ? x->bimg : IMG, ID,
	    "sandbox", x->bfp ? x->bfp : FP, x->bnet ? x->bnet :
	    "container:" SID);
	if (x->images > 0)
		lz_buf_adds(&b, ",{\"Id\":\"" IMG "\",\"RepoTags\":[\"b\"]}");
	if (x->images > 1)
		lz_buf_adds(&b, ",{\"Id\":\"" SIMG "\",\"RepoTags\":[\"n\"]}");
	lz_buf_adds(&b, "]");
	return lz_buf_detach(&b);
}

/* The check's verdict on x; *msg gets its message (or NULL). */
static int
check(const struct insp *x, char **msg)
{
	struct lz_sandbox_prepared p;
	struct lz_err e = LZ_ERR_INIT;
	char *json = inspection(x);
	int rc;

	memcpy(p.fp, FP, 65);
	memcpy(p.sidecar, SID, 65);
	memcpy(p.sandbox, BID, 65);
	rc = lz_sandbox_prep_check(json, &p, ID, &e);
	*msg = e.msg ? lz_xstrdup(e.msg) : NULL;
	lz_err_release(&e);
	free(json);
	return rc;
}

/* x is refused with a message containing want. */
static void
refused(const struct insp *x, const char *want)
{
	char *msg = NULL;

	assert_int_equal(check(x, &msg), LZ_EINVAL);
	assert_non_null(msg);
	if (strstr(msg, want) == NULL)
		fail_msg("'%s' does not say '%s'", msg, want);
	free(msg);
}

static void
test_check(void **state)
{
	struct insp x;
	char *msg = NULL;

	(void)state;
	memset(&x, 0, sizeof x);
	x.images = 2;
	assert_int_equal(check(&x, &msg), 0);
	assert_null(msg);

	/* Another start took them: running, or ran and stopped. */
	x.sstatus = "running";
	refused(&x, "network sidecar is running");
	x.sstatus = NULL;
	x.bstatus = "exited";
	refused(&x, "sandbox is exited");
	x.bstatus = NULL;
	x.sstarted = "2026-12-01T10:00:00Z";
	refused(&x, "never ran");
	x.sstarted = NULL;
	/* An image name that means another image now. */
	x.bimg = SIMG;
	refused(&x, "sandbox's image changed");
	x.bimg = NULL;
	x.simg = IMG;
	refused(&x, "network sidecar's image changed");
	x.simg = NULL;
	/* Made for other command lines (the record was replaced). */
	x.bfp = SID;
	refused(&x, "other command lines");
	x.bfp = NULL;
	/* The sandbox joins some other container's network. */
	x.bnet = "container:" BID;
	refused(&x, "not the prepared sidecar's network");
	x.bnet = "host";
	refused(&x, "not the prepared sidecar's network");
	x.bnet = NULL;
	/* Another Domain's, or renamed. */
	x.domain = "fedcba9876543210";
	refused(&x, "labels");
	x.domain = NULL;
	x.sname = "lz-" ID;
	refused(&x, "named");
	x.sname = NULL;
	/* An image podman no longer has: the inspection is short. */
	x.images = 1;
	refused(&x, "not 4 objects");
	x.images = 2;
	assert_int_equal(check(&x, &msg), 0);
	free(msg);
	{
		struct lz_sandbox_prepared p;
		struct lz_err e = LZ_ERR_INIT;

		memcpy(p.fp, FP, 65);
		memcpy(p.sidecar, SID, 65);
		memcpy(p.sandbox, BID, 65);
		assert_int_equal(lz_sandbox_prep_check("not json", &p, ID,
		    &e), LZ_EINVAL);
		lz_err_release(&e);
		assert_int_equal(lz_sandbox_prep_check("[]", &p, ID, &e),
		    LZ_EINVAL);
		lz_err_release(&e);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
