/*
 * rulesave.c: appending a rule saved from a prompt to the config file the
 * Domain loaded, and adopting it (see rulesave.h). The checks are
 * descriptor-based: the file is opened without following a symlink,
 * fstat'ed, compared with what was loaded, locked, read, appended to,
 * read again and parsed before the Domain takes the rule.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ini.h"
#include "core/rulesave.h"

#define LOCK_TRIES 50		/* x 10 ms */

struct last_section {
	char *name;
};

static int	open_config(const struct lz_config *cfg, const char *hand,
		    int *created, struct lz_err *err);
static int	lock_config(int fd, struct lz_err *err);
static int	read_all(int fd, struct lz_buf *out, struct lz_err *err);
static int	on_entry(void *ctx, const char *section, const char *key,
		    const char *value, unsigned line, struct lz_err *err);
static struct lz_profile *find_profile(struct lz_config *cfg,
		    const char *name);
static int	same_profile(const struct lz_profile *a,
		    const struct lz_profile *b);
static int	only_rule_added(struct lz_config *pre,
		    const struct lz_config *post, const char *profile,
		    const char *value, const char *source);
static int	add_rule(struct lz_profile *p, const char *value,
		    const char *source, const char *path,
		    struct lz_buf *warnings);

static struct lz_profile *
find_profile(struct lz_config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nprofiles; i++)
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return &cfg->profiles[i];
	return NULL;
}

/* Opens the file the Domain loaded for appending; see rulesave.h. */
static int
open_config(const struct lz_config *cfg, const char *hand, int *created,
    struct lz_err *err)
{
	const int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
	    O_NOCTTY | O_NONBLOCK;
	struct stat st;
	int fd;

	*created = 0;
	fd = open(cfg->named, flags);
	if (fd < 0 && errno == ENOENT && cfg->dev == 0 && cfg->ino == 0) {
		fd = open(cfg->named, flags | O_CREAT | O_EXCL, 0600);
		*created = fd >= 0;
	}
	if (fd < 0 && errno == ELOOP)
		return lz_err_set(err, LZ_EUNSAFE, "config '%s' is a symlink "
		    "and Lazaret does not write through one; add %s",
		    cfg->named, hand);
	if (fd < 0)
		return lz_err_set(err, errno == EACCES ? LZ_EUNSAFE : LZ_ESYS,
		    "cannot open config '%s' to append to it: %s; add %s",
		    cfg->named, strerror(errno), hand);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
		close(fd);
		return lz_err_set(err, LZ_EUNSAFE, "config '%s' is not a "
		    "regular file that you own and only you can write; add "
		    "%s", cfg->named, hand);
	}
	if ((cfg->dev != 0 || cfg->ino != 0) &&
	    ((unsigned long long)st.st_dev != cfg->dev ||
	    (unsigned long long)st.st_ino != cfg->ino)) {
		close(fd);
		return lz_err_set(err, LZ_ECONFLICT, "config '%s' is not the "
		    "file this Domain loaded (it was replaced since); add %s, "
		    "or restart the Domain first", cfg->named, hand);
	}
	return fd;
}

/* flock(LOCK_EX), waiting at most LOCK_TRIES x 10 ms (the loop waits). */
static int
lock_config(int fd, struct lz_err *err)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < LOCK_TRIES; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return lz_err_set(err, LZ_ESYS, "cannot lock the "
			    "config file: %s", strerror(errno));
		nanosleep(&ts, NULL);
	}
	return lz_err_set(err, LZ_EBUSY, "the config file is locked by "
	    "another process; try again");
}

