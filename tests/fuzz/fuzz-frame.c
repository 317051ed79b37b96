/*
 * fuzz-frame.c: libFuzzer target for the control-socket frame decoder and
 * its JSON and RESIZE payload parsers: any bytes give frames or an error,
 * and a decoded frame never reaches past the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "protocol/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_err err = LZ_ERR_INIT;
	struct lz_frame f;
	size_t off = 0, used;
	unsigned r, c;
	json_t *j;
	int rc;

	while (off < size) {
		rc = lz_frame_decode(data + off, size - off, &f, &used, &err);
		if (rc < 0 && err.msg == NULL)
			abort();
		if (rc <= 0)
			break;
		if (used == 0 || used > size - off ||
		    f.payload + f.len > data + size)
			abort();
		j = lz_frame_json(&f, NULL);
		json_decref(j);
		(void)lz_frame_resize(&f, &r, &c, NULL);
		off += used;
	}
	lz_err_release(&err);
	return 0;
}
