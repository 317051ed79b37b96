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
 * session's exit status (0-255), 0 after a detach, or -1 after printing
 * why it could not run.
 */
int lz_client_session(struct lz_conn_client *cc, const struct lz_client *c,
    char **argv, int argc, int tty, const char *attach);

/*
 * The OPEN request: argv (argc 0: the profile's command), the sandbox
 * directory matching the current one, the profile's env values; with tty,
 * the size and term with its compiled terminfo entry when one is found.
 */
json_t *lz_client_open_request(const struct lz_client *c, char **argv,
    int argc, int tty, unsigned rows, unsigned cols, const char *term);

#endif
