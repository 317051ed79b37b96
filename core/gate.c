/*
 * gate.c: the sandbox's creation waits for the verified sidecar (gate.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/bundle.h"
#include "core/gate.h"

static void	 on_alarm(int sig);
static int	 read_line(const char *path, char *line, size_t size,
		     struct lz_err *err);
static const char *config_netns(json_t *cfg);

int
lz_gate_open(const char *path, struct lz_err *err)
{
	int fd;

	if (unlink(path) != 0 && errno != ENOENT)
		return lz_err_set(err, LZ_ESYS, "cannot remove '%s': %s", path,
		    strerror(errno));
	if (mkfifo(path, 0600) != 0)
		return lz_err_set(err, LZ_ESYS, "cannot make the FIFO '%s': %s",
		    path, strerror(errno));
	if ((fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return lz_err_set(err, LZ_ESYS, "cannot open the gate '%s': %s",
		    path, strerror(errno));
	return fd;
}

int
lz_gate_say(int fd, const char *line, struct lz_err *err)
{
	struct lz_buf b = LZ_BUF_INIT;
	int rc = 0;

	lz_buf_addf(&b, "%s\n", line);
	if (b.len >= LZ_GATE_LINE_MAX || strchr(line, '\n') != NULL)
		rc = lz_err_set(err, LZ_EINVAL, "a gate line is one line of "
		    "less than %d bytes", LZ_GATE_LINE_MAX);
	/* Less than PIPE_BUF: one write, never short. */
	else if (write(fd, b.buf, b.len) != (ssize_t)b.len)
		rc = lz_err_set(err, LZ_ESYS, "cannot write to the gate: %s",
		    strerror(errno));
	lz_buf_release(&b);
	return rc;
}

int
lz_gate_judge(const char *line, const char *netns, struct lz_err *err)
{
	char want[64];
	const char *p;
	char *end;
	long pid;

	if (strncmp(line, "no ", 3) == 0)
		return lz_err_set(err, LZ_EUNSAFE, "the coordinator did not "
		    "let the sandbox be created: %.*s",
		    (int)strcspn(line + 3, "\n"), line + 3);
	if (strncmp(line, "go ", 3) != 0)
		return lz_err_set(err, LZ_EUNSAFE, "the gate said '%.40s', not "
		    "\"go PID\"", line);
	p = line + 3;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (*p < '1' || *p > '9' || errno != 0 || pid <= 0 || pid > 1 << 30 ||
	    (*end != '\0' && strcmp(end, "\n") != 0))
		return lz_err_set(err, LZ_EUNSAFE, "the gate said '%.40s', not "
		    "\"go PID\"", line);
	snprintf(want, sizeof want, "/proc/%ld/ns/net", pid);
	if (netns == NULL || strcmp(netns, want) != 0)
		return lz_err_set(err, LZ_EUNSAFE, "the sandbox would join the "
		    "network namespace '%s', not the verified network sidecar's "
		    "(%s): refused", netns ? netns : "(none: a new one)", want);
	return 0;
}

static void
on_alarm(int sig)
{
	(void)sig;
}

/*
 * One line from the FIFO at path, NUL-terminated, within LZ_GATE_WAIT_MS.
 * Opened without waiting for a writer, then read blocking: with nobody
 * holding the other end (no coordinator, or one that died) the read ends
 * at once.
 */
static int
read_line(const char *path, char *line, size_t size, struct lz_err *err)
{
	struct sigaction sa, old;
	struct stat st;
	size_t len = 0;
	ssize_t n;
	int fd = -1, rc = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;	/* no SA_RESTART: open/read get EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	alarm((LZ_GATE_WAIT_MS + 999) / 1000);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "cannot open the gate '%s': %s",
		    path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode) ||
	    fcntl(fd, F_SETFL, 0) != 0) {
		rc = lz_err_set(err, LZ_EUNSAFE, "the gate '%s' is not a FIFO",
		    path);
		goto out;
	}
	while (len + 1 < size && (len == 0 || line[len - 1] != '\n')) {
		n = read(fd, line + len, size - 1 - len);
		if (n < 0 && errno == EINTR) {
			rc = lz_err_set(err, LZ_EUNSAFE, "no word from the "
			    "coordinator at the gate '%s' within %d s", path,
			    LZ_GATE_WAIT_MS / 1000);
			break;
		}
		if (n < 0) {
			rc = lz_err_set(err, LZ_ESYS, "cannot read the gate "
			    "'%s': %s", path, strerror(errno));
			break;
		}
		if (n == 0) {
			if (len == 0)
				rc = lz_err_set(err, LZ_EUNSAFE, "no coordinator "
				    "holds the gate '%s' (the sandbox is created "
				    "only by lazaret, once its network sidecar "
				    "is verified)", path);
			break;
		}
		len += (size_t)n;
	}
	line[len] = '\0';
out:
	alarm(0);
	sigaction(SIGALRM, &old, NULL);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The network namespace path of an OCI config, or NULL. */
static const char *
config_netns(json_t *cfg)
{
	json_t *ns = json_object_get(json_object_get(cfg, "linux"),
	    "namespaces"), *o;
	size_t i;

	json_array_foreach(ns, i, o) {
		if (json_is_string(json_object_get(o, "type")) &&
		    strcmp(json_string_value(json_object_get(o, "type")),
		    "network") == 0)
			return json_string_value(json_object_get(o, "path"));
	}
	return NULL;
}

int
lz_gate_annot_wait(const char *bundle, struct lz_err *err)
{
	char line[LZ_GATE_LINE_MAX];
	const char *gate;
	char *path;
	json_t *cfg;
	int rc = 0;

	if ((cfg = lz_bundle_load(bundle, &path, err)) == NULL) {
		rc = LZ_ESYS;
		goto out;
	}
	if ((gate = lz_bundle_annotation(cfg, LZ_GATE_ANNOTATION)) == NULL)
		goto out;
	if (gate[0] != '/') {
		rc = lz_err_set(err, LZ_EINVAL, "the gate '%s' is not an "
		    "absolute path", gate);
		goto out;
	}
	if ((rc = read_line(gate, line, sizeof line, err)) == 0)
		rc = lz_gate_judge(line, config_netns(cfg), err);
out:
	json_decref(cfg);
	free(path);
	return rc;
}
