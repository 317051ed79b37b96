/*
 * sandbox-prep.c: the command lines of the next start's containers, the
 * record of a created pair and the checks before it is used
 * (sandbox-prep.h). Pure: core/sandbox.c runs podman.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/hmac.h"
#include "core/sandbox-prep.h"

#define RECORD_HEAD "lazaret-prepared 1\n"
#define NEVER_STARTED "0001-01-01T00:00:00Z"

static void	 hash_add(struct lz_buf *b, const struct lz_tokens *t);
static int	 build(const char *podman, const struct lz_sandbox_spec *s,
		     const char *label, struct lz_tokens *side,
		     struct lz_tokens *box, struct lz_err *err);
static const char *str(json_t *o, const char *path);
static int	 check_ctr(json_t *o, const char *what, const char *id,
		     const char *name, const char *role, const char *domain_id,
		     const char *fp, const char *image_id, struct lz_err *err);

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
	rc = lz_sandbox_argv_sidecar(podman, s->domain_id, s->sidecar_image,
	    s->netpolicy_sent != NULL ? s->netpolicy_sent : s->netpolicy,
	    s->sidecar_log, s->sidecar_pidfile, s->attach, label, side, err);
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
	lz_buf_addf(out, RECORD_HEAD "%s\n%s\n%s\n", p->fp, p->sidecar,
	    p->sandbox);
}

int
lz_sandbox_prep_parse(const char *text, size_t len,
    struct lz_sandbox_prepared *p, struct lz_err *err)
{
	const size_t head = sizeof RECORD_HEAD - 1;
	char *f[3] = { p->fp, p->sidecar, p->sandbox };
	const char *q = text + head;
	int i;

	memset(p, 0, sizeof *p);
	if (len != head + 3 * 65 || memchr(text, '\0', len) != NULL ||
	    memcmp(text, RECORD_HEAD, head) != 0)
		goto bad;
	for (i = 0; i < 3; i++, q += 65) {
		if (strspn(q, "0123456789abcdef") != 64 || q[64] != '\n')
			goto bad;
		memcpy(f[i], q, 64);
		f[i][64] = '\0';
	}
	return 0;
bad:
	memset(p, 0, sizeof *p);
	return lz_err_set(err, LZ_EINVAL, "the record of prepared containers "
	    "is not in the form \"" "lazaret-prepared 1\" then three lines "
	    "of 64 hex digits (%zu bytes)", len);
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

/* One container of the pair against what was recorded. */
static int
check_ctr(json_t *o, const char *what, const char *id, const char *name,
    const char *role, const char *domain_id, const char *fp,
    const char *image_id, struct lz_err *err)
{
	const char *v;

	if ((v = str(o, "Id")) == NULL || strcmp(v, id) != 0)
		return lz_err_set(err, LZ_EINVAL, "the prepared %s %.12s is "
		    "gone (podman answered for %.12s)", what, id, v ? v :
		    "nothing");
	if ((v = str(o, "Name")) == NULL || strcmp(v, name) != 0)
		return lz_err_set(err, LZ_EINVAL, "the prepared %s is named "
		    "'%s', not '%s'", what, v ? v : "", name);
	if ((v = str(o, "Config/Labels/" LZ_SANDBOX_LABEL_DOMAIN)) == NULL ||
	    strcmp(v, domain_id) != 0 || (v = str(o, "Config/Labels/"
	    LZ_SANDBOX_LABEL_ROLE)) == NULL || strcmp(v, role) != 0)
		return lz_err_set(err, LZ_EINVAL, "the prepared %s does not "
		    "carry Domain %s's labels", what, domain_id);
	if ((v = str(o, "Config/Labels/" LZ_SANDBOX_LABEL_PREPARED)) == NULL ||
	    strcmp(v, fp) != 0)
		return lz_err_set(err, LZ_EINVAL, "the prepared %s was made "
		    "for other command lines (label %.16s..., record %.16s...)",
		    what, v ? v : "none", fp);
	if ((v = str(o, "State/Status")) == NULL || strcmp(v, "created") != 0 ||
	    (v = str(o, "State/StartedAt")) == NULL ||
	    strcmp(v, NEVER_STARTED) != 0)
		return lz_err_set(err, LZ_EINVAL, "the prepared %s is %s, not "
		    "a container that never ran (another start took it?)",
		    what, str(o, "State/Status") ? str(o, "State/Status") :
		    "in no known state");
	if ((v = str(o, "Image")) == NULL || strcmp(v, image_id) != 0)
		return lz_err_set(err, LZ_EINVAL, "the %s's image changed since "
		    "it was prepared: it was made from %.12s, its image name "
		    "now means %.12s", what, v ? v : "?", image_id);
	return 0;
}

int
lz_sandbox_prep_check(const char *json, const struct lz_sandbox_prepared *p,
    const char *domain_id, struct lz_err *err)
{
	char *side = lz_sandbox_sidecar_name(domain_id);
	char *box = lz_sandbox_name(domain_id);
	char *net = lz_xasprintf("container:%s", p->sidecar);
	const char *img[2], *v;
	json_error_t je;
	json_t *a;
	int rc = LZ_EINVAL, i;

	if ((a = json_loads(json, 0, &je)) == NULL || !json_is_array(a) ||
	    json_array_size(a) != 4) {
		lz_err_set(err, LZ_EINVAL, "podman's inspection of the prepared "
		    "containers and their images is not 4 objects%s%s",
		    a == NULL ? ": " : "", a == NULL ? je.text : "");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		img[i] = str(json_array_get(a, 2 + (size_t)i), "Id");
		if (img[i] == NULL || json_object_get(json_array_get(a,
		    2 + (size_t)i), "State") != NULL) {
			lz_err_set(err, LZ_EINVAL, "podman's inspection names "
			    "no %s image", i == 0 ? "sandbox" : "sidecar");
			goto out;
		}
	}
	if (check_ctr(json_array_get(a, 0), "network sidecar", p->sidecar, side,
	    LZ_SANDBOX_ROLE_SIDECAR, domain_id, p->fp, img[1], err) != 0 ||
	    check_ctr(json_array_get(a, 1), "sandbox", p->sandbox, box,
	    LZ_SANDBOX_ROLE_SANDBOX, domain_id, p->fp, img[0], err) != 0)
		goto out;
	if ((v = str(json_array_get(a, 1), "HostConfig/NetworkMode")) == NULL ||
	    strcmp(v, net) != 0) {
		lz_err_set(err, LZ_EINVAL, "the prepared sandbox joins '%.80s', "
		    "not the prepared sidecar's network", v ? v : "nothing");
		goto out;
	}
	rc = 0;
out:
	json_decref(a);
	free(side);
	free(box);
	free(net);
	return rc;
}
