/*
 * test-frame.c: control-socket frames: round trips, partial input, and
 * refusal of every malformed header field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
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
	bad("LZ\x04\x01", 4, "version 4");
	bad("LZ\x03\x7f", 4, "unknown frame type 0x7f");
	bad("LZ\x03\x12\x00\x01", 6, "reserved frame flags");
	bad("LZ\x03\x12\x00\x00\x00\x10\x00\x01", 10, "over the limit");

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
