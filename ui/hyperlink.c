/*
 * hyperlink.c: the host's view of a pane's hyperlink (see hyperlink.h).
 */
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "ui/hyperlink.h"

/* Percent-decodes s into out: -1 on a bad escape, NUL or control byte. */
static int
decode(const char *s, struct lz_buf *out)
{
	int hi, lo, c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '%') {
			if ((hi = lz_hex_digit(s[1])) < 0 ||
			    (lo = lz_hex_digit(s[2])) < 0)
				return -1;
			c = hi << 4 | lo;
			s += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return -1;
		lz_buf_addch(out, (char)c);
	}
	return 0;
}

/* Whether the absolute path has a "." or ".." segment, or "//". */
static int
unclean(const char *path)
{
	const char *seg = path + 1, *end;
	size_t n;

	for (;;) {
		end = strchr(seg, '/');
		n = end != NULL ? (size_t)(end - seg) : strlen(seg);
		if ((n == 0 && end != NULL) || (n == 1 && seg[0] == '.') ||
		    (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return 1;
		if (end == NULL)
			return 0;
		seg = end + 1;
	}
}

/* Appends path percent-encoded (all but unreserved characters and '/'). */
static void
encode(const char *path, struct lz_buf *out)
{
	static const char keep[] = "-._~/";
	unsigned char c;

	for (; *path != '\0'; path++) {
		c = (unsigned char)*path;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr(keep, c) != NULL)
			lz_buf_addch(out, (char)c);
		else
			lz_buf_addf(out, "%%%02X", c);
	}
}

static int
file_uri(const char *rest, const struct lz_hyperlink_map *m,
    struct lz_buf *out)
{
	struct lz_buf path = LZ_BUF_INIT;
	const char *p;
	size_t sl = strlen(m->sandbox);
	int ok = 0;

	/* file://AUTHORITY/PATH: whatever names the authority, the path. */
	if (strncmp(rest, "//", 2) != 0 || (p = strchr(rest + 2, '/')) == NULL)
		return 0;
	if (decode(p, &path) == 0 && path.len > 0 && !unclean(path.buf) &&
	    strncmp(path.buf, m->sandbox, sl) == 0 &&
	    (path.buf[sl] == '\0' || path.buf[sl] == '/')) {
		lz_buf_addf(out, "file://%s", m->hostname);
		encode(m->host, out);
		encode(path.buf + sl, out);
		ok = 1;
	}
	lz_buf_release(&path);
	return ok;
}

int
lz_hyperlink_host(const char *uri, const struct lz_hyperlink_map *m,
    struct lz_buf *out)
{
	size_t keep = out->len;

	if (strncasecmp(uri, "http://", 7) == 0 ||
	    strncasecmp(uri, "https://", 8) == 0) {
		lz_buf_adds(out, uri);
		return 1;
	}
	if (strncasecmp(uri, "file:", 5) == 0 && file_uri(uri + 5, m, out))
		return 1;
	out->len = keep;
	if (out->buf != NULL)
		out->buf[keep] = '\0';
	return 0;
}
