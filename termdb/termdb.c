/*
 * termdb.c: terminfo lookup in ncurses' order, the place of Lazaret's own
 * entry, and atomic installation of an entry (termdb.h). libc only: an
 * entry is copied as bytes, never parsed here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "termdb/termdb.h"

#define TERMDB_SYSTEM "/etc/terminfo:/lib/terminfo:/usr/share/terminfo"

static int termdb_try(const char *dir, const char *term, char **path);
static int termdb_dirs(const char *list, const char *term, char **path,
    struct lz_buf *tried);
static int termdb_mkdir(const char *path, struct lz_err *err);
static char *termdb_dirname(const char *path);

int
lz_termdb_check_name(const char *term, struct lz_err *err)
{
	const char *p;

	if (term == NULL || term[0] == '\0')
		return lz_err_set(err, LZ_EINVAL, "TERM is empty or unset; "
		    "set it to the name of your terminal (e.g. xterm-256color)");
	if (strlen(term) > LZ_TERMDB_NAME_MAX)
		return lz_err_set(err, LZ_EINVAL, "TERM is longer than %d "
		    "characters", LZ_TERMDB_NAME_MAX);
	if (term[0] == '.')
		return lz_err_set(err, LZ_EINVAL, "TERM '%s' starts with '.'",
		    term);
	for (p = term; *p != '\0'; p++) {
		if (*p == '/' || (unsigned char)*p < 0x20 || *p == 0x7f)
			return lz_err_set(err, LZ_EINVAL, "TERM '%s' holds '/' "
			    "or a control character", term);
	}
	return 0;
}

/* 1 and *path when dir holds term in either layout. */
static int
termdb_try(const char *dir, const char *term, char **path)
{
	struct stat st;
	char *p;

	p = lz_xasprintf("%s/%c/%s", dir, term[0], term);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		*path = p;
		return 1;
	}
	free(p);
	p = lz_xasprintf("%s/%02x/%s", dir, (unsigned char)term[0], term);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		*path = p;
		return 1;
	}
	free(p);
	return 0;
}

/* Tries each directory of a colon list; "" means the system ones. */
static int
termdb_dirs(const char *list, const char *term, char **path,
    struct lz_buf *tried)
{
	char *copy = lz_xstrdup(list), *p = copy, *e;
	int found = 0;

	for (;;) {
		e = strchr(p, ':');
		if (e != NULL)
			*e = '\0';
		if (*p == '\0')
			found = termdb_dirs(TERMDB_SYSTEM, term, path, tried);
		else {
			lz_buf_addf(tried, "%s%s", tried->len ? ", " : "", p);
			found = termdb_try(p, term, path);
		}
		if (found || e == NULL)
			break;
		p = e + 1;
	}
	free(copy);
	return found;
}

int
lz_termdb_find(const char *term, const char *(*get)(const char *),
    char **path, struct lz_err *err)
{
	struct lz_buf tried = LZ_BUF_INIT;
	const char *v;
	char *home = NULL;
	int rc = 0;

	*path = NULL;
	if ((rc = lz_termdb_check_name(term, err)) != 0)
		return rc;
	if ((v = get("TERMINFO")) != NULL && v[0] != '\0') {
		lz_buf_adds(&tried, v);
		if (termdb_try(v, term, path))
			goto out;
	}
	if ((v = get("HOME")) != NULL && v[0] == '/') {
		home = lz_xasprintf("%s/.terminfo", v);
		lz_buf_addf(&tried, "%s%s", tried.len ? ", " : "", home);
		if (termdb_try(home, term, path))
			goto out;
	}
	if ((v = get("TERMINFO_DIRS")) != NULL) {
		if (termdb_dirs(v, term, path, &tried))
			goto out;
	} else if (termdb_dirs(TERMDB_SYSTEM, term, path, &tried))
		goto out;
	rc = lz_err_set(err, LZ_ENOTFOUND, "no terminfo entry for TERM '%s' "
	    "(searched %s); install it (e.g. the ncurses-term package) or set "
	    "TERM to a known terminal", term, tried.buf);
out:
	free(home);
	lz_buf_release(&tried);
	return rc;
}

static int
termdb_mkdir(const char *path, struct lz_err *err)
{
	struct stat st;

	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return lz_err_set(err, LZ_ESYS, "cannot create '%s': %s", path,
		    strerror(errno));
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return lz_err_set(err, LZ_EUNSAFE, "'%s' is not a directory",
		    path);
	return 0;
}

int
lz_termdb_install(const char *src, const char *dest_dir, const char *term,
    struct lz_err *err)
{
	char *letter = NULL, *dest = NULL, *tmp = NULL;
	char buf[8192];
	ssize_t n, w, off;
	int in = -1, out = -1, rc, saved;
	struct stat st;

