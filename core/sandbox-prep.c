/*
 * sandbox-prep.c: the command lines of the next start's containers, the
 * record of a created pair and the checks before it is used
 * (sandbox-prep.h). Pure: core/sandbox.c runs podman.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/hmac.h"
#include "core/sandbox-prep.h"

#define RECORD_HEAD "lazaret-prepared 1\n"

static void	 hash_add(struct lz_buf *b, const struct lz_tokens *t);
static int	 build(const char *podman, const struct lz_sandbox_spec *s,
		     const char *label, struct lz_tokens *side,
		     struct lz_tokens *box, struct lz_err *err);
static int	 stamp_ok(const char *s, size_t n);
static const char *str(json_t *o, const char *path);
static int	 check_sidecar(json_t *o, const struct lz_sandbox_prepared *p,
		     const char *domain_id, const char *image_id, long pid,
		     struct lz_err *err);

/* Every token but podman's path, NUL-terminated, into b. */
static void
hash_add(struct lz_buf *b, const struct lz_tokens *t)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		lz_buf_add(b, t->v[i], strlen(t->v[i]) + 1);
	lz_buf_addch(b, '\n');
}

/* Both "podman create" command lines, labelled label ("" for none). */
static int
build(const char *podman, const struct lz_sandbox_spec *s, const char *label,
    struct lz_tokens *side, struct lz_tokens *box, struct lz_err *err)
{
	struct lz_sandbox_spec net = *s;
	int rc;

	net.prepared = label;
	net.use = NULL;
	net.network = "container:" LZ_SANDBOX_PREP_PEER;
	rc = lz_sandbox_argv_sidecar(podman, s, label, side, err);
	if (rc == 0)
		rc = lz_sandbox_argv_run(podman, &net, box, err);
	if (rc != 0) {
		lz_tokens_release(side);
		lz_tokens_release(box);
	}
	return rc;
}

int
lz_sandbox_plan_make(const char *podman, const struct lz_sandbox_spec *s,
    struct lz_sandbox_plan *p, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	int rc;

	if (s->netpolicy == NULL)
		return lz_err_set(err, LZ_EINVAL, "only a start with a network "
		    "sidecar is prepared ahead");
	if ((rc = build(podman, s, "", &p->sidecar, &p->sandbox, err)) != 0)
		return rc;
	lz_buf_adds(&b, "lazaret-prepared-v1");
	lz_buf_addch(&b, '\0');
	hash_add(&b, &p->sidecar);
	hash_add(&b, &p->sandbox);
	lz_sha256_hex(b.buf, b.len, p->fp);
	lz_buf_release(&b);
	lz_tokens_release(&p->sidecar);
	lz_tokens_release(&p->sandbox);
	if ((rc = build(podman, s, p->fp, &p->sidecar, &p->sandbox, err)) != 0)
		p->fp[0] = '\0';
	return rc;
}

void
lz_sandbox_plan_release(struct lz_sandbox_plan *p)
{
	lz_tokens_release(&p->sidecar);
	lz_tokens_release(&p->sandbox);
	p->fp[0] = '\0';
}

void
lz_sandbox_prep_format(const struct lz_sandbox_prepared *p, struct lz_buf *out)
{
	lz_buf_addf(out, RECORD_HEAD "%s\n%s\n%s\n%s\n%s\n%s\n%s\n", p->fp,
	    p->sidecar, p->sandbox, p->sidecar_image, p->sandbox_image,
	    p->stamp[0] ? p->stamp : "-", p->store[0] ? p->store : "-");
}

int
lz_sandbox_prep_stamp(const char *path, char out[LZ_SANDBOX_PREP_STAMP_MAX])
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) != 0) {
		snprintf(out, LZ_SANDBOX_PREP_STAMP_MAX, "-");
		return -1;
	}
	snprintf(out, LZ_SANDBOX_PREP_STAMP_MAX, "%llu %llu %lld %lld %ld",
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    (long)st.st_mtim.tv_nsec);
	return 0;
}

int
lz_sandbox_prep_images_same(const struct lz_sandbox_prepared *p)
{
	char now[LZ_SANDBOX_PREP_STAMP_MAX];

	return strcmp(p->stamp, "-") != 0 && p->stamp[0] != '\0' &&
	    lz_sandbox_prep_stamp(p->store, now) == 0 &&
	    strcmp(now, p->stamp) == 0;
}

