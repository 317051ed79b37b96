/*
 * hyperlink.h: which of a pane's hyperlinks (OSC 8) may reach the host
 * terminal, and as what. Only http and https URIs, as they are, and file
 * URIs inside the workspace: the path the sandbox sees under its
 * workspace is rewritten to the host's, and anything else (other files,
 * other schemes, "." or ".." in the path, a path that does not decode) is
 * refused, so a link can only open what the developer's own project holds.
 */
#ifndef LZ_HYPERLINK_H
#define LZ_HYPERLINK_H

#include "core/util.h"

struct lz_hyperlink_map {
	const char *sandbox;	/* the workspace as the program sees it */
	const char *host;	/* the same directory on the host */
	const char *hostname;	/* for file://HOST/...; "" for none */
};

/* Appends what the host may see of uri to out: 1, or 0 (refused). */
int lz_hyperlink_host(const char *uri, const struct lz_hyperlink_map *m,
    struct lz_buf *out);

#endif
