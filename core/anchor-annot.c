/*
 * anchor-annot.c: the "lazaret.anchors" annotation and the runtime shim's
 * anchor mounts (see anchor-annot.h).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "core/anchor-annot.h"
#include "core/anchor-mount.h"
#include "core/bundle.h"
#include "core/ws-view.h"

#define CONFIG_MAX (16 * 1024 * 1024)	/* config.json larger: refused */

static int	 mount_one(const char *root, char *const *f,
		     struct lz_err *err);
static int	 mount_view(const char *value, struct lz_err *err);

char *
lz_annot_encode(json_t *j)
{
	unsigned char *out;
	char *text;
	size_t len;

	text = json_dumps(j, JSON_COMPACT);
	if (text == NULL)
		LZ_BUG("cannot encode an annotation");
	len = strlen(text);
	out = lz_xmalloc(4 * ((len + 2) / 3) + 1);
	EVP_EncodeBlock(out, (const unsigned char *)text, (int)len);
	free(text);
	return (char *)out;
}

json_t *
lz_annot_decode(const char *value, const char *name, struct lz_err *err)
{
	json_error_t je;
	json_t *j;
	unsigned char *raw;
	size_t len = strlen(value), i;
	int n;

	if (len == 0 || len % 4 != 0 || len > CONFIG_MAX ||
	    strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/=") != len) {
		lz_err_set(err, LZ_EINVAL, "annotation '%s' is not base64",
		    name);
		return NULL;
	}
	raw = lz_xmalloc(len / 4 * 3 + 1);
	n = EVP_DecodeBlock(raw, (const unsigned char *)value, (int)len);
	if (n < 0) {
		free(raw);
		lz_err_set(err, LZ_EINVAL, "annotation '%s' is not base64",
		    name);
		return NULL;
	}
	/* EVP_DecodeBlock counts the padding as zero bytes. */
	for (i = len; i > 0 && value[i - 1] == '=' && n > 0; i--)
		n--;
	j = json_loadb((const char *)raw, (size_t)n, JSON_REJECT_DUPLICATES,
	    &je);
	free(raw);
	if (j == NULL)
		lz_err_set(err, LZ_EINVAL, "annotation '%s' is not JSON: %s",
		    name, je.text);
	return j;
}

char *
lz_anchor_annot_encode(const struct lz_tokens *fields)
{
	json_t *all = json_array(), *one = NULL;
	char *out;
	size_t i;

	for (i = 0; i < fields->n; i++) {
		if (i % LZ_ANCHOR_FIELDS == 0) {
			one = json_array();
			json_array_append_new(all, one);
		}
		json_array_append_new(one, json_string(fields->v[i]));
	}
	out = lz_annot_encode(all);
	json_decref(all);
	return out;
}

int
lz_anchor_annot_decode(const char *value, struct lz_tokens *fields,
    struct lz_err *err)
{
	json_t *all, *one, *f;
	size_t i, j;
	int rc = 0;

	if ((all = lz_annot_decode(value, LZ_ANCHOR_ANNOTATION, err)) == NULL)
		return LZ_EINVAL;
	if (!json_is_array(all) || json_array_size(all) > LZ_ANCHOR_MAX) {
		rc = lz_err_set(err, LZ_EINVAL, "annotation '"
		    LZ_ANCHOR_ANNOTATION "' is not an array of at most %d "
		    "anchors", LZ_ANCHOR_MAX);
		goto out;
	}
	json_array_foreach(all, i, one) {
		if (!json_is_array(one) ||
		    json_array_size(one) != LZ_ANCHOR_FIELDS) {
			rc = lz_err_set(err, LZ_EINVAL, "annotation '"
			    LZ_ANCHOR_ANNOTATION "': anchor %zu does not have "
			    "%d fields", i, LZ_ANCHOR_FIELDS);
			goto out;
		}
		json_array_foreach(one, j, f) {
			/* jansson refuses "\u0000" (no JSON_ALLOW_NUL). */
			if (!json_is_string(f) ||
			    json_string_value(f)[0] != '/') {
				rc = lz_err_set(err, LZ_EINVAL, "annotation '"
				    LZ_ANCHOR_ANNOTATION "': field %zu of "
				    "anchor %zu is not an absolute path", j, i);
				goto out;
			}
			lz_tokens_push(fields, json_string_value(f));
		}
	}
out:
	if (rc != 0)
		lz_tokens_release(fields);
	json_decref(all);
	return rc;
}

/*
 * One anchor, f[0..4] = PATH UPPER WORK MERGED LOWER_EMPTY, over the
 * container root root: whatever overlay of ours is at MERGED goes first
 * (its lower layer was an earlier container's root).
 */
static int
mount_one(const char *root, char *const *f, struct lz_err *err)
{
	struct lz_anchor_layers l;
	char *lower = NULL;
	int rc, result;

	if ((rc = lz_anchor_umount(f[3], &result, err)) != 0)
		return rc;
	if ((rc = lz_anchor_lower(root, f[0], f[4], &lower, err)) != 0)
		return rc;
	l.lower = lower;
	l.upper = f[1];
	l.work = f[2];
	l.merged = f[3];
	rc = lz_anchor_mount(&l, &result, err);
	free(lower);
	return rc;
}

/* The workspace view of the "lazaret.view" annotation (ws-view.h). */
static int
mount_view(const char *value, struct lz_err *err)
{
	struct lz_tokens rels = LZ_TOKENS_INIT;
	struct lz_view v;
	size_t n;
	int rc;

	if ((rc = lz_view_annot_decode(value, &v, err)) != 0)
		return rc;
	if ((rc = lz_view_list_read(&v, &rels, err)) == 0)
		rc = lz_view_mount(&v, &rels, &n, err);
	lz_tokens_release(&rels);
	lz_view_release(&v);
	return rc;
}

int
lz_anchor_annot_mount(const char *bundle, size_t *n, struct lz_err *err)
{
	struct lz_tokens fields = LZ_TOKENS_INIT;
	json_t *cfg;
	const char *root, *value;
	char *path;
	size_t i;
	int rc = 0;

	*n = 0;
	if ((cfg = lz_bundle_load(bundle, &path, err)) == NULL) {
		rc = LZ_ESYS;
		goto out;
	}
	value = lz_bundle_annotation(cfg, LZ_ANCHOR_ANNOTATION);
	if (value == NULL)
		goto view;
	root = json_string_value(json_object_get(json_object_get(cfg, "root"),
	    "path"));
	if (root == NULL || root[0] != '/') {
		rc = lz_err_set(err, LZ_EINVAL, "'%s' has no absolute "
		    "root.path to find the State Anchors' lower layers in",
		    path);
		goto out;
	}
	if ((rc = lz_anchor_annot_decode(value, &fields, err)) != 0)
		goto out;
	for (i = 0; i + LZ_ANCHOR_FIELDS <= fields.n; i += LZ_ANCHOR_FIELDS) {
		if ((rc = mount_one(root, fields.v + i, err)) != 0)
			goto out;
		(*n)++;
	}
view:
	value = lz_bundle_annotation(cfg, LZ_VIEW_ANNOTATION);
	if (value != NULL)
		rc = mount_view(value, err);
out:
	lz_tokens_release(&fields);
	json_decref(cfg);
	free(path);
	return rc;
}
