/*
 * test-frame.c: control-socket frames: round trips, partial input, a
 * screen split over several frames, and refusal of every malformed header
 * field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "protocol/frame.h"

static void
test_roundtrip_and_partial(void **state)
{
	struct lz_buf b = LZ_BUF_INIT;
	struct lz_frame f;
	size_t used, cut;
	json_t *j;
	struct lz_frame_size sz;

	(void)state;
	lz_frame_add(&b, LZ_FRAME_INPUT, "abc", 3);
	j = json_pack("{s:i}", "version", 1);
	lz_frame_add_json(&b, LZ_FRAME_HELLO, j);
	json_decref(j);
	lz_frame_add_size(&b, LZ_FRAME_RESIZE, &(struct lz_frame_size){ 24, 80,
	    9, 18 });
	lz_frame_add(&b, LZ_FRAME_INPUT, NULL, 0);

	/* Every prefix shorter than the first frame asks for more. */
	for (cut = 0; cut < LZ_FRAME_HEADER + 3; cut++)
		assert_int_equal(lz_frame_decode((unsigned char *)b.buf, cut,
		    &f, &used, NULL), 0);
	assert_int_equal(lz_frame_decode((unsigned char *)b.buf, b.len, &f,
	    &used, NULL), 1);
	assert_int_equal(f.type, LZ_FRAME_INPUT);
	assert_int_equal(f.len, 3);
	assert_memory_equal(f.payload, "abc", 3);
	assert_int_equal(used, 13);

	assert_int_equal(lz_frame_decode((unsigned char *)b.buf + 13,
	    b.len - 13, &f, &used, NULL), 1);
	j = lz_frame_json(&f, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "version")), 1);
	json_decref(j);

	cut = 13 + used;
	assert_int_equal(lz_frame_decode((unsigned char *)b.buf + cut,
	    b.len - cut, &f, &used, NULL), 1);
	assert_int_equal(lz_frame_size(&f, &sz, NULL), 0);
	assert_int_equal(sz.rows, 24);
	assert_int_equal(sz.cols, 80);
	assert_int_equal(sz.cell_w, 9);
	assert_int_equal(sz.cell_h, 18);
	cut += used;
	assert_int_equal(lz_frame_decode((unsigned char *)b.buf + cut,
	    b.len - cut, &f, &used, NULL), 1);
	assert_int_equal(f.len, 0);
	assert_int_equal(cut + used, b.len);
	lz_buf_release(&b);
}

/*
 * A screen over the frame limit goes in frames of its type, all flagged
 * MORE but the last; the payloads put together are the screen. An empty
 * screen is one empty frame.
 */
static void
test_screen(void **state)
{
	static const size_t sizes[] = { 0, 1, LZ_FRAME_MAX, LZ_FRAME_MAX + 1,
	    3 * LZ_FRAME_MAX + 7 };
	struct lz_buf b = LZ_BUF_INIT, back = LZ_BUF_INIT;
	struct lz_frame f;
	unsigned char *screen;
	size_t k, i, off, used, frames;

	(void)state;
	screen = malloc(3 * LZ_FRAME_MAX + 7);
	assert_non_null(screen);
	for (i = 0; i < 3 * LZ_FRAME_MAX + 7; i++)
		screen[i] = (unsigned char)(i * 7 + i / 251);
	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		lz_buf_reset(&b);
		lz_buf_reset(&back);
		lz_frame_add_screen(&b, k % 2 ? LZ_FRAME_SNAPSHOT :
		    LZ_FRAME_ATTACHED, screen, sizes[k]);
		for (off = 0, frames = 0; off < b.len; off += used, frames++) {
			assert_int_equal(lz_frame_decode((unsigned char *)b.buf +
			    off, b.len - off, &f, &used, NULL), 1);
			assert_int_equal(f.type, k % 2 ? LZ_FRAME_SNAPSHOT :
			    LZ_FRAME_ATTACHED);
			assert_int_equal(f.flags, off + used < b.len ?
			    LZ_FRAME_FLAG_MORE : 0);
			assert_true(f.len <= LZ_FRAME_MAX);
			lz_buf_add(&back, f.payload, f.len);
		}
		assert_int_equal(frames, sizes[k] == 0 ? 1 : (sizes[k] +
		    LZ_FRAME_MAX - 1) / LZ_FRAME_MAX);
		assert_int_equal(back.len, sizes[k]);
		if (sizes[k] > 0)
			assert_memory_equal(back.buf, screen, sizes[k]);
	}
	free(screen);
	lz_buf_release(&b);
	lz_buf_release(&back);
}