/* The whole file from its start (at most LZ_CONFIG_MAX_SIZE bytes). */
static int
read_all(int fd, struct lz_buf *out, struct lz_err *err)
{
	char chunk[8192];
	ssize_t n;

	lz_buf_reset(out);
	while ((n = pread(fd, chunk, sizeof chunk, (off_t)out->len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return lz_err_set(err, LZ_ESYS, "cannot read the "
			    "config file: %s", strerror(errno));
		if (out->len + (size_t)n > LZ_CONFIG_MAX_SIZE)
			return lz_err_set(err, LZ_EINVAL, "the config file is "
			    "over %d bytes", LZ_CONFIG_MAX_SIZE);
		lz_buf_add(out, chunk, (size_t)n);
	}
	return 0;
}

/* The ini parser's own idea of the last section header. */
static int
on_entry(void *ctx, const char *section, const char *key, const char *value,
    unsigned line, struct lz_err *err)
{
	struct last_section *l = ctx;

	(void)value; (void)line; (void)err;
	if (key == NULL) {
		free(l->name);
		l->name = lz_xstrdup(section);
	}
	return 0;
}

/* Whether two profiles have the same canonical form (fingerprint.h). */
static int
same_profile(const struct lz_profile *a, const struct lz_profile *b)
{
	json_t *ja = lz_profile_json(a, 0, NULL), *jb = lz_profile_json(b, 0,
	    NULL);
	int same = ja != NULL && jb != NULL && json_equal(ja, jb);

	json_decref(ja);
	json_decref(jb);
	return same;
}

/* Parses a rule value and appends it to p's rules, resolved in path. */
static int
add_rule(struct lz_profile *p, const char *value, const char *source,
    const char *path, struct lz_buf *warnings)
{
	struct lz_rule r;

	if (lz_rule_parse(value, source, &r, NULL) != 0)
		return -1;
	lz_rule_resolve(&r, path, warnings);
	p->approve = lz_xgrow(p->approve, p->napprove + 1, &p->approve_alloc,
	    sizeof *p->approve);
	p->approve[p->napprove++] = r;
	return 0;
}

/*
 * Whether post is pre with one more rule (value) in profile and nothing
 * else changed: the same profiles, the same default, each canonical form
 * equal. pre's profile gets the rule (it is scratch).
 */
static int
only_rule_added(struct lz_config *pre, const struct lz_config *post,
    const char *profile, const char *value, const char *source)
{
	struct lz_buf none = LZ_BUF_INIT;
	const struct lz_profile *b;
	struct lz_profile *a;
	size_t i;
	int ok;

	ok = pre->nprofiles == post->nprofiles &&
	    strcmp(pre->default_profile, post->default_profile) == 0 &&
	    (a = find_profile(pre, profile)) != NULL &&
	    add_rule(a, value, source, NULL, &none) == 0;
	for (i = 0; ok && i < pre->nprofiles; i++) {
		a = &pre->profiles[i];
		b = lz_config_profile(post, a->name);
		ok = b != NULL && same_profile(a, b);
	}
	lz_buf_release(&none);
	return ok;
}

int
lz_rulesave(struct lz_config *cfg, const char *profile,
    const struct lz_tokens *argv, const char *path,
    char fingerprint[LZ_FINGERPRINT_HEX + 1], struct lz_err *err)
{
	struct lz_buf line = LZ_BUF_INIT, hand = LZ_BUF_INIT;
	struct lz_buf text = LZ_BUF_INIT, add = LZ_BUF_INIT;
	struct lz_buf post = LZ_BUF_INIT, src = LZ_BUF_INIT;
	struct lz_config pre, after;
	struct last_section last = { NULL };
	struct lz_err e = LZ_ERR_INIT;
	struct lz_profile *p, *pp;
	struct stat st, now;
	const char *value;
	size_t i, lines = 0;
	int fd = -1, created = 0, rc, have_pre = 0, have_after = 0;

	memset(&pre, 0, sizeof pre);
	memset(&after, 0, sizeof after);
	if ((p = find_profile(cfg, profile)) == NULL) {
		rc = lz_err_set(err, LZ_EINVAL, "no profile '%s' to save a "
		    "rule to", profile);
		goto out;
	}
	if ((rc = lz_rule_line(argv, &line, err)) != 0)
		goto out;
	value = line.buf + strlen("auto-approve = ");
	lz_buf_addf(&hand, "this line under '[profile %s]' by hand: %s",
	    profile, line.buf);
	if (cfg->named == NULL) {
		rc = lz_err_set(err, LZ_EINVAL, "this Domain's config was not "
		    "read from a file; add %s", hand.buf);
		goto out;
	}
	if ((fd = rc = open_config(cfg, hand.buf, &created, err)) < 0)
		goto out;
	if ((rc = lock_config(fd, err)) != 0 ||
	    (rc = read_all(fd, &text, err)) != 0)
		goto undo;
	/* The file must still say what the Domain runs. */
	rc = lz_config_load_buffer(&pre, cfg->named, text.buf, text.len, &e);
	have_pre = rc == 0;
	if (rc != 0 || (pp = find_profile(&pre, profile)) == NULL ||
	    !same_profile(pp, p)) {
		rc = lz_err_set(err, LZ_ECONFLICT, "config '%s' was edited "
		    "since this Domain loaded it (profile '%s' %s); restart "
		    "the Domain, or add %s", cfg->named, profile, rc != 0 ?
		    "no longer loads" : "differs", hand.buf);
		goto undo;
	}
	lz_ini_parse(cfg->named, text.buf, text.len, on_entry, &last, NULL);
	if (text.len > 0 && text.buf[text.len - 1] != '\n')
		lz_buf_addch(&add, '\n');
	if (text.len > 0)
		lz_buf_addch(&add, '\n');
	lz_buf_adds(&add, "# saved from a Lazaret escalation prompt\n");
	if (last.name == NULL || strncmp(last.name, "profile ", 8) != 0 ||
	    strcmp(last.name + 8, profile) != 0)
		lz_buf_addf(&add, "[profile %s]\n", profile);
	lz_buf_addf(&add, "%s\n", line.buf);
	if (text.len + add.len > LZ_CONFIG_MAX_SIZE) {
		rc = lz_err_set(err, LZ_EINVAL, "config '%s' would grow past "
		    "%d bytes", cfg->named, LZ_CONFIG_MAX_SIZE);
		goto undo;
	}
	if ((rc = lz_write_all(fd, add.buf, add.len)) != 0 || fsync(fd) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot append to config '%s': "
		    "%s", cfg->named, strerror(rc ? -rc : errno));
		goto truncate;
	}
	/* Read back: exactly what was there plus what was appended. */
	rc = read_all(fd, &post, err);
	if (rc == 0 && (post.len != text.len + add.len ||
	    memcmp(post.buf, text.buf, text.len) != 0 ||
	    memcmp(post.buf + text.len, add.buf, add.len) != 0)) {
		rc = lz_err_set(err, LZ_ECONFLICT, "config '%s' changed while "
		    "the rule was appended; check it", cfg->named);
		goto undo;	/* someone else's bytes: leave them */
	}
	for (i = 0; i < post.len; i++)
		lines += post.buf[i] == '\n';
	lz_buf_addf(&src, "%s:%zu", cfg->named, lines);
	if (rc == 0) {
		rc = lz_config_load_buffer(&after, cfg->named, post.buf,
		    post.len, &e);
		have_after = rc == 0;
	}
	if (rc != 0 || !only_rule_added(&pre, &after, profile, value,
	    src.buf)) {
		rc = lz_err_set(err, LZ_ECONFLICT, "config '%s' did not read "
		    "back as before plus the rule%s%s; it was left as it was",
		    cfg->named, e.msg ? ": " : "", e.msg ? e.msg : "");
		goto truncate;
	}
	/* The name must still be this file (an editor may have renamed). */
	if (fstat(fd, &st) != 0 || lstat(cfg->named, &now) != 0 ||
	    st.st_dev != now.st_dev || st.st_ino != now.st_ino) {
		rc = lz_err_set(err, LZ_ECONFLICT, "config '%s' was replaced "
		    "while the rule was saved; add %s", cfg->named, hand.buf);
		goto undo;
	}
	if (add_rule(p, value, src.buf, path, &cfg->warnings) != 0)
		LZ_BUG("a saved rule does not parse: %s", value);
	cfg->dev = (unsigned long long)st.st_dev;
	cfg->ino = (unsigned long long)st.st_ino;
	if (cfg->path == NULL)
		cfg->path = realpath(cfg->named, NULL);
	if (lz_profile_fingerprint(p, fingerprint, NULL) != 0)
		LZ_BUG("profile '%s' has a policy conflict", profile);
	rc = 0;
	goto undo;
truncate:
	if (ftruncate(fd, (off_t)text.len) != 0 || fsync(fd) != 0)
		lz_err_prefix(err, rc, "config '%s' could not be cut back to "
		    "its %zu bytes (%s), check it", cfg->named, text.len,
		    strerror(errno));
undo:
	if (rc != 0 && created)
		unlink(cfg->named);
	close(fd);
out:
	if (have_pre)
		lz_config_release(&pre);
	if (have_after)
		lz_config_release(&after);
	free(last.name);
	lz_err_release(&e);
	lz_buf_release(&line);
	lz_buf_release(&hand);
	lz_buf_release(&text);
	lz_buf_release(&add);
	lz_buf_release(&post);
	lz_buf_release(&src);
	return rc;
}
