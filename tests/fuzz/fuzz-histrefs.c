/*
 * fuzz-histrefs.c: libFuzzer target for what the Git history guard reads
 * of a git directory and of its own store, bytes the sandbox (or a
 * damaged disk) may have written: packed-refs text, a loose ref's
 * content, a pack index, a ref log. Any bytes give a result or an error,
 * never a crash or a read out of bounds; every ref log record read back
 * encodes to a line that decodes to the same record, and every name
 * decodes to what was encoded.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/histlog.h"
#include "core/histrefs.h"
#include "core/packidx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
same_record(const struct lz_histrec *a)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_histrec r;

	lz_histrec_encode(&b, a);
	if (lz_histrec_decode(b.buf, b.len - 1, &r, NULL) != 0 ||
	    r.ms != a->ms || r.who != a->who || r.kind != a->kind ||
	    strcmp(r.name, a->name) != 0 ||
	    (a->old == NULL) != (r.old == NULL) ||
	    (a->new == NULL) != (r.new == NULL) ||
	    (a->old != NULL && strcmp(a->old, r.old) != 0) ||
	    (a->new != NULL && strcmp(a->new, r.new) != 0))
		abort();
	lz_histrec_release(&r);
	lz_buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_refset s = LZ_REFSET_INIT;
	struct lz_histlog log;
	struct lz_packidx x;
	struct lz_buf warn = LZ_BUF_INIT, enc = LZ_BUF_INIT;
	char *text = malloc(size + 1), *v, *name;
	unsigned char *copy;
	unsigned first;
	size_t i;

	memcpy(text, data, size);
	text[size] = '\0';
	(void)lz_packed_refs_parse(text, size, &s, &first);
	lz_refset_sort(&s);
	for (i = 0; i < s.n; i++)
		if (!lz_refname_ok(s.v[i].name) || !lz_ref_oid_ok(s.v[i].value))
			abort();
	lz_refset_release(&s);
	if ((v = lz_ref_value_parse(text, size)) != NULL)
		free(v);
	if (lz_histlog_parse(text, size, &log, &warn, NULL) == 0) {
		for (i = 0; i < log.n; i++)
			same_record(&log.v[i]);
		lz_histlog_release(&log);
	}
	/* A name's encoding decodes back to it (NUL ends it). */
	lz_histname_encode(&enc, text);
	if (enc.len > 0) {
		if (lz_histname_decode(enc.buf, enc.len, &name) != 0 ||
		    strcmp(name, text) != 0)
			abort();
		free(name);
	}
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (lz_packidx_parse(copy, size, 20, &x, NULL) == 0) {
		for (i = 0; i < x.n; i++)
			if (!lz_packidx_has(&x, lz_packidx_name(&x,
			    (uint32_t)i)))
				abort();
		lz_packidx_release(&x);
	}
	lz_buf_release(&warn);
	lz_buf_release(&enc);
	free(text);
	return 0;
}
