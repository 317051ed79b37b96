/*
 * fuzz-netpolicy.c: libFuzzer target for the sidecar's policy parser: any
 * bytes give a policy or an error; an accepted policy formats back to the
 * exact input, and its probes agree with its lookup.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/netpolicy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_netpolicy np = LZ_NETPOLICY_INIT;
	struct lz_netpolicy_probe *v = NULL;
	struct lz_err err = LZ_ERR_INIT;
	struct lz_buf b = LZ_BUF_INIT;
	size_t n, i;

	if (lz_netpolicy_parse((const char *)data, size, &np, &err) != 0) {
		if (err.msg == NULL || np.rules != NULL)
			abort();
		lz_err_release(&err);
		return 0;
	}
	lz_netpolicy_format(&np, &b);
	if (b.len != size || memcmp(b.buf, data, size) != 0)
		abort();
	lz_netpolicy_probes(&np, &v, &n);
	for (i = 0; i < n; i++) {
		if (v[i].allow != lz_netpolicy_lookup(&np, v[i].addr, NULL))
			abort();
	}
	free(v);
	lz_buf_release(&b);
	lz_netpolicy_release(&np);
	return 0;
}
