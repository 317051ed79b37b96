/*
 * client-tty.h: the host terminal of a raw session (DX-5). Raw mode is
 * entered once and restored on every exit path: normal return, error,
 * exit(), SIGTERM, SIGHUP, SIGINT, SIGQUIT, and the coordinator vanishing
 * (the relay loop returns). Restoring is idempotent and async-signal-safe.
 */
#ifndef LZ_CLIENT_TTY_H
#define LZ_CLIENT_TTY_H

#include <stddef.h>

/* Saves fd's settings and makes it raw. Returns 0 or -errno. */
int lz_tty_raw(int fd);
/*
 * Bytes lz_tty_restore writes to the terminal first (at most 256: the
 * TUI's way out of its screen), once.
 */
void lz_tty_on_restore(const char *bytes, size_t len);
/* Puts the saved settings back (no-op when nothing was saved). */
void lz_tty_restore(void);
/* Rows and columns of fd, or 24x80 when it is not a terminal. */
void lz_tty_size(int fd, unsigned *rows, unsigned *cols);
/* The cell's pixels from fd's window size, or 0 x 0 when not known. */
void lz_tty_cell(int fd, unsigned *w, unsigned *h);

/*
 * Signals the relay loop must see: SIGWINCH, SIGTERM, SIGHUP, SIGINT and
 * SIGQUIT are written (one byte, the signal number) to a non-blocking
 * close-on-exec pipe whose read end this returns.
 */
int lz_tty_signal_pipe(void);

#endif
