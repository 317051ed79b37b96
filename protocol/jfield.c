/*
 * jfield.c: the JSON field checks every wire decoder of protocol/ shares
 * (control frames in msg.c, mailbox records in mailbox.c): one place that
 * reads a key, checks its type, range, length and alphabet, and names the
 * frame or record and the key in its error.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "core/utf8.h"
#include "protocol/jfield.h"
#include "protocol/msg.h"

const char lz_jf_hex_chars[] = "0123456789abcdef";

int
lz_jf_word(const char *s, const char *alphabet, size_t max)
{
	size_t n = strlen(s);

	return n >= 1 && n <= max && strspn(s, alphabet) == n;
}

int
lz_jf_str(json_t *o, const char *what, const char *key, int required,
    size_t max, const char **out, struct lz_err *err)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL) {
		if (!required)
			return 0;
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is "
		    "missing", what, key);
	}
	if (!json_is_string(v))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "a string", what, key);
	if (json_string_length(v) > max)
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is %zu "
		    "bytes, over the limit of %zu", what, key,
		    json_string_length(v), max);
	*out = json_string_value(v);
	return 0;
}

int
lz_jf_int(json_t *o, const char *what, const char *key, int required,
    long long lo, long long hi, long long *out, struct lz_err *err)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL) {
		if (!required)
			return 0;
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is "
		    "missing", what, key);
	}
	if (!json_is_integer(v))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "an integer", what, key);
	if (json_integer_value(v) < lo || json_integer_value(v) > hi)
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is %lld, "
		    "outside %lld..%lld", what, key,
		    (long long)json_integer_value(v), lo, hi);
	*out = json_integer_value(v);
	return 0;
}

int
lz_jf_bool(json_t *o, const char *what, const char *key, int *out,
    struct lz_err *err)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "true or false", what, key);
	*out = json_is_true(v);
	return 0;
}

int
lz_jf_hex(json_t *o, const char *what, const char *key, int required,
    size_t n, char *out, struct lz_err *err)
{
	const char *s;
	int rc;

	out[0] = '\0';
	if ((rc = lz_jf_str(o, what, key, required, n, &s, err)) != 0)
		return rc;
	if (s == NULL)
		return 0;
	if (strlen(s) != n || !lz_jf_word(s, lz_jf_hex_chars, n))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "%zu lower-case hex digits", what, key, n);
	memcpy(out, s, n + 1);
	return 0;
}

int
lz_jf_b64(json_t *o, const char *what, const char *key, size_t min,
    size_t max, struct lz_buf *b, struct lz_err *err)
{
	const char *s;
	char *again = NULL;
	size_t n;
	int k, rc;

	lz_buf_reset(b);
	if ((rc = lz_jf_str(o, what, key, 1, 4 * ((max + 2) / 3), &s,
	    err)) != 0)
		return rc;
	n = strlen(s);
	if (n % 4 != 0)
		goto bad;
	lz_buf_grow(b, n / 4 * 3 + 1);
	if (n > 0) {
		if ((k = EVP_DecodeBlock((unsigned char *)b->buf,
		    (const unsigned char *)s, (int)n)) < 0)
			goto bad;
		/* EVP_DecodeBlock counts the padding as zero bytes. */
		b->len = (size_t)k - (s[n - 1] == '=') - (s[n - 2] == '=');
	}
	b->buf[b->len] = '\0';
	/* One spelling only: no '=' inside, no bits past the data. */
	again = lz_xmalloc(n + 1);
	if ((size_t)EVP_EncodeBlock((unsigned char *)again,
	    (const unsigned char *)b->buf, (int)b->len) != n ||
	    memcmp(again, s, n) != 0)
		goto bad;
	free(again);
	if (b->len < min || b->len > max) {
		lz_buf_reset(b);
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' holds %zu "
		    "bytes, not %zu..%zu", what, key, b->len, min, max);
	}
	return 0;
bad:
	free(again);
	lz_buf_reset(b);
	return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' is not base64 (padded, "
	    "without spaces)", what, key);
}

/*
 * Human text for a frame or record: at most max bytes, cut on a character boundary;
 * bytes that are not UTF-8 (a path in a message) become '?'.
 */
json_t *
lz_jf_text(const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	struct lz_buf b = LZ_BUF_INIT;
	size_t n = strnlen(s, max), i, k;
	json_t *j;

	for (i = 0; i < n; i += k) {
		k = lz_utf8_seq(p + i, n - i);
		if (k == 0 && n - i < 4 && n == max)
			break;		/* a character cut at the limit */
		if (k == 0) {
			lz_buf_addch(&b, '?');
			k = 1;
		} else
			lz_buf_add(&b, p + i, k);
	}
	j = json_stringn(b.buf, b.len);
	lz_buf_release(&b);
	return j;
}

