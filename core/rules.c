/*
 * rules.c: parsing, matching and printing auto-approval rules (SR-8).
 * Matching is exact and argument-wise: no globbing, no shell; the program
 * is compared by the host path it resolves to (rules.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/hostcmd.h"
#include "core/ini.h"
#include "core/rules.h"

/*
 * Programs that run code they are given, by base name; a version suffix
 * ("python3.11", "lua5.4", "node18") counts as the same name. Shells,
 * interpreters, command runners, and build tools whose recipes are
 * workspace files the sandbox writes.
 */
static const char *const code_runners[] = {
	/* shells */
	"ash", "bash", "busybox", "csh", "dash", "elvish", "fish", "ksh",
	"mksh", "nu", "pwsh", "rbash", "sh", "tcsh", "xonsh", "yash", "zsh",
	/* interpreters */
	"awk", "bun", "deno", "expect", "gawk", "guile", "irb", "java",
	"jshell", "julia", "lua", "luajit", "mawk", "nawk", "node", "nodejs",
	"osascript", "perl", "php", "pypy", "python", "R", "racket", "Rscript",
	"ruby", "sbcl", "tclsh", "wish",
	/* command runners */
	"chroot", "doas", "env", "find", "flock", "gdb", "ionice", "nice",
	"nohup", "nsenter", "pkexec", "script", "setsid", "ssh", "stdbuf",
	"strace", "su", "sudo", "taskset", "time", "timeout", "unshare",
	"watch", "xargs",
	/* build tools and package managers (recipes in the workspace) */
	"bundle", "cargo", "cmake", "go", "gradle", "gradlew", "just", "make",
	"mvn", "ninja", "npm", "npx", "pnpm", "poetry", "pytest", "rake",
	"task", "tox", "uv", "yarn",
};

static int	runs_code(const char *path);

/* Whether the base name of path is one of code_runners. */
static int
runs_code(const char *path)
{
	const char *base = strrchr(path, '/'), *end;
	size_t i, n;

	base = base ? base + 1 : path;
	/* "python3.11" -> "python": drop a tail of digits, '.' and '-'. */
	end = base + strlen(base);
	while (end > base && strchr("0123456789.-", end[-1]) != NULL)
		end--;
	n = (size_t)(end - base);
	for (i = 0; i < sizeof code_runners / sizeof *code_runners; i++) {
		if (strlen(code_runners[i]) == n &&
		    memcmp(code_runners[i], base, n) == 0)
			return 1;
	}
	return 0;
}

int
lz_rule_parse(const char *value, const char *source, struct lz_rule *out,
    struct lz_err *err)
{
	size_t len = strlen(value);
	char *copy = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	copy = lz_xstrndup(value, len);
	if (len >= 3 && strcmp(copy + len - 3, "...") == 0 &&
	    (len == 3 || copy[len - 4] == ' ' || copy[len - 4] == '\t')) {
		out->trailing = 1;
		copy[len - 3] = '\0';
	}
	rc = lz_tokens_split(copy, &out->argv, err);
	if (rc != 0)
		goto out;
	if (out->argv.n == 0 || out->argv.v[0][0] == '\0')
		rc = lz_err_set(err, LZ_EINVAL, "an auto-approve rule must "
		    "start with the program to run (e.g. 'auto-approve = "
		    "git fetch origin')");
	else if (strchr(out->argv.v[0], '/') != NULL &&
	    out->argv.v[0][0] != '/')
		rc = lz_err_set(err, LZ_EINVAL, "an auto-approve rule's "
		    "program must be a name found in PATH or an absolute "
		    "path, not '%s' (a relative path names a file of the "
		    "directory the command runs in: the workspace)",
		    out->argv.v[0]);
	if (rc != 0) {
		lz_tokens_release(&out->argv);
		goto out;
	}
	out->source = lz_xstrdup(source);
	out->flags = (out->trailing ? LZ_RULE_OPTIONS : 0) |
	    (runs_code(out->argv.v[0]) ? LZ_RULE_RUNS_CODE : 0);
out:
	free(copy);
	if (rc != 0)
		out->trailing = 0;
	return rc;
}

