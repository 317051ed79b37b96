/*
 * fuzz-dpkg.c: libFuzzer target for what "lazaret state diff" reads from
 * a sandbox: a dpkg status file (core/dpkg.h) and names made visible
 * (core/visible.h). The input is split at its first NUL into the image's
 * status and the sandbox's; every package parsed has a name, the
 * difference is consistent (an added package is not in the image's list,
 * a removed one not in the sandbox's), and every visible string is valid
 * UTF-8 that jansson takes, with no control character.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/dpkg.h"
#include "core/visible.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_visible(const char *s, size_t n)
{
	struct lz_buf b = LZ_BUF_INIT;
	json_t *j;
	size_t i;

	lz_visible_add(&b, s, n, 0);
	for (i = 0; i < b.len; i++) {
		if ((unsigned char)b.buf[i] < 0x20 || b.buf[i] == 0x7f)
			abort();
	}
	if ((j = json_stringn(b.buf, b.len)) == NULL)
		abort();
	json_decref(j);
	lz_buf_release(&b);
}

static int
has(const struct lz_dpkg *d, const struct lz_dpkg_pkg *p)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (strcmp(d->v[i].name, p->name) == 0 &&
		    strcmp(d->v[i].arch, p->arch) == 0)
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_dpkg base = LZ_DPKG_INIT, now = LZ_DPKG_INIT;
	struct lz_dpkg add = LZ_DPKG_INIT, rm = LZ_DPKG_INIT, ch = LZ_DPKG_INIT;
	const char *text = (const char *)data, *nul;
	size_t first, i;

	check_visible(text, size);
	nul = memchr(text, '\0', size);
	first = nul != NULL ? (size_t)(nul - text) : size;
	lz_dpkg_parse(text, first, &base, NULL);
	if (nul != NULL)
		lz_dpkg_parse(nul + 1, size - first - 1, &now, NULL);
	for (i = 0; i < base.n; i++) {
		if (base.v[i].name == NULL || base.v[i].arch == NULL ||
		    base.v[i].version == NULL)
			abort();
		check_visible(base.v[i].name, strlen(base.v[i].name));
	}
	lz_dpkg_diff(&base, &now, &add, &rm, &ch);
	for (i = 0; i < add.n; i++) {
		if (has(&base, &add.v[i]))
			abort();
	}
	for (i = 0; i < rm.n; i++) {
		if (has(&now, &rm.v[i]))
			abort();
	}
	for (i = 0; i < ch.n; i++) {
		if (ch.v[i].old == NULL || !has(&base, &ch.v[i]) ||
		    !has(&now, &ch.v[i]))
			abort();
	}
	lz_dpkg_release(&base);
	lz_dpkg_release(&now);
	lz_dpkg_release(&add);
	lz_dpkg_release(&rm);
	lz_dpkg_release(&ch);
	return 0;
}
