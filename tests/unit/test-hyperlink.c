/*
 * test-hyperlink.c: which hyperlinks reach the host terminal, and as what
 * (ui/hyperlink.h): http and https as they are; file inside the workspace,
 * moved to the host's copy of it; nothing else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ui/hyperlink.h"

static const struct lz_hyperlink_map map = { "/workspace",
	"/home/dev/my proj", "box" };

static void
check(const char *uri, const char *want)
{
	struct lz_buf out = LZ_BUF_INIT;
	int ok = lz_hyperlink_host(uri, &map, &out);

	if (want == NULL) {
		if (ok || out.len != 0)
			fail_msg("'%s' passed as '%s'", uri, out.buf);
	} else if (!ok || strcmp(out.buf, want) != 0)
		fail_msg("'%s' gave '%s', want '%s'", uri, ok ? out.buf : "(no)",
		    want);
	lz_buf_release(&out);
}

static void
test_schemes(void **state)
{
	(void)state;
	check("https://example.com/a?b=c#d", "https://example.com/a?b=c#d");
	check("HTTP://example.com/", "HTTP://example.com/");
	check("javascript:alert(1)", NULL);
	check("data:text/html,x", NULL);
	check("ftp://example.com/", NULL);
	check("mailto:a@b", NULL);
	check("ssh://host/", NULL);
	check("", NULL);
}

static void
test_files(void **state)
{
	(void)state;
	/* Inside: moved to the host's path, the host's name, re-encoded. */
	check("file://lazaret/workspace/src/a.c",
	    "file://box/home/dev/my%20proj/src/a.c");
	check("file:///workspace", "file://box/home/dev/my%20proj");
	check("file:///workspace/a%20b", "file://box/home/dev/my%20proj/a%20b");
	/* Outside, or climbing out, or not decodable: refused. */
	check("file:///etc/passwd", NULL);
	check("file:///workspace-other/x", NULL);
	check("file:///workspace/../etc/passwd", NULL);
	check("file:///workspace/%2e%2e/etc/passwd", NULL);
	check("file:///workspace/./a", NULL);
	check("file:///workspace//a", NULL);
	check("file:///workspace/a%0ab", NULL);
	check("file:///workspace/a%zz", NULL);
	check("file:/workspace/a", NULL);
	check("file:workspace/a", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schemes),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
