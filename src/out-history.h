/*
 * out-history.h: what "lazaret git restore" shows of one repository's
 * kept history (core/histview.h): what was lost, with the lost commits'
 * subjects, the snapshots of uncommitted work, the space the store
 * holds; for a human or as JSON. Ref names and subjects are the
 * repository's bytes, which the sandbox may have written: both forms
 * show them escaped (core/visible.h).
 */
#ifndef LZ_OUT_HISTORY_H
#define LZ_OUT_HISTORY_H

#include <stdio.h>

#include <jansson.h>

#include "core/histview.h"

/* Commits listed per lost value: for a human, in JSON. */
#define LZ_OUT_HISTORY_COMMITS 10
#define LZ_OUT_HISTORY_COMMITS_JSON 100

void lz_out_history(FILE *f, struct lz_histview *v, int64_t keep_ms);
json_t *lz_out_history_json(struct lz_histview *v);
/* "refs/heads/main: 1a2b3c4 \"subject\"" for a question or a line. */
void lz_out_history_value(struct lz_histview *v, const char *value,
    struct lz_buf *b);
/* A ref name as shown (escaped). */
char *lz_out_history_name(const char *name);

#endif
