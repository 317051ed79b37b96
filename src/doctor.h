/*
 * doctor.h: the prerequisite checks of "lazaret doctor". Each check looks
 * at one thing and fills a struct lz_doctor_result (ok, what it found, and
 * for a failure the exact command that fixes it); the checks never print.
 * cmd-doctor.c runs the table and prints it. Files: doctor-run.c (table,
 * context, results), doctor-tools.c (podman, runsc, the shim),
 * doctor-host.c (IDs, devices, cgroups, runtime dir), doctor-podman.c
 * (running podman, the images), doctor-storage.c (podman's storage beside
 * the file set-up wrote), doctor-cas.c (the local CAs the image carries).
 */
#ifndef LZ_DOCTOR_H
#define LZ_DOCTOR_H

#include <sys/types.h>

#include "core/spawn.h"

#define LZ_DOCTOR_IMAGE "localhost/lazaret/base:bookworm"
#define LZ_DOCTOR_SHIM "lazaret-runsc"

struct lz_doctor_ctx {
	uid_t uid;
	gid_t gid;
	char *user;		/* login name of the caller */
	char *home;		/* the caller's home (passwd), or NULL */
	char *setup;		/* "sudo .../setup.sh --user NAME" */
	char *exe_dir;		/* directory of the running lazaret, or NULL */
	char *podman;		/* podman's path, NULL when not found */
};

struct lz_doctor_result {
	int ok;
	char *detail;		/* what was found, one line */
	char *fix;		/* the command that fixes it; NULL when ok */
};

struct lz_doctor_check {
	const char *name;
	int user_level;		/* about the caller's account: not as root */
	void (*run)(struct lz_doctor_ctx *ctx, struct lz_doctor_result *res);
};

extern const struct lz_doctor_check lz_doctor_checks[];
extern const size_t lz_doctor_nchecks;

void lz_doctor_ctx_init(struct lz_doctor_ctx *ctx);
void lz_doctor_ctx_release(struct lz_doctor_ctx *ctx);
void lz_doctor_result_release(struct lz_doctor_result *res);

/* Set res to a pass or a failure; detail is a printf format. */
void lz_doctor_pass(struct lz_doctor_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lz_doctor_fail(struct lz_doctor_result *res, char *fix,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Copies the last non-empty line of s (output of a tool) into a string. */
char *lz_doctor_last_line(const char *s);

/*
 * Runs the caller's podman with args (NULL-terminated, without "podman")
 * in envp (NULL: the caller's environment); on a spawn failure fills res
 * with the failure and returns -1, else 0 and the caller reads r.
 */
int lz_doctor_podman_run(struct lz_doctor_ctx *ctx,
    struct lz_doctor_result *res, const char *const *args,
    const char *const *envp, struct lz_spawn_result *r);

void lz_doctor_rootless(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_podman(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_runsc(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_shim(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_subuid(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_subgid(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_tun(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_fuse(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_cgroups(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_runtime_dir(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_storage(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_image(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_image_cas(struct lz_doctor_ctx *, struct lz_doctor_result *);
void lz_doctor_sidecar_image(struct lz_doctor_ctx *,
    struct lz_doctor_result *);

#endif