/* s as a JSON string, or an error naming what when it is not UTF-8. */
json_t *
lz_jf_user(const char *s, size_t max, const char *what, struct lz_err *err)
{
	json_t *j;

	if (strlen(s) > max) {
		lz_err_set(err, LZ_EINVAL, "%s is %zu bytes, over the limit of "
		    "%zu", what, strlen(s), max);
		return NULL;
	}
	if ((j = json_string(s)) == NULL)
		lz_err_set(err, LZ_EINVAL, "%s is not valid UTF-8", what);
	return j;
}

/* argv as a JSON array under key, each element checked (user_string). */
int
lz_jf_put_argv(json_t *o, const char *key, const struct lz_tokens *argv,
    struct lz_err *err)
{
	struct lz_buf what = LZ_BUF_INIT;
	json_t *a, *v;
	size_t i;
	int rc = 0;

	if (argv->n > LZ_MSG_ARGV_MAX)
		return lz_err_set(err, LZ_EINVAL, "the command has %zu "
		    "arguments, over the limit of %d", argv->n,
		    LZ_MSG_ARGV_MAX);
	a = json_array();
	json_object_set_new(o, key, a);
	for (i = 0; rc == 0 && i < argv->n; i++) {
		lz_buf_reset(&what);
		lz_buf_addf(&what, "argument %zu of the command", i + 1);
		if ((v = lz_jf_user(argv->v[i], LZ_MSG_ARG_MAX, what.buf,
		    err)) == NULL)
			rc = LZ_EINVAL;
		else
			json_array_append_new(a, v);
	}
	lz_buf_release(&what);
	return rc;
}

/* "NAME=value" strings as a JSON object under key. */
int
lz_jf_put_env(json_t *o, const char *key, const struct lz_tokens *env,
    struct lz_err *err)
{
	struct lz_buf what = LZ_BUF_INIT;
	json_t *e = json_object(), *v;
	const char *eq;
	char *k = NULL;
	size_t i;
	int rc = 0;

	json_object_set_new(o, key, e);
	for (i = 0; rc == 0 && i < env->n && i < LZ_MSG_ENV_MAX; i++) {
		if ((eq = strchr(env->v[i], '=')) == NULL)
			continue;
		free(k);
		k = lz_xstrndup(env->v[i], (size_t)(eq - env->v[i]));
		lz_buf_reset(&what);
		lz_buf_addf(&what, "the value of %s", k);
		if ((v = lz_jf_user(eq + 1, LZ_MSG_ENV_VALUE_MAX, what.buf,
		    err)) == NULL)
			rc = LZ_EINVAL;
		else
			json_object_set_new(e, k, v);
	}
	free(k);
	lz_buf_release(&what);
	return rc;
}

/* A JSON array of strings under key into argv (at most the OPEN limits). */
int
lz_jf_argv(json_t *o, const char *what, const char *key, int required,
    struct lz_tokens *argv, struct lz_err *err)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	if (a == NULL)
		return required ? lz_err_set(err, LZ_EINVAL, "bad %s: "
		    "'%s' is missing", what, key) : 0;
	if (!json_is_array(a))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "an array of strings", what, key);
	if (json_array_size(a) > LZ_MSG_ARGV_MAX)
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' has %zu "
		    "elements, over the limit of %d", what, key,
		    json_array_size(a), LZ_MSG_ARGV_MAX);
	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || json_string_length(v) >
		    LZ_MSG_ARG_MAX)
			return lz_err_set(err, LZ_EINVAL, "bad %s: "
			    "%s[%zu] must be a string of at most %d bytes",
			    what, key, i, LZ_MSG_ARG_MAX);
		lz_tokens_push(argv, json_string_value(v));
	}
	return 0;
}

/* A JSON object of strings under key into "NAME=value" strings. */
int
lz_jf_env(json_t *o, const char *what, const char *key,
    struct lz_tokens *env, struct lz_err *err)
{
	json_t *e = json_object_get(o, key), *v;
	const char *k;

	if (e == NULL)
		return 0;
	if (!json_is_object(e))
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' must be "
		    "an object of strings", what, key);
	if (json_object_size(e) > LZ_MSG_ENV_MAX)
		return lz_err_set(err, LZ_EINVAL, "bad %s: '%s' has %zu "
		    "variables, over the limit of %d", what, key,
		    json_object_size(e), LZ_MSG_ENV_MAX);
	json_object_foreach(e, k, v) {
		if (strlen(k) < 1 || strlen(k) > LZ_MSG_ENV_NAME_MAX ||
		    strchr(k, '=') != NULL)
			return lz_err_set(err, LZ_EINVAL, "bad %s: a "
			    "'%s' name must be 1-%d bytes without '='", what,
			    key, LZ_MSG_ENV_NAME_MAX);
		if (!json_is_string(v) || json_string_length(v) >
		    LZ_MSG_ENV_VALUE_MAX)
			return lz_err_set(err, LZ_EINVAL, "bad %s: "
			    "%s '%s' must be a string of at most %d bytes",
			    what, key, k, LZ_MSG_ENV_VALUE_MAX);
		lz_tokens_pushf(env, "%s=%s", k, json_string_value(v));
	}
	return 0;
}