	if ((rc = lz_termdb_check_name(term, err)) != 0)
		return rc;
	letter = lz_xasprintf("%s/%c", dest_dir, term[0]);
	dest = lz_xasprintf("%s/%s", letter, term);
	tmp = lz_xasprintf("%s/.%s.tmp.%ld", letter, term, (long)getpid());
	if ((rc = termdb_mkdir(dest_dir, err)) != 0 ||
	    (rc = termdb_mkdir(letter, err)) != 0)
		goto out;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = lz_err_set(err, in < 0 ? LZ_ESYS : LZ_EINVAL, "cannot "
		    "read terminfo entry '%s': %s", src, in < 0 ?
		    strerror(errno) : "not a regular file");
		goto out;
	}
	unlink(tmp);
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0644);
	if (out < 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot create '%s': %s", tmp,
		    strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = lz_err_set(err, LZ_ESYS, "cannot read '%s': %s",
			    src, strerror(errno));
			goto out;
		}
		for (off = 0; off < n; off += w) {
			w = write(out, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0) {
				rc = lz_err_set(err, LZ_ESYS, "cannot write "
				    "'%s': %s", tmp, strerror(errno));
				goto out;
			}
		}
	}
	if (fchmod(out, 0644) != 0 || fsync(out) != 0 || close(out) != 0) {
		out = -1;
		rc = lz_err_set(err, LZ_ESYS, "cannot write '%s': %s", tmp,
		    strerror(errno));
		goto out;
	}
	out = -1;
	if (rename(tmp, dest) != 0) {
		rc = lz_err_set(err, LZ_ESYS, "cannot rename '%s' to '%s': %s",
		    tmp, dest, strerror(errno));
		goto out;
	}
out:
	saved = errno;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (rc != 0)
		unlink(tmp);
	free(letter);
	free(dest);
	free(tmp);
	errno = saved;
	return rc;
}

/* path up to its last '/' ("/" for "/x", "." for "x"), allocated. */
static char *
termdb_dirname(const char *path)
{
	const char *e = strrchr(path, '/');

	if (e == NULL)
		return lz_xstrdup(".");
	while (e > path && e[-1] == '/')
		e--;
	if (e == path)
		return lz_xstrdup("/");
	return lz_xasprintf("%.*s", (int)(e - path), path);
}

int
lz_termdb_lazaret_entry(const char *exe, const char *(*get)(const char *),
    char **path, struct lz_err *err)
{
	struct lz_buf tried = LZ_BUF_INIT;
	char self[PATH_MAX], *bindir = NULL, *prefix = NULL, *dir = NULL;
	const char *v;
	ssize_t n;
	int rc = 0;

	*path = NULL;
	if ((v = get("LZ_TERMINFO_DIR")) != NULL && v[0] != '\0') {
		/* Only there, so a test never reads an installed entry. */
		lz_buf_adds(&tried, v);
		if (!termdb_try(v, LZ_TERMDB_LAZARET, path))
			goto notfound;
		goto out;
	}
	if (exe == NULL) {
		n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0 || (size_t)n >= sizeof self - 1) {
			rc = lz_err_set(err, LZ_ESYS, "cannot find the lazaret "
			    "executable: readlink '/proc/self/exe': %s",
			    n < 0 ? strerror(errno) : "name too long");
			goto out;
		}
		self[n] = '\0';
		exe = self;
	}
	bindir = termdb_dirname(exe);
	prefix = termdb_dirname(bindir);
	/* Installed: <prefix>/bin/lazaret beside <prefix>/share. */
	dir = lz_xasprintf("%s%sshare/lazaret/terminfo", prefix,
	    strcmp(prefix, "/") == 0 ? "" : "/");
	lz_buf_adds(&tried, dir);
	if (termdb_try(dir, LZ_TERMDB_LAZARET, path))
		goto out;
	free(dir);
	/* The build tree: the entry compiled next to the binary. */
	dir = lz_xasprintf("%s%sterminfo", bindir,
	    strcmp(bindir, "/") == 0 ? "" : "/");
	lz_buf_addf(&tried, ", %s", dir);
	if (termdb_try(dir, LZ_TERMDB_LAZARET, path))
		goto out;
notfound:
	rc = lz_err_set(err, LZ_ENOTFOUND, "no compiled '%s' terminfo entry "
	    "(searched %s); reinstall lazaret or rebuild it (the build "
	    "compiles termdb/lazaret.ti with tic)", LZ_TERMDB_LAZARET,
	    tried.buf);
out:
	free(bindir);
	free(prefix);
	free(dir);
	lz_buf_release(&tried);
	return rc;
}

const char *
lz_termdb_getenv(const char *name)
{
	return getenv(name);
}