void
lz_rule_concerns(const struct lz_rule *r, struct lz_buf *b)
{
	if (r->flags & LZ_RULE_OPTIONS)
		lz_buf_addf(b, "it allows any trailing arguments, and options "
		    "can run commands ('git fetch --upload-pack=CMD', 'git "
		    "log --output=FILE'); prefer exact rules\n");
	if (r->flags & LZ_RULE_RUNS_CODE)
		lz_buf_addf(b, "'%s' runs code it is given (a shell, an "
		    "interpreter, a command runner or a build tool reading "
		    "the workspace the sandbox writes): the sandbox can make "
		    "this rule run anything\n", r->argv.v[0]);
}

void
lz_rule_resolve(struct lz_rule *r, const char *path, struct lz_buf *warnings)
{
	struct lz_buf text = LZ_BUF_INIT, concerns = LZ_BUF_INIT;
	const char *p, *nl;

	free(r->program);
	r->program = NULL;
	lz_rule_format(r, &text);
	if (lz_hostcmd_resolve(r->argv.v[0], path, &r->program, NULL) != 0 ||
	    r->program[0] != '/') {
		free(r->program);
		r->program = NULL;
		lz_buf_addf(&concerns, "'%s' is not found in PATH, so the "
		    "rule matches nothing (until Lazaret is started with it "
		    "there)\n", r->argv.v[0]);
	}
	lz_rule_concerns(r, &concerns);
	for (p = concerns.buf; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		lz_buf_addf(warnings, "%s: auto-approve '%s': %.*s\n",
		    r->source, text.buf, (int)(nl - p), p);
	}
	lz_buf_release(&text);
	lz_buf_release(&concerns);
}

int
lz_rule_match(const struct lz_rule *r, char *const *argv, size_t argc,
    const char *program)
{
	size_t i;

	if (r->program == NULL || program == NULL ||
	    strcmp(r->program, program) != 0)
		return 0;
	if (argc < r->argv.n || (argc > r->argv.n && !r->trailing))
		return 0;
	for (i = 0; i < r->argv.n; i++) {
		if (strcmp(r->argv.v[i], argv[i]) != 0)
			return 0;
	}
	return 1;
}

const struct lz_rule *
lz_rules_find(const struct lz_rule *v, size_t n, char *const *argv,
    size_t argc, const char *program)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lz_rule_match(&v[i], argv, argc, program))
			return &v[i];
	return NULL;
}

void
lz_rule_format(const struct lz_rule *r, struct lz_buf *b)
{
	size_t i;

	for (i = 0; i < r->argv.n; i++) {
		if (i > 0)
			lz_buf_addch(b, ' ');
		/* A literal "..." must not read back as the marker. */
		if (strcmp(r->argv.v[i], "...") == 0)
			lz_buf_adds(b, "%2E..");
		else
			lz_tokens_quote(b, r->argv.v[i]);
	}
	if (r->trailing)
		lz_buf_adds(b, " ...");
}

int
lz_rule_line(const struct lz_tokens *argv, struct lz_buf *line,
    struct lz_err *err)
{
	struct lz_rule r;
	size_t start = line->len;

	memset(&r, 0, sizeof r);
	r.argv = *argv;
	if (argv->n == 0 || argv->v[0][0] == '\0' ||
	    (strchr(argv->v[0], '/') != NULL && argv->v[0][0] != '/'))
		return lz_err_set(err, LZ_EINVAL, "'%s' cannot be saved as a "
		    "rule: a rule's program is a name found in PATH or an "
		    "absolute path", argv->n ? argv->v[0] : "");
	lz_buf_adds(line, "auto-approve = ");
	lz_rule_format(&r, line);
	if (line->len - start > LZ_INI_MAX_LINE) {
		lz_err_set(err, LZ_EINVAL, "the rule would be a config line "
		    "of %zu bytes, over the limit of %d: approve it for the "
		    "session instead", line->len - start, LZ_INI_MAX_LINE);
		line->len = start;
		line->buf[start] = '\0';
		return LZ_EINVAL;
	}
	return 0;
}

void
lz_rule_copy(struct lz_rule *dst, const struct lz_rule *src)
{
	memset(dst, 0, sizeof *dst);
	lz_tokens_copy(&dst->argv, &src->argv);
	dst->trailing = src->trailing;
	dst->source = lz_xstrdup(src->source);
	dst->program = src->program ? lz_xstrdup(src->program) : NULL;
	dst->flags = src->flags;
}

void
lz_rule_release(struct lz_rule *r)
{
	lz_tokens_release(&r->argv);
	free(r->source);
	free(r->program);
	r->source = NULL;
	r->program = NULL;
}
