/*
 * doctor-cas.c: the "image-cas" check of "lazaret doctor": which of the
 * host's local CAs (core/hostcas.h) the default image carries, from its
 * label org.lazaret.local-cas (scripts/setup-image.sh), named by file and
 * subject. It fails, with set-up as the fix (which rebuilds the image),
 * when the host trusts a local CA the image lacks (HTTPS inside would fail
 * where it works on the host) or the image still carries one the host has
 * dropped.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/hostcas.h"
#include "core/util.h"
#include "src/doctor.h"

static char	*image_label(struct lz_doctor_ctx *ctx,
		     struct lz_doctor_result *res, int *labelled);
static size_t	 dropped(const char *label, const struct lz_hostcas *cas,
		     struct lz_buf *out);

/*
 * The image's label (NULL and *labelled 0 when it has none: an image of
 * an older set-up); on a failure fills res and returns NULL with
 * *labelled -1.
 */
static char *
image_label(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res,
    int *labelled)
{
	const char *args[] = { "image", "inspect", "--format",
	    "{{json .Labels}}", LZ_DOCTOR_IMAGE, NULL };
	struct lz_spawn_result r;
	json_error_t jerr;
	json_t *j, *v;
	char *label = NULL, *line;

	*labelled = -1;
	lz_spawn_result_init(&r);
	if (lz_doctor_podman_run(ctx, res, args, NULL, &r) != 0)
		goto out;
	if (r.status != 0) {
		line = lz_doctor_last_line(r.err.buf);
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman image "
		    "inspect %s' failed (exit %d): %s", LZ_DOCTOR_IMAGE,
		    r.status, line);
		free(line);
		goto out;
	}
	j = json_loads(r.out.buf, JSON_DECODE_ANY, &jerr);
	if (j == NULL || !(json_is_object(j) || json_is_null(j))) {
		lz_doctor_fail(res, lz_xstrdup(ctx->setup), "'podman image "
		    "inspect %s' printed no labels: %s", LZ_DOCTOR_IMAGE,
		    j == NULL ? jerr.text : "not an object");
		json_decref(j);
		goto out;
	}
	v = json_object_get(j, LZ_HOSTCAS_LABEL);
	*labelled = json_is_string(v);
	if (*labelled)
		label = lz_xstrdup(json_string_value(v));
	json_decref(j);
out:
	lz_spawn_result_release(&r);
	return label;
}

/* Adds to out the label's entries no host CA has; returns how many. */
static size_t
dropped(const char *label, const struct lz_hostcas *cas, struct lz_buf *out)
{
	const char *p = label, *end;
	size_t i, n = 0;
	char *one;

	while (p != NULL && *p != '\0') {
		end = strchr(p, ',');
		one = end ? lz_xstrndup(p, (size_t)(end - p)) : lz_xstrdup(p);
		for (i = 0; i < cas->n; i++) {
			if (strcmp(cas->v[i].sha256, one) == 0)
				break;
		}
		if (i == cas->n && *one != '\0') {
			lz_buf_addf(out, "%ssha256 %.16s...", n ? ", " : "",
			    one);
			n++;
		}
		free(one);
		p = end ? end + 1 : NULL;
	}
	return n;
}

void
lz_doctor_image_cas(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res)
{
	struct lz_buf carried = LZ_BUF_INIT, missing = LZ_BUF_INIT;
	struct lz_buf gone = LZ_BUF_INIT;
	struct lz_hostcas cas;
	struct lz_err err = LZ_ERR_INIT;
	size_t i, ncarried = 0, nmissing = 0, ngone;
	char *label;
	int labelled;

	memset(&cas, 0, sizeof cas);
	label = image_label(ctx, res, &labelled);
	if (labelled < 0)
		return;
	if (lz_hostcas_read(LZ_HOSTCAS_DIR, &cas, &err) != 0) {
		lz_doctor_fail(res, lz_xasprintf("make %s readable to you",
		    LZ_HOSTCAS_DIR), "the host's local CAs: %s", err.msg);
		goto out;
	}
	for (i = 0; i < cas.n; i++) {
		if (lz_hostcas_label_has(label, cas.v[i].sha256))
			lz_buf_addf(&carried, "%s%s (%s)", ncarried++ ? ", " :
			    "", cas.v[i].name, cas.v[i].subject);
		else
			lz_buf_addf(&missing, "%s%s (%s)", nmissing++ ? ", " :
			    "", cas.v[i].name, cas.v[i].subject);
	}
	ngone = dropped(label, &cas, &gone);
	if (nmissing == 0 && ngone == 0) {
		if (ncarried == 0)
			lz_doctor_pass(res, "no local CA in %s, none in the "
			    "image", LZ_HOSTCAS_DIR);
		else
			lz_doctor_pass(res, "the image carries the host's %zu "
			    "local CA%s: %s", ncarried, ncarried == 1 ? "" :
			    "s", carried.buf);
		goto out;
	}
	lz_doctor_fail(res, lz_xasprintf("%s; it rebuilds the image with the "
	    "host's CAs (then restart running Domains)", ctx->setup),
	    "%s%s%s%s%s%s; the image carries %s%s",
	    nmissing ? "the host trusts, the image lacks: " : "",
	    nmissing ? missing.buf : "", nmissing && ngone ? "; " : "",
	    ngone ? "the image carries what the host no longer has: " : "",
	    ngone ? gone.buf : "",
	    labelled ? "" : " (the image has no " LZ_HOSTCAS_LABEL " label: "
	    "an older set-up built it)",
	    ncarried ? "" : "no local CA of the host",
	    ncarried ? carried.buf : "");
out:
	free(label);
	lz_hostcas_release(&cas);
	lz_err_release(&err);
	lz_buf_release(&carried);
	lz_buf_release(&missing);
	lz_buf_release(&gone);
}
