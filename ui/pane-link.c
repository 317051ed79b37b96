/*
 * pane-link.c: hyperlinks (OSC 8 ; params ; URI ST): the link a program
 * opens applies to the text it writes until it closes it (an empty URI),
 * as xterm, VTE and tmux 3.4 do. A pane keeps each link's URI and id
 * parameter (struct g_links) and marks its cells with the link's number
 * (LZ_ATTR_LINK); it never follows one. What may reach a host terminal
 * (only http, https, and file inside the workspace) is decided where it
 * is drawn (ui/render.h, lz_render_links).
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ui/pane-int.h"
#include "ui/pane.h"

/* A URI of printable ASCII only: no space, no control, no byte >= 0x7f. */
static int
uri_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] <= 0x20 || s[i] >= 0x7f)
			return 0;
	}
	return 1;
}

/* The id= parameter of s[0..n) (params, ':'-separated), or "" */
static void
param_id(const char *s, size_t n, const char **id, size_t *len)
{
	size_t i = 0, j;

	*id = "";
	*len = 0;
	while (i < n) {
		for (j = i; j < n && s[j] != ':'; j++)
			;
		if (j - i > 3 && memcmp(s + i, "id=", 3) == 0) {
			*id = s + i + 3;
			*len = j - i - 3;
		}
		i = j + 1;
	}
}

/* The number of the link (uri, id), made if new; 0 when the table is full. */
static int
link_number(struct lz_pane *p, const char *uri, size_t ulen, const char *id,
    size_t ilen)
{
	struct g_links *l = &p->links;
	int k;

	for (k = 0; k < l->n; k++) {
		if (strlen(l->url[k]) == ulen && memcmp(l->url[k], uri,
		    ulen) == 0 && strlen(l->id[k]) == ilen &&
		    memcmp(l->id[k], id, ilen) == 0)
			return k + 1;
	}
	if (l->n == G_LINKS) {
		p->props.dropped_links++;
		return 0;
	}
	l->url[l->n] = lz_xstrndup(uri, ulen);
	l->id[l->n] = lz_xstrndup(id, ilen);
	return ++l->n;
}

void
lz_pane_osc_link(struct lz_pane *p, const char *s, size_t n)
{
	const char *semi = memchr(s, ';', n), *id;
	size_t ilen;
	int k = 0;

	if (semi != NULL && uri_ok(semi + 1, n - (size_t)(semi + 1 - s))) {
		param_id(s, (size_t)(semi - s), &id, &ilen);
		k = link_number(p, semi + 1, n - (size_t)(semi + 1 - s), id,
		    ilen);
	} else if (semi == NULL || semi + 1 != s + n)
		p->props.dropped_links++;	/* not a URI we keep */
	p->pen.attr = (uint16_t)((p->pen.attr & ~LZ_ATTR_LINK_MASK) |
	    (unsigned)k << LZ_ATTR_LINK_SHIFT);
}

const char *
lz_pane_link(const struct lz_pane *p, int k)
{
	if (k < 1 || k > p->links.n)
		return NULL;
	return p->links.url[k - 1];
}

void
lz_pane_links_free(struct lz_pane *p)
{
	int k;

	for (k = 0; k < p->links.n; k++) {
		free(p->links.url[k]);
		free(p->links.id[k]);
	}
	p->links.n = 0;
}
