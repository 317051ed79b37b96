/*
 * dpkg.c: parsing dpkg's status file and comparing two (dpkg.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/dpkg.h"

static int	 pkg_cmp(const void *a, const void *b);
static void	 add(struct lz_dpkg *d, const struct lz_dpkg_pkg *p,
		     const char *old);
static char	*field(const char *line, size_t len, const char *name);

static int
pkg_cmp(const void *a, const void *b)
{
	const struct lz_dpkg_pkg *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->arch, y->arch);
}

static void
add(struct lz_dpkg *d, const struct lz_dpkg_pkg *p, const char *old)
{
	struct lz_dpkg_pkg *n;

	d->v = lz_xgrow(d->v, d->n + 1, &d->alloc, sizeof *d->v);
	n = &d->v[d->n++];
	n->name = lz_xstrdup(p->name);
	n->arch = lz_xstrdup(p->arch);
	n->version = lz_xstrdup(p->version);
	n->old = old != NULL ? lz_xstrdup(old) : NULL;
}

/* The value of "Name: value" when line (len bytes) is that field. */
static char *
field(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncmp(line, name, n) != 0 || line[n] != ':')
		return NULL;
	line += n + 1;
	len -= n + 1;
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
	    line[len - 1] == '\r'))
		len--;
	return lz_xstrndup(line, len);
}

int
lz_dpkg_parse(const char *text, size_t len, struct lz_dpkg *out,
    struct lz_err *err)
{
	struct lz_dpkg_pkg p = { NULL, NULL, NULL, NULL };
	char *status = NULL, *v;
	const char *line = text, *end = text + len, *nl, *word;
	size_t n, i, k;

	if (len > LZ_DPKG_MAX)
		return lz_err_set(err, LZ_EINVAL, "the dpkg status file is "
		    "larger than %d MiB", LZ_DPKG_MAX / (1024 * 1024));
	for (;;) {
		nl = line < end ? memchr(line, '\n', (size_t)(end - line)) :
		    NULL;
		n = line < end ? (size_t)((nl != NULL ? nl : end) - line) : 0;
		if (n == 0 || (n == 1 && *line == '\r')) {
			/* End of a paragraph. */
			word = status != NULL ? strrchr(status, ' ') : NULL;
			word = word != NULL ? word + 1 : status;
			if (p.name != NULL && *p.name != '\0' && word != NULL &&
			    strcmp(word, "installed") == 0) {
				if (p.arch == NULL)
					p.arch = lz_xstrdup("");
				if (p.version == NULL)
					p.version = lz_xstrdup("");
				add(out, &p, NULL);
			}
			free(p.name);
			free(p.arch);
			free(p.version);
			free(status);
			p.name = p.arch = p.version = status = NULL;
			if (line >= end)
				break;
		} else if (*line != ' ' && *line != '\t') {
			if ((v = field(line, n, "Package")) != NULL) {
				free(p.name);
				p.name = v;
			} else if ((v = field(line, n, "Version")) != NULL) {
				free(p.version);
				p.version = v;
			} else if ((v = field(line, n, "Architecture")) !=
			    NULL) {
				free(p.arch);
				p.arch = v;
			} else if ((v = field(line, n, "Status")) != NULL) {
				free(status);
				status = v;
			}
		}
		line = nl != NULL ? nl + 1 : end;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, pkg_cmp);
	/* A package listed twice counts once (the diff walks both lists in
	 * step, so each must hold a package at most once). */
	for (i = 0, k = 0; i < out->n; i++) {
		if (k > 0 && pkg_cmp(&out->v[k - 1], &out->v[i]) == 0) {
			free(out->v[i].name);
			free(out->v[i].arch);
			free(out->v[i].version);
			free(out->v[i].old);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
	return 0;
}

void
lz_dpkg_diff(const struct lz_dpkg *base, const struct lz_dpkg *now,
    struct lz_dpkg *added, struct lz_dpkg *removed, struct lz_dpkg *changed)
{
	size_t i = 0, j = 0;
	int c;

	while (i < base->n || j < now->n) {
		c = i == base->n ? 1 : j == now->n ? -1 :
		    pkg_cmp(&base->v[i], &now->v[j]);
		if (c < 0)
			add(removed, &base->v[i++], NULL);
		else if (c > 0)
			add(added, &now->v[j++], NULL);
		else {
			if (strcmp(base->v[i].version, now->v[j].version) != 0)
				add(changed, &now->v[j], base->v[i].version);
			i++;
			j++;
		}
	}
}

void
lz_dpkg_release(struct lz_dpkg *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free(d->v[i].arch);
		free(d->v[i].version);
		free(d->v[i].old);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
}
