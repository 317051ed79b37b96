/*
 * client-session.h: one Client Session seen from the host: OPEN, then the
 * relay of input, output, window size and signals until EXIT.
 */
#ifndef LZ_CLIENT_SESSION_H
#define LZ_CLIENT_SESSION_H

#include "src/client-conn.h"

/*
 * Opens a session on cc running argv (argc 0: the profile's command) at
 * the sandbox path that matches the current directory, or, with attach
 * set, attaches to that running pty session. tty: on a pty, with the host
 * terminal raw; Ctrl-] d then detaches (ui/escape.h). Returns the
 * session's exit status (0-255), 0 after a detach, -2 when the Domain
 * failed under it (sandbox or sidecar gone; the message printed says what
 * Lazaret did), or -1 after printing why it could not run.
 */
int lz_client_session(struct lz_conn_client *cc, const struct lz_client *c,
    char **argv, int argc, int tty, const char *attach);

/*
 * The OPEN request: argv (argc 0: the profile's command), the sandbox
 * directory matching the current one, the profile's env values; with tty,
 * the size and term with its compiled terminfo entry when one is found.
 */
void lz_client_open_request(const struct lz_client *c, char **argv,
    int argc, int tty, unsigned rows, unsigned cols, const char *term,
    struct lz_msg_open *m);

/*
 * The coordinator's answer to OPEN (OPENED: the Session ID into id) or to
 * ATTACH (ATTACHED); sets the input window. LZ_EINVAL otherwise.
 */
int lz_client_opened(struct lz_conn_client *cc, const struct lz_frame *f,
    int attach, char *id, size_t idlen, struct lz_err *err);
/*
 * Input to the session: appends INPUT frames for as much of buf as the
 * input window allows (wire.md 1.4) and returns how much that was; the
 * caller keeps the rest until an ACK (lz_client_ack) makes room.
 */
size_t lz_client_input(struct lz_conn_client *cc, struct lz_buf *frames,
    const void *buf, size_t len);
int lz_client_ack(struct lz_conn_client *cc, const struct lz_frame *f,
    struct lz_err *err);
/* The status of an EXIT frame (its reason printed), or -1. */
int lz_client_exit(const struct lz_frame *f, struct lz_err *err);

#endif
