/*
 * fault.c: the fault points of fault.h. The only place in core/ that ends
 * the process, and only in a test build, on the tester's explicit request.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fault.h"
#include "core/util.h"

const char *const lz_fault_names[] = {
	"reset-begin",		/* lock held, nothing changed yet */
	"reset-mkdir",		/* gen-M made, no upper or work in it */
	"reset-layers",		/* gen-M/upper and work made, not synced */
	"reset-link",		/* current.tmp -> gen-M made, not renamed */
	"reset-switched",	/* current -> gen-M, the old one still there */
	"reset-removing",	/* part of the old generation removed */
	"reset-done",		/* every leftover removed */
	"ignored-moved",	/* ignored/ renamed away, not yet removed */
	"ignored-removing",	/* part of the old ignored/ removed */
	NULL,
};

#ifdef LZ_FAULTS
void
lz_fault(const char *name)
{
	const char *want = getenv(LZ_FAULT_ENV);
	size_t i;

	for (i = 0; lz_fault_names[i] != NULL; i++) {
		if (strcmp(lz_fault_names[i], name) == 0)
			break;
	}
	if (lz_fault_names[i] == NULL)
		LZ_BUG("unknown fault point '%s'", name);
	if (want != NULL && strcmp(want, name) == 0)
		kill(getpid(), SIGKILL);
}
#endif
