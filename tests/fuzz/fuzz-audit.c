/*
 * fuzz-audit.c: libFuzzer target for the audit log's reader
 * (core/audit.c): any line decodes to a record or fails with a message;
 * a record decoded encodes again and decodes to the same line, and its
 * human form holds no character core/visible.h hides but newlines (and
 * only printable ASCII in its ASCII form).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/utf8.h"
#include "core/visible.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_buf line = LZ_BUF_INIT, again = LZ_BUF_INIT;
	struct lz_buf human = LZ_BUF_INIT;
	struct lz_audit_entry e, f;
	struct lz_err err = LZ_ERR_INIT;
	size_t i, len, k;
	uint32_t cp;

	if (lz_audit_decode((const char *)data, size, &e, &err) != 0) {
		if (err.msg == NULL)
			abort();
		lz_err_release(&err);
		return 0;
	}
	if (lz_audit_encode(&e, &line, NULL) != 0 ||
	    lz_audit_decode(line.buf, line.len, &f, NULL) != 0 ||
	    lz_audit_encode(&f, &again, NULL) != 0 ||
	    strcmp(line.buf, again.buf) != 0)
		abort();
	lz_audit_describe(&f, LZ_VISIBLE_ASCII, &human);
	for (i = 0; i < human.len; i++)
		if (human.buf[i] != '\n' && (human.buf[i] < 0x20 ||
		    human.buf[i] >= 0x7f))
			abort();
	lz_buf_reset(&human);
	lz_audit_describe(&f, 0, &human);
	for (i = 0; i < human.len; i += len) {
		len = lz_utf8_seq((const unsigned char *)human.buf + i,
		    human.len - i);
		if (len == 0)
			abort();
		cp = (unsigned char)human.buf[i];
		if (len > 1)
			for (cp &= 0x7fu >> len, k = 1; k < len; k++)
				cp = cp << 6 | (human.buf[i + k] & 0x3f);
		if (cp != '\n' && lz_visible_hidden(cp))
			abort();
	}
	lz_audit_entry_release(&e);
	lz_audit_entry_release(&f);
	lz_buf_release(&line);
	lz_buf_release(&again);
	lz_buf_release(&human);
	return 0;
}
