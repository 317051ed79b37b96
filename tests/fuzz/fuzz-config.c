/*
 * fuzz-config.c: libFuzzer target for the config parser and validator
 * (core/ini.c, core/config.c, core/tokens.c, core/cidr.c, core/rules.c).
 * Any input must give a validated config or an error message, never a
 * crash, a leak or undefined behaviour; a loaded profile must also
 * fingerprint without error.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/config.h"
#include "core/fingerprint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_config cfg;
	struct lz_err err = LZ_ERR_INIT;
	char fp[LZ_FINGERPRINT_HEX + 1];
	size_t i;

	if (size > LZ_CONFIG_MAX_SIZE)
		return 0;
	if (lz_config_load_buffer(&cfg, "fuzz.ini", (const char *)data, size,
	    &err) != 0) {
		if (err.msg == NULL)
			abort();	/* every failure must say why */
		lz_err_release(&err);
		return 0;
	}
	for (i = 0; i < cfg.nprofiles; i++) {
		if (lz_profile_fingerprint(&cfg.profiles[i], fp, NULL) != 0)
			abort();	/* validation must have caught it */
	}
	lz_config_release(&cfg);
	return 0;
}