/* 1 when the n bytes at s are a stamp's digits and spaces (or "-"). */
static int
stamp_ok(const char *s, size_t n)
{
	size_t i, fields = 1;

	if (n == 1 && s[0] == '-')
		return 1;
	for (i = 0; i < n; i++) {
		if (s[i] == ' ' && i > 0 && s[i - 1] != ' ')
			fields++;
		else if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return n > 0 && s[n - 1] != ' ' && fields == 5;
}

int
lz_sandbox_prep_parse(const char *text, size_t len,
    struct lz_sandbox_prepared *p, struct lz_err *err)
{
	const size_t head = sizeof RECORD_HEAD - 1;
	char *f[] = { p->fp, p->sidecar, p->sandbox, p->sidecar_image,
	    p->sandbox_image };
	const size_t nf = sizeof f / sizeof f[0];
	const char *q = text + head;
	size_t i;

	const char *end = text + len, *nl;
	size_t n;

	memset(p, 0, sizeof *p);
	if (len < head + nf * 65 || memchr(text, '\0', len) != NULL ||
	    memcmp(text, RECORD_HEAD, head) != 0)
		goto bad;
	for (i = 0; i < nf; i++, q += 65) {
		if (strspn(q, "0123456789abcdef") != 64 || q[64] != '\n')
			goto bad;
		memcpy(f[i], q, 64);
		f[i][64] = '\0';
	}
	/* The image store's stamp, then its file (or "-" for either). */
	if ((nl = memchr(q, '\n', (size_t)(end - q))) == NULL ||
	    (n = (size_t)(nl - q)) >= sizeof p->stamp || !stamp_ok(q, n))
		goto bad;
	memcpy(p->stamp, q, n);
	q = nl + 1;
	if ((nl = memchr(q, '\n', (size_t)(end - q))) == NULL ||
	    nl + 1 != end || (n = (size_t)(nl - q)) >= sizeof p->store ||
	    n == 0 || (q[0] != '/' && !(n == 1 && q[0] == '-')))
		goto bad;
	memcpy(p->store, q, n);
	return 0;
bad:
	memset(p, 0, sizeof *p);
	return lz_err_set(err, LZ_EINVAL, "the record of prepared containers "
	    "is not in the form \"lazaret-prepared 1\" then %zu lines of 64 "
	    "hex digits, the image store's stamp and file (%zu bytes)", nf,
	    len);
}

/* The string at a "/"-separated path of object keys, or NULL. */
static const char *
str(json_t *o, const char *path)
{
	char key[64];
	const char *p = path, *slash;
	size_t n;

	for (;;) {
		slash = strchr(p, '/');
		n = slash != NULL ? (size_t)(slash - p) : strlen(p);
		if (n >= sizeof key)
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		if (slash == NULL)
			return json_is_string(o) ? json_string_value(o) : NULL;
		p = slash + 1;
	}
}

/* The prepared sidecar against the record, and whose its process is. */
static int
check_sidecar(json_t *o, const struct lz_sandbox_prepared *p,
    const char *domain_id, const char *image_id, long pid, struct lz_err *err)
{
	char *name = lz_sandbox_sidecar_name(domain_id);
	const char *v, *st;
	json_int_t running;
	int rc = LZ_EINVAL;

	if ((v = str(o, "Id")) == NULL || strcmp(v, p->sidecar) != 0)
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar %.12s "
		    "is gone (podman answered for %.12s)", p->sidecar, v ? v :
		    "nothing");
	else if ((v = str(o, "Name")) == NULL || strcmp(v, name) != 0)
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar is "
		    "named '%s', not '%s'", v ? v : "", name);
	else if ((v = str(o, "Config/Labels/" LZ_SANDBOX_LABEL_DOMAIN)) ==
	    NULL || strcmp(v, domain_id) != 0 || (v = str(o, "Config/Labels/"
	    LZ_SANDBOX_LABEL_ROLE)) == NULL || strcmp(v,
	    LZ_SANDBOX_ROLE_SIDECAR) != 0)
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar does "
		    "not carry Domain %s's labels", domain_id);
	else if ((v = str(o, "Config/Labels/" LZ_SANDBOX_LABEL_PREPARED)) ==
	    NULL || strcmp(v, p->fp) != 0)
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar was made "
		    "for other command lines (label %.16s..., record %.16s...)",
		    v ? v : "none", p->fp);
	else if ((v = str(o, "Image")) == NULL || strcmp(v, image_id) != 0)
		lz_err_set(err, LZ_EINVAL, "the network sidecar's image changed "
		    "since it was prepared: it was made from %.12s, its image "
		    "name now means %.12s", v ? v : "?", image_id);
	else if ((st = str(o, "State/Status")) == NULL)
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar is in "
		    "no known state");
	else if (strcmp(st, "running") == 0 && ((running =
	    json_integer_value(json_object_get(json_object_get(o, "State"),
	    "Pid"))) <= 0 || running != pid))
		/* This start emptied the PID file before its podman start. */
		lz_err_set(err, LZ_EINVAL, "the prepared network sidecar is "
		    "running as process %lld, which this start did not start "
		    "(another start took it?)", (long long)running);
	else
		rc = 0;
	free(name);
	return rc;
}

int
lz_sandbox_prep_check(const char *json, const struct lz_sandbox_prepared *p,
    const char *domain_id, long pid, struct lz_err *err)
{
	const char *img[2];
	json_error_t je;
	json_t *a;
	int rc = LZ_EINVAL, i;

	if ((a = json_loads(json, 0, &je)) == NULL || !json_is_array(a) ||
	    json_array_size(a) != 3) {
		lz_err_set(err, LZ_EINVAL, "podman's inspection of the prepared "
		    "sidecar and of both images is not 3 objects%s%s",
		    a == NULL ? ": " : "", a == NULL ? je.text : "");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		img[i] = str(json_array_get(a, 1 + (size_t)i), "Id");
		if (img[i] == NULL || json_object_get(json_array_get(a,
		    1 + (size_t)i), "State") != NULL) {
			lz_err_set(err, LZ_EINVAL, "podman's inspection names "
			    "no %s image", i == 0 ? "sandbox" : "sidecar");
			goto out;
		}
	}
	if (strcmp(p->sandbox_image, img[0]) != 0) {
		lz_err_set(err, LZ_EINVAL, "the sandbox's image changed since it "
		    "was prepared: it was made from %.12s, its image name now "
		    "means %.12s", p->sandbox_image, img[0]);
		goto out;
	}
	if (check_sidecar(json_array_get(a, 0), p, domain_id, img[1], pid,
	    err) != 0)
		goto out;
	rc = 0;
out:
	json_decref(a);
	return rc;
}