static void
bad(const char *hdr, size_t n, const char *needle)
{
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame f;
	size_t used;

	assert_int_equal(lz_frame_decode((const unsigned char *)hdr, n, &f,
	    &used, &e), LZ_EINVAL);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("'%s' lacks '%s'", e.msg, needle);
	assert_int_equal(used, 0);
	lz_err_release(&e);
}

static void
test_refusals(void **state)
{
	struct lz_frame f;
	struct lz_err e = LZ_ERR_INIT;
	struct lz_frame_size sz;

	(void)state;
	bad("GET / HTTP", 10, "bad magic");
	bad("X", 1, "bad magic");
	bad("LZ\x01\x01", 4, "version 1");
	bad("LZ\x02\x01", 4, "version 2");
	bad("LZ\x03\x01", 4, "version 3");
	bad("LZ\x05\x01", 4, "version 5");
	bad("LZ\x04\x7f", 4, "unknown frame type 0x7f");
	/* MORE only on a screen (ATTACHED, SNAPSHOT); no other flag. */
	bad("LZ\x04\x12\x00\x01", 6, "not allowed on INPUT frames");
	bad("LZ\x04\x13\x00\x01", 6, "not allowed on OUTPUT frames");
	bad("LZ\x04\x1c\x00\x02", 6, "flags 0x0002");
	bad("LZ\x04\x19\x01\x01", 6, "flags 0x0101");
	bad("LZ\x04\x12\x00\x00\x00\x10\x00\x01", 10, "over the limit");

	f.type = LZ_FRAME_HELLO;
	f.payload = (const unsigned char *)"[1]";
	f.len = 3;
	assert_null(lz_frame_json(&f, &e));
	assert_non_null(strstr(e.msg, "not a JSON object"));
	lz_err_release(&e);
	f.payload = (const unsigned char *)"{\"a\":1,\"a\":2}";
	f.len = 13;
	assert_null(lz_frame_json(&f, &e));
	lz_err_release(&e);
	f.payload = (const unsigned char *)"{\"a\":\"\\u0000\"}";
	f.len = 14;
	assert_null(lz_frame_json(&f, &e));
	lz_err_release(&e);
	/* RESIZE and RESIZED: 8 bytes, sizes in range, both cell sides or
	 * neither. */
	f.type = LZ_FRAME_RESIZE;
	f.payload = (const unsigned char *)"\0\x18\0\x50";
	f.len = 4;
	assert_int_equal(lz_frame_size(&f, &sz, &e), LZ_EINVAL);
	lz_err_release(&e);
	f.payload = (const unsigned char *)"\0\0\0\x50\0\0\0\0";
	f.len = 8;
	assert_int_equal(lz_frame_size(&f, &sz, &e), LZ_EINVAL);
	lz_err_release(&e);
	f.type = LZ_FRAME_RESIZED;
	f.payload = (const unsigned char *)"\x03\xe9\0\x50\0\0\0\0";
	assert_int_equal(lz_frame_size(&f, &sz, &e), LZ_EINVAL);
	lz_err_release(&e);
	f.payload = (const unsigned char *)"\0\x18\0\x50\0\x08\0\0";
	assert_int_equal(lz_frame_size(&f, &sz, &e), LZ_EINVAL);
	lz_err_release(&e);
	f.payload = (const unsigned char *)"\0\x18\0\x50\x03\xe9\0\x10";
	assert_int_equal(lz_frame_size(&f, &sz, &e), LZ_EINVAL);
	lz_err_release(&e);
	f.payload = (const unsigned char *)"\0\x18\0\x50\0\0\0\0";
	assert_int_equal(lz_frame_size(&f, &sz, NULL), 0);
	assert_int_equal(sz.cell_w, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_and_partial),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_screen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
