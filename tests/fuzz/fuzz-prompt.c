/*
 * fuzz-prompt.c: libFuzzer target for the escalation prompt (ui/prompt.h):
 * an argv and justification from the input (split at NUL bytes), then the
 * rest as keys typed into the prompt, drawn after every eighth key and at
 * the end into a small and a large frame. Nothing may crash or leak, and no cell drawn may
 * hold a character core/visible.h hides.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/visible.h"
#include "ui/keys.h"
#include "ui/prompt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lz_term term;
static int loaded;

static void
check(struct lz_render *r)
{
	int row, col;
	uint32_t cp;

	for (row = 0; row < r->rows; row++)
		for (col = 0; col < r->cols; col++) {
			cp = lz_render_at(r, row, col)->ch[0];
			if (cp != 0 && cp != LZ_CELL_CONT && cp != ' ' &&
			    lz_visible_hidden(cp))
				abort();
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_prompt_ctx ctx = { 1, NULL, 0 };
	struct lz_prompt_pens pens;
	struct lz_msg_decision d;
	struct lz_msg_prompt m;
	struct lz_render r;
	struct lz_prompt p;
	struct lz_key k;
	const uint8_t *end = data + size, *z;
	size_t used, nkeys = 0;
	int i, row, col;

	if (!loaded) {
		if (lz_term_load(&term, "xterm-256color", -1, NULL) != 0)
			abort();
		term.utf8 = 1;
		loaded = 1;
	}
	memset(&m, 0, sizeof m);
	memset(&pens, 0, sizeof pens);
	memcpy(m.id, "0123456789abcdef0123456789abcdef", 33);
	memcpy(m.session, "0123456789abcdef0123456789abcdef", 33);
	memcpy(m.profile, "default", 8);
	m.command = strdup("bash");
	m.cwd = strdup("/w");
	/* Up to four NUL-terminated pieces: argv elements, then why. */
	for (i = 0; i < 4 && (z = memchr(data, 0, (size_t)(end - data))); i++) {
		lz_tokens_push(&m.argv, (const char *)data);
		data = z + 1;
	}
	if (m.argv.n == 0)
		lz_tokens_push(&m.argv, "x");
	m.why = strdup(m.argv.v[m.argv.n - 1]);
	m.timeout_ms = 1000;
	lz_prompt_init(&p, &m, &ctx, 0);
	lz_render_init(&r, &term, 30, 90);
	while (data < end) {
		used = lz_key_take(data, (size_t)(end - data), &k);
		data += used;
		if (lz_prompt_key(&p, &k, 1000, &d) == 1)
			lz_msg_decision_release(&d);
		if (++nkeys % 8 == 0 || data == end) {
			lz_prompt_draw(&p, &r, (struct lz_rect){ 0, 0, 30, 90 },
			    &pens, 1000, &row, &col);
			lz_prompt_draw(&p, &r, (struct lz_rect){ 2, 3, 7, 12 },
			    &pens, 1000, &row, &col);
		}
	}
	check(&r);
	lz_render_free(&r);
	lz_prompt_release(&p);
	return 0;
}
